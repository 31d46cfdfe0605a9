/**
 * A number the rule writes is part of what it says (issue 25): "at most 2,000 kilos of cod per
 * trip" is a bound of 2,000 on something, and a reading that uses no number the words write reads
 * some other rule. Labels that are all "followed" fit many plain readings that ignore the number (a
 * ban on hake after cod, at most one cod landing), and the search stopped at the first plain one
 * before trying the forms that carry a written number (a sum per trip, a threshold). Where the
 * search's fit leaves out every number the words write, the extended forms are searched for one
 * that fits the labels as well and uses one, best on the side of it the words cut ("at most 2,000":
 * a total of at most 2,000, not a quota of at least 2,000) (synthesize.ts).
 */
import type { Check } from "../../ir/types.js";
import type { Candidate } from "./synthesize-eval.js";
import type { WrittenCut } from "./synthesize-numbers.js";

type Op = "gt" | "gte" | "lt" | "lte" | "max" | "min" | "within" | "eq" | "rate";
const OPS = new Set<string>(["gt", "gte", "lt", "lte", "max", "min", "within"]);
const SYMBOLS: Record<string, Op> = { ">": "gt", ">=": "gte", "<": "lt", "<=": "lte" };

/** The numbers a check compares with, bounds or counts within, each with how: in its patterns, bounds, window, condition. */
export function numbersOf(check: Check): { n: number; op: Op; sum: boolean }[] {
  const out: { n: number; op: Op; sum: boolean }[] = [];
  const sum = check.type === "count" && check.sum !== undefined;
  const walk = (x: unknown, field: string | undefined): void => {
    if (typeof x === "number" && field !== undefined && OPS.has(field)) out.push({ n: x, op: field as Op, sum });
    else if (typeof x === "string" && field === "when") {
      for (const m of x.matchAll(/(>=|<=|>|<|==|!=)\s*(-?\d+(?:\.\d+)?)(?![\w"])/g))
        out.push({ n: Number(m[2]), op: SYMBOLS[m[1]!] ?? "eq", sum: false });
      // A rate's factor (`r.kg / 5`, synthesize-arithmetic.ts): the words' numbers, used as they write them.
      for (const m of x.matchAll(/[*/]\s*(\d+(?:\.\d+)?)(?![\w"])/g)) out.push({ n: Number(m[1]), op: "rate", sum: false });
    } else if (Array.isArray(x)) for (const y of x) walk(y, field);
    else if (typeof x === "object" && x !== null) for (const [k, v] of Object.entries(x)) walk(v, k);
  };
  walk(check, undefined);
  return out;
}

/**
 * How far the checks use the numbers the words write: 2 when one is used on the side the words
 * cut it (a threshold `> 500` or `<= 500` for "over 500", a total of at most 2,000 for "at most
 * 2,000 … added up"), 1 when one is used otherwise, 0 when none is (or the words write none: 2).
 */
export function writtenUse(checks: readonly Check[], said: readonly number[], cuts: readonly WrittenCut[]): number {
  if (said.length === 0) return 2;
  let use = 0;
  for (const c of checks)
    for (const { n, op, sum } of numbersOf(c)) {
      if (op === "rate") use = 2;
      if (!said.includes(n)) continue;
      const side =
        op === "gt" || op === "lte" || (sum && op === "max")
          ? "above"
          : op === "gte" || op === "lt" || (sum && op === "min")
            ? "below"
            : undefined;
      use = Math.max(use, cuts.some((w) => w.n === n && w.cut === side) ? 2 : 1);
    }
  return use;
}

/**
 * What a total bounded by a number the words write adds to a candidate's score, searching with
 * labels, when the words speak of adding up ("in total", "added up"): as much as a threshold the
 * words write adds to a matcher (synthesize-vocab.ts), and half as much again on the side of it
 * the words cut. Words that add nothing up ("a refund bigger than 500 needs a sign-off") bound no
 * total, and from the words alone nothing is added (their own reading).
 */
export function writtenBound(
  c: Candidate,
  said: readonly number[],
  cuts: readonly WrittenCut[],
  summed: boolean,
  wordsOnly: boolean,
): number {
  if (wordsOnly || !summed || c.type !== "count" || c.sum === undefined) return 0;
  const bound = c.max ?? c.min;
  if (bound === undefined || !said.includes(bound)) return 0;
  const side = c.max !== undefined ? "above" : "below";
  return 1 + (cuts.some((w) => w.n === bound && w.cut === side) ? 0.5 : 0);
}
