/**
 * `build` warns about checks that can never pass (issue 13 item 4) and still
 * builds them: they are valid judge.yaml, and the reference accepts them.
 */
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
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

test("the examples build without warnings", () => {
  const dir = mkdtempSync(join(tmpdir(), "bj-warn-"));
  for (const name of ["refund-support", "staged-rollout", "tax-research"]) {
    copyFileSync(join("examples", name, "judge.yaml"), join(dir, `${name}.yaml`));
    const run = runCli(["build", join(dir, `${name}.yaml`)]);
    expect(run.stderr).toBe("");
  }
});
