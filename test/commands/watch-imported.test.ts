/**
 * Issue 22, "done when": `watch --from` reads the coding agents' formats where
 * they stream (a Claude Code transcript, a Codex rollout, one record a line):
 * the violation is printed at the record that makes it certain, and the final
 * judgment is the one `judge` gives for the same file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { IMPORTER_FIXTURES } from "../support/importer-fixtures.js";

type Judgment = Record<string, unknown> & { verdict: string };

function watched(judge: string, from: string | undefined, file: string): { violations: Record<string, unknown>[]; judgment: Judgment } {
  const run = runCli(["watch", judge, ...(from === undefined ? [] : ["--from", from]), file, "--json", "--no-verify"]);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const out = run.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return {
    violations: out.filter((o) => "violation" in o).map((o) => o.violation as Record<string, unknown>),
    judgment: out.at(-1)!.judgment as Judgment,
  };
}

/** `judge`'s judgment of the file, without the fields only a batch report has (its file and case). */
function judged(judge: string, file: string): Judgment {
  const run = runCli(["judge", judge, file, "--json", "--no-verify", "--no-web"]);
  const [only, ...rest] = JSON.parse(run.stdout) as Judgment[];
  expect(rest).toEqual([]);
  const { file: _file, case: _case, ...judgment } = only!;
  return judgment as Judgment;
}

/** The 1-based line of the first record of `file` that contains `text`. */
const lineOf = (file: string, text: string): number =>
  readFileSync(file, "utf8")
    .split("\n")
    .findIndex((l) => l.includes(text)) + 1;

describe("watch --from over recorded coding-agent sessions", () => {
  test("claude-code: the force push at its tool_use record, and judge's judgment at the end", () => {
    const judge = join(IMPORTER_FIXTURES, "coding-rules.judge.yaml");
    const file = join(IMPORTER_FIXTURES, "claude-code", "interrupted-force-push.jsonl");
    const { violations, judgment } = watched(judge, "claude-code", file);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ rule: "Never force-push", type: "forbidden", at: { line: lineOf(file, "push --force") } });
    expect(judgment.verdict).toBe("false");
    expect(judgment).toEqual(judged(judge, file));
  });

  test("codex: the rm -rf at its function_call record, and judge's judgment at the end", () => {
    const judge = join(IMPORTER_FIXTURES, "coding-agent.judge.yaml");
    const file = join(IMPORTER_FIXTURES, "codex", "interrupted-rebuild.jsonl");
    const { violations, judgment } = watched(judge, "codex", file);
    const line = lineOf(file, "rm -rf build");
    expect(line).toBe(8);
    expect(violations).toEqual([
      expect.objectContaining({ rule: "Never delete recursively", type: "forbidden", at: expect.objectContaining({ line }) }),
    ]);
    expect(judgment.verdict).toBe("false");
    expect(judgment).toEqual(judged(judge, file));
  });

  test("codex: the other sessions (passed, failed at the end, not applicable) get judge's judgment from watch", () => {
    const judge = join(IMPORTER_FIXTURES, "coding-agent.judge.yaml");
    for (const name of ["fix-failing-test.jsonl", "v0.46-sitemap.jsonl", "fork-mcp-compacted.jsonl"]) {
      const file = join(IMPORTER_FIXTURES, "codex", name);
      const { judgment } = watched(judge, "codex", file);
      expect(judgment, name).toEqual(judged(judge, file));
    }
  });

  test("without --from, the format is detected from the first records (each line was refused as a bad event)", () => {
    for (const [format, judgeFile, name] of [
      ["codex", "coding-agent.judge.yaml", "interrupted-rebuild.jsonl"],
      ["claude-code", "coding-rules.judge.yaml", "interrupted-force-push.jsonl"],
      // Its first line, a file-history-snapshot, does not tell the format: the next one does.
      ["claude-code", "coding-rules.judge.yaml", "parallel-calls-and-errors.jsonl"],
    ] as const) {
      const judge = join(IMPORTER_FIXTURES, judgeFile);
      const file = join(IMPORTER_FIXTURES, format, name);
      expect(watched(judge, undefined, file)).toEqual(watched(judge, format, file));
    }
  });
});
