/**
 * Judges synthesized from labels (issue 25). Given the rule verdicts a person
 * gave some samples, the drafter searches candidate readings of a rule over
 * the samples' vocabulary as replacements of a drafted check, additions, or
 * removals, each with the trigger the phrase draft had or the one the new
 * check implies. The candidates are every check type, with and without an
 * `after:` window, count bounds from the rule's numbers, and the extended
 * forms (docs/FORMATS.md §10): comparisons on numeric metadata (thresholds
 * the rule's sentences write first, else cuts between the values the samples
 * show), ranges, enumerated and negated values, `on:` the same key across two
 * events, `fresh`, `within`, counts `per:` a key, and a `condition` on the
 * latest earlier event's value. It keeps the readings that agree with most
 * labels, ranks them by how well their matchers match the rule's words (a
 * threshold the sentence writes counts), then by simplicity, and says where
 * the best and the runner-up disagree on an unlabeled sample: the verdict
 * question that separates them.
 *
 * Bounded and deterministic: candidates come from a fixed order over a capped
 * set of matchers, the most relevant first, at most a budget of candidates
 * and of readings per rule, at most a few rounds of changes, no randomness,
 * so the same input gives byte-identical drafts.
 */
import type { Trajectory, TrajectoryEvent } from "../../../runtime/types.js";
import type { Check, Matcher, MetaBehavior, Pattern, RangeOperator, ValueMatcher } from "../../ir/types.js";
import { matcherHolds, metadataString, valueHolds } from "../../ir/value-eval.js";
import { exactValue, valueTest } from "../../ir/values.js";
import { previewRule } from "../preview.js";
import { amountsIn } from "./amounts.js";
import type { Lexicon } from "./lexicon.js";
import { nameStems, parseCount, stemSet } from "./words.js";

export type Verdict = "true" | "false" | "na";
/** Labels by sample id, then rule name. */
export type RuleLabels = Readonly<Record<string, Readonly<Record<string, Verdict>>>>;

/** How much one rule's search may try: candidate checks built, readings (sets of checks with a trigger) judged. */
export interface SearchBudget {
  candidates: number;
  readings: number;
}
export const DEFAULT_BUDGET: Readonly<SearchBudget> = { candidates: 4000, readings: 60000 };

/** Matchers the search may use. */
const MAX_MATCHERS = 22;
/** Rounds of changes (replace, add, drop) to the drafted rule. */
const MAX_ROUNDS = 3;
/** Thresholds per numeric key: from the rule's words, and cuts between sample values. */
const MAX_WORD_NUMBERS = 4;
const MAX_SAMPLE_CUTS = 3;
/** Keys tried per pair of matchers for `on:`, per counted matcher for `per:`. */
const MAX_KEYS = 2;
/** Keys with more distinct values than this are identifiers, not categories. */
const MAX_CATEGORY_VALUES = 6;
const ANY_EVENT: Pattern = [{ actor: "user" }, { actor: "agent" }, { actor: "tool" }];

export interface Synthesis {
  rule: MetaBehavior;
  /** Labels of this rule the result agrees with, of how many. */
  agree: number;
  total: number;
  /** Whether the search changed the phrase draft. */
  changed: boolean;
  /** Other readings that agree with as many labels, best first (at most three). */
  runnerUps: MetaBehavior[];
  /** Unlabeled samples on which the best reading and the first runner-up disagree. */
  separating: string[];
  /** What the search tried: candidate checks built and readings judged (each within the budget). */
  searched: { candidates: number; readings: number };
}

type Vector = Verdict[];

interface SampleIndex {
  complete: boolean;
  events: readonly TrajectoryEvent[];
  /** Event indexes of each matcher, ascending. */
  hits: number[][];
}

/** A check over matcher indexes, evaluated on precomputed hits (docs/FORMATS.md §4, §10 for complete and incomplete traces). */
type Candidate =
  | { type: "ordering"; first: number; before: number; on?: string; fresh?: true }
  | { type: "pairing"; each: number; followedBy: number; on?: string; within?: number }
  | { type: "required" | "forbidden"; match: number; after?: number; on?: string }
  | { type: "count"; match: number; min?: number; max?: number; after?: number; per?: string }
  | { type: "condition"; each: number; bind: number; on?: string; key: string; test: ValueMatcher };

const keyValue = (s: SampleIndex, j: number, key: string | undefined): string | undefined =>
  key === undefined ? "" : metadataString(s.events[j]!, key);

function evaluateOrdering(c: Extract<Candidate, { type: "ordering" }>, s: SampleIndex): Verdict {
  const firsts = s.hits[c.first]!;
  const befores = s.hits[c.before]!;
  if (befores.length === 0) return "na";
  if (c.on === undefined && c.fresh === undefined) {
    const f = firsts[0];
    return f !== undefined && f < befores[0]! ? "true" : "false";
  }
  // Walk both in event order; at one event, it is judged as a `before` first, then may open as a `first`.
  const open = new Map<string | undefined, boolean>();
  let i = 0;
  for (const b of befores) {
    for (; i < firsts.length && firsts[i]! < b; i++) open.set(keyValue(s, firsts[i]!, c.on), true);
    const value = keyValue(s, b, c.on);
    if (value === undefined || open.get(value) !== true) return "false";
    if (c.fresh) open.set(value, false);
  }
  return "true";
}

