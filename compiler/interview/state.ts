/**
 * The interview as a pure state machine, shared by the browser and the
 * terminal front ends: a fixed list of questions (for each rule asked about,
 * its trigger, then each check, then each semantic check), a decision per
 * question, a position, and a final review of the whole judge.yaml.
 *
 * Every transition is a pure function of the state and an action, and nothing
 * here calls a model: going back and forth only moves the position, and the
 * evidence is recomputed from the sample trajectories. Edits are read by
 * snippet.ts, so what the interview accepts is exactly what `build` accepts;
 * view.ts turns a state into what the front ends show.
 */
import { formatDiagnostic } from "../diagnostics.js";
import { parseJudgeYaml } from "../ir/parse.js";
import { serializeJudgeYaml } from "../ir/serialize.js";
import type { Check, JudgeIR, MetaBehavior, SemanticCheck, Trigger } from "../ir/types.js";
import { previewRule, type PreviewClauseRef } from "../generate/preview.js";
import type { InterviewClause } from "./evidence.js";
import { parseClauseSnippet, type SnippetDiagnostic } from "./snippet.js";
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
 * An edit is of the question's own kind unless `as` says otherwise: a check
 * may become a semantic check and a semantic check an event check (the quote
 * stays); a trigger stays a trigger. `widen` replaces the rule's trigger by
 * the preview's widened one (preview.ts), staying at the question.
 */
export type InterviewAction =
  | { type: "accept" }
  | { type: "edit"; text: string; as?: ClauseRef["kind"] | undefined }
  | { type: "widen" }
  | { type: "semantic"; question: string }
  | { type: "drop" }
  | { type: "back" }
  | { type: "forward" }
  | { type: "goto"; question: number }
  | { type: "confirm" };

export type StepOutcome =
  { ok: true; state: InterviewState } | { ok: false; state: InterviewState; error: string; diagnostics: SnippetDiagnostic[] };

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
    case "widen":
      return widenTrigger(state);
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
      const kind = editKind(drafted.kind, action.as);
      if (kind === undefined) {
        return {
          ok: false,
          error: `a ${drafted.kind === "trigger" ? "trigger" : "check"} cannot be edited into a ${action.as}`,
          diagnostics: [],
        };
      }
      const parsed = parseClauseSnippet(kind, action.text);
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

/** What an edit of a question may turn its clause into: a trigger stays a trigger; checks and semantic checks may swap. */
export function editKind(drafted: ClauseRef["kind"], as: ClauseRef["kind"] | undefined): ClauseRef["kind"] | undefined {
  if (as === undefined || as === drafted) return drafted;
  return drafted === "trigger" || as === "trigger" ? undefined : as;
}

function decisionForEdit(clause: InterviewClause): Decision {
  if (clause.kind === "check") return { action: "edit", check: clause.check };
  if (clause.kind === "semanticCheck") return { action: "edit-semantic", semanticCheck: clause.semanticCheck };
  return { action: "edit-trigger", trigger: clause.trigger };
}

/** Gives the rule the trigger its preview suggests, so the checks it never let be judged are judged. */
function widenTrigger(state: InterviewState): StepOutcome {
  if (state.at === "review") return refused(state, "widen a trigger from one of its rule's questions");
  const ruleIndex = state.questions[state.at]!.rule;
  const decided = ruleAsDecided(state, ruleIndex);
  const triggerQuestion = state.questions.findIndex((q) => q.rule === ruleIndex && q.clause.kind === "trigger");
  const widened = decided.rule === undefined ? undefined : previewRule(decided.rule, state.input.samples).widenedTrigger;
  if (decided.rule === undefined || widened === undefined || triggerQuestion < 0) {
    return refused(state, "the trigger already fires wherever its checks have events to judge");
  }
  const decisions = state.decisions.slice();
  decisions[triggerQuestion] = { action: "edit-trigger", trigger: { description: decided.rule.trigger.description, match: widened } };
  return { ok: true, state: { ...state, decisions } };
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
export function isVisible(state: InterviewState, index: number): boolean {
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

export function previousVisible(state: InterviewState, from: number | "review"): number | undefined {
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
    const decided = decidedRule(state, index);
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

function decidedRule(state: InterviewState, index: number): DecidedRule {
  const decided = ruleAsDecided(state, index);
  return decided.rule === undefined ? { dropped: decided.dropped } : { rule: decided.rule };
}

/** A rule as the decisions leave it, and where each of its questions' clauses landed in it (for the preview). */
export interface RuleAsDecided {
  /** Undefined when the decisions drop the rule, with the reason in `dropped`. */
  rule: MetaBehavior | undefined;
  dropped: string;
  /** Per question index of this rule: its clause in `rule`; undefined when dropped (or not this rule's). */
  refs: (PreviewClauseRef | undefined)[];
}

/**
 * The rule at `index` as the current decisions leave it. `override` replaces
 * one question's clause (undefined: dropped), for previewing an edit before
 * it is saved.
 */
export function ruleAsDecided(
  state: InterviewState,
  index: number,
  override?: { question: number; clause: InterviewClause | undefined },
): RuleAsDecided {
  const rule = state.input.draft.ir.metaBehaviors[index]!;
  let trigger = rule.trigger;
  const checks: Check[] = [];
  const semanticChecks: SemanticCheck[] = [];
  // Checks turned into questions follow the rule's own semantic checks, in check order.
  const converted: { question: number; semanticCheck: SemanticCheck }[] = [];
  const refs: (PreviewClauseRef | undefined)[] = state.questions.map(() => undefined);
  state.questions.forEach((question, q) => {
    if (question.rule !== index) return;
    const clause = override?.question === q ? override.clause : effectiveClause(question, state.decisions[q]);
    if (clause === undefined) return;
    if (clause.kind === "trigger") {
      trigger = clause.trigger;
      refs[q] = { kind: "trigger" };
    } else if (clause.kind === "check") {
      refs[q] = { kind: "check", index: checks.length };
      checks.push(clause.check);
    } else if (question.clause.kind === "check") converted.push({ question: q, semanticCheck: clause.semanticCheck });
    else {
      refs[q] = { kind: "semanticCheck", index: semanticChecks.length };
      semanticChecks.push(clause.semanticCheck);
    }
  });
  for (const { question, semanticCheck } of converted) {
    refs[question] = { kind: "semanticCheck", index: semanticChecks.length };
    semanticChecks.push(semanticCheck);
  }
  const triggerQuestion = state.questions.findIndex((q) => q.rule === index && q.clause.kind === "trigger");
  const triggerDropped =
    override?.question === triggerQuestion ? override.clause === undefined : state.decisions[triggerQuestion]?.action === "drop";
  if (triggerDropped) return { rule: undefined, dropped: "its trigger was dropped, which drops the rule", refs };
  if (checks.length === 0 && semanticChecks.length === 0) {
    return { rule: undefined, dropped: "all its checks and semantic checks were dropped", refs };
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
    dropped: "",
    refs,
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

export function currentQuote(question: Question, decision: Decision | undefined): string {
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
    case "edit":
      return question.drafted.kind === "semanticCheck" ? "turned into event checks" : "edited";
    default:
      return "edited";
  }
}

/** The body of the spec section a rule is named after. */
export function sectionBody(input: InterviewInput, heading: string): string | undefined {
  return input.spec.sections.find((section) => section.heading === heading)?.body;
}
