/**
 * The offline drafter: a judge.yaml proposal without any model, from the
 * spec's wording and the samples' vocabulary. It reads each rule sentence for
 * a few fixed shapes ("Before X, Y", "X before Y", "Whenever X, afterwards
 * Y", "After X, no further Y", "at most N", "at least N different", "always",
 * "must", "every"), and picks the actions and metadata each side names. The
 * agent is "the agent", "it", or the name the spec gives it ("Sprout"). What
 * it cannot map becomes a semantic check whose quote is the clause itself, so
 * nothing the spec says is silently lost; the interview is where a person
 * corrects it.
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { Check, MetaBehavior, Pattern, SemanticCheck } from "../../ir/types.js";
import type { BehaviorSpec, SpecSection } from "../../behavior-md/load.js";
import { buildLexicon, withSpecActions, type Lexicon } from "./lexicon.js";
import { withSpecWords } from "./glosses.js";
import { inOrdinaryCase } from "./voice-case.js";
import { readFromWords } from "./synthesize-unlabeled.js";
import { wordsRivals } from "./rivals.js";
import { voicedParagraphs } from "./synthesize-voiced.js";
import { actsNamedPlainly } from "./named-acts.js";
import { notInSamplesNotes, specActionNames } from "./backticks.js";
import { withOutcomes } from "./outcomes.js";
import { normalSamples, normalVocabulary } from "./inputs.js";
import { sectionSentences } from "./sentences.js";
import { flowchartSentences, withStopMeaning } from "./flowchart.js";
import type { Draft, DraftNote, LabelVerdict, VerdictQuestion, Vocabulary } from "../types.js";
import { previewRule } from "../preview.js";
import { coverageNotes, obligations } from "../coverage.js";
import { synthesizeRule, type RuleLabels, type Synthesis } from "./synthesize.js";
import {
  agentDoes,
  forbiddenFrom,
  orderingFrom,
  pairingFrom,
  quoteFor,
  requiredFrom,
  semanticFor,
  type ClauseContext,
  type ClauseOutcome,
} from "./clauses.js";
import { draftTrigger } from "./trigger.js";
import { tiedByAnother } from "./another.js";
import { anchoredPairing, freshAcross, withFreshness, withinOf, withWithin } from "./combined.js";
import { countFrom, groupedCount, sumFrom } from "./counts.js";
import { RANGE_STATED } from "./bounds.js";
import { continuedInto } from "./continued.js";
import { notCountedAcross, withTotalsJoined } from "./totals.js";
import { conditionedAct, withDeeds } from "./deeds.js";
import { withComparisons } from "./compared.js";
import { restatedBansAsQuestions } from "./restated.js";
import { leadingReading } from "./leading.js";
import { fieldFrom } from "./fields.js";
import { actionVerbs, inOriginalWords, voiced, withDefinedTerms } from "./voice.js";
import {
  agentNames,
  boundsCount,
  CONCESSION,
  CONDITION,
  countBoundIn,
  DEFAULT_GRAMMAR,
  forbids,
  grammarFor,
  isQualifier,
  NEGATION,
  PURPOSE,
  SESSION_END,
  shapeSentence,
  STRONG_CUE,
  type Grammar,
  type SentenceShape,
} from "./shape.js";

export { agentNames, grammarFor, shapeSentence };

export interface OfflineDraftInput {
  spec: BehaviorSpec;
  vocabulary: Vocabulary;
  /** The sample trajectories: their contents supply `contentIncludes` text. */
  samples: readonly Trajectory[];
  /**
   * Rule verdicts some samples are labeled with (by sample id, then rule name): a rule whose
   * phrase reading disagrees with them is re-read by a search over the samples (synthesize.ts).
   */
  labels?: RuleLabels;
}

/** Whether a clause states a rule at all, rather than describing or qualifying one. */
function isRuleClause(context: ClauseContext, clause: string): boolean {
  if (STRONG_CUE.test(clause) || boundsCount(clause) || groupedCount(clause) || forbids(clause, context.grammar)) return true;
  if (RANGE_STATED.test(clause)) return true; // "A single withdrawal is from 5 to 25 g" (bounds.ts)
  // A window of steps ("no later than the second step after …") is a time frame too.
  const weak =
    context.shape.condition !== undefined ||
    context.window !== undefined ||
    context.grammar.timeFrame.test(clause) ||
    /\b(?:before|after|afterwards|then)\b/i.test(clause);
  // "Any landing over 500 kilos gets a sample taken …, no later than the second step after …": what each one gets, in time.
  return weak && (agentDoes(context, clause) || (context.window !== undefined && /^(?:each|every|any)\s/i.test(clause)));
}

