/**
 * The first hour (issue 13 item 4): mistakes a new user makes with the
 * trajectory arguments get one line saying what is wrong, not a run that
 * judged nothing.
 */
import { mkdirSync, mkdtempSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";

const JUDGE = "examples/refund-support/judge.mjs";

describe("trajectory arguments", () => {
  test("a missing file is one line, exit 1, and no rule table", () => {
    const run = runCli(["judge", JUDGE, "nope.json", "--no-web"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe("behavior-judge: cannot read nope.json: no such file or directory\n");
    const calibrate = runCli(["calibrate", JUDGE, "nope.json"]);
    expect(calibrate.stderr).toBe("behavior-judge: cannot read nope.json: no such file or directory\n");
  });

  test("a directory stands for its .json and .jsonl files, sorted", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-dir-"));
    copyFileSync("examples/refund-support/trajectories/credit-before-lookup.json", join(dir, "b.json"));
    copyFileSync("examples/refund-support/trajectories/clean-single-refund.json", join(dir, "a.json"));
    writeFileSync(join(dir, "notes.txt"), "not a trajectory");
    mkdirSync(join(dir, "sub"));
    const run = runCli(["judge", JUDGE, dir, "--no-web"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("2 trajectories judged: 1 true, 1 false, 0 na");
    expect(run.stdout.indexOf("clean-single-refund")).toBeLessThan(run.stdout.indexOf("credit-before-lookup"));
    const empty = mkdtempSync(join(tmpdir(), "bj-empty-"));
    expect(runCli(["judge", JUDGE, empty, "--no-web"]).stderr).toBe(
      `behavior-judge: ${empty} is a directory with no .json or .jsonl files (trajectories are read from those)\n`,
    );
  });

  test("a BEHAVIOR.md or judge.yaml passed as trajectories says what it is and where it goes", () => {
    const spec = runCli(["judge", JUDGE, "examples/refund-support/BEHAVIOR.md", "--no-web"]);
    expect(spec.status).toBe(1);
    expect(spec.stdout).toBe("");
    expect(spec.stderr).toBe(
      "behavior-judge: examples/refund-support/BEHAVIOR.md looks like a Markdown file (a BEHAVIOR.md spec?), not trajectories: a spec is the first argument of generate, lint and baseline; trajectories are .json or .jsonl files (or agent traces)\n",
    );
    const yaml = runCli(["calibrate", JUDGE, "examples/refund-support/judge.yaml"]);
    expect(yaml.stderr).toContain("judge.yaml looks like a judge.yaml (the judge): pass it as the first argument of judge or calibrate");
  });
});
