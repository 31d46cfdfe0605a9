/**
 * Conditions with arithmetic, two bounds and edges, for the search from labels (issue 25).
 *
 * - A rate the words write (rates.ts: "1 ml for every 5 kg", "no more than twice the deposit") is
 *   a comparison of two events' amounts with one side scaled: `event.dose_ml <= r.kg / 5`. Its keys
 *   are those that carry its units (`dose_ml`, `kg`) or that its words name (`deposit`).
 * - A condition may hold two bounds the words write, each number on the key it is written with
 *   ("errors under 0.5% and p99 at or below 900ms": `error_pct`, `p99_ms`; "under twenty kilos" on
 *   `kg`), or one of those and a comparison of two events: six labels seldom show a sample that
 *   breaks one bound and not the other, and the words ask for both.
 * - Where labels cannot tell `>` from `>=`, the words do: "on or after the visit date" states the
 *   order of its two keys and its edge; "a waiver that runs out on the day of the visit is good for
 *   that day" states the edge (the equal value passes).
 */
import { valueDivide, valueMultiply, valueOrder } from "../../../runtime/values.js";
import type { TrajectoryEvent } from "../../../runtime/types.js";
import type { RangeOperator, ValueMatcher } from "../../ir/types.js";
import { metadataString } from "../../ir/value-eval.js";
import { valueTest } from "../../ir/values.js";
import { BETWEEN_KEYS, alternation, type ComparisonOp } from "./comparisons.js";
import { keyRef } from "./keys.js";
import { ratesIn, withoutRates, type CompareOp, type Rate, type RateSide } from "./rates.js";
import { cutFit, type WrittenCut } from "./synthesize-numbers.js";
import { keyUnit, writtenNumerals } from "./units.js";
import { canonical, nameStems, words } from "./words.js";

/** One side of a comparison scaled by a rate: `r.kg / 5` (side "key", the bound event's) or `event.deposit * 2` ("other"). */
export interface Scale {
  mul: number;
  div: number;
  side: "key" | "other";
}

/** A comparison of the bound event's `key` with the judged event's `other` (synthesize-forms.ts's Cross). */
interface Cross {
  key: string;
  op: CompareOp;
  other: string;
  scale?: Scale;
}

/** Per action and key, the kind of its values and the sessions that show it (synthesize-forms.ts's KeyUses). */
type KeyUses = ReadonlyMap<string, ReadonlyMap<string, { kind: string; bySample: ReadonlyMap<number, unknown> }>>;

const FLIP: Readonly<Record<CompareOp, CompareOp>> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!=" };
const ORDERED_OPS: readonly CompareOp[] = ["<=", ">=", "<", ">"];

/** `x * mul / div` as the judge's code computes it (runtime/values.ts): null when x is no number. */
function scaled(x: string | number | null, s: Scale): number | string | null {
  let v: string | number | null = x;
  if (s.mul !== 1) v = valueMultiply(v, s.mul);
  if (s.div !== 1) v = valueDivide(v, s.div);
  return v;
}

const holds = (order: number, op: CompareOp): boolean =>
  op === "<"
    ? order < 0
    : op === "<="
      ? order <= 0
      : op === ">"
        ? order > 0
        : op === ">="
          ? order >= 0
          : op === "=="
            ? order === 0
            : order !== 0;

/**
 * Whether a scaled comparison holds, read as its `when` text is (scaledExpression): the unscaled
 * side first, the scaled one after the operator.
 */
export function scaledHolds(bound: TrajectoryEvent, each: TrajectoryEvent, c: Cross & { scale: Scale }): boolean {
  const a = metadataString(bound, c.key) ?? null;
  const b = metadataString(each, c.other) ?? null;
  return c.scale.side === "key" ? holds(valueOrder(b, scaled(a, c.scale)), FLIP[c.op]) : holds(valueOrder(a, scaled(b, c.scale)), c.op);
}

const factor = (s: Scale) => `${s.mul !== 1 ? ` * ${String(s.mul)}` : ""}${s.div !== 1 ? ` / ${String(s.div)}` : ""}`;

