/**
 * What the front ends show of an interview state: the current question (its
 * clause as drafted and as decided, the evidence from the samples, warnings
 * about an edit, the choices) or the final review. Pure functions of the state.
 */
import { previewJudge, previewRule, type PreviewClauseRef, type PreviewWarningKind, type VerdictSamples } from "../generate/preview.js";
import { exactValue, keyOf } from "../ir/values.js";
import { quoteOccurs } from "../generate/offline/words.js";
import { contextSentences, ruleQuotes, uncoveredObligations } from "../generate/coverage.js";
import { didYouMean } from "../ir/did-you-mean.js";
import type { Check, MetaBehavior, Pattern } from "../ir/types.js";
import { patternData } from "../ir/serialize.js";
import { formFromClause, newCheckForm, type ClauseForm } from "./fields.js";
import { checkPatterns, clauseEvidence, type Evidence, type InterviewClause } from "./evidence.js";
import { clauseData, clauseYaml, parseClauseSnippet, type SnippetDiagnostic } from "./snippet.js";
import {
  currentQuote,
  editKind,
  effectiveClause,
  interviewOutcome,
  isVisible,
  previousVisible,
  questionsAsked,
  ruleAsDecided,
  sectionBody,
  type Decision,
  type InterviewState,
  type Question,
} from "./state.js";
import type { ClauseRef, InterviewInput } from "../generate/types.js";

export type Choice = "accept" | "edit" | "semantic" | "drop";

export interface QuestionView {
  kind: "question";
  /** Stable index into the questions, for `goto`. */
  question: number;
  /** 1-based position among the questions currently asked, and how many there are. */
  number: number;
  total: number;
  rule: { index: number; name: string; number: number; total: number; section: string; origin: string };
  clause: ClauseRef;
  /** "Trigger", "Check 2 of 3 · ordering", "Semantic check 1 of 1". */
  label: string;
  /** The spec text the clause claims to enforce (checks and semantic checks). */
  quote?: string | undefined;
  draftedYaml: string;
  decision: Decision | undefined;
  decisionLabel: string;
  /** The clause as the current decision leaves it; undefined when dropped. */
  currentYaml?: string | undefined;
  /** Starting text for an edit, of the question's own kind: the current clause, or the drafted one when dropped or made semantic. */
  editText: string;
  /** The same as one line of JSON, which the terminal accepts as an edit. */
  editOneLine: string;
  /** Starting text for the `semantic` choice. */
  suggestedQuestion: string;
  evidence: Evidence;
  /** The drafter's notes on this clause. */
  notes: string[];
  /** Problems worth a look in an edited clause (unknown vocabulary, a quote not in the section); they do not block. */
  warnings: string[];
  choices: { choice: Choice; label: string }[];
  canBack: boolean;
  /** How the rule, as the answers so far leave it, judges the samples; recomputed after every answer. */
  preview: ClausePreviewView;
  /**
   * The structured edit's forms, prefilled: the question's clause as an event
   * check and as a semantic question (a trigger has only its own); `formKind`
   * is the one the clause is now. The quote is no field: it stays as it is.
   */
  forms: { check?: ClauseForm; semanticCheck?: ClauseForm; trigger?: ClauseForm };
  formKind: ClauseRef["kind"];
  /** The samples' actions and metadata keys, for suggestions while editing. */
  vocabulary: { actions: string[]; metadataKeys: string[] };
}

/** A preview warning as the front ends show it. */
export interface PreviewWarningView {
  kind: PreviewWarningKind;
  message: string;
}

/** The verdict preview shown with a question (see compiler/generate/preview.ts). */
export interface ClausePreviewView {
  /** Every sample's id, in order. */
  samples: string[];
  /** The rule's verdicts; undefined when the answers drop the rule (`dropped` says why). */
  rule?: VerdictSamples | undefined;
  dropped?: string | undefined;
  /** Where the trigger fires; a semantic trigger is decided by a model, so the preview cannot say. */
  trigger: { semantic: boolean; fires: string[]; silent: string[] };
  /** This clause's verdicts (a check or semantic check); undefined for a trigger or a dropped clause. */
  clause?: VerdictSamples | undefined;
  /** The warnings about this clause, its rule and its trigger (which gates every check). */
  warnings: PreviewWarningView[];
  /** The trigger widened to fire where its checks' events are (YAML of the pattern), when a warning says it never does. */
  widenedTrigger?: string | undefined;
}

