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
 * latest earlier event's value; and the drafted checks with one event swapped
 * for another action (synthesize-variants.ts). It keeps the readings that agree with most
 * labels, ranks them by how well their matchers match the rule's words (a
 * threshold the sentence writes counts), then by simplicity, and says where
 * the best and the runner-up disagree on an unlabeled sample: the verdict
 * question that separates them. When the phrase reading fits all labels but a
 * tolerated few, it anchors the pick instead: labels refine it, the reading
 * that fits at the least change from it wins (synthesize-rank.ts).
 *
 * Bounded and deterministic: candidates come from a fixed order over a capped
 * set of matchers, the most relevant first, at most a budget of candidates
 * and of readings per rule, at most a few rounds of changes, no randomness,
 * so the same input gives byte-identical drafts.
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { Check, Matcher, MetaBehavior, Pattern } from "../../ir/types.js";
import { matcherHolds } from "../../ir/value-eval.js";
import { exactValue } from "../../ir/values.js";
import { previewRule } from "../preview.js";
import type { Lexicon } from "./lexicon.js";
import { rankedCandidates, score } from "./synthesize-candidates.js";
import { toCheck } from "./synthesize-check.js";
import { boundsIn } from "./synthesize-vocab.js";
import {
  evaluate,
  extensions,
  subjectOf,
  usedMatchers,
  type Candidate,
  type RuleLabels,
  type Verdict,
  type Vector,
} from "./synthesize-eval.js";
import { editCounter, MISS, rank, tolerated } from "./synthesize-rank.js";
import { byRank, compareReadings, heldOut, type Reading } from "./synthesize-reading.js";
import { describe } from "./synthesize-describe.js";
import { sentenceCandidates, withSentences } from "./synthesize-sentences.js";
import { tiedPick, tiedVariants } from "./synthesize-tied.js";
import { variantsFor, type Variant } from "./synthesize-variants.js";
import { prepare } from "./synthesize-prepare.js";
import { agreesMore, foldAt, once } from "./synthesize-fold.js";
import { nameStems, stemSet } from "./words.js";
import { saidBonus, saidFresh, saidQuote } from "./synthesize-said.js";
import { writtenUse } from "./synthesize-written.js";
import { cuedUse, cuesGiven, formCues } from "./synthesize-cued.js";
import { withDuties, type SynthesisOptions } from "./synthesize-duties.js";

export type { RuleLabels, Verdict } from "./synthesize-eval.js";
export { roundestIn } from "./synthesize-keys.js";
export { candidateVerdicts } from "./synthesize-prepare.js";

/** How much one rule's search may try: candidate checks built, readings (sets of checks with a trigger) judged. */
export interface SearchBudget {
  candidates: number;
  readings: number;
}
export const DEFAULT_BUDGET: Readonly<SearchBudget> = { candidates: 4000, readings: 60000 };

/** How much agreeing with the phrase reading on every unlabeled sample adds to a reading's score. */
const PRIOR_WEIGHT = 0.5;
/** Readings of highest rank kept for the pick and its runner-ups. */
const TOP_KEPT = 32;
/** Rounds of changes (replace, add, drop) to the drafted rule. */
const MAX_ROUNDS = 3;
const ANY_EVENT: Pattern = [{ actor: "user" }, { actor: "agent" }, { actor: "tool" }];

