#!/usr/bin/env node
// The benchmark table of docs/SCALE.md ("Speed of a judge"), in one command (issue 26):
//
//   npm run build:cli && node bench/table.js            # prints the table as Markdown
//   node bench/table.js --quick                         # 1 and 100 rules only, shorter stretches
//   node bench/table.js --rules 1,100 --types mixed,count   # some rows only
//   node bench/table.js --quick --reference /tmp/ref    # the reference interpreter beside each row
//                                                       # (a checkout of it: bench/reference.js)
//
// One row's judge and one measurement, to look at a slow run (docs/SPEED.md, round 15):
//
//   node bench/table.js --build required 100 /tmp/j     # builds /tmp/j/required-100.mjs, prints its path
//   node --trace-opt --trace-deopt bench/table.js --measure /tmp/j/required-100.mjs 100 objects 400 --stretches
//       # every stretch's ns per event (warm-up, then the four), between V8's lines saying when
//       # each function was optimized; without --stretches it prints the best figure alone
//       # (tools 0 is the refund session; `floor` instead of a judge times JSON.parse alone)
//
// Every figure is one core's: each measurement runs in a process of its own, by CPU time
// (user + system), the best of a few stretches, so load from other jobs weighs on it less
// than on wall time. The judges are built here from generated judge.yaml files (rule i is
// about a vocabulary of its own, bench/guard.js), the trajectory is a support session over
// all their tools (10,000 events), and "with JSON" includes JSON.parse of the trajectory's
// text, whose cost alone is the floor row.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
import { refundEvents } from "./common.js";
import { buildJudge, guardEvents, guardJudgeYaml, latency } from "./guard.js";
import { bundleReference, referenceJudge, ruleVerdicts } from "./reference.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const quick = process.argv.includes("--quick");
const EVENTS = 10_000;

/** A judge.yaml of `rules` rules of one check type, rule i about tool i. */
function oneTypeYaml(type, rules) {
  const check = (i) => {
    switch (type) {
      case "ordering":
        return `      - type: ordering\n        quote: "q${i}"\n        first: {action: lookup_${i}, metadata: {status: found}}\n        before: {action: refund_${i}}\n`;
      case "pairing":
        return `      - type: pairing\n        quote: "q${i}"\n        each: {action: refund_${i}_result, metadata: {status: approved}}\n        followedBy: {action: notify_${i}}\n`;
      case "required":
        return `      - type: required\n        quote: "q${i}"\n        match: {action: notify_${i}}\n        after: {action: refund_${i}}\n`;
      case "forbidden":
        return `      - type: forbidden\n        quote: "q${i}"\n        match: {action: refund_${i}}\n        after: {action: refund_${i}_result, metadata: {status: declined}}\n`;
      default:
        return `      - type: count\n        quote: "q${i}"\n        match: {action: refund_${i}}\n        max: 3\n        distinctBy: metadata.order_id\n`;
    }
  };
  const out = ["version: 1\nbehavior: table-bench\nmetaBehaviors:\n"];
  for (let i = 0; i < rules; i++)
    out.push(
      `  - name: "Tool ${i}"\n    trigger:\n      description: "Tool ${i}."\n      match: {action: refund_${i}}\n    checks:\n${check(i)}`,
    );
  return out.join("");
}

/** The judge of `what`: a judge.mjs path, or `reference:<bundle>:<judge.yaml>` (the reference interpreter on that judge). */
async function loadJudge(what) {
  if (!what.startsWith("reference:")) return import(pathToFileURL(what).href);
  const [, bundle, yaml] = what.split(":");
  return { judgeTrajectory: await referenceJudge(pathToFileURL(bundle).href, readFileSync(yaml, "utf8")) };
}

/** The bench's trajectory: tools 0 is the refund example's vocabulary. */
const benchTrajectory = (tools) => ({ id: "t", complete: true, events: tools === 0 ? refundEvents(EVENTS) : guardEvents(EVENTS, tools) });

