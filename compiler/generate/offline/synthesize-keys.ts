/**
 * What the search from labels (issue 25) knows of the samples' metadata keys: per action, the keys
 * and their values, whether a key is a category, an amount or an identifier, the numbers the
 * rule's sentences write, and the thresholds worth trying on a numeric key (those numbers, else
 * cuts between sample values at the roundest number of their gap).
 */
import type { Trajectory } from "../../../runtime/types.js";
import { toInstant } from "../../../runtime/values.js";
import type { RangeOperator } from "../../ir/types.js";
import { amountsIn } from "./amounts.js";
import type { Verdict } from "./synthesize-eval.js";
import type { WrittenCut } from "./synthesize-numbers.js";
import { withoutReferences } from "./synthesize-references.js";
import { withoutStepCounts } from "./step-counts.js";
import { unitFits, writtenNumerals } from "./units.js";
import { nameStems } from "./words.js";

/** Thresholds per numeric key: from the rule's words, and cuts between sample values. */
const MAX_WORD_NUMBERS = 4;
const MAX_SAMPLE_CUTS = 3;
/** Keys tried per pair of matchers for `on:`, per counted matcher for `per:`. */
export const MAX_KEYS = 2;
/** Keys with more distinct values than this are identifiers, not categories. */
export const MAX_CATEGORY_VALUES = 6;

/**
 * Numbers the rule's sentences write ("over $500", "more than 500 points", "between 10 and 20", "six
 * thousand metres"), in order.
 */
export function numbersIn(written: string): number[] {
  // A clause's, a version's or a date's number names something; it bounds nothing.
  // Nor does a count of steps ("within 3 steps of"): that is a window (step-counts.ts).
  const text = withoutStepCounts(withoutReferences(written));
  const found: number[] = [];
  for (const { n } of writtenNumerals(text)) if (!found.includes(n)) found.push(n);
  for (const a of amountsIn(text)) for (const b of Object.values(a.range)) if (typeof b === "number" && !found.includes(b)) found.push(b);
  return found.slice(0, MAX_WORD_NUMBERS);
}

/** Per number the rule's sentences write, the units it is written with ("24 hours": hours); none for a bare number. */
export function unitsOfNumbers(written: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const { n, unit } of writtenNumerals(withoutStepCounts(withoutReferences(written)))) {
    const units = out.get(n) ?? [];
    if (unit !== undefined && !units.includes(unit)) units.push(unit);
    out.set(n, units);
  }
  return out;
}

/**
 * The numbers a key may be compared with: those written with no unit, or with the key's own
 * ("24 hours" on `hours_out`, never on `ml`; units.ts). A number written once with a unit and once
 * bare is that unit's.
 */
export function saidOn(said: readonly number[], units: ReadonlyMap<number, readonly string[]>, key: string): number[] {
  return said.filter((n) => {
    const written = units.get(n) ?? [];
    return written.length === 0 || written.some((u) => unitFits(u, key));
  });
}

const isDecimal = (v: string) => /^-?\d+(?:\.\d+)?$/.test(v.trim());

export interface KeyFacts {
  key: string;
  /** Distinct values the samples show, in code-point order. */
  values: string[];
  numeric: boolean;
  /** For a numeric key: where to cut its values. */
  cuts: number[];
}

/** Per action, the metadata keys the samples show on it and their values. */
export function keysByAction(samples: readonly Trajectory[], labelOf: (i: number) => Verdict | undefined): Map<string, KeyFacts[]> {
  const seen = new Map<string, Map<string, Set<string>>>();
  for (const t of samples)
    for (const e of t.events)
      for (const [key, value] of Object.entries(e.metadata ?? {})) {
        if (typeof value !== "string") continue;
        let keys = seen.get(e.action);
        if (keys === undefined) seen.set(e.action, (keys = new Map()));
        let values = keys.get(key);
        if (values === undefined) keys.set(key, (values = new Set()));
        values.add(value);
      }
  const out = new Map<string, KeyFacts[]>();
  for (const [action, keys] of seen)
    out.set(
      action,
      [...keys]
        .map(([key, values]) => {
          const list = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          const numeric = list.every(isDecimal);
          return { key, values: list, numeric, cuts: numeric ? cutsOf(samples, labelOf, action, key, list) : [] };
        })
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    );
  return out;
}

function cutsOf(
  samples: readonly Trajectory[],
  labelOf: (i: number) => Verdict | undefined,
  action: string,
  key: string,
  values: readonly string[],
): number[] {
  const labeled = samples.flatMap((t, i) => {
    const label = labelOf(i);
    const shown = t.events.flatMap((e) => (e.action === action && isDecimal(e.metadata?.[key] ?? "") ? [Number(e.metadata![key])] : []));
    return label === undefined || shown.length === 0 ? [] : [{ values: shown, label }];
  });
  return sampleCuts(values.map(Number), labeled);
}

/**
 * Whether a key's values are categories a rule can speak of, not references to one thing (ids,
 * URLs, paths, addresses) or free text: in a few samples those have few values too, and a value
 * of one fits labels by chance.
 */
