/**
 * calibrate (FORMATS.md §7): labeled cases against the compiled judge.
 * Every meta-behavior verdict is compared with the label of the same name
 * (a missing label is a mismatch) and the file verdict with `expected.verdict`.
 */
import type { TrajectoryJudgment, Verdict } from "../../runtime/types.js";
import type { SemanticUsage } from "../../runtime/semantic.js";
import type { InputCase } from "./inputs.js";
import type { JudgeModule } from "./load.js";
import { failureLine, judgeCases, type CaseResult, type JudgedCase, type RunOptions } from "./judge-cases.js";
import { Tally } from "./tally.js";

export interface VerdictComparison {
  name: string;
  expected: Verdict | null;
  actual: Verdict;
  agree: boolean;
  /** Set when the verdict rests on a failed model call: never an agreement, whatever the label. */
  error?: true;
}

export interface CaseComparison {
  file: string;
  caseIndex: number;
  line?: number;
  trajectoryId: string;
  verdict: { expected: Verdict; actual: Verdict; agree: boolean; error?: true };
  metaBehaviors: VerdictComparison[];
  /** Labels naming no rule of this judge: a typo in the label file. */
  unknownLabels: string[];
}

export interface CalibrationTotals {
  metaAgree: number;
  metaTotal: number;
  fileAgree: number;
  fileTotal: number;
  errors: number;
  /** Deterministic failures a model overturned (verify-on-false), whether or not the verdicts agree. */
  overturned: number;
}

export interface CalibrationResult {
  comparisons: CaseComparison[];
  judgments: TrajectoryJudgment[];
  errors: string[];
  totals: CalibrationTotals;
  /** What the model calls cost (with a model only); run-dependent, so kept apart from the judgments. */
  usage?: SemanticUsage;
  /** The run's totals; a case without labels counts as one that could not be judged. */
  tally: Tally;
}

/**
 * One verdict against its label. A verdict resting on a failed model call
 * (the `error` marker, FORMATS.md §4) is a disagreement even when it equals
 * the label: a model failure must never pass calibration.
 */
function compare<E extends Verdict | null>(expected: E, judged: { verdict: Verdict; error?: true }): { expected: E; actual: Verdict; agree: boolean; error?: true } {
  const base = { expected, actual: judged.verdict };
  return judged.error === true ? { ...base, agree: false, error: true } : { ...base, agree: expected === judged.verdict };
}

export function compareCase(input: InputCase, judgment: TrajectoryJudgment): CaseComparison {
  const labels = input.expected!.metaBehaviorVerdicts;
  const metaBehaviors = judgment.metaBehaviors.map((m) => ({ name: m.name, ...compare(Object.hasOwn(labels, m.name) ? labels[m.name]! : null, m) }));
  const judged = new Set(judgment.metaBehaviors.map((m) => m.name));
  const expected = input.expected!.verdict;
  return {
    file: input.file,
    caseIndex: input.index,
    ...(input.line !== undefined ? { line: input.line } : {}),
    trajectoryId: judgment.trajectoryId,
    verdict: compare(expected, judgment),
    metaBehaviors,
    unknownLabels: Object.keys(labels).filter((name) => !judged.has(name)),
  };
}

/** A case agrees when every verdict agrees and every label names a rule. */
export function caseAgrees(c: CaseComparison): boolean {
  return c.verdict.agree && c.unknownLabels.length === 0 && c.metaBehaviors.every((m) => m.agree);
}

export async function calibrate(
  judge: JudgeModule,
  cases: AsyncIterable<InputCase>,
  options: RunOptions & { onCase?: (c: CaseComparison | string) => void } = {},
): Promise<CalibrationResult> {
  const { onCase, ...runOptions } = options;
  const tally = new Tally(judge.rules.map((r) => r.name));
  const result: CalibrationResult = {
    comparisons: [],
    judgments: [],
    errors: [],
    totals: { metaAgree: 0, metaTotal: 0, fileAgree: 0, fileTotal: 0, errors: 0, overturned: 0 },
    ...(runOptions.complete !== undefined ? { usage: tally.usage } : {}),
    tally,
  };
  for await (const judged of judgeCases(judge, cases, runOptions)) {
    const counted = judged.kind === "judged" && judged.input.expected === undefined ? unlabeled(judged) : judged;
    tally.add(counted);
    if (counted.kind === "failed") {
      const line = failureLine(counted);
      result.errors.push(line);
      result.totals.errors++;
      onCase?.(line);
      continue;
    }
    const { input, judgment } = counted;
    const comparison = compareCase(input, judgment);
    result.comparisons.push(comparison);
    result.judgments.push(judgment);
    const t = result.totals;
    t.metaTotal += comparison.metaBehaviors.length;
    t.metaAgree += comparison.metaBehaviors.filter((m) => m.agree).length;
    t.fileTotal++;
    if (comparison.verdict.agree) t.fileAgree++;
    t.errors += comparison.unknownLabels.length > 0 ? 1 : 0;
    t.overturned = tally.verifications.overturned;
    onCase?.(comparison);
  }
  return result;
}

/** A judged case without labels cannot be compared: for calibrate it is a case that failed (what its calls cost still counts). */
function unlabeled(judged: JudgedCase): CaseResult {
  const { input, usage } = judged;
  return { kind: "failed", input, message: 'has no "expected" labels (calibrate needs {trajectory, expected})', ...(usage !== undefined ? { usage } : {}) };
}

/** Everything agrees, and there was something to compare: zero cases (an empty file, a wrong glob) proves nothing. */
export function calibrationPassed(result: CalibrationResult): boolean {
  const t = result.totals;
  return t.errors === 0 && t.fileTotal > 0 && t.metaAgree === t.metaTotal && t.fileAgree === t.fileTotal;
}
