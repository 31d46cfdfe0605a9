#!/usr/bin/env node
// Importer throughput and the library entry's size (issue 10). Not a test:
// machines here are shared and noisy, so read the figures as orders of size.
//
//   npm run build:cli && node bench/importers.js [--quick]
//
// 1. Per format, every recorded fixture (test/fixtures/importers/<format>/)
//    imported in a loop through the shipped bundle (dist/importers.mjs), and
//    the whole set at once ("all"): traces and events imported per second.
// 2. The largest set: each format's fixtures repeated into one batch of
//    ~10,000 traces (a day of logs), imported in one call (one call per copy
//    where copies in one batch would join one trace).
// 3. Size of the library entry: bytes, gzip bytes.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const quick = process.argv.includes("--quick");
const entry = join(root, "dist", "importers.mjs");
const lib = await import(pathToFileURL(entry).href);
const fixtures = join(root, "test", "fixtures", "importers");

function read(path) {
  const text = readFileSync(path, "utf8");
  return path.endsWith(".jsonl")
    ? text
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l))
    : JSON.parse(text);
}

const sets = [];
for (const { name } of lib.FORMATS) {
  let dir;
  try {
    dir = readdirSync(join(fixtures, name));
  } catch {
    continue;
  }
  const inputs = dir
    .filter((f) => /\.(jsonl?|traj)$/.test(f))
    .sort()
    .map((f) => read(join(fixtures, name, f)));
  if (inputs.length > 0) sets.push({ name, inputs });
}

/** Imports every input of a set `rounds` times (format named, as the CLI does after detection); returns traces/s and events/s. */
function measure(inputs, format, minMs) {
  let traces = 0;
  let events = 0;
  let rounds = 0;
  const start = performance.now();
  do {
    for (const input of inputs) {
      const result = lib.importTrace(input, { from: format });
      traces += result.trajectories.length;
      for (const t of result.trajectories) events += t.events.length;
    }
    rounds++;
  } while (performance.now() - start < minMs);
  const seconds = (performance.now() - start) / 1000;
  return { traces: traces / seconds, events: events / seconds, rounds };
}

const fmt = (n) => Math.round(n).toLocaleString("en-US");
const minMs = quick ? 200 : 1000;

console.log("1. Recorded fixtures, imported in a loop through dist/importers.mjs (format named)");
console.log("format            fixtures  traces/s     events/s");
for (const set of sets) {
  measure(set.inputs, set.name, 50); // warm-up
  const m = measure(set.inputs, set.name, minMs);
  console.log(
    `${set.name.padEnd(18)}${String(set.inputs.length).padStart(8)}  ${fmt(m.traces).padStart(9)}  ${fmt(m.events).padStart(11)}`,
  );
}
const detected = sets.flatMap((s) => s.inputs);
measure(detected, "auto", 50);
const auto = measure(detected, "auto", minMs);
console.log(
  `${"all, --from auto".padEnd(18)}${String(detected.length).padStart(8)}  ${fmt(auto.traces).padStart(9)}  ${fmt(auto.events).padStart(11)}`,
);

console.log("\n2. The largest set: each format's conversations repeated into one batch of ~10,000 traces, one call (*: one call per copy)");
console.log("format            traces   events    seconds  traces/s   events/s");
const target = quick ? 2000 : 10000;
for (const set of sets) {
  // A batch in the shape the format logs many traces: a list of conversations / exchanges / histories.
  const one = set.inputs.flatMap((input) => {
    const r = lib.importTrace(input, { from: set.name });
    return r.trajectories.length === 1 ? [input] : [];
  });
  if (one.length === 0) continue;
  const batch = [];
  for (let i = 0; batch.length < target; i++) batch.push(one[i % one.length]);
  // Copies of one trace do not always stay separate in one batch: Responses
  // exchanges chain into one conversation, and spans (otel, openai-agents)
  // join the trace of their trace id. There each copy is imported as its own input.
  const separate = one.every((input) => lib.importTrace([input, input], { from: set.name }).trajectories.length === 2);
  const start = performance.now();
  let traces = 0;
  let events = 0;
  if (!separate) {
    for (const input of batch) {
      const r = lib.importTrace(input, { from: set.name });
      traces += r.trajectories.length;
      for (const t of r.trajectories) events += t.events.length;
    }
  } else {
    const r = lib.importTrace(batch, { from: set.name });
    traces = r.trajectories.length;
    for (const t of r.trajectories) events += t.events.length;
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${(set.name + (separate ? "" : "*")).padEnd(18)}${fmt(traces).padStart(6)}  ${fmt(events).padStart(7)}  ${seconds.toFixed(3).padStart(8)}  ${fmt(traces / seconds).padStart(8)}  ${fmt(events / seconds).padStart(9)}`,
  );
}

console.log("\n3. The library entry (package.json exports ./importers)");
const bytes = statSync(entry).size;
console.log(`dist/importers.mjs: ${fmt(bytes)} bytes, ${fmt(gzipSync(readFileSync(entry)).length)} bytes gzipped, no imports`);
