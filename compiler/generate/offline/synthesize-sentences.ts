/**
 * Sentences the phrase reading left to the model, read again with labels (issue 25).
 *
 * A sentence no phrase rule maps becomes a semantic check: offline it judges nothing, so the
 * draft's verdicts ignore it. Labels given by a person judge the whole rule, that sentence too,
 * and six labels often fit the draft all the same (the sentence's case is not among them). The
 * search would then stop, although the samples' vocabulary holds what the sentence names: "the
 * most recent `read_wind` reading for the crane must be 20 m/s or less" is a condition on
 * `read_wind_result`'s `wind_mps`. So each such sentence that writes a name in backticks is read
 * on its own words: the candidate checks that use a name it writes and whose every event is one it
 * names (an action sharing half its words, a value it writes), best by the sentence's words (a
 * check judging the rule's own event first), then simpler; the first that fits the labels as well as the rule does and judges some sample
 * otherwise joins the rule in the sentence's place (synthesize.ts). Candidates from other words
 * (an event of the rule's other sentences, a value of the Why paragraph) are not tried, nor are
 * sentences that write no name: readings from loose words fit six labels by chance as often as by
 * reason (measured on the development sets: 7 held-out verdicts gained, 21 lost).
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { Matcher, MetaBehavior } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import type { Lexicon } from "./lexicon.js";
import { score } from "./synthesize-candidates.js";
import { candidateMatchers, type Vocab } from "./synthesize-vocab.js";
import { subjectOf, usedMatchers, type Candidate, type RuleLabels, type Verdict } from "./synthesize-eval.js";
import { actionsOf, crossRelevance } from "./synthesize-forms.js";

/** How much of a matcher the sentence must name: half its action's words, or a value it writes. */
const NAMED = 0.5;
/** What judging the rule's own event (its trigger's) adds to a candidate's score by the sentence's words. */
const SUBJECT = 1;
/** Candidates tried per sentence, the sentence's own words first. */
export const PER_SENTENCE = 200;

/** A sentence left to the model and the candidate checks that read it from its own words, best first. */
export interface SentenceCandidates {
  quote: string;
  candidates: Candidate[];
}

/**
 * Per semantic check of the rule (in order, each quote once), the candidates among `all` (over
 * `vocab`'s matchers) that read its sentence: every event one the sentence names, a tested value
 * or a comparison it speaks of; ranked by its words (the search's own score over the sentence's
 * words), then the search's order.
 */
export function sentenceCandidates(
  lexicon: Lexicon,
  rule: MetaBehavior,
  samples: readonly Trajectory[],
  labels: RuleLabels,
  vocab: Vocab,
  all: () => readonly Candidate[],
): SentenceCandidates[] {
  // A rule left to the model (no check) has no verdict for a sentence to join.
  if (rule.checks.length === 0) return [];
  const quotes = [...new Set(rule.semanticChecks.map((s) => s.quote))];
  const labelOf = (i: number) => labels[samples[i]!.id]?.[rule.name];
  const subject = new Set((rule.trigger.match ?? []).map((m) => JSON.stringify(m)));
  return quotes.flatMap((quote) => {
    // A sentence that writes no name in backticks gives only loose words: it stays with the model.
    const written = new Set([...quote.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim()));
    if (written.size === 0) return [];
    const own = candidateMatchers(lexicon, rule, quote, samples, labelOf);
    const relevance = vocab.matchers.map((m) => own.relevanceOf(m));
    const named = vocab.matchers.map((m) => names(own, m));
    const scored: Vocab = { ...own, matchers: vocab.matchers, relevance };
    const reads = (c: Candidate): boolean => {
      if (!usedMatchers(c).every((i) => named[i])) return false;
      // What the sentence writes in backticks is what it is about: a reading uses one of those names.
      if (!namesOf(c, vocab.matchers).some((n) => written.has(n))) return false;
      if (c.type !== "condition") return true;
      // A condition's test is on a value the sentence writes or a key it names; its comparison, on keys it names.
      const bind = vocab.matchers[c.bind]!;
      if (c.test !== undefined && own.relevanceOf({ ...bind, metadata: { [c.key]: c.test } }) <= own.relevanceOf(bind)) return false;
      if (c.also !== undefined && own.relevanceOf({ ...bind, metadata: { [c.also.key]: c.also.test } }) <= own.relevanceOf(bind))
        return false;
      return c.cross === undefined || crossRelevance(c.cross, own.words, quote) > 0;
    };
    // The rule is about its trigger's event: a check that judges that event reads the sentence as the rule's
    // ("the latest `read_wind` reading must be 20 m/s or less" before each lift), one that judges another
    // event only fits ("after a reading over 20, read the wind again").
    const judges = (c: Candidate) => {
      const k = subjectOf(c);
      return k !== "any" && subject.has(JSON.stringify(vocab.matchers[k]));
    };
    const candidates = all()
      .flatMap((c, i) => (reads(c) ? [{ c, i, s: score(c, scored) + (judges(c) ? SUBJECT : 0) }] : []))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .slice(0, PER_SENTENCE)
      .map((x) => x.c);
    return [{ quote, candidates }];
  });
}

