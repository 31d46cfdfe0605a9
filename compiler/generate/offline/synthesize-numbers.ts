/**
 * The numbers a rule's words write and how they compare (issue 25), for the search from labels
 * and the reading from words: which side of a written number its words put the number itself on,
 * and how many steps a "within" or an "immediately" allows.
 *
 * A comparison word puts the number on one side of its cut. "More than 400", "over 400", "at most
 * 400", "no more than 400", "up to 400", "400 or less" all cut between 400 and what exceeds it: a
 * test of the cut is `> 400` (what exceeds) or its complement `<= 400` (what is allowed), whether
 * the words forbid the excess or require the rest. "At least 4", "4 or higher", "fewer than 4",
 * "below 4" cut below 4: `>= 4` or `< 4`. A test on the other side of the number (`>= 400` for
 * "more than 400") contradicts the words even though it writes their number.
 */
import type { RangeOperator } from "../../ir/types.js";
import { alternation, comparisonOf, cutOf, statesAllowed, wordsAt, type ComparisonWord, type Cut } from "./comparisons.js";
import { parseCount } from "./words.js";
import { ORDINALS } from "./voice-words.js";
import { writtenNumerals } from "./units.js";

export type { Cut } from "./comparisons.js";

/** Comparison words right before a number (comparisons.ts); an article or a currency sign may stand between. */
const BEFORE = new RegExp(String.raw`\b(${alternation(wordsAt("before"))})\s+(?:an?\s+)?[$€£]?\s?$`, "i");
/** Comparison words after a number ("400 or less", "4 or higher"), a unit or two between. */
const AFTER = new RegExp(String.raw`^\s*(?:[a-z%°$€£/]+\s+){0,2}?(${alternation(wordsAt("after"))})\b`, "i");

/** The table's entry for the words a regular expression found. */
const found = (m: RegExpExecArray | null, position: "before" | "after"): ComparisonWord | undefined =>
  m === null ? undefined : comparisonOf(m[1]!, position);

export interface WrittenCut {
  n: number;
  cut: Cut;
  /** The words state the allowed side ("at most 12"): a forbidden check tests the other (`> 12`). */
  allowed: boolean;
  /** The comparison the words themselves state: `gt` for "more than 400", `gte` for "4 or more". */
  op: keyof RangeOperator;
}

/** Every number the text writes in digits with a comparison word, and where the words cut. */
export function writtenCuts(text: string): WrittenCut[] {
  const out: WrittenCut[] = [];
  for (const m of writtenNumerals(text)) {
    const n = m.n;
    const before = text.slice(Math.max(0, m.start - 40), m.start);
    const after = text.slice(m.end, m.end + 30);
    const words = [found(AFTER.exec(after), "after"), found(BEFORE.exec(before), "before")].filter((w) => w !== undefined);
    // Words that cut above the number win over words that cut below it ("over 400 … 400 or more" reads above).
    const stated = words.find((w) => cutOf(w.op) === "above") ?? words[0];
    if (stated === undefined) continue;
    const cut = cutOf(stated.op);
    const allowed = words.some((w) => statesAllowed(w.op, w.words));
    if (!out.some((c) => c.n === n && c.cut === cut && c.allowed === allowed && c.op === stated.op))
      out.push({ n, cut, allowed, op: stated.op });
  }
  return out;
}

/**
 * Where a tested range stands in a reading: what a forbidden check matches, any other matcher (a
 * trigger, an ordering's or a pairing's event, what a count counts), or a condition's test of the
 * latest earlier event.
 */
export type RangeRole = "forbidden" | "matcher" | "test";

/**
 * How a one-sided test of a number agrees with the words' comparisons of that number: "fits" (the
 * words cut where it does), "contradicts" (the words write the number only with a cut on its other
 * side; for what a forbidden check matches, only as the side they allow; for another matcher, only
 * as the side they do not name: "work valued above $250,000 needs …" speaks of `> 250000`, never
 * of the events `<= 250000`, unless it says the allowed side, "refunds up to $500 need no …"), or
 * "silent" (no comparison of that number, or a range of two bounds).
 */
export function cutFit(range: RangeOperator, cuts: readonly WrittenCut[], role: RangeRole = "test"): "fits" | "contradicts" | "silent" {
  const bounds = Object.entries(range).filter(([, b]) => typeof b === "number") as [keyof RangeOperator, number][];
  if (bounds.length !== 1) return "silent";
  const [op, n] = bounds[0]!;
  const mine = cutOf(op);
  const theirs = cuts.filter((c) => c.n === n);
  if (theirs.length === 0) return "silent";
  const fits = (c: WrittenCut) =>
    c.cut === mine &&
    // A forbidden check on the side the words allow ("at most 12" as forbidding `<= 12`) forbids what they permit.
    !(role === "forbidden" && c.allowed && op === c.op) &&
    // Events the words name by a side ("above $250,000", "$600 or more") are on that side: `> 250000`, `>= 600`.
    !(role === "matcher" && !c.allowed && op !== c.op);
  return theirs.some(fits) ? "fits" : "contradicts";
}

const STEP_NOUNS = String.raw`(?:steps?|events?|messages?|turns?|calls?|actions?|moves?|entry|entries|lines?)`;
const IMMEDIATELY = /\b(?:immediately|right after|right away|straight after|straight away|next|at once|directly after)\b/i;

/**
 * The step counts a pairing's `within` may take from the words: the number in "within two steps"
 * ("within 3 events"), and 1 where they say "immediately", "right after", "next". A bare "within"
 * ("within 30 minutes") writes no count of steps.
 */
export function writtenWithins(text: string): number[] {
  const out = new Set<number>();
  for (const m of text.matchAll(new RegExp(String.raw`\bwithin\s+(?:the\s+next\s+)?([a-z]+|\d+)\s+${STEP_NOUNS}\b`, "gi"))) {
    const n = parseCount(m[1]!);
    if (n !== undefined && n >= 1) out.add(n);
  }
  // "no later than the third event following the dispatch": the window ends at the third step after it.
  for (const m of text.matchAll(
    new RegExp(
      String.raw`\b(?:no|not)\s+later\s+than\s+(?:the\s+)?([a-z]+|\d+(?:st|nd|rd|th)?)\s+${STEP_NOUNS}\s+(?:after|following)\b`,
      "gi",
    ),
  )) {
    // "the 2ND step after" is the second.
    const word = m[1]!.toLowerCase().replace(/^(\d+)(?:st|nd|rd|th)$/, "$1");
    const n = parseCount(ORDINALS[word] ?? word);
    if (n !== undefined && n >= 1) out.add(n);
  }
  if (IMMEDIATELY.test(text) || /\bwithin\s+(?:a|one)\s+step\b/i.test(text)) out.add(1);
  return [...out].sort((a, b) => a - b);
}
