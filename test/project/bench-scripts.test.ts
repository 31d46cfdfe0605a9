/**
 * The measurement scripts of docs/SPEED.md's round 15 run from a clone (issue 26): bench/table.js
 * builds one row's judge and prints each stretch of a measurement, and bench/instructions.js,
 * on a machine without valgrind, says so and exits 0. Tiny sizes, and no figure is asserted:
 * timing belongs to the benches, these only check that the scripts run and print their lines.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { cacheMisses, costByFunction } from "../../bench/callgrind.js";
import { ROOT } from "../support/cli.js";

const folder = mkdtempSync(join(tmpdir(), "bj-bench-scripts-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const node = (args: string[], env?: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", env: env ?? process.env });

test("bench/table.js --build then --measure --stretches prints the warm-up, four stretches and the best", () => {
  const built = node(["bench/table.js", "--build", "required", "3", folder]);
  expect(built.status, built.stderr).toBe(0);
  const judge = built.stdout.trim();
  expect(judge).toBe(join(folder, "required-3.mjs"));
  const run = node(["bench/table.js", "--measure", judge, "3", "objects", "8", "--stretches"]);
  expect(run.status, run.stderr).toBe(0);
  const lines = run.stdout.trim().split("\n");
  expect(lines.map((line) => line.split(":")[0])).toEqual([
    "stretch warm-up",
    "stretch 1",
    "stretch 2",
    "stretch 3",
    "stretch 4",
    expect.stringMatching(/^best \d+\.\d ns\/event$/),
  ]);
  // Without --stretches the output stays the one number bench/table.js's table reads.
  const plain = node(["bench/table.js", "--measure", judge, "3", "objects", "8"]);
  expect(Number(plain.stdout.trim())).toBeGreaterThan(0);
});

test("bench/instructions.js without valgrind says so and exits 0", () => {
  // A PATH holding node alone: valgrind cannot be found whether or not this machine has it.
  const bin = join(folder, "bin");
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "node"));
  const run = node(["bench/instructions.js", "examples/refund-support/judge.mjs", "0", "--events", "10"], {
    ...process.env,
    PATH: bin,
  });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/valgrind is not installed/);
});

test("bench/instructions.js without a judge prints its usage and exits 2", () => {
  const run = node(["bench/instructions.js"]);
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/usage: node bench\/instructions.js <judge.mjs \| hand> <tools>/);
});

test("bench/instructions.js refuses the hand loop over other tools, and --cache with --by-function", () => {
  for (const args of [
    ["hand", "3"],
    ["examples/refund-support/judge.mjs", "0", "--cache", "--by-function"],
    ["hand", "0", "--cache", "--ll", "1MB"],
    // Round 19's --input: the hand loop takes the bench's objects only, and an input it does not know is refused.
    ["hand", "0", "--input", "parse-judge"],
    ["examples/refund-support/judge.mjs", "0", "--input", "judge-json"],
  ]) {
    const run = node(["bench/instructions.js", ...args]);
    expect(run.status, args.join(" ")).toBe(2);
    expect(run.stderr).toMatch(/usage:/);
  }
});

test("bench/instructions.js --run hand judges the refund session with the hand loop and exits 0", () => {
  const run = node(["bench/instructions.js", "--run", "hand", "0", "100", "2", "3"]);
  expect(run.status, run.stderr).toBe(0);
});

test("bench/instructions.js --run judges what --input says: JSON text parsed each time, or parsed once, and exits 0", () => {
  for (const input of ["parsed", "parse", "parse-judge"]) {
    const run = node(["bench/instructions.js", "--run", "examples/refund-support/judge.mjs", "0", "100", "2", "3", input]);
    expect(run.status, `${input}: ${run.stderr}`).toBe(0);
  }
  // An input the measured process does not know fails, rather than counting the default in its place.
  expect(node(["bench/instructions.js", "--run", "examples/refund-support/judge.mjs", "0", "100", "2", "3", "judge-json"]).status).not.toBe(
    0,
  );
});

test("bench/callgrind.js reads cachegrind's data references and misses, reads and writes together", () => {
  const summary = [
    "==12== I   refs:      9,463,696,658",
    "==12== I1  misses:        1,234",
    "==12== D   refs:      3,000,000  (2,000,000 rd   + 1,000,000 wr)",
    "==12== D1  misses:       45,678  (   40,000 rd   +     5,678 wr)",
    "==12== LLd misses:        7,890  (    7,000 rd   +       890 wr)",
    "==12== LL misses:         8,000  (    7,110 rd   +       890 wr)",
  ].join("\n");
  expect(cacheMisses(summary)).toEqual({ dataRefs: 3_000_000, d1Misses: 45_678, llMisses: 7_890 });
  expect(() => cacheMisses("==12== I   refs: 10")).toThrow(/D\\s\+refs/);
});

test("bench/callgrind.js adds each instruction's count to its function, compiled JavaScript named by the perf map", () => {
  // A callgrind profile in its compressed form: names given once then by number (a `cfn=` line
  // may name a function first), positions absolute, relative or `*`, and after `calls=` the
  // call's inclusive cost, which belongs to the callee, not the caller.
  const profile = [
    "# callgrind format",
    "version: 1",
    "positions: instr line",
    "events: Ir",
    "ob=(1) /usr/bin/node",
    "fl=(1) ???",
    "fn=(1) Builtins_StringLessThan",
    "0x1000 0 5",
    "+2 0 3",
    "fn=(2) 0x0000000000002000",
    "0x2000 0 7",
    "+0x10 0 4",
    "cfn=(3) v8::internal::(anonymous namespace)::Visit(int)",
    "calls=1 0x5000 0",
    "* 0 100",
    "+1 0 2",
    "fn=(3)",
    "0x5000 0 9",
    "fn=(4) 0x0000000000009000",
    "0x9000 0 6",
    "fn=(1)",
    "-0x8000 0 1",
    "",
  ].join("\n");
  // Code V8 wrote later at an address wins over what was there before.
  const perfMap = ["2000 20 JS:*readEvents file:///tmp/j/judge.mjs:600:20", "2010 8 JS:*step file:///tmp/j/judge.mjs:10:3", ""].join("\n");
  expect(Object.fromEntries(costByFunction(profile, perfMap))).toEqual({
    Builtins_StringLessThan: 9,
    "*readEvents judge.mjs:600": 7,
    "*step judge.mjs:10": 6,
    "v8::internal::Visit": 9,
    "JIT code, unnamed": 6,
  });
});
