/**
 * A large `.json` array is held while it is judged: its text, and its parsed
 * value when it is read whole, or the output held back when it is read an
 * element at a time (compiler/inputs/held-array.ts, as here: an element a
 * line). Before the first parse, the CLI collects the heap once
 * (compiler/inputs/old-generation.ts), so V8 sets its old generation's limit
 * from what is there rather than from the start-up's garbage, and never
 * marks what the run holds while it is judged (docs/SPEED.md, "The CLI at
 * its floor", ninth and tenth rounds). Through the built CLI with `--trace-gc`: the only
 * full collection is the one asked for ("testing", V8's reason for a
 * collection a program requests). Without it, V8 lowers its first limit with
 * every young collection of the start-up, starts marking during JSON.parse,
 * and finishes with a full collection of the whole array.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ROOT, runCli } from "../support/cli.js";
import { refundEvents } from "../../bench/common.js";

const JUDGE = join(ROOT, "examples", "refund-support", "judge.mjs");
const dir = mkdtempSync(join(tmpdir(), "bj-large-array-"));
const large = join(dir, "large.json");
const small = join(dir, "small.json");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A support session of 48 events in the refund vocabulary (refunds, lookups, emails), its id `id`: bench/cli-floor.js's. */
function session(id: string, k0: number): string {
  return JSON.stringify({ id, complete: true, events: refundEvents(48, k0) });
}

/** `count` sessions as one array, an element a line, as bench/cli-floor.js writes it. */
function writeArray(path: string, count: number): void {
  const fd = openSync(path, "w");
  let chunk = "[\n";
  for (let i = 0; i < count; i++) {
    chunk += (i === 0 ? "" : ",\n") + session(`l-${i}`, i);
    if (chunk.length > 1 << 20) {
      writeSync(fd, chunk);
      chunk = "";
    }
  }
  writeSync(fd, chunk + "\n]\n");
  closeSync(fd);
}

beforeAll(() => {
  writeArray(large, 5_000); // about 28 MB
  writeArray(small, 10);
});

/**
 * The full collections (mark-compacts) of a `judge … --jsonl` run, each as V8's line for it, and
 * the cases judged. V8 prints its trace to stdout as the CLI writes there, so a trace line may
 * land inside a judgment's line: both are found by what they hold, not by where lines start.
 */
function fullCollections(file: string): { stderr: string; lines: string[]; judged: number } {
  const run = runCli(["judge", JUDGE, file, "--workers", "1", "--jsonl"], { nodeArgs: ["--trace-gc"] });
  return {
    stderr: run.stderr,
    lines: run.stdout.match(/Mark-Compact[^\n]*/g) ?? [],
    judged: run.stdout.match(/"behavior":/g)?.length ?? 0,
  };
}

describe("a large .json array is not marked while it is judged", () => {
  test("the one full collection is the one asked for before the parse", () => {
    const run = fullCollections(large);
    expect(run.stderr).toBe("");
    expect(run.judged).toBe(5_000);
    expect(run.lines.length).toBeGreaterThan(0);
    expect(run.lines.filter((line) => !line.includes("testing"))).toEqual([]);
    expect(run.lines).toHaveLength(1);
  }, 120_000);

  test("a small file is parsed without one", () => {
    const run = fullCollections(small);
    expect(run.judged).toBe(10);
    expect(run.lines).toEqual([]);
  }, 60_000);
});
