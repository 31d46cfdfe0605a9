/**
 * The interview as a pure state machine, shared by the browser and the
 * terminal front ends: a fixed list of questions (for each rule asked about,
 * its trigger, then each check, then each semantic check), a decision per
 * question, a position, and a final review of the whole judge.yaml.
 *
 * Every transition is a pure function of the state and an action, and nothing
 * here calls a model: going back and forth only moves the position, and the
 * evidence is recomputed from the sample trajectories. Edits are validated by
 * the real judge.yaml parser (a one-rule document around the person's
 * snippet), so what the interview accepts is exactly what `build` accepts.
 */
import { Document, parse as parseYaml } from "yaml";
import { formatDiagnostic, type Diagnostic } from "../diagnostics.js";
import { didYouMean } from "../ir/did-you-mean.js";
import { parseJudgeYaml } from "../ir/parse.js";
import { serializeJudgeYaml } from "../ir/serialize.js";
import type { Check, JudgeIR, MetaBehavior, SemanticCheck, Trigger } from "../ir/types.js";
import { checkPatterns, clauseEvidence, type Evidence, type InterviewClause } from "./evidence.js";
import type { ClauseDecision, ClauseRef, InterviewInput, InterviewResult } from "../generate/types.js";

/** A decision on any question; a trigger's edit replaces the whole trigger. */
export type Decision = ClauseDecision | { action: "edit-trigger"; trigger: Trigger };

/** One question: a clause of a drafted rule. */
export interface Question {
  /** Index into the draft's rules. */
  rule: number;
  clause: ClauseRef;
  drafted: InterviewClause;
  /** Kept as drafted without a question (generate --update carried it over). */
  settled?: boolean;
}

export interface InterviewState {
  readonly input: InterviewInput;
  readonly questions: readonly Question[];
  /** Per question; undefined means not answered, which counts as accept. */
  readonly decisions: readonly (Decision | undefined)[];
  /** The question shown, or the final review. */
  readonly at: number | "review";
  /** Per question: whether it has been put to the person. */
  readonly shown: readonly boolean[];
  readonly confirmed: boolean;
}

/**
 * What a person can do. `semantic` turns a check into a semantic question,
 * makes a trigger semantic (the text becomes its description), or rephrases
 * a semantic check's question. Dropping a trigger drops the whole rule.
 */
export type InterviewAction =
  | { type: "accept" }
  | { type: "edit"; text: string }
  | { type: "semantic"; question: string }
  | { type: "drop" }
  | { type: "back" }
  | { type: "forward" }
  | { type: "goto"; question: number }
  | { type: "confirm" };

/**
 * A problem in an edited snippet: no file, located in the snippet's own lines
 * (line 0 when it is about the whole edit), its path inside the clause (e.g.
 * `first.action`; "" for the clause itself).
 */
export type SnippetDiagnostic = Diagnostic;

export type StepOutcome =
  | { ok: true; state: InterviewState }
  | { ok: false; state: InterviewState; error: string; diagnostics: SnippetDiagnostic[] };

/** The judge.yaml the decisions add up to, and what the review should tell the person. */
export interface InterviewOutcome {
  ir: JudgeIR;
  /** serializeJudgeYaml(ir); "" when nothing is left to write. */
  yaml: string;
  /** Rules carried over or dropped, and a tally of the answers. */
  notices: string[];
  /** Anything that blocks writing (every rule dropped, or a result the parser rejects). */
  problems: string[];
}

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
  quote?: string;
  draftedYaml: string;
  decision: Decision | undefined;
  decisionLabel: string;
  /** The clause as the current decision leaves it; undefined when dropped. */
  currentYaml?: string;
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

// ---------------------------------------------------------------------------
// Starting

/** The questions for the rules asked about, in rule order; the first question (or the review) is shown. */
export function startInterview(input: InterviewInput): InterviewState {
  const rules = input.draft.ir.metaBehaviors;
  const asked = askedRules(input);
  const questions: Question[] = [];
  const settled = new Set((input.settled ?? []).map(({ rule, clause }) => clauseKey(rule, clause)));
  rules.forEach((rule, index) => {
    if (!asked.has(index)) return;
    for (const question of questionsFor(rule, index)) {
      questions.push(settled.has(clauseKey(index, question.clause)) ? { ...question, settled: true } : question);
    }
  });
  const state: InterviewState = {
    input,
    questions,
    decisions: questions.map(() => undefined),
    at: "review",
    shown: questions.map(() => false),
    confirmed: false,
  };
  return moveTo(state, nextVisible(state, -1));
}

