/**
 * Large judges for the tests of what a build costs, made by bench/large-judge.js,
 * the script the before/after measurements of issue 8 use.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const LARGE_JUDGE = join(import.meta.dirname, "..", "..", "bench", "large-judge.js");

/** `node bench/large-judge.js <kind> <size>`: a judge.yaml as text. */
export function largeJudgeYaml(kind: "rules" | "checks" | "quote" | "bytes", size: number): string {
  return execFileSync(process.execPath, [LARGE_JUDGE, kind, String(size)], { encoding: "utf8", maxBuffer: 1 << 30 });
}
