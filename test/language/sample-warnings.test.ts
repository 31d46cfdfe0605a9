/**
 * Issue 21, "Warnings with --samples (lint and build)": a regex or comparison
 * no sample value satisfies, a key no sample has, a comparison over values the
 * samples never write as numbers or dates, a condition whose `with` never
 * binds, and a `sum` over values that are not decimal numbers (LANGUAGE.md §3).
 * Each located; the judge still builds; a sample that agrees silences them.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { runCli } from "../support/cli.js";

const F = "test/fixtures/every-form/warnings";

const WARNINGS = [
  `${F}/judge.yaml:9:1 warning: value-never-matches: metaBehaviors[0].checks[0]: no sample value of match.metadata.amount is > 5000 (2 values seen)`,
  `${F}/judge.yaml:12:1 warning: value-never-matches: metaBehaviors[0].checks[1]: no sample value of match.metadata.refund_id is matching /^RF-\\d+$/ (2 values seen)`,
  `${F}/judge.yaml:15:1 warning: value-never-matches: metaBehaviors[0].checks[2]: no sample value of match.metadata.currency is one of "USD", "EUR" (2 values seen)`,
  `${F}/judge.yaml:18:1 warning: comparison-not-numeric: metaBehaviors[0].checks[3]: match.metadata.order_date compares dates, but no sample value of it is an ISO-8601 date (e.g. "last tuesday")`,
  `${F}/judge.yaml:23:46 warning: unknown-metadata-key: metaBehaviors[0].checks[4].match.metadata: the sample trajectories never use the metadata key "order_id" (did you mean "order"?)`,
  `${F}/judge.yaml:24:1 warning: binding-never-binds: metaBehaviors[0].checks[5]: the name o never binds on the samples: no sample event matches its latest pattern`,
  `${F}/judge.yaml:27:40 warning: unknown-action: metaBehaviors[0].checks[5].with.o.latest.action: the sample trajectories never use the action "lookup_result"`,
  `${F}/judge.yaml:29:1 warning: comparison-not-numeric: metaBehaviors[0].checks[6]: match.metadata.fee compares numbers, but no sample value of it is a decimal number (e.g. "free")`,
  `${F}/judge.yaml:32:1 warning: sum-not-numeric: metaBehaviors[0].checks[7]: sum: metadata.amount: of 2 sample matches, 1 is not a decimal number (e.g. "$80"); such a value counts 0`,
];

test("build --samples warns about each disagreement at its line, and still builds", () => {
  const out = join(mkdtempSync(join(tmpdir(), "bj-sample-warnings-")), "judge.mjs");
  const run = runCli(["build", `${F}/judge.yaml`, "--out", out, "--samples", `${F}/sample.json`]);
  expect(run.status).toBe(0);
  expect(run.stderr.split("\n").filter((l) => l !== "")).toEqual(WARNINGS);
  expect(existsSync(out)).toBe(true);
});

test("lint --samples reports the same warnings", () => {
  const run = runCli(["lint", `${F}/BEHAVIOR.md`, `${F}/judge.yaml`, "--samples", `${F}/sample.json`]);
  expect(run.status).toBe(0);
  expect(run.stdout.split("\n").filter((l) => l.includes(" warning: "))).toEqual(WARNINGS);
});

test("a sample on which every value test holds somewhere silences them", () => {
  const run = runCli(["lint", `${F}/BEHAVIOR.md`, `${F}/judge.yaml`, "--samples", `${F}/agrees.json`]);
  expect(run.status).toBe(0);
  expect(run.stdout + run.stderr).not.toContain(" warning: ");
});
