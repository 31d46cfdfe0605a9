#!/usr/bin/env node
// The CLI against its floor (issue 26, docs/SPEED.md "The CLI at its floor"), in one run:
//
//   npm run build:cli && node bench/cli-floor.js            # both corpora, every output mode, one thread
//   node bench/cli-floor.js --runs 3                         # best of 3 per row (default 2)
//   node bench/cli-floor.js --only jsonl                     # one corpus: jsonl or array
//   node bench/cli-floor.js --junit                          # also --junit (it collects every case: slow)
//   node bench/cli-floor.js --workers                        # also the default thread count and --workers 2
//   node bench/cli-floor.js --workers --load                 # the same with a busy loop on one core meanwhile
//   node bench/cli-floor.js --before OTHER/bin/behavior-judge.js   # each judge row also on another build, alternated
//   node bench/cli-floor.js --corpora DIR                    # the corpora written to DIR and kept (reused if there)
//
// Two corpora of the refund example's vocabulary are written to the temp folder (deleted at
// the end): (a) 100,000 small trajectories (10 events each) as JSON Lines, (b) a .json array
// of 5,000 trajectories of 48 events (one element per line, about 24 MB). For each, the floor
// is one process that reads the file (JSONL in 64 KB reads into one buffer, each read's whole
// lines checked as UTF-8 and decoded in one call; the array whole, checked and decoded),
// JSON.parses each trajectory, judges it with judgeTrajectory and JSON.stringifies the
// judgment, written to /dev/null in chunks of 32K characters;
// then `behavior-judge judge` in each output mode (text, --json, --jsonl; --junit if asked) with
// --workers 1, stdout to /dev/null. Every row is a fresh child process; figures are wall
// time and CPU time (user + system of every thread), the best of --runs, and the ratio to
// the floor's. On a shared machine compare the ratios of one run, not figures across runs.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureNode, refundEvents } from "./common.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "bin", "behavior-judge.js");
const JUDGE = join(ROOT, "examples", "refund-support", "judge.mjs");

const flag = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const RUNS = Number(flag("--runs") ?? 2);
const ONLY = flag("--only");
const WORKERS = process.argv.includes("--workers");
const LOAD = process.argv.includes("--load");
const JUNIT = process.argv.includes("--junit");
const BEFORE = flag("--before");
const KEEP = flag("--corpora");

/** A support session of `size` events in the refund vocabulary, with id `id`. */
const session = (id, size, k0) => ({ id, complete: true, events: refundEvents(size, k0) });

/** Writes `count` lines from `line(i)` to `path` in large chunks; returns the bytes. */
function writeLines(path, count, line, head = "", between = "\n", tail = "\n") {
  const fd = openSync(path, "w");
  let bytes = 0;
  let chunk = head;
  for (let i = 0; i < count; i++) {
    chunk += (i === 0 ? "" : between) + line(i);
    if (chunk.length > 1 << 20) {
      bytes += writeSync(fd, chunk);
      chunk = "";
    }
  }
  bytes += writeSync(fd, chunk + tail);
  closeSync(fd);
  return bytes;
}

// The floor: read, parse, judge, stringify, in one process, one thread, doing the reading work any
// tool that must reject what is not UTF-8 does. `jsonl`: 64 KB reads into one reused buffer; the
// whole lines of each read checked (isUtf8) and decoded in one call, split at "\n", each line
// parsed; the bytes after the last line break carried to the next read. `array`: the file read
// whole, checked, decoded, parsed. Output joined in chunks of 32K characters, each one write to
// stdout, as the CLI writes (docs/SPEED.md "Sixth round").
const FLOOR = `
import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { isUtf8 } from "node:buffer";
const judge = await import(process.argv[2]);
const [file, kind] = [process.argv[1], process.argv[3]];
let parts = [];
let size = 0;
const one = async (t) => {
  const line = JSON.stringify(await judge.judgeTrajectory(t));
  parts.push(line, "\\n");
  size += line.length + 1;
  if (size >= 1 << 15) { writeSync(1, parts.join("")); parts = []; size = 0; }
};
const text = (bytes) => {
  if (!isUtf8(bytes)) throw new Error("not UTF-8");
  return bytes.toString("utf8");
};
if (kind === "jsonl") {
  const fd = openSync(file, "r");
  const chunk = Buffer.allocUnsafe(1 << 16);
  let rest = Buffer.alloc(0);
  for (let read; (read = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) {
    const last = chunk.lastIndexOf(10, read - 1);
    if (last === -1) { rest = Buffer.concat([rest, chunk.subarray(0, read)]); continue; }
    const head = chunk.subarray(0, last + 1);
    const lines = text(rest.length === 0 ? head : Buffer.concat([rest, head]));
    for (let start = 0, end; (end = lines.indexOf("\\n", start)) !== -1; start = end + 1)
      if (end > start) await one(JSON.parse(lines.slice(start, end)));
    rest = Buffer.from(chunk.subarray(last + 1, read));
  }
  if (rest.length > 0) await one(JSON.parse(text(rest)));
  closeSync(fd);
} else for (const t of JSON.parse(text(readFileSync(file)))) await one(t);
writeSync(1, parts.join(""));
`;