function clauseKey(rule: number, clause: ClauseRef): string {
  return clause.kind === "trigger" ? `${rule}:trigger` : `${rule}:${clause.kind}:${clause.index}`;
}

function askedRules(input: InterviewInput): Set<number> {
  const count = input.draft.ir.metaBehaviors.length;
  if (input.ask === undefined) return new Set(Array.from({ length: count }, (_, i) => i));
  for (const index of input.ask) {
    if (!Number.isInteger(index) || index < 0 || index >= count) {
      throw new RangeError(`interview: ask lists rule ${index}, but the draft has ${count} rules`);
    }
  }
  return new Set(input.ask);
}

function questionsFor(rule: MetaBehavior, index: number): Question[] {
  return [
    { rule: index, clause: { kind: "trigger" }, drafted: { kind: "trigger", trigger: rule.trigger } },
    ...rule.checks.map((check, i): Question => ({
      rule: index,
      clause: { kind: "check", index: i },
      drafted: { kind: "check", check },
    })),
    ...rule.semanticChecks.map((semanticCheck, i): Question => ({
      rule: index,
      clause: { kind: "semanticCheck", index: i },
      drafted: { kind: "semanticCheck", semanticCheck },
    })),
  ];
}

// ---------------------------------------------------------------------------
// Transitions

/** Applies one action. A refused action leaves the state as it was and says why. */
export function step(state: InterviewState, action: InterviewAction): StepOutcome {
  if (state.confirmed) return refused(state, "the judge.yaml is already confirmed");
  switch (action.type) {
    case "back":
      return back(state);
    case "forward":
      return forward(state);
    case "goto":
      return goto(state, action.question);
    case "confirm":
      return confirm(state);
    default:
      return answer(state, action);
  }
}

type AnswerAction = Extract<InterviewAction, { type: "accept" | "edit" | "semantic" | "drop" }>;

function answer(state: InterviewState, action: AnswerAction): StepOutcome {
  if (state.at === "review") return refused(state, "the review has no question to answer; go back to change an answer");
  const question = state.questions[state.at]!;
  const decided = decide(question, state.decisions[state.at], action);
  if (!decided.ok) return refused(state, decided.error, decided.diagnostics);
  const decisions = state.decisions.slice();
  decisions[state.at] = decided.decision;
  const answered = { ...state, decisions };
  return { ok: true, state: moveTo(answered, nextVisible(answered, state.at)) };
}

type Decided = { ok: true; decision: Decision } | { ok: false; error: string; diagnostics: SnippetDiagnostic[] };

function decide(question: Question, current: Decision | undefined, action: AnswerAction): Decided {
  const { drafted } = question;
  switch (action.type) {
    case "accept":
      return { ok: true, decision: { action: "accept" } };
    case "drop":
      return { ok: true, decision: { action: "drop" } };
    case "semantic": {
      const text = action.question.trim();
      if (text === "") {
        const what = drafted.kind === "trigger" ? "the description of when the rule applies" : "the question";
        return { ok: false, error: `write ${what}; it must not be empty`, diagnostics: [] };
      }
      if (drafted.kind === "trigger") return { ok: true, decision: { action: "to-semantic", question: text } };
      // A quote the person already edited stays; otherwise the plain to-semantic keeps the drafted one.
      const quote = currentQuote(question, current);
      if (drafted.kind === "check" && quote === drafted.check.quote)
        return { ok: true, decision: { action: "to-semantic", question: text } };
      return { ok: true, decision: { action: "edit-semantic", semanticCheck: { quote, question: text } } };
    }
    case "edit": {
      const parsed = parseClauseSnippet(drafted.kind, action.text);
      if (!parsed.ok)
        return {
          ok: false,
          error: "the edit is not a valid clause; nothing was changed",
          diagnostics: parsed.diagnostics,
        };
      return { ok: true, decision: decisionForEdit(parsed.clause) };
    }
  }
}

