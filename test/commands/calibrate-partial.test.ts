/**
 * Issue 24, "Labels without glue": a case may label only some rules.
 * calibrate counts agreement on the labeled rules alone, says how many rules
 * each case left unlabeled, and never prints "1 errors". The test helpers
 * compare labels the same way.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { ROOT, runCli } from "../support/cli.js";
import * as refund from "../../examples/refund-support/judge.mjs";
import { assertBehavior } from "../../testing/index.js";

const JUDGE = join(ROOT, "examples/refund-support/judge.mjs");
const LOOKUP = "Look up the order before paying anything out";

function labeled(name: string, expected: unknown): string {
  const { trajectory } = JSON.parse(readFileSync(join(ROOT, `examples/refund-support/trajectories/${name}.json`), "utf8"));
  const dir = mkdtempSync(join(tmpdir(), "bj-partial-"));
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ trajectory, expected }));
  return file;
}

test("a case labeling one rule of four: agreement counts that rule only, and the three unlabeled are said", () => {
  const file = labeled("refund-after-empty-lookup", { verdict: "false", metaBehaviorVerdicts: { [LOOKUP]: "false" } });
  const run = runCli(["calibrate", JUDGE, file]);
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain("ok   refund-after-empty-lookup");
  expect(run.stdout).toContain("3 of 4 rules unlabeled, not counted");
  expect(run.stdout).toContain("meta agreement 1/1, file agreement 1/1");
  expect(run.stdout).not.toMatch(/\b1 errors\b/);

  const json = JSON.parse(runCli(["calibrate", JUDGE, file, "--json"]).stdout);
  expect(json.totals).toMatchObject({ metaAgree: 1, metaTotal: 1, fileAgree: 1, fileTotal: 1, errors: 0 });
  expect(json.comparisons[0].unlabeled).toEqual([
    "Email a confirmation for every approved refund",
    "Stop paying out once escalated",
    "Refund at most three orders per session",
  ]);
});

test("a wrong label on a labeled rule still disagrees; one label naming no rule is '1 error'", () => {
  const file = labeled("refund-after-empty-lookup", {
    verdict: "false",
    metaBehaviorVerdicts: { [LOOKUP]: "true", "No such rule": "na" },
  });
  const run = runCli(["calibrate", JUDGE, file]);
  expect(run.status).toBe(1);
  expect(run.stdout).toContain(`${LOOKUP}: expected true, got false`);
  expect(run.stdout).toContain("meta agreement 0/1, file agreement 1/1, 1 error");
  expect(run.stdout).not.toContain("1 errors");
});

test("assertBehavior compares partial labels as calibrate does", async () => {
  const { trajectory } = JSON.parse(readFileSync(join(ROOT, "examples/refund-support/trajectories/credit-before-lookup.json"), "utf8"));
  await assertBehavior(refund, trajectory, { expected: { verdict: "false", metaBehaviorVerdicts: { [LOOKUP]: "false" } } });
});

test("calibrate --runs N: an unlabeled rule is not a disagreement; the labeled one still is", () => {
  const file = labeled("refund-after-empty-lookup", { verdict: "false", metaBehaviorVerdicts: { [LOOKUP]: "false" } });
  const run = runCli(["calibrate", JUDGE, file, "--runs", "2"]);
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toContain("2 runs over 4 verdict slots (3 unlabeled, not counted)");
  expect(run.stdout).toContain("run 1: 1/1 rule verdicts agree");
  expect(run.stdout).toContain("perfect runs: 2/2");
  const json = JSON.parse(runCli(["calibrate", JUDGE, file, "--runs", "2", "--json"]).stdout);
  expect(json.statistics).toMatchObject({ slots: 4, labeledSlots: 1, perfectRuns: 2, pooled: { agree: 2, total: 2 } });

  const wrong = labeled("refund-after-empty-lookup", { verdict: "false", metaBehaviorVerdicts: { [LOOKUP]: "true" } });
  const failing = runCli(["calibrate", JUDGE, wrong, "--runs", "2"]);
  expect(failing.status).toBe(1);
  expect(failing.stdout).toContain("run 1: 0/1 rule verdicts agree");
});

test("calibrate --runs refuses --html and --junit in one line instead of ignoring them", () => {
  const file = labeled("refund-after-empty-lookup", { verdict: "false", metaBehaviorVerdicts: { [LOOKUP]: "false" } });
  for (const flag of ["--html", "--junit"]) {
    const run = runCli(["calibrate", JUDGE, file, "--runs", "2", flag, join(mkdtempSync(join(tmpdir(), "bj-runs-")), "out")]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`cannot be used with option '${flag} `));
  }
});