/** `event.dose_ml <= r.kg / 5`: the amount compared first, the scaled reference after. */
export function scaledExpression(c: Cross & { scale: Scale }): string {
  return c.scale.side === "key"
    ? `${keyRef("event", c.other)} ${FLIP[c.op]} ${keyRef("r", c.key)}${factor(c.scale)}`
    : `${keyRef("r", c.key)} ${c.op} ${keyRef("event", c.other)}${factor(c.scale)}`;
}

/** Key pairs a rate compares per pair of actions. */
const MAX_RATE_PAIRS = 2;

/** How a key stands to a side of a rate: 2 its unit or its name's words, 1 an amount of no unit the words name, 0 not. */
function sideFit(key: string, side: RateSide, named: (key: string) => boolean): number {
  const unit = keyUnit(key);
  if (side.unit !== undefined) return unit === side.unit ? 2 : unit === undefined && named(key) ? 1 : 0;
  const stems = nameStems(key).filter((s) => s !== "id");
  return side.stems.some((s) => stems.includes(s)) ? 2 : 0;
}

const numeric = (uses: KeyUses, action: string) =>
  [...(uses.get(action) ?? new Map())].filter(([key, u]) => u.kind === "number" && !nameStems(key).includes("id")).map(([key]) => key);

/** Whether the samples show keys the rate can compare: one of its reference, another of what it bounds. */
export function grounded(rate: Rate, uses: KeyUses, named: (key: string) => boolean): boolean {
  const all = [...uses.keys()].flatMap((a) => numeric(uses, a));
  const ref = all.filter((k) => sideFit(k, rate.scaled, named) === 2);
  if (ref.length === 0) return false;
  return all.some((k) => !ref.includes(k) && (rate.compared === undefined ? named(k) : sideFit(k, rate.compared, named) > 0));
}

/** The actions whose keys a rate compares, in the samples' order: a condition binds them plain. */
export function rateActions(rates: readonly Rate[], uses: KeyUses, named: (key: string) => boolean): string[] {
  return [...uses.keys()].filter((a) =>
    numeric(uses, a).some((k) =>
      rates.some((r) => sideFit(k, r.scaled, named) === 2 || (r.compared !== undefined && sideFit(k, r.compared, named) > 0)),
    ),
  );
}

/** The rates of the words the samples' keys can carry. */
export function groundedRates(text: string, uses: KeyUses, named: (key: string) => boolean): Rate[] {
  return ratesIn(text).filter((r) => grounded(r, uses, named));
}

/**
 * The scaled comparisons of the rates between a key of the bound action and one of the judged
 * action, the words' own comparison first: each rate's reference on either event, what it bounds
 * on the other, both shown in one session.
 */
export function rateCrosses(
  uses: KeyUses,
  each: string,
  bind: string,
  on: string | undefined,
  rates: readonly Rate[],
  named: (key: string) => boolean,
): Cross[] {
  const out: Cross[] = [];
  const together = (x: string, kx: string, y: string, ky: string) => {
    const a = uses.get(x)?.get(kx);
    const b = uses.get(y)?.get(ky);
    return a !== undefined && b !== undefined && [...a.bySample.keys()].some((i) => b.bySample.has(i));
  };
  for (const rate of rates) {
    if (rate.mul === rate.div) continue;
    const pairs: { key: string; other: string; side: Scale["side"]; fit: number }[] = [];
    for (const side of ["key", "other"] as const) {
      const [refAction, boundAction] = side === "key" ? [bind, each] : [each, bind];
      for (const ref of numeric(uses, refAction)) {
        if (ref === on || sideFit(ref, rate.scaled, named) !== 2) continue;
        for (const cmp of numeric(uses, boundAction)) {
          if (cmp === on || cmp === ref) continue;
          const fit = rate.compared === undefined ? (named(cmp) ? 1 : 0) : sideFit(cmp, rate.compared, named);
          if (fit === 0 || !together(refAction, ref, boundAction, cmp)) continue;
          pairs.push(side === "key" ? { key: ref, other: cmp, side, fit } : { key: cmp, other: ref, side, fit });
        }
      }
    }
    pairs.sort((x, y) => y.fit - x.fit);
    for (const p of pairs.slice(0, MAX_RATE_PAIRS)) {
      const scale: Scale = { mul: rate.mul, div: rate.div, side: p.side };
      // The rate's op is "what it bounds <op> the scaled reference"; a cross reads `r.key <op> event.other`.
      const ops = rate.op === undefined ? ORDERED_OPS : [rate.op, ...ORDERED_OPS.filter((o) => o !== rate.op)];
      for (const op of ops) out.push({ key: p.key, op: p.side === "key" ? FLIP[op] : op, other: p.other, scale });
    }
  }
  return out;
}

