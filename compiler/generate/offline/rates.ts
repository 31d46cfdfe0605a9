/**
 * Rates the rule's words write between two amounts (issue 25): "1 ml for every 5 kg", "2 ml per
 * kilo", "one instructor for every eight children", "10% of the balance", "a quarter of the order
 * total", "no more than twice the deposit". A rate says one amount is bounded by another amount
 * scaled: the dose by the weight over five, the refund by the deposit times two. Its numbers are
 * no bounds of their own (a dose is not "at most 1", nor a weight "at least 5"), and neither are
 * those of a worked example that follows it ("so a 60kg ewe gets 12 ml": 12 = 60 / 5), which is
 * evidence for the rate, not a constant bound (synthesize-arithmetic.ts reads the keys).
 *
 * Each side of a rate is a unit the sentence writes ("ml", "kg", "£") or the words of what it
 * measures ("children", "the balance"); the scaled side is the reference ("every 5 kg", "the
 * deposit"), the compared side what it bounds ("1 ml"; unnamed in "10% of the balance": the
 * sentence's subject). The comparison is the one the words around it state ("and never a drop
 * over", "no more than", "at least"), else none: the labels choose.
 */
import { NUMBER_WORD, spelledNumbers, wordsValue } from "./number-words.js";
import { unitAround, writtenNumerals } from "./units.js";
import { nameStems } from "./words.js";

/** A comparison of two values, as a condition's `when` writes it. */
export type CompareOp = "==" | "!=" | "<" | "<=" | ">" | ">=";

/** One side of a rate: a unit, or the words of what it counts or measures. */
export interface RateSide {
  unit?: string;
  stems: string[];
}

export interface Rate {
  /** compared ≈ scaled × mul / div. */
  mul: number;
  div: number;
  scaled: RateSide;
  /** Undefined where the words name only the reference ("10% of the balance"). */
  compared?: RateSide;
  /** How the compared amount stands to the scaled one, as the words state it. */
  op?: CompareOp;
  /** Where the rate is written, and where each number of a worked example of it is. */
  spans: [number, number][];
}

const NUMBER = String.raw`\d[\d,]*(?:\.\d+)?`;
const SPELLED = String.raw`(?:${NUMBER_WORD}(?:[\s-]${NUMBER_WORD})*)`;
/** "1 ml for every 5 kg", "2 ml per kilo", "one instructor for every 8 children", "£4 per head". */
const UNIT_RATE = new RegExp(
  String.raw`(?:([£$€])\s?)?\b(${NUMBER}|(?:an?|${SPELLED})\b)\s?([a-z%]+(?:\s+(?!for\b|per\b|of\b)[a-z]+)?)(?:\s+of\s+[a-z]+)?\s+(?:for|per)\s+(every|each|per)?\s*(?:(${NUMBER}|${SPELLED}\b)\s?)?\b([a-z]+)\b`,
  "gi",
);
const FRACTIONS: Readonly<Record<string, [number, number]>> = {
  half: [1, 2],
  "a half": [1, 2],
  "one half": [1, 2],
  "a third": [1, 3],
  "one third": [1, 3],
  "two thirds": [2, 3],
  "a quarter": [1, 4],
  "one quarter": [1, 4],
  "three quarters": [3, 4],
  "a fifth": [1, 5],
  "one fifth": [1, 5],
  "a tenth": [1, 10],
  "one tenth": [1, 10],
  twice: [2, 1],
  double: [2, 1],
  triple: [3, 1],
  treble: [3, 1],
};
const DETERMINER = String.raw`(?:the|their|its|his|her|your|our|that|this)`;
/** "10% of the balance", "a tenth of the price", "half the fare", "twice the deposit", "three times the fee". */
const FRACTION_RATE = new RegExp(
  String.raw`\b(?:(${NUMBER})\s?(?:%|per\s?cent|percent)\s+of|(${Object.keys(FRACTIONS)
    .sort((a, b) => b.length - a.length)
    .map((f) => f.replace(/ /g, String.raw`\s+`))
    .join("|")})(?:\s+of)?|(${NUMBER}|[a-z]+)\s+times)\s+(?:what\s+)?${DETERMINER}\s+((?:[a-z_]+'s\s+)?[a-z_]+(?:\s+[a-z_]+)?)`,
  "gi",
);

/** Words that are no unit nor thing a rate is of. */
const NOT_A_SIDE = new Set(["every", "each", "per", "the", "a", "an", "of", "and", "or", "day", "week", "month", "year", "time", "times"]);

