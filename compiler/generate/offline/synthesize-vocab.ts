/**
 * The vocabulary of the search from labels (issue 25): the matchers a rule's search may use (the
 * draft's own, the samples' actions and values, thresholds from the rule's numbers or cuts between
 * sample values), their relevance to the rule's words, and the forms the words hint at.
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { Matcher, MetaBehavior, Pattern, RangeOperator, ValueMatcher } from "../../ir/types.js";
import { exactValue, valueTest } from "../../ir/values.js";
import { amountsIn } from "./amounts.js";
import type { Lexicon } from "./lexicon.js";
import type { Verdict } from "./synthesize-eval.js";
import {
  categorical,
  isAmountKey,
  keysByAction,
  MAX_CATEGORY_VALUES,
  numbersIn,
  saidOn,
  thresholds,
  unitsOfNumbers,
  type KeyFacts,
} from "./synthesize-keys.js";
import {
  absentMatchers,
  actionsOf,
  crossesOf,
  DIFFERENT,
  keyUses,
  listMatchers,
  listsIn,
  namedBy,
  splitKeysOf,
  statedThresholds,
  unionMatchers,
  type Cross,
  type WrittenList,
} from "./synthesize-forms.js";
import { cutFit, writtenCuts, writtenWithins, type WrittenCut } from "./synthesize-numbers.js";
import { keyUnit } from "./units.js";
import { withoutReferences } from "./synthesize-references.js";
import { boundActions, groundedRates, rateActions, rateCrosses } from "./synthesize-arithmetic.js";
import { withoutRates } from "./rates.js";
import { nameStems, parseCount, stemSet } from "./words.js";
import { namesEveryWord } from "./unlabeled-fit.js";

/** Matchers the search may use. */
const MAX_MATCHERS = 22;
export interface Vocab {
  matchers: Matcher[];
  relevance: number[];
  /** The relevance of any matcher, for a condition's tested value. */
  relevanceOf: (m: Matcher) => number;
  keys: Map<string, KeyFacts[]>;
  said: number[];
  /** The numbers a key may be compared with: those written bare or with the key's own unit (units.ts). */
  saidOn: (key: string) => number[];
  /** Where the words cut at the numbers they compare ("above 400"): a threshold keeps the words' side. */
  cuts: WrittenCut[];
  wordsOnly: boolean;
  /** The forms the rule's words hint at, each a small bonus in the ranking. */
  cues: Cues;
  words: Set<string>;
  text: string;
  /** The comparisons a condition binding `bind` may make with the `each` event's keys. */
  crosses: (each: Matcher, bind: Matcher, on: string | undefined) => Cross[];
  /** Pairs of keys, one on each matcher's action, that name one thing under two names (synthesize-forms.ts). */
  splits: (earlier: Matcher, later: Matcher) => [string, string][];
}