function decisionForEdit(clause: InterviewClause): Decision {
  if (clause.kind === "check") return { action: "edit", check: clause.check };
  if (clause.kind === "semanticCheck") return { action: "edit-semantic", semanticCheck: clause.semanticCheck };
  return { action: "edit-trigger", trigger: clause.trigger };
}

function back(state: InterviewState): StepOutcome {
  const target = previousVisible(state, state.at);
  if (target === undefined) return refused(state, "this is the first question");
  return { ok: true, state: moveTo(state, target) };
}

function forward(state: InterviewState): StepOutcome {
  if (state.at === "review") return refused(state, "this is the review; confirm to write, or go back");
  return { ok: true, state: moveTo(state, nextVisible(state, state.at)) };
}

function goto(state: InterviewState, index: number): StepOutcome {
  if (!Number.isInteger(index) || index < 0 || index >= state.questions.length || !isVisible(state, index)) {
    return refused(state, `there is no question ${index} to go to`);
  }
  return { ok: true, state: moveTo(state, index) };
}

function confirm(state: InterviewState): StepOutcome {
  if (state.at !== "review") return refused(state, "confirm from the review, after the last question");
  const outcome = interviewOutcome(state);
  if (outcome.problems.length > 0) return refused(state, outcome.problems.join("\n"));
  return { ok: true, state: { ...state, confirmed: true } };
}

function refused(state: InterviewState, error: string, diagnostics: SnippetDiagnostic[] = []): StepOutcome {
  return { ok: false, state, error, diagnostics };
}

function moveTo(state: InterviewState, at: number | "review"): InterviewState {
  if (at === "review" || state.shown[at] === true) return { ...state, at };
  const shown = state.shown.slice();
  shown[at] = true;
  return { ...state, at, shown };
}

/** Settled clauses are not asked; a rule whose trigger was dropped is gone, so its other questions are not asked either. */
function isVisible(state: InterviewState, index: number): boolean {
  const question = state.questions[index]!;
  if (question.settled === true) return false;
  if (question.clause.kind === "trigger") return true;
  const triggerIndex = state.questions.findIndex((q) => q.rule === question.rule && q.clause.kind === "trigger");
  return state.decisions[triggerIndex]?.action !== "drop";
}

function nextVisible(state: InterviewState, from: number): number | "review" {
  for (let i = from + 1; i < state.questions.length; i++) if (isVisible(state, i)) return i;
  return "review";
}

function previousVisible(state: InterviewState, from: number | "review"): number | undefined {
  const start = from === "review" ? state.questions.length - 1 : from - 1;
  for (let i = start; i >= 0; i--) if (isVisible(state, i)) return i;
  return undefined;
}

// ---------------------------------------------------------------------------
// The result

/** Questions put to the person so far: each counted once, however often it was revisited. */
export function questionsAsked(state: InterviewState): number {
  return state.shown.filter(Boolean).length;
}

/** The confirmed judge.yaml IR. Throws before confirmation: an unconfirmed interview has no result. */
export function interviewResult(state: InterviewState): InterviewResult {
  if (!state.confirmed) throw new Error("interview: the judge.yaml has not been confirmed");
  return { ir: interviewOutcome(state).ir, questionsAsked: questionsAsked(state) };
}

/** The judge.yaml the current decisions add up to; unanswered questions count as accepted. */
export function interviewOutcome(state: InterviewState): InterviewOutcome {
  const { draft } = state.input;
  const asked = askedRules(state.input);
  const notices: string[] = [];
  const metaBehaviors: MetaBehavior[] = [];
  draft.ir.metaBehaviors.forEach((rule, index) => {
    if (!asked.has(index)) {
      notices.push(`Carried over unchanged, not asked: ${JSON.stringify(rule.name)}.`);
      metaBehaviors.push(rule);
      return;
    }
    const decided = decidedRule(state, rule, index);
    if (decided.dropped !== undefined) notices.push(`Dropped ${JSON.stringify(rule.name)}: ${decided.dropped}.`);
    else metaBehaviors.push(decided.rule);
  });
  const tally = answerTally(state);
  if (tally !== "") notices.push(tally);
  const ir: JudgeIR = { version: 1, behavior: draft.ir.behavior, metaBehaviors };
  if (metaBehaviors.length === 0) {
    return {
      ir,
      yaml: "",
      notices,
      problems: ["Every rule was dropped, so there is nothing to write. Go back and keep at least one."],
    };
  }
  const yaml = serializeJudgeYaml(ir);
  // No file yet: located in the review's own lines.
  const parsed = parseJudgeYaml(yaml, { file: "" });
  const problems = parsed.ok ? [] : parsed.diagnostics.map(formatDiagnostic);
  return { ir, yaml, notices, problems };
}

