/**
 * Issue 22 defect 7, for calibrate: a labeled case wrapping a trace without a
 * native id is named as judge names it: after its file (`-<n>` for the cases
 * of a file holding several), or by `--id` (`-<n>` likewise, so two cases
 * never share an id).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { IMPORTER_FIXTURES } from "../support/importer-fixtures.js";

const JUDGE = join(IMPORTER_FIXTURES, "refund-rules.judge.yaml");
const chat = (text: string) => [
  { role: "user", content: text },
  { role: "assistant", content: "Done." },
];
const expected = { verdict: "na", metaBehaviorVerdicts: {} };
const dir = mkdtempSync(join(tmpdir(), "bj-calibrate-ids-"));
writeFileSync(join(dir, "monday.json"), JSON.stringify({ trajectory: chat("Refund A-1."), expected }));
writeFileSync(join(dir, "tuesday.json"), JSON.stringify({ trajectory: chat("Refund B-2."), expected }));
writeFileSync(
  join(dir, "week.jsonl"),
  [chat("one"), chat("two")].map((c) => JSON.stringify({ trajectory: c, expected })).join("\n") + "\n",
);

/** The trajectory ids of calibrate's judgments and comparisons, which must agree. */
function calibrated(...args: string[]): string[] {
  const run = runCli(["calibrate", JUDGE, ...args, "--json", "--no-verify"]);
  expect(run.stderr).toBe("");
  const out = JSON.parse(run.stdout) as { judgments: { trajectoryId: string }[]; comparisons: { trajectoryId: string }[] };
  const ids = out.judgments.map((j) => j.trajectoryId);
  expect(out.comparisons.map((c) => c.trajectoryId)).toEqual(ids);
  return ids;
}

function judged(...args: string[]): string[] {
  const run = runCli(["judge", JUDGE, ...args, "--json", "--no-verify", "--no-web"]);
  expect(run.stderr).toBe("");
  return (JSON.parse(run.stdout) as { trajectoryId: string }[]).map((j) => j.trajectoryId);
}

describe("calibrate names a labeled trace without a native id as judge does", () => {
  test("by its file's name, -<n> for the cases of a file holding several", () => {
    const files = [join(dir, "monday.json"), join(dir, "tuesday.json"), join(dir, "week.jsonl")];
    expect(calibrated(...files)).toEqual(["monday", "tuesday", "week-1", "week-2"]);
    expect(judged(...files)).toEqual(["monday", "tuesday", "week-1", "week-2"]);
  });

  test("by --id, -<n> for several cases in one file (they once all got the same id)", () => {
    expect(calibrated(join(dir, "monday.json"), "--id", "ticket-7")).toEqual(["ticket-7"]);
    expect(judged(join(dir, "monday.json"), "--id", "ticket-7")).toEqual(["ticket-7"]);
    expect(calibrated(join(dir, "week.jsonl"), "--id", "ticket-7")).toEqual(["ticket-7-1", "ticket-7-2"]);
    expect(judged(join(dir, "week.jsonl"), "--id", "ticket-7")).toEqual(["ticket-7-1", "ticket-7-2"]);
  });
});
