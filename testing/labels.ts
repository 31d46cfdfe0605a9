/**
 * The label comparison `calibrate` runs (docs/FORMATS.md §7), as a function of a
 * judgment and its `expected` block. Every rule's verdict is compared with the
 * label of the same name (a missing label is a mismatch), the file verdict
 * with `expected.verdict`, and labels naming no rule are listed. A verdict
 * resting on a failed model call never agrees, whatever the label.
 */
import type { TrajectoryJudgment, Verdict } from "../runtime/types.js";

export interface ExpectedLabels {
  verdict: Verdict;
  metaBehaviorVerdicts: Record<string, Verdict>;
}

export interface VerdictComparison {
  name: string;
  expected: Verdict | null;
  actual: Verdict;
  agree: boolean;
  /** Set when the verdict rests on a failed model call: never an agreement, whatever the label. */
  error?: true;
}

export interface LabelComparison {
  verdict: { expected: Verdict; actual: Verdict; agree: boolean; error?: true };
  metaBehaviors: VerdictComparison[];
  /** Labels naming no rule of this judge: a typo in the label file. */
  unknownLabels: string[];
}

function compare<E extends Verdict | null>(
  expected: E,
  judged: { verdict: Verdict; error?: true },
): { expected: E; actual: Verdict; agree: boolean; error?: true } {
  const base = { expected, actual: judged.verdict };
  return judged.error === true ? { ...base, agree: false, error: true } : { ...base, agree: expected === judged.verdict };
}

export function compareLabels(expected: ExpectedLabels, judgment: TrajectoryJudgment): LabelComparison {
  const labels = expected.metaBehaviorVerdicts;
  const metaBehaviors = judgment.metaBehaviors.map((m) => ({
    name: m.name,
    ...compare(Object.hasOwn(labels, m.name) ? labels[m.name]! : null, m),
  }));
  const judged = new Set(judgment.metaBehaviors.map((m) => m.name));
  return {
    verdict: compare(expected.verdict, judgment),
    metaBehaviors,
    unknownLabels: Object.keys(labels).filter((name) => !judged.has(name)),
  };
}

/** Every verdict agrees and every label names a rule. */
export function labelsAgree(c: LabelComparison): boolean {
  return c.verdict.agree && c.unknownLabels.length === 0 && c.metaBehaviors.every((m) => m.agree);
}