interface Cues {
  same: boolean;
  fresh: boolean;
  /** The step counts the words give a `within` ("within two steps", "immediately": 1). */
  within: number[];
  per: boolean;
  sum: boolean;
  /** "Other than", "someone else": two values to differ (optional: the words' own reading does without). */
  different?: boolean;
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
    // "Since the last lot went in", "one check covers one move": what came before does not count again.
    fresh:
      /\b(?:fresh|each time|every time|again|new|its own|their own|anew|since (?:the|its|their) (?:last|previous|latest)|covers (?:one|a single|only one))\b/i.test(
        text,
      ),
    within: writtenWithins(text),
    per: /\b(?:per|each|every|for any one|for a single|to any one|to one|for one)\s+[a-z]+/i.test(text),
    different: DIFFERENT.test(text),
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
  /**
   * No labels follow (the reading from the words is the draft, not the search's first guess): a value
   * is named by every word of it, and one the words do not name narrows no matcher (unlabeled-fit.ts).
   */
  alone = false,
): Vocab {
  const words = stemSet(text);
  const written = new Set([...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim()));
  const uses = keyUses(samples);
  const named = namedBy(words);
  // A rate's numbers and those of its worked example bound nothing ("1 ml for every 5 kg, so a 60kg
  // ewe gets 12 ml": no dose of at most 12): read from the rest (synthesize-arithmetic.ts). With
  // labels only: the words' own reading has no rates yet.
  const rates = wordsOnly ? [] : groundedRates(text, uses, named);
  const numeric = withoutRates(text, rates);
  const said = numbersIn(numeric);
  const saidUnits = unitsOfNumbers(numeric);
  // Units rule numbers off keys in the search from labels only. From the words alone they are left
  // as they were: on blind17 the words' reading that a unit leaves once `ml >= 24` is gone is a
  // check of a batch after its own call, one sample worse; that reading is to be mended first.
  // A number written in a unit some key's name carries ("errors of more than 2%": `error_pct`) is
  // that key's amount, not one of a key that names no unit (a ramp's `step`).
  const keyUnits = new Set([...uses.values()].flatMap((keys) => [...keys.keys()].flatMap((k) => keyUnit(k) ?? [])));
  const ownedByUnit = (n: number) => (saidUnits.get(n) ?? []).some((u) => keyUnits.has(u));
  const saidFor = (key: string) =>
    wordsOnly ? said : saidOn(said, saidUnits, key).filter((n) => keyUnit(key) !== undefined || !ownedByUnit(n));
  const cuts = writtenCuts(numeric);
  const stated = amountsIn(numeric).map((a) => JSON.stringify(a.range));
  const lists = listsIn(lexicon, text);
  const listed = new Set(lists.map((l) => `${l.key}\n${JSON.stringify(l.values)}`));
  const valueRelevance = (k: string, v: ValueMatcher): number => {
    const test = valueTest(v);
    const keyNamed = nameStems(k).some((s) => words.has(s)) ? 0.25 : 0;
    switch (test.op) {
      case "equals":
        if (written.has(`${k}: ${test.value}`)) return 2;
        // A value named by its own words, not by the key's: "Bank Field" of `field` is not named by "field".
        // From the words alone, by every word of it (unlabeled-fit.ts): "security training" names no `SecurityAdmin`.
        if (alone) return namesEveryWord(words, k, test.value) ? 0.5 : -0.25;
        return nameStems(test.value).some((s) => words.has(s) && !nameStems(k).includes(s)) ? 0.5 : -0.25;
      case "in":
        // A list the sentence writes counts as its words, a little more than one of its values.
        if (listed.has(`${k}\n${JSON.stringify(test.values)}`)) return 2.1;
        return test.values.filter((x) => nameStems(x).some((s) => words.has(s))).length * 0.3 - 0.35;
      case "not":
        return valueRelevance(k, test.inner) - 0.15;
      case "range": {
        // A threshold the sentence writes counts as its words; the comparison it states, a little more.
        const bounds = Object.values(test.range).filter((b): b is number => typeof b === "number");
        const fromWords = bounds.length > 0 && bounds.every((b) => (wordsOnly ? said : saidFor(k)).includes(b));
        const statedHere = stated.includes(JSON.stringify(test.range)) ? 0.5 : 0;
        // From the words alone a number is tried on their side of it only (thresholds): nothing to weigh.
        if (wordsOnly) return (fromWords ? 1 : -0.3) + statedHere + keyNamed;
        // With labels every side is tried, and the labels may fit two (no sample shows exactly 90):
        // the side of its number the words cut ("more than 90 mL": `> 90` or `<= 90`, never `>= 90`)
        // counts as a stated amount does (amounts.ts reads no mL), the other side less.
        const side = cutFit(test.range, cuts, "test");
        const cut = statedHere > 0 ? statedHere : side === "fits" ? 0.4 : side === "contradicts" ? -0.2 : 0;
        // A number written in the key's own unit ("24 hours" on `hours_out`) is its words more surely than a key of no unit.
        const unit = keyUnit(k);
        const sameUnit = fromWords && unit !== undefined && bounds.every((b) => saidUnits.get(b)?.includes(unit)) ? 0.25 : 0;
        return (fromWords ? 1 : -0.3) + cut + sameUnit + keyNamed;
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
        for (const range of thresholds(saidFor(k.key), k.cuts, wordsOnly ? cuts : []))
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
    return saidOn(numbersIn(list.sentence), unitsOfNumbers(list.sentence), k.key).flatMap((n): RangeOperator[] =>
      below.some((c) => c.n === n) ? [{ gte: n }, { lt: n }] : [{ gt: n }, { lte: n }],
    );
  };
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
  // So are the actions whose amounts a rate compares ("1 ml for every 5 kg": the weighing, the dose).
  for (const action of rateActions(rates, uses, named)) add({ action });
  // And those on which the words write two bounds, each on its own key (synthesize-arithmetic.ts).
  if (!wordsOnly) for (const action of boundActions(keys, text, said)) add({ action });
  // From the words alone, the comparison they state on a key they name ("danger level 4 or higher":
  // `danger_level >= 4`) is always tried, whatever values of other keys the words share.
  if (wordsOnly) for (const m of statedComparisons(ranked, cuts, named)) add(m);
  // So is a join of actions the words write in backticks ("no `open_lift` and no `open_run`"): a
  // reading of one alone would let the other pass unseen.
  if (wordsOnly) for (const m of extended) if (actionsOf(m).length > 1 && actionsOf(m).every((a) => written.has(a))) add(m);
  // Every action the words name, bare, before the values of another crowd it out: "put sheep in a
  // field … check that field first" names the field's values often and the move once, and the
  // field check's two dozen variants filled the cap without it.
  for (const { m, r } of ranked) {
    if (seen.size >= MAX_MATCHERS) break;
    // With labels: from the words alone the matchers stay as they were (fleet-rental's hand-over lost its ordering).
    if (!wordsOnly && r > 0 && m.metadata === undefined && actionsOf(m).length === 1) add(m);
  }
  // From the words alone a value the words do not name narrows nothing they say, and no label
  // justifies it: it is not tried (unlabeled-fit.ts), nor crowds out an act the words name.
  const unnamed = (m: Matcher, r: number) => alone && m.metadata !== undefined && r <= relevanceOf({ action: m.action });
  for (const { m, r } of ranked) {
    if (seen.size >= MAX_MATCHERS) break;
    if (unnamed(m, r)) continue;
    add(m);
  }
  const matchers = [...seen.values()];
  const different = DIFFERENT.test(text);
  const crosses = (each: Matcher, bind: Matcher, on: string | undefined): Cross[] => {
    const [a, b] = [exactValue(each.action), exactValue(bind.action)];
    if (a === undefined || b === undefined) return [];
    return [...crossesOf(uses, a, b, on, named, different), ...rateCrosses(uses, a, b, on, rates, named)];
  };
  const splits = (earlier: Matcher, later: Matcher): [string, string][] => {
    const [a, b] = [exactValue(earlier.action), exactValue(later.action)];
    return a === undefined || b === undefined ? [] : splitKeysOf(uses, a, b);
  };
  return {
    matchers,
    relevance: matchers.map(relevanceOf),
    relevanceOf,
    keys,
    said,
    saidOn: saidFor,
    cuts,
    wordsOnly,
    cues: cuesIn(text, wordsOnly),
    words,
    text,
    crosses,
    splits,
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
  for (const w of withoutReferences(text)
    .toLowerCase()
    .split(/[^a-z0-9]+/)) {
    const n = w === "once" ? 1 : w === "twice" ? 2 : w === "thrice" ? 3 : parseCount(w);
    if (n !== undefined && n >= 0 && n <= 20) found.add(n);
  }
  return [...found].sort((a, b) => a - b);
}
