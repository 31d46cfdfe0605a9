#!/usr/bin/env node
// End to end against the reference implementation's command line (issue 26, docs/SCALE.md):
//
//   git clone https://github.com/MaanavKhaitan/agentbehavior-judge /tmp/ref
//   npm run build:cli && node bench/cli-reference.js --reference /tmp/ref [--runs 3] [--cases 5000]
//
// One .json array of 5,000 support sessions of 48 events in the refund example's vocabulary
// (bench/common.js), judged with `--json` by (a) the reference's `judge judge.yaml … --json
// --no-verify` (its interpreter, bundled from its sources: bench/reference.js), (b) this
// project's `judge judge.mjs … --json --workers 1` and (c) with the default thread count, on
// examples/refund-support (version 1 checks, which both read). Every row is a fresh process
// with no model key; wall and CPU time (every thread's), best of --runs. Before timing, each
// trajectory's verdict of both outputs is compared: the rows are only printed if they agree.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureNode, refundEvents } from "./common.js";
import { bundleReferenceCli } from "./reference.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const flag = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const referenceDir = flag("--reference");
if (referenceDir === undefined) {
  console.error("usage: node bench/cli-reference.js --reference <a checkout of the reference implementation> [--runs N] [--cases N]");
  process.exit(2);
}
const RUNS = Number(flag("--runs") ?? 2);
const CASES = Number(flag("--cases") ?? 5000);

const dir = mkdtempSync(join(tmpdir(), "bj-cli-reference-"));
try {
  const referenceCli = await bundleReferenceCli(referenceDir, dir);
  const corpus = join(dir, "corpus.json");
  const cases = [];
  for (let i = 0; i < CASES; i++) cases.push(JSON.stringify({ id: `t${i}`, complete: true, events: refundEvents(48, i) }));
  writeFileSync(corpus, `[\n${cases.join(",\n")}\n]\n`);
  const yaml = join(ROOT, "examples", "refund-support", "judge.yaml");
  const mjs = join(ROOT, "examples", "refund-support", "judge.mjs");
  const bin = join(ROOT, "bin", "behavior-judge.js");
  const rows = [
    ["reference `judge judge.yaml --json --no-verify`", [referenceCli, "judge", yaml, corpus, "--json", "--no-verify", "--no-web"]],
    ["behavior-judge `judge judge.mjs --json --workers 1`", [bin, "judge", mjs, corpus, "--json", "--workers", "1"]],
    ["behavior-judge `judge judge.mjs --json` (default threads)", [bin, "judge", mjs, corpus, "--json"]],
  ];

  // Both must judge alike before their times mean anything: each trajectory's verdict, in order.
  const verdicts = (args) => {
    let out;
    try {
      out = execFileSync(process.execPath, args, {
        stdio: ["ignore", "pipe", "ignore"],
        maxBuffer: 1 << 30,
        encoding: "utf8",
        env: { ...process.env, BRAINTRUST_API_KEY: "", OPENAI_API_KEY: "" },
      });
    } catch (error) {
      out = error.stdout; // exit 1: some trajectory is false
    }
    const value = JSON.parse(out);
    const list = Array.isArray(value) ? value : (value.results ?? value.judgments ?? value.trajectories);
    return list.map((j) => `${j.trajectoryId ?? j.id}:${j.verdict}`).join(",");
  };
  const theirs = verdicts(rows[0][1]);
  const ours = verdicts(rows[1][1]);
  if (theirs !== ours)
    throw new Error(`the two outputs disagree on some trajectory's verdict:\n${theirs.slice(0, 400)}\n${ours.slice(0, 400)}`);

  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"} (${availableParallelism()} available), node ${process.version}, load average ${loadavg()[0].toFixed(1)} at the start.`,
  );
  console.log(
    `Command: node bench/cli-reference.js ${process.argv.slice(2).join(" ")}; ${CASES.toLocaleString("en")} trajectories of 48 events, verdicts identical.\n`,
  );
  const best = rows.map(() => ({ wall: Infinity, cpu: Infinity }));
  const usage = join(dir, "usage.json");
  for (let run = 0; run < RUNS; run++)
    for (let i = 0; i < rows.length; i++) {
      const m = await measureNode(rows[i][1], usage);
      best[i] = { wall: Math.min(best[i].wall, m.wall), cpu: Math.min(best[i].cpu, m.cpu) };
    }
  console.log("| run | wall | CPU | reference's wall / this | reference's CPU / this |");
  console.log("|---|---:|---:|---:|---:|");
  for (let i = 0; i < rows.length; i++)
    console.log(
      `| ${rows[i][0]} | ${best[i].wall.toFixed(2)} s | ${best[i].cpu.toFixed(2)} s | ${(best[0].wall / best[i].wall).toFixed(2)}× | ${(best[0].cpu / best[i].cpu).toFixed(2)}× |`,
    );
  console.log(`\nLoad average ${loadavg()[0].toFixed(1)} at the end.`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
