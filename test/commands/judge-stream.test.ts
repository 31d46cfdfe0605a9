/**
 * `judge` as a filter (docs/SCALE.md "Streams: judge as a filter"): `--jsonl`
 * writes one line per input case, in input order, as each is judged; `-`
 * reads the trajectories from stdin.
 */
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ROOT, runCli } from "../support/cli.js";

const REFUND = join(ROOT, "examples", "refund-support");
const JUDGE = join(REFUND, "judge.mjs");
const refundCases = (): string[] =>
  readdirSync(join(REFUND, "trajectories"))
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => join(REFUND, "trajectories", f));

const trajectory = (id: string, action: string) => ({ id, complete: true, events: [{ id: "e1", actor: "agent", action }] });

/** A .jsonl with a good line, a broken one, a blank one and a failing one: every kind of line out. */
function mixedJsonl(): string {
  const dir = mkdtempSync(join(tmpdir(), "bj-stream-"));
  const file = join(dir, "mixed.jsonl");
  const lines = [
    JSON.stringify(trajectory("a", "lookup_order")),
    '{"id": "b", "complete": tru}',
    "",
    JSON.stringify(trajectory("c", "issue_refund")),
  ];
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

describe("judge --jsonl", () => {
  test("line i is --json's element i (judgments and case errors), with the same stderr and exit code", () => {
    const files = [...refundCases(), mixedJsonl()];
    for (const extra of [[], ["--fail-on-false"]]) {
      const json = runCli(["judge", JUDGE, ...files, "--json", ...extra]);
      const jsonl = runCli(["judge", JUDGE, ...files, "--jsonl", ...extra]);
      const lines = jsonl.stdout.split("\n");
      expect(lines.pop()).toBe("");
      const elements = JSON.parse(json.stdout) as unknown[];
      expect(lines).toHaveLength(elements.length);
      expect(lines.map((l) => JSON.parse(l))).toEqual(elements);
      // Compact: one line each, nothing pretty-printed.
      expect(lines.every((l) => l === JSON.stringify(JSON.parse(l)))).toBe(true);
      expect(jsonl.stderr).toBe(json.stderr);
      expect(jsonl.status).toBe(json.status);
    }
    const failing = runCli(["judge", JUDGE, ...files, "--jsonl", "--fail-on-false"]);
    expect(failing.status).toBe(1);
  });

  test("--jsonl with --json is a usage error (exit 2)", () => {
    const run = runCli(["judge", JUDGE, refundCases()[0]!, "--json", "--jsonl"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--jsonl.*cannot be used with.*--json/);
    expect(run.stdout).toBe("");
  });
});
