/**
 * Memory is bounded by the trajectories in flight, whatever the corpus size
 * (docs/SCALE.md "Streams: judge as a filter"): a 200 MB corpus, as JSON
 * Lines (a file and stdin) and as one .json array, is judged with a peak
 * RSS within 0.4 times its size of what the CLI takes for one small file.
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
let array = "";
let cases = 0;
/** The CLI's peak RSS on one small trajectory file: Node, the judge and the code loaded. */
let baseline = 0;

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
  const elements = openSync(array, "w");
  writeSync(elements, "[\n");
  let written = 0;
  for (let i = 0; written < CORPUS_BYTES; i++) {
    const base = bases[i % bases.length]!;
    const events = base.events.map((e, k) => (k === 0 ? { ...e, content: `${filler}${i}` } : e));
    const text = JSON.stringify({ ...base, id: `${base.id}-${i}`, events });
    writeSync(lines, `${text}\n`);
    writeSync(elements, `${i === 0 ? "" : ",\n"}  ${text}`);
    written += text.length + 1;
    cases++;
  }
  writeSync(elements, "\n]\n");
  closeSync(lines);
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
    writeCorpus();
    const run = await measure(["judge", JUDGE, join(REFUND, "trajectories", "clean-escalation.json"), "--jsonl"]);
    expect(run.status, run.stderr).toBe(0);
    baseline = run.maxRss;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const bound = () => baseline + GROWTH * statSync(jsonl).size;

  test("--jsonl over a 200 MB .jsonl file, and over the same lines on stdin", async () => {
    for (const run of [await measure(["judge", JUDGE, jsonl, "--jsonl"]), await measure(["judge", JUDGE, "-", "--jsonl"], jsonl)]) {
      expect(run.status, run.stderr).toBe(0);
      expect(run.lines).toBe(cases);
      expect(run.maxRss).toBeLessThan(bound());
    }
  });

  test("--jsonl over a 200 MB .json array (streamed past the threshold)", async () => {
    const run = await measure(["judge", JUDGE, array, "--jsonl"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.lines).toBe(cases);
    expect(run.maxRss).toBeLessThan(bound());
  });

  test("the text report over the 200 MB .jsonl: its summary is tallied as it goes", async () => {
    const run = await measure(["judge", JUDGE, jsonl]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.maxRss).toBeLessThan(bound());
  });
});
