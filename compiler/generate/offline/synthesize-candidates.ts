/**
 * The candidates of the search from labels (issue 25): every candidate check over the vocabulary's
 * matchers (synthesize-vocab.ts) in a fixed order, and its score by the rule's words.
 */
import type { Matcher, ValueMatcher } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { extensions, usedMatchers, type Candidate } from "./synthesize-eval.js";
import { categorical, identifying, isAmountKey, MAX_CATEGORY_VALUES, MAX_KEYS, thresholds, type KeyFacts } from "./synthesize-keys.js";
import { actionsOf, crossRelevance, DIFFERENT, namedBy } from "./synthesize-forms.js";
import type { Vocab } from "./synthesize-vocab.js";
import { ownBound, ownedPairs } from "./synthesize-arithmetic.js";
import { writtenBound } from "./synthesize-written.js";
import { leastCounts } from "./synthesize-least.js";
import { canonical, nameStems, words } from "./words.js";

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

/**
 * Keys a count may group by: the turn, then the keys of the counted events the words name (an
 * identifier, or a category: "on any one winch" is per `winch`, two winches in the samples or
 * not), then the other identifiers.
 */
function groupKeys(vocab: Vocab, m: Matcher): string[] {
  const keys = keysOf(vocab, m);
  const named = namedBy(vocab.words);
  // A winch's code (`W-A`) names one winch as an id does: any key of two values or more, not an amount.
  const groups = keys.filter((k) => k.key !== "@turn" && (identifying(k) || (!k.numeric && k.values.length >= 2)));
  return [
    ...keys.filter((k) => k.key === "@turn"),
    ...groups.filter((k) => named(k.key)),
    ...groups.filter((k) => !named(k.key) && identifying(k)),
  ]
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
      for (const range of thresholds(vocab.saidOn(k.key), k.cuts, vocab.wordsOnly ? vocab.cuts : [])) out.push({ key: k.key, test: range });
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
  const different = DIFFERENT.test(vocab.text);
  // Counts the words ask at least of ("at least twice", "two or more"): a `min`, overall, per key, per window (synthesize-least.ts).
  const least = leastCounts(vocab.text);
  for (let a = 0; a < count; a++) {
    out.push({ type: "required", match: a }, { type: "forbidden", match: a });
    for (const min of least) {
      out.push({ type: "count", match: a, min });
      for (const per of groupKeys(vocab, matchers[a]!)) out.push({ type: "count", match: a, min, per });
    }
    for (const n of bounds) out.push({ type: "count", match: a, max: n });
    for (const per of groupKeys(vocab, matchers[a]!)) for (const n of countBounds) out.push({ type: "count", match: a, max: n, per });
    // Totals: the sum of an amount key of the counted events, bounded by the rule's own numbers, overall and per id.
    for (const sum of sumKeys(vocab, matchers[a]!))
      // A total in the key's own unit: "six thousand metres in all" adds up `wire_m`, never `ml`.
      for (const n of vocab.saidOn(sum).filter((x) => Number.isInteger(x) && x > 0))
        for (const per of [undefined, ...groupKeys(vocab, matchers[a]!)])
          out.push({ type: "count", match: a, max: n, sum, ...(per !== undefined ? { per } : {}) });
    for (let b = 0; b < count; b++) {
      if (a === b || overlapping(matchers[a]!, matchers[b]!)) continue;
      out.push({ type: "ordering", first: a, before: b }, { type: "pairing", each: a, followedBy: b });
      out.push({ type: "required", match: a, after: b }, { type: "forbidden", match: a, after: b });
      out.push({ type: "ordering", first: a, before: b, fresh: true });
      for (const within of withins) out.push({ type: "pairing", each: a, followedBy: b, within });
      for (const min of least) out.push({ type: "count", match: a, after: b, min });
      for (const on of sharedKeys(vocab, matchers[a]!, matchers[b]!)) {
        for (const min of least) out.push({ type: "count", match: a, after: b, on, min });
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
      // "Recorded on the feed chart of that same baby": the chart names the baby `patient_id`, the
      // issue `baby_id`. Only where the words tie the two events to one thing.
      if (vocab.cues.same)
        for (const [on, onLater] of vocab.splits(matchers[a]!, matchers[b]!)) {
          // "Check that field first" (`field` on the check, `to_field` on the move): a go-ahead for that
          // thing under the later event's name for it, spent by one act where the words say so.
          out.push(
            { type: "ordering", first: a, before: b, on, onLater },
            { type: "ordering", first: a, before: b, on, onLater, fresh: true },
          );
          out.push({ type: "pairing", each: a, followedBy: b, on, onLater });
          for (const within of withins) out.push({ type: "pairing", each: a, followedBy: b, on, onLater, within });
        }
      // "No proof of delivery for that consignment once it is marked lost": the mark names it
      // `consignment`, the upload `ref`. The window opens on `b`, so the pair runs from `b`'s key to
      // `a`'s. Forbidden only: a pairing of the two tied so says what a required one would (a second
      // form of one reading outscored an ordering the words ask for: "check that field first"); a
      // drafted or picked required check is tied so where the words ground it (synthesize-tied.ts).
      if (vocab.cues.same)
        for (const [on, onLater] of vocab.splits(matchers[b]!, matchers[a]!))
          out.push({ type: "forbidden", match: a, after: b, on, onLater });
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
          const testedKeys = [...new Set(tests.map((t) => t.key))];
          for (const { key, test } of tests) out.push({ type: "condition", each: a, bind: b, key, test, ...where });
          for (const [x, y] of joinedTests(tests, vocab.text)) out.push({ type: "condition", each: a, bind: b, ...x, also: y, ...where });
          // Two bounds the words write, each on its own key (synthesize-arithmetic.ts).
          // With labels: the words' own reading (synthesize-unlabeled.ts) is left as it was.
          if (!vocab.wordsOnly)
            for (const [x, y] of ownedPairs(tests, vocab.text, vocab.cuts))
              out.push({ type: "condition", each: a, bind: b, ...x, also: y, ...where });
          if (on === undefined && tied) continue;
          for (const cross of vocab.crosses(matchers[a]!, matchers[b]!, on)) {
            out.push({ type: "condition", each: a, bind: b, key: cross.key, cross, ...where });
            for (const { key, test } of tests)
              // A value it must have, or a bound the words write on that key ("under twenty kilos" on `kg`).
              if (typeof test === "string" || (!vocab.wordsOnly && ownBound(vocab.text, key, test, testedKeys, vocab.cuts)))
                out.push({ type: "condition", each: a, bind: b, key, test, cross, ...where });
          }
        }
      } else if (different && namedKind(vocab, matchers[b]!)) {
        // "Other than the member most recently assigned as crew chief of that call": the latest event
        // of the kind the words name, its person compared with the judged event's.
        for (const on of [undefined, ...sharedKeys(vocab, matchers[a]!, matchers[b]!)])
          for (const cross of vocab.crosses(matchers[a]!, matchers[b]!, on))
            if (cross.op === "!=")
              out.push({ type: "condition", each: a, bind: b, key: cross.key, cross, ...(on !== undefined ? { on } : {}) });
      }
    }
  }
  return out;
}