/** Whether the sentence names the matcher's event: its action by half its words, and any value it tests by the sentence's own. */
function names(own: Vocab, m: Matcher): boolean {
  const action = { ...m, metadata: undefined };
  const r = own.relevanceOf(action);
  if (r < NAMED) return false;
  return m.metadata === undefined || own.relevanceOf(m) > r;
}

/**
 * The pick with each sentence read in turn: per sentence, its candidates in order, each added to
 * the reading (`add`; undefined once the search's budget is spent); the first that fits the labels
 * as well as the reading does is taken when it judges some sample otherwise (else the sentence
 * stays with the model: read so, it says nothing the draft does not).
 */
export function withSentences<R extends { agree: number; vector: readonly Verdict[] }>(
  pick: R,
  sentences: readonly SentenceCandidates[],
  add: (reading: R, candidate: Candidate, quote: string) => R | undefined,
): R {
  let current = pick;
  for (const { quote, candidates } of sentences)
    for (const c of candidates) {
      const r = add(current, c, quote);
      if (r === undefined) return current;
      // It must keep every label the reading fits, and say something of the samples the reading does not.
      if (r.agree < current.agree || r.vector.every((v, i) => v === current.vector[i])) continue;
      current = r;
      break;
    }
  return current;
}

/** The names a candidate uses: its events' actions (a `_result` as its call too), keys and `key: value` pairs, the keys it ties or compares. */
function namesOf(c: Candidate, matchers: readonly Matcher[]): string[] {
  const out: string[] = [];
  for (const i of usedMatchers(c)) {
    const m = matchers[i]!;
    for (const action of actionsOf(m)) out.push(action, action.replace(/_result$/, ""));
    for (const [key, value] of Object.entries(m.metadata ?? {})) {
      out.push(key);
      const exact = exactValue(value);
      if (exact !== undefined) out.push(`${key}: ${exact}`);
    }
  }
  if ("on" in c && c.on !== undefined) out.push(c.on);
  if ("onLater" in c && c.onLater !== undefined) out.push(c.onLater);
  if (c.type === "count") out.push(...[c.per, c.sum].filter((k): k is string => k !== undefined));
  if (c.type === "condition") {
    out.push(c.key);
    if (c.test !== undefined && exactValue(c.test) !== undefined) out.push(`${c.key}: ${exactValue(c.test)!}`);
    if (c.also !== undefined && exactValue(c.also.test) !== undefined) out.push(c.also.key, `${c.also.key}: ${exactValue(c.also.test)!}`);
    if (c.cross !== undefined) out.push(c.cross.key, c.cross.other);
  }
  return out;
}
