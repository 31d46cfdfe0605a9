/**
 * Amounts in rule sentences (docs/FORMATS.md §10.1): "a refund over $500",
 * "a discount of more than 20 percent", "$500 or more", "below 5%". Each
 * becomes a comparison on the metadata key that holds the amount, for the
 * events the phrase names: `metadata: {amount: {gt: 500}}`. Only money and
 * percentages are read as amounts; "more than three refunds" stays a count
 * (shape.ts reads those bounds). The key is one the samples show with
 * decimal values on that action, picked by the unit ("$" → amount, price,
 * total…; "%" → percent, rate…) or by the phrase's own word for it.
 */
import type { Matcher, Pattern, RangeOperator } from "../../ir/types.js";
import { alternation, COMPARISONS, OPS } from "./comparisons.js";
import type { Lexicon } from "./lexicon.js";
import { nameStems, stemSet } from "./words.js";

export type AmountUnit = "money" | "percent" | "temperature" | "days" | "hours" | "minutes" | "age" | "weight" | "distance" | "points";

export interface Amount {
  /** The comparison the words ask for. */
  range: RangeOperator;
  unit: AmountUnit;
  /** Where the words are, so the rest of the phrase can be read without them. */
  start: number;
  end: number;
}

const MONEY = String.raw`(?:[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?[kK]\b)?|\b(?:USD|EUR|GBP|US\$)\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:dollars?|euros?|pounds?|usd|eur|gbp)\b)`;
const PERCENT = String.raw`(?:\d+(?:\.\d+)?\s?(?:%|percent\b|per cent\b))`;
/** Measures: "above 8 °C", "more than 90 days", "over 26 degrees", "aged 25", "more than 40 kg". */
export const MEASURE_UNITS = String.raw`(?:°\s?[CF]?|º\s?[CF]?|degrees?(?:\s+(?:celsius|fahrenheit|C|F))?|days?|nights?|hours?|hrs?|minutes?|mins?|weeks?|months?|years?(?:\s+old)?|kg|kilos?|kilograms?|g|grams?|t|km|kilomet(?:re|er)s?|miles?|metres?|meters?|m|points?)(?![A-Za-z])`;
const MEASURE = String.raw`(?:aged\s+\d+(?:\.\d+)?(?:\s?years?(?:\s+old)?(?![A-Za-z]))?|\d[\d,]*(?:\.\d+)?(?:\s|-)?${MEASURE_UNITS})`;
const AMOUNT = `(${MONEY}|${PERCENT}|${MEASURE})`;

/** Comparison words before an amount ("over $500") and after it ("$500 or more"), by operator (comparisons.ts). */
const BEFORE: readonly [RegExp, keyof RangeOperator][] = OPS.map((op) => [new RegExp(`(?:${alternation(COMPARISONS[op].before)})`), op]);
const AFTER: readonly [RegExp, keyof RangeOperator][] = OPS.filter((op) => COMPARISONS[op].after.length > 0).map((op) => [
  new RegExp(`(?:${alternation(COMPARISONS[op].after)})`),
  op,
]);
/** A bare number compared with a key the phrase writes in backticks: "(`temperature_c` above 8)", "(`score` 70 or above)". */
const KEYED = String.raw`(?<=\`[A-Za-z_][A-Za-z0-9_.-]*\`\s+)`;
const BARE = String.raw`(\d[\d,]*(?:\.\d+)?)(?![\d.,]*\d)`;

/** Words that stand for the key of each unit, in the order they are preferred. */
const UNIT_KEYS: Record<AmountUnit, readonly string[]> = {
  money: ["amount", "price", "total", "cost", "fee", "value", "sum", "charge", "balance", "refund"],
  percent: ["percent", "percentage", "pct", "rate", "discount", "ratio"],
  temperature: ["temp", "temperature", "celsius", "fahrenheit", "degree", "c", "f"],
  days: ["day", "night", "duration", "length", "term", "period", "week", "month"],
  hours: ["hour", "hr", "duration", "time", "minute"],
  minutes: ["minute", "min", "duration", "time"],
  age: ["age", "year", "old"],
  weight: ["weight", "kg", "kilo", "mass", "gram", "g", "tonne", "ton", "t"],
  distance: ["distance", "km", "mile", "range", "m", "metre", "meter", "length", "depth"],
  points: ["point", "score"],
};

