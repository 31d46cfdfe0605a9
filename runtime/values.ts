/**
 * The values of `when` expressions (LANGUAGE.md §4) and the number and date
 * readings the `{gt, gte, lt, lte}` matchers share with them. Generated code
 * calls these helpers; the compiler folds literals at build time, so a
 * literal `500` or `"2024-05-14"` reaches them already as a number or an
 * epoch instant. Nothing here throws: an incomparable pair is simply false.
 */
import type { StepEvent } from "./stepper.js";

/** A value of a `when` expression. Metadata, content, action and actor read as strings; missing metadata is null. */
export type WhenValue = string | number | boolean | null;

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The number a string spells as a strict decimal (`-12`, `3.5`, `.5`, `5.`,
 * `1e3`), or undefined: no spaces, no `0x`, no `Infinity`, nothing empty, and
 * nothing that overflows to an infinity. `-0` reads as 0, so a figure prints the same way whichever zero it came from.
 */
export function toNumber(s: string): number | undefined {
  if (!DECIMAL.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n + 0 : undefined;
}

// Groups: year, month, day, then (optional) hour, minute, second, fraction, zone.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const MS_PER_DAY = 86_400_000;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's
 * days_from_civil). Arithmetic rather than Date.UTC, which reads years 0–99
 * as 1900–1999.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The zone's offset east of UTC in minutes (`Z` is 0), or undefined when its hour or minute is out of range. */
function zoneMinutes(zone: string): number | undefined {
  if (zone === "Z") return 0;
  const digits = zone.replace(":", "");
  const hours = Number(digits.slice(1, 3));
  const minutes = Number(digits.slice(3, 5));
  if (hours > 23 || minutes > 59) return undefined;
  return (zone[0] === "-" ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * The instant (epoch milliseconds) of a strict ISO-8601 date `YYYY-MM-DD`
 * (its midnight UTC) or date-time `YYYY-MM-DDTHH:MM[:SS[.fraction]][zone]`,
 * zone `Z`, `±HH:MM` or `±HHMM`, none meaning UTC; else undefined. The
 * calendar is checked (2023-02-29 and 25:00 are not dates); a fraction beyond
 * milliseconds is truncated.
 */
export function toInstant(s: string): number | undefined {
  const m = ISO.exec(s);
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  const zone = m[8] === undefined ? 0 : zoneMinutes(m[8]);
  if (zone === undefined) return undefined;
  const local = daysFromCivil(year, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
  return local - zone * 60_000;
}

/** The number `v` stands for (a number, or a string that is a decimal number), else NaN: every comparison with NaN is false. */
export function numberOf(v: WhenValue): number {
  if (typeof v === "number") return v;
  if (typeof v !== "string") return NaN;
  return toNumber(v) ?? NaN;
}

/** The instant `v` stands for (a string that is an ISO date), else NaN. */
export function instantOf(v: WhenValue): number {
  return typeof v === "string" ? (toInstant(v) ?? NaN) : NaN;
}

/**
 * `a == b`: numeric when both are numbers (numeric strings count), as
 * instants when both are ISO dates, else equal only when both are the same
 * string, both null, or the same boolean. No string is both a number and a
 * date, which is what lets the string case stop at the first reading that fits.
 */
export function valueEquals(a: WhenValue, b: WhenValue): boolean {
  if (typeof a === "string" && typeof b === "string") {
    if (a === b) return true;
    const x = toNumber(a);
    if (x !== undefined) return x === toNumber(b);
    const s = toInstant(a);
    return s !== undefined && s === toInstant(b);
  }
  if (typeof a === "number" || typeof b === "number") return numberOf(a) === numberOf(b);
  return a === b;
}

/**
 * The order of `a` and `b`: negative, zero or positive when both are numbers
 * or both ISO dates, else NaN, so that `valueOrder(a, b) < 0` (and every other
 * ordering test of it) is false for an incomparable pair.
 */
export function valueOrder(a: WhenValue, b: WhenValue): number {
  const x = numberOf(a);
  const y = numberOf(b);
  if (x === x && y === y) return x < y ? -1 : x > y ? 1 : 0;
  const s = instantOf(a);
  const t = instantOf(b);
  if (s === s && t === t) return s < t ? -1 : s > t ? 1 : 0;
  return NaN;
}

/**
 * `v in [...]` over a literal list the compiler has sorted by kind: the
 * numbers (numeric strings among them, already read), the instants of its
 * date strings, its other strings, and whether it holds null. A number can
 * only equal a number, a date only a date, any other string only itself.
 */
export function valueIn(
  v: WhenValue,
  numbers: readonly number[],
  instants: readonly number[],
  strings: readonly string[],
  orNull: boolean,
): boolean {
  if (v === null) return orNull;
  if (typeof v === "number") return numbers.includes(v);
  if (typeof v !== "string") return false;
  const n = toNumber(v);
  if (n !== undefined) return numbers.includes(n);
  if (instants.length > 0) {
    const t = toInstant(v);
    if (t !== undefined) return instants.includes(t);
  }
  return strings.includes(v);
}

/** A result that is not a finite number (an overflow, 0/0) is null, like every other result that is not a number. */
function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x + 0 : null;
}

/** `a + b` over numbers (numeric strings count); null if either is not a number. */
export function valueAdd(a: WhenValue, b: WhenValue): number | null {
  return finiteOrNull(numberOf(a) + numberOf(b));
}

/** `a - b` over numbers; null if either is not a number. */
export function valueSubtract(a: WhenValue, b: WhenValue): number | null {
  return finiteOrNull(numberOf(a) - numberOf(b));
}

/** `a * b` over numbers; null if either is not a number. */
export function valueMultiply(a: WhenValue, b: WhenValue): number | null {
  return finiteOrNull(numberOf(a) * numberOf(b));
}

/** `a / b` over numbers; null if either is not a number or `b` is 0. */
export function valueDivide(a: WhenValue, b: WhenValue): number | null {
  const divisor = numberOf(b);
  return divisor === 0 ? null : finiteOrNull(numberOf(a) / divisor);
}

/** `-a` over numbers; null if `a` is not a number. */
export function valueNegate(a: WhenValue): number | null {
  return finiteOrNull(-numberOf(a));
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The value of metadata key `key` of `e`, or null when missing. Only an own
 * string property counts: metadata may come straight from JSON.parse, where
 * `constructor` or `toString` would otherwise be found on the prototype.
 */
export function metadataValue(e: StepEvent, key: string): string | null {
  const metadata = e.metadata;
  if (typeof metadata !== "object" || metadata === null || !hasOwn.call(metadata, key)) return null;
  const value = metadata[key];
  return typeof value === "string" ? value : null;
}

const INDEX = /^\d+$/;

/**
 * `count(x.prefix.*)`: how many distinct N the event has a flattened metadata
 * key `prefix.N` or `prefix.N.…` for (N a run of digits, compared as written),
 * so `flights.0.date`, `flights.0.origin` and `flights.1.date` count 2.
 */
export function countIndexed(e: StepEvent, prefix: string): number {
  const metadata = e.metadata;
  if (typeof metadata !== "object" || metadata === null) return 0;
  const head = `${prefix}.`;
  const seen = new Set<string>();
  for (const key of Object.keys(metadata)) {
    if (!key.startsWith(head) || typeof metadata[key] !== "string") continue;
    const end = key.indexOf(".", head.length);
    const index = key.slice(head.length, end < 0 ? key.length : end);
    if (INDEX.test(index)) seen.add(index);
  }
  return seen.size;
}
