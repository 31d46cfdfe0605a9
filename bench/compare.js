#!/usr/bin/env node
// Before and after, in one run: builds of the refund judge (or any judge.mjs of the same rules)
// timed next to the hand-written loop of bench/run.js, each measurement in a fresh process
// (`bench/run.js --cpu --measure`: CPU time, best of three stretches), the judges and the hand
// loop alternated round after round so that load on a shared machine weighs on each the same,
// and the median of the rounds reported. Ratios from one run compare; figures across runs do not.
//
//   node bench/compare.js old/judge.mjs examples/refund-support/judge.mjs
//   node bench/compare.js --rounds 7 --sizes 1000,100000 a.mjs b.mjs c.mjs
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { takeOption } from "./common.js";

const RUN = join(dirname(fileURLToPath(import.meta.url)), "run.js");
const args = process.argv.slice(2);
const option = (flag, fallback) => takeOption(args, flag, fallback);
const rounds = Number(option("--rounds", "5"));
const sizes = option("--sizes", "1000,100000").split(",").map(Number);
const judges = args.map((path) => resolve(path));
if (judges.length === 0 || !(rounds >= 1) || sizes.some((n) => !(n >= 1))) {
  process.stderr.write("usage: node bench/compare.js [--rounds 5] [--sizes 1000,100000] judge.mjs [judge.mjs ...]\n");
  process.exit(2);
}

function measure(what, size) {
  const out = execFileSync(process.execPath, ["--expose-gc", RUN, "--cpu", "--measure", what, String(size), "1000"], { encoding: "utf8" });
  return Number(out.trim());
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const what = [...judges, "hand"];
const perSize = new Map();
console.log(`node ${process.version}, ${rounds} rounds, ns per event by CPU time (median of the rounds)`);
for (const size of sizes) {
  const figures = new Map(what.map((w) => [w, []]));
  for (let round = 0; round < rounds; round++) for (const w of what) figures.get(w).push(measure(w, size));
  const medians = new Map(what.map((w) => [w, median(figures.get(w))]));
  perSize.set(size, medians);
  const hand = medians.get("hand");
  const first = medians.get(judges[0]);
  console.log(`\n${size} events`);
  for (const w of what) {
    const ns = medians.get(w);
    const vsFirst = w === "hand" || judges.length === 1 ? "" : `   ${(ns / first).toFixed(2)}× the first's time`;
    const vsHand = w === "hand" ? "" : `   hand/judge ${(hand / ns).toFixed(2)}×`;
    console.log(`  ${ns.toFixed(1).padStart(7)}  ${w === "hand" ? "hand-written loop" : w}${vsHand}${vsFirst}`);
    console.log(
      `           rounds: ${figures
        .get(w)
        .map((x) => x.toFixed(1))
        .join(" ")}`,
    );
  }
}
if (sizes.length > 1) {
  const [small, large] = [sizes[0], sizes[sizes.length - 1]];
  console.log(`\ncost per event at ${large} events over that at ${small}:`);
  for (const w of what)
    console.log(`  ${(perSize.get(large).get(w) / perSize.get(small).get(w)).toFixed(2)}×  ${w === "hand" ? "hand-written loop" : w}`);
}
