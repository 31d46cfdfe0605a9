/**
 * Memory is bounded by the trajectories in flight, whatever the corpus size
 * (docs/SCALE.md "Streams: judge as a filter"): a 200 MB corpus, as JSON
 * Lines (a file and stdin) and as one .json array, is judged with a peak
 * RSS within 0.4 times its size of what the CLI takes for the corpus's
 * first 16 MB with as many threads (each worker thread is a V8 heap of its
 * own, and a pool's reads and jobs in flight take a few megabytes at once,
 * then no more).
 * Trajectories are large (~100 KB each) so the run is short: what is
 * measured is what stays in memory, not judging speed.
 */
import { spawn } from "node:child_process";
import { closeSync, createReadStream, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BIN, ROOT } from "../support/cli.js";

const REFUND = join(ROOT, "examples", "refund-support");
const JUDGE = join(REFUND, "judge.mjs");
const MAX_RSS = join(ROOT, "test", "support", "max-rss.cjs");
const CORPUS_BYTES = 200 * 1024 * 1024;
/**
 * Peak RSS may exceed the CLI's own (judging one small file) by this share
 * of the corpus at most: a judge holding the corpus's text, its parsed
 * trajectories or its judgments could not stay under it.
 */
const GROWTH = 0.4;

let dir = "";
let jsonl = "";
let head = "";
const HEAD_BYTES = 16 * 1024 * 1024;
let array = "";
let cases = 0;
/** The CLI's peak RSS on the corpus's first 16 MB, by thread count: Node, the judge and the code loaded in each thread, and what a run keeps in flight. */
const baseline = new Map<number, number>();

/** The refund trajectories, each made ~100 KB by a long message, written until the corpus has CORPUS_BYTES. */
function writeCorpus(): void {
  const bases = readdirSync(join(REFUND, "trajectories"))
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      const c = JSON.parse(readFileSync(join(REFUND, "trajectories", f), "utf8")) as { trajectory?: unknown };
      return (c.trajectory ?? c) as { id: string; events: { content?: string }[] };
    });
  const filler = `A "quoted" [bracketed] {braced} line with a backslash \\ and é.\n`.repeat(1400);
  const lines = openSync(jsonl, "w");
  const headLines = openSync(head, "w");
  const elements = openSync(array, "w");
  writeSync(elements, "[\n");
  let written = 0;
  for (let i = 0; written < CORPUS_BYTES; i++) {
    const base = bases[i % bases.length]!;
    const events = base.events.map((e, k) => (k === 0 ? { ...e, content: `${filler}${i}` } : e));
    const text = JSON.stringify({ ...base, id: `${base.id}-${i}`, events });
    writeSync(lines, `${text}\n`);
    if (written < HEAD_BYTES) writeSync(headLines, `${text}\n`);
    writeSync(elements, `${i === 0 ? "" : ",\n"}  ${text}`);
    written += text.length + 1;
    cases++;
  }
  writeSync(elements, "\n]\n");
  closeSync(lines);
  closeSync(headLines);
  closeSync(elements);
}

interface Measured {
  status: number | null;
  lines: number;
  maxRss: number;
  stderr: string;
}

/** Runs the CLI with the peak-RSS probe; stdout is counted, not kept; `stdin` is piped in from a file. */
function measure(args: string[], stdin?: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--require", MAX_RSS, BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, BRAINTRUST_API_KEY: "", OPENAI_API_KEY: "" },
      stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (stdin !== undefined) createReadStream(stdin).pipe(child.stdin!);
    let lines = 0;
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    });
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => {
      const rss = /max-rss-kib: (\d+)/.exec(stderr);
      const maxRss = rss === null ? NaN : Number(rss[1]) * 1024;
      // Logged so a run shows the figure docs/SCALE.md quotes.
      process.stderr.write(`judge ${args.slice(2).join(" ")}: peak RSS ${(maxRss / 2 ** 20).toFixed(0)} MiB\n`);
      resolve({ status, lines, maxRss, stderr });
    });
  });
}

describe("memory is bounded by the trajectories in flight", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "bj-memory-"));
    jsonl = join(dir, "corpus.jsonl");
    array = join(dir, "corpus.json");
    head = join(dir, "head.jsonl");
    writeCorpus();
    for (const workers of [1, 2]) {
      const run = await measure(["judge", JUDGE, head, "--jsonl", "--workers", String(workers)]);
      expect(run.status, run.stderr).toBe(0);
      baseline.set(workers, run.maxRss);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const bound = (workers = 1) => baseline.get(workers)! + GROWTH * statSync(jsonl).size;

  test("--jsonl over a 200 MB .jsonl file on one thread and on two, and over the same lines on stdin", async () => {
    for (const [run, workers] of [
      [await measure(["judge", JUDGE, jsonl, "--jsonl", "--workers", "1"]), 1],
      [await measure(["judge", JUDGE, jsonl, "--jsonl", "--workers", "2"]), 2],
      // Standard input is read and judged on the main thread.
      [await measure(["judge", JUDGE, "-", "--jsonl"], jsonl), 1],
    ] as const) {
      expect(run.status, run.stderr).toBe(0);
      expect(run.lines).toBe(cases);
      expect(run.maxRss).toBeLessThan(bound(workers));
    }
  });

  test("--jsonl over a 200 MB .json array (streamed past the threshold)", async () => {
    const run = await measure(["judge", JUDGE, array, "--jsonl", "--workers", "1"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.lines).toBe(cases);
    expect(run.maxRss).toBeLessThan(bound());
  });

  test("the text report over the 200 MB .jsonl: its summary is tallied as it goes", async () => {
    const run = await measure(["judge", JUDGE, jsonl, "--workers", "2"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.maxRss).toBeLessThan(bound(2));
  });
});