/** Words between two values one sentence joins by "and" ("shows due diligence passed and a conflict of none"). */
const JOINED_WITHIN = 12;

/**
 * Pairs of equality tests on two keys of the bound event whose values one sentence of the words
 * writes, "and" between them: "the latest check shows due diligence "passed" and a conflict of
 * "none"" asks for both. Six labels seldom hold a sample that fails one test and not the other,
 * so either test alone fits them; the words ask for both, and the pair scores both values' words.
 * At most one pair per two keys, in the order the tests come.
 */
function joinedTests(
  tests: readonly { key: string; test: ValueMatcher }[],
  text: string,
): [{ key: string; test: ValueMatcher }, { key: string; test: ValueMatcher }][] {
  const equal = tests.filter((t) => typeof t.test === "string");
  if (equal.length < 2) return [];
  const sentences = sentencesOf(text);
  // A value's every word, stopwords too: "none" is a value here.
  const valueStems = new Map<string, Set<string>>();
  const at = (k: number, value: string) => {
    let stems = valueStems.get(value);
    if (stems === undefined) valueStems.set(value, (stems = new Set(words(value).map((w) => canonical(w.toLowerCase())))));
    return sentences[k]!.stems.flatMap((t, i) => (stems.has(t) ? [i] : []));
  };
  // Where the sentence writes u before v: 1; v before u: -1; not joined: 0.
  const joined = (u: string, v: string): number => {
    for (let k = 0; k < sentences.length; k++)
      for (const i of at(k, u))
        for (const j of at(k, v)) {
          const tokens = sentences[k]!.tokens;
          const [lo, hi] = i < j ? [i, j] : [j, i];
          if (hi - lo <= JOINED_WITHIN && tokens.slice(lo + 1, hi).includes("and")) return i < j ? 1 : -1;
        }
    return 0;
  };
  const out: [{ key: string; test: ValueMatcher }, { key: string; test: ValueMatcher }][] = [];
  const paired = new Set<string>();
  for (let i = 0; i < equal.length; i++)
    for (let j = i + 1; j < equal.length; j++) {
      const [x, y] = [equal[i]!, equal[j]!];
      const keys = `${x.key}\n${y.key}`;
      if (x.key === y.key || paired.has(keys)) continue;
      const order = joined(x.test as string, y.test as string);
      if (order === 0) continue;
      paired.add(keys);
      // In the order the words write them.
      out.push(order > 0 ? [x, y] : [y, x]);
    }
  return out;
}

