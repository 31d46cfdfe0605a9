/**
 * A regex program (ir/regex-program.ts) as a code literal, for the constants
 * that judge.ts hoists and runtime/regex.ts runs.
 */
import type { RegexProgram } from "../../runtime/regex.js";
import { code, join, lit, type Code } from "./code.js";

/** The program as an object literal, through the safe builders only: numbers, booleans and `lit` for the literal text. */
export function regexLiteral(program: RegexProgram): Code {
  const numbers = (list: readonly number[]): Code => code`[${join(list.map((n) => code`${checkedInteger(n)}`))}]`;
  const literal = program.literal === null ? code`null` : lit(program.literal);
  return code`{ ops: ${numbers(program.ops)}, sets: [${join(program.sets.map(numbers))}], literal: ${literal}, anchorStart: ${program.anchorStart}, anchorEnd: ${program.anchorEnd} }`;
}

function checkedInteger(n: number): number {
  if (!Number.isSafeInteger(n)) throw new TypeError(`internal: a regex program holds ${n}, not an integer`);
  return n;
}
