/**
 * A second duty of one sentence, read as its own check with labels (issue 25).
 *
 * "Once a ward bed is closed for cleaning no patient is put in it, and a swab must be logged for
 * that bed before it is reopened": one sentence, two obligations (coverage.ts counts each sub-clause
 * joined by "and" or "; " on its own). A drafted check that quotes the whole sentence but reads only
 * one of its duties (no admission after a closing) covers the other in name only: the draft's
 * verdicts never see the swab, and a person's labels that judge the whole rule then disagree with it
 * where the second duty was broken. The search from labels (synthesize.ts) would patch the miss
 * with whatever fits six labels best near the draft, often a change of the first duty's events.
 *
 * So, before the search, each such second duty is read on its own words: the candidate checks whose
 * every event the duty names (half an action's words at least), one of them an act the duty names
 * outright that the drafted check does not use (the swab), ranked by the duty's words, then the
 * search's order; of the first few, the one that agrees with most labels, at least as many as the
 * draft and on some sample otherwise, joins the draft as a check of its own, quoting the duty (and
 * the drafted check its own part of the sentence). The phrase reading the search then refines is
 * that one. A duty that adds nothing the labels bear out stays as it was.
 */
import type { Matcher, MetaBehavior } from "../../ir/types.js";
import { statesObligation } from "../coverage.js";
import { candidateMatchers, type Vocab } from "./synthesize-vocab.js";
import type { Lexicon } from "./lexicon.js";
import type { Trajectory } from "../../../runtime/types.js";
import { score } from "./synthesize-candidates.js";
import { usedMatchers, type Candidate, type RuleLabels } from "./synthesize-eval.js";
import { actionsOf } from "./synthesize-forms.js";
import { nameStems, normalizeWhitespace, stemSet } from "./words.js";
import { toCheck } from "./synthesize-check.js";
import type { Reading } from "./synthesize-reading.js";

/** How the rule came to the search from labels (synthesize.ts). */
export interface SynthesisOptions {
  /** Whether a second duty of one sentence may still be read as its own check; default yes. */
  duties?: boolean;
}

/** How much of a matcher's action the duty must name: half its words. */
const NAMED = 0.5;
/** Words that make a duty forbid rather than oblige. */
const NEGATED = /\b(?:never|not|no|nor|nothing|none|cannot|can't|mustn't|shouldn't|won't|don't|doesn't|may not)\b/i;
/** Candidates tried per duty, the duty's own words first. */
export const PER_DUTY = 60;

/** A drafted check's sentence split: the part the check reads, and a duty it quotes but does not read. */
export interface SecondDuty {
  /** The drafted check's index. */
  check: number;
  /** The sub-clause the check's events read (its quote from now on). */
  own: string;
  /** The other obligation of its sentence. */
  duty: string;
}

/** The actions a check's events name. */
function checkActions(check: MetaBehavior["checks"][number]): string[] {
  const patterns =
    check.type === "ordering"
      ? [check.first, check.before]
      : check.type === "pairing"
        ? [check.each, check.followedBy]
        : check.type === "condition"
          ? [check.each, ...Object.values(check.with ?? {}).map((b) => b.latest ?? b.first)]
          : [check.match, check.after];
  return patterns.flatMap((p) => (p ?? []).flatMap((m) => actionsOf(m as Matcher)));
}

/** Share of an action's name's words a text's stems hold. */
function named(action: string, stems: ReadonlySet<string>): number {
  const own = nameStems(action).filter((s) => s !== "result");
  return own.filter((s) => stems.has(s)).length / Math.max(1, own.length);
}

/**
 * The second duties of the rule's drafted checks: per check whose quote holds two obligations of
 * the section or more, the one its events' actions name most is its own, and each other one that
 * states an obligation of its own words ("must", "never"…) is a duty it does not read. A check whose
 * events the other part names as well (both name `swab`) reads both, or cannot be told apart: none.
 */
export function secondDuties(rule: MetaBehavior, obligations: readonly string[]): SecondDuty[] {
  const out: SecondDuty[] = [];
  rule.checks.forEach((check, k) => {
    const quote = normalizeWhitespace(check.quote);
    const parts = obligations.filter((o) => quote.includes(normalizeWhitespace(o)));
    if (parts.length < 2) return;
    const actions = [...new Set(checkActions(check))];
    const reads = parts.map((p) => {
      const stems = stemSet(p);
      return actions.reduce((sum, a) => sum + named(a, stems), 0);
    });
    const best = Math.max(...reads);
    const own = reads.indexOf(best);
    if (best <= 0 || reads.filter((r) => r === best).length > 1) return;
    parts.forEach((p, j) => {
      if (j !== own && statesObligation(p)) out.push({ check: k, own: parts[own]!, duty: p });
    });
  });
  return out;
}

