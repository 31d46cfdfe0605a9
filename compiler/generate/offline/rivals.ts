/**
 * Readings of a rule its words support over the samples, with no labels (issue 25): the label
 * search's candidate checks (synthesize-prepare.ts, synthesize-candidates.ts), ranked by how well
 * their matchers match the rule's words, kept where they are plausible as the words path keeps its
 * own reading (synthesize-unlabeled.ts: it applies to some samples, fails one, passes at least as
 * many as it fails). The drafter does not draft from them; the interview asks a verdict question
 * on a sample where one disagrees with the draft (verdict-readings.ts), and the answer, a label,
 * settles which reading stands.
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { MetaBehavior, Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import type { Lexicon } from "./lexicon.js";
import { rankedCandidates, score } from "./synthesize-candidates.js";
import { toCheck } from "./synthesize-check.js";
import { evaluate, subjectOf, usedMatchers, type Candidate } from "./synthesize-eval.js";
import { prepare } from "./synthesize-prepare.js";
import { boundsIn } from "./synthesize-vocab.js";

/** Rival readings kept, the best-scoring first. */
const MAX_RIVALS = 3;
/** Candidates looked at, the best-scoring first: a bound, so the question costs little. */
const MAX_LOOKED = 400;
/** How much of the rule's words each matcher of a rival must share (as the words path asks of its own). */
const MIN_RELEVANCE = 0.5;
/** How far below the best plausible candidate's score a rival may be: a reading the words barely support is no rival. */
const SCORE_MARGIN = 0.6;
const ANY_EVENT: Pattern = [{ actor: "user" }, { actor: "agent" }, { actor: "tool" }];

/**
 * Up to MAX_RIVALS plausible readings of `rule` from the words of `section`, each one check under
 * the trigger of its own subject, best first, that judge the samples differently
 * from each other (the caller sets aside any that judge them as the draft does). Empty with fewer than three samples (too few to call anything plausible).
 */
export function wordsRivals(lexicon: Lexicon, rule: MetaBehavior, section: string, samples: readonly Trajectory[]): MetaBehavior[] {
  if (samples.length < 3) return [];
  const { vocab, index } = prepare(lexicon, rule, section, samples, {});
  const { matchers, relevance } = vocab;
  // Rivals that judge every sample alike are one reading; the caller sets aside any the draft's verdicts equal.
  const seen = new Set<string>();
  const rivals: MetaBehavior[] = [];
  let top: number | undefined;
  for (const c of rankedCandidates(vocab, boundsIn(section), MAX_LOOKED)) {
    if (rivals.length >= MAX_RIVALS) break;
    if (!usedMatchers(c).every((m) => relevance[m]! >= MIN_RELEVANCE)) continue;
    const s = score(c, vocab);
    if (top !== undefined && top - s > SCORE_MARGIN) break;
    const subject = subjectOf(c);
    const vector = index.map((x) =>
      x.events.length === 0 || (subject !== "any" && x.hits[subject]!.length === 0) ? "na" : evaluate(c, x),
    );
    const fired = vector.filter((v) => v !== "na").length;
    const fail = vector.filter((v) => v === "false").length;
    if (fired < 2 || fail === 0 || fired - fail < fail) continue;
    top ??= s;
    const key = vector.join();
    if (seen.has(key)) continue;
    seen.add(key);
    rivals.push(asRule(rule, c, matchers));
  }
  return rivals;
}

/** The rival as a rule: the drafted rule's name and section, its one check, the trigger of its subject. */
function asRule(rule: MetaBehavior, c: Candidate, matchers: Parameters<typeof toCheck>[1]): MetaBehavior {
  const subject = subjectOf(c);
  const trigger: Pattern = subject === "any" ? ANY_EVENT : [matchers[subject]!];
  const what = subject === "any" ? "An" : `A ${exactValue(matchers[subject]!.action) ?? "matching"}`;
  const quote = rule.checks[0]?.quote ?? rule.semanticChecks[0]?.quote ?? rule.name;
  const check = toCheck(c, matchers, quote);
  return {
    ...rule,
    trigger: { description: `${what} event occurs.`, match: trigger },
    checks: [check],
    semanticChecks: rule.semanticChecks.filter((q) => q.quote !== quote),
  };
}