function evaluatePairing(c: Extract<Candidate, { type: "pairing" }>, s: SampleIndex): Verdict {
  const eaches = s.hits[c.each]!;
  if (eaches.length === 0) return "na";
  const followers = s.hits[c.followedBy]!;
  if (c.on === undefined && c.within === undefined) {
    const lastFollower = followers.at(-1) ?? -1;
    if (lastFollower > eaches.at(-1)!) return "true";
    return s.complete ? "false" : "na";
  }
  const last = s.events.length - 1;
  let unsure = false;
  for (const e of eaches) {
    const value = keyValue(s, e, c.on);
    const limit = c.within === undefined ? last : e + c.within;
    const served = value !== undefined && followers.some((f) => f > e && f <= limit && keyValue(s, f, c.on) === value);
    if (served) continue;
    if (c.within !== undefined && limit <= last) return "false";
    if (s.complete) return "false";
    unsure = true;
  }
  return unsure ? "na" : "true";
}

function evaluateWindowed(c: Extract<Candidate, { type: "required" | "forbidden" | "count" }>, s: SampleIndex): Verdict {
  const h = s.hits;
  const on = c.type !== "count" ? c.on : undefined;
  if (on !== undefined && c.after !== undefined) {
    // Windows per key value, each opened by its first `after` event; an event is a match only in windows opened before it.
    const opened = new Map<string, number>();
    for (const a of h[c.after]!) {
      const value = keyValue(s, a, on);
      if (value !== undefined && !opened.has(value)) opened.set(value, a);
    }
    if (opened.size === 0) return "na";
    const served = new Set<string>();
    for (const m of h[c.match]!) {
      const value = keyValue(s, m, on);
      const start = value === undefined ? undefined : opened.get(value);
      if (start === undefined || m <= start) continue;
      if (c.type === "forbidden") return "false";
      served.add(value!);
    }
    if (c.type === "forbidden") return "true";
    return served.size === opened.size ? "true" : s.complete ? "false" : "na";
  }
  let start = -1;
  if (c.after !== undefined) {
    const w = h[c.after]![0];
    if (w === undefined) return "na";
    start = w;
  }
  const hits = h[c.match]!;
  if (c.type === "count" && c.per !== undefined) {
    // Bounds per value of the key among the matches; matches without it are not counted.
    const groups = new Map<string, number>();
    for (const m of hits) {
      if (m <= start) continue;
      const value = keyValue(s, m, c.per);
      if (value !== undefined) groups.set(value, (groups.get(value) ?? 0) + 1);
    }
    if (c.max !== undefined && [...groups.values()].some((n) => n > c.max!)) return "false";
    if (c.min !== undefined && [...groups.values()].some((n) => n < c.min!)) return s.complete ? "false" : "na";
    return "true";
  }
  let n = 0;
  for (let k = hits.length - 1; k >= 0 && hits[k]! > start; k--) n++;
  if (c.type === "forbidden") return n > 0 ? "false" : "true";
  if (c.type === "required") return n > 0 ? "true" : s.complete ? "false" : "na";
  if (c.type !== "count") return "na";
  if (c.max !== undefined && n > c.max) return "false";
  if (c.min !== undefined && n < c.min) return s.complete ? "false" : "na";
  return "true";
}

function evaluateCondition(c: Extract<Candidate, { type: "condition" }>, s: SampleIndex): Verdict {
  const eaches = s.hits[c.each]!;
  if (eaches.length === 0) return "na";
  const bound = s.hits[c.bind]!;
  for (const e of eaches) {
    const value = keyValue(s, e, c.on);
    let b: number | undefined;
    for (const j of bound) {
      if (j >= e) break;
      if (value !== undefined && keyValue(s, j, c.on) === value) b = j;
    }
    if (b === undefined || !valueHolds(metadataString(s.events[b]!, c.key), c.test)) return "false";
  }
  return "true";
}

function evaluate(c: Candidate, s: SampleIndex): Verdict {
  switch (c.type) {
    case "ordering":
      return evaluateOrdering(c, s);
    case "pairing":
      return evaluatePairing(c, s);
    case "condition":
      return evaluateCondition(c, s);
    default:
      return evaluateWindowed(c, s);
  }
}

function fold(verdicts: Verdict[]): Verdict {
  if (verdicts.includes("false")) return "false";
  return verdicts.includes("true") ? "true" : "na";
}

/** Numbers the rule's sentences write ("over $500", "more than 500 points", "between 10 and 20"), in order. */
function numbersIn(text: string): number[] {
  const found: number[] = [];
  for (const m of text.matchAll(/(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w.]*\w)/g)) {
    const n = Number(m[0].replace(/,/g, ""));
    if (Number.isFinite(n) && !found.includes(n)) found.push(n);
  }
  for (const a of amountsIn(text)) for (const b of Object.values(a.range)) if (typeof b === "number" && !found.includes(b)) found.push(b);
  return found.slice(0, MAX_WORD_NUMBERS);
}

