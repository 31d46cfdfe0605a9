#!/usr/bin/env node
// Every output of `judge` over a fixed set of inputs, written to a folder, so two builds of the
// CLI can be compared byte for byte (issue 26: rendering changes must not change one byte):
//
//   npm run build:cli && node bench/cli-outputs.js /tmp/before      # on the old commit
//   npm run build:cli && node bench/cli-outputs.js /tmp/after       # on the new one
//   diff -r /tmp/before /tmp/after && echo identical
//
//   node bench/cli-outputs.js OUT --corpora DIR   # also DIR/small.jsonl and DIR/large.json
//                                                 # (bench/cli-floor.js's corpora, kept)
//   node bench/cli-outputs.js OUT --bin PATH      # another build's bin/behavior-judge.js
//   node bench/cli-outputs.js OUT --modes text,json   # only these of text, plain, json, jsonl
//
// Inputs: each example's judge over its trajectories/ and traces/ folders, each recorded
// importer fixture (test/fixtures/importers/<format>/*.{json,jsonl,traj}) under the refund
// judge and the coding-agent judge, and the corpora if given. For each, in text (with --junit
// and --html), text without reports (plain), --json and --jsonl, on one thread and without a model: stdout, stderr and the
// exit code, and the JUnit and HTML files.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const flag = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const OUT = process.argv[2];
if (OUT === undefined || OUT.startsWith("--")) {
  console.error("usage: node bench/cli-outputs.js OUT [--corpora DIR] [--bin PATH]");
  process.exit(2);
}
const BIN = flag("--bin") ?? join(ROOT, "bin", "behavior-judge.js");
const CORPORA = flag("--corpora");
const MODES = (flag("--modes") ?? "text,plain,json,jsonl").split(",");

/** [name, judge, inputs, reports?]: one run of each output mode per entry. */
const runs = [];
for (const example of readdirSync(join(ROOT, "examples")).sort()) {
  const dir = join(ROOT, "examples", example);
  const judge = join(dir, "judge.mjs");
  if (!existsSync(judge)) continue;
  for (const inputs of ["trajectories", "traces"])
    if (existsSync(join(dir, inputs))) runs.push([`example-${example}-${inputs}`, judge, [join(dir, inputs)], true]);
}
const FIXTURES = join(ROOT, "test", "fixtures", "importers");
const JUDGES = {
  refund: join(ROOT, "examples", "refund-support", "judge.mjs"),
  coding: join(FIXTURES, "coding-rules.judge.yaml"),
};
const formats = readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory());
for (const format of formats.map((e) => e.name).sort()) {
  const files = readdirSync(join(FIXTURES, format)).filter((f) => /\.(jsonl?|traj)$/.test(f));
  for (const file of files.sort())
    for (const [name, judge] of Object.entries(JUDGES))
      runs.push([`fixture-${format}-${file}-${name}`, judge, [join(FIXTURES, format, file)], false]);
}
if (CORPORA !== undefined)
  for (const file of ["small.jsonl", "large.json"])
    if (existsSync(join(CORPORA, file))) runs.push([`corpus-${file}`, JUDGES.refund, [join(CORPORA, file)], false]);

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const scratch = join(OUT, ".reports");
mkdirSync(scratch);
const env = { ...process.env, NO_COLOR: "1" };
for (const [name, judge, inputs, reports] of runs) {
  const modes = [
    ["text", reports ? ["--junit", join(scratch, "junit.xml"), "--html", join(scratch, "report.html")] : []],
    ["json", ["--json"]],
    ["jsonl", ["--jsonl"]],
    // Text without a report: the run that may hold a .json file's output (inputs/held-array.ts); with one, it never does.
    ["plain", []],
  ];
  for (const [mode, more] of modes.filter(([mode]) => MODES.includes(mode))) {
    const args = [BIN, "judge", judge, ...inputs, "--workers", "1", "--no-model", "--no-web", ...more];
    const child = spawnSync(process.execPath, args, { cwd: ROOT, env, maxBuffer: 1 << 30, encoding: "buffer" });
    const base = join(OUT, `${name}.${mode}`);
    writeFileSync(`${base}.stdout`, child.stdout);
    // The report paths differ between builds only by OUT: stderr names them relative to it.
    writeFileSync(`${base}.stderr`, child.stderr.toString("utf8").replaceAll(scratch, "<reports>"));
    writeFileSync(`${base}.status`, `${child.status}\n`);
    for (const report of ["junit.xml", "report.html"]) {
      const path = join(scratch, report);
      if (existsSync(path)) {
        writeFileSync(`${base}.${report}`, readFileSync(path));
        rmSync(path);
      }
    }
  }
}
rmSync(scratch, { recursive: true });
console.log(`${runs.length} inputs × ${MODES.length} modes written to ${OUT}`);