/** One clause → a check, a semantic check, or nothing; "within the next N events" is a pairing's window. */
function draftClause(context: ClauseContext, rawClause: string): ClauseOutcome {
  // "…, and once the rejection is sent, the file is closed with `close_candidate`": a later clause
  // with a condition of its own is read as a sentence of its own, quoted as written.
  const own = rawClause.replace(/^(?:and|but|then)\s+/i, "");
  if (context.index > 0 && CONDITION.test(own)) {
    const sub = shapeSentence(own, context.grammar);
    if (sub.condition !== undefined && sub.clauses.length === 1) return draftClause({ ...context, shape: sub, index: 0 }, sub.clauses[0]!);
  }
  const window = withinOf(rawClause.replace(PURPOSE, ""));
  const outcome = draftPlainClause(window === undefined ? context : { ...context, window }, rawClause, window?.rest);
  if (window === undefined) return outcome;
  // "… calls `send_notice` for that booking within two steps of cancel_booking": paired with the event the window counts from.
  const anchored =
    window.of === undefined
      ? undefined
      : anchoredPairing(context, window.rest, window.of, window.within, outcome, quoteFor(context, rawClause));
  return anchored ?? withWithin(outcome, window.within);
}

function draftPlainClause(context: ClauseContext, rawClause: string, stripped?: string): ClauseOutcome {
  // ", whether paid in cash or by cheque,": either way, so no part of which events it is about.
  const clause = (stripped ?? rawClause.replace(PURPOSE, ""))
    .replace(CONCESSION, "")
    .replace(SESSION_END, "")
    .replace(/,\s*whether\b[^,;]*?\bor\b[^,;]*,/gi, "");
  const quote = quoteFor(context, rawClause);
  // A user's quoted words before an act, a condition on the latest look-up (leading.ts).
  const leading = leadingReading(context, clause, quote) ?? fieldFrom(context, clause, quote);
  if (leading !== undefined) return leading;
  // "No X until Y" and "never X unless Y" are orderings, not qualifiers.
  if (/\b(?:until|unless|without)\b/i.test(clause) && NEGATION.test(clause.replace(/\bwithout\b.*$/i, ""))) {
    const ordering = orderingFrom(context, clause, quote);
    if (ordering !== undefined) return ordering;
  }
  if (isQualifier(clause, context.grammar) || !isRuleClause(context, clause)) return { kind: "skip" };
  const forbidding = forbids(clause, context.grammar);
  // An ordering context ("Before answering, … at least one …") says more than a count of one;
  // "at least two different …" says more than the ordering, which one event satisfies.
  const several = countBoundIn(clause);
  const countFirst = several?.words === "at least" && several.n >= 2;
  // "Every quarantine is followed by a `notify_qa` call …, before the assistant moves on": a pairing.
  const attempts = forbidding
    ? [sumFrom, countFrom, forbiddenFrom]
    : /\b(?:is|are|be|gets?)\s+(?:always\s+|then\s+|immediately\s+|promptly\s+)?followed\s+by\b/i.test(clause)
      ? [pairingFrom, orderingFrom, sumFrom, countFrom, requiredFrom]
      : context.shape.condition?.kind === "before" || /\bbefore\b|\bpreceded\s+by\b/i.test(clause)
        ? countFirst
          ? [sumFrom, countFrom, orderingFrom, requiredFrom]
          : [orderingFrom, sumFrom, countFrom, requiredFrom]
        : [pairingFrom, orderingFrom, sumFrom, countFrom, requiredFrom];
  for (const attempt of attempts) {
    const outcome = attempt(context, clause, quote);
    if (outcome !== undefined) return outcome;
  }
  return semanticFor(quote, forbidding, "the drafter found no deterministic shape in this clause");
}

/** A condition that only points back ("After that, …"): the situation of the sentence before. */
const ANAPHORIC = /^(?:that|this|which|then)$/i;

/**
 * The sentence read in the situation the section has set up: "After that, the supervisor gets
 * paged" is after what the previous condition named, and a sentence with no condition of its own
 * follows one that set up a situation and demanded nothing ("… that robot is finished working").
 */
