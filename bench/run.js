#!/usr/bin/env node
// Benchmarks of behavior-judge (not a test: machines here are shared and noisy,
// so compare the ratios within one run rather than absolute figures across runs).
//
//   npm run bench                          # all sections
//   npm run bench -- --quick               # smaller repeat counts
//   npm run bench -- --before old/judge.mjs  # section 1 also times another build of the refund judge
//   npm run bench -- --cpu                 # CPU time instead of wall time (a loaded machine)
//   node bench/run.js --cpu --measure hand 1000 1000   # one figure: ns per event (hand, or a judge.mjs path)
//
// 1. Throughput of the refund-support judge (examples/refund-support/judge.mjs)
//    in-process on generated trajectories of 1k, 10k, 100k and 1M events, next to
//    a hand-written single-pass loop for the same four rules on the same events, and
//    (with --before) next to another build of the same judge.yaml, in the same run; each
//    measurement in a fresh process.
// 1b. The monitor of the same judge: time per push and per check.
// 1c. The same policy in the extended rule language (bench/refund-extended.yaml: keyed
//     ordering, a condition, pairing within, a value-matcher forbidden, a sum per order, a
//     regex on content), built here, on the same trajectories, next to the v1 judge of 1:
//     what the extensions cost per event; and its monitor's time per push.
// 2. Size of each example's judge.mjs and the time to import it in a fresh process.
// 3. Model calls per trajectory for each example, with and without verify-on-false,
//    through an in-process adapter that answers as examples/tax-research/scripted-answers.json
//    says (and confirms every deterministic failure): the judge's own call pattern, no network.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { refundEvents } from "./common.js";
import { handWritten } from "./hand.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const quick = process.argv.includes("--quick");
const JUDGE_PATH = join(root, "examples/refund-support/judge.mjs");
const judge = await import(pathToFileURL(JUDGE_PATH).href);
const beforeAt = process.argv.indexOf("--before");
const beforePath = beforeAt > 0 ? resolve(process.argv[beforeAt + 1]) : undefined;
const before = beforePath === undefined ? undefined : await import(pathToFileURL(beforePath).href);

/** A long support session in the refund example's vocabulary (bench/common.js). Deterministic, so every run judges the same events. */
const makeTrajectory = (size) => ({ id: `bench-${size}`, complete: true, events: refundEvents(size) });

/**
 * Milliseconds since `start()`: wall time, or with --cpu (or BENCH_CPU=1 in the children) the
 * process's CPU time, which a machine loaded by other jobs inflates far less.
 */
const cpuTime = process.argv.includes("--cpu") || process.env.BENCH_CPU === "1";
if (cpuTime) process.env.BENCH_CPU = "1";
function clock() {
  if (cpuTime) {
    const start = process.cpuUsage();
    return () => {
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000;
    };
  }
  const start = process.hrtime.bigint();
  return () => Number(process.hrtime.bigint() - start) / 1e6;
}

async function timeIt(fn, events, minMs) {
  await fn(); // warm-up
  let runs = 0;
  const since = clock();
  let elapsed = 0;
  do {
    await fn();
    runs++;
    elapsed = since();
  } while (elapsed < minMs);
  const perRunMs = elapsed / runs;
  return { eventsPerSecond: (events / perRunMs) * 1000, nsPerEvent: (perRunMs * 1e6) / events, runs };
}