const dir = KEEP ?? mkdtempSync(join(tmpdir(), "bj-cli-floor-"));
if (KEEP !== undefined) mkdirSync(KEEP, { recursive: true });
/** Writes a corpus unless a kept one is there already; returns its bytes. */
const corpusFile = (path, write) => (KEEP !== undefined && existsSync(path) ? statSync(path).size : write());
/** A busy loop on one core, for --load. */
const loader = LOAD ? spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }) : undefined;
try {
  const corpora = [];
  if (ONLY === undefined || ONLY === "jsonl") {
    const path = join(dir, "small.jsonl");
    const bytes = corpusFile(path, () => writeLines(path, 100_000, (i) => JSON.stringify(session(`s-${i}`, 10, i))));
    corpora.push({ name: `100,000 trajectories of 10 events, JSONL (${(bytes / 1e6).toFixed(0)} MB)`, path, kind: "jsonl" });
  }
  if (ONLY === undefined || ONLY === "array") {
    const path = join(dir, "large.json");
    const bytes = corpusFile(path, () => writeLines(path, 5_000, (i) => JSON.stringify(session(`l-${i}`, 48, i)), "[\n", ",\n", "\n]\n"));
    corpora.push({ name: `5,000 trajectories of 48 events, one .json array (${(bytes / 1e6).toFixed(0)} MB)`, path, kind: "array" });
  }
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  console.log(
    `Machine: ${availableParallelism()} × ${cpu}, node ${process.version}, load average ${loadavg()[0].toFixed(1)} at the start${LOAD ? ", a busy loop on one core throughout" : ""}.`,
  );
  console.log(`Command: node bench/cli-floor.js ${process.argv.slice(2).join(" ")} (best of ${RUNS} per row)\n`);
  const usage = join(dir, "usage.json");
  const judgeArgs = (path, ...more) => [BIN, "judge", JUDGE, path, ...more];
  for (const corpus of corpora) {
    const rows = [
      [
        "floor: read + JSON.parse + judgeTrajectory + JSON.stringify",
        ["--input-type=module", "-e", FLOOR, corpus.path, JUDGE, corpus.kind],
      ],
      ["judge --workers 1 (text)", judgeArgs(corpus.path, "--workers", "1")],
      ["judge --workers 1 --json", judgeArgs(corpus.path, "--workers", "1", "--json")],
      ["judge --workers 1 --jsonl", judgeArgs(corpus.path, "--workers", "1", "--jsonl")],
    ];
    if (JUNIT)
      rows.push(["judge --workers 1 --junit (and text)", judgeArgs(corpus.path, "--workers", "1", "--junit", join(dir, "junit.xml"))]);
    if (WORKERS)
      rows.push(
        ["judge --jsonl (default threads)", judgeArgs(corpus.path, "--jsonl")],
        ["judge --workers 2 --jsonl", judgeArgs(corpus.path, "--workers", "2", "--jsonl")],
        ["judge --json (default threads)", judgeArgs(corpus.path, "--json")],
        ["judge --workers 2 --json", judgeArgs(corpus.path, "--workers", "2", "--json")],
      );
    // With --before, each judge row again on the other build, right after this build's.
    if (BEFORE !== undefined)
      for (let i = rows.length - 1; i > 0; i--)
        rows.splice(i + 1, 0, [`${rows[i][0]}, before`, rows[i][1].map((arg) => (arg === BIN ? BEFORE : arg))]);
    const best = rows.map(() => ({ wall: Infinity, cpu: Infinity }));
    // Alternated, so a burst of load from elsewhere falls on several rows rather than one.
    for (let run = 0; run < RUNS; run++)
      for (let i = 0; i < rows.length; i++) {
        const m = await measureNode(rows[i][1], usage);
        best[i] = { wall: Math.min(best[i].wall, m.wall), cpu: Math.min(best[i].cpu, m.cpu) };
      }
    console.log(`${corpus.name}:\n`);
    console.log("| run | wall | CPU | wall / floor | CPU / floor |");
    console.log("|---|---:|---:|---:|---:|");
    const floor = best[0];
    rows.forEach(([name], i) => {
      const m = best[i];
      console.log(
        `| ${name} | ${m.wall.toFixed(2)} s | ${m.cpu.toFixed(2)} s | ${(m.wall / floor.wall).toFixed(2)}× | ${(m.cpu / floor.cpu).toFixed(2)}× |`,
      );
    });
    console.log("");
  }
  console.log(`Load average ${loadavg()[0].toFixed(1)} at the end.`);
} finally {
  loader?.kill();
  if (KEEP === undefined) rmSync(dir, { recursive: true, force: true });
}
