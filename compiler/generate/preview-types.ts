/** What a verdict preview says of each rule (preview.ts) and the warnings about it (preview-warnings.ts). */
import type { Pattern } from "../ir/types.js";

export type PreviewClauseRef =
  { kind: "rule" } | { kind: "trigger" } | { kind: "check"; index: number } | { kind: "semanticCheck"; index: number };

/** Sample ids by verdict. */
export interface VerdictSamples {
  pass: string[];
  fail: string[];
  na: string[];
}

export interface ClausePreview {
  clause: PreviewClauseRef;
  /** As the judge reports it: on a sample where the trigger does not fire, the clause is not judged (na). */
  samples: VerdictSamples;
}

export type PreviewWarningKind =
  | "fails-every-sample"
  | "passes-no-sample"
  | "trigger-misses-check-events"
  | "window-never-opens"
  | "unused-action"
  | "unused-metadata-value"
  | "clauses-always-agree"
  | "trigger-never-fires"
  | "trigger-matches-any-event"
  | "no-event-check"
  | "fails-most-samples"
  | "never-judged"
  | "fails-no-sample"
  | "quote-names-other-action";

export interface PreviewWarning {
  kind: PreviewWarningKind;
  /** The clause the warning is about; for clauses-always-agree, the first of the two. */
  clause: PreviewClauseRef;
  /**
   * For clauses-always-agree: the second clause; for trigger-misses-check-events: the check never
   * judged; for quote-names-other-action: the trigger, when it matches the same action as the check.
   */
  other?: PreviewClauseRef;
  message: string;
}

export interface RulePreview {
  name: string;
  /** Samples on which the trigger fires (a semantic trigger fires nowhere without a model). */
  triggered: string[];
  rule: VerdictSamples;
  clauses: ClausePreview[];
  warnings: PreviewWarning[];
  /**
   * With a trigger-misses-check-events warning: the trigger's pattern widened
   * (any-of) by the events of each check it never lets be judged, so that it
   * fires wherever those checks have something to judge. The front ends offer it.
   */
  widenedTrigger?: Pattern;
}

export interface JudgePreview {
  rules: RulePreview[];
}