/** What the words add to a scaled comparison: the rate they write, and the comparison they state of it. */
export function rateRelevance(c: Cross & { scale: Scale }, text: string): number {
  const rate = ratesOf(text).find((r) => r.mul === c.scale.mul && r.div === c.scale.div);
  if (rate === undefined) return 0;
  // As a threshold the words write counts (synthesize-vocab.ts); the side they state, a little more.
  const op = c.scale.side === "key" ? FLIP[c.op] : c.op;
  return 1 + (rate.op === undefined ? 0 : rate.op === op ? 0.4 : -0.2);
}

const known = new Map<string, Rate[]>();
function ratesOf(text: string): Rate[] {
  let r = known.get(text);
  if (r === undefined) {
    if (known.size > 64) known.clear();
    known.set(text, (r = ratesIn(text)));
  }
  return r;
}

/** Words that compare two keys' values with no number between them, strict and not (comparisons.ts), and limits of amounts. */
const BETWEEN_OPS: readonly [string, ComparisonOp][] = [
  ...(Object.entries(BETWEEN_KEYS) as [ComparisonOp, readonly string[]][]).flatMap(([op, ws]) =>
    ws.map((w) => [w, op] as [string, ComparisonOp]),
  ),
  ...(["at most", "no more than", "not more than", "up to", "no greater than"].map((w) => [w, "lte"]) as [string, ComparisonOp][]),
  ...(["at least", "no less than", "not less than"].map((w) => [w, "gte"]) as [string, ComparisonOp][]),
  ...(["more than", "greater than", "exceeds", "exceed", "above", "over"].map((w) => [w, "gt"]) as [string, ComparisonOp][]),
  ...(["less than", "below", "under"].map((w) => [w, "lt"]) as [string, ComparisonOp][]),
];
const BETWEEN_RE = new RegExp(String.raw`\b(${alternation(BETWEEN_OPS.map(([w]) => w))})\b`, "gi");
const SYMBOL: Readonly<Record<ComparisonOp, CompareOp>> = { gt: ">", gte: ">=", lt: "<", lte: "<=" };
const COMPLEMENT: Readonly<Record<CompareOp, CompareOp>> = { "<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "==" };
const NEGATION = /\b(?:not|never|no)\s+(?:\w+\s+)?$|n't\s+(?:\w+\s+)?$/i;
/** Words before and after the comparison words where its two keys are looked for. */
const LEFT_WORDS = 8;
const RIGHT_WORDS = 6;

/**
 * The comparison the words state between the bound event's `key` and the judged event's `other`,
 * as `r.key <op> event.other`: "a valid-until date on or after the visit date" is `valid_until >=
 * visit_date`. The key named first after the comparison words is its right side, the other key
 * named in the words before them its left; a negation before them turns it ("must not be later
 * than"). Undefined when no sentence states it.
 */
export function statedOrder(text: string, key: string, other: string): CompareOp | undefined {
  // Asked for every comparison candidate of a rule's search, of a few pairs of keys: read once per text and pair.
  let byPair = statedOrders.get(text);
  if (byPair === undefined) {
    if (statedOrders.size > 64) statedOrders.clear();
    statedOrders.set(text, (byPair = new Map()));
  }
  const pair = `${key}\n${other}`;
  if (byPair.has(pair)) return byPair.get(pair);
  const op = readOrder(text, key, other);
  byPair.set(pair, op);
  return op;
}

const statedOrders = new Map<string, Map<string, CompareOp | undefined>>();

function readOrder(text: string, key: string, other: string): CompareOp | undefined {
  const mine = new Set(nameStems(key).filter((s) => s !== "id" && !nameStems(other).includes(s)));
  const theirs = new Set(nameStems(other).filter((s) => s !== "id" && !nameStems(key).includes(s)));
  if (mine.size === 0 || theirs.size === 0) return undefined;
  const side = (w: string) => (mine.has(canonical(w.toLowerCase())) ? "key" : theirs.has(canonical(w.toLowerCase())) ? "other" : undefined);
  for (const sentence of text.replace(/`/g, " ").split(/(?<=[.!?;])\s+/))
    for (const m of sentence.matchAll(BETWEEN_RE)) {
      const op = BETWEEN_OPS.find(([w]) => w === m[1]!.toLowerCase().replace(/\s+/g, " "))?.[1];
      if (op === undefined) continue;
      const before = sentence.slice(0, m.index);
      const right = words(sentence.slice(m.index! + m[0].length))
        .slice(0, RIGHT_WORDS)
        .map(side)
        .find((s) => s !== undefined);
      if (right === undefined) continue;
      const left = words(before).slice(-LEFT_WORDS).map(side);
      if (!left.includes(right === "key" ? "other" : "key")) continue;
      const stated = NEGATION.test(before) ? COMPLEMENT[SYMBOL[op]] : SYMBOL[op];
      return right === "other" ? stated : FLIP[stated];
    }
  return undefined;
}

/** "The same day is good", "on the dot is fine", "exactly 900 doesn't need": the equal value passes. */
const EQUAL_PASSES =
  /\b(?:on\s+the\s+(?:same\s+)?day|on\s+the\s+dot|on\s+the\s+nose|exactly|to\s+the\s+(?:day|minute|penny))\b[^.;]{0,60}?\b(?:(?:is|are|'s|still)\s+(?:still\s+)?(?:good|fine|ok|okay|valid|allowed|acceptable|in\s+date)|counts|does\s+not\s+need|doesn't\s+need|needs\s+no|is\s+no\s+problem)\b/i;
/** "On the day is too late", "exactly 900 is not allowed": the equal value fails. */
const EQUAL_FAILS =
  /\b(?:on\s+the\s+(?:same\s+)?day|on\s+the\s+dot|on\s+the\s+nose|exactly|to\s+the\s+(?:day|minute|penny))\b[^.;]{0,60}?\b(?:(?:is|are|'s)\s+(?:not|too\s+late|too\s+early|no\s+good|out)|isn't|aren't|doesn't\s+count|does\s+not\s+count|won't\s+do|will\s+not\s+do)\b/i;

/** Whether the words say the equal value passes (true), fails (false), or nothing (undefined). */
export function equalPasses(text: string): boolean | undefined {
  const passes = EQUAL_PASSES.test(text);
  const fails = EQUAL_FAILS.test(text);
  return passes === fails ? undefined : passes;
}

/**
 * What the words add to an ordered comparison of two keys: the comparison they state (its order
 * and its edge), else the edge alone ("on the day … is good"). Labels seldom hold a sample with
 * the two values equal; the words decide the edge there.
 */
export function edgeRelevance(c: Cross, text: string): number {
  if (c.op === "==" || c.op === "!=") return 0;
  const stated = statedOrder(text, c.key, c.other);
  if (stated !== undefined) return stated === c.op ? 0.3 : 0;
  const equal = equalPasses(text);
  if (equal === undefined) return 0;
  return (c.op === "<=" || c.op === ">=") === equal ? 0.15 : 0;
}

/** Tests of one key, with its number and the words' side of it, the words write on that key. */
interface Owned {
  key: string;
  test: ValueMatcher;
}

/** Words before a number where the key it is written on is named ("p99 at or below 900ms", "errors under 0.5%"). */
const NAMED_BEFORE = 5;

/**
 * Whether the words write the range's number on this key, of the bound action's `keys`: right after
 * words that name it ("p99 at or below 900", "errors under 0.5%"), else, where they name none of
 * the keys there, in the key's own unit ("twenty kilos" on `kg`). One number with its unit on its
 * own key: two bounds of one condition are not two readings of one number, and "0.5%" after
 * "errors" is no bound of `rollout_pct`. The range must keep the side of its number the words cut
 * (synthesize-numbers.ts): "under 0.5%" is `< 0.5` or `>= 0.5`, never `> 0.5`.
 */
export function ownBound(text: string, key: string, test: ValueMatcher, keys: readonly string[], cuts: readonly WrittenCut[]): boolean {
  const t = valueTest(test);
  if (t.op !== "range") return false;
  const bounds = Object.values(t.range as RangeOperator).filter((b): b is number => typeof b === "number");
  if (bounds.length !== 1 || cutFit(t.range, cuts, "test") === "contradicts") return false;
  return ownsNumber(text, key, bounds[0]!, keys);
}

/** Whether the words write `n` on this key, of `keys` (ownBound); asked once per text, key, number and keys. */
const owning = new Map<string, boolean>();
function ownsNumber(text: string, key: string, n: number, keys: readonly string[]): boolean {
  const id = JSON.stringify([text, key, n, keys]);
  let owns = owning.get(id);
  if (owns === undefined) {
    if (owning.size > 4096) owning.clear();
    owning.set(id, (owns = ownsNumberOf(text, key, n, keys)));
  }
  return owns;
}

function ownsNumberOf(text: string, key: string, n: number, keys: readonly string[]): boolean {
  const stemsOf = (k: string) => {
    const unit = keyUnit(k);
    return new Set(nameStems(k).filter((s) => s !== "id" && (unit === undefined || s !== canonical(unit))));
  };
  const all = [...new Set([key, ...keys])].map((k) => ({ k, stems: stemsOf(k), unit: keyUnit(k) }));
  const at = numeralsOf(text).filter((x) => x.n === n);
  const named = at.flatMap((x) => {
    const before = words(text.slice(Math.max(0, x.start - 60), x.start))
      .slice(-NAMED_BEFORE)
      .map((w) => canonical(w.toLowerCase()));
    return all.filter((o) => before.some((w) => o.stems.has(w))).map((o) => o.k);
  });
  // Where one writing of the number names its key ("errors of more than 2% … 2% on the nose"), the number is that key's.
  if (named.length > 0) return named.includes(key);
  return at.some((x) => x.unit !== undefined && keyUnit(key) === x.unit);
}

/**
 * The actions on which the words write two bounds, each on its own key ("wind under 15 knots and
 * cloud base at or above 1000" on the weather report): a condition binds them plain.
 */
export function boundActions(
  keys: ReadonlyMap<string, readonly { key: string; numeric: boolean }[]>,
  text: string,
  said: readonly number[],
): string[] {
  const out: string[] = [];
  for (const [action, facts] of keys) {
    const numeric = facts.filter((k) => k.numeric && !k.key.startsWith("@")).map((k) => k.key);
    const owners = numeric.filter((k) => said.some((n) => ownsNumber(text, k, n, numeric)));
    if (owners.length >= 2) out.push(action);
  }
  return out;
}

const numerals = new Map<string, ReturnType<typeof writtenNumerals>>();
function numeralsOf(text: string) {
  let r = numerals.get(text);
  if (r === undefined) {
    if (numerals.size > 64) numerals.clear();
    numerals.set(text, (r = writtenNumerals(withoutRates(text, ratesOf(text)))));
  }
  return r;
}

/** Pairs of tests on two keys whose numbers the words write each on its own key, in the order of the tests; a few. */
const MAX_BOUND_PAIRS = 6;
export function ownedPairs(tests: readonly Owned[], text: string, cuts: readonly WrittenCut[]): [Owned, Owned][] {
  const keys = [...new Set(tests.map((t) => t.key))];
  const owned = tests.filter((t) => typeof t.test !== "string" && ownBound(text, t.key, t.test, keys, cuts));
  const out: [Owned, Owned][] = [];
  for (let i = 0; i < owned.length && out.length < MAX_BOUND_PAIRS; i++)
    for (let j = i + 1; j < owned.length && out.length < MAX_BOUND_PAIRS; j++) {
      const [x, y] = [owned[i]!, owned[j]!];
      if (x.key !== y.key) out.push([x, y]);
    }
  return out;
}
