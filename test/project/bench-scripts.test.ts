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
  expect(run.stderr).toMatch(/usage: node bench\/instructions.js <judge.mjs> <tools>/);
});
