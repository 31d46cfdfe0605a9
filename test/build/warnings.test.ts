/**
 * `build` warns about checks that can never pass or never fail, and (with
 * --samples) about actions and metadata keys no sample uses (issue 13, the
 * first hour), and still builds them: they are valid judge.yaml, and the
 * reference accepts them.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { runCli } from "../support/cli.js";

const NEVER = `version: 1
behavior: demo
metaBehaviors:
  - name: R
    trigger:
      description: The agent acts.
      match:
        action: x
    checks:
      - type: ordering
        quote: q
        first: [{ action: x }, { actor: agent, action: y }]
        before: [{ action: y, actor: agent }, { action: x }]
      - type: count
        quote: q2
        match:
          action: x
        min: 3
        max: 1
      - type: count
        quote: q3
        match:
          action: x
        min: 1
        max: 1
    semanticChecks: []
`;

test("count with min > max and ordering with first == before are warnings naming file, line and check; the judge is still built", () => {
  const dir = mkdtempSync(join(tmpdir(), "bj-warn-"));
  const yaml = join(dir, "judge.yaml");
  writeFileSync(yaml, NEVER);
  const run = runCli(["build", yaml]);
  expect(run.status).toBe(0);
  expect(run.stderr.split("\n")).toEqual([
    `${yaml}:10:1 warning: metaBehaviors[0].checks[0]: ordering whose first and before are the same pattern can never pass: the earliest such event has nothing before it (first is the event that must come earlier, before the one it guards)`,
    `${yaml}:14:1 warning: metaBehaviors[0].checks[1]: count with min 3 greater than max 1 can never pass (swap them, or drop one)`,
    "",
  ]);
  expect(existsSync(join(dir, "judge.mjs"))).toBe(true);
});

const NEVER_FAILS = `version: 1
behavior: demo
metaBehaviors:
  - name: R
    trigger:
      description: The agent acts.
      match:
        action: x
    checks:
      - type: count
        quote: q
        match:
          action: x
        min: 0
      - type: pairing
        quote: q2
        each:
          action: approve
        followedBy:
          action: approve
      - type: count
        quote: q3
        match:
          action: x
        min: 0
        max: 2
    semanticChecks: []
`;

test("count with min 0 and no max (never fails) and pairing with each == followedBy (never passes) are warnings too", () => {
  const dir = mkdtempSync(join(tmpdir(), "bj-warn-"));
  const yaml = join(dir, "judge.yaml");
  writeFileSync(yaml, NEVER_FAILS);
  const run = runCli(["build", yaml]);
  expect(run.status).toBe(0);
  expect(run.stderr.split("\n")).toEqual([
    `${yaml}:10:1 warning: metaBehaviors[0].checks[0]: count with min 0 and no max can never fail: every trajectory has at least 0 matching events (give a max, or a min above 0)`,
    `${yaml}:15:1 warning: metaBehaviors[0].checks[1]: pairing whose each and followedBy are the same pattern can never pass: the last such event has nothing after it to answer it (followedBy is the event that must come after each one)`,
    "",
  ]);
  expect(existsSync(join(dir, "judge.mjs"))).toBe(true);
});

const SAMPLED = `version: 1
behavior: demo
metaBehaviors:
  - name: R
    trigger:
      description: The agent refunds.
      match:
        action: issue_refund
    checks:
      - type: ordering
        quote: q
        first:
          action: get_order
          metadata:
            status: found
        before:
          action: issue_refnud
    semanticChecks: []
`;

const SAMPLE = {
  id: "s1",
  complete: true,
  events: [
    { id: "e1", actor: "agent", action: "get_order", metadata: { order: "A-1" } },
    { id: "e2", actor: "agent", action: "issue_refund" },
  ],
};

test("build --samples warns about every action and metadata key no sample uses, with its line and field, and still builds", () => {
  const dir = mkdtempSync(join(tmpdir(), "bj-warn-"));
  const yaml = join(dir, "judge.yaml");
  writeFileSync(yaml, SAMPLED);
  mkdirSync(join(dir, "samples"));
  writeFileSync(join(dir, "samples", "one.json"), JSON.stringify(SAMPLE));
  // A directory stands for its .json and .jsonl files, as for judge.
  const run = runCli(["build", yaml, "--samples", join(dir, "samples")]);
  expect(run.status).toBe(0);
  expect(run.stderr.split("\n")).toEqual([
    `${yaml}:15:13 warning: unknown-metadata-key: metaBehaviors[0].checks[0].first.metadata: the sample trajectories never use the metadata key "status"`,
    `${yaml}:17:19 warning: unknown-action: metaBehaviors[0].checks[0].before.action: the sample trajectories never use the action "issue_refnud" (did you mean "issue_refund"?)`,
    "",
  ]);
  expect(existsSync(join(dir, "judge.mjs"))).toBe(true);
  // Without samples there is nothing to compare with: no warning.
  expect(runCli(["build", yaml]).stderr).toBe("");
});

test("build --samples with a file that is not trajectories is one line, and builds nothing", () => {
  const dir = mkdtempSync(join(tmpdir(), "bj-warn-"));
  const yaml = join(dir, "judge.yaml");
  writeFileSync(yaml, SAMPLED);
  const run = runCli(["build", yaml, "--samples", join(dir, "missing.json")]);
  expect(run.status).toBe(1);
  expect(run.stderr).toContain("missing.json: no such file or directory");
  expect(existsSync(join(dir, "judge.mjs"))).toBe(false);
});

test("the examples build without warnings, also against their own trajectories", () => {
  const dir = mkdtempSync(join(tmpdir(), "bj-warn-"));
  for (const name of ["refund-support", "staged-rollout", "tax-research"]) {
    copyFileSync(join("examples", name, "judge.yaml"), join(dir, `${name}.yaml`));
    const run = runCli(["build", join(dir, `${name}.yaml`), "--samples", join("examples", name, "trajectories")]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
  }
  // Three whole builds (each type-checks judge.ts): on a loaded 2-core machine they take more than the default minute.
}, 180_000);
