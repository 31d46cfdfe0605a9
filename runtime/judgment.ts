/**
 * Turns the generated steppers' final state into a judgment: trigger gating,
 * verify-on-false, the semantic short-circuit and the fold (docs/FORMATS.md §4).
 * `judgeTrajectory` and a monitor's `end()` both end here.
 */
import { absentReason, foldNaReason, foldVerdicts, hasError } from "./fold.js";
import {
  askModel,
  NO_MODEL_REASONING,
  type SemanticAdapter,
  type SemanticOutcome,
  type SemanticQuestion,
  type SemanticUsage,
} from "./semantic.js";
import type { RuleStepper, Steppers } from "./stepper.js";
import type { CheckType, Clause, MetaBehaviorJudgment, NaReason, Trajectory, TrajectoryJudgment } from "./types.js";

export interface JudgeOptions {
  /** The semantic-call adapter. Without it, semantic clauses are na `insufficient_evidence`. */
  complete?: SemanticAdapter;
  /** Ask the model to confirm each deterministic false (default true). */
  verify?: boolean;
  /**
   * Where the model calls of this judgment are booked (added to, so one
   * object may total several judgments). What the calls cost depends on the
   * run (a cache hit is free), so it is kept out of the judgment, whose
   * bytes must depend only on the inputs (docs/FORMATS.md §6).
   */
  usage?: SemanticUsage;
}

/** What a judge knows of one rule: its own copy of the table entry, so a caller mutating the exported `rules` cannot change what it asks or reports. */
export interface JudgeRule {
  readonly name: string;
  readonly semanticTrigger: boolean;
  readonly triggerDescription: string;
  readonly checks: readonly { readonly type: CheckType; readonly quote: string; readonly expected: string | undefined }[];
  readonly semanticChecks: readonly { readonly quote: string; readonly question: string }[];
}

/** A judge as the runtime holds it. */
export interface Judge {
  readonly behavior: string;
  readonly rules: readonly JudgeRule[];
  /** A fresh set of steppers, one per rule, in their initial state. */
  readonly steppers: () => Steppers;
  /** Whether a stepper keeps events themselves (a condition's bindings), not only their ids. */
  readonly keepsEvents: boolean;
  /** Whether any rule has a semantic trigger or check: only then may a judgment without a model to verify with ask one. */
  readonly semantic: boolean;
}

interface RuleContext {
  readonly trajectory: Trajectory;
  readonly options: JudgeOptions;
  /** Booked by every model call of this trajectory: the caller's `usage`, if any. */
  readonly usage: SemanticUsage | undefined;
}

function meta(
  name: string,
  verdict: MetaBehaviorJudgment["verdict"],
  naReason: NaReason | null,
  triggered: boolean,
  clauses: Clause[],
): MetaBehaviorJudgment {
  return { name, verdict, naReason, triggered, clauses };
}

/**
 * Folds the clauses (docs/FORMATS.md §4). A rule with a clause whose model call
 * failed carries `error: true`, placed after `naReason` and only then, so
 * output without a failed call keeps the reference's shape byte for byte.
 */
function foldMeta(name: string, triggered: boolean, clauses: Clause[]): MetaBehaviorJudgment {
  const verdict = foldVerdicts(clauses);
  const naReason = verdict === "na" ? foldNaReason(clauses) : null;
  if (!clauses.some(hasError)) return meta(name, verdict, naReason, triggered, clauses);
  return { name, verdict, naReason, error: true, triggered, clauses };
}

/** A semantic clause from a model outcome; errors and missing models are na, never a pass. */
function semanticClause(quote: string, check: "trigger" | "question", outcome: SemanticOutcome): Clause {
  switch (outcome.kind) {
    case "answer":
      return {
        kind: "semantic",
        quote,
        verdict: outcome.verdict,
        naReason: outcome.naReason,
        citations: outcome.citations,
        reasoning: outcome.reasoning,
        check,
      };
    case "no-model":
      return {
        kind: "semantic",
        quote,
        verdict: "na",
        naReason: "insufficient_evidence",
        citations: [],
        reasoning: outcome.reasoning,
        check,
      };
    case "error":
      return {
        kind: "semantic",
        quote,
        verdict: "na",
        naReason: "insufficient_evidence",
        citations: [],
        reasoning: `The model gave no valid answer: ${outcome.message}`,
        check,
        error: outcome.message,
      };
  }
}

/** A model's outcome: now, when there is no model to ask; later, when there is. */
type Asked = SemanticOutcome | Promise<SemanticOutcome>;

