/**
 * The candidates of the search from labels (issue 25): the matchers a rule's search may use (the
 * draft's own, the samples' actions and values, thresholds from the rule's numbers or cuts between
 * sample values), every candidate check over them in a fixed order, its score by the rule's words,
 * and the check it becomes.
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { Check, Matcher, MetaBehavior, Pattern, RangeOperator, ValueMatcher } from "../../ir/types.js";
import { exactValue, valueTest } from "../../ir/values.js";
import { amountsIn } from "./amounts.js";
import type { Lexicon } from "./lexicon.js";
import { keyRef } from "./keys.js";
import { extensions, usedMatchers, type Candidate, type Verdict } from "./synthesize-eval.js";
import {
  categorical,
  identifying,
  isAmountKey,
  keysByAction,
  MAX_CATEGORY_VALUES,
  MAX_KEYS,
  numbersIn,
  thresholds,
  type KeyFacts,
} from "./synthesize-keys.js";
import {
  absentMatchers,
  actionsOf,
  crossesOf,
  crossExpression,
  crossRelevance,
  keyUses,
  listMatchers,
  listsIn,
  namedBy,
  statedThresholds,
  unionMatchers,
  type Cross,
  type WrittenList,
} from "./synthesize-forms.js";
import { writtenCuts, writtenWithins, type WrittenCut } from "./synthesize-numbers.js";
import { writtenBound } from "./synthesize-written.js";
import { nameStems, parseCount, stemSet } from "./words.js";

export { categorical, roundestIn } from "./synthesize-keys.js";

/** Matchers the search may use. */
const MAX_MATCHERS = 22;
export interface Vocab {
  matchers: Matcher[];
  relevance: number[];
  /** The relevance of any matcher, for a condition's tested value. */
  relevanceOf: (m: Matcher) => number;
  keys: Map<string, KeyFacts[]>;
  said: number[];
  /** Where the words cut at the numbers they compare ("above 400"): a threshold keeps the words' side. */
  cuts: WrittenCut[];
  wordsOnly: boolean;
  /** The forms the rule's words hint at, each a small bonus in the ranking. */
  cues: Cues;
  words: Set<string>;
  text: string;
  /** The comparisons a condition binding `bind` may make with the `each` event's keys. */
  crosses: (each: Matcher, bind: Matcher, on: string | undefined) => Cross[];
}

interface Cues {
  same: boolean;
  fresh: boolean;
  /** The step counts the words give a `within` ("within two steps", "immediately": 1). */
  within: number[];
  per: boolean;
  sum: boolean;
}

/** Words that speak of a size without writing it: "a big refund", "large amounts", "an expensive booking". */
const SIZE_WORDS =
  /\b(?:big|bigger|biggest|large|larger|largest|small|smaller|smallest|high|higher|low|lower|huge|tiny|expensive|cheap|costly|excessive|substantial|significant|amounts?|sums?|prices?|costs?|values?|totals?|sizes?|thresholds?)\b/i;

const SUMMED =
  /\b(?:total|totals|totalling|totaling|in total|combined|altogether|add(?:s|ed|ing)? up|(?:added|taken|counted) together|sum)\b/i;

/** Words that hint at an extended form: "that booking", "each time", "straight after", "per order". */
function cuesIn(text: string, wordsOnly: boolean): Cues {
  return {
    same: /\b(?:same|that|this|matching|identical|corresponding)\s+[a-z]+/i.test(text),
    fresh: /\b(?:fresh|each time|every time|again|new|its own|anew)\b/i.test(text),
    within: writtenWithins(text),
    per: /\b(?:per|each|every|for any one|for a single|to any one|to one|for one)\s+[a-z]+/i.test(text),
    // With labels, "added up" and "taken together" too (the words' own reading has its own, summed.ts).
    sum: (wordsOnly ? /\b(?:total|totals|totalling|totaling|in total|combined|altogether|add up|adds up|sum)\b/i : SUMMED).test(text),
  };
}

