#!/usr/bin/env node
// Instructions retired per event, the measure that load does not move (docs/SPEED.md, round 15;
// issue 26). On a VM without hardware counters, valgrind counts them: the judge runs twice under
// cachegrind, `warm` judgments then `timed` more, and once with no timed judgments; the
// difference, divided by the events of the timed judgments, is what one event costs once the
// code is warm. `--single-threaded` makes V8 compile on the main thread, so each run optimizes
// at the same point, and fixed hash and random seeds keep V8's tables the same from run to run,
// so that the two counts differ by the timed judgments alone.
//
//   npm run build:cli && node bench/table.js --build required 100 /tmp/j
//   node bench/instructions.js /tmp/j/required-100.mjs 100                 # 10,000 events
//   node bench/instructions.js examples/refund-support/judge.mjs 0 --events 1000   # 2,000 + 2,000 judgments
//   node bench/instructions.js examples/refund-support/judge.mjs 0 --events 1000 --by-function
//   node bench/instructions.js examples/refund-support/judge.mjs 0 --events 1000 --input parse-judge
//
// `--by-function` (round 17) counts with callgrind instead, and also prints where an event's
// instructions go: each function's share, compiled JavaScript named by node's --perf-basic-prof
// map (`*` optimized code, with what TurboFan inlined into it), V8's builtins and C++ by their
// own names (bench/callgrind.js). Callgrind runs about 1.5 times as long as cachegrind.
//
// Tools 0 is bench/run.js's refund session, N the session over the N tools of bench/table.js's
// judges. Valgrind is optional: without it the script says so and exits 0. Valgrind runs node
// some 50× slower: with the defaults a count takes a few minutes.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cacheMisses, costByFunction } from "./callgrind.js";
import { refundEvents, takeOption } from "./common.js";
import { guardEvents } from "./guard.js";
import { handWritten } from "./hand.js";

/** The judge argument that counts bench/hand.js's hand-written loop instead of a judge.mjs. */
const HAND = "hand";

const args = process.argv.slice(2);
const option = (flag, fallback) => takeOption(args, flag, fallback);

/** The session of `tools` (0: the refund session) with `events` events. */
const session = (tools, events) => ({
  id: "t",
  complete: true,
  events: tools === 0 ? refundEvents(events) : guardEvents(events, tools),
});

/**
 * What each judgment is given (`--input`, round 19): `objects` bench/common.js's objects as they
 * are (the default); `parsed` the same after one JSON round trip, so that the judge sees what
 * JSON.parse makes (its maps, its internalized short strings), judged again and again; `parse`
 * the session's JSON text parsed and nothing judged (the floor of the next two); `parse-judge`
 * `judgeTrajectory(JSON.parse(text))`. (Round 19's `judge-json`, a `judgeJson(text)` built to
 * measure a check for JSON.parse's own output, went with it: commit 660753c.)
 */
const INPUTS = ["objects", "parsed", "parse", "parse-judge"];

if (args[0] === "--run") {
  // The measured process: `--run <judge.mjs | hand> <tools> <events> <warm> <timed> [input]`.
  const [path, tools, events, warm, timed, input = "objects"] = args.slice(1);
  const trajectory = session(Number(tools), Number(events));
  if (path === HAND) {
    // The hand loop of bench/hand.js decides the refund session's four rules without a promise.
    for (let i = 0; i < Number(warm) + Number(timed); i++) handWritten(trajectory);
    process.exit(0);
  }
  const judge = await import(pathToFileURL(path).href);
  const text = JSON.stringify(trajectory);
  const parsed = JSON.parse(text);
  const once = {
    objects: () => judge.judgeTrajectory(trajectory),
    parsed: () => judge.judgeTrajectory(parsed),
    parse: () => JSON.parse(text),
    "parse-judge": () => judge.judgeTrajectory(JSON.parse(text)),
  }[input];
  for (let i = 0; i < Number(warm); i++) await once();
  for (let i = 0; i < Number(timed); i++) await once();
  process.exit(0);
}

/** Whether `flag` was given; taken out of `args`. */
function takeFlag(flag) {
  const at = args.indexOf(flag);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
}
const byFunction = takeFlag("--by-function");
const cache = takeFlag("--cache");
// The simulated last-level cache with `--cache`, `bytes,ways`: by default one of this machine's
// L3 slices (32 MB, 16 ways; valgrind's own guess from cpuid reads a VM's odd figures), or its
// L2 with `--ll 1048576,8`. The first level is its L1 (48 KB of data, 12 ways; 32 KB of code).
const ll = option("--ll", "33554432,16");
const events = Number(option("--events", "10000"));
// Round 15's sizes: 2,000,000 events of warm-up and 2,000,000 timed (200 and 200 judgments of
// 10,000 events), so that the timed judgments are half the count, whose rest moves by 0.2%.
const perDefault = String(Math.max(1, Math.round(2_000_000 / events)));
const warm = Number(option("--warm", perDefault));
// Past 20,000 events a judgment allocates enough that collections fall within the timed ones,
// and where V8 puts its mark-compacts moves the count: 20 timed judgments of 100,000 events
// counted 937.6 and 645.9 (round 16), 100 still 684.5 to 865.5 in four runs, and V8's
// --no-memory-reducer did not steady them (814.3, 989.3; round 18). At least 10,000,000 timed
// events up to 100 judgments, and at that size read the count as a range, not a figure.
const timedDefault = String(Math.max(Number(perDefault), Math.min(100, Math.round(10_000_000 / events))));
const timed = Number(option("--timed", timedDefault));
const input = option("--input", "objects");
const [judgeArg, toolsArg] = args;
const tools = Number(toolsArg);
const usable =
  judgeArg !== undefined &&
  tools >= 0 &&
  events >= 1 &&
  warm >= 0 &&
  timed >= 1 &&
  !(byFunction && cache) &&
  /^\d+,\d+$/.test(ll) &&
  INPUTS.includes(input) &&
  (judgeArg !== HAND || (tools === 0 && input === "objects"));