/**
 * The words' sentences as joinedTests reads them, each word lower-cased and as its stem; worked out
 * once per text (joinedTests is asked for every pair of actions of a rule's search).
 */
const sentencesRead = new Map<string, { tokens: string[]; stems: string[] }[]>();
function sentencesOf(text: string): { tokens: string[]; stems: string[] }[] {
  let read = sentencesRead.get(text);
  if (read === undefined) {
    if (sentencesRead.size > 64) sentencesRead.clear();
    read = text.split(/(?<=[.!?;:])\s+/).map((s) => {
      const tokens = words(s).map((w) => w.toLowerCase());
      return { tokens, stems: tokens.map(canonical) };
    });
    sentencesRead.set(text, read);
  }
  return read;
}

/** A matcher of one action and one exact value the rule's words name (`role: chief` for "crew chief"). */
function namedKind(vocab: Vocab, m: Matcher): boolean {
  if (exactValue(m.action) === undefined) return false;
  const entries = Object.entries(m.metadata ?? {});
  if (entries.length !== 1) return false;
  const value = exactValue(entries[0]![1]);
  return value !== undefined && nameStems(value).some((s) => vocab.words.has(s));
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
    if (c.also !== undefined) words += vocab.relevanceOf({ ...bind, metadata: { [c.also.key]: c.also.test } }) - vocab.relevance[c.bind]!;
    // A comparison with the judged event's value: its keys as the words name them, and one more form.
    if (c.cross !== undefined) words += crossRelevance(c.cross, vocab.words, vocab.text) - 0.15;
  }
  return words + cueBonus(c, vocab) - 0.1 * used.length - 0.15 * extensions(c) - (ownResult(c, vocab) ? OWN_RESULT : 0);
}

/** What relating a call and its own result costs a candidate's score with labels. */
const OWN_RESULT = 0.3;

/**
 * Whether a candidate relates a call and its own result ("a status reply, then a status call of that
 * flag within two lines"): the tool answers every call, so of two readings alike on the labels the
 * one of two acts says more of what the agent did ("the team is paged"). With labels only: the words'
 * own reading (synthesize-unlabeled.ts) keeps its own guard.
 */
function ownResult(c: Candidate, vocab: Vocab): boolean {
  if (vocab.wordsOnly) return false;
  const acts = usedMatchers(c).flatMap((i) => actionsOf(vocab.matchers[i]!));
  return acts.some((a) => acts.includes(`${a}_result`));
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