/** The matchers worth trying: the draft's own, then sample actions and the values the rule's words name or the samples show. */
export function candidateMatchers(
  lexicon: Lexicon,
  rule: MetaBehavior,
  text: string,
  samples: readonly Trajectory[],
  labelOf: (i: number) => Verdict | undefined,
  /**
   * Reading from the words alone (no labels): a number the words compare is tried on their side of it
   * only. With labels every side is tried, the ranking preferring the words' own.
   */
  wordsOnly = false,
): Vocab {
  const words = stemSet(text);
  const written = new Set([...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim()));
  const said = numbersIn(text);
  const cuts = writtenCuts(text);
  const stated = amountsIn(text).map((a) => JSON.stringify(a.range));
  const lists = listsIn(lexicon, text);
  const listed = new Set(lists.map((l) => `${l.key}\n${JSON.stringify(l.values)}`));
  const valueRelevance = (k: string, v: ValueMatcher): number => {
    const test = valueTest(v);
    const keyNamed = nameStems(k).some((s) => words.has(s)) ? 0.25 : 0;
    switch (test.op) {
      case "equals":
        if (written.has(`${k}: ${test.value}`)) return 2;
        return nameStems(test.value).some((s) => words.has(s)) ? 0.5 : -0.25;
      case "in":
        // A list the sentence writes counts as its words, a little more than one of its values.
        if (listed.has(`${k}\n${JSON.stringify(test.values)}`)) return 2.1;
        return test.values.filter((x) => nameStems(x).some((s) => words.has(s))).length * 0.3 - 0.35;
      case "not":
        return valueRelevance(k, test.inner) - 0.15;
      case "range": {
        // A threshold the sentence writes counts as its words; the comparison it states, a little more.
        const bounds = Object.values(test.range).filter((b): b is number => typeof b === "number");
        const fromWords = bounds.length > 0 && bounds.every((b) => said.includes(b));
        return (fromWords ? 1 : -0.3) + (stated.includes(JSON.stringify(test.range)) ? 0.5 : 0) + keyNamed;
      }
      case "exists":
        return !test.present && keyNamed > 0 ? 0.5 + (written.has(k) ? 0.5 : 0) : -0.25;
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
    const union = actionsOf(m);
    // One of two actions: as the two would, on average, less a little (simplicity).
    if (union.length > 1) return union.reduce((sum, a) => sum + relevanceOf({ ...m, action: a }), 0) / union.length - 0.3;
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
  // A cut between sample values reads a size the words speak of without a number ("a big refund").
  // Where they speak of none and name no such key, a cut only fits the labels: a rule that says
  // "at most two orders" is not re-read as "no refund over 30" because one stale label says so.
  if (!SIZE_WORDS.test(text))
    for (const facts of keys.values()) for (const k of facts) if (!nameStems(k.key).some((s) => words.has(s))) k.cuts = [];
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
      // A `key: value` the words write is a category they name even when the samples show no other value.
      if (wordsOnly && meta.distinct === 1 && written.has(`${meta.key}: ${meta.values[0]!.value}`)) {
        pool.push({ action: a.name, metadata: { [meta.key]: meta.values[0]!.value } });
        continue;
      }
      if (meta.distinct > MAX_CATEGORY_VALUES || meta.distinct < 2 || !categorical(meta.key, meta.values)) continue;
      for (const v of meta.values) pool.push({ action: a.name, metadata: { [meta.key]: v.value } });
    }
    for (const k of keys.get(a.name) ?? []) {
      if (isAmountKey(k)) {
        for (const range of thresholds(said, k.cuts, wordsOnly ? cuts : []))
          extended.push({ action: a.name, metadata: { [k.key]: range } });
      } else if (!k.numeric && k.values.length >= 3 && k.values.length <= MAX_CATEGORY_VALUES && categorical(k.key, k.values)) {
        for (const v of k.values) extended.push({ action: a.name, metadata: { [k.key]: { not: v } } });
        // Two of the values, unless the words write the list.
        if (!lists.some((l) => l.key === k.key))
          for (let i = 0; i < k.values.length; i++)
            for (let j = i + 1; j < k.values.length; j++)
              extended.push({ action: a.name, metadata: { [k.key]: { in: [k.values[i]!, k.values[j]!] } } });
      }
    }
  }
  // A list with a threshold: the one its own sentence states (and its complement), else its numbers.
  const thresholdsOf = (action: string, k: { key: string }, list: WrittenList) => {
    const facts = keys.get(action)?.find((f) => f.key === k.key);
    if (facts === undefined || !isAmountKey(facts)) return [];
    const stated = statedThresholds(list.sentence);
    if (stated.length > 0) return stated;
    // "at least 4", "4 or higher" cut below the number; the rest ("over 400", "up to 400") above it.
    const below = writtenCuts(list.sentence).filter((c) => c.cut === "below");
    return numbersIn(list.sentence).flatMap((n): RangeOperator[] =>
      below.some((c) => c.n === n) ? [{ gte: n }, { lt: n }] : [{ gt: n }, { lte: n }],
    );
  };
  const named = namedBy(words);
  extended.push(...listMatchers(lists, keys, thresholdsOf), ...absentMatchers(samples, named));
  const plainRanked = pool.map((m) => ({ m, r: relevanceOf(m) })).sort((a, b) => b.r - a.r);
  extended.push(...unionMatchers(plainRanked, text));
  const ranked = [...pool, ...extended]
    .map((m, i) => ({ m, i, r: relevanceOf(m) }))
    // Words the rule shares first; the rest of the vocabulary fills what the cap leaves, so that
    // labels can find what the wording does not name.
    .sort((a, b) => b.r - a.r || a.i - b.i);
  // The draft's own matchers first, but not content tests: the search reasons about events' names and values.
  for (const m of own) if (m.contentIncludes === undefined && m.content === undefined) add(m);
  // And their actions alone, which a condition may bind to test their values.
  for (const m of own) if (m.metadata !== undefined && exactValue(m.action) !== undefined) add({ action: m.action });
  // From the words alone, the comparison they state on a key they name ("danger level 4 or higher":
  // `danger_level >= 4`) is always tried, whatever values of other keys the words share.
  if (wordsOnly) for (const m of statedComparisons(ranked, cuts, named)) add(m);
  // So is a join of actions the words write in backticks ("no `open_lift` and no `open_run`"): a
  // reading of one alone would let the other pass unseen.
  if (wordsOnly) for (const m of extended) if (actionsOf(m).length > 1 && actionsOf(m).every((a) => written.has(a))) add(m);
  for (const { m } of ranked) {
    if (seen.size >= MAX_MATCHERS) break;
    add(m);
  }
  const matchers = [...seen.values()];
  const uses = keyUses(samples);
  const crosses = (each: Matcher, bind: Matcher, on: string | undefined): Cross[] => {
    const [a, b] = [exactValue(each.action), exactValue(bind.action)];
    return a === undefined || b === undefined ? [] : crossesOf(uses, a, b, on, named);
  };
  return {
    matchers,
    relevance: matchers.map(relevanceOf),
    relevanceOf,
    keys,
    said,
    cuts,
    wordsOnly,
    cues: cuesIn(text, wordsOnly),
    words,
    text,
    crosses,
  };
}