function inSituation(shape: SentenceShape, situation: SentenceShape["condition"], last: SentenceShape["condition"]): SentenceShape {
  // "That diver is not logged in again": a subject pointing back at the thing of the last condition is in its window.
  const back = situation ?? (/^(?:that|this)\s+[a-z]+\s/i.test(shape.sentence) && NEGATION.test(shape.sentence) ? last : undefined);
  if (shape.condition === undefined) return back === undefined ? shape : { ...shape, condition: { ...back, text: "" } };
  if (ANAPHORIC.test(shape.condition.phrase) && last !== undefined) return { ...shape, condition: { ...last, text: shape.condition.text } };
  return shape;
}

/** Drafts one meta-behavior from its section. */
export function draftSection(
  lexicon: Lexicon,
  section: SpecSection,
  grammar: Grammar = DEFAULT_GRAMMAR,
): { rule: MetaBehavior; notes: Omit<DraftNote, "rule">[] } {
  const sentences = sectionSentences(section.body);
  // A flowchart's question read with the answers that stop it, its steps' labels left out (flowchart.ts).
  const ruleSentences = flowchartSentences(sentences.filter((s) => s.role === "rule"));
  // Each sentence read in the one voice the readers know; the quotes stay the spec's words (voice.ts).
  const knows = actionVerbs(lexicon);
  const voices = ruleSentences.map((s, i) =>
    voiced(
      s.text,
      grammar.agent,
      knows,
      ruleSentences[i + 1]?.text,
      ruleSentences[i - 1]?.text,
      lexicon.definedTerms,
      {
        ...(lexicon.stopMeans === undefined ? {} : { stop: lexicon.stopMeans }),
        ...(s.refers === undefined ? {} : { refers: s.refers }),
      },
      s.banned === true,
    ),
  );
  const shapes = voices.map((v) => shapeSentence(v.text, grammar));
  const checks: Check[] = [];
  const semanticChecks: SemanticCheck[] = [];
  const notes: Omit<DraftNote, "rule">[] = [];
  let situation: SentenceShape["condition"];
  let last: SentenceShape["condition"];
  let earlier: Pattern[] = [];
  for (const [i, written] of shapes.entries()) {
    // A sentence read as part of its neighbour (voice-joins.ts) has nothing of its own to read.
    if (voices[i]!.text === "") continue;
    // "At most 2,000 kilos per trip, and that's every landing added up": one bound on a total (totals.ts).
    const shape = withTotalsJoined(inSituation(written, situation, last));
    last = shape.condition ?? last;
    // Each clause on its own, then the passes that read the sentence as a whole, in this order: a call
    // read as its result (outcomes.ts), deeds (deeds.ts), comparisons (compared.ts), fresh go-aheads
    // (consent.ts, combined.ts), "A message about another case doesn't count" tying the rule's
    // check by the case (another.ts), and "… shall not be counted toward this limit" read with the count (totals.ts).
    let outcomes = shape.clauses.map((clause, index) => draftClause({ lexicon, grammar, shape, index, earlier, drafted: checks }, clause));
    outcomes = withOutcomes(lexicon, shape, outcomes);
    outcomes = withDeeds(lexicon, shape, checks, outcomes);
    outcomes = withComparisons(lexicon, shape, checks, outcomes);
    outcomes = withFreshness(lexicon, shape.sentence, shape.clauses, outcomes);
    outcomes = freshAcross(section.body, voices[i]!, checks, outcomes);
    outcomes = tiedByAnother(lexicon, section.body, voices[i]!, checks, outcomes);
    outcomes = notCountedAcross(lexicon, section.body, voices[i]!, checks, notes, outcomes);
    const act = conditionedAct(lexicon, shape.sentence);
    if (act.length > 0) earlier = act;
    // "When a status result reports the battery as low, that robot is finished working for now.":
    // a condition whose own sentence demands nothing sets up the situation the next sentences are about.
    if (written.condition !== undefined) situation = outcomes.every((o) => o.kind === "skip") ? shape.condition : undefined;
    outcomes
      .map((o) => inOriginalWords(o, voices[i]!))
      .forEach((outcome) => {
        if (outcome.kind === "check") {
          // A deadline in a sentence of its own takes the place of the duty it times (continued.ts).
          const merged = continuedInto(checks, outcome.check, section.body);
          if (merged !== undefined && outcome.note === undefined) {
            checks[merged.index] = merged.check;
            return;
          }
          if (outcome.note !== undefined)
            notes.push({ clause: { kind: "check", index: checks.length }, kind: "unmapped-clause", message: outcome.note });
          checks.push(outcome.check);
        } else if (outcome.kind === "semantic") {
          notes.push({
            clause: { kind: "semanticCheck", index: semanticChecks.length },
            kind: "unmapped-clause",
            message: `${outcome.reason}; it became a semantic question: edit it or map it to events`,
          });
          semanticChecks.push(outcome.semantic);
        }
      });
  }
  // A ban the rule's condition on the same act spells out is a question, not a check (restated.ts).
  const folded = restatedBansAsQuestions(checks, semanticChecks, notes);
  checks.splice(0, checks.length, ...folded.checks);
  semanticChecks.splice(0, semanticChecks.length, ...folded.semanticChecks);
  notes.splice(0, notes.length, ...folded.notes);
  if (checks.length === 0 && semanticChecks.length === 0) {
    // Every rule needs a clause; the section's first sentence stands for the whole rule.
    const quote = ruleSentences[0]?.text ?? sentences[0]?.text ?? section.heading;
    const fallback = semanticFor(quote, false, "the drafter found no rule sentence in this section") as Extract<
      ClauseOutcome,
      { kind: "semantic" }
    >;
    notes.push({
      clause: { kind: "semanticCheck", index: 0 },
      kind: "unmapped-clause",
      message: `${fallback.reason}; it became a semantic question: edit it or map it to events`,
    });
    semanticChecks.push(fallback.semantic);
  }
  const trigger = draftTrigger(lexicon, section, sentences, shapes, checks);
  if (trigger.semantic === true)
    notes.push({
      clause: { kind: "trigger" },
      kind: "unmapped-clause",
      message: "no sample event marks when this rule applies, so a model decides (semantic trigger)",
    });
  // judge.yaml forbids an empty source: an empty section's rule has none.
  return {
    rule: { name: section.heading, trigger, checks, semanticChecks, ...(section.body === "" ? {} : { source: section.body }) },
    notes,
  };
}