/**
 * A judgment written as steps: each question to the model is yielded, and its
 * outcome comes back. `run` drives the steps; without a model nothing waits,
 * so a judgment without an adapter is computed with no await at all.
 */
type Steps<T> = Generator<Asked, T, SemanticOutcome>;

function ask(ctx: RuleContext, question: SemanticQuestion): Asked {
  if (ctx.options.complete === undefined) return { kind: "no-model", reasoning: NO_MODEL_REASONING };
  return askModel(ctx.options.complete, ctx.trajectory, question, ctx.usage);
}

/** Runs steps to their end: synchronously until a step waits for a model, then asynchronously. */
function run<T>(steps: Steps<T>): T | Promise<T> {
  let next = steps.next();
  while (!next.done) {
    if (next.value instanceof Promise) return finishAsync(steps, next.value);
    next = steps.next(next.value);
  }
  return next.value;
}

async function finishAsync<T>(steps: Steps<T>, pending: Promise<SemanticOutcome>): Promise<T> {
  let next = steps.next(await pending);
  while (!next.done) next = steps.next(await next.value);
  return next.value;
}

/** Verify-on-false: the model confirms the deterministic false or overturns it. */
function* verifyFalse(ctx: RuleContext, rule: JudgeRule, clause: Clause): Steps<Clause> {
  if (ctx.options.verify === false || ctx.options.complete === undefined) return clause;
  const outcome = yield ask(ctx, {
    kind: "verify",
    rule: rule.name,
    quote: clause.quote,
    question: "Is this clause of the spec violated, as the deterministic check found?",
    flagged: clause,
  });
  if (outcome.kind === "error") return { ...clause, error: outcome.message };
  if (outcome.kind !== "answer") return clause;
  if (outcome.verdict === "false") return { ...clause, verification: "confirmed" };
  return {
    ...clause,
    verdict: outcome.verdict,
    naReason: outcome.naReason,
    citations: outcome.citations,
    reasoning: outcome.reasoning,
    verification: "overturned",
    predicateVerdict: "false",
  };
}

/**
 * Gives each false clause of `clauses` (a rule's, in its checks' order) what
 * its check looked for, when the clause cannot say more (docs/FORMATS.md §5).
 */
function explainFailures(rule: JudgeRule, clauses: readonly Clause[]): void {
  for (let c = 0; c < clauses.length; c++) {
    const clause = clauses[c]!;
    if (clause.verdict !== "false") continue;
    const expected = rule.checks[c]!.expected;
    if (clause.explanation === undefined && expected !== undefined) {
      clause.explanation = expected;
      // What it found reads after what it expected, in the JSON too.
      const found = clause.found;
      if (found !== undefined) {
        delete clause.found;
        clause.found = found;
      }
    }
  }
}

/**
 * Whether judging `rule` may ask the model anything: a semantic trigger or
 * check, or a false clause to verify. A rule that may not (a rule of
 * deterministic checks only, judged without a model adapter or with
 * `verify: false`) is judged by `judgeRuleNow`, without a generator.
 */
function mayAskModel(rule: JudgeRule, options: JudgeOptions): boolean {
  return rule.semanticTrigger || rule.semanticChecks.length > 0 || (options.complete !== undefined && options.verify !== false);
}

/** `judgeRule` for a rule that asks the model nothing (`mayAskModel` false): the same judgment, computed at once. */
function judgeRuleNow(rule: JudgeRule, stepper: RuleStepper, complete: boolean): MetaBehaviorJudgment {
  const clauses = stepper.finish(complete);
  if (clauses === null) return meta(rule.name, "na", absentReason(complete), false, []);
  explainFailures(rule, clauses);
  return foldMeta(rule.name, true, clauses);
}

function* judgeRule(ctx: RuleContext, rule: JudgeRule, stepper: RuleStepper): Steps<MetaBehaviorJudgment> {
  const { complete } = ctx.trajectory;
  if (rule.semanticTrigger) {
    const gate = yield ask(ctx, { kind: "trigger", rule: rule.name, quote: rule.triggerDescription, question: rule.triggerDescription });
    if (gate.kind !== "answer" || gate.verdict !== "true") {
      const clause = semanticClause(rule.triggerDescription, "trigger", gate);
      const reason: NaReason =
        gate.kind === "answer" && gate.verdict === "false" ? "not_applicable" : (clause.naReason ?? "insufficient_evidence");
      return foldMeta(rule.name, false, [{ ...clause, verdict: "na", naReason: reason }]);
    }
  }
  const finished = stepper.finish(complete);
  if (finished === null) return meta(rule.name, "na", absentReason(complete), false, []);
  explainFailures(rule, finished);
  const clauses: Clause[] = [];
  for (const clause of finished) clauses.push(clause.verdict === "false" ? yield* verifyFalse(ctx, rule, clause) : clause);
  if (!clauses.some((c) => c.verdict === "false")) {
    for (const check of rule.semanticChecks) {
      const outcome = yield ask(ctx, { kind: "check", rule: rule.name, quote: check.quote, question: check.question });
      clauses.push(semanticClause(check.quote, "question", outcome));
    }
  }
  return foldMeta(rule.name, true, clauses);
}

