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
//
// Tools 0 is bench/run.js's refund session, N the session over the N tools of bench/table.js's
// judges. Valgrind is optional: without it the script says so and exits 0. Valgrind runs node
// some 50× slower: with the defaults a count takes a few minutes.
import { execFileSync, spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { refundEvents, takeOption } from "./common.js";
import { guardEvents } from "./guard.js";

const args = process.argv.slice(2);
const option = (flag, fallback) => takeOption(args, flag, fallback);

/** The session of `tools` (0: the refund session) with `events` events. */
const session = (tools, events) => ({
  id: "t",
  complete: true,
  events: tools === 0 ? refundEvents(events) : guardEvents(events, tools),
});

if (args[0] === "--run") {
  // The measured process: `--run <judge.mjs> <tools> <events> <warm> <timed>`.
  const [path, tools, events, warm, timed] = args.slice(1);
  const judge = await import(pathToFileURL(path).href);
  const trajectory = session(Number(tools), Number(events));
  for (let i = 0; i < Number(warm); i++) await judge.judgeTrajectory(trajectory);
  for (let i = 0; i < Number(timed); i++) await judge.judgeTrajectory(trajectory);
  process.exit(0);
}

const events = Number(option("--events", "10000"));
// Round 15's sizes: 2,000,000 events of warm-up and 2,000,000 timed (200 and 200 judgments of
// 10,000 events), so that the timed judgments are half the count, whose rest moves by 0.2%.
const perDefault = String(Math.max(1, Math.round(2_000_000 / events)));
const warm = Number(option("--warm", perDefault));
const timed = Number(option("--timed", perDefault));
const [judgeArg, toolsArg] = args;
const tools = Number(toolsArg);
if (judgeArg === undefined || !(tools >= 0) || !(events >= 1) || !(warm >= 0) || !(timed >= 1)) {
  process.stderr.write("usage: node bench/instructions.js <judge.mjs> <tools> [--events 10000] [--warm 200] [--timed 200]\n");
  process.exit(2);
}
const judge = resolve(judgeArg);

if (spawnSync("valgrind", ["--version"]).error !== undefined) {
  console.log("valgrind is not installed: no instruction counts (apt-get install valgrind to have them).");
  process.exit(0);
}

/** Instructions retired by one process judging `warm` then `n` times (cachegrind's "I refs"). */
function count(n) {
  const out = spawnSync(
    "valgrind",
    [
      "--tool=cachegrind",
      "--cache-sim=no",
      "--cachegrind-out-file=/dev/null",
      // V8 writes its code into memory it then runs: valgrind must see those writes.
      "--smc-check=all-non-file",
      process.execPath,
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
    ],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  const line = /I\s+refs:\s+([\d,]+)/.exec(out.stderr);
  if (out.status !== 0 || line === null) {
    process.stderr.write(out.stderr.slice(-2000));
    throw new Error(`valgrind run of ${judge} failed (status ${out.status})`);
  }
  return Number(line[1].replaceAll(",", ""));
}

const version = execFileSync("valgrind", ["--version"], { encoding: "utf8" }).trim();
console.log(`node ${process.version}, ${version}, load average ${loadavg()[0].toFixed(1)} (it does not move the counts).`);
const without = count(0);
const withTimed = count(timed);
const perEvent = (withTimed - without) / (timed * events);
console.log("| judge.mjs | tools | events | warm-up judgments | timed | instructions per event |");
console.log("|---|---:|---:|---:|---:|---:|");
console.log(`| ${judgeArg} | ${tools} | ${events} | ${warm} | ${timed} | ${perEvent.toFixed(1)} |`);
console.log(`\n(${withTimed} instructions with the timed judgments, ${without} without.)`);