/**
 * Samples mix sessions that keep a rule and sessions that break it, so a reading under which
 * none of them keeps it is implausible: "never repeats personal data in a chat reply" read as
 * "never replies". While the drafted rule passes no sample and fails several, the check that
 * fails the most samples goes back to being a question, with a note saying why.
 */
function plausible(
  drafted: { rule: MetaBehavior; notes: Omit<DraftNote, "rule">[] },
  samples: readonly Trajectory[],
  vocabulary: Vocabulary,
): typeof drafted {
  let { rule, notes } = drafted;
  for (;;) {
    const preview = previewRule(rule, samples);
    if (rule.checks.length === 0 || preview.rule.pass.length > 0 || preview.rule.fail.length < 2) return { rule, notes };
    // A check on a name the spec writes but no sample shows cannot be judged implausible by them: it stays as written.
    const fails = preview.clauses
      .filter((c) => c.clause.kind === "check")
      .map((c, i) =>
        notInSamplesNotes({ ...rule, trigger: { description: "", semantic: true }, checks: [rule.checks[i]!] }, vocabulary).length > 0
          ? -1
          : c.samples.fail.length,
      );
    if (Math.max(...fails) < 0) return { rule, notes };
    const worst = fails.indexOf(Math.max(...fails));
    const check = rule.checks[worst]!;
    const demoted = semanticFor(check.quote, check.type === "forbidden", "") as Extract<ClauseOutcome, { kind: "semantic" }>;
    const message = `read as a ${check.type} check, it failed ${fails[worst]} of the ${preview.triggered.length} samples the rule applies to and the rule passed none, so it became a semantic question: edit it or map it to events`;
    // The notes on the check go with it; those on later checks move up one.
    const kept = notes.flatMap((note) => {
      if (note.clause?.kind !== "check" || note.clause.index < worst) return [note];
      return note.clause.index === worst ? [] : [{ ...note, clause: { kind: "check" as const, index: note.clause.index - 1 } }];
    });
    notes = [...kept, { clause: { kind: "semanticCheck", index: rule.semanticChecks.length }, kind: "unmapped-clause", message }];
    rule = { ...rule, checks: rule.checks.filter((_, i) => i !== worst), semanticChecks: [...rule.semanticChecks, demoted.semantic] };
  }
}

