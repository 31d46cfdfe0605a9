/**
 * `generate` end to end: the library call with a scripted interviewer, and
 * the real command with the terminal interview fed from stdin. The issue's
 * "done when": an offline draft of the refund example, every default
 * accepted, builds and calibrates against the example's labels.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateJudgeYaml } from "../../compiler/generate/pipeline.js";
import type { InterviewInput } from "../../compiler/generate/types.js";
import { parseJudgeYaml } from "../../compiler/ir/parse.js";
import { serializeJudgeYaml } from "../../compiler/ir/serialize.js";
import { buildJudgeFile } from "../../compiler/commands/build.js";
import { BIN, ROOT, runCli } from "../support/cli.js";
import { inOrder, startChatServer, type ChatServer } from "../support/chat-server.js";
import { EXAMPLE_DIRS, loadReferenceCase, trajectoryFiles } from "./drafting-fixtures.js";

const REFUND = EXAMPLE_DIRS[0]!;
const refundCases = trajectoryFiles(REFUND);
const temp = () => mkdtempSync(join(tmpdir(), "bj-generate-"));

/** Accepts the whole draft, counting a question per clause of each asked rule, the way the interview does. */
function acceptAll(seen: InterviewInput[] = []) {
  return async (input: InterviewInput) => {
    seen.push(input);
    const asked = input.ask ?? input.draft.ir.metaBehaviors.map((_, i) => i);
    const questionsAsked = asked.reduce((n, i) => {
      const rule = input.draft.ir.metaBehaviors[i]!;
      return n + 1 + rule.checks.length + rule.semanticChecks.length;
    }, 0);
    return { ir: input.draft.ir, questionsAsked };
  };
}

describe("generateJudgeYaml", () => {
  it("drafts offline, interviews, and writes a judge.yaml that parses, with source: on every rule", async () => {
    const out = join(temp(), "judge.yaml");
    const seen: InterviewInput[] = [];
    const result = await generateJudgeYaml({ spec: REFUND, samples: refundCases, out, interviewer: acceptAll(seen), compile: false });
    expect(result).toMatchObject({ out, rules: 4, carried: 0, modelCalls: 0, drafter: "offline" });
    expect(seen[0]!.samples).toHaveLength(12);
    expect(seen[0]!.vocabulary.actions.map((a) => a.action)).toContain("get_order_result");
    expect(seen[0]!.ask).toBeUndefined();
    const parsed = parseJudgeYaml(readFileSync(out, "utf8"));
    expect(parsed.ok).toBe(true);
    const refund = loadReferenceCase(REFUND);
    if (parsed.ok) expect(parsed.ir.metaBehaviors.map((r) => r.source)).toEqual(refund.spec.sections.map((s) => s.body));
  });

  it("writes a judge.yaml for a spec with an empty section: that rule has no source (an empty one is invalid)", async () => {
    const dir = temp();
    const spec = join(dir, "BEHAVIOR.md");
    writeFileSync(
      spec,
      "---\nname: refund-support\ndescription: d\n---\n\n## Nothing here yet\n\n## Credit\n\nThe agent must never issue store credit.\n",
    );
    const out = join(dir, "judge.yaml");
    const result = await generateJudgeYaml({ spec, samples: refundCases, out, interviewer: acceptAll(), compile: false });
    expect(result.rules).toBe(2);
    const parsed = parseJudgeYaml(readFileSync(out, "utf8"));
    expect(parsed.ok && parsed.ir.metaBehaviors.map((r) => r.source)).toEqual([undefined, "The agent must never issue store credit."]);
  });

  it("skips the interview when an update finds nothing changed", async () => {
    const dir = temp();
    const previous = join(dir, "judge.yaml");
    cpSync(join(REFUND, "judge.yaml"), previous);
    let interviews = 0;
    const result = await generateJudgeYaml({
      spec: REFUND,
      samples: refundCases,
      out: previous,
      update: previous,
      interviewer: async (input) => {
        interviews++;
        return { ir: input.draft.ir, questionsAsked: 0 };
      },
      compile: false,
    });
    expect(interviews).toBe(0);
    expect(result).toMatchObject({ rules: 4, carried: 4, questionsAsked: 0, modelCalls: 0, drafter: "none" });
    // The file is edited in place, and nothing changed: it stays byte for byte as it was.
    expect(readFileSync(previous, "utf8")).toBe(readFileSync(join(REFUND, "judge.yaml"), "utf8"));
  });

  it("tells the interview which rules to ask and which clauses are settled on a one-sentence edit", async () => {
    const dir = temp();
    cpSync(REFUND, dir, { recursive: true });
    const spec = join(dir, "BEHAVIOR.md");
    writeFileSync(spec, readFileSync(spec, "utf8").replace("at most three different orders", "at most two different orders"));
    const seen: InterviewInput[] = [];
    const result = await generateJudgeYaml({
      spec,
      samples: refundCases,
      out: join(dir, "judge.yaml"),
      update: join(dir, "judge.yaml"),
      interviewer: acceptAll(seen),
      compile: false,
    });
    expect(seen[0]!.ask).toEqual([3]);
    expect(seen[0]!.settled).toEqual([{ rule: 3, clause: { kind: "trigger" } }]);
    expect(result).toMatchObject({ rules: 4, carried: 3, modelCalls: 0 });
  });
});