export interface Synthesis {
  rule: MetaBehavior;
  /** Labels of this rule the result agrees with, of how many. */
  agree: number;
  total: number;
  /** Whether the search changed the phrase draft. */
  changed: boolean;
  /** Other readings that agree with as many labels, best first (at most three); when `unconfirmed`, the reading not kept. */
  runnerUps: MetaBehavior[];
  /** Unlabeled samples on which the best reading and the first runner-up disagree. */
  separating: string[];
  /** What the search tried: candidate checks built and readings judged (each within the budget). */
  searched: { candidates: number; readings: number };
  /**
   * When the search found a reading that fits more labels but the phrase draft was kept: labels
   * the search predicted with each left out (heldOut), against those the draft agrees with.
   */
  unconfirmed?: { predicted: number; draft: number };
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
  options: SynthesisOptions = {},
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
  // Drafted checks with one event swapped (synthesize-variants.ts), their verdicts, the triggers a new subject brings.
  const { variants, vectors: variantVectors, triggerMatchers, subjectIndex } = variantsFor(rule, samples, vocab);
  const fired = triggerMatchers.map((m, k) =>
    k < matchers.length ? index.map((x) => x.hits[k]!.length > 0) : samples.map((s) => s.events.some((e) => matcherHolds(e, m))),
  );
  // The bare action of a one-event check's matcher, when the search has it as a matcher of its own.
  const bare = new Map(matchers.map((m, k) => [JSON.stringify(m), k]));
  const actionTrigger = (c: Candidate): number | undefined => {
    if ((c.type !== "forbidden" && c.type !== "required" && c.type !== "count") || c.after !== undefined) return undefined;
    const action = exactValue(matchers[c.match]!.action);
    return action === undefined ? undefined : bare.get(JSON.stringify({ action }));
  };
  const triggerVector = (t: Reading["trigger"]): boolean[] =>
    "drafted" in t ? draftTrigger : t.matcher === "any" ? anyEvent : fired[t.matcher]!;
  // Each candidate is evaluated once per sample; a reading folds the vectors of its parts.
  const cache = new Map<Candidate, Vector>();
  const partVector = (p: Reading["parts"][number]): Vector => {
    if ("drafted" in p) return draftedVectors[p.drafted]!;
    if ("variant" in p) return variantVectors.get(p.variant)!;
    let v = cache.get(p.candidate);
    if (v === undefined) {
      const c = p.candidate;
      v = index.map((x) => evaluate(c, x));
      cache.set(c, v);
    }
    return v;
  };
  const fitsMore = (parts: Reading["parts"], trigger: Reading["trigger"], than: number): boolean =>
    agreesMore(labeled, triggerVector(trigger), parts.map(partVector), than);
  const vectorOf = (parts: Reading["parts"], trigger: Reading["trigger"]): Vector => {
    const fires = triggerVector(trigger);
    const vectors = parts.map(partVector);
    return samples.map((_, i) => (fires[i] ? foldAt(vectors, i) : "na"));
  };
  // Where the words' trigger fires (the rule applies: "if you've put a loss in") and a reading says
  // nothing, under its own trigger or for want of its checks' events (synthesize-reading.ts).
  const silentOf = (vector: Vector): number => vector.filter((v, i) => draftTrigger[i] && v === "na").length;
  // With no label "broken", a reading that judges no sample broken fits every label and says nothing;
  // with one, the readings that fit it fail it (`fails` below).
  const broken = labeled.some((x) => x.label === "false");
  const agreement = (v: Vector) => labeled.filter((x) => v[x.i] === x.label).length;
  // A candidate's words score, worked out once: a candidate is part of many readings.
  const partScore = once((c: Candidate) => score(c, vocab) + saidBonus(c, vocab));
  const readingScore = (parts: Reading["parts"]) =>
    parts.reduce((sum, p) => sum + ("candidate" in p ? partScore(p.candidate) : 1), 0) - 0.05 * parts.length;
  const searched = { candidates: 0, readings: 0 };
  const spent = () => searched.readings >= budget.readings;
  // Where the labels leave readings tied, the one that changes the phrase reading's verdicts on the
  // unlabeled samples least: the words read it so, and the labels did not say otherwise.
  const unlabeled = samples.flatMap((s, i) => (labels[s.id]?.[rule.name] === undefined ? [i] : []));
  let phraseVector: Vector | undefined;
  const prior = (v: Vector) =>
    phraseVector === undefined || unlabeled.length === 0 ? 0 : unlabeled.filter((i) => v[i] === phraseVector![i]).length / unlabeled.length;
  // What each part changes from the phrase reading (synthesize-rank.ts), worked out only when the
  // phrase reading anchors the pick.
  const checks = new Map<Candidate, Check>();
  const checkOf = (c: Candidate): Check => {
    let check = checks.get(c);
    if (check === undefined) checks.set(c, (check = toCheck(c, matchers, "")));
    return check;
  };
  const newCheck = (p: Reading["parts"][number]): Check[] =>
    "candidate" in p ? [checkOf(p.candidate)] : "variant" in p ? [p.variant.check] : [];
  // A reading's checks as buildRule's but for quotes (no number, no form): for `numbered` and `cued`.
  const checksOf = (r: Reading): Check[] =>
    r.parts.map((p) => ("drafted" in p ? rule.checks[p.drafted]! : "variant" in p ? p.variant.check : checkOf(p.candidate)));
  const editsOf = editCounter(rule.checks, rule.trigger.match, vocab);
  const triggerPatterns = new Map<number | "any", Pattern>();
  const patternOf = (m: number | "any"): Pattern => {
    let p = triggerPatterns.get(m);
    if (p === undefined) triggerPatterns.set(m, (p = m === "any" ? ANY_EVENT : [triggerMatchers[m]!]));
    return p;
  };
  let anchored = false;
  const rankOf = (parts: Reading["parts"], trigger: Reading["trigger"], agree: number): number =>
    anchored
      ? rank(
          labeled.length - agree,
          editsOf(
            parts.flatMap((p) => ("drafted" in p ? [p.drafted] : [])),
            parts.flatMap(newCheck),
            "drafted" in trigger ? undefined : patternOf(trigger.matcher),
          ),
        )
      : 0;
  // The best-ranked readings judged, best first (a few, so that the search keeps no more than it did).
  const top: Reading[] = [];
  const keep = (r: Reading) => {
    if (top.length >= TOP_KEPT && byRank(r, top[top.length - 1]!) >= 0) return;
    let k = top.length;
    while (k > 0 && byRank(r, top[k - 1]!) < 0) k--;
    top.splice(k, 0, r);
    if (top.length > TOP_KEPT) top.pop();
  };
  // Per labeled sample, the best reading judged that agrees with its label and the best that does
  // not: what the pick would be with that label left out (heldOut below).
  const bestAgreeing: (Reading | undefined)[] = labeled.map(() => undefined);
  const bestMissing: (Reading | undefined)[] = labeled.map(() => undefined);
  let tracking = false;
  // A reading a whole label behind the best one judged so far (in rank, MISS behind, when the
  // phrase reading anchors the pick) is no pick with any one label left out: not tracked.
  let lead: Reading | undefined;
  const behind = (r: Reading) => lead !== undefined && (anchored ? r.rank + MISS < lead.rank : r.agree + 1 < lead.agree);
  const track = (r: Reading) => {
    if (behind(r)) return;
    if (lead === undefined || byRank(r, lead) < 0) lead = r;
    labeled.forEach((x, k) => {
      const side = r.vector[x.i] === x.label ? bestAgreeing : bestMissing;
      const b = side[k];
      if (b === undefined || byRank(r, b) < 0) side[k] = r;
    });
  };
  const make = (parts: Reading["parts"], trigger: Reading["trigger"]): Reading => {
    searched.readings++;
    const vector = vectorOf(parts, trigger);
    const agree = agreement(vector);
    const reading = {
      parts,
      trigger,
      vector,
      agree,
      score: readingScore(parts) + PRIOR_WEIGHT * prior(vector),
      rank: rankOf(parts, trigger, agree),
      fails: broken || vector.includes("false"),
      silent: silentOf(vector),
    };
    if (anchored) keep(reading);
    if (tracking) track(reading);
    return reading;
  };
  const draftedParts: Reading["parts"] = rule.checks.map((_, k) => ({ drafted: k }));
  // A rule left to the model (no check) says nothing of the samples.
  if (rule.checks.length > 0) phraseVector = vectorOf(draftedParts, { drafted: true });
  const drafted = make(draftedParts, { drafted: true });
  const result = (best: Reading, runnerUps: Reading[]): Synthesis => {
    const built = buildRule(rule, best, triggerMatchers);
    const runners = runnerUps.slice(0, 3).map((r) => buildRule(rule, r, triggerMatchers));
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
  let ordered: Candidate[] | undefined;
  const allCandidates = () => (ordered ??= rankedCandidates(vocab, boundsIn(section), budget.candidates));
  // A sentence the draft left to the model, read from its own words where that fits the labels (synthesize-sentences.ts).
  const readSentences = (pick: Reading): Reading =>
    withSentences(pick, sentenceCandidates(lexicon, rule, samples, labels, vocab, allCandidates), (r, c, quote) =>
      spent() ? undefined : make([...r.parts, { candidate: c, quote }], r.trigger),
    );
  if (labeled.length === 0) return result(drafted, []);
  // A second duty of one sentence, its own check where labels bear it out, then refined (synthesize-duties.ts).
  const dutied =
    options.duties === false ? undefined : withDuties(lexicon, rule, obligations, samples, labels, vocab, allCandidates(), drafted, make);
  const again = { ...options, duties: false };
  if (dutied !== undefined)
    return { ...synthesizeRule(lexicon, dutied, section, obligations, samples, labels, budget, again), changed: true };
  // A draft that fits every label may still leave a check untied that its words tie (synthesize-tied.ts).
  for (const { variant, vector } of drafted.agree === labeled.length ? tiedVariants(rule, samples, vocab) : []) {
    variantVectors.set(variant, vector);
    const tied = make(
      draftedParts.map((p, k) => (k === variant.drafted ? { variant } : p)),
      { drafted: true },
    );
    if (tied.agree === labeled.length && unlabeled.some((i) => tied.vector[i] !== drafted.vector[i]))
      return result(readSentences(tied), []);
  }
  if (drafted.agree === labeled.length) return result(readSentences(drafted), []);
  anchored = drafted.agree >= labeled.length - tolerated(labeled.length) && rule.checks.length > 0;
  if (anchored) {
    drafted.rank = rank(labeled.length - drafted.agree, { fields: 0, grounded: 0 });
    keep(drafted);
    // The leave-one-out test below guards only an anchored draft: only then is it worth tracking.
    tracking = true;
    track(drafted);
  }

  const all = allCandidates();
  searched.candidates = all.length;
  const obligationStems = obligations.map((o) => stemSet(o));
  const quotes = new Map<Candidate, string>();
  const quoteFor = (replaced: number | undefined, c: Candidate): string => {
    if (replaced !== undefined) return rule.checks[replaced]!.quote;
    const known = quotes.get(c);
    if (known !== undefined) return known;
    // The obligation whose words its matchers share most; the first one on a tie.
    const used = c.type === "required" || c.type === "forbidden" || c.type === "count" ? [c.match] : usedMatchers(c);
    // A phrase a person says is quoted from the sentence that writes it (synthesize-said.ts).
    const saying = saidQuote(
      used.map((i) => matchers[i]!),
      [...obligations, ...rule.semanticChecks.map((q) => q.quote)],
    );
    if (saying !== undefined) {
      quotes.set(c, saying);
      return saying;
    }
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
  /** Rounds of changes from the draft over the given candidates: the best reading, and the readings as good. */
  const search = (
    tried: readonly Candidate[],
    fewerFirst: boolean,
    numbered?: (r: Reading) => number,
  ): { current: Reading; pool: Reading[] } => {
    let current = drafted;
    let pool: Reading[] = [drafted];
    const byFewer = (a: Reading, b: Reading) =>
      b.agree - a.agree ||
      Number(b.fails) - Number(a.fails) ||
      (numbered === undefined ? 0 : numbered(b) - numbered(a)) ||
      a.parts.length - b.parts.length ||
      compareReadings(a, b);
    for (let round = 0; round < MAX_ROUNDS && current.agree < labeled.length && !spent(); round++) {
      const next: Reading[] = [];
      const triggers = (c: Candidate | undefined): Reading["trigger"][] => {
        const t: Reading["trigger"][] = [current.trigger];
        if (c !== undefined) t.push({ matcher: subjectOf(c) });
        // A check on one kind of event with no window ("no tape goes through the shredder") also
        // gates on that event's action: the rule applies where the action happens.
        const own = c === undefined ? undefined : actionTrigger(c);
        if (own !== undefined && !t.some((x) => "matcher" in x && x.matcher === own)) t.push({ matcher: own });
        return t;
      };
      // Every reading counts against the budget; none is judged past it.
      // Unanchored, a reading no better on the labels than the current one is kept nowhere: only counted.
      const tryReading = (parts: Reading["parts"], t: Reading["trigger"]) => {
        if (spent()) return;
        if (!anchored && !fitsMore(parts, t, current.agree)) searched.readings++;
        else next.push(make(parts, t));
      };
      current.parts.forEach((_, k) => {
        const without = current.parts.filter((__, j) => j !== k);
        if (without.length > 0) for (const t of triggers(undefined)) tryReading(without, t);
      });
      // A drafted check still in the reading, with one of its events swapped; a new subject brings its trigger.
      for (const v of variants) {
        const k = current.parts.findIndex((p) => "drafted" in p && p.drafted === v.drafted);
        if (k < 0) continue;
        const parts = current.parts.map((p, j) => (j === k ? { variant: v } : p));
        for (const t of v.subject === undefined ? [current.trigger] : [current.trigger, { matcher: subjectIndex.get(v)! }])
          tryReading(parts, t);
      }
      for (const c of tried) {
        if (spent()) break;
        const replacedBy = (k: number) => {
          const p = current.parts[k]!;
          return { candidate: c, quote: "drafted" in p ? quoteFor(p.drafted, c) : "variant" in p ? p.variant.check.quote : p.quote };
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
      let most = -1;
      for (const r of next) if (r.agree > most) most = r.agree;
      if (most <= current.agree) break;
      // Those that fit most labels, sorted alone: both orders put them first, and the sort is stable.
      pool = next.filter((r) => r.agree === most).sort(fewerFirst ? byFewer : compareReadings);
      current = pool[0]!;
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
  const plain = all.filter((c) => (extensions(c) === 0 || saidFresh(c, vocab)) && usedMatchers(c).every((i) => plainMatcher[i]));
  let { current, pool } = search(plain, false);
  if ((current.agree < labeled.length || current.parts.length > 1 || !current.fails) && plain.length < all.length && !spent()) {
    // Among the extended readings, fewer checks first: one check with `on:` over a plain one plus a patch.
    const extended = search(all, true);
    const better =
      extended.current.agree - current.agree ||
      Number(extended.current.fails) - Number(current.fails) ||
      current.parts.length - extended.current.parts.length;
    if (better > 0) ({ current, pool } = extended);
  }
  // A fit that uses no number the words write reads some other rule: the extended forms that carry
  // one (a sum per trip, a threshold) are searched, and one that fits as well replaces it (synthesize-written.ts).
  const numbered = once((r: Reading) => writtenUse(checksOf(r), vocab.said, vocab.cuts));
  if (!anchored && numbered(current) === 0 && plain.length < all.length && !spent()) {
    const extended = search(all, true, numbered);
    const x = extended.current;
    if (numbered(x) > 0 && x.agree >= current.agree && Number(x.fails) >= Number(current.fails)) ({ current, pool } = extended);
  }
  // So with the forms the words ask for by name ("other than the agent who …", "the most recent
  // look-up", "no later than the second entry following"): one that fits as well replaces the fit
  // (synthesize-cued.ts).
  const cues = formCues(vocab);
  const cued = once((r: Reading) => cuedUse(checksOf(r), cues));
  if (!anchored && cued(current) < cuesGiven(cues) && plain.length < all.length && !spent()) {
    const extended = search(all, true, cued);
    const x = extended.current;
    if (cued(x) > cued(current) && x.agree >= current.agree && Number(x.fails) >= Number(current.fails)) ({ current, pool } = extended);
  }
  // The phrase reading anchors the pick when it is credible, fitting all labels but a tolerated
  // few: then the labels refine it, and the reading of highest rank wins (synthesize-rank.ts: fit,
  // least change, words), ties going to the search's own order. Otherwise the words say little
  // the search can trust, and the search's best fit stands.
  const best = anchored ? top[0]! : current;

  if (best === drafted) return result(readSentences(drafted), []);
  // Labels must not move the draft by accident: a change is kept only when the pick, made with
  // each label left out in turn, predicts that label more often than the phrase reading agrees
  // with it. A tie keeps the phrase reading (the words). So one label the draft misses never
  // moves it alone (left out, the draft fits the rest): a change needs labels that predict each other.
  // The test guards a credible phrase reading (anchored): one that misses more labels than it may
  // has already lost to the labels, and its agreement is no prediction worth keeping; nor has a
  // rule left to the model (no check) a verdict of its own here. There the search's fit stands.
  if (anchored) {
    const predicted = heldOut(labeled, bestAgreeing, bestMissing, anchored);
    // The reading not kept is the runner-up: a label on a sample where the two disagree may settle it.
    if (predicted <= drafted.agree) return { ...result(drafted, [best]), unconfirmed: { predicted, draft: drafted.agree } };
  }
  // Runner-ups: other readings as good on the labels, that judge some sample differently.
  const rivals = anchored ? top.filter((r) => r.agree === best.agree) : pool;
  const distinct: Reading[] = [];
  for (const r of rivals) {
    if (r === best || distinct.length >= 3) continue;
    if (r.vector.join() === best.vector.join() || distinct.some((d) => d.vector.join() === r.vector.join())) continue;
    distinct.push(r);
  }
  // The pick tied on a key its words ground, where that still fits the labels (synthesize-tied.ts);
  // each tied reading judged counts against the budget.
  const picked = buildRule(rule, best, triggerMatchers);
  const judge = () => !spent() && ++searched.readings > 0;
  const tied = tiedPick(picked, samples, vocab, (id) => labels[id]?.[rule.name], judge);
  const found = result(best, distinct);
  return tied === undefined ? found : { ...found, rule: tied };
}

function buildRule(rule: MetaBehavior, reading: Reading, matchers: Matcher[]): MetaBehavior {
  const checks = reading.parts.map((p) =>
    "drafted" in p ? rule.checks[p.drafted]! : "variant" in p ? p.variant.check : toCheck(p.candidate, matchers, p.quote),
  );
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
