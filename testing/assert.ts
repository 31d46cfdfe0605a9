/**
 * assertBehavior: a judged trajectory as a test assertion. It resolves when
 * the trajectory passes (or agrees with its labels) and otherwise throws an
 * AssertionError whose message says which rules failed and why, so a test
 * runner shows the rule's quote instead of `'false' !== 'false'`.
 */
import { formatJudgment } from "../runtime/format-judgment.js";
import type { JudgeOptions } from "../runtime/judge.js";
import type { MetaBehaviorJudgment, TrajectoryJudgment } from "../runtime/types.js";
import { readCases, type JudgeLike } from "./inputs.js";
import { compareLabels, labelsAgree, readExpected, type ExpectedLabels, type LabelComparison } from "./labels.js";

/** A clause that got no valid model answer, in a rule the assertion counts. */
export interface ModelFailure {
  trajectoryId: string;
  rule: string;
  quote: string;
  /** Why the call failed, as the clause's `error` says it. */
  message: string;
}

/**
 * Thrown when a trajectory does not satisfy its behavior; `name` is
 * "AssertionError", as test runners expect. `modelErrors` is non-empty when
 * the outcome rests on failed model calls: then nothing was decided, and a
 * negated matcher must fail as well (behavior-judge/vitest does).
 */
export class AssertionError extends Error {
  override name = "AssertionError";
  readonly judgments: TrajectoryJudgment[];
  readonly modelErrors: readonly ModelFailure[];
  constructor(message: string, judgments: TrajectoryJudgment[], modelErrors: readonly ModelFailure[] = []) {
    super(message);
    this.judgments = judgments;
    this.modelErrors = modelErrors;
  }
}

export interface AssertBehaviorOptions {
  /** Labels to match instead of "every rule passes"; a `{trajectory, expected}` case brings its own. */
  expected?: ExpectedLabels;
  /** Only these rules count (by name); the file verdict is then not compared with labels. */
  rules?: readonly string[];
  /** The trace format, when detection cannot tell (an importer name, or "trajectory"). */
  from?: string;
  /** Passed to judgeTrajectory (a model adapter, verify-on-false…). */
  judgeOptions?: JudgeOptions;
}

export interface AssertBehaviorResult {
  judgments: TrajectoryJudgment[];
}

/** A rule fails the assertion when it is false, or rests on a failed model call (never a silent pass). */
function ruleFails(rule: MetaBehaviorJudgment): boolean {
  return rule.verdict === "false" || rule.error === true;
}

function modelFailures(judgment: TrajectoryJudgment): ModelFailure[] {
  return judgment.metaBehaviors.flatMap((rule) =>
    rule.clauses.flatMap((clause) =>
      clause.error === undefined
        ? []
        : [{ trajectoryId: judgment.trajectoryId, rule: rule.name, quote: clause.quote, message: clause.error }],
    ),
  );
}

/** The headline of a failure that rests on model errors: each failed clause with its message. */
function formatModelFailures(behavior: string, failures: readonly ModelFailure[]): string {
  const lines = failures.map((f) => `  ${JSON.stringify(f.trajectoryId)} / ${f.rule}: ${f.message}`);
  return `behavior ${behavior} could not be judged: a model call failed (${failures.length} clause${failures.length === 1 ? "" : "s"})\n${lines.join("\n")}`;
}

function restrict(judgment: TrajectoryJudgment, rules: readonly string[] | undefined): TrajectoryJudgment {
  if (rules === undefined) return judgment;
  return { ...judgment, metaBehaviors: judgment.metaBehaviors.filter((m) => rules.includes(m.name)) };
}

function formatLabelDiff(c: LabelComparison, compareFile: boolean): string[] {
  const lines: string[] = [];
  const note = (e: { error?: true }) => (e.error === true ? " (no valid model answer)" : "");
  if (compareFile && !c.verdict.agree)
    lines.push(`  file verdict: expected ${c.verdict.expected}, got ${c.verdict.actual}${note(c.verdict)}`);
  for (const m of c.metaBehaviors)
    if (!m.agree) lines.push(`  ${m.name}: expected ${m.expected ?? "(no label)"}, got ${m.actual}${note(m)}`);
  for (const name of c.unknownLabels) lines.push(`  label ${JSON.stringify(name)} names no rule of this judge`);
  return lines;
}

/** `options.expected`, read as calibrate reads labels (a JavaScript caller can pass anything). */
function optionLabels(value: unknown): ExpectedLabels | undefined {
  if (value === undefined) return undefined;
  const expected = readExpected(value);
  if (typeof expected === "string") throw new TypeError(`assertBehavior: ${expected}`);
  return expected;
}

/**
 * `options.rules`: a non-empty list of names. An empty list would count no
 * rule, so a failing trajectory would pass.
 */
function optionRules(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((name) => typeof name === "string"))
    throw new TypeError("assertBehavior: rules must be a list of rule names (strings)");
  if (value.length === 0)
    throw new TypeError("assertBehavior: rules is empty: name at least one rule, or leave rules out to count every rule");
  return value;
}

/**
 * Judges `trajectory` (a trajectory, a `{trajectory, expected}` case, or any
 * trace the importers read) with `judge` (an imported judge.mjs). Labels,
 * rule names and the input are checked before anything is judged: a
 * TypeError names what is wrong.
 */
export async function assertBehavior(
  judge: JudgeLike,
  trajectory: unknown,
  options: AssertBehaviorOptions = {},
): Promise<AssertBehaviorResult> {
  const expectedOption = optionLabels(options.expected);
  const rules = optionRules(options.rules);
  const cases = readCases(trajectory, options.from !== undefined ? { from: options.from } : {});
  const known = new Set(((judge as { rules?: readonly { name: string }[] }).rules ?? []).map((r) => r.name));
  const unknown = (rules ?? []).filter((name) => known.size > 0 && !known.has(name));
  if (unknown.length > 0)
    throw new TypeError(`assertBehavior: no rule named ${unknown.map((n) => JSON.stringify(n)).join(", ")} in ${judge.behavior}`);
  const judgments: TrajectoryJudgment[] = [];
  const failures: string[] = [];
  const modelErrors: ModelFailure[] = [];
  for (const c of cases) {
    const full = await judge.judgeTrajectory(c.trajectory, options.judgeOptions);
    judgments.push(full);
    const judgment = restrict(full, rules);
    modelErrors.push(...modelFailures(judgment));
    const expected = expectedOption ?? c.expected;
    const text = formatJudgment(judgment, { trajectory: c.trajectory as { events?: never[] } });
    if (expected !== undefined) {
      const comparison = compareLabels(expected, judgment);
      if (rules !== undefined) {
        comparison.unknownLabels = comparison.unknownLabels.filter((n) => rules.includes(n));
        comparison.verdict = { ...comparison.verdict, agree: true };
      }
      if (!labelsAgree(comparison))
        failures.push(
          `${judgment.trajectoryId} disagrees with its labels:\n${formatLabelDiff(comparison, rules === undefined).join("\n")}\n${text}`,
        );
    } else if (judgment.metaBehaviors.some(ruleFails)) {
      failures.push(text);
    }
  }
  if (failures.length > 0) {
    const headline = modelErrors.length > 0 ? `${formatModelFailures(judge.behavior, modelErrors)}\n\n` : "";
    throw new AssertionError(`${headline}behavior ${judge.behavior} not satisfied\n${failures.join("\n\n")}`, judgments, modelErrors);
  }
  return { judgments };
}