/** Matchers that test one key the words name with a comparison the words state (`{gte: 4}` for "4 or higher"), best first. */
function statedComparisons(ranked: readonly { m: Matcher }[], cuts: readonly WrittenCut[], named: (key: string) => boolean): Matcher[] {
  return ranked
    .map(({ m }) => m)
    .filter((m) => {
      const entries = Object.entries(m.metadata ?? {});
      if (entries.length !== 1 || !named(entries[0]![0])) return false;
      const t = valueTest(entries[0]![1]);
      return t.op === "range" && cuts.some((c) => JSON.stringify(t.range) === JSON.stringify({ [c.op]: c.n }));
    });
}

/** Numbers the rule's words give, for count bounds ("no more than three", "twice", "once"). */
export function boundsIn(text: string): number[] {
  const found = new Set<number>();
  for (const w of text.toLowerCase().split(/[^a-z0-9]+/)) {
    const n = w === "once" ? 1 : w === "twice" ? 2 : w === "thrice" ? 3 : parseCount(w);
    if (n !== undefined && n >= 0 && n <= 20) found.add(n);
  }
  return [...found].sort((a, b) => a - b);
}

/** Keys the samples show on the matcher's action (on each of its actions, for a list of them), with their facts. */
function keysOf(vocab: Vocab, m: Matcher): KeyFacts[] {
  const [first, ...others] = actionsOf(m);
  if (first === undefined) return [];
  const keys = vocab.keys.get(first) ?? [];
  return others.length === 0 ? keys : keys.filter((k) => others.every((a) => vocab.keys.get(a)?.some((o) => o.key === k.key)));
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

/** Amount keys whose values a count may add up. */
function sumKeys(vocab: Vocab, m: Matcher): string[] {
  return keysOf(vocab, m)
    .filter(isAmountKey)
    .map((k) => k.key)
    .slice(0, MAX_KEYS);
}

/** The tests a condition may put on the bound event's key: its categorical values, its thresholds. */
function conditionTests(vocab: Vocab, bind: Matcher): { key: string; test: ValueMatcher }[] {
  const out: { key: string; test: ValueMatcher }[] = [];
  for (const k of keysOf(vocab, bind)) {
    if (k.key.startsWith("@")) continue;
    if (isAmountKey(k))
      for (const range of thresholds(vocab.said, k.cuts, vocab.wordsOnly ? vocab.cuts : [])) out.push({ key: k.key, test: range });
    else if (k.values.length >= 2 && k.values.length <= MAX_CATEGORY_VALUES && categorical(k.key, k.values))
      for (const v of k.values) out.push({ key: k.key, test: v }, { key: k.key, test: { not: v } });
  }
  return out;
}

/** Every candidate check over the matchers, in a fixed order: the plain forms, then the extended ones. */
export function candidates(vocab: Vocab, bounds: number[]): Candidate[] {
  const { matchers } = vocab;
  const count = matchers.length;
  const out: Candidate[] = [];
  // The step counts the rule writes as numbers, and those it writes as ordinals ("no later than the third event following").
  const withins = [...new Set([1, ...[...bounds, ...vocab.cues.within].filter((n) => n >= 2 && n <= 5)])];
  // "At most one per order" when the words give no number.
  const countBounds = bounds.some((n) => n >= 1) ? bounds.filter((n) => n >= 1) : [1];
  for (let a = 0; a < count; a++) {
    out.push({ type: "required", match: a }, { type: "forbidden", match: a });
    for (const n of bounds) out.push({ type: "count", match: a, max: n });
    for (const per of groupKeys(vocab, matchers[a]!)) for (const n of countBounds) out.push({ type: "count", match: a, max: n, per });
    // Totals: the sum of an amount key of the counted events, bounded by the rule's own numbers, overall and per id.
    for (const sum of sumKeys(vocab, matchers[a]!))
      for (const n of vocab.said.filter((x) => Number.isInteger(x) && x > 0))
        for (const per of [undefined, ...groupKeys(vocab, matchers[a]!)])
          out.push({ type: "count", match: a, max: n, sum, ...(per !== undefined ? { per } : {}) });
    for (let b = 0; b < count; b++) {
      if (a === b || overlapping(matchers[a]!, matchers[b]!)) continue;
      out.push({ type: "ordering", first: a, before: b }, { type: "pairing", each: a, followedBy: b });
      out.push({ type: "required", match: a, after: b }, { type: "forbidden", match: a, after: b });
      out.push({ type: "ordering", first: a, before: b, fresh: true });
      for (const within of withins) out.push({ type: "pairing", each: a, followedBy: b, within });
      for (const on of sharedKeys(vocab, matchers[a]!, matchers[b]!)) {
        out.push(
          { type: "ordering", first: a, before: b, on },
          { type: "pairing", each: a, followedBy: b, on },
          { type: "required", match: a, after: b, on },
          { type: "forbidden", match: a, after: b, on },
        );
        // Combined: a fresh confirmation of the same thing, a prompt follower for the same thing.
        out.push({ type: "ordering", first: a, before: b, on, fresh: true });
        for (const within of withins) out.push({ type: "pairing", each: a, followedBy: b, on, within });
      }
      // A condition binds a plain action's latest event and tests one of its values, or compares one
      // with the judged event's own, or both (an equal value and the comparison).
      if (matchers[b]!.metadata === undefined && exactValue(matchers[b]!.action) !== undefined) {
        const shared = sharedKeys(vocab, matchers[a]!, matchers[b]!);
        // Where the words tie the two events to one thing ("that same MEL item": a key they name),
        // their values are compared only between events of that thing, on that key.
        const tied = vocab.cues.same && shared.some(namedBy(vocab.words));
        for (const on of [undefined, ...shared]) {
          const where = on !== undefined ? { on } : {};
          const tests = conditionTests(vocab, matchers[b]!);
          for (const { key, test } of tests) out.push({ type: "condition", each: a, bind: b, key, test, ...where });
          if (on === undefined && tied) continue;
          for (const cross of vocab.crosses(matchers[a]!, matchers[b]!, on)) {
            out.push({ type: "condition", each: a, bind: b, key: cross.key, cross, ...where });
            for (const { key, test } of tests)
              if (typeof test === "string") out.push({ type: "condition", each: a, bind: b, key, test, cross, ...where });
          }
        }
      }
    }
  }
  return out;
}

/**
 * Two matchers on one action that may match the same event ("a refund" and "a refund over 500"):
 * a check between them says little. Exact, different values of one key name different events.
 */
function overlapping(a: Matcher, b: Matcher): boolean {
  const [xs, ys] = [actionsOf(a), actionsOf(b)];
  if (xs.length > 1 || ys.length > 1) return xs.some((x) => ys.includes(x));
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
  const ref = keyRef("r", key);
  const t = valueTest(test);
  if (t.op === "equals") return `${ref} == ${JSON.stringify(t.value)}`;
  if (t.op === "not") return `${ref} != ${JSON.stringify(exactValue(t.inner) ?? "")}`;
  if (t.op !== "range") throw new Error("internal: a condition tests equality or a range");
  const symbols = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
  return (Object.keys(symbols) as (keyof typeof symbols)[])
    .flatMap((op) => (t.range[op] === undefined ? [] : [`${ref} ${symbols[op]} ${String(t.range[op])}`]))
    .join(" && ");
}

export function toCheck(c: Candidate, matchers: Matcher[], quote: string): Check {
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
        ...(c.sum !== undefined ? { sum: metadataRef(c.sum) } : {}),
      };
    case "condition":
      return {
        type: "condition",
        quote,
        each: p(c.each),
        with: { r: { latest: p(c.bind), ...on } },
        when: [...(c.test !== undefined ? [whenOf(c.key, c.test)] : []), ...(c.cross !== undefined ? [crossExpression(c.cross)] : [])].join(
          " && ",
        ),
      };
    default:
      return { type: c.type, quote, match: p(c.match), ...(c.after !== undefined ? { after: p(c.after) } : {}), ...on };
  }
}

