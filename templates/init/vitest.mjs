// Judges the trajectories in .agents/behaviors/{{name}}/trajectories with the
// compiled judge, reading the folder exactly as `behavior-judge judge` does: a
// .json file holds one trajectory, one labeled case or an array of them, a
// .jsonl file one per line, and agent traces of any supported format are
// imported. A trajectory passes when no rule is false; a labeled case
// ({"trajectory": …, "expected": …}) passes when the verdicts match its labels.
// Written by `behavior-judge init`; edit freely.
import { test } from "vitest";
import { readCaseFiles } from "behavior-judge/files";
import { assertBehavior } from "behavior-judge/testing";
import * as judge from "../.agents/behaviors/{{name}}/judge.mjs";

const cases = await readCaseFiles("trajectories", {
  cwd: new URL("../.agents/behaviors/{{name}}/", import.meta.url),
  onWarning: (message) => console.warn(`warning: ${message}`),
});

for (const c of cases) {
  test(`{{name}}: ${c.where}`, async () => {
    if (c.error !== undefined) throw new Error(`${c.where}: ${c.error}`);
    await assertBehavior(judge, c);
  });
}
