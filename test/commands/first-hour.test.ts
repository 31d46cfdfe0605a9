/**
 * The first hour (issue 13 item 4): mistakes a new user makes with the
 * trajectory arguments get one line saying what is wrong, not a run that
 * judged nothing.
 */
import { mkdirSync, mkdtempSync, writeFileSync, copyFileSync, symlinkSync } from "node:fs";
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
    expect(run.stderr).toBe(`behavior-judge: note: ${dir}: not read: subfolder sub (pass a subfolder as an argument to read it)\n`);
    expect(run.stdout).toContain("2 trajectories judged: 1 true, 1 false, 0 na");
    expect(run.stdout.indexOf("clean-single-refund")).toBeLessThan(run.stdout.indexOf("credit-before-lookup"));
    const empty = mkdtempSync(join(tmpdir(), "bj-empty-"));
    expect(runCli(["judge", JUDGE, empty, "--no-web"]).stderr).toBe(
      `behavior-judge: ${empty} is a directory with no .json, .jsonl or .traj files (trajectories are read from those)\n`,
    );
  });

  test("item 3 (issue 20): a directory's symlinked files are judged; subfolders and symlinks that lead nowhere are named", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-links-"));
    const elsewhere = mkdtempSync(join(tmpdir(), "bj-target-"));
    copyFileSync("examples/refund-support/trajectories/clean-single-refund.json", join(dir, "a.json"));
    copyFileSync("examples/refund-support/trajectories/credit-before-lookup.json", join(elsewhere, "failing.json"));
    // The failing trajectory is only reachable through the symlink.
    symlinkSync(join(elsewhere, "failing.json"), join(dir, "b.json"));
    symlinkSync(join(elsewhere, "gone.json"), join(dir, "c.json"));
    symlinkSync(join(dir, "d.json"), join(dir, "d.json"));
    symlinkSync(elsewhere, join(dir, "linked"));
    mkdirSync(join(dir, "more"));
    const note =
      `behavior-judge: note: ${dir}: not read: subfolders linked, more (pass a subfolder as an argument to read it); ` +
      "c.json (a broken symlink); d.json (a symlink loop)\n";
    const run = runCli(["judge", JUDGE, dir, "--no-web", "--fail-on-false"]);
    expect(run.stderr).toBe(note);
    expect(run.stdout).toContain("2 trajectories judged: 1 true, 1 false, 0 na");
    expect(run.status).toBe(1);
    const imported = runCli(["import", dir]);
    expect(imported.stderr).toBe(note);
    expect(imported.stdout.trim().split("\n")).toHaveLength(2);
    // A folder with nothing to read says what it left out too.
    const onlyLinks = mkdtempSync(join(tmpdir(), "bj-only-"));
    symlinkSync(join(elsewhere, "gone.json"), join(onlyLinks, "x.json"));
    expect(runCli(["calibrate", JUDGE, onlyLinks]).stderr).toBe(
      `behavior-judge: ${onlyLinks} is a directory with no .json, .jsonl or .traj files (labeled cases are read from those); ${onlyLinks}: not read: x.json (a broken symlink)\n`,
    );
  });

  test("item 21 (issue 20): judging nothing fails --fail-on-false and calibrate, with one line saying so", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-nothing-"));
    writeFileSync(join(dir, "empty.jsonl"), "");
    writeFileSync(join(dir, "empty.json"), "[]\n");
    const nothing = "behavior-judge: no trajectories were judged: the inputs hold none (an empty file, [] or empty stdin)\n";
    for (const args of [[join(dir, "empty.jsonl")], [join(dir, "empty.json")], ["-"]]) {
      const gate = runCli(["judge", JUDGE, ...args, "--fail-on-false", "--json"]);
      expect(gate.stdout).toBe("[]\n");
      expect(gate.stderr).toBe(nothing);
      expect(gate.status).toBe(1);
      // Without the gate, an empty input is an empty report, as before.
      expect(runCli(["judge", JUDGE, ...args, "--json"]).status).toBe(0);
      const calibrate = runCli(["calibrate", JUDGE, ...args, "--json"]);
      expect(calibrate.stderr).toBe(nothing);
      expect(calibrate.status).toBe(1);
      const runs = runCli(["calibrate", JUDGE, ...args, "--runs", "2"]);
      expect(runs.stderr).toBe(nothing);
      expect(runs.status).toBe(1);
    }
    const watch = runCli(["watch", JUDGE, "-", "--fail-on-false"], { input: "" });
    expect(watch.stderr).toBe("behavior-judge: no events were judged: the input holds none\n");
    expect(watch.status).toBe(1);
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
