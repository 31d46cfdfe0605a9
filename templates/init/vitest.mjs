// Judges every trajectory in .agents/behaviors/{{name}}/trajectories with the
// compiled judge. A trajectory passes when no rule is false; a labeled case
// ({"trajectory": …, "expected": …}) passes when the verdicts match its labels.
// Written by `behavior-judge init`; edit freely.
import { test } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { assertBehavior } from "behavior-judge/testing";
import * as judge from "../.agents/behaviors/{{name}}/judge.mjs";

const dir = new URL("../.agents/behaviors/{{name}}/trajectories/", import.meta.url);

for (const file of readdirSync(dir).filter((f) => /\.jsonl?$/.test(f)).sort()) {
  const text = readFileSync(new URL(file, dir), "utf8");
  const cases = file.endsWith(".jsonl") ? text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l)) : [JSON.parse(text)];
  cases.forEach((trajectory, i) => {
    test(`{{name}}: ${file}${cases.length > 1 ? ` #${i + 1}` : ""}`, async () => {
      await assertBehavior(judge, trajectory);
    });
  });
}