/** A rule left wholly to the model, read from its words over the samples when a plausible reading fits them (synthesize-unlabeled.ts). */
function fromWords(
  drafted: { rule: MetaBehavior; notes: Omit<DraftNote, "rule">[] },
  lexicon: Lexicon,
  section: SpecSection,
  samples: readonly Trajectory[],
  grammar: Grammar,
  labeled = false,
): typeof drafted {
  const { rule } = drafted;
  const quote = rule.semanticChecks[0]?.quote;
  if (rule.checks.length > 0 || quote === undefined) return drafted;
  // A prohibition stays one: the question it replaces (clauses.ts semanticFor) or its words say it forbids.
  const forbidding = rule.semanticChecks[0]!.question.includes("avoid what this forbids") || forbids(quote, grammar);
  // The rule's own paragraphs: a value its rationale names is no matcher of the rule.
  const paragraphs = voicedParagraphs(section.body, lexicon, grammar.agent);
  // With no labels, words that name an act by its name's words are read so too (named-acts.ts); with
  // labels the search reads the rule from them instead.
  const read =
    readFromWords(lexicon, rule, paragraphs, quote, samples, forbidding, false, !labeled) ??
    (labeled || actsNamedPlainly(lexicon, paragraphs, quote).length === 0
      ? undefined
      : readFromWords(lexicon, rule, paragraphs, quote, samples, forbidding, true, true));
  if (read === undefined) return drafted;
  const message = `no phrase rule mapped "${quote}"; it was read from its words over the samples as a ${read.checks[0]!.type} check: check it`;
  // The notes on the semantic trigger and on the question it replaces go with them.
  const notes = drafted.notes.filter((n) => n.clause === undefined || (n.clause.kind === "semanticCheck" && n.clause.index > 0));
  return {
    rule: read,
    notes: [
      ...notes.map((n) =>
        n.clause?.kind === "semanticCheck" ? { ...n, clause: { kind: "semanticCheck" as const, index: n.clause.index - 1 } } : n,
      ),
      { clause: { kind: "check", index: 0 }, kind: "unmapped-clause", message },
    ],
  };
}

/** The note on a reading that fits more labels but was not kept (Synthesis.unconfirmed), or undefined. */
function unconfirmedNote(found: Synthesis): string | undefined {
  const kept = found.unconfirmed;
  if (kept === undefined) return undefined;
  const where = found.separating.length === 0 ? "" : ` (the two disagree on ${found.separating.join(", ")})`;
  return `a reading that fits more labels was found but not kept: with each label left out in turn, the search predicted ${kept.predicted} of them, no more than the draft agrees with (${kept.draft}); more labels may settle it${where}`;
}

/** The rule re-read from the labels when its phrase reading disagrees with them, with notes saying how it agrees. */
function withLabels(
  drafted: { rule: MetaBehavior; notes: Omit<DraftNote, "rule">[] },
  lexicon: Lexicon,
  section: SpecSection,
  samples: readonly Trajectory[],
  labels: RuleLabels,
  grammar: Grammar,
): typeof drafted & { question?: Omit<VerdictQuestion, "rule"> } {
  // The rule's own paragraphs in the readers' voice, as the words path reads them (fromWords): a rationale's story names no matcher.
  const found = synthesizeRule(
    lexicon,
    drafted.rule,
    voicedParagraphs(section.body, lexicon, grammar.agent),
    obligations(section.body).map((o) => o.text),
    samples,
    labels,
  );
  if (found.total === 0) return drafted;
  const notes: Omit<DraftNote, "rule">[] = found.changed
    ? // The clause notes were about the phrase reading, which the labels replaced.
      drafted.notes.filter((n) => n.clause === undefined)
    : drafted.notes.slice();
  const how = found.changed ? "re-read from the labels: " : "";
  notes.push({ kind: "labels", message: `${how}agrees with ${found.agree} of the ${found.total} labels given for this rule` });
  const unconfirmed = unconfirmedNote(found);
  if (unconfirmed !== undefined) notes.push({ kind: "labels", message: unconfirmed });
  if (found.runnerUps.length > 0) {
    const fit = found.agree === found.total ? "every label" : "as many labels";
    const where =
      found.separating.length === 0 ? "they judge the labeled samples alike" : `they disagree on ${found.separating.join(", ")}`;
    if (found.unconfirmed === undefined)
      notes.push({ kind: "labels", message: `${found.runnerUps.length + 1} readings fit ${fit}; ${where}` });
    const sample = found.separating[0];
    if (sample !== undefined) {
      const text = `In ${sample}, did the agent follow ${JSON.stringify(drafted.rule.name)}? y/n/n.a.`;
      notes.push({ kind: "labels", message: `${text} (label it to settle the reading)` });
      const on = samples.filter((s) => s.id === sample);
      const readings = { draft: ruleVerdict(found.rule, on), other: ruleVerdict(found.runnerUps[0]!, on) };
      // The runner-up goes with the question: an answer for it may pick it (verdict-readings.ts).
      const question = { ruleName: drafted.rule.name, sample, text, readings, other: found.runnerUps[0]! };
      return { rule: found.rule, notes, question };
    }
  }
  return { rule: found.rule, notes };
}