describe("behavior-judge generate", () => {
  // Each `generate` run type-checks the judge it writes (a child process loading TypeScript): the builds after it run in
  // this process, where the checker loaded once serves every test, rather than in one more child each (issue 26).
  it("done when: --offline --no-web with every default accepted writes a judge.yaml that builds and calibrates", async () => {
    const dir = temp();
    const out = join(dir, "judge.yaml");
    const run = runCli(["generate", join(REFUND, "BEHAVIOR.md"), ...refundCases, "--offline", "--no-web", "-o", out], {
      input: "y\n".repeat(40),
    });
    expect(run.stderr).not.toContain("Error");
    expect(run.status).toBe(0);
    // Piped answers are no review: the summary says so and lists what is worth a look (issue 25).
    expect(run.stdout).toMatch(
      /^wrote .*judge\.yaml: 4 rules \(4 accepted without review\)\nquestions asked: \d+; model calls: 0 \(drafted offline\)\n(?:warnings on "[^"]+":\n(?: {2}- .*\n)+)*$/,
    );
    expect(await buildJudgeFile(out)).toEqual([join(dir, "judge.mjs"), join(dir, "judge.d.mts")]);
    expect(existsSync(join(dir, "judge.mjs"))).toBe(true);
    const calibrate = runCli(["calibrate", join(dir, "judge.mjs"), ...refundCases]);
    expect(calibrate.stdout).toContain("meta agreement 48/48, file agreement 12/12");
    expect(calibrate.status).toBe(0);
  });

  /** A one-rule spec whose rule carries warnings, with two samples: the arguments of `generate` for it. */
  function warnedSpec(): string[] {
    const dir = temp();
    writeFileSync(
      join(dir, "BEHAVIOR.md"),
      "---\nname: pushes\ndescription: Rules for the agent.\n---\nThe agent pushes code.\n\n## Never to main\n\nThe agent never pushes to `branch: main`. It must sign every push with `sign_commit`; a signature that is merely promised does not count.\n",
    );
    const samples = join(dir, "samples.json");
    writeFileSync(
      samples,
      JSON.stringify([
        { id: "a", complete: true, events: [{ id: "e1", actor: "agent", action: "git_push", metadata: { branch: "feature" } }] },
        { id: "b", complete: true, events: [{ id: "e1", actor: "agent", action: "git_push", metadata: { branch: "main" } }] },
      ]),
    );
    return ["generate", join(dir, "BEHAVIOR.md"), samples, "--offline", "--no-web", "-o", join(dir, "judge.yaml")];
  }

  // Two runs of `generate`, one a test: each type-checks in a child process of its own, which took near the time limit on a
  // loaded machine when one test ran both.
  it("without a terminal, lists the rules that carry warnings", () => {
    const run = runCli(warnedSpec());
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("1 rule (1 accepted without review)");
    expect(run.stdout).toContain('warnings on "Never to main":\n');
    expect(run.stdout).toContain("`sign_commit` is used as the spec writes it, though no sample shows it");
    expect(run.stdout).toContain('not covered: "a signature that is merely promised does not count"');
  });

  it("--fail-on-warning exits 1 when any rule carries warnings", () => {
    const strict = runCli([...warnedSpec(), "--fail-on-warning"]);
    expect(strict.status).toBe(1);
    expect(strict.stdout).toContain('warnings on "Never to main":\n');
    expect(strict.stderr).toContain("1 rule carries warnings (--fail-on-warning)");
  });

  it("drafts offline with a notice when no model is configured", () => {
    const out = join(temp(), "judge.yaml");
    const run = runCli(["generate", REFUND, ...refundCases, "--no-web", "-o", out]);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("behavior-judge: no model configured");
    expect(run.stderr).toContain("drafting offline");
  });

  it("replaces an existing judge.yaml beside the spec only after the review, keeping it as judge.yaml.bak", () => {
    const dir = temp();
    cpSync(REFUND, dir, { recursive: true });
    const before = readFileSync(join(dir, "judge.yaml"), "utf8");
    const run = runCli(["generate", dir, ...refundCases, "--offline", "--no-web"]);
    expect(run.status).toBe(0);
    expect(run.stdout + run.stderr).toContain(`kept as ${join(dir, "judge.yaml.bak")}`);
    expect(readFileSync(join(dir, "judge.yaml.bak"), "utf8")).toBe(before);

    // Declining at the review writes nothing: accept every question, then answer "n".
    const questions = Number(/questions asked: (\d+)/.exec(run.stdout + run.stderr)![1]);
    const other = temp();
    cpSync(REFUND, other, { recursive: true });
    const declined = runCli(["generate", other, ...refundCases, "--offline", "--no-web"], { input: "\n".repeat(questions) + "n\n" });
    expect(declined.status).not.toBe(0);
    expect(readFileSync(join(other, "judge.yaml"), "utf8")).toBe(before);
    expect(existsSync(join(other, "judge.yaml.bak"))).toBe(false);
  });

  it("--update after a one-sentence edit carries three rules over and asks only about the fourth", () => {
    const dir = temp();
    cpSync(REFUND, dir, { recursive: true });
    const spec = join(dir, "BEHAVIOR.md");
    writeFileSync(spec, readFileSync(spec, "utf8").replace("at most three different orders", "at most two different orders"));
    const run = runCli(["generate", spec, ...refundCases, "--offline", "--no-web", "--update", join(dir, "judge.yaml")]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/4 rules \(1 accepted without review, 3 carried over unchanged\)\nquestions asked: [12]; model calls: 0/);
    const parsed = parseJudgeYaml(readFileSync(join(dir, "judge.yaml"), "utf8"));
    expect(parsed.ok && parsed.ir.metaBehaviors[3]!.checks).toEqual([expect.objectContaining({ type: "count", max: 2 })]);
  });

  it("works without sample trajectories: names from the spec's code spans, one notice line, a judge.yaml that builds", async () => {
    const dir = temp();
    writeFileSync(
      join(dir, "BEHAVIOR.md"),
      [
        "---",
        "name: ticket-triage",
        "description: A support agent that triages tickets.",
        "---",
        "",
        "## Never delete a ticket",
        "",
        "The agent never deletes a ticket (`delete_ticket`); closing one is enough.",
        "",
        "Each session is one occurrence.",
        "",
      ].join("\n"),
    );
    const out = join(dir, "judge.yaml");
    const run = runCli(["generate", dir, "--offline", "--no-web", "-o", out], { input: "y\n".repeat(10) });
    expect(run.stderr).not.toContain("Error");
    expect(run.status).toBe(0);
    const notices = run.stderr.split("\n").filter((line) => line.includes("no sample trajectories"));
    expect(notices).toEqual([
      "behavior-judge: no sample trajectories: the vocabulary was guessed from the spec's wording and verdict previews are unavailable; check every action name against your traces",
    ]);
    const parsed = parseJudgeYaml(readFileSync(out, "utf8"));
    expect(parsed.ok && parsed.ir.metaBehaviors[0]!.checks).toEqual([
      { type: "forbidden", quote: "The agent never deletes a ticket (`delete_ticket`)", match: [{ action: "delete_ticket" }] },
    ]);
    expect(await buildJudgeFile(out)).toContain(join(dir, "judge.mjs"));
  });

  it("reports a bad sample file with file and field, and exits 1", () => {
    const dir = temp();
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ id: "x", complete: true, events: [{ id: "e1", actor: "robot", action: "a" }] }));
    const run = runCli(["generate", REFUND, bad, "--offline", "--no-web", "-o", join(dir, "judge.yaml")]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${bad}: case 0: events[0].actor must be`);
  });
});

describe("behavior-judge generate with a model", () => {
  const servers: ChatServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  /** spawnSync would block the scripted server in this process, so the command runs asynchronously. */
  function runAsync(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: ROOT,
        env: { ...process.env, BRAINTRUST_API_KEY: "", OPENAI_API_KEY: "", ...env },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.stdin.end();
      child.on("close", (status) => resolve({ status, stdout, stderr }));
    });
  }

  it("asks the model at --base-url once and writes its proposal", async () => {
    const reference = loadReferenceCase(REFUND).reference;
    const server = await startChatServer(
      inOrder({ reply: serializeJudgeYaml({ ...reference, metaBehaviors: reference.metaBehaviors.map(({ source: _s, ...r }) => r) }) }),
    );
    servers.push(server);
    const out = join(temp(), "judge.yaml");
    const run = await runAsync(
      ["generate", REFUND, ...refundCases, "--no-web", "--no-cache", "--base-url", server.baseURL, "--model", "scripted", "-o", out],
      { OPENAI_API_KEY: "k" },
    );
    expect(run.stderr).not.toContain("no model configured");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("model calls: 1 (drafted by the model)");
    expect(server.requests).toHaveLength(1);
    const parsed = parseJudgeYaml(readFileSync(out, "utf8"));
    expect(parsed.ok && parsed.ir).toEqual(reference);
  });

  it("sends a rule whose check fails every sample back to the model once, says so, and writes the re-draft", async () => {
    const reference = loadReferenceCase(REFUND).reference;
    const withoutSources = reference.metaBehaviors.map(({ source: _s, ...r }) => r);
    const misread = withoutSources.map((rule, i) =>
      i === 3
        ? { ...rule, checks: [{ type: "forbidden" as const, quote: rule.checks[0]!.quote, match: [{ action: "issue_refund" }] }] }
        : rule,
    );
    const server = await startChatServer(
      inOrder(
        { reply: serializeJudgeYaml({ ...reference, metaBehaviors: misread }) },
        { reply: serializeJudgeYaml({ ...reference, metaBehaviors: [withoutSources[3]!] }) },
      ),
    );
    servers.push(server);
    const out = join(temp(), "judge.yaml");
    const run = await runAsync(
      ["generate", REFUND, ...refundCases, "--no-web", "--no-cache", "--base-url", server.baseURL, "--model", "scripted", "-o", out],
      { OPENAI_API_KEY: "k" },
    );
    expect(run.status).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.lastUser).toContain("checks[0] fails every sample the rule applies to");
    expect(run.stderr).toContain(
      'behavior-judge: the preview on the samples sent "Refund at most three orders per session" back to the model once; the interview shows why',
    );
    // The terminal interview shows the note on the rule's first question.
    expect(run.stderr).toMatch(/note: re-drafted by the model: its first draft was sent back once because checks\[0\] fails every sample/);
    expect(run.stdout).toContain("model calls: 2 (drafted by the model)");
    const parsed = parseJudgeYaml(readFileSync(out, "utf8"));
    expect(parsed.ok && parsed.ir).toEqual(reference);
  });
});
