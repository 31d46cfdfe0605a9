/**
 * A bound a phrase puts on the events it names by a number and a noun (issue 25): "a hive inspected with more than
 * 20 frames", "a pallet of 12 crates or more", "a plan of from 2 to 6 installments". The noun names a numeric key of
 * the events ("frames" is `frames`), where amounts.ts reads a unit ("more than 5 hours", "£250.00 or more"). Only
 * after "of", "with" and the like, or a relative clause's verb ("that showed"), as the events' own measure: "sells more than 3 tickets" counts (counts.ts), and
 * "no more than 14 days" stated of each event is a bound of its own (bounds.ts).
 */
import type { Matcher, Pattern, RangeOperator } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { alternation, comparisonOf, RANGE_WORDS, SCOPE, wordsAt } from "./comparisons.js";
import type { Lexicon } from "./lexicon.js";
import { canonical, nameStems, parseCount } from "./words.js";

const NUMBER = `\\d[\\d,]*(?:\\.\\d+)?|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve`;
const NOUN = `([A-Za-z][\\w-]*)`;
/** "with more than 20 frames", "of 12 crates or more", "that showed from 20 to 50 frames". */
const MEASURED = new RegExp(
  `\\b(?:of|with|carrying|holding|containing|having|(?:that|which)\\s+[a-z]+)\\s+(?:` +
    `(${alternation(wordsAt("before"))})\\s+(${NUMBER})\\s+${NOUN}` +
    `|(${NUMBER})\\s+${NOUN}\\s+(${alternation(wordsAt("after"))})\\b` +
    `|(?:${alternation(RANGE_WORDS.open)})\\s+(${NUMBER})\\s+(?:${alternation(RANGE_WORDS.close)})\\s+(${NUMBER})\\s+${NOUN})`,
  "gi",
);

const NUMERIC = /^-?\d+(?:\.\d+)?$/;
const numberOf = (written: string): number => parseCount(written) ?? Number(written.replace(/,/g, ""));

/** The numeric key of `action` its noun names ("frames" → `frames`, "crate" → `crates`), if the samples show one. */
function keyOf(lexicon: Lexicon, action: string, noun: string): string | undefined {
  const stem = canonical(noun.toLowerCase());
  const meta = lexicon.actions.find((a) => a.name === action)?.metadata ?? [];
  return meta.find((m) => m.values.length > 0 && m.values.every((v) => NUMERIC.test(v.value.trim())) && nameStems(m.key).includes(stem))
    ?.key;
}

/** The words' bounds, each with its noun and where it is written. */
function measuresIn(phrase: string): { noun: string; range: RangeOperator; start: number; end: number }[] {
  return [...phrase.matchAll(MEASURED)].flatMap((m) => {
    const at = { start: m.index!, end: m.index! + m[0].length };
    if (m[1] !== undefined) {
      const op = comparisonOf(m[1], "before")?.op;
      return op === undefined ? [] : [{ noun: m[3]!, range: { [op]: numberOf(m[2]!) }, ...at }];
    }
    if (m[4] !== undefined) {
      const op = comparisonOf(m[6]!, "after")?.op;
      return op === undefined ? [] : [{ noun: m[5]!, range: { [op]: numberOf(m[4]) }, ...at }];
    }
    const [low, high] = [numberOf(m[7]!), numberOf(m[8]!)].sort((a, b) => a - b) as [number, number];
    return [{ noun: m[9]!, range: { gte: low, lte: high }, ...at }];
  });
}

/**
 * The pattern with each bound the phrase puts on a numeric key its noun names, on every matcher whose action has
 * that key; a bound no matcher's action has a key for is left out (its noun was something else: "of 3 days").
 * `taken` are the spans amounts.ts read already.
 */
export function withMeasures(
  lexicon: Lexicon,
  pattern: Pattern,
  phrase: string,
  taken: readonly { start: number; end: number }[],
): Pattern {
  // "sent home with at most 60 tablets in one session": a bound on a session's or a group's total (bounds.ts), not each event's.
  if (SCOPE.test(phrase)) return pattern;
  const measures = measuresIn(phrase).filter((b) => !taken.some((t) => t.start < b.end && b.start < t.end));
  if (measures.length === 0) return pattern;
  return pattern.map((matcher): Matcher => {
    const action = exactValue(matcher.action);
    if (action === undefined) return matcher;
    let metadata = matcher.metadata;
    for (const bound of measures) {
      const key = keyOf(lexicon, action, bound.noun);
      if (key === undefined) continue;
      const before = metadata?.[key];
      const range = typeof before === "object" && before !== null && !Array.isArray(before) ? { ...before, ...bound.range } : bound.range;
      metadata = { ...(metadata ?? {}), [key]: range };
    }
    return metadata === matcher.metadata ? matcher : { ...matcher, metadata };
  });
}