/** A rule's verdict on one sample, by the judge's own code. */
function ruleVerdict(rule: MetaBehavior, sample: readonly Trajectory[]): LabelVerdict {
  const preview = previewRule(rule, sample);
  return preview.rule.pass.length > 0 ? "true" : preview.rule.fail.length > 0 ? "false" : "na";
}

/** The drafter's readers of a spec: its samples normalized, the lexicon of its words and samples, the grammar of its agent. */
function readersOf(given: OfflineDraftInput) {
  // A library caller's raw samples (`amount: 700`) read as the CLI's validated ones (inputs.ts).
  const input = { ...given, samples: normalSamples(given.samples), vocabulary: normalVocabulary(given.vocabulary) };
  // A spec in capitals (a laminated card) names its agent and its actions' words as prose does (voice-case.ts).
  const plain = inOrdinaryCase(input.spec);
  const names = agentNames(plain);
  // The action names the spec writes in backticks are used as written, in the samples or not.
  const named = withSpecActions({ ...buildLexicon(input.vocabulary, input.samples), agentNames: names }, specActionNames(input.spec));
  // And the words it calls them by in prose ("a fill (`dispense`)", its keys' too), and a contract's defined terms (voice-terms.ts).
  // And what a flowchart's "stop" bans, when it says ("'Stop' means the bottle is not issued": flowchart.ts).
  const lexicon = withStopMeaning(withDefinedTerms(withSpecWords(plain, named), plain), plain);
  const grammar = grammarFor(names);
  return { input, lexicon, grammar };
}

/**
 * Other readings of a drafted rule that its section's words support over the samples, with no
 * labels (rivals.ts): where one disagrees with the draft on a sample, a verdict question there
 * separates them (verdict-readings.ts).
 */
export function unlabeledRivals(given: OfflineDraftInput, rule: MetaBehavior, section: SpecSection): MetaBehavior[] {
  const { input, lexicon, grammar } = readersOf(given);
  return wordsRivals(lexicon, rule, voicedParagraphs(section.body, lexicon, grammar.agent), input.samples);
}

/** Drafts a whole judge.yaml from the spec and the samples, without a model. */
export function draftOffline(given: OfflineDraftInput, sections: readonly SpecSection[] = given.spec.sections): Draft {
  const { input, lexicon, grammar } = readersOf(given);
  const notes: DraftNote[] = [];
  const questions: VerdictQuestion[] = [];
  const metaBehaviors = sections.map((section, rule) => {
    let drafted = fromWords(
      plausible(draftSection(lexicon, section, grammar), input.samples, input.vocabulary),
      lexicon,
      section,
      input.samples,
      grammar,
      input.labels !== undefined,
    );
    if (input.labels !== undefined) {
      const found = withLabels(drafted, lexicon, section, input.samples, input.labels, grammar);
      if (found.question !== undefined) questions.push({ rule, ...found.question });
      drafted = found;
    }
    for (const note of drafted.notes) notes.push({ rule, ...note });
    for (const note of coverageNotes(drafted.rule, section.body)) notes.push({ rule, ...note });
    for (const note of notInSamplesNotes(drafted.rule, input.vocabulary)) notes.push({ rule, ...note });
    return drafted.rule;
  });
  return {
    ir: { version: 1, behavior: input.spec.name, metaBehaviors },
    notes,
    origins: metaBehaviors.map(() => "offline" as const),
    ...(questions.length > 0 ? { questions } : {}),
  };
}
