/**
 * The comparison words of rule sentences, one table for every reader (issue 25): amounts with a unit
 * (amounts.ts), a look-up's shown values (shown.ts), bounds on each event's value (bounds.ts) and the
 * side of a written number a reading may test (synthesize-numbers.ts). A word added here is known to
 * all of them.
 *
 * Per operator: the words written before the number ("more than 400") and after it ("400 or more").
 * From the operator follow whether the number itself is included (`gte`, `lte`: "at least 4" allows
 * 4; `gt`, `lt`: "more than 400" does not) and where the words cut: "above" the number (`> n`, and
 * its complement `<= n`) or "below" it (`>= n`, `< n`). A negated word stays on its cut: "not
 * below 5" is `>= 5`, the complement of "below 5".
 *
 * A limit word of an inclusive operator ("at most 12", "up to 12", "no fewer than 3") states the
 * side the rule allows, so a forbidden check tests the other side; "12 or less", "4 or more" attach
 * the number to its side and may name either ("refunds of $500 or more need approval").
 */
import type { RangeOperator } from "../../ir/types.js";

export type ComparisonOp = keyof RangeOperator;
/** Where the words cut at a number: "above" it (`> n` / `<= n`) or "below" it (`>= n` / `< n`). */
export type Cut = "above" | "below";

/** The comparison words, by operator; each list as written, lower case, one space between words. */
export const COMPARISONS: Readonly<Record<ComparisonOp, { before: readonly string[]; after: readonly string[] }>> = {
  gt: {
    before: [
      "more than",
      "over",
      "above",
      "greater than",
      "higher than",
      "larger than",
      "bigger than",
      "warmer than",
      "hotter than",
      "longer than",
      "exceeding",
      "exceeds",
      "exceed",
      "exceeded",
      "in excess of",
    ],
    after: [],
  },
  gte: {
    before: [
      "at least",
      "no less than",
      "not less than",
      "no fewer than",
      "not fewer than",
      "a minimum of",
      "minimum of",
      "minimum",
      "no lower than",
      "no smaller than",
      "not below",
      "not under",
      "at or above",
      "at or over",
    ],
    after: [
      "or more",
      "or above",
      "or higher",
      "or over",
      "and above",
      "and over",
      "and up",
      "or greater",
      "at least",
      "at the least",
      "minimum",
    ],
  },
  lt: {
    before: [
      "under",
      "below",
      "less than",
      "fewer than",
      "lower than",
      "smaller than",
      "beneath",
      "colder than",
      "cooler than",
      "shorter than",
    ],
    after: [],
  },
  lte: {
    before: [
      "at most",
      "no more than",
      "not more than",
      "up to",
      "a maximum of",
      "maximum of",
      "maximum",
      "not above",
      "not over",
      "not exceeding",
      "capped at",
      "limited to",
      "no higher than",
      "no greater than",
      "not greater than",
      "not higher than",
      "at or below",
      "at or under",
    ],
    after: [
      "or less",
      "or fewer",
      "or below",
      "or lower",
      "or under",
      "and below",
      "and under",
      "at most",
      "at the most",
      "maximum",
      "max",
    ],
  },
};

/**
 * Two numbers that bound a range, both included: "from 18 to 75", "between 10 and 20". "Between"
 * is read inclusively as policies use it ("loads between 4 and 10 tonnes" admits a 10-tonne load;
 * a rule meaning otherwise says "more than 4 and less than 10"), and as "from … to …" is.
 */
export const RANGE_WORDS = { open: ["from", "between"], close: ["to", "and"] } as const;

/** Words that make a bound one on a whole session's total, or on a group: a sum (counts.ts), not each event's. */
export const SCOPE =
  /\b(?:(?:in|over)\s+(?:a|one|the|any|each)(?:\s+[a-z]+)?\s+(?:session|day|shift|visit|conversation|week|month)|(?:a|each|every)\s+(?:day|shift|week|month)|any\s+one|per|in total|total(?:s|led|ling)?|together|altogether|combined|however many|across|all\s+(?:of\s+)?(?:the|their|its)|sum|add(?:s|ed)? up)\b/i;

export const OPS: readonly ComparisonOp[] = ["gt", "gte", "lt", "lte"];