/** One rule of the review's preview. */
export interface RulePreviewView {
  name: string;
  rule: VerdictSamples;
  trigger: { semantic: boolean; fires: string[]; silent: string[] };
  clauses: { label: string; samples: VerdictSamples }[];
  warnings: PreviewWarningView[];
}

export interface ReviewView {
  kind: "review";
  yaml: string;
  notices: string[];
  problems: string[];
  canConfirm: boolean;
  confirmed: boolean;
  answers: { question: number; number: number; label: string; ruleName: string; decisionLabel: string }[];
  questionsAsked: number;
  canBack: boolean;
  /** How the judge.yaml to write judges the samples, rule by rule, with every warning. */
  preview: RulePreviewView[];
  /** How many samples the preview ran on. */
  samples: number;
}

export type InterviewView = QuestionView | ReviewView;

/** What the front ends show: the current question with its evidence, or the review. */
export function currentView(state: InterviewState): InterviewView {
  return state.at === "review" ? reviewView(state) : questionView(state, state.at);
}

function questionView(state: InterviewState, index: number): QuestionView {
  const { input } = state;
  const question = state.questions[index]!;
  const decision = state.decisions[index];
  const rule = input.draft.ir.metaBehaviors[question.rule]!;
  const current = effectiveClause(question, decision);
  const shownClause = current ?? question.drafted;
  // An edit is always of the question's own kind, even after a check became a semantic question.
  const editable = current !== undefined && current.kind === question.drafted.kind ? current : question.drafted;
  const visible = visibleQuestions(state);
  const askedRuleIndexes = [...new Set(state.questions.map((q) => q.rule))];
  const quote = question.drafted.kind === "trigger" ? undefined : currentQuote(question, decision);
  return {
    kind: "question",
    question: index,
    number: visible.indexOf(index) + 1,
    total: visible.length,
    rule: {
      index: question.rule,
      name: rule.name,
      number: askedRuleIndexes.indexOf(question.rule) + 1,
      total: askedRuleIndexes.length,
      section: sectionBody(input, rule.name) ?? rule.source ?? "",
      origin: input.draft.origins[question.rule] ?? "",
    },
    clause: question.clause,
    label: clauseLabel(question, rule),
    quote,
    draftedYaml: clauseYaml(question.drafted),
    decision,
    decisionLabel: decisionLabel(question, decision),
    currentYaml: current === undefined ? undefined : clauseYaml(current),
    editText: clauseYaml(editable),
    editOneLine: JSON.stringify(clauseData(editable)),
    suggestedQuestion: suggestedQuestion(question, decision),
    evidence: clauseEvidence(shownClause, input.samples),
    notes: [
      ...notesFor(input, question),
      ...notCovered(state, question.rule).map((text) => `not covered: ${JSON.stringify(text)}`),
      ...readAsContext(input, rule.name),
    ],
    warnings:
      decision === undefined || decision.action === "accept" || current === undefined ? [] : clauseWarnings(input, rule.name, current),
    choices: choicesFor(question, decision),
    canBack: previousVisible(state, index) !== undefined,
    preview: questionPreview(state, index),
    ...editForms(question, current),
    vocabulary: {
      actions: input.vocabulary.actions.map((a) => a.action),
      metadataKeys: input.vocabulary.metadataKeys.map((k) => k.key),
    },
  };
}

function editForms(question: Question, current: InterviewClause | undefined): Pick<QuestionView, "forms" | "formKind"> {
  const { drafted } = question;
  const shown = current ?? drafted;
  if (drafted.kind === "trigger") return { forms: { trigger: formFromClause(shown) }, formKind: "trigger" };
  const asCheck = shown.kind === "check" ? shown : drafted.kind === "check" ? drafted : undefined;
  const asked =
    shown.kind === "semanticCheck"
      ? shown.semanticCheck.question
      : drafted.kind === "semanticCheck"
        ? drafted.semanticCheck.question
        : undefined;
  return {
    forms: {
      check: asCheck === undefined ? newCheckForm() : formFromClause(asCheck),
      semanticCheck: { kind: "semanticCheck", question: asked ?? defaultSemanticQuestion(currentQuote(question, undefined)) },
    },
    formKind: shown.kind,
  };
}

