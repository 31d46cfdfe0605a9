/**
 * What the search from labels (issue 25, synthesize.ts) starts from for one rule: its matchers (the
 * draft's own, the samples' vocabulary, phrases a person says) and where each occurs in every
 * sample; and every candidate check it would try with its own verdicts, for the tests that hold the
 * search's evaluation to the judge's generated code.
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { Check, MetaBehavior } from "../../ir/types.js";
import { matcherHolds } from "../../ir/value-eval.js";
import type { Lexicon } from "./lexicon.js";
import { candidates } from "./synthesize-candidates.js";
import { toCheck } from "./synthesize-check.js";
import { boundsIn, candidateMatchers } from "./synthesize-vocab.js";
import { evaluate, type RuleLabels, type SampleIndex, type Verdict } from "./synthesize-eval.js";
import { withSaid } from "./synthesize-said.js";
import { headingWords } from "./synthesize-voiced.js";

/** The matchers of a rule's search and where each occurs in every sample. */
export function prepare(lexicon: Lexicon, rule: MetaBehavior, section: string, samples: readonly Trajectory[], labels: RuleLabels) {
  const labelOf = (i: number) => labels[samples[i]!.id]?.[rule.name];
  const text = `${headingWords(rule.name)}. ${section}`;
  // A phrase the rule quotes that a user turn says is an event of the search too (synthesize-said.ts).
  const vocab = withSaid(candidateMatchers(lexicon, rule, text, samples, labelOf), text, samples);
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
