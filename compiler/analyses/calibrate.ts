/**
 * calibrate (docs/FORMATS.md §7): labeled cases against the compiled judge.
 * Every meta-behavior verdict is compared with the label of the same name
 * (a rule without one is not compared, only counted as unlabeled) and the
 * file verdict with `expected.verdict`.
 */
import type { TrajectoryJudgment } from "../../runtime/types.js";
import { compareLabels, labelsAgree, type LabelComparison } from "../../testing/labels.js";
import type { SemanticUsage } from "../../runtime/semantic.js";
import type { InputCase } from "../inputs/case.js";
import type { JudgeModule } from "../run/load.js";
import { failureLine, judgeCases, type CaseResult, type JudgedCase, type RunOptions } from "../run/judge-cases.js";
import { Tally } from "./tally.js";

// The comparison itself is the test helpers' (behavior-judge/testing), so a
// test suite and `calibrate` can never disagree about a label.
export type { VerdictComparison } from "../../testing/labels.js";

export interface CaseComparison {
  file: string;
  caseIndex: number;
  line?: number;
  trajectoryId: string;
  verdict: LabelComparison["verdict"];
  metaBehaviors: LabelComparison["metaBehaviors"];
  /** Labels naming no rule of this judge: a typo in the label file. */
  unknownLabels: string[];
  /** The rules this case has no label for: not compared. */
  unlabeled: string[];
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

export function compareCase(input: InputCase, judgment: TrajectoryJudgment): CaseComparison {
  const { verdict, metaBehaviors, unknownLabels, unlabeled } = compareLabels(input.expected!, judgment);
  return {
    file: input.file,
    caseIndex: input.index,
    ...(input.line !== undefined ? { line: input.line } : {}),
    trajectoryId: judgment.trajectoryId,
    verdict,
    metaBehaviors,
    unknownLabels,
    unlabeled,
  };
}

/** A case agrees when every verdict agrees and every label names a rule. */
export function caseAgrees(c: CaseComparison): boolean {
  return labelsAgree(c);
}

export async function calibrate(
  judge: JudgeModule,
  cases: AsyncIterable<InputCase>,
  options: RunOptions & { onCase?: (c: CaseComparison | string) => void } = {},
): Promise<CalibrationResult> {
  const { onCase: _onCase, ...runOptions } = options;
  return calibrateResults(judge, judgeCases(judge, cases, runOptions), options);
}

/** calibrate over results judged elsewhere (on worker threads, say), in input order; `options.complete` says a model was used. */
export async function calibrateResults(
  judge: JudgeModule,
  results: AsyncIterable<CaseResult>,
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
  for await (const judged of results) {
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
    // Only the labeled rules count: a case may label some rules and leave the rest.
    const labeled = comparison.metaBehaviors.filter((m) => m.unlabeled !== true);
    t.metaTotal += labeled.length;
    t.metaAgree += labeled.filter((m) => m.agree).length;
    // A case may leave its trajectory verdict unlabeled too (`label` does when the judge could not decide it).
    if (comparison.verdict.unlabeled !== true) {
      t.fileTotal++;
      if (comparison.verdict.agree) t.fileAgree++;
    }
    t.errors += comparison.unknownLabels.length > 0 ? 1 : 0;
    t.overturned = tally.verifications.overturned;
    onCase?.(comparison);
  }
  return result;
}

/** Why a case without labels fails calibrate (and its dry run). */
export const UNLABELED = 'has no "expected" labels (calibrate needs {trajectory, expected})';

/** A judged case without labels cannot be compared: for calibrate it is a case that failed (what its calls cost still counts). */
function unlabeled(judged: JudgedCase): CaseResult {
  const { input, usage } = judged;
  return {
    kind: "failed",
    input,
    message: UNLABELED,
    ...(usage !== undefined ? { usage } : {}),
  };
}

/** Everything agrees, and there was something to compare: zero cases (an empty file, a wrong glob), or cases without a single label, prove nothing. */
export function calibrationPassed(result: CalibrationResult): boolean {
  const t = result.totals;
  return t.errors === 0 && t.fileTotal + t.metaTotal > 0 && t.metaAgree === t.metaTotal && t.fileAgree === t.fileTotal;
}
