/**
 * Issue 24, "Labels without glue": `label judge traces -o folder/` writes one
 * `{trajectory, expected, proposedBy}` file per case from the judge's own
 * verdicts, reading cases as `judge` does (imported formats, arrays,
 * folders); `calibrate` reads the folder back and agrees on everything.
 * Verdicts the judge did not decide are left unlabeled, never proposed.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ROOT, runCli } from "../support/cli.js";
import { proposeLabels } from "../../compiler/analyses/label.js";
import { caseFileNamer, safeStem } from "../../compiler/files/case-file-names.js";
import type { TrajectoryJudgment } from "../../runtime/types.js";

const REFUND = join(ROOT, "examples/refund-support/judge.mjs");
const REFUND_CASES = join(ROOT, "examples/refund-support/trajectories");
const TAX = join(ROOT, "examples/tax-research/judge.mjs");
const TAX_CASES = join(ROOT, "examples/tax-research/trajectories");
const IMPORTERS = join(ROOT, "test/fixtures/importers");
const LOOKUP = "Look up the order before paying anything out";

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "bj-label-"));
}

function readJson(path: string): any {
  return JSON.parse(readFileSync(path, "utf8"));
}

describe("label → calibrate round trip", () => {
  test("the refund example: one file per case, the judge's verdicts as labels, calibrate agrees on all", () => {
    const out = join(tempDir(), "labeled");
    const run = runCli(["label", REFUND, REFUND_CASES, "-o", out]);
    expect(run.status, run.stderr).toBe(0);
    const names = readdirSync(out).sort();
    expect(names).toHaveLength(12);
    expect(names).toContain("credit-before-lookup.json");
    expect(run.stdout).toContain("12 labeled cases written to");

    const file = readJson(join(out, "credit-before-lookup.json"));
    expect(Object.keys(file)).toEqual(["trajectory", "expected", "proposedBy"]);
    expect(file.trajectory.id).toBe("credit-before-lookup");
    expect(file.trajectory.events[2]).toMatchObject({ id: "e3", action: "issue_store_credit" });
    expect(file.expected).toEqual({
      verdict: "false",
      metaBehaviorVerdicts: {
        [LOOKUP]: "false",
        "Email a confirmation for every approved refund": "true",
        "Stop paying out once escalated": "na",
        "Refund at most three orders per session": "true",
      },
    });
    expect(file.proposedBy).toEqual({
      judge: "refund-support",
      version: expect.any(String),
      judgeYamlSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const calibrated = runCli(["calibrate", REFUND, out, "--json"]);
    expect(calibrated.status, calibrated.stderr).toBe(0);
    expect(JSON.parse(calibrated.stdout).totals).toMatchObject({ metaAgree: 48, metaTotal: 48, fileAgree: 12, fileTotal: 12, errors: 0 });
  });

  test("calibrate reads the labels, not the verdicts again: one corrected label is one disagreement", () => {
    const out = join(tempDir(), "labeled");
    expect(runCli(["label", REFUND, join(REFUND_CASES, "credit-before-lookup.json"), "-o", out]).status).toBe(0);
    const path = join(out, "credit-before-lookup.json");
    const file = readJson(path);
    file.expected.metaBehaviorVerdicts[LOOKUP] = "true";
    writeFileSync(path, JSON.stringify(file));
    const calibrated = runCli(["calibrate", REFUND, out]);
    expect(calibrated.status).toBe(1);
    expect(calibrated.stdout).toContain(`${LOOKUP}: expected true, got false`);
  });

  test("imported formats: an OpenAI chat file and a Claude Code session become labeled trajectories calibrate agrees with", () => {
    const dir = tempDir();
    const chat = join(dir, "chat");
    const judge = join(IMPORTERS, "refund-rules.judge.yaml");
    const chatRun = runCli(["label", judge, join(IMPORTERS, "openai-chat/refund-parallel.json"), "-o", chat]);
    expect(chatRun.status, chatRun.stderr).toBe(0);
    const [name] = readdirSync(chat);
    expect(name).toBe("chatcmpl-rec0004.json");
    const file = readJson(join(chat, name!));
    // The imported trajectory, in the trajectory format, with the native call ids kept.
    expect(file.trajectory).toMatchObject({ id: "chatcmpl-rec0004", complete: expect.any(Boolean) });
    expect(file.trajectory.events.some((e: any) => e.metadata?.["@call_id"] === "call_lookupA1001")).toBe(true);
    expect(file.expected.verdict).toBe("true");
    expect(file.proposedBy.judge).toBe("importer-round-trip");
    const chatCal = runCli(["calibrate", judge, chat, "--json"]);
    expect(chatCal.status, chatCal.stderr).toBe(0);
    expect(JSON.parse(chatCal.stdout).totals).toMatchObject({ metaAgree: 4, metaTotal: 4, fileAgree: 1, fileTotal: 1 });

    const code = join(dir, "code");
    const coding = join(IMPORTERS, "coding-rules.judge.yaml");
    const codeRun = runCli(["label", coding, join(IMPORTERS, "claude-code/interrupted-force-push.jsonl"), "-o", code]);
    expect(codeRun.status, codeRun.stderr).toBe(0);
    expect(readdirSync(code)).toHaveLength(1);
    const codeCal = runCli(["calibrate", coding, code, "--json"]);
    expect(codeCal.status, codeCal.stderr).toBe(0);
    const totals = JSON.parse(codeCal.stdout).totals;
    expect(totals.metaTotal).toBeGreaterThan(0);
    expect(totals.metaAgree).toBe(totals.metaTotal);
  });

  test("an array .json and JSON Lines: every case gets its own file", () => {
    const dir = tempDir();
    const trajectories = ["clean-single-refund", "credit-before-lookup"].map((n) => readJson(join(REFUND_CASES, `${n}.json`)).trajectory);
    writeFileSync(join(dir, "both.json"), JSON.stringify(trajectories));
    writeFileSync(join(dir, "more.jsonl"), `${JSON.stringify({ ...trajectories[0], id: "from-jsonl" })}\n`);
    const out = join(dir, "labeled");
    const run = runCli(["label", REFUND, join(dir, "both.json"), join(dir, "more.jsonl"), "-o", out]);
    expect(run.status, run.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["clean-single-refund.json", "credit-before-lookup.json", "from-jsonl.json"]);
    expect(runCli(["calibrate", REFUND, out]).status).toBe(0);
  });
});

describe("what the judge did not decide", () => {
  test("without a model, semantic rules and the verdict resting on them are left unlabeled and said so", () => {
    const out = join(tempDir(), "labeled");
    const run = runCli(["label", TAX, join(TAX_CASES, "year-stated-upfront.json"), "-o", out]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('left unlabeled: "Ask which tax year when the answer depends on it" (no model)');
    const file = readJson(join(out, "year-stated-upfront.json"));
    expect(file.expected).toEqual({ metaBehaviorVerdicts: { "Label answers as general information": "true" } });
    expect(file.unlabeled).toEqual({
      verdict: "rests on rules the judge did not decide",
      rules: {
        "Ask which tax year when the answer depends on it": "no model",
        "Rest the answer on a provision the agent retrieved": "no model",
      },
    });
    const calibrated = runCli(["calibrate", TAX, out]);
    expect(calibrated.status, calibrated.stdout).toBe(0);
    expect(calibrated.stdout).toContain("2 of 3 rules unlabeled, file verdict unlabeled, not counted");
    expect(calibrated.stdout).toContain("meta agreement 1/1, file agreement 0/0");
  });

  test("a case the judge decided nothing of gets no file (calibrate would refuse labels that label nothing), and is named", () => {
    const dir = tempDir();
    const judge = join(dir, "judge.yaml");
    writeFileSync(
      judge,
      [
        "version: 1",
        "behavior: only-semantic",
        "metaBehaviors:",
        "  - name: Be polite",
        "    trigger:",
        "      description: The agent replies.",
        "      semantic: true",
        "    checks: []",
        "    semanticChecks:",
        "      - quote: the agent is polite",
        "        question: Is the agent polite?",
        "",
      ].join("\n"),
    );
    const out = join(dir, "out");
    const run = runCli(["label", judge, join(REFUND_CASES, "clean-single-refund.json"), "-o", out]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain("not labeled: ");
    expect(run.stderr).toContain('the judge decided none of its verdicts ("Be polite" (no model)');
    expect(run.stdout).toContain("0 labeled cases written to");
    expect(run.stdout).toContain("1 case not labeled");
    expect(readdirSync(out)).toEqual([]);
  });

  test("a rule whose model call failed is never labeled, and a verdict with an error is not either", () => {
    const judgment: TrajectoryJudgment = {
      behavior: "b",
      trajectoryId: "t",
      verdict: "na",
      error: true,
      metaBehaviors: [
        { name: "decided", verdict: "true", naReason: null, triggered: true, clauses: [] },
        {
          name: "errored",
          verdict: "na",
          naReason: "insufficient_evidence",
          error: true,
          triggered: true,
          clauses: [{ kind: "semantic", quote: "q", verdict: "na", naReason: "insufficient_evidence", citations: [], error: "HTTP 500" }],
        },
      ],
    };
    expect(proposeLabels(judgment)).toEqual({
      expected: { metaBehaviorVerdicts: { decided: "true" } },
      unlabeled: { verdict: "no valid model answer", rules: { errored: "no valid model answer" } },
    });
    // A failure of a decided rule is certain whatever the undecided one says: the verdict is labeled false.
    const noModel = "No model was available to decide this clause, so it has no verdict.";
    const failed: TrajectoryJudgment = {
      behavior: "b",
      trajectoryId: "t",
      verdict: "false",
      metaBehaviors: [
        { name: "decided", verdict: "false", naReason: null, triggered: true, clauses: [] },
        {
          name: "undecided",
          verdict: "na",
          naReason: "insufficient_evidence",
          triggered: true,
          clauses: [{ kind: "semantic", quote: "q", verdict: "na", naReason: "insufficient_evidence", citations: [], reasoning: noModel }],
        },
      ],
    };
    expect(proposeLabels(failed)).toEqual({
      expected: { verdict: "false", metaBehaviorVerdicts: { decided: "false" } },
      unlabeled: { rules: { undecided: "no model" } },
    });
  });
});

describe("files", () => {
  test("existing files are kept and named; --force replaces them; two runs write the same bytes", () => {
    const dir = tempDir();
    const out = join(dir, "labeled");
    const cases = join(REFUND_CASES, "credit-before-lookup.json");
    expect(runCli(["label", REFUND, cases, "-o", out]).status).toBe(0);
    const first = readFileSync(join(out, "credit-before-lookup.json"), "utf8");
    const again = join(dir, "again");
    expect(runCli(["label", REFUND, cases, "-o", again]).status).toBe(0);
    expect(readFileSync(join(again, "credit-before-lookup.json"), "utf8")).toBe(first);

    writeFileSync(join(out, "credit-before-lookup.json"), "corrected by hand");
    const kept = runCli(["label", REFUND, cases, "-o", out]);
    expect(kept.status).toBe(0);
    expect(kept.stderr).toContain("credit-before-lookup.json: the file exists (--force replaces it)");
    expect(kept.stdout).toContain("0 labeled cases written to");
    expect(kept.stdout).toContain("1 file kept");
    expect(readFileSync(join(out, "credit-before-lookup.json"), "utf8")).toBe("corrected by hand");

    const forced = runCli(["label", REFUND, cases, "-o", out, "--force"]);
    expect(forced.status).toBe(0);
    expect(readFileSync(join(out, "credit-before-lookup.json"), "utf8")).toBe(first);
  });

  test("ids that name paths or collide stay inside the folder, each with its own file", () => {
    const dir = tempDir();
    const base = readJson(join(REFUND_CASES, "clean-single-refund.json")).trajectory;
    const ids = ["../../escape", "a/b", "Same", "same", "con", ".hidden"];
    writeFileSync(join(dir, "ids.json"), JSON.stringify(ids.map((id) => ({ ...base, id }))));
    const out = join(dir, "out");
    const run = runCli(["label", REFUND, join(dir, "ids.json"), "-o", out]);
    expect(run.status, run.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["Same.json", "a_b.json", "con_.json", "escape.json", "hidden.json", "same-2.json"]);
    expect(existsSync(join(dir, "escape.json"))).toBe(false);
    expect(readJson(join(out, "same-2.json")).trajectory.id).toBe("same");
  });

  test("the namer: safe stems, collisions told apart in order, case-insensitively", () => {
    expect(safeStem("../x")).toBe("x");
    expect(safeStem("")).toBe("case");
    expect(safeStem("a\u0000b")).toBe("a_b");
    expect(safeStem("x".repeat(300))).toHaveLength(100);
    const name = caseFileNamer();
    expect(["t", "T", "t", "t-2"].map(name)).toEqual(["t.json", "T-2.json", "t-3.json", "t-2-2.json"]);
  });

  test("a case that cannot be judged is an error and gets no file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bad.jsonl"), `{"id": "x", "complete": true, "events": [{"id": "e1"}]}\n`);
    const out = join(dir, "out");
    const run = runCli(["label", REFUND, join(dir, "bad.jsonl"), "-o", out]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("bad.jsonl:1: case 0");
    expect(readdirSync(out)).toEqual([]);
  });
});
