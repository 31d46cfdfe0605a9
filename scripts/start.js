#!/usr/bin/env node
// `npm start`: build each bundled example's judge.mjs, judge its trajectories,
// and calibrate it against their labels, exactly as a user would from a shell.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin", "behavior-judge.js");
const examples = ["refund-support", "staged-rollout", "tax-research"];

function run(args) {
  console.log(`\n$ behavior-judge ${args.map((a) => relative(root, a) || a).join(" ")}`);
  const result = spawnSync(process.execPath, [bin, ...args], { stdio: "inherit", cwd: root });
  return result.status ?? 1;
}

let failed = 0;
for (const name of examples) {
  const dir = join(root, "examples", name);
  const trajectories = readdirSync(join(dir, "trajectories"))
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => join("examples", name, "trajectories", f));
  console.log(`\n=== examples/${name} ===`);
  if (run(["build", join("examples", name, "judge.yaml")]) !== 0) failed++;
  // --no-web: on a terminal, judge would otherwise serve its browser report and wait for a browser to load it.
  if (run(["judge", join("examples", name, "judge.mjs"), ...trajectories, "--no-web"]) !== 0) failed++;
  const semantic = name === "tax-research";
  if (semantic && !process.env.BRAINTRUST_API_KEY && !process.env.OPENAI_API_KEY) {
    // Without a model its semantic rules have no verdict, so their labels cannot all agree.
    console.log("\n(no model key is set: the tax example's semantic rules stay na, so calibrate reports those labels as DIFF)");
  }
  const calibration = run(["calibrate", join("examples", name, "judge.mjs"), ...trajectories]);
  if (calibration !== 0 && !semantic) failed++;
}
console.log(
  "\nThe same report in the browser: node bin/behavior-judge.js judge examples/refund-support/judge.mjs examples/refund-support/trajectories/*.json",
);
process.exitCode = failed === 0 ? 0 : 1;
