/**
 * What the front ends show of an interview state: the current question (its
 * clause as drafted and as decided, the evidence from the samples, warnings
 * about an edit, the choices) or the final review. Pure functions of the state.
 */
import { quoteOccurs } from "../generate/offline/words.js";
import { didYouMean } from "../ir/did-you-mean.js";
import type { MetaBehavior } from "../ir/types.js";
import { checkPatterns, clauseEvidence, type Evidence, type InterviewClause } from "./evidence.js";
import { clauseData, clauseYaml } from "./snippet.js";
import {
  currentQuote,
  effectiveClause,
  interviewOutcome,
  isVisible,
  previousVisible,
  questionsAsked,
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
    notes: notesFor(input, question),
    warnings:
      decision === undefined || decision.action === "accept" || current === undefined ? [] : clauseWarnings(input, rule.name, current),
    choices: choicesFor(question, decision),
    canBack: previousVisible(state, index) !== undefined,
  };
}

function reviewView(state: InterviewState): ReviewView {
  const outcome = interviewOutcome(state);
  const visible = visibleQuestions(state);
  return {
    kind: "review",
    yaml: outcome.yaml,
    notices: outcome.notices,
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
  };
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

function notesFor(input: InterviewInput, question: Question): string[] {
  return input.draft.notes
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
    if (matcher.action !== undefined && actions.length > 0 && !actions.includes(matcher.action)) {
      warnings.push(unknownWord("action", matcher.action, actions));
    }
    for (const key of Object.keys(matcher.metadata ?? {})) {
      if (keys.length > 0 && !keys.includes(key)) warnings.push(unknownWord("metadata key", key, keys));
    }
  }
  if (clause.kind === "check" && clause.check.type === "count" && clause.check.distinctBy?.startsWith("metadata.")) {
    const key = clause.check.distinctBy.slice("metadata.".length);
    if (keys.length > 0 && !keys.includes(key)) warnings.push(unknownWord("metadata key", key, keys));
  }
  const quote = clause.kind === "check" ? clause.check.quote : clause.kind === "semanticCheck" ? clause.semanticCheck.quote : undefined;
  const section = sectionBody(input, ruleName);
  if (quote !== undefined && section !== undefined && !quoteOccurs(quote, section)) {
    warnings.push(`the quote is not verbatim in the section ${JSON.stringify(ruleName)}`);
  }
  return [...new Set(warnings)];
}

function unknownWord(what: string, word: string, known: string[]): string {
  const hint = didYouMean(word, known);
  return `no sample trajectory uses the ${what} ${JSON.stringify(word)}${hint === undefined ? "" : ` (${hint})`}`;
}