/** The unit a written amount is in. */
function unitOf(written: string): AmountUnit {
  if (/%|percent|per cent/i.test(written)) return "percent";
  if (/^aged\b|years?/i.test(written)) return "age";
  if (/[°º]|degree/i.test(written)) return "temperature";
  if (/days?|nights?|weeks?|months?/i.test(written)) return "days";
  if (/hours?|hrs?/i.test(written)) return "hours";
  if (/minutes?|mins?/i.test(written)) return "minutes";
  if (/kg|kilo(?!met)|\d\s?(?:g|grams?|t)$/i.test(written)) return "weight";
  // "6,000 metres of wire", "a swell over 3 m": a length is a distance too.
  if (/km|kilomet|miles?|met(?:re|er)s?$|\d\s?m$/i.test(written)) return "distance";
  if (/points?/i.test(written)) return "points";
  return "money";
}

/** The number an amount's text writes: "$1,000" → 1000, "$2.5k" → 2500, "20 percent" → 20. */
function amountValue(text: string): number | undefined {
  const digits = /\d[\d,]*(?:\.\d+)?/.exec(text)?.[0].replace(/,/g, "");
  if (digits === undefined) return undefined;
  const value = Number(digits) * (/^[$€£]|dollars?|euros?|pounds?|usd|eur|gbp/i.test(text) && /\d\s?[kK]\b/.test(text) ? 1000 : 1);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The patterns amountsIn tries, in its order, built once (they were built anew on every call, and
 * the search from labels reads a rule's words many times): an amount after its comparison words,
 * before them, and a backticked key's bare number either way.
 */
const AMOUNT_PATTERNS: readonly [RegExp, keyof RangeOperator][] = [
  // "more than a 90-day supply": an article may stand before a measure.
  ...BEFORE.map(([words, op]): [RegExp, keyof RangeOperator] => [
    new RegExp(String.raw`\b${words.source}\s+(?:an?\s+(?=\d))?${AMOUNT}`, "gi"),
    op,
  ]),
  // "25 kg of media at most": the words after the amount may name what it is of first.
  ...AFTER.map(([words, op]): [RegExp, keyof RangeOperator] => [
    new RegExp(String.raw`${AMOUNT}(?:\s+of\s+[a-z]+)?\s+${words.source}\b`, "gi"),
    op,
  ]),
  ...BEFORE.map(([words, op]): [RegExp, keyof RangeOperator] => [new RegExp(String.raw`${KEYED}${words.source}\s+${BARE}`, "gi"), op]),
  ...AFTER.map(([words, op]): [RegExp, keyof RangeOperator] => [new RegExp(String.raw`${KEYED}${BARE}\s+${words.source}\b`, "gi"), op]),
];

/** Every amount the text writes with a comparison word, in order. */
export function amountsIn(text: string): Amount[] {
  // Every pattern writes a digit (an amount's or a bare number's): words without one have no amount.
  if (!/\d/.test(text)) return [];
  const found: Amount[] = [];
  // matchAll runs on a copy of the pattern: the shared one keeps no lastIndex between calls.
  for (const [re, op] of AMOUNT_PATTERNS) for (const m of text.matchAll(re)) add(found, m, op);
  return found.sort((a, b) => a.start - b.start).filter((a, i, all) => i === 0 || a.start >= all[i - 1]!.end);
}

/** "from 3 to 8 hours", "3 to 8 hours", "between $200 and $500": a range with the unit on its upper number (the lower one may write it too). */
const LOW = String.raw`(${MONEY}|\d[\d,]*(?:\.\d+)?)(?:\s?(?:${MEASURE_UNITS}))?`;
const RANGE = new RegExp(String.raw`\b(?:(?:from\s+)?${LOW}\s+to\s+|between\s+${LOW}\s+(?:and|to)\s+)${AMOUNT}`, "gi");

/** "is", "shows a moisture", "reads": what comes before a range a clause states rather than names events by. */
const STATED = /\b(?:is|are|be|was|were|been|shows?|showing|reads?|records?|gives?|returns?)\s+(?:(?:an?|the)\s+)?(?:[a-z_]+\s+)?$/i;

/**
 * The amounts a phrase names its events by, ranges first: "a session that ran from 3 to 8 hours" is a session of 3
 * hours or more and 8 or less (both included, as comparisons.ts RANGE_WORDS reads them), then each amount with its
 * comparison words. For the phrases that name events (clauses.ts resolve); a clause stating a range as its predicate is bounds.ts's.
 */
export function amountsNaming(text: string): Amount[] {
  const ranges: Amount[] = [];
  for (const m of text.matchAll(RANGE)) {
    // "… must show a moisture from 9.0 to 14.5 per cent": the range a look-up is to show is a predicate, no name of events.
    if (STATED.test(text.slice(0, m.index))) continue;
    const [low, high] = [amountValue((m[1] ?? m[2])!), amountValue(m[3]!)];
    if (low === undefined || high === undefined || low > high) continue;
    ranges.push({ range: { gte: low, lte: high }, unit: unitOf(m[3]!), start: m.index!, end: m.index! + m[0].length });
  }
  const single = amountsIn(text).filter((a) => !ranges.some((r) => r.start < a.end && a.start < r.end));
  return [...ranges, ...single].sort((a, b) => a.start - b.start);
}

function add(found: Amount[], match: RegExpMatchArray, op: keyof RangeOperator): void {
  const written = match[1]!;
  const value = amountValue(written);
  if (value === undefined) return;
  const start = match.index!;
  found.push({
    range: { [op]: value },
    unit: unitOf(written),
    start,
    end: start + match[0].length,
  });
}

/** The text without its amounts: what is left names the events. */
export function withoutAmounts(text: string, amounts: readonly Amount[]): string {
  let out = text;
  for (const amount of [...amounts].reverse()) out = `${out.slice(0, amount.start)} ${out.slice(amount.end)}`;
  return out;
}

/** Whether every value the samples show for the key is a decimal number. */
function numeric(values: readonly { value: string }[]): boolean {
  return values.length > 0 && values.every((v) => /^-?\d+(?:\.\d+)?$/.test(v.value.trim()));
}

/**
 * The key of `action` that holds the amount: among the keys the samples show
 * with decimal values on it, one the phrase names ("a price over $2000"),
 * else the first of the unit's words a key's name has, else the only one.
 */
export function amountKey(lexicon: Lexicon, action: string, unit: AmountUnit, phrase: string, namedOnly = false): string | undefined {
  // Not the importers' own keys (`@turn`) nor identifiers, whatever their values look like.
  const keys = (lexicon.actions.find((a) => a.name === action)?.metadata ?? [])
    .filter((m) => numeric(m.values) && !m.key.startsWith("@") && !nameStems(m.key).includes("id"))
    .map((m) => m.key);
  if (keys.length === 0) return undefined;
  const said = stemSet(phrase);
  const named = keys.find((key) => nameStems(key).some((s) => s.length >= 3 && said.has(s)));
  if (named !== undefined) return named;
  for (const word of UNIT_KEYS[unit]) {
    const key = keys.find((k) => nameStems(k).includes(word) || (word.length >= 3 && k.toLowerCase().includes(word)));
    if (key !== undefined) return key;
  }
  // `namedOnly`: a key the words or the unit name, not merely the act's one number (carried.ts).
  return keys.length === 1 && !namedOnly ? keys[0] : undefined;
}

/**
 * The pattern with the amounts put on each of its actions' amount key; the
 * amounts are the phrase's. Undefined when an action has no key for an
 * amount: the amount cannot be left out (the check would then be about
 * every such event), so the caller says it could not map the clause.
 */
export function withAmounts(lexicon: Lexicon, pattern: Pattern, amounts: readonly Amount[], phrase: string): Pattern | undefined {
  if (amounts.length === 0) return pattern;
  const out: Matcher[] = [];
  for (const original of pattern) {
    if (typeof original.action !== "string") return undefined;
    // A call's measurement is in its result ("a reading above 8 °C" is `read_logger_result`'s `temp_c`).
    const result = `${original.action}_result`;
    const onCall = amounts.every((a) => amountKey(lexicon, original.action as string, a.unit, phrase) !== undefined);
    const onResult = !onCall && amounts.every((a) => amountKey(lexicon, result, a.unit, phrase) !== undefined);
    const matcher: Matcher = onResult ? { action: result } : original;
    const metadata = { ...(matcher.metadata ?? {}) };
    for (const amount of amounts) {
      const key = amountKey(lexicon, matcher.action as string, amount.unit, phrase);
      if (key === undefined) return undefined;
      const before = metadata[key];
      metadata[key] = typeof before === "object" && before !== null ? { ...before, ...amount.range } : { ...amount.range };
    }
    out.push({ ...matcher, metadata });
  }
  return out;
}