type DecidedRule = { rule: MetaBehavior; dropped?: undefined } | { dropped: string };

function decidedRule(state: InterviewState, rule: MetaBehavior, index: number): DecidedRule {
  let trigger = rule.trigger;
  const checks: Check[] = [];
  const semanticChecks: SemanticCheck[] = [];
  // Checks turned into questions follow the rule's own semantic checks, in check order.
  const converted: SemanticCheck[] = [];
  state.questions.forEach((question, q) => {
    if (question.rule !== index) return;
    const clause = effectiveClause(question, state.decisions[q]);
    if (clause === undefined) return;
    if (clause.kind === "trigger") trigger = clause.trigger;
    else if (clause.kind === "check") checks.push(clause.check);
    else if (question.clause.kind === "check") converted.push(clause.semanticCheck);
    else semanticChecks.push(clause.semanticCheck);
  });
  const triggerQuestion = state.questions.findIndex((q) => q.rule === index && q.clause.kind === "trigger");
  if (state.decisions[triggerQuestion]?.action === "drop")
    return { dropped: "its trigger was dropped, which drops the rule" };
  semanticChecks.push(...converted);
  if (checks.length === 0 && semanticChecks.length === 0) {
    return { dropped: "all its checks and semantic checks were dropped" };
  }
  const source = rule.source ?? sectionBody(state.input, rule.name);
  return {
    rule: {
      name: rule.name,
      trigger,
      checks,
      semanticChecks,
      ...(source === undefined || source === "" ? {} : { source }),
    },
  };
}

/** The clause a decision leaves; undefined when dropped. */
export function effectiveClause(question: Question, decision: Decision | undefined): InterviewClause | undefined {
  const { drafted } = question;
  switch (decision?.action) {
    case undefined:
    case "accept":
      return drafted;
    case "drop":
      return undefined;
    case "edit":
      return { kind: "check", check: decision.check };
    case "edit-semantic":
      return { kind: "semanticCheck", semanticCheck: decision.semanticCheck };
    case "edit-trigger":
      return { kind: "trigger", trigger: decision.trigger };
    case "to-semantic":
      if (drafted.kind === "trigger") {
        return { kind: "trigger", trigger: { description: decision.question, semantic: true } };
      }
      return {
        kind: "semanticCheck",
        semanticCheck: { quote: currentQuote(question, undefined), question: decision.question },
      };
  }
}

function currentQuote(question: Question, decision: Decision | undefined): string {
  const clause = effectiveClause(question, decision) ?? question.drafted;
  if (clause.kind === "check") return clause.check.quote;
  if (clause.kind === "semanticCheck") return clause.semanticCheck.quote;
  return "";
}

function answerTally(state: InterviewState): string {
  const counts = new Map<string, number>();
  state.questions.forEach((question, q) => {
    if (!isVisible(state, q)) return;
    const label = decisionWord(question, state.decisions[q]);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  });
  const parts = [...counts].map(([label, count]) => `${count} ${label}`);
  return parts.length === 0 ? "" : `Answers: ${parts.join(", ")}.`;
}

function decisionWord(question: Question, decision: Decision | undefined): string {
  switch (decision?.action) {
    case undefined:
    case "accept":
      return "accepted";
    case "drop":
      return "dropped";
    case "to-semantic":
      return question.drafted.kind === "trigger" ? "made semantic" : "turned into semantic questions";
    default:
      return "edited";
  }
}