/** The candidates the search tries, the most promising first (words, then simplicity, then the fixed order), at most `max`. */
export function rankedCandidates(vocab: Vocab, bounds: number[], max: number): Candidate[] {
  return candidates(vocab, bounds)
    .map((c, i) => ({ c, i, s: score(c, vocab) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, max)
    .map((x) => x.c);
}

export function score(c: Candidate, vocab: Vocab): number {
  const used = usedMatchers(c);
  // Words first; each extra matcher or form costs a little (simplicity).
  let words = used.reduce((sum, i) => sum + vocab.relevance[i]!, 0);
  if (c.type === "condition") {
    // The tested value scores as a matcher of the bound action carrying it would.
    const bind = vocab.matchers[c.bind]!;
    if (c.test !== undefined) words += vocab.relevanceOf({ ...bind, metadata: { [c.key]: c.test } }) - vocab.relevance[c.bind]!;
    // A comparison with the judged event's value: its keys as the words name them, and one more form.
    if (c.cross !== undefined) words += crossRelevance(c.cross, vocab.words, vocab.text) - 0.15;
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
  if (c.type === "pairing" && c.within !== undefined && cues.within.includes(c.within)) bonus += 0.1;
  if (c.type === "count" && c.per !== undefined) bonus += (cues.per ? 0.1 : 0) + named(c.per);
  if (c.type === "count" && c.sum !== undefined) bonus += (cues.sum ? 0.1 : 0) + named(c.sum);
  bonus += writtenBound(c, vocab.said, vocab.cuts, cues.sum, vocab.wordsOnly);
  return bonus;
}
