/**
 * Verdict preview: how a judge.yaml judges the sample trajectories, clause by
 * clause, before anyone accepts it, and the warnings a person must not miss
 * (issue 14): a check that fails every sample or passes none, a trigger that
 * never fires where the check's events appear, a window that never opens, an
 * action or metadata value no sample uses, two clauses that always agree, a
 * check that fails most samples (samples are mostly sessions that went right),
 * a rule whose semantic trigger leaves it n.a. on every sample, a rule that
 * applies to most samples and fails none while the samples break most others,
 * and a check on one action whose quote names another sample action better.
 *
 * The checks' verdicts come from the judge's own generated code
 * (preview-eval.ts), so each is the one the built judge gives without a
 * model: semantic triggers and checks come out na. The warnings are in
 * preview-warnings.ts.
 */
import { foldVerdicts } from "../../runtime/fold.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import type { Trajectory, Verdict } from "../../runtime/types.js";
import { patternMatches } from "../interview/evidence.js";
import type { JudgeIR, MetaBehavior } from "../ir/types.js";
import { checkClauses } from "./preview-eval.js";
import { failsNoSample, ruleWarnings } from "./preview-warnings.js";
import type { ClausePreview, JudgePreview, RulePreview, VerdictSamples } from "./preview-types.js";

export type {
  ClausePreview,
  JudgePreview,
  PreviewClauseRef,
  PreviewWarning,
  PreviewWarningKind,
  RulePreview,
  VerdictSamples,
} from "./preview-types.js";

function verdictSamples(): VerdictSamples {
  return { pass: [], fail: [], na: [] };
}

function add(into: VerdictSamples, verdict: Verdict, id: string): void {
  (verdict === "true" ? into.pass : verdict === "false" ? into.fail : into.na).push(id);
}

function triggerFires(rule: MetaBehavior, trajectory: Trajectory): boolean {
  const match = rule.trigger.match;
  return match !== undefined && trajectory.events.some((e) => patternMatches(e, match));
}

/** The preview of one rule on the samples. */
export function previewRule(rule: MetaBehavior, given: readonly Trajectory[]): RulePreview {
  // In the judge's normal form (metadata values as strings), as judgeTrajectory reads them: the trigger and the warnings see what the checks see.
  const samples = given.map((sample) => validateTrajectory(sample));
  const triggered: string[] = [];
  const ruleSamples = verdictSamples();
  const checks = rule.checks.map(() => verdictSamples());
  const semantic = rule.semanticChecks.map(() => verdictSamples());
  const gated: Verdict[][] = rule.checks.map(() => []);
  for (const sample of samples) {
    const fires = triggerFires(rule, sample);
    if (fires) triggered.push(sample.id);
    const clauses = checkClauses(rule.checks, sample);
    clauses.forEach((clause, i) => {
      const verdict: Verdict = fires && sample.events.length > 0 ? clause.verdict : "na";
      gated[i]!.push(verdict);
      add(checks[i]!, verdict, sample.id);
    });
    // Without a model a semantic check is na; it is never asked when a deterministic clause failed.
    semantic.forEach((s) => add(s, "na", sample.id));
    const verdict: Verdict =
      !fires || sample.events.length === 0
        ? "na"
        : foldVerdicts([...clauses, ...rule.semanticChecks.map(() => ({ verdict: "na" as Verdict }))]);
    add(ruleSamples, verdict, sample.id);
  }
  const clauses: ClausePreview[] = [
    ...checks.map((s, index) => ({ clause: { kind: "check" as const, index }, samples: s })),
    ...semantic.map((s, index) => ({ clause: { kind: "semanticCheck" as const, index }, samples: s })),
  ];
  const { warnings, widenedTrigger } = ruleWarnings(rule, samples, { triggered, rule: ruleSamples, checks, gated });
  return { name: rule.name, triggered, rule: ruleSamples, clauses, warnings, ...(widenedTrigger === undefined ? {} : { widenedTrigger }) };
}

/** The preview of every rule of a judge on the samples. */
export function previewJudge(ir: JudgeIR, samples: readonly Trajectory[]): JudgePreview {
  const rules = ir.metaBehaviors.map((rule) => previewRule(rule, samples));
  rules.forEach((rule, r) => {
    const warning = failsNoSample(
      rule,
      samples.length,
      rules.filter((_, o) => o !== r),
    );
    if (warning !== undefined) rule.warnings.push(warning);
  });
  return { rules };
}
