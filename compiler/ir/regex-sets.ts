/**
 * Code point sets for the regex compiler: sorted, disjoint, non-adjacent
 * inclusive ranges, flat (lo, hi, lo, hi, …), and the case-fold closure that
 * `i` widens a character or a class to (regex-case-fold.ts, generated from
 * Node's own `iu`), so the runtime compares code points only.
 */
import { CASE_FOLD_CLASSES } from "./regex-case-fold.js";

export const MAX_CODE_POINT = 0x10ffff;

export type Ranges = number[];

/** Sorts and merges any list of ranges. */
export function normalize(ranges: readonly number[]): Ranges {
  const pairs: [number, number][] = [];
  for (let k = 0; k < ranges.length; k += 2) pairs.push([ranges[k]!, ranges[k + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [lo, hi] of pairs) {
    const last = out.length - 1;
    if (last > 0 && lo <= out[last]! + 1) out[last] = Math.max(out[last]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

export function complement(ranges: Ranges): Ranges {
  const out: Ranges = [];
  let from = 0;
  for (let k = 0; k < ranges.length; k += 2) {
    if (ranges[k]! > from) out.push(from, ranges[k]! - 1);
    from = ranges[k + 1]! + 1;
  }
  if (from <= MAX_CODE_POINT) out.push(from, MAX_CODE_POINT);
  return out;
}

function contains(ranges: Ranges, c: number): boolean {
  let lo = 0;
  let hi = ranges.length >> 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c > ranges[2 * mid + 1]!) lo = mid + 1;
    else hi = mid;
  }
  return lo < ranges.length >> 1 && c >= ranges[2 * lo]!;
}

let foldClasses: number[][] | undefined;
let foldClassOf: Map<number, number[]> | undefined;

/** The fold classes of regex-case-fold.ts, decoded once. */
function caseFoldClasses(): number[][] {
  foldClasses ??= CASE_FOLD_CLASSES.split(",").map((members) => members.split(" ").map((hex) => parseInt(hex, 16)));
  return foldClasses;
}

/** The fold class of one code point (undefined: it has no case variants); a map, so long literal patterns under `i` stay fast. */
export function caseVariants(c: number): readonly number[] | undefined {
  if (foldClassOf === undefined) {
    foldClassOf = new Map();
    for (const members of caseFoldClasses()) for (const member of members) foldClassOf.set(member, members);
  }
  return foldClassOf.get(c);
}

/**
 * Every code point that folds like some member of `ranges` (JS `iu`: a
 * character matches when its simple case folding equals a member's).
 */
export function caseClosure(ranges: Ranges): Ranges {
  const added: number[] = [];
  for (const members of caseFoldClasses()) {
    if (members.some((c) => contains(ranges, c))) for (const c of members) added.push(c, c);
  }
  return added.length === 0 ? ranges : normalize([...ranges, ...added]);
}

export const DIGITS: Ranges = [0x30, 0x39];
export const WORD: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
/** Under `iu` JS adds the two code points that fold into [A-Za-z0-9_]: U+017F ſ and U+212A K. */
export const WORD_I: Ranges = normalize([...WORD, 0x17f, 0x17f, 0x212a, 0x212a]);
/** WhiteSpace and LineTerminator of ECMA-262 (Zs as of Unicode 17). */
export const SPACE: Ranges = normalize([
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000,
  0xfeff, 0xfeff,
]);
export const LINE_TERMINATORS: Ranges = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];
