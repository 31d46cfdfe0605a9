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
import { parseCount } from "./words.js";

/** Where the words cut at a number: "above" it (`> n` / `<= n`) or "below" it (`>= n` / `< n`). */
export type Cut = "above" | "below";

const NUMBER = String.raw`(\d[\d,]*(?:\.\d+)?)`;
/** Words before a number that cut above it, or below it; an article or a currency sign may stand between. */
const BEFORE_ABOVE =
  /\b(?:more than|over|above|greater than|higher than|larger than|exceed(?:s|ing|ed)?|in excess of|at most|no more than|not more than|up to|a maximum of|maximum(?: of)?|not above|capped at|limited to|no higher than|no greater than)\s+(?:an?\s+)?[$€£]?\s?$/i;
const BEFORE_BELOW =
  /\b(?:at least|no less than|not less than|no fewer than|not fewer than|a minimum of|minimum(?: of)?|under|below|less than|fewer than|lower than|beneath|no lower than)\s+(?:an?\s+)?[$€£]?\s?$/i;
/** Words after a number: "400 or less" cuts above it, "4 or higher" below it. */
const AFTER_ABOVE = /^\s*(?:[a-z%°$€£/]+\s+){0,2}?(?:or less|or fewer|or below|or lower|or under|and below|at most|at the most)\b/i;
const AFTER_BELOW =
  /^\s*(?:[a-z%°$€£/]+\s+){0,2}?(?:or more|or higher|or above|or over|and above|and up|or greater|at least|at the least)\b/i;

/**
 * Words that state the allowed side of a bound ("at most 12", "up to 12", "at least 60", "no fewer
 * than 3"): what a forbidden check tests is the other side (`> 12`, `< 60`). "12 or less", "4 or
 * higher" may name either side ("refunds of $500 or more need approval").
 */
const ALLOWED =
  /\b(?:at most|no more than|not more than|up to|a maximum of|maximum(?: of)?|not above|capped at|limited to|no higher than|no greater than|at least|no less than|not less than|no fewer than|not fewer than|a minimum of|minimum(?: of)?|no lower than)\s+(?:an?\s+)?[$€£]?\s?$/i;
const ALLOWED_AFTER = /^\s*(?:[a-z%°$€£/]+\s+){0,2}?(?:at most|at the most|at least|at the least)\b/i;

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
  for (const m of text.matchAll(new RegExp(String.raw`(?<![\w.])${NUMBER}(?![\w.]*\w)`, "g"))) {
    const n = Number(m[1]!.replace(/,/g, ""));
    if (!Number.isFinite(n)) continue;
    const before = text.slice(Math.max(0, m.index! - 40), m.index!);
    const after = text.slice(m.index! + m[0].length, m.index! + m[0].length + 30);
    // The limit words before a number ("at most", "at least") are the inclusive ones.
    const op: keyof RangeOperator | undefined = AFTER_ABOVE.test(after)
      ? "lte"
      : BEFORE_ABOVE.test(before)
        ? ALLOWED.test(before)
          ? "lte"
          : "gt"
        : AFTER_BELOW.test(after)
          ? "gte"
          : BEFORE_BELOW.test(before)
            ? ALLOWED.test(before)
              ? "gte"
              : "lt"
            : undefined;
    if (op === undefined) continue;
    const cut: Cut = op === "gt" || op === "lte" ? "above" : "below";
    const allowed = ALLOWED.test(before) || ALLOWED_AFTER.test(after);
    if (!out.some((c) => c.n === n && c.cut === cut && c.allowed === allowed && c.op === op)) out.push({ n, cut, allowed, op });
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
  const mine: Cut = op === "gt" || op === "lte" ? "above" : "below";
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

const STEP_NOUNS = String.raw`(?:steps?|events?|messages?|turns?|calls?|actions?|moves?)`;
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
  if (IMMEDIATELY.test(text) || /\bwithin\s+(?:a|one)\s+step\b/i.test(text)) out.add(1);
  return [...out].sort((a, b) => a - b);
}