/**
 * A rule's judgment when it is known without its clauses: with no events, every rule's; and a
 * rule with a match trigger that no event concerned was never stepped, so never triggered (a
 * judge of many rules, a short trajectory). Undefined for a rule whose clauses decide.
 */
function judgedWithoutSteps(
  rule: JudgeRule,
  r: number,
  eventCount: number,
  steppers: Steppers,
  complete: boolean,
): MetaBehaviorJudgment | undefined {
  if (eventCount === 0) return meta(rule.name, "na", "insufficient_evidence", false, []);
  if (!rule.semanticTrigger && steppers.all[r] === undefined) return meta(rule.name, "na", absentReason(complete), false, []);
  return undefined;
}

/** The trajectory's judgment from its rules' (the same for both ways of judging them). */
function trajectoryJudgment(judge: Judge, trajectory: Trajectory, metaBehaviors: MetaBehaviorJudgment[]): TrajectoryJudgment {
  const verdict = foldVerdicts(metaBehaviors);
  // The trajectory carries the marker when any rule does; without one, the reference's shape.
  return metaBehaviors.some(hasError)
    ? { behavior: judge.behavior, trajectoryId: trajectory.id, verdict, error: true, metaBehaviors }
    : { behavior: judge.behavior, trajectoryId: trajectory.id, verdict, metaBehaviors };
}

function* judgeRules(
  judge: Judge,
  trajectory: Trajectory,
  eventCount: number,
  steppers: Steppers,
  options: JudgeOptions,
): Steps<TrajectoryJudgment> {
  const ctx: RuleContext = { trajectory, options, usage: options.usage };
  const metaBehaviors: MetaBehaviorJudgment[] = [];
  for (let r = 0; r < judge.rules.length; r++) {
    const rule = judge.rules[r]!;
    const known = judgedWithoutSteps(rule, r, eventCount, steppers, trajectory.complete);
    if (known !== undefined) {
      metaBehaviors.push(known);
      continue;
    }
    const stepper = steppers.stepper(r);
    metaBehaviors.push(
      mayAskModel(rule, options) ? yield* judgeRule(ctx, rule, stepper) : judgeRuleNow(rule, stepper, trajectory.complete),
    );
  }
  return trajectoryJudgment(judge, trajectory, metaBehaviors);
}

/**
 * `judgeRules` when no rule may ask the model anything (no semantic trigger or check in the
 * judge, and no model to verify a false clause): the same judgment, with no generator to drive.
 */
function judgeRulesNow(judge: Judge, trajectory: Trajectory, eventCount: number, steppers: Steppers): TrajectoryJudgment {
  const metaBehaviors: MetaBehaviorJudgment[] = [];
  for (let r = 0; r < judge.rules.length; r++) {
    const rule = judge.rules[r]!;
    metaBehaviors.push(
      judgedWithoutSteps(rule, r, eventCount, steppers, trajectory.complete) ??
        judgeRuleNow(rule, steppers.stepper(r), trajectory.complete),
    );
  }
  return trajectoryJudgment(judge, trajectory, metaBehaviors);
}

/**
 * The judgment of a trajectory whose events (`eventCount` of them) have all
 * been stepped. `trajectory.events` is read only by the model's prompts.
 * Without a model adapter it is computed synchronously (the promise is
 * already settled), with one the model is asked rule by rule, in order.
 */
export function conclude(
  judge: Judge,
  trajectory: Trajectory,
  eventCount: number,
  steppers: Steppers,
  options: JudgeOptions,
): Promise<TrajectoryJudgment> {
  try {
    if (!judge.semantic && (options.complete === undefined || options.verify === false)) {
      return Promise.resolve(judgeRulesNow(judge, trajectory, eventCount, steppers));
    }
    return Promise.resolve(run(judgeRules(judge, trajectory, eventCount, steppers, options)));
  } catch (error) {
    return Promise.reject(error);
  }
}
