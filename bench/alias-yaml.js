#!/usr/bin/env node
// Writes a judge.yaml with N aliases to stdout, for timing alias expansion
// (issue 8, defect 2):
//
//   node bench/alias-yaml.js 20000 > /tmp/aliases-20000.yaml
//   /usr/bin/time -v node bench/alias-yaml.js 20000 --parse   # parse only (needs dist/: npm run build:cli)
//
// One anchored action name, then one trigger matcher per alias (`{action: *a}`);
// each alias expands to a single scalar, so up to the alias budget (10,000
// expanded nodes) the file is a valid judge, and past it the parse stops with
// "aliases expand to too much data".
const count = Number(process.argv[2] ?? "2000");
if (!Number.isInteger(count) || count < 1) {
  process.stderr.write("usage: node bench/alias-yaml.js <number of aliases>\n");
  process.exit(2);
}
const lines = [
  "version: 1",
  "behavior: aliases",
  "metaBehaviors:",
  "  - name: Many aliases",
  "    trigger:",
  "      description: An anchored action repeated by alias.",
  "      match:",
  "        - {action: &a issue_refund}",
];
for (let i = 1; i < count; i++) lines.push("        - {action: *a}");
lines.push("    semanticChecks: [{quote: q, question: Is it fine?}]");
// The last matcher holds the count-th alias, so every run has exactly `count`.
lines.push("    checks:", "      - {type: required, quote: q, match: {action: *a}}");
const text = `${lines.join("\n")}\n`;
if (process.argv.includes("--parse")) {
  // Only the parse, so the timing is not the code generator's.
  const { parseJudgeYaml } = await import("../dist/compiler/ir/index.js");
  const started = performance.now();
  const result = parseJudgeYaml(text);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const outcome = result.ok ? "valid" : `${result.diagnostics.length} diagnostics, first: ${result.diagnostics[0].message}`;
  process.stdout.write(`${count} aliases, ${text.length} bytes: parsed in ${seconds} s (${outcome})\n`);
} else {
  process.stdout.write(text);
}
