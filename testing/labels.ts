/**
 * The label comparison `calibrate` runs (docs/FORMATS.md §7), as a function of a
 * judgment and its `expected` block. Every rule's verdict is compared with the
 * label of the same name, the file verdict with `expected.verdict`, and
 * labels naming no rule are listed. A rule the labels leave out is not
 * compared: a case may label only the rules a person has checked. A verdict
 * resting on a failed model call never agrees, whatever the label.
 */
import { isObject } from "../runtime/is-object.js";
import type { TrajectoryJudgment, Verdict } from "../runtime/types.js";
// A leaf module with no imports: rule names in messages are escaped as in every other message.
import { printable } from "../compiler/report/printable.js";

export interface ExpectedLabels {
  /** The trajectory verdict; left out, it is not compared (as a rule without a label). */
  verdict?: Verdict;
  metaBehaviorVerdicts: Record<string, Verdict>;
}

const VERDICTS: readonly unknown[] = ["true", "false", "na"];

/**
 * Reads an `expected` block (docs/FORMATS.md §7): the one label reader, used
 * by `calibrate` for label files and by the test helpers, so both accept and
 * refuse the same labels. Returns the typed labels or the error text. A
 * missing `metaBehaviorVerdicts` is no rule labels (no rule is then
 * compared), a missing `verdict` leaves the trajectory verdict uncompared
 * (but labels must label something); verdicts are the strings "true", "false" and "na", never booleans.
 */
export function readExpected(value: unknown): ExpectedLabels | string {
  if (!isObject(value)) return "expected must be an object with verdict and metaBehaviorVerdicts";
  if (value.verdict !== undefined && !VERDICTS.includes(value.verdict)) return 'expected.verdict must be "true", "false", or "na"';
  const metas = value.metaBehaviorVerdicts ?? {};
  if (!isObject(metas)) return "expected.metaBehaviorVerdicts must be an object of rule name: verdict";
  for (const [name, verdict] of Object.entries(metas)) {
    if (!VERDICTS.includes(verdict))
      return `expected.metaBehaviorVerdicts[${printable(JSON.stringify(name))}] must be "true", "false", or "na"`;
  }
  // Labels that label nothing compare nothing: a failing trajectory would pass.
  if (value.verdict === undefined && Object.keys(metas).length === 0)
    return "expected labels nothing: give expected.verdict or a rule's label";
  const labels: ExpectedLabels = { metaBehaviorVerdicts: metas as Record<string, Verdict> };
  if (value.verdict !== undefined) labels.verdict = value.verdict as Verdict;
  return labels;
}

export interface VerdictComparison {
  name: string;
  expected: Verdict | null;
  actual: Verdict;
  agree: boolean;
  /** Set when the verdict rests on a failed model call: never an agreement, whatever the label. */
  error?: true;
  /** Set when the case has no label for this rule: not compared, so neither an agreement nor a disagreement (`agree` is true). */
  unlabeled?: true;
}

export interface LabelComparison {
  /** The trajectory verdict; `unlabeled` (and `expected: null`, `agree: true`) when the labels leave it out. */
  verdict: { expected: Verdict | null; actual: Verdict; agree: boolean; error?: true; unlabeled?: true };
  metaBehaviors: VerdictComparison[];
  /** Labels naming no rule of this judge: a typo in the label file. */
  unknownLabels: string[];
  /** The rules the case has no label for, in the judgment's order: not compared. */
  unlabeled: string[];
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
  const metaBehaviors: VerdictComparison[] = judgment.metaBehaviors.map((m) =>
    Object.hasOwn(labels, m.name)
      ? { name: m.name, ...compare(labels[m.name]!, m) }
      : { name: m.name, expected: null, actual: m.verdict, agree: true, unlabeled: true },
  );
  const judged = new Set(judgment.metaBehaviors.map((m) => m.name));
  return {
    verdict:
      expected.verdict === undefined
        ? { expected: null, actual: judgment.verdict, agree: true, unlabeled: true }
        : compare(expected.verdict, judgment),
    metaBehaviors,
    unknownLabels: Object.keys(labels).filter((name) => !judged.has(name)),
    unlabeled: metaBehaviors.filter((m) => m.unlabeled === true).map((m) => m.name),
  };
}

/** Every verdict agrees and every label names a rule. */
export function labelsAgree(c: LabelComparison): boolean {
  return c.verdict.agree && c.unknownLabels.length === 0 && c.metaBehaviors.every((m) => m.agree);
}
