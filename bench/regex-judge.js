#!/usr/bin/env node
// The ReDoS patterns of test/language/hostile.test.ts, judged end to end: a
// judge with each pattern as a `matches` value and inside `when` (plain and
// under i), loaded as the bundled judge.mjs, on two events of 100 KB and of
// 1 MB of hostile content. The best of three runs each; linear means a ratio
// near 10 (a quadratic matcher gives about 100). The test suite asserts the
// counted work instead (test/support/work.ts), which a loaded machine cannot
// disturb; the times are here.
//   npm run build:cli && node bench/regex-judge.js
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compileIR } from "../dist/compiler/build/compile.js";
import { parseJudgeYaml } from "../dist/compiler/ir/index.js";

const PATTERNS = [
  ["(a+)+$", "a", ""],
  ["^(a|a)*b", "a", ""],
  ["(a*)*b", "a", ""],
  ["^(\\w+\\s?)*$", "aa ", ""],
  ["(x+x+)+y", "x", ""],
  ["(.*a){12}", "b", "a".repeat(11)],
  ["^(([a-z])+.)+[A-Z]([a-z])+$", "ab", ""],
];

const dir = mkdtempSync(join(tmpdir(), "bj-regex-judge-"));

async function judgeFor(pattern, k) {
  const doc = {
    version: 1,
    behavior: "hostile",
    metaBehaviors: [
      {
        name: "hostile",
        trigger: { description: "any agent event", match: { actor: "agent" } },
        checks: [
          { type: "forbidden", quote: "value", match: { content: { matches: pattern } } },
          {
            type: "condition",
            quote: "when",
            each: { action: "act" },
            with: { r: { latest: { action: "look" } } },
            when: `!matches(r.content, ${JSON.stringify(pattern)}, "i") || matches(event.content, ${JSON.stringify(pattern)})`,
          },
        ],
      },
    ],
  };
  const text = JSON.stringify(doc);
  const parsed = parseJudgeYaml(text, { file: "judge.yaml" });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  const compiled = await compileIR(parsed.ir, text, { file: "judge.yaml", positions: parsed.positions });
  const file = join(dir, `judge-${k}.mjs`);
  writeFileSync(file, compiled.judgeMjs);
  return import(pathToFileURL(file).href);
}

const contentOf = (unit, size, prefix) => `${prefix}${unit.repeat(Math.ceil(size / unit.length)).slice(0, size - 1 - prefix.length)}!`;

async function best(judge, content) {
  const t = {
    id: "t",
    complete: true,
    events: [
      { id: "e1", actor: "agent", action: "look", content },
      { id: "e2", actor: "agent", action: "act", content },
    ],
  };
  let fastest = Infinity;
  for (let k = 0; k < 3; k++) {
    const start = performance.now();
    await judge.judgeTrajectory(t);
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

console.log("pattern                          100 KB ms    1 MB ms   1 MB / 100 KB");
let k = 0;
for (const [pattern, unit, prefix] of PATTERNS) {
  const judge = await judgeFor(pattern, k++);
  await best(judge, contentOf(unit, 10_000, prefix)); // warm up
  const small = await best(judge, contentOf(unit, 100_000, prefix));
  const large = await best(judge, contentOf(unit, 1_000_000, prefix));
  console.log(
    `${pattern.padEnd(32)} ${small.toFixed(1).padStart(10)} ${large.toFixed(1).padStart(10)} ${(large / small).toFixed(1).padStart(15)}`,
  );
}