function fmt(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)}k` : n.toFixed(0);
}

/**
 * One measurement in a process of its own (`--measure <judge.mjs | hand> <events> <ms>`):
 * two judges timed in one process share its heap and its compiler's budget, which moved
 * the figures by 30% from run to run here. Prints ns per event.
 */
async function measureAlone() {
  const at = process.argv.indexOf("--measure");
  const [what, size, ms] = [process.argv[at + 1], Number(process.argv[at + 2]), Number(process.argv[at + 3])];
  const t = makeTrajectory(size);
  const fn =
    what === "hand"
      ? () => handWritten(t)
      : (
          (m) => () =>
            m.judgeTrajectory(t)
        )(await import(pathToFileURL(what).href));
  // Warm up, then the best of a few timed stretches.
  await timeIt(fn, size, Math.min(ms, 300));
  let best = Infinity;
  for (let k = 0; k < 3; k++) best = Math.min(best, (await timeIt(fn, size, ms / 3)).nsPerEvent);
  process.stdout.write(`${best}\n`);
}

function measureInChild(what, size, ms) {
  const out = execFileSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--measure", what, String(size), String(ms)], {
    encoding: "utf8",
  });
  return Number(out.trim());
}

if (process.argv.includes("--measure")) {
  await measureAlone();
  process.exit(0);
}

console.log(`node ${process.version}, ${process.platform}/${process.arch}\n`);
console.log("1. refund-support judge, judgeTrajectory (validation + 4 rules + clauses), each measurement in a fresh process");
if (before !== undefined) console.log(`   before: ${beforePath}`);
console.log(
  `   events  ${before === undefined ? "" : "before ev/s  ns/event   "}judge ev/s  ns/event   hand-written ev/s  ns/event   judge/hand${before === undefined ? "" : "   before/hand   speed-up"}`,
);
for (const size of [1_000, 10_000, 100_000, 1_000_000]) {
  const t = makeTrajectory(size);
  const judged = await judge.judgeTrajectory(t);
  const verdicts = judged.metaBehaviors.map((m) => m.verdict).join(",");
  if (before !== undefined && JSON.stringify(await before.judgeTrajectory(t)) !== JSON.stringify(judged))
    throw new Error("the two judges disagree");
  const ms = quick ? 300 : size >= 1_000_000 ? 3000 : 1500;
  // Alternated and best of three, so that load on the machine weighs on each the same.
  const best = { judge: Infinity, before: Infinity, hand: Infinity };
  for (let round = 0; round < 3; round++) {
    best.judge = Math.min(best.judge, measureInChild(JUDGE_PATH, size, ms));
    if (before !== undefined) best.before = Math.min(best.before, measureInChild(beforePath, size, ms));
    best.hand = Math.min(best.hand, measureInChild("hand", size, ms));
  }
  const rate = (ns) => fmt(1e9 / ns).padStart(10);
  const beforeColumns = before === undefined ? "" : `${rate(best.before)}  ${best.before.toFixed(1).padStart(8)}   `;
  const ratios =
    before === undefined
      ? ""
      : `   ${(best.hand / best.before).toFixed(2).padStart(10)}x   ${(best.before / best.judge).toFixed(2).padStart(7)}x`;
  console.log(
    `   ${fmt(size).padStart(6)}  ${beforeColumns}${rate(best.judge)}  ${best.judge.toFixed(1).padStart(8)}   ${rate(best.hand).padStart(17)}  ${best.hand.toFixed(1).padStart(8)}   ${(best.hand / best.judge).toFixed(2).padStart(9)}x${ratios}   verdicts ${verdicts}`,
  );
}

console.log("\n1b. refund-support monitor: createMonitor, then push (and check) events one at a time");
for (const [label, monitored] of before === undefined
  ? [["", judge]]
  : [
      ["before: ", before],
      ["judge:  ", judge],
    ]) {
  const events = makeTrajectory(100_000).events;
  // Checked events get ids of their own (a pushed id would be a duplicate), made before the clock starts.
  const candidates = events.map((e, i) => ({ ...e, id: `c${i}` }));
  // The first round warms the monitor's code up and is not counted.
  const rounds = quick ? 4 : 8;
  let pushNs = Infinity;
  let checkNs = Infinity;
  for (let round = 0; round <= rounds; round++) {
    const counted = round > 0;
    const monitor = monitored.createMonitor({ id: "bench" });
    let start = process.hrtime.bigint();
    for (let i = 0; i < events.length; i++) monitor.push(events[i]);
    if (counted) pushNs = Math.min(pushNs, Number(process.hrtime.bigint() - start) / events.length);
    // A check of each of the next events, none pushed: each must leave the monitor as it was.
    const probe = monitored.createMonitor({ id: "bench" });
    for (let i = 0; i < 600; i++) probe.push(events[i]);
    start = process.hrtime.bigint();
    for (let i = 600; i < events.length; i++) probe.check(candidates[i]);
    if (counted) checkNs = Math.min(checkNs, Number(process.hrtime.bigint() - start) / (events.length - 600));
  }
  console.log(`   ${label}${pushNs.toFixed(0)} ns per push, ${checkNs.toFixed(0)} ns per check over 100k events, best of ${rounds}`);
}

console.log("\n1c. the refund policy in the extended language (bench/refund-extended.yaml) next to the v1 judge of 1");
{
  const extendedPath = join(mkdtempSync(join(tmpdir(), "bj-bench-")), "refund-extended.mjs");
  execFileSync(
    process.execPath,
    [join(root, "bin", "behavior-judge.js"), "build", join(root, "bench", "refund-extended.yaml"), "-o", extendedPath],
    {
      stdio: "ignore",
    },
  );
  const extended = await import(pathToFileURL(extendedPath).href);
  console.log("   events   v1 ev/s  ns/event   v2 ev/s  ns/event   v2/v1 time   v2 verdicts");
  for (const size of [1_000, 10_000, 100_000, 1_000_000]) {
    const t = makeTrajectory(size);
    const verdicts = (await extended.judgeTrajectory(t)).metaBehaviors.map((m) => m.verdict).join(",");
    const ms = quick ? 300 : size >= 1_000_000 ? 3000 : 1500;
    const best = { v1: Infinity, v2: Infinity };
    for (let round = 0; round < 3; round++) {
      best.v1 = Math.min(best.v1, measureInChild(JUDGE_PATH, size, ms));
      best.v2 = Math.min(best.v2, measureInChild(extendedPath, size, ms));
    }
    const rate = (ns) => fmt(1e9 / ns).padStart(8);
    console.log(
      `   ${fmt(size).padStart(6)}  ${rate(best.v1)}  ${best.v1.toFixed(1).padStart(8)}  ${rate(best.v2)}  ${best.v2.toFixed(1).padStart(8)}   ${(best.v2 / best.v1).toFixed(2).padStart(9)}x   ${verdicts}`,
    );
  }
  const events = makeTrajectory(100_000).events;
  let pushNs = Infinity;
  for (let round = 0; round <= (quick ? 4 : 8); round++) {
    const monitor = extended.createMonitor({ id: "bench" });
    const start = process.hrtime.bigint();
    for (let i = 0; i < events.length; i++) monitor.push(events[i]);
    if (round > 0) pushNs = Math.min(pushNs, Number(process.hrtime.bigint() - start) / events.length);
  }
  console.log(`   v2 monitor: ${pushNs.toFixed(0)} ns per push over 100k events`);
}

console.log("\n2. examples' judge.mjs: size and import time in a fresh node process (median of 5)");
for (const name of ["refund-support", "staged-rollout", "tax-research", "airline-cancellations"]) {
  const file = join(root, "examples", name, "judge.mjs");
  const bytes = statSync(file).size;
  const gzip = (await import("node:zlib")).gzipSync(readFileSync(file)).length;
  const times = [];
  for (let i = 0; i < 5; i++) {
    const out = execFileSync(process.execPath, [
      "--input-type=module",
      "-e",
      `const t0 = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t0);`,
    ]);
    times.push(Number(out.toString().trim()));
  }
  times.sort((a, b) => a - b);
  console.log(`   ${name.padEnd(16)} ${String(bytes).padStart(6)} bytes (${gzip} gzipped), import ${times[2].toFixed(2)} ms`);
}

/** Which question a prompt asks, and about what: read from the judge's own prompt layout. */
function questionOf(messages) {
  const prompt = messages[messages.length - 1].content;
  const id = /^\{"trajectory_id":("(?:[^"\\]|\\.)*")/m.exec(prompt);
  const kind = prompt.includes("The rule applies to a trajectory only when")
    ? "trigger"
    : prompt.includes("found this clause violated")
      ? "verify"
      : "check";
  return { trajectoryId: id ? JSON.parse(id[1]) : "", rule: /^Rule: (.*)$/m.exec(prompt)?.[1] ?? "", kind, prompt };
}

function scriptedAdapter(answers, counter) {
  return async (messages) => {
    counter.calls++;
    const q = questionOf(messages);
    const found = answers.find(
      (a) => a.trajectoryId === q.trajectoryId && a.kind === q.kind && a.ruleName === q.rule && q.prompt.includes(JSON.stringify(a.quote)),
    );
    if (found !== undefined)
      return JSON.stringify({ verdict: found.verdict, na_reason: found.na_reason, reasoning: found.reasoning, citations: found.citations });
    // Not in the script: a verify question of a deterministic example. Confirm it, citing the first event.
    const first = /^\{"id":("(?:[^"\\]|\\.)*")/m.exec(q.prompt);
    return JSON.stringify({
      verdict: "false",
      na_reason: null,
      reasoning: "Confirmed.",
      citations: [{ event_id: first ? JSON.parse(first[1]) : "", description: "flagged" }],
    });
  };
}

console.log("\n3. model calls per trajectory (scripted in-process adapter)");
console.log("   example          trajectories   with verify   without verify");
const answers = JSON.parse(readFileSync(join(root, "examples", "tax-research", "scripted-answers.json"), "utf8"));
for (const name of ["refund-support", "staged-rollout", "tax-research"]) {
  const exampleJudge = await import(pathToFileURL(join(root, "examples", name, "judge.mjs")).href);
  const dir = join(root, "examples", name, "trajectories");
  const cases = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")).trajectory);
  const counts = [];
  for (const verify of [true, false]) {
    const counter = { calls: 0 };
    const complete = scriptedAdapter(answers, counter);
    for (const t of cases) await exampleJudge.judgeTrajectory(t, { complete, verify });
    counts.push(counter.calls);
  }
  const per = (n) => `${n} (${(n / cases.length).toFixed(2)}/traj)`;
  console.log(
    `   ${name.padEnd(16)} ${String(cases.length).padStart(12)}   ${per(counts[0]).padStart(11)}   ${per(counts[1]).padStart(14)}`,
  );
}
