/**
 * What the README and the docs it sends a newcomer to teach holds (issue 13,
 * the first hour; issue 23, the five-minute README): the BEHAVIOR.md
 * frontmatter of docs/SPECS.md parses with every field it names, its pairing
 * example (one email answering two refunds) judges as it says, the docs tell
 * where `.cache/` goes, and the README's own examples (the agent-repo path,
 * the worked example's output, the rules, the command list and the trace
 * formats) are what the code does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { fromChoices } from "../../compiler/commands/trace-flags.js";
import { compileYaml, importBundled } from "../support/judges.js";
import { ROOT, runCli } from "../support/cli.js";
import "../../testing/vitest.js";

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const README = read("README.md");
const SPECS = read("docs/SPECS.md");
const CLI_DOC = read("docs/CLI.md");
/** The prose with its line breaks as spaces, so rewrapping a paragraph breaks no test. */
const flat = (text: string) => text.replace(/\s+/g, " ");
const FLAT = flat(README);

/** The fenced block of `lang` ("" for none) in `text` whose text starts with `start`. */
function block(lang: string, start: string, text = README, name = "README"): string {
  for (const m of text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) if (m[1] === lang && m[2]!.startsWith(start)) return m[2]!;
  throw new Error(`${name} has no \`\`\`${lang} block starting with ${JSON.stringify(start)}`);
}

test("docs/SPECS.md's BEHAVIOR.md frontmatter is valid, with each field it documents", () => {
  const front = block("markdown", "---\nname:", SPECS, "docs/SPECS.md");
  const parsed = parseBehaviorMd(`${front}\n## A rule\n\nThe agent does one thing.\n`);
  expect(parsed.ok && parsed.spec).toMatchObject({
    name: "refund-support",
    description: "How the support agent handles refunds.",
    license: "Apache-2.0",
    metadata: { owner: "payments" },
  });
  for (const field of ["`name`", "`description`", "judge.yaml's `behavior`"]) expect(flat(SPECS)).toContain(field);
});

test("docs/SPECS.md's pairing example: one followedBy event answers several each events, as it says", async () => {
  const check = block("yaml", "- type: pairing", SPECS, "docs/SPECS.md");
  const yaml = `version: 1
behavior: demo
metaBehaviors:
  - name: Confirm refunds
    trigger:
      description: A refund is approved.
      match: { action: issue_refund_result }
    checks:
${check
  .trimEnd()
  .split("\n")
  .map((line) => `      ${line}`)
  .join("\n")}
    semanticChecks: []
`;
  const judge = await importBundled((await compileYaml(yaml)).compiled);
  const approved = (id: string) => ({ id, actor: "tool", action: "issue_refund_result", metadata: { status: "approved" } });
  const email = (id: string) => ({ id, actor: "agent", action: "send_email" });
  const user = { id: "e1", actor: "user", action: "message", content: "refund both orders" };
  const once = await judge.judgeTrajectory({ id: "t1", complete: true, events: [user, approved("e2"), approved("e4"), email("e5")] });
  expect(once.verdict).toBe("true");
  expect(flat(SPECS)).toContain("true, e5 answers both e2 and e4");
  const between = await judge.judgeTrajectory({ id: "t2", complete: true, events: [user, approved("e2"), email("e3"), approved("e4")] });
  expect(between.verdict).toBe("false");
  expect(between.metaBehaviors[0]!.clauses[0]!.citations.map((c) => c.eventId)).toEqual(["e4"]);
  expect(flat(SPECS)).toContain("e4 is unanswered: false, citing e4");
});

test("the docs say .cache/ belongs in .gitignore and that init puts it there", () => {
  expect(flat(read("docs/MODEL.md"))).toContain("`.cache/` belongs in your `.gitignore`, and `init` puts it there");
  expect(flat(CLI_DOC)).toContain("It also adds `.cache/` to `.gitignore`");
});

test("the README's agent-repo commands are the newcomer path the pack test runs: install, init, npm test", async () => {
  const section = README.slice(README.indexOf("## In your agent repo"));
  const commands = block("sh", "npm i -D behavior-judge")
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, ""))
    .filter((line) => line !== "");
  expect(section.startsWith("## In your agent repo\n\n```sh\nnpm i -D behavior-judge")).toBe(true);
  expect(commands).toEqual(["npm i -D behavior-judge", "npx behavior-judge init", "npm test"]);
  expect(FLAT).not.toContain("init refund-support");
  // The violating trajectory docs/CLI.md shows for init is one the scaffolded judge fails.
  const violation = JSON.parse(block("json", '{ "id": "deletes-without-asking"', CLI_DOC, "docs/CLI.md"));
  const yaml = readFileSync(join(ROOT, "templates", "init", "judge.yaml"), "utf8").replace(/\{\{name\}\}/g, "agent-repo");
  const judge = await importBundled((await compileYaml(yaml)).compiled);
  const judgment = await judge.judgeTrajectory(violation);
  expect(judgment.verdict).toBe("false");
  const quote = judgment.metaBehaviors[0]!.clauses[0]!.quote;
  expect(flat(CLI_DOC)).toContain(`ordering [false]: "${quote}"`);
});

