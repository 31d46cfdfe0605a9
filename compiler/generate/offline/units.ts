/**
 * Units and numbers as rule sentences write them (issue 25), for the search from labels: which unit
 * a written number is in ("24 hours", "90 mL", "six thousand metres", "£250"), which unit a sample
 * key's name carries (`hours_out`, `ml`, `wire_m`, `wind_kn`, `value_gbp`, `copper_kg`), and
 * numbers written in words ("six thousand", "seven thousand five hundred", "one and a half").
 *
 * A number written with a unit measures what that unit measures: "out of the freezer for 24
 * hours" is a bound on a key in hours, never on a key in millilitres, and a key in hours is never
 * compared with a key in millilitres. Where either side carries no known unit (a key `value`, a
 * bare "400"), nothing is ruled out: the unit only removes readings the words contradict.
 */

import { spelledNumbers } from "./number-words.js";

/** Each unit: how a sentence writes it after a number, and the words of a key's name that carry it. */
export const UNITS: Readonly<Record<string, { written: readonly string[]; keys: readonly string[] }>> = {
  hours: { written: ["hours", "hour", "hrs", "hr", "h"], keys: ["hours", "hour", "hrs", "hr", "h"] },
  minutes: { written: ["minutes", "minute", "mins", "min"], keys: ["minutes", "minute", "mins", "min"] },
  seconds: { written: ["seconds", "secs", "sec"], keys: ["seconds", "secs", "sec", "s"] },
  milliseconds: { written: ["ms", "milliseconds", "millisecond", "msec"], keys: ["ms", "msec", "millis"] },
  days: { written: ["days", "day", "nights", "night"], keys: ["days", "day", "nights"] },
  weeks: { written: ["weeks", "week", "wks"], keys: ["weeks", "week", "wks"] },
  months: { written: ["months", "month"], keys: ["months", "month"] },
  years: { written: ["years", "year", "yrs", "years old"], keys: ["years", "year", "yrs", "age"] },
  ml: { written: ["ml", "millilitres", "milliliters", "millilitre", "milliliter"], keys: ["ml"] },
  litres: { written: ["litres", "liters", "litre", "liter", "l"], keys: ["litres", "liters", "l", "ltr"] },
  metres: { written: ["metres", "meters", "metre", "meter", "m"], keys: ["metres", "meters", "m"] },
  km: { written: ["km", "kilometres", "kilometers", "kilometre", "kilometer"], keys: ["km"] },
  cm: { written: ["cm", "centimetres", "centimeters"], keys: ["cm"] },
  mm: { written: ["mm", "millimetres", "millimeters"], keys: ["mm"] },
  miles: { written: ["miles", "mile"], keys: ["miles", "mi"] },
  kg: { written: ["kg", "kilos", "kilo", "kilograms", "kilogram", "kgs"], keys: ["kg", "kgs", "kilos"] },
  grams: { written: ["grams", "gram", "g"], keys: ["g", "grams"] },
  mg: { written: ["mg", "milligrams", "milligram"], keys: ["mg"] },
  tonnes: { written: ["tonnes", "tonne", "tons", "ton", "t"], keys: ["tonnes", "tons", "t"] },
  knots: { written: ["knots", "knot", "kn", "kts", "kt"], keys: ["kn", "knots", "kts", "kt"] },
  kmh: { written: ["km/h", "kph", "kmh", "kilometres an hour", "kilometers an hour"], keys: ["kmh", "kph"] },
  mph: { written: ["mph", "miles an hour", "miles per hour"], keys: ["mph"] },
  percent: { written: ["%", "percent", "per cent"], keys: ["pct", "percent", "percentage", "perc"] },
  celsius: {
    written: ["°c", "ºc", "° c", "degrees c", "degrees celsius", "celsius", "degrees centigrade"],
    keys: ["c", "celsius", "degc"],
  },
  fahrenheit: { written: ["°f", "ºf", "° f", "degrees f", "degrees fahrenheit", "fahrenheit"], keys: ["f", "fahrenheit", "degf"] },
  money: {
    written: ["pounds", "pound", "dollars", "dollar", "euros", "euro", "gbp", "usd", "eur", "pence", "quid"],
    keys: [
      "gbp",
      "usd",
      "eur",
      "amount",
      "cost",
      "costs",
      "price",
      "fee",
      "fees",
      "charge",
      "balance",
      "refund",
      "payment",
      "owed",
      "spend",
      "fare",
      "deposit",
      "salary",
      "wage",
      "cash",
    ],
  },
};