if (!usable) {
  process.stderr.write(
    `usage: node bench/instructions.js <judge.mjs | hand> <tools> [--events 10000] [--warm 200] [--timed 200] [--by-function | --cache [--ll bytes,ways]] [--input ${INPUTS.join(" | ")}]\n`,
  );
  process.exit(2);
}
const judge = judgeArg === HAND ? HAND : resolve(judgeArg);

if (spawnSync("valgrind", ["--version"]).error !== undefined) {
  console.log("valgrind is not installed: no instruction counts (apt-get install valgrind to have them).");
  process.exit(0);
}

const scratch = byFunction ? mkdtempSync(join(tmpdir(), "bj-instructions-")) : undefined;
// Callgrind with each instruction's count, and node writing the names of the code it compiles.
const tool = byFunction
  ? ["--tool=callgrind", "--dump-instr=yes", `--callgrind-out-file=${join(scratch, "callgrind.out")}`]
  : cache
    ? ["--tool=cachegrind", "--cache-sim=yes", "--I1=32768,8,64", "--D1=49152,12,64", `--LL=${ll},64`, "--cachegrind-out-file=/dev/null"]
    : ["--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"];
const nodeFlags = byFunction ? ["--perf-basic-prof", "--logfile=/dev/null"] : [];

/**
 * Instructions retired by one process judging `warm` then `n` times (valgrind's "I refs"), and
 * with `--by-function` those of each function (bench/callgrind.js).
 */
function count(n) {
  const out = spawnSync(
    "valgrind",
    [
      ...tool,
      // V8 writes its code into memory it then runs: valgrind must see those writes.
      "--smc-check=all-non-file",
      process.execPath,
      ...nodeFlags,
      "--single-threaded",
      // Fixed seeds: with V8's random hash seed, two runs' counts differ by about 1%; with these,
      // by about 0.2%.
      "--hash-seed=1",
      "--random-seed=1",
      fileURLToPath(import.meta.url),
      "--run",
      judge,
      String(tools),
      String(events),
      String(warm),
      String(n),
      input,
    ],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  const line = /I\s+refs:\s+([\d,]+)/.exec(out.stderr);
  if (out.status !== 0 || line === null) {
    process.stderr.write(out.stderr.slice(-2000));
    throw new Error(`valgrind run of ${judge} failed (status ${out.status})`);
  }
  const total = Number(line[1].replaceAll(",", ""));
  if (cache) return { total, ...cacheMisses(out.stderr) };
  if (!byFunction) return { total };
  // V8 names its compiled code in /tmp/perf-<pid>.map; under valgrind, node's pid is valgrind's.
  const perfMap = `/tmp/perf-${out.pid}.map`;
  const costs = costByFunction(readFileSync(join(scratch, "callgrind.out"), "utf8"), readFileSync(perfMap, "utf8"));
  rmSync(perfMap, { force: true });
  return { total, costs };
}

/** Each function's instructions per timed event, largest first: `shown` rows, then the rest in one. */
function printByFunction(without, withTimed, perEventOf, shown = 25) {
  const names = new Set([...without.costs.keys(), ...withTimed.costs.keys()]);
  const rows = [...names]
    .map((name) => [name, perEventOf((withTimed.costs.get(name) ?? 0) - (without.costs.get(name) ?? 0))])
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
  const rest = rows.slice(shown).reduce((sum, [, value]) => sum + value, 0);
  console.log("\n| function (`*` optimized JavaScript, with what V8 inlined into it) | instructions per event |");
  console.log("|---|---:|");
  for (const [name, value] of rows.slice(0, shown)) console.log(`| ${name.replaceAll("|", "\\|")} | ${value.toFixed(1)} |`);
  console.log(`| everything else (${rows.length - shown} functions) | ${rest.toFixed(1)} |`);
}

const version = execFileSync("valgrind", ["--version"], { encoding: "utf8" }).trim();
console.log(`node ${process.version}, ${version}, load average ${loadavg()[0].toFixed(1)} (it does not move the counts).`);
// Each count is a valgrind run of minutes: say what is under way, so that a long one is seen to run.
process.stderr.write(`counting ${warm} judgments of ${events} events under valgrind…\n`);
const without = count(0);
process.stderr.write(`counting ${warm} + ${timed} judgments…\n`);
const withTimed = count(timed);
const perEventOf = (instructions) => instructions / (timed * events);
const perEvent = perEventOf(withTimed.total - without.total);
console.log("| judge.mjs | tools | events | input | warm-up judgments | timed | instructions per event |");
console.log("|---|---:|---:|---|---:|---:|---:|");
console.log(`| ${judgeArg} | ${tools} | ${events} | ${input} | ${warm} | ${timed} | ${perEvent.toFixed(1)} |`);
console.log(`\n(${withTimed.total} instructions with the timed judgments, ${without.total} without.)`);
if (cache) {
  const per = (field) => perEventOf(withTimed[field] - without[field]).toFixed(2);
  console.log(`\n| data references per event | D1 misses per event (48 KB) | LL misses per event (${ll.split(",")[0]} bytes) |`);
  console.log("|---:|---:|---:|");
  console.log(`| ${per("dataRefs")} | ${per("d1Misses")} | ${per("llMisses")} |`);
}
if (byFunction) {
  printByFunction(without, withTimed, perEventOf);
  rmSync(scratch, { recursive: true, force: true });
}
