#!/usr/bin/env node
// What a judgment allocates, and what the garbage collector costs it (issue 26). On this
// shared machine CPU time moves by 10–40% from process to process, which hides a change of a
// few nanoseconds per event; the bytes a judgment allocates in V8's young generation do not
// move, and at large trajectories they decide how often the scavenger runs and what it copies.
//
//   node bench/alloc.js examples/refund-support/judge.mjs
//   node bench/alloc.js --sizes 1000,100000 old/judge.mjs examples/refund-support/judge.mjs
//
// For each judge.mjs and trajectory size (bench/common.js's refund session), a fresh process
// run with V8's --trace-gc-nvp judges the trajectory repeatedly after a warm-up, between two
// forced full collections, and reports over the judgments between them: young-generation
// bytes allocated per judgment (what every collection of the window found allocated since
// the one before, the closing forced one included, over the judgments), scavenges and
// mark-compacts (the closing forced one not counted), the share of the window's CPU time
// spent in garbage-collection pauses (the forced ones not counted), and CPU ns per event
// (noisy; for orientation only).
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const SELF = fileURLToPath(import.meta.url);
const START = "alloc-bench: start";
const END = "alloc-bench: end";

async function child(path, size) {
  const { refundEvents } = await import("./common.js");
  const judge = await import(pathToFileURL(path).href);
  const trajectory = { id: `bench-${size}`, complete: true, events: refundEvents(size) };
  const warm = Math.max(20, Math.round(2e6 / size));
  for (let k = 0; k < warm; k++) await judge.judgeTrajectory(trajectory);
  const count = Math.max(200, Math.round(4e7 / size));
  globalThis.gc();
  process.stdout.write(`${START}\n`);
  const cpu = process.cpuUsage();
  for (let k = 0; k < count; k++) await judge.judgeTrajectory(trajectory);
  const used = process.cpuUsage(cpu);
  process.stdout.write(`${END}\n`);
  // Reports what was allocated since the window's last collection.
  globalThis.gc();
  process.stdout.write(`alloc-bench: cpu ${used.user + used.system} ${count}\n`);
}

function field(line, name) {
  const match = new RegExp(`(?:^| )${name}=([0-9.]+)`).exec(line);
  return match === null ? 0 : Number(match[1]);
}

function measure(path, size) {
  const out = execFileSync(process.execPath, ["--expose-gc", "--trace-gc-nvp", SELF, "--child", path, String(size)], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  let phase = "warm-up";
  let allocated = 0;
  let scavenges = 0;
  let markCompacts = 0;
  let pauseMs = 0;
  let cpuMicros = 0;
  let count = 0;
  for (const line of out.split("\n")) {
    if (line === START) phase = "window";
    else if (line === END) phase = "closing";
    else if (line.startsWith("alloc-bench: cpu ")) [cpuMicros, count] = line.slice("alloc-bench: cpu ".length).split(" ").map(Number);
    else if (phase !== "warm-up" && line.includes(" gc=")) {
      allocated += field(line, "allocated");
      if (phase === "closing") continue;
      pauseMs += field(line, "pause");
      if (line.includes(" gc=s ")) scavenges++;
      else markCompacts++;
    }
  }
  const perJudgment = allocated / count;
  return {
    perJudgmentKb: perJudgment / 1024,
    perEventBytes: perJudgment / size,
    scavenges,
    markCompacts,
    gcShare: pauseMs / (cpuMicros / 1000),
    nsPerEvent: (cpuMicros * 1000) / (count * size),
  };
}

if (process.argv[2] === "--child") {
  await child(process.argv[3], Number(process.argv[4]));
} else {
  const args = process.argv.slice(2);
  const at = args.indexOf("--sizes");
  const sizes = (at < 0 ? "1000,100000" : args.splice(at, 2)[1]).split(",").map(Number);
  const judges = args.map((path) => resolve(path));
  if (judges.length === 0 || sizes.some((n) => !(n >= 1))) {
    process.stderr.write("usage: node bench/alloc.js [--sizes 1000,100000] judge.mjs [judge.mjs ...]\n");
    process.exit(2);
  }
  console.log(`node ${process.version}; young-generation allocation per judgment, from --trace-gc-nvp`);
  console.log("  events   KB/judgment  bytes/event  scavenges  mark-compacts  GC pause/CPU  ns/event (noisy)  judge");
  for (const size of sizes) {
    for (const path of judges) {
      const m = measure(path, size);
      console.log(
        `  ${String(size).padStart(6)}  ${m.perJudgmentKb.toFixed(1).padStart(11)}  ${m.perEventBytes.toFixed(1).padStart(11)}  ${String(m.scavenges).padStart(9)}  ${String(m.markCompacts).padStart(13)}  ${`${(m.gcShare * 100).toFixed(0)}%`.padStart(12)}  ${m.nsPerEvent.toFixed(1).padStart(16)}  ${path}`,
      );
    }
  }
}