/** `--measure <judge.mjs | floor | reference:…> <tools> <json|objects> <ms>`: best ns per event, in this process. */
async function measureAlone() {
  const at = process.argv.indexOf("--measure");
  const [what, tools, mode, ms] = [process.argv[at + 1], Number(process.argv[at + 2]), process.argv[at + 3], Number(process.argv[at + 4])];
  const trajectory = benchTrajectory(tools);
  const text = JSON.stringify(trajectory);
  const judge = what === "floor" ? undefined : await loadJudge(what);
  const once =
    judge === undefined
      ? () => JSON.parse(text)
      : mode === "json"
        ? () => judge.judgeTrajectory(JSON.parse(text))
        : () => judge.judgeTrajectory(trajectory);
  // --stretches: each stretch on a line of its own, so that V8's --trace-opt lines printed between
  // them show which stretch ran the optimized code (a slow run's stretches came before it).
  const stretches = process.argv.includes("--stretches");
  const stretch = async (limit, label) => {
    const start = process.cpuUsage();
    const wall = process.hrtime.bigint();
    let runs = 0;
    let elapsed = 0;
    do {
      await once();
      runs++;
      const used = process.cpuUsage(start);
      elapsed = (used.user + used.system) / 1000;
    } while (elapsed < limit);
    const ns = (elapsed * 1e6) / runs / EVENTS;
    if (stretches) {
      const wallMs = Number(process.hrtime.bigint() - wall) / 1e6;
      process.stdout.write(
        `stretch ${label}: ${ns.toFixed(1)} ns/event, ${runs} runs, CPU ${elapsed.toFixed(0)} ms, wall ${wallMs.toFixed(0)} ms\n`,
      );
    }
    return ns;
  };
  await stretch(ms / 2, "warm-up");
  let best = Infinity;
  for (let k = 0; k < 4; k++) best = Math.min(best, await stretch(ms / 4, String(k + 1)));
  process.stdout.write(stretches ? `best ${best.toFixed(1)} ns/event\n` : `${best}\n`);
}

if (process.argv.includes("--build")) {
  // `--build <mixed|ordering|pairing|required|forbidden|count> <rules> <folder>`: one row's judge.
  const at = process.argv.indexOf("--build");
  const [type, rules, out] = [process.argv[at + 1], Number(process.argv[at + 2]), process.argv[at + 3]];
  const types = ["mixed", "ordering", "pairing", "required", "forbidden", "count"];
  if (!types.includes(type) || !(rules >= 1) || out === undefined) {
    process.stderr.write(`usage: node bench/table.js --build <${types.join("|")}> <rules> <folder>\n`);
    process.exit(2);
  }
  mkdirSync(out, { recursive: true });
  const yaml = type === "mixed" ? guardJudgeYaml(rules) : oneTypeYaml(type, rules);
  process.stdout.write(`${buildJudge(yaml, out, `${type}-${rules}`)}\n`);
  process.exit(0);
}
if (process.argv.includes("--measure")) {
  await measureAlone();
  process.exit(0);
}
if (process.argv.includes("--verdicts")) {
  // `--verdicts <judge.mjs | reference:…> <tools>`: each rule's verdict on the bench's trajectory.
  const at = process.argv.indexOf("--verdicts");
  const judge = await loadJudge(process.argv[at + 1]);
  process.stdout.write(JSON.stringify(ruleVerdicts(await judge.judgeTrajectory(benchTrajectory(Number(process.argv[at + 2]))))));
  process.exit(0);
}

const ms = quick ? 400 : 1000;
const measure = (what, tools, mode) =>
  Number(
    execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--measure", what, String(tools), mode, String(ms)], {
      encoding: "utf8",
    }).trim(),
  );
/** Best of three fresh processes. */
const best = (what, tools, mode) => Math.min(measure(what, tools, mode), measure(what, tools, mode), measure(what, tools, mode));
const rate = (ns) => {
  const perSecond = 1e9 / ns;
  return perSecond >= 1e6 ? `${(perSecond / 1e6).toFixed(1)} M` : `${(perSecond / 1e3).toFixed(0)} k`;
};

const folder = mkdtempSync(join(tmpdir(), "bj-table-"));
const flag = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const referenceDir = flag("--reference");
const referenceBundle = referenceDir === undefined ? undefined : await bundleReference(referenceDir, folder);
const verdictsOf = (what, tools) =>
  execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--verdicts", what, String(tools)], { encoding: "utf8" });
/**
 * The reference interpreter's row beside a compiled judge's, once both give every rule the same
 * verdict on the bench's trajectory (a row of a judge that disagrees would compare unlike work).
 */
