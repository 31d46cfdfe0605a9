/**
 * The second half of issue 14's done-when: "every clause that disagrees on a sample is flagged
 * in the preview before it is accepted". For each rule verdict of a draft (read off its preview,
 * which gives the built judge's verdicts) that differs from the hand label, is a preview warning
 * about the rule, or about a clause that decides that verdict, shown?
 *
 * Which clauses decide a verdict:
 * - the draft says true or false where the label says na: the trigger (it fired where the rule
 *   does not apply), and the checks that gave that verdict on the sample;
 * - the draft says true where the label says false, or false where it says true: the checks
 *   that passed, or failed, on the sample;
 * - the draft says na: the trigger when it did not fire on the sample (a semantic trigger never
 *   fires without a model), otherwise every check and semantic check (all of them were na).
 * A warning about the whole rule (kind "rule") counts for every sample.
 *
 * Imports only types, so the benchmark can load it through esbuild's transform.
 */
import type { JudgePreview, PreviewClauseRef, PreviewWarning, RulePreview } from "../../compiler/generate/preview.js";
import type { Verdict } from "../../runtime/types.js";

/** One labeled case: the sample's id and the expected verdict per rule name. */
export interface LabeledSample {
  id: string;
  labels: Record<string, string>;
}

export interface Disagreement {
  rule: string;
  sample: string;
  draft: Verdict;
  /** The hand label; a missing label is read as "missing" (calibrate counts it as a mismatch). */
  label: string;
  /** The clauses that decide the draft's verdict on this sample. */
  deciding: PreviewClauseRef[];
  /** The preview warnings about the rule or a deciding clause. */
  warnings: PreviewWarning[];
  flagged: boolean;
}

function verdictOf(rule: RulePreview, id: string): Verdict {
  return rule.rule.pass.includes(id) ? "true" : rule.rule.fail.includes(id) ? "false" : "na";
}

function sameRef(a: PreviewClauseRef, b: PreviewClauseRef): boolean {
  return a.kind === b.kind && (!("index" in a) || !("index" in b) || a.index === b.index);
}

function decidingClauses(rule: RulePreview, id: string, draft: Verdict, label: string): PreviewClauseRef[] {
  const checksWith = (key: "pass" | "fail") =>
    rule.clauses.filter((c) => c.clause.kind === "check" && c.samples[key].includes(id)).map((c) => c.clause);
  if (draft === "na") return rule.triggered.includes(id) ? rule.clauses.map((c) => c.clause) : [{ kind: "trigger" }];
  const checks = checksWith(draft === "true" ? "pass" : "fail");
  return label === "na" ? [{ kind: "trigger" }, ...checks] : checks;
}

/** Every rule verdict of the preview that disagrees with its label, and whether the preview flags it. */
export function flaggedDisagreements(preview: JudgePreview, labeled: readonly LabeledSample[]): Disagreement[] {
  const out: Disagreement[] = [];
  for (const { id, labels } of labeled) {
    for (const rule of preview.rules) {
      const draft = verdictOf(rule, id);
      const label = labels[rule.name] ?? "missing";
      if (draft === label) continue;
      const deciding = decidingClauses(rule, id, draft, label);
      const about = (ref: PreviewClauseRef) => ref.kind === "rule" || deciding.some((d) => sameRef(d, ref));
      const warnings = rule.warnings.filter((w) => about(w.clause) || (w.other !== undefined && about(w.other)));
      out.push({ rule: rule.name, sample: id, draft, label, deciding, warnings, flagged: warnings.length > 0 });
    }
  }
  return out;
}

/** The rules whose verdict agrees with the label on every labeled sample. */
export function agreeingRules(preview: JudgePreview, labeled: readonly LabeledSample[]): RulePreview[] {
  return preview.rules.filter((rule) => labeled.every(({ id, labels }) => verdictOf(rule, id) === (labels[rule.name] ?? "missing")));
}

/** A rule the preview warns about although its verdicts agree with the labels on every labeled sample. */
export interface FalseAlarm {
  rule: string;
  warnings: PreviewWarning[];
}

/**
 * The other side of the measure: a preview that warns about everything flags every
 * disagreement and helps nobody. A false alarm is a rule with at least one warning whose
 * verdict agrees with its label on every labeled sample.
 */
export function falseAlarms(preview: JudgePreview, labeled: readonly LabeledSample[]): FalseAlarm[] {
  return agreeingRules(preview, labeled)
    .filter((rule) => rule.warnings.length > 0)
    .map((rule) => ({ rule: rule.name, warnings: rule.warnings }));
}
