#!/usr/bin/env node
// `npm start`: build each bundled example's judge.mjs, judge its trajectories,
// and calibrate it against their labels, exactly as a user would from a shell.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin", "behavior-judge.js");
// tax-research last: its expected DIFFs and their explanation sit right above the summary.
const examples = ["refund-support", "staged-rollout", "airline-cancellations", "tax-research"];

function run(args) {
  console.log(`\n$ behavior-judge ${args.map((a) => relative(root, a) || a).join(" ")}`);
  const result = spawnSync(process.execPath, [bin, ...args], { stdio: "inherit", cwd: root });
  return result.status ?? 1;
}

const hasModelKey = Boolean(process.env.BRAINTRUST_API_KEY || process.env.OPENAI_API_KEY);
let failed = 0;
const outcomes = [];
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
  const calibration = run(["calibrate", join("examples", name, "judge.mjs"), ...trajectories]);
  if (calibration === 0) {
    outcomes.push(`${name}: every label agrees`);
  } else if (semantic && !hasModelKey) {
    // Said right under the DIFF lines, so nobody reads them as a broken install.
    console.log(
      "\n^ These DIFFs are expected without a model: no key is set, so the clauses a model must decide have no verdict (na); a rule decided only by them is na, and a rule or trajectory whose deterministic clauses pass comes out true where its label says false. Set BRAINTRUST_API_KEY (or OPENAI_API_KEY) and rerun npm start to calibrate them with a model.",
    );
    outcomes.push(`${name}: DIFF on the labels only a model can decide (no model key set; expected, see above)`);
  } else if (semantic) {
    console.log(
      "\n^ DIFF: the model's answers disagree with these labels. A model is not deterministic: `calibrate --runs 5` shows how often (docs/CLI.md, calibrate).",
    );
    outcomes.push(`${name}: the model disagreed with some labels (see above)`);
  } else {
    failed++;
    outcomes.push(`${name}: calibrate FAILED (deterministic rules must agree with every label)`);
  }
}
console.log(`\nSummary:\n${outcomes.map((o) => `  ${o}`).join("\n")}`);
console.log(
  "\nThe same report in the browser: node bin/behavior-judge.js judge examples/refund-support/judge.mjs examples/refund-support/trajectories/*.json",
);
process.exitCode = failed === 0 ? 0 : 1;