function referenceRow(label, rules, compiled, yamlPath, tools) {
  if (referenceBundle === undefined) return;
  const what = `reference:${referenceBundle}:${yamlPath}`;
  const ours = verdictsOf(compiled, tools);
  const theirs = verdictsOf(what, tools);
  if (ours !== theirs) {
    console.log(`| ${label}, reference interpreter | ${rules} | verdicts differ: ${theirs} vs ${ours} | | | |`);
    return;
  }
  const objects = best(what, tools, "objects");
  const json = best(what, tools, "json");
  console.log(
    `| ${label}, reference interpreter | ${rules} | ${rate(objects)} | ${rate(json)} | ${objects.toFixed(1)} | ${json.toFixed(1)} |`,
  );
}
const sizes = (flag("--rules") ?? (quick ? "1,100" : "1,100,1000")).split(",").map(Number);
const types = (flag("--types") ?? "mixed,ordering,pairing,required,forbidden,count").split(",");
const cpu = cpus()[0]?.model ?? "unknown CPU";
console.log(`Machine: ${cpus().length} × ${cpu}, node ${process.version}, load average ${loadavg()[0].toFixed(1)} at the start.`);
console.log(`Command: node bench/table.js ${process.argv.slice(2).join(" ")} (${EVENTS.toLocaleString("en")} events per trajectory)\n`);

console.log("| judge | rules | events/s per core, objects | with JSON.parse | ns/event, objects | with JSON.parse |");
console.log("|---|---:|---:|---:|---:|---:|");
const floor = best("floor", 100, "json");
console.log(`| JSON.parse alone (the floor) | – | – | ${rate(floor)} | – | ${floor.toFixed(1)} |`);
for (const type of types) {
  for (const rules of sizes) {
    const yaml = type === "mixed" ? guardJudgeYaml(rules) : oneTypeYaml(type, rules);
    const path = buildJudge(yaml, folder, `${type}-${rules}`);
    const objects = best(path, rules, "objects");
    const json = best(path, rules, "json");
    const label = type === "mixed" ? "ordering + pairing + count or forbidden" : type;
    console.log(`| ${label} | ${rules} | ${rate(objects)} | ${rate(json)} | ${objects.toFixed(1)} | ${json.toFixed(1)} |`);
    referenceRow(label, rules, path, path.replace(/\.mjs$/, ".yaml"), rules);
  }
}

// The extended language: the refund policy of bench/refund-extended.yaml (keyed ordering, a
// condition, pairing within, a value matcher, a sum per order, a regex) beside the version 1
// refund judge, on bench/run.js's refund session.
{
  const path = join(folder, "refund-extended.mjs");
  execFileSync(
    process.execPath,
    [join(root, "bin", "behavior-judge.js"), "build", join(root, "bench", "refund-extended.yaml"), "-o", path],
    {
      stdio: "ignore",
    },
  );
  const v1 = join(root, "examples", "refund-support", "judge.mjs");
  for (const [label, judge] of [
    ["refund-support (4 rules, version 1 checks)", v1],
    ["bench/refund-extended.yaml (extended checks)", path],
  ]) {
    const objects = best(judge, 0, "objects");
    const json = best(judge, 0, "json");
    console.log(`| ${label} | – | ${rate(objects)} | ${rate(json)} | ${objects.toFixed(1)} | ${json.toFixed(1)} |`);
    // The reference knows only version 1 checks: it has no row for the extended judge.
    if (judge === v1) referenceRow(label, "–", judge, join(root, "examples", "refund-support", "judge.yaml"), 0);
  }
}

console.log("\n| guard (monitor) | rules | push p50 | p99 | check p50 | p99 |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const rules of sizes) {
  const judge = await import(pathToFileURL(buildJudge(guardJudgeYaml(rules), folder, `guard-${rules}`)).href);
  const { push, check } = latency(judge, rules, quick ? 3000 : 10_000, 5);
  const us = (ns) => `${(ns / 1000).toFixed(2)} µs`;
  console.log(
    `| ordering + pairing + count or forbidden | ${rules} | ${us(push[0])} | ${us(push[1])} | ${us(check[0])} | ${us(check[1])} |`,
  );
}
console.log(`\nLoad average ${loadavg()[0].toFixed(1)} at the end.`);