const REFERENCE_KEYS = new Set([
  "id",
  "url",
  "uri",
  "link",
  "path",
  "href",
  "email",
  "hash",
  "token",
  "file",
  "citation",
  "reference",
  "ref",
  "title",
]);
export function categorical(key: string, values: readonly (string | { value: string })[]): boolean {
  if (
    key
      .toLowerCase()
      .split(/[^a-z]+/)
      .some((w) => REFERENCE_KEYS.has(w) || REFERENCE_KEYS.has(w.replace(/s$/, "")))
  )
    return false;
  // Dates are instants a rule compares, not categories it names.
  if (values.every((x) => toInstant(typeof x === "string" ? x : x.value) !== undefined)) return false;
  const text = values.map((x) => (typeof x === "string" ? x : x.value));
  // A key whose every value names one person or one thing (a roster's names, plates, truck codes) refers, as an id does.
  if (text.every(namesOne)) return false;
  return text.every((v) => !/:\/\/|^\/|@|\s\S+\s\S+\s/.test(v) && v.length <= 40);
}

/**
 * A value that names one person or one thing rather than a kind: a person's name as rosters write it
 * ("M. Kaur", "J. P. Amara") or a code of capitals with digits or hyphens (a plate "5HRA776", a truck "TR-3", a balloon "G-SKYL").
 */
const PERSON = /^[A-Z]\.(?:\s?[A-Z]\.)*\s[A-Z][\p{L}'-]+$/u;
const CODE = /^(?=.*[A-Z])(?=.*[0-9-])[A-Z0-9]+(?:-[A-Z0-9]+)*$/;
const namesOne = (v: string) => PERSON.test(v) || CODE.test(v);

/** A key that names a thing (an order, a reservation) rather than a category or an amount. */
export const identifying = (k: KeyFacts) => nameStems(k.key).includes("id") || (!k.numeric && k.values.length > MAX_CATEGORY_VALUES);
export const isAmountKey = (k: KeyFacts) => k.numeric && !k.key.startsWith("@") && !nameStems(k.key).includes("id") && k.values.length >= 2;

/** The roundest number in [low, high): 500 between 480 and 520, so that a cut reads as a person would write it. */
export function roundestIn(low: number, high: number): number {
  for (let k = Math.ceil(Math.log10(Math.max(Math.abs(low), Math.abs(high), 1))) + 1; k >= -3; k--)
    for (const m of [5, 2, 1]) {
      const step = m * 10 ** k;
      const r = Math.ceil(low / step) * step;
      if (r >= low && r < high) return Number(r.toPrecision(12));
    }
  return low;
}

/**
 * Where to cut a numeric key's sample values: between neighbouring values whose samples the
 * labels judge differently (each labeled sample by the largest and the smallest value it shows),
 * else evenly over the values; each cut at the roundest number of its gap.
 */
function sampleCuts(values: readonly number[], labeled: readonly { values: number[]; label: Verdict }[]): number[] {
  const gaps: [number, number][] = [];
  for (const pick of [(v: number[]) => Math.max(...v), (v: number[]) => Math.min(...v)]) {
    const points = labeled.map((x) => ({ v: pick(x.values), label: x.label })).sort((a, b) => a.v - b.v);
    for (let i = 0; i + 1 < points.length; i++) {
      const [a, b] = [points[i]!, points[i + 1]!];
      if (a.v < b.v && a.label !== b.label && !gaps.some(([lo, hi]) => lo === a.v && hi === b.v)) gaps.push([a.v, b.v]);
    }
  }
  if (gaps.length === 0) {
    const sorted = [...new Set(values)].sort((a, b) => a - b);
    const step = Math.max(1, Math.ceil((sorted.length - 1) / MAX_SAMPLE_CUTS));
    for (let i = 0; i + 1 < sorted.length; i += step) gaps.push([sorted[i]!, sorted[i + 1]!]);
  }
  return [...new Set(gaps.slice(0, MAX_SAMPLE_CUTS).map(([lo, hi]) => roundestIn(lo, hi)))];
}

/**
 * The comparisons worth trying on a numeric key: the rule's thresholds (each way the words allow, and
 * as ranges), then cuts between sample values. A number the words compare ("above 400") is tried on
 * their side of it only (`> 400`, `<= 400`; never `>= 400`, `< 400`); one they do not compare, four ways.
 */
export function thresholds(said: readonly number[], cuts: readonly number[], written: readonly WrittenCut[] = []): RangeOperator[] {
  const out: RangeOperator[] = [];
  for (const n of said) {
    const sides = new Set(written.filter((c) => c.n === n).map((c) => c.cut));
    if (sides.size === 0 || sides.has("above")) out.push({ gt: n });
    if (sides.size === 0 || sides.has("below")) out.push({ gte: n });
    if (sides.size === 0 || sides.has("below")) out.push({ lt: n });
    if (sides.size === 0 || sides.has("above")) out.push({ lte: n });
  }
  const sorted = said.slice().sort((a, b) => a - b);
  for (let i = 0; i + 1 < sorted.length; i++) out.push({ gte: sorted[i]!, lte: sorted[i + 1]! });
  for (const cut of cuts) if (!said.includes(cut)) out.push({ gt: cut }, { lte: cut });
  return out;
}
