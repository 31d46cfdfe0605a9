/**
 * What the README teaches a newcomer holds (issue 13, the first hour): its
 * BEHAVIOR.md frontmatter parses with every field it names, its pairing
 * example (one email answering two refunds) judges as it says, and it tells
 * where `.cache/` goes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { compileYaml, importBundled } from "../support/judges.js";
import { ROOT } from "../support/cli.js";

const README = readFileSync(join(ROOT, "README.md"), "utf8");
/** The prose with its line breaks as spaces, so rewrapping a paragraph breaks no test. */
const FLAT = README.replace(/\s+/g, " ");

/** The fenced block of `lang` whose text starts with `start`. */
function block(lang: string, start: string): string {
  for (const m of README.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))) if (m[1]!.startsWith(start)) return m[1]!;
  throw new Error(`README has no \`\`\`${lang} block starting with ${JSON.stringify(start)}`);
}

test("the README's BEHAVIOR.md frontmatter is valid, with each field it documents", () => {
  const front = block("markdown", "---\nname:");
  const parsed = parseBehaviorMd(`${front}\n## A rule\n\nThe agent does one thing.\n`);
  expect(parsed.ok && parsed.spec).toMatchObject({
    name: "refund-support",
    description: "How the support agent handles refunds.",
    license: "Apache-2.0",
    metadata: { owner: "payments" },
  });
  for (const field of ["`name`", "`description`", "judge.yaml's `behavior`"]) expect(FLAT).toContain(field);
});

test("the README's pairing example: one followedBy event answers several each events, as it says", async () => {
  const check = block("yaml", "- type: pairing");
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
  expect(FLAT).toContain("true, e5 answers both e2 and e4");
  const between = await judge.judgeTrajectory({ id: "t2", complete: true, events: [user, approved("e2"), email("e3"), approved("e4")] });
  expect(between.verdict).toBe("false");
  expect(between.metaBehaviors[0]!.clauses[0]!.citations.map((c) => c.eventId)).toEqual(["e4"]);
  expect(FLAT).toContain("e4 is unanswered: false, citing e4");
});

test("the README says .cache/ belongs in .gitignore and that init puts it there", () => {
  expect(FLAT).toContain("`.cache/` belongs in your `.gitignore`, and `init` puts it there");
  expect(FLAT).toContain("It also adds `.cache/` to `.gitignore`");
});

test("the README's agent-repo commands are the newcomer path the pack test runs: install, init, npm test", async () => {
  const section = README.slice(README.indexOf("## In your agent repo"));
  const commands = block("sh", "npm i -D behavior-judge")
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, ""))
    .filter((line) => line !== "");
  expect(section.startsWith("## In your agent repo\n\n```sh\nnpm i -D behavior-judge")).toBe(true);
  expect(commands).toEqual(["npm i -D behavior-judge", "npx behavior-judge init", "npm test"]);
  // The violating trajectory it shows is one the scaffolded judge fails.
  const violation = JSON.parse(block("json", '{ "id": "deletes-without-asking"'));
  const yaml = readFileSync(join(ROOT, "templates", "init", "judge.yaml"), "utf8").replace(/\{\{name\}\}/g, "agent-repo");
  const judge = await importBundled((await compileYaml(yaml)).compiled);
  const judgment = await judge.judgeTrajectory(violation);
  expect(judgment.verdict).toBe("false");
  const quote = judgment.metaBehaviors[0]!.clauses[0]!.quote;
  expect(FLAT).toContain(`ordering [false]: "${quote}"`);
});
