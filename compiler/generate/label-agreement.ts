/**
 * How a model's draft agrees with the labeled samples (issue 25): each rule's verdicts on the
 * samples labeled for it by the judge's own code, the disagreeing samples with their events for
 * the re-draft message, and the notes that say how each model rule agrees.
 */
import type { Trajectory } from "../../runtime/types.js";
import type { MetaBehavior } from "../ir/types.js";
import type { RuleLabels, Verdict } from "./offline/synthesize.js";
import { previewRule } from "./preview.js";
import type { Draft, DraftNote } from "./types.js";

/** How a rule judges the samples labeled for it: agreements, and each disagreement. */
export interface LabelAgreement {
  agree: number;
  total: number;
  disagree: { sample: string; label: Verdict; verdict: Verdict }[];
}

const VERDICT_WORDS: Record<Verdict, string> = { true: "followed", false: "broken", na: "not applicable" };

/**
 * The rule's verdicts on the samples labeled for it, by the judge's own code. Undefined when no
 * sample is labeled for it, or when a model decides part of it (a semantic trigger or check):
 * then no verdict here is the judge's.
 */
export function labelAgreement(rule: MetaBehavior, samples: readonly Trajectory[], labels: RuleLabels): LabelAgreement | undefined {
  if (rule.trigger.semantic === true || rule.semanticChecks.length > 0) return undefined;
  const labeled = samples.filter((s) => labels[s.id]?.[rule.name] !== undefined);
  if (labeled.length === 0) return undefined;
  const preview = previewRule(rule, labeled);
  const verdictOf = (id: string): Verdict => (preview.rule.pass.includes(id) ? "true" : preview.rule.fail.includes(id) ? "false" : "na");
  const disagree = labeled.flatMap((s) => {
    const label = labels[s.id]![rule.name]!;
    const verdict = verdictOf(s.id);
    return verdict === label ? [] : [{ sample: s.id, label, verdict }];
  });
  return { agree: labeled.length - disagree.length, total: labeled.length, disagree };
}

function disagreementList(found: LabelAgreement): string {
  return found.disagree
    .map((d) => `${d.sample} is labeled ${VERDICT_WORDS[d.label]} but the rule judges it ${VERDICT_WORDS[d.verdict]}`)
    .join("; ");
}

export function disagreementProblem(found: LabelAgreement): string {
  return `it disagrees with ${found.disagree.length} of the ${found.total} labels given for it: ${disagreementList(found)}`;
}

/** Events shown per disagreeing sample, and samples shown per rule. */
const LABEL_EVENTS = 40;
const LABEL_SAMPLES = 3;

/** The disagreeing labeled samples, with their events, for the model. */
export function labelEvidence(found: LabelAgreement, samples: readonly Trajectory[]): string {
  const lines = ["Labeled samples it disagrees with:"];
  for (const d of found.disagree.slice(0, LABEL_SAMPLES)) {
    const sample = samples.find((s) => s.id === d.sample)!;
    lines.push(`- ${d.sample} (labeled ${VERDICT_WORDS[d.label]}; the rule says ${VERDICT_WORDS[d.verdict]}), events:`);
    for (const e of sample.events.slice(0, LABEL_EVENTS)) {
      const metadata = Object.entries(e.metadata ?? {})
        .map(([k, v]) => `${k}: ${String(v)}`)
        .join(", ");
      const content = typeof e.content === "string" && e.content !== "" ? ` ${JSON.stringify(e.content.slice(0, 80))}` : "";
      lines.push(`  ${e.id} ${e.actor} ${e.action}${metadata === "" ? "" : ` {${metadata}}`}${content}`);
    }
    if (sample.events.length > LABEL_EVENTS) lines.push(`  … ${sample.events.length - LABEL_EVENTS} more events`);
  }
  if (found.disagree.length > LABEL_SAMPLES) lines.push(`- … and ${found.disagree.length - LABEL_SAMPLES} more`);
  return lines.join("\n");
}

/**
 * A note on every model rule with labels saying how it agrees with them; a rule that was sent back
 * for them and still disagrees says so (it is kept, not sent back again: the person decides).
 */
export function labelNotes(draft: Draft, samples: readonly Trajectory[], labels: RuleLabels, sentBack: ReadonlySet<string>): Draft {
  const notes: DraftNote[] = [];
  draft.ir.metaBehaviors.forEach((rule, index) => {
    if (draft.origins[index] !== "model") return;
    const found = labelAgreement(rule, samples, labels);
    if (found === undefined) return;
    notes.push({ rule: index, kind: "labels", message: `agrees with ${found.agree} of the ${found.total} labels given for this rule` });
    if (found.disagree.length > 0)
      notes.push({
        rule: index,
        kind: "labels",
        message: sentBack.has(rule.name)
          ? `still disagrees with the labels after it went back to the model once: ${disagreementList(found)}; check the rule or the labels`
          : `disagrees with the labels: ${disagreementList(found)}`,
      });
  });
  return notes.length === 0 ? draft : { ...draft, notes: [...draft.notes, ...notes] };
}