const numberOf = (written: string | undefined): number | undefined => {
  if (written === undefined) return undefined;
  const w = written.trim().toLowerCase();
  if (w === "a" || w === "an") return 1;
  if (/^\d/.test(w)) {
    const n = Number(w.replace(/,/g, ""));
    return Number.isFinite(n) ? n : undefined;
  }
  return wordsValue(w);
};

function sideOf(word: string, currency: boolean): RateSide | undefined {
  if (currency) return { unit: "money", stems: [] };
  const unit = unitAround("", ` ${word}`);
  if (unit !== undefined) return { unit, stems: [] };
  if (NOT_A_SIDE.has(word.toLowerCase())) return undefined;
  const stems = nameStems(word);
  return stems.length === 0 ? undefined : { stems };
}

/** The comparison words right around a rate state: what the compared amount may be against the scaled one. */
const LIMIT_BEFORE: readonly [RegExp, CompareOp][] = [
  [
    /\b(?:no|not|never)\s+more\s+than\s+$|\bat\s+most\s+$|\bup\s+to\s+$|\bmaximum\s+(?:of\s+)?$|\bcapped\s+at\s+$|\b(?:not|never|n't)\s+(?:\w+\s+)?(?:exceed|go\s+over|be\s+over|be\s+above|be\s+more\s+than)\s+$/i,
    "<=",
  ],
  [
    /\b(?:no|not|never)\s+less\s+than\s+$|\bat\s+least\s+$|\bminimum\s+(?:of\s+)?$|\b(?:not|never|n't)\s+(?:\w+\s+)?(?:go\s+)?(?:below|under|be\s+less\s+than)\s+$/i,
    ">=",
  ],
  [/\b(?:more\s+than|over|above|exceed(?:s|ing)?)\s+$/i, ">"],
  [/\b(?:less\s+than|under|below)\s+$/i, "<"],
];
const LIMIT_AFTER: readonly [RegExp, CompareOp][] = [
  [
    /^[\s,]*(?:and\s+|but\s+)?(?:never|not|no)\s+(?:a\s+|one\s+)?(?:\w+\s+)?(?:over|more|above)\b|^[\s,]*(?:at\s+(?:the\s+)?most|or\s+(?:less|fewer|under)|max(?:imum)?|tops)\b/i,
    "<=",
  ],
  [
    /^[\s,]*(?:and\s+|but\s+)?(?:never|not|no)\s+(?:a\s+|one\s+)?(?:\w+\s+)?(?:under|less|below|fewer)\b|^[\s,]*(?:at\s+(?:the\s+)?least|or\s+more|minimum)\b/i,
    ">=",
  ],
];

const NEGATED = /\b(?:no|not|never|cannot|none)\b|n't\b/i;

function stated(text: string, start: number, end: number): CompareOp | undefined {
  // Within the rate's own clause: back to the last stop, forward to the next.
  const before = text.slice(Math.max(0, start - 60), start);
  const clause = before.slice(Math.max(0, before.search(/[^.;:!?]*$/)));
  for (const [re, op] of LIMIT_BEFORE)
    if (re.test(clause))
      // "No refund may be more than twice the deposit": the clause's negation turns the excess into the limit.
      return op === ">" && NEGATED.test(clause) ? "<=" : op === "<" && NEGATED.test(clause) ? ">=" : op;
  // What the reference is of ("per kilo of bodyweight") stands between the rate and its limit.
  const after = text
    .slice(end, end + 60)
    .split(/[.;:!?]/)[0]!
    .replace(/^\s+of\s+[a-z]+/i, "");
  for (const [re, op] of LIMIT_AFTER) if (re.test(after)) return op;
  return undefined;
}

/** The rates the words write, in order. */
export function ratesIn(written: string): Rate[] {
  // Backticks read as the words they hold.
  const text = written.replace(/`/g, " ");
  const out: Rate[] = [];
  for (const m of text.matchAll(UNIT_RATE)) {
    const n = numberOf(m[2]);
    const every = m[5] !== undefined;
    const d = m[5] === undefined ? 1 : numberOf(m[5]);
    if (n === undefined || d === undefined || n <= 0 || d <= 0) continue;
    const compared = sideOf(m[3]!, m[1] !== undefined);
    const scaled = sideOf(m[6]!, false);
    if (compared === undefined || scaled === undefined) continue;
    const units = compared.unit !== undefined && scaled.unit !== undefined;
    // "2 refunds per customer" counts refunds per customer: a rate of two things the words name needs
    // its reference counted too ("for every 8 children"), or both sides in units ("ml per kg").
    if (!units && !(every && m[5] !== undefined && d >= 2)) continue;
    if (units && compared.unit === scaled.unit) continue;
    if (!units && m[4] === undefined) continue;
    const start = m.index!;
    const end = start + m[0].length;
    out.push({ mul: n, div: d, compared, scaled, ...opOf(text, start, end), spans: [[start, end]] });
  }
  for (const m of text.matchAll(FRACTION_RATE)) {
    let ratio: [number, number] | undefined;
    if (m[1] !== undefined) {
      const p = numberOf(m[1]);
      if (p !== undefined && p > 0) ratio = [p, 100];
    } else if (m[2] !== undefined) ratio = FRACTIONS[m[2].toLowerCase().replace(/\s+/g, " ")];
    else {
      const k = numberOf(m[3]);
      if (k !== undefined && k >= 2) ratio = [k, 1];
    }
    if (ratio === undefined) continue;
    const stems = m[4]!.split(/\s+/).flatMap((w) => nameStems(w.replace(/'s$/, "")));
    if (stems.length === 0) continue;
    const start = m.index!;
    const end = start + m[0].length;
    if (out.some((r) => r.spans[0]![0] < end && start < r.spans[0]![1])) continue;
    out.push({ mul: ratio[0], div: ratio[1], scaled: { stems }, ...opOf(text, start, end), spans: [[start, end]] });
  }
  for (const r of out) r.spans.push(...examplesOf(text, r));
  return out;
}

const opOf = (text: string, start: number, end: number): { op?: CompareOp } => {
  const op = stated(text, start, end);
  return op === undefined ? {} : { op };
};

/**
 * The numbers of a worked example of the rate: two numbers written near it (its sentence or the
 * next) whose ratio is the rate, each in its side's unit where the words give one ("a 60kg ewe gets
 * 12 ml": 12 ml = 60 kg / 5).
 */
function examplesOf(text: string, r: Rate): [number, number][] {
  const [start, end] = r.spans[0]!;
  const from = Math.max(0, text.lastIndexOf(".", start) + 1);
  const stop = text.slice(end).search(/[.!?](?:\s|$)/);
  const next = stop < 0 ? text.length : end + stop + 1;
  const stopNext = text.slice(next).search(/[.!?](?:\s|$)/);
  const until = stopNext < 0 ? text.length : next + stopNext + 1;
  const numbers = [
    ...writtenNumerals(text),
    // A number in words before a unit is one writtenNumerals keeps; bare small ones too ("twelve ml").
    ...spelledNumbers(text).map((s) => ({
      ...s,
      unit: unitAround(text.slice(Math.max(0, s.start - 5), s.start), text.slice(s.end, s.end + 30)),
    })),
  ].filter((x) => x.start >= from && x.end <= until && (x.end <= start || x.start >= end));
  const fits = (unit: string | undefined, side: RateSide | undefined) =>
    unit === undefined || side?.unit === undefined || unit === side.unit;
  const out: [number, number][] = [];
  for (const x of numbers)
    for (const y of numbers) {
      if (x === y || x.n <= 0) continue;
      const want = (x.n * r.mul) / r.div;
      if (Math.abs(y.n - want) > 1e-9 * Math.max(1, Math.abs(want))) continue;
      // Each in its side's unit, and at least one with a unit or a rate of things: two bare numbers may agree by chance.
      if (!fits(x.unit, r.scaled) || !fits(y.unit, r.compared)) continue;
      if (x.unit === undefined && y.unit === undefined) continue;
      out.push([x.start, x.end], [y.start, y.end]);
    }
  return out;
}

/** The text with the rates' numbers and their worked examples blanked out: what is left bounds values. */
export function withoutRates(text: string, rates: readonly Rate[]): string {
  let out = text;
  for (const r of rates)
    for (const [start, end] of r.spans) {
      const numbers = out
        .slice(start, end)
        .replace(/\d[\d,]*(?:\.\d+)?|[a-z]+/gi, (w) => (/^\d/.test(w) || wordsValue(w) !== undefined ? " ".repeat(w.length) : w));
      out = out.slice(0, start) + numbers + out.slice(end);
    }
  return out;
}