const isDecimal = (v: string) => /^-?\d+(?:\.\d+)?$/.test(v.trim());

interface KeyFacts {
  key: string;
  /** Distinct values the samples show, in code-point order. */
  values: string[];
  numeric: boolean;
  /** For a numeric key: where to cut its values. */
  cuts: number[];
}

/** Per action, the metadata keys the samples show on it and their values. */
function keysByAction(samples: readonly Trajectory[], labelOf: (i: number) => Verdict | undefined): Map<string, KeyFacts[]> {
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

/** A key that names a thing (an order, a reservation) rather than a category or an amount. */
const identifying = (k: KeyFacts) => nameStems(k.key).includes("id") || (!k.numeric && k.values.length > MAX_CATEGORY_VALUES);
const isAmountKey = (k: KeyFacts) => k.numeric && !k.key.startsWith("@") && !nameStems(k.key).includes("id") && k.values.length >= 2;

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

/** The comparisons worth trying on a numeric key: the rule's thresholds (four ways and as ranges), then cuts between sample values. */
function thresholds(said: readonly number[], cuts: readonly number[]): RangeOperator[] {
  const out: RangeOperator[] = [];
  for (const n of said) out.push({ gt: n }, { gte: n }, { lt: n }, { lte: n });
  const sorted = said.slice().sort((a, b) => a - b);
  for (let i = 0; i + 1 < sorted.length; i++) out.push({ gte: sorted[i]!, lte: sorted[i + 1]! });
  for (const cut of cuts) if (!said.includes(cut)) out.push({ gt: cut }, { lte: cut });
  return out;
}

interface Vocab {
  matchers: Matcher[];
  relevance: number[];
  /** The relevance of any matcher, for a condition's tested value. */
  relevanceOf: (m: Matcher) => number;
  keys: Map<string, KeyFacts[]>;
  said: number[];
  /** The forms the rule's words hint at, each a small bonus in the ranking. */
  cues: Cues;
  words: Set<string>;
}

interface Cues {
  same: boolean;
  fresh: boolean;
  within: boolean;
  per: boolean;
}

/** Words that hint at an extended form: "that booking", "each time", "straight after", "per order". */
function cuesIn(text: string): Cues {
  return {
    same: /\b(?:same|that|this|matching|identical|corresponding)\s+[a-z]+/i.test(text),
    fresh: /\b(?:fresh|each time|every time|again|new|its own|anew)\b/i.test(text),
    within: /\b(?:immediately|right after|right away|straight after|straight away|next|at once|within)\b/i.test(text),
    per: /\b(?:per|each|every|for any one|for a single)\s+[a-z]+/i.test(text),
  };
}

/** The matchers worth trying: the draft's own, then sample actions and the values the rule's words name or the samples show. */
function candidateMatchers(
  lexicon: Lexicon,
  rule: MetaBehavior,
  text: string,
  samples: readonly Trajectory[],
  labelOf: (i: number) => Verdict | undefined,
): Vocab {
  const words = stemSet(text);
  const written = new Set([...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim()));
  const said = numbersIn(text);
  const stated = amountsIn(text).map((a) => JSON.stringify(a.range));
  const valueRelevance = (k: string, v: ValueMatcher): number => {
    const test = valueTest(v);
    const keyNamed = nameStems(k).some((s) => words.has(s)) ? 0.25 : 0;
    switch (test.op) {
      case "equals":
        if (written.has(`${k}: ${test.value}`)) return 2;
        return nameStems(test.value).some((s) => words.has(s)) ? 0.5 : -0.25;
      case "in":
        return test.values.filter((x) => nameStems(x).some((s) => words.has(s))).length * 0.3 - 0.35;
      case "not":
        return valueRelevance(k, test.inner) - 0.15;
      case "range": {
        // A threshold the sentence writes counts as its words; the comparison it states, a little more.
        const bounds = Object.values(test.range).filter((b): b is number => typeof b === "number");
        const fromWords = bounds.length > 0 && bounds.every((b) => said.includes(b));
        return (fromWords ? 1 : -0.3) + (stated.includes(JSON.stringify(test.range)) ? 0.5 : 0) + keyNamed;
      }
      default:
        return -0.25;
    }
  };
  const known = new Map<string, number>();
  const relevanceOf = (m: Matcher): number => {
    const id = JSON.stringify(m);
    let r = known.get(id);
    if (r === undefined) known.set(id, (r = matcherRelevance(m)));
    return r;
  };
  const matcherRelevance = (m: Matcher): number => {
    const action = exactValue(m.action) ?? "";
    const stems = nameStems(action).filter((s) => s !== "result");
    let score = stems.filter((s) => words.has(s)).length / Math.max(1, stems.length);
    if (written.has(action)) score += 2;
    for (const [k, v] of Object.entries(m.metadata ?? {})) score += valueRelevance(k, v);
    if (action.endsWith("_result") && !/\b(?:result|comes? back|returns?|reports?|flag|found|pass|fail|verified|approved)/i.test(text))
      score -= 0.25;
    return score;
  };
  const keys = keysByAction(samples, labelOf);
  const seen = new Map<string, Matcher>();
  const add = (m: Matcher) => {
    const key = JSON.stringify(m);
    if (!seen.has(key)) seen.set(key, m);
  };
  const own: Matcher[] = [];
  const collect = (p: Pattern | undefined) => p?.forEach((m) => own.push(m));
  collect(rule.trigger.match);
  for (const c of rule.checks) {
    if (c.type === "ordering") [c.first, c.before].forEach(collect);
    else if (c.type === "pairing") [c.each, c.followedBy].forEach(collect);
    else if (c.type !== "condition") [c.match, c.after].forEach(collect);
  }
  const pool: Matcher[] = [];
  const extended: Matcher[] = [];
  for (const a of lexicon.actions) {
    if (a.name === "message") continue;
    pool.push({ action: a.name });
    for (const meta of a.metadata) {
      if (meta.distinct > MAX_CATEGORY_VALUES || meta.distinct < 2) continue;
      for (const v of meta.values) pool.push({ action: a.name, metadata: { [meta.key]: v.value } });
    }
    for (const k of keys.get(a.name) ?? []) {
      if (isAmountKey(k)) {
        for (const range of thresholds(said, k.cuts)) extended.push({ action: a.name, metadata: { [k.key]: range } });
      } else if (!k.numeric && k.values.length >= 3 && k.values.length <= MAX_CATEGORY_VALUES) {
        for (const v of k.values) extended.push({ action: a.name, metadata: { [k.key]: { not: v } } });
        for (let i = 0; i < k.values.length; i++)
          for (let j = i + 1; j < k.values.length; j++)
            extended.push({ action: a.name, metadata: { [k.key]: { in: [k.values[i]!, k.values[j]!] } } });
      }
    }
  }
  const ranked = [...pool, ...extended]
    .map((m, i) => ({ m, i, r: relevanceOf(m) }))
    // Words the rule shares first; the rest of the vocabulary fills what the cap leaves, so that
    // labels can find what the wording does not name.
    .sort((a, b) => b.r - a.r || a.i - b.i);
  // The draft's own matchers first, but not content tests: the search reasons about events' names and values.
  for (const m of own) if (m.contentIncludes === undefined && m.content === undefined) add(m);
  for (const { m } of ranked) {
    if (seen.size >= MAX_MATCHERS) break;
    add(m);
  }
  const matchers = [...seen.values()];
  return { matchers, relevance: matchers.map(relevanceOf), relevanceOf, keys, said, cues: cuesIn(text), words };
}

/** Numbers the rule's words give, for count bounds ("no more than three", "twice", "once"). */
function boundsIn(text: string): number[] {
  const found = new Set<number>();
  for (const w of text.toLowerCase().split(/[^a-z0-9]+/)) {
    const n = w === "once" ? 1 : w === "twice" ? 2 : w === "thrice" ? 3 : parseCount(w);
    if (n !== undefined && n >= 0 && n <= 20) found.add(n);
  }
  return [...found].sort((a, b) => a - b);
}

/** Keys the samples show on the matcher's action (one action by name), with their facts. */
function keysOf(vocab: Vocab, m: Matcher): KeyFacts[] {
  const action = exactValue(m.action);
  return action === undefined ? [] : (vocab.keys.get(action) ?? []);
}

/** Keys both matchers' events carry that may tie two events to one thing (an id, a zone), identifiers first. */
function sharedKeys(vocab: Vocab, a: Matcher, b: Matcher): string[] {
  const theirs = new Map(keysOf(vocab, b).map((k) => [k.key, k]));
  const shared = keysOf(vocab, a).filter((k) => {
    const other = theirs.get(k.key);
    return other !== undefined && !k.key.startsWith("@") && !isAmountKey(k) && k.values.length >= 2 && other.values.length >= 2;
  });
  const ids = shared.filter((k) => identifying(k) || identifying(theirs.get(k.key)!));
  return [...ids, ...shared.filter((k) => !ids.includes(k))].map((k) => k.key).slice(0, MAX_KEYS);
}

/** Keys a count may group by: the turn, then the identifiers of the counted events. */
function groupKeys(vocab: Vocab, m: Matcher): string[] {
  const keys = keysOf(vocab, m);
  return [...keys.filter((k) => k.key === "@turn"), ...keys.filter((k) => k.key !== "@turn" && identifying(k))]
    .map((k) => k.key)
    .slice(0, MAX_KEYS);
}

/** The tests a condition may put on the bound event's key: its categorical values, its thresholds. */
function conditionTests(vocab: Vocab, bind: Matcher): { key: string; test: ValueMatcher }[] {
  const out: { key: string; test: ValueMatcher }[] = [];
  for (const k of keysOf(vocab, bind)) {
    if (k.key.startsWith("@")) continue;
    if (isAmountKey(k)) for (const range of thresholds(vocab.said, k.cuts)) out.push({ key: k.key, test: range });
    else if (k.values.length >= 2 && k.values.length <= MAX_CATEGORY_VALUES)
      for (const v of k.values) out.push({ key: k.key, test: v }, { key: k.key, test: { not: v } });
  }
  return out;
}

/** Every candidate check over the matchers, in a fixed order: the plain forms, then the extended ones. */
function candidates(vocab: Vocab, bounds: number[]): Candidate[] {
  const { matchers } = vocab;
  const count = matchers.length;
  const out: Candidate[] = [];
  const withins = [1, ...bounds.filter((n) => n >= 2 && n <= 5)];
  // "At most one per order" when the words give no number.
  const countBounds = bounds.some((n) => n >= 1) ? bounds.filter((n) => n >= 1) : [1];
  for (let a = 0; a < count; a++) {
    out.push({ type: "required", match: a }, { type: "forbidden", match: a });
    for (const n of bounds) out.push({ type: "count", match: a, max: n });
    for (const per of groupKeys(vocab, matchers[a]!)) for (const n of countBounds) out.push({ type: "count", match: a, max: n, per });
    for (let b = 0; b < count; b++) {
      if (a === b || overlapping(matchers[a]!, matchers[b]!)) continue;
      out.push({ type: "ordering", first: a, before: b }, { type: "pairing", each: a, followedBy: b });
      out.push({ type: "required", match: a, after: b }, { type: "forbidden", match: a, after: b });
      out.push({ type: "ordering", first: a, before: b, fresh: true });
      for (const within of withins) out.push({ type: "pairing", each: a, followedBy: b, within });
      for (const on of sharedKeys(vocab, matchers[a]!, matchers[b]!))
        out.push(
          { type: "ordering", first: a, before: b, on },
          { type: "pairing", each: a, followedBy: b, on },
          { type: "required", match: a, after: b, on },
          { type: "forbidden", match: a, after: b, on },
        );
      // A condition binds a plain action's latest event and tests one of its values.
      if (matchers[b]!.metadata === undefined && exactValue(matchers[b]!.action) !== undefined)
        for (const on of [undefined, ...sharedKeys(vocab, matchers[a]!, matchers[b]!)])
          for (const { key, test } of conditionTests(vocab, matchers[b]!))
            out.push({ type: "condition", each: a, bind: b, key, test, ...(on !== undefined ? { on } : {}) });
    }
  }
  return out;
}

/**
 * Two matchers on one action that may match the same event ("a refund" and "a refund over 500"):
 * a check between them says little. Exact, different values of one key name different events.
 */
function overlapping(a: Matcher, b: Matcher): boolean {
  const action = exactValue(a.action);
  if (action === undefined || action !== exactValue(b.action)) return false;
  for (const [key, value] of Object.entries(a.metadata ?? {})) {
    const other = b.metadata?.[key];
    const x = exactValue(value);
    const y = other === undefined ? undefined : exactValue(other);
    if (x !== undefined && y !== undefined && x !== y) return false;
  }
  return true;
}

const metadataRef = (key: string) => `metadata.${key}`;

/** The `when` expression that tests the bound event `r`'s key as the value matcher does. */
function whenOf(key: string, test: ValueMatcher): string {
  const ref = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `r.${key}` : `r[${JSON.stringify(key)}]`;
  const t = valueTest(test);
  if (t.op === "equals") return `${ref} == ${JSON.stringify(t.value)}`;
  if (t.op === "not") return `${ref} != ${JSON.stringify(exactValue(t.inner) ?? "")}`;
  if (t.op !== "range") throw new Error("internal: a condition tests equality or a range");
  const symbols = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
  return (Object.keys(symbols) as (keyof typeof symbols)[])
    .flatMap((op) => (t.range[op] === undefined ? [] : [`${ref} ${symbols[op]} ${String(t.range[op])}`]))
    .join(" && ");
}

function toCheck(c: Candidate, matchers: Matcher[], quote: string): Check {
  const p = (i: number): Pattern => [matchers[i]!];
  const on = "on" in c && c.on !== undefined ? { on: metadataRef(c.on) } : {};
  switch (c.type) {
    case "ordering":
      return { type: "ordering", quote, first: p(c.first), before: p(c.before), ...on, ...(c.fresh ? { fresh: true } : {}) };
    case "pairing":
      return {
        type: "pairing",
        quote,
        each: p(c.each),
        followedBy: p(c.followedBy),
        ...on,
        ...(c.within !== undefined ? { within: c.within } : {}),
      };
    case "count":
      return {
        type: "count",
        quote,
        match: p(c.match),
        ...(c.min !== undefined ? { min: c.min } : {}),
        ...(c.max !== undefined ? { max: c.max } : {}),
        ...(c.after !== undefined ? { after: p(c.after) } : {}),
        ...(c.per !== undefined ? { per: metadataRef(c.per) } : {}),
      };
    case "condition":
      return { type: "condition", quote, each: p(c.each), with: { r: { latest: p(c.bind), ...on } }, when: whenOf(c.key, c.test) };
    default:
      return { type: c.type, quote, match: p(c.match), ...(c.after !== undefined ? { after: p(c.after) } : {}), ...on };
  }
}

/** The matcher index a candidate is about, for the trigger it implies. */
function subjectOf(c: Candidate): number | "any" {
  switch (c.type) {
    case "ordering":
      return c.before;
    case "pairing":
    case "condition":
      return c.each;
    case "count":
      return c.after ?? c.match;
    default:
      return c.after ?? "any";
  }
}

function usedMatchers(c: Candidate): number[] {
  switch (c.type) {
    case "ordering":
      return [c.first, c.before];
    case "pairing":
      return [c.each, c.followedBy];
    case "condition":
      return [c.each, c.bind];
    default:
      return [c.match, ...(c.after !== undefined ? [c.after] : [])];
  }
}

/** Each extended form costs a little more than the plain one (simplicity). */
function extensions(c: Candidate): number {
  if (c.type === "condition") return 2 + (c.on !== undefined ? 1 : 0);
  let n = 0;
  if ("on" in c && c.on !== undefined) n++;
  if (c.type === "ordering" && c.fresh) n++;
  if (c.type === "pairing" && c.within !== undefined) n++;
  if (c.type === "count" && c.per !== undefined) n++;
  return n;
}

function score(c: Candidate, vocab: Vocab): number {
  const used = usedMatchers(c);
  // Words first; each extra matcher or form costs a little (simplicity).
  let words = used.reduce((sum, i) => sum + vocab.relevance[i]!, 0);
  if (c.type === "condition") {
    // The tested value scores as a matcher of the bound action carrying it would.
    const bind = vocab.matchers[c.bind]!;
    words += vocab.relevanceOf({ ...bind, metadata: { [c.key]: c.test } }) - vocab.relevance[c.bind]!;
  }
  return words + cueBonus(c, vocab) - 0.1 * used.length - 0.15 * extensions(c);
}

/** A form the words hint at scores a little more; a key the words name, more ("the same order": `order_id`). */
function cueBonus(c: Candidate, vocab: Vocab): number {
  const { cues } = vocab;
  const named = (key: string | undefined) => (key !== undefined && nameStems(key).some((s) => s !== "id" && vocab.words.has(s)) ? 0.15 : 0);
  let bonus = 0;
  if ("on" in c && c.on !== undefined) bonus += (cues.same ? 0.1 : 0) + named(c.on);
  if (c.type === "ordering" && c.fresh && cues.fresh) bonus += 0.1;
  if (c.type === "pairing" && c.within !== undefined && cues.within) bonus += 0.1;
  if (c.type === "count" && c.per !== undefined) bonus += (cues.per ? 0.1 : 0) + named(c.per);
  return bonus;
}

/** The matchers of a rule's search and where each occurs in every sample. */
function prepare(lexicon: Lexicon, rule: MetaBehavior, section: string, samples: readonly Trajectory[], labels: RuleLabels) {
  const labelOf = (i: number) => labels[samples[i]!.id]?.[rule.name];
  const vocab = candidateMatchers(lexicon, rule, `${rule.name}. ${section}`, samples, labelOf);
  const index: SampleIndex[] = samples.map((s) => ({
    complete: s.complete,
    events: s.events,
    hits: vocab.matchers.map((m) => s.events.flatMap((e, j) => (matcherHolds(e, m) ? [j] : []))),
  }));
  return { vocab, index };
}

/**
 * Every candidate check the search would try for the rule, in its order (before the budget
 * cuts), with the verdict its own evaluation gives on each sample: for the tests that hold that
 * evaluation to the judge's generated code.
 */
export function candidateVerdicts(
  lexicon: Lexicon,
  rule: MetaBehavior,
  section: string,
  samples: readonly Trajectory[],
): { check: Check; verdicts: Verdict[] }[] {
  const { vocab, index } = prepare(lexicon, rule, section, samples, {});
  return candidates(vocab, boundsIn(section)).map((c) => ({
    check: toCheck(c, vocab.matchers, rule.name),
    verdicts: index.map((x) => evaluate(c, x)),
  }));
}

interface Reading {
  /** Per kept drafted check: its index; per new one: the candidate. */
  parts: ({ drafted: number } | { candidate: Candidate; quote: string })[];
  trigger: { drafted: true } | { matcher: number | "any" };
  agree: number;
  score: number;
  vector: Vector;
}

/**
 * The rule re-read so that it agrees with the labels it has, or the rule as drafted when it
 * already does (or no label speaks of it). `quotes` are the section's obligations, for the
 * quote of an added check.
 */
export function synthesizeRule(
  lexicon: Lexicon,
  rule: MetaBehavior,
  section: string,
  obligations: readonly string[],
  samples: readonly Trajectory[],
  labels: RuleLabels,
  budget: Readonly<SearchBudget> = DEFAULT_BUDGET,
): Synthesis {
  const labeled = samples.map((s, i) => ({ i, label: labels[s.id]?.[rule.name] })).filter((x) => x.label !== undefined) as {
    i: number;
    label: Verdict;
  }[];
  const { vocab, index } = prepare(lexicon, rule, section, samples, labels);
  const { matchers } = vocab;
  // The drafted checks' own verdicts, ungated (the trigger is the search's to choose), from the judge's code.
  const ungated = previewRule({ ...rule, trigger: { description: "any event", match: ANY_EVENT } }, samples);
  const draftedVectors: Vector[] = rule.checks.map((_, k) => {
    const clause = ungated.clauses.find((c) => c.clause.kind === "check" && c.clause.index === k)!;
    return samples.map((s) => (clause.samples.pass.includes(s.id) ? "true" : clause.samples.fail.includes(s.id) ? "false" : "na"));
  });
  const gated = previewRule(rule, samples);
  const draftTrigger: boolean[] = samples.map((s) => gated.triggered.includes(s.id));
  const anyEvent = samples.map((s) => s.events.length > 0);
  const fired = matchers.map((_, m) => index.map((x) => x.hits[m]!.length > 0));
  const triggerVector = (t: Reading["trigger"]): boolean[] =>
    "drafted" in t ? draftTrigger : t.matcher === "any" ? anyEvent : fired[t.matcher]!;
  // Each candidate is evaluated once per sample; a reading folds the vectors of its parts.
  const cache = new Map<Candidate, Vector>();
  const partVector = (p: Reading["parts"][number]): Vector => {
    if ("drafted" in p) return draftedVectors[p.drafted]!;
    let v = cache.get(p.candidate);
    if (v === undefined) {
      const c = p.candidate;
      v = index.map((x) => evaluate(c, x));
      cache.set(c, v);
    }
    return v;
  };
  const vectorOf = (parts: Reading["parts"], trigger: Reading["trigger"]): Vector => {
    const fires = triggerVector(trigger);
    const vectors = parts.map(partVector);
    return samples.map((_, i) => (fires[i] ? fold(vectors.map((v) => v[i]!)) : "na"));
  };
  const agreement = (v: Vector) => labeled.filter((x) => v[x.i] === x.label).length;
  const readingScore = (parts: Reading["parts"]) =>
    parts.reduce((sum, p) => sum + ("drafted" in p ? 1 : score(p.candidate, vocab)), 0) - 0.05 * parts.length;
  const searched = { candidates: 0, readings: 0 };
  const make = (parts: Reading["parts"], trigger: Reading["trigger"]): Reading => {
    searched.readings++;
    const vector = vectorOf(parts, trigger);
    return { parts, trigger, vector, agree: agreement(vector), score: readingScore(parts) };
  };
  const drafted = make(
    rule.checks.map((_, k) => ({ drafted: k })),
    { drafted: true },
  );
  const result = (best: Reading, runnerUps: Reading[]): Synthesis => {
    const built = buildRule(rule, best, matchers);
    const runners = runnerUps.slice(0, 3).map((r) => buildRule(rule, r, matchers));
    const unlabeled = samples.map((s, i) => ({ s, i })).filter((x) => labels[x.s.id]?.[rule.name] === undefined);
    const separating =
      runnerUps.length === 0 ? [] : unlabeled.filter((x) => best.vector[x.i] !== runnerUps[0]!.vector[x.i]).map((x) => x.s.id);
    return {
      rule: built,
      agree: best.agree,
      total: labeled.length,
      changed: best !== drafted,
      runnerUps: runners,
      separating,
      searched: { ...searched },
    };
  };
  if (labeled.length === 0 || drafted.agree === labeled.length) return result(drafted, []);

  // The most promising candidates first (words, then simplicity, then the fixed order), as many as the budget allows.
  const all = candidates(vocab, boundsIn(section))
    .map((c, i) => ({ c, i, s: score(c, vocab) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, budget.candidates)
    .map((x) => x.c);
  searched.candidates = all.length;
  const obligationStems = obligations.map((o) => stemSet(o));
  const quotes = new Map<Candidate, string>();
  const quoteFor = (replaced: number | undefined, c: Candidate): string => {
    if (replaced !== undefined) return rule.checks[replaced]!.quote;
    const known = quotes.get(c);
    if (known !== undefined) return known;
    // The obligation whose words its matchers share most; the first one on a tie.
    const used = c.type === "required" || c.type === "forbidden" || c.type === "count" ? [c.match] : usedMatchers(c);
    const stems = new Set(used.flatMap((i) => nameStems(exactValue(matchers[i]!.action) ?? "")));
    let best = obligations[0] ?? rule.name;
    let most = -1;
    obligations.forEach((o, k) => {
      const shared = [...obligationStems[k]!].filter((s) => stems.has(s)).length;
      if (shared > most) [best, most] = [o, shared];
    });
    quotes.set(c, best);
    return best;
  };
  const spent = () => searched.readings >= budget.readings;
  /** Rounds of changes from the draft over the given candidates: the best reading, and the readings as good. */
  const search = (tried: readonly Candidate[]): { current: Reading; pool: Reading[] } => {
    let current = drafted;
    let pool: Reading[] = [drafted];
    for (let round = 0; round < MAX_ROUNDS && current.agree < labeled.length && !spent(); round++) {
      const next: Reading[] = [];
      const triggers = (c: Candidate | undefined): Reading["trigger"][] => {
        const t: Reading["trigger"][] = [current.trigger];
        if (c !== undefined) t.push({ matcher: subjectOf(c) });
        return t;
      };
      // Every reading counts against the budget; none is judged past it.
      const tryReading = (parts: Reading["parts"], t: Reading["trigger"]) => {
        if (!spent()) next.push(make(parts, t));
      };
      current.parts.forEach((_, k) => {
        const without = current.parts.filter((__, j) => j !== k);
        if (without.length > 0) for (const t of triggers(undefined)) tryReading(without, t);
      });
      for (const c of tried) {
        if (spent()) break;
        const replacedBy = (k: number) => {
          const p = current.parts[k]!;
          return { candidate: c, quote: "drafted" in p ? quoteFor(p.drafted, c) : p.quote };
        };
        for (const t of triggers(c)) {
          current.parts.forEach((_, k) =>
            tryReading(
              current.parts.map((p, j) => (j === k ? replacedBy(k) : p)),
              t,
            ),
          );
          tryReading([...current.parts, { candidate: c, quote: quoteFor(undefined, c) }], t);
        }
      }
      next.sort(compareReadings);
      const best = next[0];
      if (best === undefined || best.agree <= current.agree) break;
      current = best;
      pool = next.filter((r) => r.agree === best.agree);
    }
    return { current, pool };
  };
  // The plain forms over exact matchers first; the extended ones only when those leave a label unmet
  // or need more checks than one (simplicity): an extended reading must fit more labels, or as many
  // with fewer checks.
  const plainMatcher = matchers.map(
    (m) =>
      (m.action === undefined || exactValue(m.action) !== undefined) &&
      Object.values(m.metadata ?? {}).every((v) => exactValue(v) !== undefined),
  );
  const plain = all.filter((c) => extensions(c) === 0 && usedMatchers(c).every((i) => plainMatcher[i]));
  let { current, pool } = search(plain);
  if ((current.agree < labeled.length || current.parts.length > 1) && plain.length < all.length && !spent()) {
    const extended = search(all);
    const better = extended.current.agree - current.agree || current.parts.length - extended.current.parts.length;
    if (better > 0) ({ current, pool } = extended);
  }
  if (current === drafted) return result(drafted, []);
  // Runner-ups: other readings as good on the labels, that judge some sample differently.
  const distinct: Reading[] = [];
  for (const r of pool) {
    if (r === current || distinct.length >= 3) continue;
    if (r.vector.join() === current.vector.join() || distinct.some((d) => d.vector.join() === r.vector.join())) continue;
    distinct.push(r);
  }
  return result(current, distinct);
}

function compareReadings(a: Reading, b: Reading): number {
  return b.agree - a.agree || b.score - a.score || a.parts.length - b.parts.length;
}

function describe(pattern: Pattern): string {
  return pattern
    .map((m) => {
      const facts = Object.entries(m.metadata ?? {}).map(([k, v]) => `${k} ${exactValue(v) ?? describeOperator(v)}`);
      const what = exactValue(m.action) ?? m.actor ?? "matching";
      return facts.length === 0 ? what : `${what} (${facts.join(", ")})`;
    })
    .join(" or ");
}

function describeOperator(v: ValueMatcher): string {
  const t = valueTest(v);
  if (t.op === "range") {
    const symbols = { gt: ">", gte: "≥", lt: "<", lte: "≤" } as const;
    return (Object.keys(symbols) as (keyof typeof symbols)[])
      .flatMap((op) => (t.range[op] === undefined ? [] : [`${symbols[op]} ${String(t.range[op])}`]))
      .join(" and ");
  }
  if (t.op === "in") return `one of ${t.values.join(", ")}`;
  if (t.op === "not") return `not ${exactValue(t.inner) ?? ""}`;
  return "";
}

function buildRule(rule: MetaBehavior, reading: Reading, matchers: Matcher[]): MetaBehavior {
  const checks = reading.parts.map((p) => ("drafted" in p ? rule.checks[p.drafted]! : toCheck(p.candidate, matchers, p.quote)));
  const trigger =
    "drafted" in reading.trigger
      ? rule.trigger
      : reading.trigger.matcher === "any"
        ? { description: "An event occurs.", match: ANY_EVENT }
        : { description: `A ${describe([matchers[reading.trigger.matcher]!])} event occurs.`, match: [matchers[reading.trigger.matcher]!] };
  // A semantic check whose quote a new deterministic check now carries says the same thing twice.
  const quotes = new Set(checks.map((c) => c.quote));
  return { ...rule, trigger, checks, semanticChecks: rule.semanticChecks.filter((s) => !quotes.has(s.quote)) };
}