describe("the five-minute README (issue 23)", () => {
  test("is under 200 lines", () => {
    // Counted as `wc -l` counts them.
    expect(README.trimEnd().split("\n").length).toBeLessThan(200);
  });

  test("states the seed's head-to-head figures", () => {
    for (const figure of ["720 rule verdicts", "682", "94.7%", "3 of its 20 runs", "58 of the 72"]) expect(FLAT).toContain(figure);
  });

  test("its worked example is what judge prints for the recorded Chat Completions log", () => {
    const command = block("sh", "npx behavior-judge judge ").trim().split(" ").slice(2);
    const run = runCli([...command, "--no-web"]);
    expect(run.status).toBe(0);
    const shown = block("", "FAIL  chatcmpl-").split("\n");
    // The lines that carry the verdict: the trajectory's, the failing rule's and its clause with the cited event.
    const actual = run.stdout.split("\n");
    for (const line of [shown[0]!, ...shown.filter((l) => /^ {2}FAIL {2}|^ {6}false pairing: /.test(l))]) expect(actual).toContain(line);
    expect(shown.some((l) => l.includes('false pairing: "Whenever the payment processor approves a refund') && l.includes("[e11"))).toBe(
      true,
    );
  });

  test("its rules build and judge as it says", async () => {
    const checks = block("yaml", "- type: ordering\n  quote: A refund over $500");
    const [amount, sameId, condition] = checks.split(/\n(?=- type: )/);
    const indent = (text: string) =>
      text
        .trimEnd()
        .split("\n")
        .map((line) => `      ${line}`)
        .join("\n");
    const rule = (name: string, check: string) =>
      `  - name: ${name}\n    trigger:\n      description: any agent event\n      match: { actor: agent }\n    checks:\n${indent(check!)}\n    semanticChecks: []\n`;
    const yaml = `version: 1\nbehavior: demo\nmetaBehaviors:\n${rule("Amount", amount!)}${rule("Same id", sameId!)}${rule("Condition", condition!)}`;
    const judge = await importBundled((await compileYaml(yaml)).compiled);
    const verdicts = async (events: object[]) =>
      (await judge.judgeTrajectory({ id: "t", complete: true, events })).metaBehaviors.map((m) => m.verdict);
    const refund = (id: string, amount: string) => ({ id, actor: "agent", action: "issue_refund", metadata: { amount } });
    const approval = { id: "e1", actor: "tool", action: "approve_refund_result", metadata: { status: "approved" } };
    expect((await verdicts([refund("e1", "400")]))[0]).toBe("na");
    expect((await verdicts([refund("e1", "600")]))[0]).toBe("false");
    expect((await verdicts([approval, refund("e2", "600")]))[0]).toBe("true");
    const details = (id: string, reservation: string, cabin: string, insurance: string) => ({
      id,
      actor: "tool",
      action: "get_reservation_details_result",
      metadata: { reservation_id: reservation, cabin, insurance },
    });
    const cancel = (id: string, reservation: string) => ({
      id,
      actor: "agent",
      action: "cancel_reservation",
      metadata: { reservation_id: reservation },
    });
    expect((await verdicts([details("e1", "R1", "economy", "yes"), cancel("e2", "R1")])).slice(1)).toEqual(["true", "true"]);
    // Looked up R1, cancelled R2: the same-id rule fails; R2 has no details, so the condition's r is unbound.
    expect((await verdicts([details("e1", "R1", "business", "no"), cancel("e2", "R2")]))[1]).toBe("false");
    const economy = await judge.judgeTrajectory({
      id: "t",
      complete: true,
      events: [details("e1", "R1", "economy", "no"), cancel("e2", "R1")],
    });
    expect(economy.metaBehaviors[2]!.verdict).toBe("false");
    expect(FLAT).toContain('r.cabin = "economy"; r.insurance = "no"');
  });

  test("its test and guard snippets do what they say with the refund example's judge", async () => {
    const judge = (await import(join(ROOT, "examples", "refund-support", "judge.mjs"))) as {
      createMonitor: (header: { id: string }) => { check: (e: object) => { rule: string; quote: string }[] };
      behavior: string;
    };
    // The test: the recorded log, a trace, fails the judge with the rule it breaks.
    expect(block("js", 'import { expect, test } from "vitest";')).toContain("await expect(chatLog).toSatisfyBehavior(judge);");
    const chatLog = JSON.parse(read("examples/refund-support/traces/chat-log.json"));
    await expect(expect(chatLog).toSatisfyBehavior(judge as never)).rejects.toThrow(/Email a confirmation for every approved refund/);
    // The guard: a refund before any lookup is refused, naming the rule and its quote, and nothing changed.
    const snippet = block("js", 'import { createMonitor } from "./judge.mjs";');
    const call = JSON.parse(/const call = (\{.*\});/.exec(snippet)![1]!.replace(/(\w+):/g, '"$1":'));
    const monitor = judge.createMonitor({ id: "session-7" });
    const violations = monitor.check(call);
    expect(violations.map((v) => v.rule)).toEqual(["Look up the order before paying anything out"]);
    expect(monitor.check(call)).toEqual(violations);
  });

  test("its command list names every command the CLI has, init included", () => {
    const list = block("", "behavior-judge init");
    const top = runCli(["--help"]).stdout;
    const commands = [...top.slice(top.indexOf("Commands:")).matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1]!).filter((c) => c !== "help");
    expect(commands).toContain("init");
    for (const command of commands) expect(list, command).toMatch(new RegExp(`(behavior-judge|\\|) ${command} `));
  });

  test("its trace-format table has a row for every format --from takes", () => {
    const rows = [...README.matchAll(/^\| `([a-z][a-z-]*)` \|/gm)].map((m) => m[1]!);
    expect(rows.sort()).toEqual(
      fromChoices()
        .filter((f) => f !== "auto")
        .sort(),
    );
  });
});