/**
 * The preview of the question's rule as the answers leave it, or with
 * `override` as the question's clause (an edit not saved yet).
 */
export function questionPreview(state: InterviewState, index: number, override?: InterviewClause): ClausePreviewView {
  const question = state.questions[index]!;
  const decided = ruleAsDecided(state, question.rule, override === undefined ? undefined : { question: index, clause: override });
  const samples = state.input.samples;
  const ids = samples.map((s) => s.id);
  if (decided.rule === undefined) {
    return { samples: ids, dropped: decided.dropped, trigger: { semantic: false, fires: [], silent: [] }, warnings: [] };
  }
  const preview = previewRule(decided.rule, samples);
  const ref = decided.refs[index];
  const relevant = (r: PreviewClauseRef | undefined) => r !== undefined && ref !== undefined && sameRef(r, ref);
  return {
    samples: ids,
    rule: preview.rule,
    trigger: triggerView(decided.rule, preview.triggered, ids),
    clause: ref === undefined || ref.kind === "trigger" ? undefined : preview.clauses.find((c) => sameRef(c.clause, ref))?.samples,
    warnings: preview.warnings
      .filter((w) => w.clause.kind === "rule" || w.clause.kind === "trigger" || relevant(w.clause) || relevant(w.other))
      .map(({ kind, message }) => ({ kind, message })),
    widenedTrigger: preview.widenedTrigger === undefined ? undefined : patternYaml(preview.widenedTrigger),
  };
}

function triggerView(rule: MetaBehavior, fires: string[], ids: string[]): ClausePreviewView["trigger"] {
  return { semantic: rule.trigger.semantic === true, fires, silent: ids.filter((id) => !fires.includes(id)) };
}

function sameRef(a: PreviewClauseRef, b: PreviewClauseRef): boolean {
  if (a.kind === "rule" || a.kind === "trigger" || b.kind === "rule" || b.kind === "trigger") return a.kind === b.kind;
  return a.kind === b.kind && a.index === b.index;
}

function patternYaml(pattern: Pattern): string {
  return JSON.stringify(patternData(pattern));
}

/** An edit checked as it is typed: the parser's verdict, and on success the clause's preview and evidence; nothing is saved. */
export type EditPreview =
  | { ok: true; yaml: string; preview: ClausePreviewView; evidence: Evidence; warnings: string[] }
  | { ok: false; diagnostics: SnippetDiagnostic[] };

export function previewEdit(state: InterviewState, text: string, as?: ClauseRef["kind"]): EditPreview {
  if (state.at === "review") return { ok: false, diagnostics: [editProblem("the review has no clause to edit")] };
  const index = state.at;
  const question = state.questions[index]!;
  const kind = editKind(question.drafted.kind, as);
  if (kind === undefined) return { ok: false, diagnostics: [editProblem(`a trigger cannot become a ${as ?? ""}`)] };
  const parsed = parseClauseSnippet(kind, text);
  if (!parsed.ok) return parsed;
  const { input } = state;
  const rule = input.draft.ir.metaBehaviors[question.rule]!;
  return {
    ok: true,
    yaml: clauseYaml(parsed.clause),
    preview: questionPreview(state, index, parsed.clause),
    evidence: clauseEvidence(parsed.clause, input.samples),
    warnings: clauseWarnings(input, rule.name, parsed.clause),
  };
}

function editProblem(message: string): SnippetDiagnostic {
  return { file: "", line: 0, col: 0, path: "", severity: "error", message };
}

function reviewView(state: InterviewState): ReviewView {
  const outcome = interviewOutcome(state);
  const visible = visibleQuestions(state);
  return {
    kind: "review",
    yaml: outcome.yaml,
    notices: [...outcome.notices, ...reviewNotCovered(state)],
    problems: outcome.problems,
    canConfirm: outcome.problems.length === 0 && !state.confirmed,
    confirmed: state.confirmed,
    answers: visible.map((q, i) => {
      const question = state.questions[q]!;
      const rule = state.input.draft.ir.metaBehaviors[question.rule]!;
      return {
        question: q,
        number: i + 1,
        label: clauseLabel(question, rule),
        ruleName: rule.name,
        decisionLabel: decisionLabel(question, state.decisions[q]),
      };
    }),
    questionsAsked: questionsAsked(state),
    canBack: previousVisible(state, "review") !== undefined,
    preview: outcome.ir.metaBehaviors.length === 0 ? [] : reviewPreview(outcome.ir.metaBehaviors, state.input.samples),
    samples: state.input.samples.length,
  };
}

