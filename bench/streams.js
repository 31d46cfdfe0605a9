#!/usr/bin/env node
// Peak memory and time of `judge` over a large corpus, streamed (docs/SCALE.md "Streams"): not a
// test (the machine is shared and noisy); compare the rows of one run with each other.
//
//   npm run build:cli && node bench/streams.js [--mb 200] [--files 10000]
//
// Writes, in os.tmpdir() (deleted after), the refund-support trajectories repeated with fresh ids
// until there are --mb megabytes of JSON Lines, the same trajectories as one .json array, and
// --files small .json files; then runs the CLI on each with a probe that prints its peak RSS.
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const flag = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const megabytes = flag("--mb", 200);
const fileCount = flag("--files", 10000);
const refund = join(root, "examples", "refund-support");
const judge = join(refund, "judge.mjs");
const probe = join(root, "test", "support", "max-rss.cjs");
const bases = readdirSync(join(refund, "trajectories"))
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => {
    const c = JSON.parse(readFileSync(join(refund, "trajectories", f), "utf8"));
    return c.trajectory ?? c;
  });

const dir = mkdtempSync(join(tmpdir(), "bj-bench-streams-"));
try {
  const jsonl = join(dir, "corpus.jsonl");
  const array = join(dir, "corpus.json");
  const lines = openSync(jsonl, "w");
  const elements = openSync(array, "w");
  writeSync(elements, "[\n");
  let written = 0;
  let count = 0;
  while (written < megabytes * 1e6) {
    const text = JSON.stringify({ ...bases[count % bases.length], id: `t${count}` });
    writeSync(lines, `${text}\n`);
    writeSync(elements, `${count === 0 ? "" : ",\n"}  ${text}`);
    written += text.length + 1;
    count++;
  }
  writeSync(elements, "\n]\n");
  closeSync(lines);
  closeSync(elements);
  const many = join(dir, "many");
  mkdirSync(many);
  for (let i = 0; i < fileCount; i++)
    writeFileSync(join(many, `${String(i).padStart(6, "0")}.json`), JSON.stringify({ ...bases[i % bases.length], id: `f${i}` }, null, 2));

  const run = (label, args, { stdin, env } = {}) => {
    const started = process.hrtime.bigint();
    const result = spawnSync(process.execPath, ["--require", probe, join(root, "bin", "behavior-judge.js"), "judge", judge, ...args], {
      stdio: [stdin === undefined ? "ignore" : openSync(stdin, "r"), "ignore", "pipe"],
      env: { ...process.env, OPENAI_API_KEY: "", BRAINTRUST_API_KEY: "", ...env },
      encoding: "utf8",
      maxBuffer: 1 << 30,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const rss = /max-rss-kib: (\d+)/.exec(result.stderr);
    const mib = rss === null ? "?" : (Number(rss[1]) / 1024).toFixed(0);
    console.log(`${label.padEnd(44)} exit ${result.status}  peak RSS ${String(mib).padStart(5)} MiB  ${seconds.toFixed(1).padStart(6)} s`);
  };

  console.log(`${count} trajectories, ${(written / 1e6).toFixed(0)} MB of JSON Lines; ${fileCount} small .json files`);
  run("--jsonl, .jsonl file", [jsonl, "--jsonl"]);
  run("--jsonl, .jsonl on stdin", ["-", "--jsonl"], { stdin: jsonl });
  run("text report, .jsonl file", [jsonl]);
  run("--jsonl, .json array, streamed", [array, "--jsonl"]);
  run("--jsonl, .json array, read whole", [array, "--jsonl"], { env: { BEHAVIOR_JUDGE_JSON_STREAM_BYTES: String(2 ** 40) } });
  run(`--json, ${fileCount} small .json files`, [many, "--json"]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
