/**
 * Every command that takes trajectory files takes a directory of them too
 * (issue 20 item 22): `enqueue` and `generate` read theirs as judge, import
 * and calibrate do, instead of failing with EISDIR.
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { describeWithRedis, startRedis } from "../support/redis.js";

const REFUND = join("examples", "refund-support");
const TRAJECTORIES = join(REFUND, "trajectories");
const count = readdirSync(TRAJECTORIES).filter((name) => name.endsWith(".json")).length;

describe("item 22: generate takes a directory of samples", () => {
  test("generate --offline drafts from a folder of samples", () => {
    const out = join(mkdtempSync(join(tmpdir(), "bj-gen-dir-")), "judge.yaml");
    const run = runCli(["generate", join(REFUND, "BEHAVIOR.md"), TRAJECTORIES, "--offline", "--no-web", "-o", out], {
      input: "y\n".repeat(40),
    });
    expect(run.stderr).not.toContain("EISDIR");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^wrote .*judge\.yaml: 4 rules/);
  });
});

describeWithRedis("item 22: enqueue takes a directory", () => {
  test("enqueue appends every trajectory of a folder", async () => {
    const redis = await startRedis();
    try {
      const run = runCli(["enqueue", TRAJECTORIES, "--redis", redis.url]);
      expect(run.stderr).toBe(`enqueued ${count} trajectories to trajectories at ${redis.url}\n`);
      expect(run.status).toBe(0);
    } finally {
      await redis.stop();
    }
  });
});

describe("a folder stands for its .traj files too", () => {
  // SWE-agent writes `<instance>.traj` (JSON under its own extension); a
  // folder of them used to be read as its .json files only, and the .traj
  // runs were left out without a word.
  test("judge reads every SWE-agent run of a folder, .traj and .traj.json", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-traj-dir-"));
    const judge = join(dir, "judge.mjs");
    expect(runCli(["build", join("test", "fixtures", "importers", "swe-agent.judge.yaml"), "-o", judge]).status).toBe(0);
    const folder = join("test", "fixtures", "importers", "swe-agent");
    const runs = readdirSync(folder).filter((name) => /\.traj(\.json)?$/.test(name));
    expect(runs.length).toBe(5);
    const run = runCli(["judge", judge, folder, "--jsonl"]);
    const ids = run.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids.length).toBe(runs.length);
    expect(run.stderr).not.toContain("not read");
  });
});
