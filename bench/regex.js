#!/usr/bin/env node
// The linear-time regex engine of `matches` (runtime/regex.ts) on content that
// makes a backtracking engine explode: per pattern, the best of three runs over
// 100 KB, over ten 100 KB texts, and over 1 MB. Linear means the last two agree
// (the ratio near 1); JS RegExp would not finish several of these.
//   npm run build:cli && node bench/regex.js
import { compileRegex } from "../dist/compiler/ir/regex-program.js";
import { regexTest } from "../dist/runtime/regex.js";

const CASES = [
  ["(a+)+$", "", "a", "!"],
  ["^(a+)+$", "", "a", ""],
  ["(a|a)*b", "", "a", ""],
  ["(a*)*b", "", "a", ""],
  [".*a.*b.*c", "", "a", ""],
  ["\\d+\\d+\\d+x", "", "7", ""],
  ["(x+x+)+y", "", "x", ""],
  ["(A+)+$", "i", "a", "!"],
  ["(\\w+\\s?)+$", "", "a", "!"],
  ["a{0,10}b", "", "a", ""],
  ["\\b(?:refund|chargeback)\\b", "i", "a", ""],
];

function best(run) {
  let fastest = Infinity;
  for (let k = 0; k < 3; k++) {
    const start = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

console.log("pattern                         100 KB   10×100 KB      1 MB   1 MB / 10×100 KB");
for (const [pattern, flags, unit, suffix] of CASES) {
  const result = compileRegex(pattern, flags);
  if (!result.ok) throw new Error(`${pattern}: ${result.message}`);
  const small = unit.repeat(100_000) + suffix;
  const large = unit.repeat(1_000_000) + suffix;
  const one = best(() => regexTest(result.program, small));
  const ten = best(() => {
    for (let k = 0; k < 10; k++) regexTest(result.program, small);
  });
  const mb = best(() => regexTest(result.program, large));
  const name = `/${pattern}/${flags}`.padEnd(30);
  console.log(
    `${name} ${one.toFixed(1).padStart(7)} ms ${ten.toFixed(1).padStart(8)} ms ${mb.toFixed(1).padStart(8)} ms   ${(mb / ten).toFixed(2)}`,
  );
}