function reviewPreview(rules: MetaBehavior[], samples: InterviewInput["samples"]): RulePreviewView[] {
  const ids = samples.map((s) => s.id);
  const preview = previewJudge({ version: 1, behavior: "", metaBehaviors: rules }, samples);
  return preview.rules.map((p, r) => {
    const rule = rules[r]!;
    return {
      name: p.name,
      rule: p.rule,
      trigger: triggerView(rule, p.triggered, ids),
      clauses: p.clauses.map((c) => ({
        label:
          c.clause.kind === "check"
            ? `checks[${c.clause.index}] · ${rule.checks[c.clause.index]!.type}`
            : `semanticChecks[${c.clause.kind === "semanticCheck" ? c.clause.index : 0}]`,
        samples: c.samples,
      })),
      warnings: p.warnings.map(({ kind, message }) => ({ kind, message })),
    };
  });
}

function visibleQuestions(state: InterviewState): number[] {
  return state.questions.map((_, i) => i).filter((i) => isVisible(state, i));
}

function clauseLabel(question: Question, rule: MetaBehavior): string {
  const { clause, drafted } = question;
  if (clause.kind === "trigger") return drafted.kind === "trigger" && drafted.trigger.semantic === true ? "Trigger (semantic)" : "Trigger";
  if (clause.kind === "check") {
    const type = drafted.kind === "check" ? ` · ${drafted.check.type}` : "";
    return `Check ${clause.index + 1} of ${rule.checks.length}${type}`;
  }
  return `Semantic check ${clause.index + 1} of ${rule.semanticChecks.length}`;
}

/** How the review and the question page describe an answer. */
export function decisionLabel(question: Question, decision: Decision | undefined): string {
  const trigger = question.drafted.kind === "trigger";
  switch (decision?.action) {
    case undefined:
      return "not answered yet (accepted unless you change it)";
    case "accept":
      return "accepted";
    case "drop":
      return trigger ? "dropped, with the whole rule" : "dropped";
    case "to-semantic":
      return trigger ? "made semantic: a model decides when the rule applies" : "turned into a semantic question";
    case "edit-semantic":
      return question.drafted.kind === "semanticCheck" ? "edited" : "turned into a semantic question";
    case "edit":
      return question.drafted.kind === "semanticCheck" ? "turned into an event check" : "edited";
    default:
      return "edited";
  }
}

function choicesFor(question: Question, decision: Decision | undefined): { choice: Choice; label: string }[] {
  const kind = question.drafted.kind;
  // After another answer, "accept" means going back to the draft, which should not look like keeping that answer.
  const changed = decision !== undefined && decision.action !== "accept";
  return [
    { choice: "accept", label: changed ? "Accept the draft instead" : "Accept" },
    { choice: "edit", label: "Edit" },
    {
      choice: "semantic",
      label: kind === "trigger" ? "Let a model decide when it applies" : kind === "check" ? "Ask a model instead" : "Rephrase the question",
    },
    { choice: "drop", label: kind === "trigger" ? "Drop the rule" : "Drop" },
  ];
}

function suggestedQuestion(question: Question, decision: Decision | undefined): string {
  const clause = effectiveClause(question, decision) ?? question.drafted;
  if (clause.kind === "trigger") return clause.trigger.description;
  if (clause.kind === "semanticCheck") return clause.semanticCheck.question;
  return defaultSemanticQuestion(clause.check.quote);
}

/** A yes/no question whose "yes" means the clause is satisfied, as docs/FORMATS.md §3 asks; the person edits it. */
export function defaultSemanticQuestion(quote: string): string {
  return `Is this satisfied in the trajectory: "${quote.trim()}"?`;
}

/**
 * The section's obligations that no clause of the rule, as the answers so far leave it, quotes
 * (coverage.ts): shown with every question of the rule and in the review, so dropping a clause
 * never drops a sentence of the spec without a word.
 */