/**
 * The candidates that read a duty on its own words, best first: every event one the duty names by
 * half its action's words, one of them an act it names outright (every word of its name) that the
 * drafted check does not use. At most PER_DUTY.
 */
export function dutyCandidates(
  lexicon: Lexicon,
  rule: MetaBehavior,
  duty: SecondDuty,
  samples: readonly Trajectory[],
  labels: RuleLabels,
  vocab: Vocab,
  all: readonly Candidate[],
): Candidate[] {
  const labelOf = (i: number) => labels[samples[i]!.id]?.[rule.name];
  const own = candidateMatchers(lexicon, rule, duty.duty, samples, labelOf);
  const stems = stemSet(duty.duty);
  // A call and its own result are one act: a duty that names the result of the check's call ("a fresh
  // reading", "the next release") speaks of that act again, not of a new one.
  const drafted = new Set(checkActions(rule.checks[duty.check]!).flatMap((a) => [a, a.replace(/_result$/, ""), `${a}_result`]));
  const naming = vocab.matchers.map((m) => {
    const acts = actionsOf(m);
    return acts.length > 0 && acts.every((a) => named(a, stems) >= NAMED);
  });
  const anew = vocab.matchers.map((m) => actionsOf(m).some((a) => !drafted.has(a) && named(a, stems) >= 1));
  const scored: Vocab = { ...own, matchers: vocab.matchers, relevance: vocab.matchers.map((m) => own.relevanceOf(m)) };
  // A duty that obliges an act ("a swab must be logged") is read as a check that requires it (an
  // event required after another, a follower of each): an ordering would only let it happen.
  const obliges = !NEGATED.test(duty.duty);
  const requires = (c: Candidate) =>
    (c.type === "required" && anew[c.match]!) ||
    (c.type === "pairing" && anew[c.followedBy]!) ||
    (c.type === "count" && c.min !== undefined);
  return all
    .flatMap((c, i) => {
      const used = usedMatchers(c);
      if (!used.every((m) => naming[m]) || !used.some((m) => anew[m])) return [];
      if (obliges && !requires(c)) return [];
      return [{ c, i, s: score(c, scored) }];
    })
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, PER_DUTY)
    .map((x) => x.c);
}

/**
 * The rule with each second duty that the labels bear out read as its own check, or undefined when
 * none is. Per duty in order, of its candidates (dutyCandidates) each added to the reading so far
 * (`make`, the search's own judge of a reading), the one that agrees with most labels, no fewer than
 * the reading, and judges some sample otherwise; ties go to the duty's words.
 */
export function withDuties(
  lexicon: Lexicon,
  rule: MetaBehavior,
  obligations: readonly string[],
  samples: readonly Trajectory[],
  labels: RuleLabels,
  vocab: Vocab,
  all: readonly Candidate[],
  drafted: Reading,
  make: (parts: Reading["parts"], trigger: Reading["trigger"]) => Reading,
): MetaBehavior | undefined {
  const duties = secondDuties(rule, obligations);
  if (duties.length === 0) return undefined;
  let current = drafted;
  const quotes = rule.checks.map((c) => c.quote);
  for (const duty of duties) {
    let best: Reading | undefined;
    for (const c of dutyCandidates(lexicon, rule, duty, samples, labels, vocab, all)) {
      const r = make([...current.parts, { candidate: c, quote: duty.duty }], current.trigger);
      if (r.agree < current.agree || r.vector.every((v, i) => v === current.vector[i])) continue;
      if (best === undefined || r.agree > best.agree) best = r;
    }
    if (best === undefined) continue;
    current = best;
    quotes[duty.check] = duty.own;
  }
  if (current === drafted) return undefined;
  const added = current.parts.flatMap((p) => ("candidate" in p ? [toCheck(p.candidate, vocab.matchers, p.quote)] : []));
  return { ...rule, checks: [...rule.checks.map((c, k) => ({ ...c, quote: quotes[k]! })), ...added] };
}