// ---------------------------------------------------------------------------
// Views

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
    ...(quote === undefined ? {} : { quote }),
    draftedYaml: clauseYaml(question.drafted),
    decision,
    decisionLabel: decisionLabel(question, decision),
    ...(current === undefined ? {} : { currentYaml: clauseYaml(current) }),
    editText: clauseYaml(editable),
    editOneLine: JSON.stringify(clauseData(editable)),
    suggestedQuestion: suggestedQuestion(question, decision),
    evidence: clauseEvidence(shownClause, input.samples),
    notes: notesFor(input, question),
    warnings:
      decision === undefined || decision.action === "accept" || current === undefined
        ? []
        : clauseWarnings(input, rule.name, current),
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
  if (clause.kind === "trigger")
    return drafted.kind === "trigger" && drafted.trigger.semantic === true ? "Trigger (semantic)" : "Trigger";
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
      label:
        kind === "trigger"
          ? "Let a model decide when it applies"
          : kind === "check"
            ? "Ask a model instead"
            : "Rephrase the question",
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

/** A yes/no question whose "yes" means the clause is satisfied, as FORMATS.md §3 asks; the person edits it. */
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

function sectionBody(input: InterviewInput, heading: string): string | undefined {
  return input.spec.sections.find((section) => section.heading === heading)?.body;
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
  const quote =
    clause.kind === "check"
      ? clause.check.quote
      : clause.kind === "semanticCheck"
        ? clause.semanticCheck.quote
        : undefined;
  const section = sectionBody(input, ruleName);
  if (quote !== undefined && section !== undefined && !normalizeSpace(section).includes(normalizeSpace(quote))) {
    warnings.push(`the quote is not verbatim in the section ${JSON.stringify(ruleName)}`);
  }
  return [...new Set(warnings)];
}

