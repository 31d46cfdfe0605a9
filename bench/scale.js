#!/usr/bin/env node
// One machine, all cores (docs/SCALE.md): generates a JSONL corpus of the given size in
// the temp folder (default 1 GB; deleted at the end) and measures, in one run:
//   - floor: a bare readline + JSON.parse over the file (one core, no judging)
//   - `judge --workers 1 --json` and `judge --workers 2 --json` (stdout to /dev/null)
// Each as a child process: wall time, events/s, MB/s, CPU/wall and peak RSS. Compare the
// figures of one run with each other, not with another machine's.
//
//   npm run build:cli && node bench/scale.js 200MB
//   node bench/scale.js 1GB 1,2,4      # the thread counts to measure
import { createWriteStream, readdirSync, readFileSync, rmSync, statSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureNode } from "./common.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "bin", "behavior-judge.js");
const REFUND = join(ROOT, "examples", "refund-support");

function parseSize(text) {
  const match = /^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB)?$/i.exec(text);
  if (match === null) throw new Error(`usage: node bench/scale.js [size, e.g. 200MB or 1GB] [threads, e.g. 1,2]`);
  const unit = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9 }[(match[2] ?? "B").toUpperCase()];
  return Math.round(Number(match[1]) * unit);
}

const size = parseSize(process.argv[2] ?? "1GB");
const threadCounts = (process.argv[3] ?? "1,2").split(",").map(Number);

/** The refund example's trajectories, round-robin, each with a unique id. */
async function writeCorpus(path, bytes) {
  const folder = join(REFUND, "trajectories");
  const bases = readdirSync(folder)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(folder, f), "utf8")).trajectory);
  const out = createWriteStream(path);
  let written = 0;
  let events = 0;
  let lines = 0;
  while (written < bytes) {
    const base = bases[lines % bases.length];
    const line = `${JSON.stringify({ ...base, id: `${base.id}-${lines}` })}\n`;
    events += base.events.length;
    lines++;
    written += Buffer.byteLength(line);
    if (!out.write(line)) await new Promise((resolve) => out.once("drain", resolve));
  }
  await new Promise((resolve) => out.end(resolve));
  return { bytes: written, events, lines };
}

const FLOOR = `
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
let n = 0;
for await (const line of createInterface({ input: createReadStream(process.argv[1]), crlfDelay: Infinity })) if (line !== "") { JSON.parse(line); n++; }
process.stderr.write(n + " lines\\n");
`;

const dir = mkdtempSync(join(tmpdir(), "bj-scale-"));
try {
  const corpus = join(dir, "corpus.jsonl");
  process.stdout.write(`writing ${(size / 1e6).toFixed(0)} MB of trajectories to ${corpus}…\n`);
  const { bytes, events, lines } = await writeCorpus(corpus, size);
  process.stdout.write(`${lines} trajectories, ${events} events, ${(statSync(corpus).size / 1e6).toFixed(1)} MB\n\n`);
  const runs = [
    ["floor: readline + JSON.parse", ["--input-type=module", "-e", FLOOR, corpus]],
    ...threadCounts.map((n) => [
      `judge --workers ${n} --json`,
      [BIN, "judge", join(REFUND, "judge.mjs"), corpus, "--json", "--workers", String(n)],
    ]),
  ];
  const rows = [];
  for (const [name, args] of runs) {
    const m = await measureNode(args, join(dir, "usage.json"));
    rows.push({ name, ...m });
    process.stdout.write(
      `${name.padEnd(32)} ${m.wall.toFixed(2).padStart(7)} s  ${(events / m.wall / 1e6).toFixed(2).padStart(6)} M events/s  ${(bytes / m.wall / 1e6).toFixed(0).padStart(5)} MB/s  CPU/wall ${(m.cpu / m.wall).toFixed(2)}  peak RSS ${m.maxRssMb.toFixed(0)} MB\n`,
    );
  }
  const one = rows.find((r) => r.name.startsWith("judge --workers 1 "));
  const floor = rows[0];
  process.stdout.write("\n");
  for (const r of rows.slice(1)) {
    const vsOne = one === undefined ? "" : `, ${(one.wall / r.wall).toFixed(2)}× --workers 1`;
    process.stdout.write(`${r.name}: ${(r.wall / floor.wall).toFixed(2)}× the floor's time${vsOne}\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
