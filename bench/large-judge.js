#!/usr/bin/env node
// Writes a large but valid judge.yaml to stdout, for measuring what `build` costs
// as a judge grows (issue 8, defects 3, 4 and 15). Deterministic: the same
// arguments give the same bytes, so before/after figures compare like with like.
//
//   node bench/large-judge.js rules 250 > /tmp/rules-250.yaml     # 250 rules, 4 checks each
//   node bench/large-judge.js checks 500 > /tmp/checks-500.yaml   # one rule with 500 checks
//   node bench/large-judge.js quote 10000000 > /tmp/quote-10mb.yaml  # one quote of 10 MB
//   node bench/large-judge.js bytes 50000000 > /tmp/file-50mb.yaml   # 50 MB of rules with long quotes
//
//   /usr/bin/time -v node bin/behavior-judge.js build /tmp/rules-250.yaml -o /tmp/rules-250.mjs
import { writeSync } from "node:fs";

const [kind, sizeText] = process.argv.slice(2);
const size = Number(sizeText);
if (!["rules", "checks", "quote", "bytes"].includes(kind ?? "") || !Number.isSafeInteger(size) || size < 1) {
  process.stderr.write("usage: node bench/large-judge.js rules|checks|quote|bytes <positive integer>\n");
  process.exit(2);
}

const ACTIONS = ["read_file", "run_tests", "deploy", "issue_refund", "send_email", "escalate"];

/** One check of each deterministic type in turn, over a small action vocabulary. */
function check(j, quote = `clause ${j} of the rule`) {
  const a = ACTIONS[j % ACTIONS.length];
  const b = ACTIONS[(j + 1) % ACTIONS.length];
  const q = JSON.stringify(quote);
  switch (j % 5) {
    case 0:
      return `      - type: ordering\n        quote: ${q}\n        first: {action: ${a}, actor: agent}\n        before: [{action: ${b}}, {action: ${a}, metadata: {status: done}}]\n`;
    case 1:
      return `      - type: pairing\n        quote: ${q}\n        each: {action: ${a}}\n        followedBy: {action: ${b}, contentIncludes: ok}\n`;
    case 2:
      return `      - type: required\n        quote: ${q}\n        match: {action: ${a}}\n        after: {actor: user, contentIncludes: stop}\n`;
    case 3:
      return `      - type: forbidden\n        quote: ${q}\n        match: [{action: ${a}}, {action: ${b}, actor: tool}]\n`;
    default:
      return `      - type: count\n        quote: ${q}\n        match: {action: ${a}}\n        max: 3\n        distinctBy: metadata.order_id\n`;
  }
}

function rule(i, checks) {
  return `  - name: ${JSON.stringify(`Rule ${i}`)}\n    trigger:\n      description: "A session where rule ${i} applies."\n      match: {action: ${ACTIONS[i % ACTIONS.length]}}\n    checks:\n${checks.join("")}`;
}

const HEADER = "version: 1\nbehavior: large-judge\nmetaBehaviors:\n";
const out = [HEADER];
if (kind === "rules") {
  for (let i = 0; i < size; i++)
    out.push(
      rule(
        i,
        [0, 1, 2, 3].map((j) => check(i + j)),
      ),
    );
} else if (kind === "checks") {
  out.push(
    rule(
      0,
      Array.from({ length: size }, (_, j) => check(j)),
    ),
  );
} else if (kind === "quote") {
  out.push(rule(0, [check(0, "q".repeat(size))]));
} else {
  // Rules whose quotes are 1 MB each (the last one shorter) until the file holds `size` bytes.
  let written = HEADER.length;
  for (let i = 0; written < size; i++) {
    const bare = rule(i, [check(i, "")]);
    const quote = "q".repeat(Math.max(1, Math.min(1_000_000, size - written - bare.length)));
    const text = rule(i, [check(i, quote)]);
    out.push(text);
    written += text.length;
  }
}
for (const chunk of out) writeSync(1, chunk);
