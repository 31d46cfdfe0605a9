/**
 * `label` (docs/FORMATS.md §7): the labels a judge proposes for a case, from
 * its own judgment, for a person to correct. A verdict the judge did not
 * decide (a clause no model answered, or no model to ask) is left out, never
 * proposed: an undecided rule is often na or true by default, and a label of
 * it would turn "nobody knows" into a pass that calibrate then confirms.
 */
import { undecidedReason } from "../../runtime/format-judgment.js";
import type { MetaBehaviorJudgment, TrajectoryJudgment, Verdict } from "../../runtime/types.js";
import type { ExpectedLabels } from "../../testing/labels.js";
import type { JudgeModule } from "../run/load.js";

/** Why the judge did not decide a rule, or undefined when it did. */
export function undecidedRule(rule: MetaBehaviorJudgment): string | undefined {
  if (rule.error === true) return "no valid model answer";
  const reasons = [...new Set(rule.clauses.map(undecidedReason).filter((r) => r !== undefined))];
  return reasons.length === 0 ? undefined : reasons.join(", ");
}

export interface ProposedLabels {
  /** The labels, in the shape calibrate reads (`verdict` left out when undecided). */
  expected: ExpectedLabels;
  /** What was left unlabeled, and why: absent when everything was labeled. */
  unlabeled?: { verdict?: string; rules?: Record<string, string> };
}

/**
 * The judgment's verdicts as labels. The trajectory verdict is labeled when
 * every rule was decided, or when it is false without a model error (a
 * decided rule failed: no undecided rule can change that).
 */
export function proposeLabels(judgment: TrajectoryJudgment): ProposedLabels {
  const metaBehaviorVerdicts: Record<string, Verdict> = {};
  const rules: Record<string, string> = {};
  for (const rule of judgment.metaBehaviors) {
    const why = undecidedRule(rule);
    if (why === undefined) metaBehaviorVerdicts[rule.name] = rule.verdict;
    else rules[rule.name] = why;
  }
  const undecided = Object.keys(rules).length;
  const verdictUndecided =
    judgment.error === true
      ? "no valid model answer"
      : undecided > 0 && judgment.verdict !== "false"
        ? `rests on ${undecided === 1 ? "a rule" : "rules"} the judge did not decide`
        : undefined;
  const expected: ExpectedLabels =
    verdictUndecided === undefined ? { verdict: judgment.verdict, metaBehaviorVerdicts } : { metaBehaviorVerdicts };
  if (verdictUndecided === undefined && undecided === 0) return { expected };
  return {
    expected,
    unlabeled: { ...(verdictUndecided !== undefined ? { verdict: verdictUndecided } : {}), ...(undecided > 0 ? { rules } : {}) },
  };
}

/** The judge that proposed the labels: no time, no path, so the same run writes the same bytes. */
export interface ProposedBy {
  judge: string;
  version: string;
  judgeYamlSha256: string;
}

export function proposedBy(judge: Pick<JudgeModule, "behavior" | "version" | "irSha256">): ProposedBy {
  return { judge: judge.behavior, version: judge.version, judgeYamlSha256: judge.irSha256 };
}

/** A labeled case file's content (docs/FORMATS.md §2): `{trajectory, expected, proposedBy}`, and `unlabeled` when anything was left out. */
export function labeledCase(trajectory: unknown, labels: ProposedLabels, by: ProposedBy): string {
  const value = {
    trajectory,
    expected: labels.expected,
    proposedBy: by,
    ...(labels.unlabeled !== undefined ? { unlabeled: labels.unlabeled } : {}),
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}