/**
 * Words that compare one key's value with another's and with no number (compared.ts): times ("on or
 * before the `claim_deadline`", "later than the unit's `issued_at`") and "as many". Kept out of the
 * table above, whose readers take a number after them ("before 5" is no bound).
 */
export const BETWEEN_KEYS: Readonly<Record<ComparisonOp, readonly string[]>> = {
  gt: ["later than", "after"],
  gte: ["no earlier than", "not earlier than", "on or after", "at or after", "at least as many", "at least as much"],
  lt: ["earlier than", "before"],
  lte: ["no later than", "not later than", "on or before", "at or before"],
};

/** Whether the number itself satisfies the comparison: "at least 4" allows 4, "more than 4" does not. */
export const inclusive = (op: ComparisonOp): boolean => op === "gte" || op === "lte";

/** Where an operator's words cut: `>` and `<=` above the number, `>=` and `<` below it. */
export const cutOf = (op: ComparisonOp): Cut => (op === "gt" || op === "lte" ? "above" : "below");

/** Whether the words state the side the rule allows: an inclusive limit ("at most", "at least"), not "or less"/"or more". */
export const statesAllowed = (op: ComparisonOp, words: string): boolean => inclusive(op) && !/^(?:or|and)\s/i.test(words);

/** A regular-expression alternation of the words, longest first (so "no more than" before "more than"), spaces as `\s+`. */
export function alternation(words: readonly string[]): string {
  return [...words]
    .sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+"))
    .join("|");
}

export interface ComparisonWord {
  op: ComparisonOp;
  words: string;
  position: "before" | "after";
}

/** Every word of the table with its operator and position, in table order. */
export const ALL_WORDS: readonly ComparisonWord[] = OPS.flatMap((op) => [
  ...COMPARISONS[op].before.map((words) => ({ op, words, position: "before" as const })),
  ...COMPARISONS[op].after.map((words) => ({ op, words, position: "after" as const })),
]);

/** The words of one position, of the given operators (all by default). */
export function wordsAt(position: "before" | "after", ops: readonly ComparisonOp[] = OPS): string[] {
  return ALL_WORDS.filter((w) => w.position === position && ops.includes(w.op)).map((w) => w.words);
}

/** The table's entry for words as written (any case and spacing), at a position; undefined when the table has none. */
export function comparisonOf(written: string, position: "before" | "after"): ComparisonWord | undefined {
  const words = written.trim().toLowerCase().replace(/\s+/g, " ");
  return ALL_WORDS.find((w) => w.position === position && w.words === words);
}

/** Comparatives of quantity: the only words of the exclusive operators that also bound how many events there are. */
const QUANTITY = /^(?:more|fewer|less) than$/;

/**
 * The words before a number that bound a count of events ("at most two refunds", "a maximum of 3
 * call-outs", "more than three posts"): every limit word (an inclusive operator's) and the
 * comparatives of quantity. "Over", "under", "above", "below" are prepositions as often ("over the
 * phone", "under a hold") and bound values, not counts (bounds.ts, amounts.ts).
 */
export function countWordsBefore(): string[] {
  return ALL_WORDS.filter((w) => w.position === "before" && (inclusive(w.op) || QUANTITY.test(w.words))).map((w) => w.words);
}

/** The limits a comparison sets on a count of n: "at most 3" is max 3, "more than 3" min 4, "fewer than 3" max 2. */
export function countLimits(op: ComparisonOp, n: number): { min?: number; max?: number } {
  if (op === "gte") return { min: n };
  if (op === "gt") return { min: n + 1 };
  if (op === "lt") return { max: Math.max(0, n - 1) };
  return { max: n };
}

/** The table's words that are negated comparisons ("no more than", "not above", "no greater than"): bounds, which negate nothing. */
export const NEGATED_COMPARISON = new RegExp(
  `\\b(?:${alternation(ALL_WORDS.filter((w) => /^(?:no|not)\s/.test(w.words)).map((w) => w.words))})\\b`,
  "gi",
);

/**
 * The words after a number that bound a count ("two cranes or fewer", "90 tonnes at most"): those of
 * quantity. "Or lower", "or higher", "and above" rank a value on a scale ("danger level 3 or lower").
 */
export function countWordsAfter(): string[] {
  return wordsAt("after").filter((w) => /^(?:or (?:more|fewer|less)|at (?:the )?(?:most|least)|max|maximum|minimum)$/.test(w));
}