/** A key word of more than one unit's list would make the lexicon ambiguous; none is (units.test.ts). */
const KEY_UNIT = new Map(Object.entries(UNITS).flatMap(([unit, u]) => u.keys.map((k) => [k, unit] as const)));
const WRITTEN_UNIT = new Map(Object.entries(UNITS).flatMap(([unit, u]) => u.written.map((w) => [w, unit] as const)));
/** Unit words after a number, longest first so that "km/h" is read before "km", "degrees celsius" before "celsius". */
const WRITTEN = [...WRITTEN_UNIT.keys()].sort((a, b) => b.length - a.length);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&").replace(/ /g, "\\s+");
/** A unit right after a number: "24 hours", "90mL", "2,000 metres", "25 km/h", "20%". */
const UNIT_AFTER = new RegExp(String.raw`^[\s-]?(${WRITTEN.map(escape).join("|")})(?![A-Za-z])`, "i");
/** A currency before a number: "£250", "$ 1,000", "GBP 500", "US$40". */
const CURRENCY_BEFORE = /(?:[$€£]|\b(?:GBP|USD|EUR|US\$))\s?$/i;

/** The words of a key's name, lower case: `hours_out` → hours, out; `windKn` → wind, kn. */
function keyWords(key: string): string[] {
  return key
    .replace(/^metadata\./, "")
    .split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

/**
 * The unit a key's name carries, or undefined: `hours_out` hours, `wire_m` metres, `value_gbp`
 * money, `age` years. A one-letter word names a unit only after another word (`swell_m`, `temp_c`,
 * never a key `m` alone); a unit word wins over a word of money (`cost_pct` is a percentage).
 */
export function keyUnit(key: string): string | undefined {
  const words = keyWords(key);
  const units = words.flatMap((w, i) => {
    const unit = KEY_UNIT.get(w);
    return unit === undefined || (w.length === 1 && i === 0) ? [] : [unit];
  });
  return units.find((u) => u !== "money") ?? units[0];
}

/** The unit written right after a number (`after`: the text that follows it) or a currency before it, or undefined. */
export function unitAround(before: string, after: string): string | undefined {
  if (CURRENCY_BEFORE.test(before)) return "money";
  const m = UNIT_AFTER.exec(after);
  return m === null ? undefined : WRITTEN_UNIT.get(m[1]!.toLowerCase().replace(/\s+/g, " "));
}

/**
 * Whether a number written in `unit` may bound a key: yes when either carries no known unit, else
 * only when the key's unit is the number's ("24 hours" on `hours_out`, not on `ml`).
 */
export function unitFits(unit: string | undefined, key: string): boolean {
  if (unit === undefined) return true;
  const mine = keyUnit(key);
  return mine === undefined || mine === unit;
}

/** Whether two keys may be compared with each other: not when their names carry two different units (`hours_out`, `ml`). */
export function comparableKeys(a: string, b: string): boolean {
  const [x, y] = [keyUnit(a), keyUnit(b)];
  return x === undefined || y === undefined || x === y;
}

export interface Numeral {
  n: number;
  start: number;
  end: number;
  /** The unit written with it ("24 hours": hours), if any. */
  unit: string | undefined;
}

const DIGITS = /(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w.]*\w)/g;
/** A number attached to its unit ("24h", "90mL", "5kg"): the digits, then the unit. */
const ATTACHED = new RegExp(
  String.raw`(?<![\w.])(\d[\d,]*(?:\.\d+)?)(?=(?:${WRITTEN.filter((w) => /^[a-z%°º]/i.test(w))
    .map(escape)
    .join("|")})(?![A-Za-z]))`,
  "gi",
);

/**
 * The numbers a sentence writes as bounds, in order: every number in digits, and a number in words
 * when it is one a bound is written with: with a scale ("six thousand", "a dozen", "one and a
 * half") or followed by a unit ("twenty-five knots"). A small number in words alone ("any one
 * winch", "the one who", "two steps") counts things or names one: it bounds no value.
 */
export function writtenNumerals(text: string): Numeral[] {
  const out: Numeral[] = [];
  const unitAt = (start: number, end: number) => unitAround(text.slice(Math.max(0, start - 5), start), text.slice(end, end + 30));
  for (const m of text.matchAll(DIGITS)) {
    const n = Number(m[0].replace(/,/g, ""));
    if (Number.isFinite(n)) out.push({ n, start: m.index!, end: m.index! + m[0].length, unit: unitAt(m.index!, m.index! + m[0].length) });
  }
  for (const m of text.matchAll(ATTACHED)) {
    const n = Number(m[1]!.replace(/,/g, ""));
    if (Number.isFinite(n)) out.push({ n, start: m.index!, end: m.index! + m[1]!.length, unit: unitAt(m.index!, m.index! + m[1]!.length) });
  }
  for (const s of spelledNumbers(text)) {
    const unit = unitAt(s.start, s.end);
    if (s.scaled || unit !== undefined) out.push({ n: s.n, start: s.start, end: s.end, unit });
  }
  return out.sort((a, b) => a.start - b.start);
}