export function notCovered(state: InterviewState, ruleIndex: number): string[] {
  const decided = ruleAsDecided(state, ruleIndex);
  const body = sectionBody(state.input, state.input.draft.ir.metaBehaviors[ruleIndex]!.name);
  if (decided.rule === undefined || body === undefined) return [];
  return uncoveredObligations(body, ruleQuotes(decided.rule)).map((o) => o.text);
}

/** The section's rule-like sentences read as context (coverage.ts contextSentences): "context, not a rule (a question): "…"". */
function readAsContext(input: InterviewInput, name: string): string[] {
  const body = sectionBody(input, name);
  return body === undefined ? [] : contextSentences(body).map((c) => `context, not a rule (${c.kind}): ${JSON.stringify(c.text)}`);
}

function reviewNotCovered(state: InterviewState): string[] {
  const rules = [...new Set(state.questions.map((q) => q.rule))];
  return rules.flatMap((r) =>
    notCovered(state, r).map(
      (text) => `Not covered in ${JSON.stringify(state.input.draft.ir.metaBehaviors[r]!.name)}: ${JSON.stringify(text)}.`,
    ),
  );
}

function notesFor(input: InterviewInput, question: Question): string[] {
  // The drafter's coverage notes are recomputed from the answers (notCovered), not repeated.
  return input.draft.notes
    .filter((note) => note.kind !== "uncovered-sentence")
    .filter((note) => note.rule === question.rule && sameClause(note.clause ?? { kind: "trigger" }, question.clause))
    .map((note) => note.message);
}

function sameClause(a: ClauseRef, b: ClauseRef): boolean {
  if (a.kind === "trigger" || b.kind === "trigger") return a.kind === b.kind;
  return a.kind === b.kind && a.index === b.index;
}

/** Vocabulary the samples never show, and quotes not found in the section: what a person's edit most often gets wrong. */
function clauseWarnings(input: InterviewInput, ruleName: string, clause: InterviewClause): string[] {
  const warnings: string[] = [];
  const actions = input.vocabulary.actions.map((a) => a.action);
  const keys = input.vocabulary.metadataKeys.map((k) => k.key);
  const patterns =
    clause.kind === "check"
      ? checkPatterns(clause.check).map((p) => p.pattern)
      : clause.kind === "trigger" && clause.trigger.match !== undefined
        ? [clause.trigger.match]
        : [];
  for (const matcher of patterns.flat()) {
    const action = exactValue(matcher.action);
    if (action !== undefined && actions.length > 0 && !actions.includes(action)) {
      warnings.push(unknownWord("action", action, actions));
    }
    for (const key of Object.keys(matcher.metadata ?? {})) {
      if (keys.length > 0 && !keys.includes(key)) warnings.push(unknownWord("metadata key", key, keys));
    }
  }
  for (const key of clause.kind === "check" ? keysNamed(clause.check) : []) {
    if (keys.length > 0 && !keys.includes(key)) warnings.push(unknownWord("metadata key", key, keys));
  }
  const quote = clause.kind === "check" ? clause.check.quote : clause.kind === "semanticCheck" ? clause.semanticCheck.quote : undefined;
  const section = sectionBody(input, ruleName);
  if (quote !== undefined && section !== undefined && !quoteOccurs(quote, section)) {
    warnings.push(`the quote is not verbatim in the section ${JSON.stringify(ruleName)}`);
  }
  return [...new Set(warnings)];
}

/** The metadata keys a check names outside its patterns: `distinctBy`, `per`, `sum`, and each side of every `on`. */
function keysNamed(check: Check): string[] {
  const refs: (string | undefined)[] = [];
  const fields = check as unknown as Record<string, unknown>;
  const onRefs = (on: unknown) => (typeof on === "string" ? [on] : on !== null && typeof on === "object" ? Object.values(on) : []);
  refs.push(...onRefs(fields.on).map(String));
  if (check.type === "count") refs.push(check.distinctBy, check.per, check.sum);
  if (check.type === "condition") for (const binding of Object.values(check.with ?? {})) refs.push(...onRefs(binding.on).map(String));
  return refs.flatMap((ref) => {
    const key = keyOf(ref);
    return key === undefined ? [] : [key];
  });
}

function unknownWord(what: string, word: string, known: string[]): string {
  const hint = didYouMean(word, known);
  return `no sample trajectory uses the ${what} ${JSON.stringify(word)}${hint === undefined ? "" : ` (${hint})`}`;
}