function unknownWord(what: string, word: string, known: string[]): string {
  const hint = didYouMean(word, known);
  return `no sample trajectory uses the ${what} ${JSON.stringify(word)}${hint === undefined ? "" : ` (${hint})`}`;
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

// ---------------------------------------------------------------------------
// Snippets: a clause as YAML, and a person's YAML back to a clause

const PLACEHOLDER = "snippet";

/** The clause's fields in judge.yaml's canonical order, the way serializeJudgeYaml writes them. */
export function clauseData(clause: InterviewClause): unknown {
  const rule: MetaBehavior = {
    name: PLACEHOLDER,
    trigger: clause.kind === "trigger" ? clause.trigger : { description: PLACEHOLDER, semantic: true },
    checks: clause.kind === "check" ? [clause.check] : [],
    semanticChecks: clause.kind === "semanticCheck" ? [clause.semanticCheck] : [],
  };
  const data = parseYaml(serializeJudgeYaml({ version: 1, behavior: PLACEHOLDER, metaBehaviors: [rule] })) as {
    metaBehaviors: { trigger: unknown; checks: unknown[]; semanticChecks: unknown[] }[];
  };
  const meta = data.metaBehaviors[0]!;
  if (clause.kind === "trigger") return meta.trigger;
  return clause.kind === "check" ? meta.checks[0] : meta.semanticChecks[0];
}

/** The clause as a block-YAML snippet, the starting text of an edit. */
export function clauseYaml(clause: InterviewClause): string {
  return new Document(clauseData(clause), { compat: "yaml-1.1" }).toString({ lineWidth: 0 });
}

interface Wrapper {
  lines: string[];
  /** 0-based index of the wrapper line that holds the snippet's first line. */
  first: number;
  /** Columns the snippet's lines are shifted right by. */
  indent: number;
  /** The clause's path in the wrapper, stripped from diagnostics. */
  path: string;
}

const HEAD = ["version: 1", `behavior: ${PLACEHOLDER}`, "metaBehaviors:", `  - name: ${PLACEHOLDER}`];
const SEMANTIC_TRIGGER = ["    trigger:", `      description: ${PLACEHOLDER}`, "      semantic: true"];

/**
 * A one-rule judge.yaml with the snippet in the clause's slot. Every snippet
 * line is indented past the wrapper's own keys, so no snippet text can close
 * the slot and add keys or rules of its own.
 */
function wrapSnippet(kind: ClauseRef["kind"], snippet: string[]): Wrapper {
  if (kind === "trigger") {
    const lines = [
      ...HEAD,
      "    trigger:",
      ...snippet.map((line) => `      ${line}`),
      "    semanticChecks:",
      `      - { quote: ${PLACEHOLDER}, question: ${PLACEHOLDER} }`,
    ];
    return { lines, first: HEAD.length + 1, indent: 6, path: "metaBehaviors[0].trigger" };
  }
  const list = kind === "check" ? "checks" : "semanticChecks";
  const item = snippet.map((line, i) => (i === 0 ? `      - ${line}` : `        ${line}`));
  const lines = [...HEAD, ...SEMANTIC_TRIGGER, `    ${list}:`, ...item];
  return { lines, first: HEAD.length + SEMANTIC_TRIGGER.length + 1, indent: 8, path: `metaBehaviors[0].${list}[0]` };
}

export type SnippetParse = { ok: true; clause: InterviewClause } | { ok: false; diagnostics: SnippetDiagnostic[] };

/**
 * Reads a person's edit of a clause: block YAML, flow YAML or JSON of one
 * check, semantic check or trigger. Checked by parseJudgeYaml inside a
 * one-rule document; its diagnostics come back located in the snippet.
 */
export function parseClauseSnippet(kind: ClauseRef["kind"], text: string): SnippetParse {
  const { lines, lineOffset, dedent } = tidySnippet(text);
  if (lines.length === 0) {
    return { ok: false, diagnostics: [wholeEdit(`write the ${kindName(kind)} as YAML or JSON`)] };
  }
  const wrapper = wrapSnippet(kind, lines);
  const parsed = parseJudgeYaml(wrapper.lines.join("\n") + "\n", { file: "edit" });
  if (!parsed.ok) {
    return {
      ok: false,
      diagnostics: parsed.diagnostics.map((d) => locateInSnippet(d, wrapper, lines.length, lineOffset, dedent)),
    };
  }
  const meta = parsed.ir.metaBehaviors[0];
  const clause = meta === undefined ? undefined : extractClause(kind, meta);
  if (clause === undefined) {
    return { ok: false, diagnostics: [wholeEdit(`the edit must be exactly one ${kindName(kind)}`)] };
  }
  return { ok: true, clause };
}

function extractClause(kind: ClauseRef["kind"], meta: MetaBehavior): InterviewClause | undefined {
  if (kind === "trigger") return { kind, trigger: meta.trigger };
  if (kind === "check") {
    const check = meta.checks[0];
    return check !== undefined && meta.checks.length === 1 && meta.semanticChecks.length === 0
      ? { kind, check }
      : undefined;
  }
  const semanticCheck = meta.semanticChecks[0];
  return semanticCheck !== undefined && meta.semanticChecks.length === 1 && meta.checks.length === 0
    ? { kind, semanticCheck }
    : undefined;
}

function kindName(kind: ClauseRef["kind"]): string {
  return kind === "trigger" ? "trigger" : kind === "check" ? "check" : "semantic check";
}

/** Drops blank lines around the snippet and its common indentation (a pasted block), remembering both for locations. */
function tidySnippet(text: string): { lines: string[]; lineOffset: number; dedent: number } {
  const all = text.replace(/\r\n?/g, "\n").split("\n");
  let start = 0;
  let end = all.length;
  while (start < end && all[start]!.trim() === "") start++;
  while (end > start && all[end - 1]!.trim() === "") end--;
  const lines = all.slice(start, end);
  const indents = lines.filter((line) => line.trim() !== "").map((line) => /^ */.exec(line)![0].length);
  const dedent = indents.length === 0 ? 0 : Math.min(...indents);
  return {
    lines: lines.map((line) => line.slice(Math.min(dedent, /^ */.exec(line)![0].length))),
    lineOffset: start,
    dedent,
  };
}

function locateInSnippet(
  d: Diagnostic,
  wrapper: Wrapper,
  count: number,
  lineOffset: number,
  dedent: number,
): SnippetDiagnostic {
  const index = d.line - 1 - wrapper.first;
  // A problem on the wrapper's own lines is about the clause as a whole.
  const inside = index >= 0 && index < count;
  return {
    ...d,
    file: "",
    line: inside ? index + 1 + lineOffset : 0,
    col: inside ? Math.max(1, d.col - wrapper.indent) + dedent : 0,
    path: stripPath(d.path, wrapper.path),
  };
}

function wholeEdit(message: string): SnippetDiagnostic {
  return { file: "", line: 0, col: 0, path: "", severity: "error", message };
}

function stripPath(path: string, prefix: string): string {
  if (!path.startsWith(prefix)) return path;
  return path.slice(prefix.length).replace(/^\./, "");
}
