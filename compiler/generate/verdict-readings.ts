/**
 * Which reading of a rule stands after a verdict answer, and which question to ask next (issue 25).
 *
 * A verdict question separates the drafted reading of a rule from others: the runner-up of the
 * label search, or, for a rule with no label at all, readings its words support over the samples
 * (offline/rivals.ts). The answer is a label, and the rule is drafted again with its labels
 * (verdicts.ts); but a search that re-reads from one or two labels may pick a reading that merely
 * fits them and judges the other samples worse. So the reading kept is chosen among the previous
 * draft, the re-draft and the known rivals: those fitting as many labels of the rule as the re-draft, and of
 * those the previous draft itself, else the one that changes its verdicts on the unlabeled samples
 * least. An answer that confirms the draft therefore leaves it as it was; one that contradicts it
 * moves it no further than the labels ask.
 */
import type { Trajectory } from "../../runtime/types.js";
import type { MetaBehavior } from "../ir/types.js";
import { previewRule } from "./preview.js";
import type { RuleLabels } from "./offline/synthesize.js";
import type { LabelVerdict, VerdictQuestion } from "./types.js";

/** A reading with its verdict on every sample, by sample id. */
export interface Judged {
  rule: MetaBehavior;
  verdicts: Map<string, LabelVerdict>;
}

/** The rule's verdicts on each sample, by the judge's own code (preview.ts). */
export function judged(rule: MetaBehavior, samples: readonly Trajectory[]): Judged {
  const preview = previewRule(rule, samples);
  const pass = new Set(preview.rule.pass);
  const fail = new Set(preview.rule.fail);
  return { rule, verdicts: new Map(samples.map((s) => [s.id, pass.has(s.id) ? "true" : fail.has(s.id) ? "false" : "na"])) };
}

/** The labels given for one rule, by sample id. */
function labelsOf(labels: RuleLabels, ruleName: string): Map<string, LabelVerdict> {
  const out = new Map<string, LabelVerdict>();
  for (const [sample, verdicts] of Object.entries(labels)) {
    const v = verdicts[ruleName];
    if (v !== undefined) out.set(sample, v);
  }
  return out;
}

/** Labels of a rule under which the search's pick is weighed against the readings the samples make plausible. */
const FEW_LABELS = 3;

/** A reading the samples make plausible: it applies to two of them at least and passes as many as it fails. */
function plausible(r: Judged): boolean {
  const v = [...r.verdicts.values()];
  const pass = v.filter((x) => x === "true").length;
  const fail = v.filter((x) => x === "false").length;
  return pass + fail >= 2 && pass >= fail;
}

const fit = (r: Judged, given: Map<string, LabelVerdict>) => [...given].filter(([id, v]) => r.verdicts.get(id) === v).length;
const sameVerdicts = (a: Judged, b: Judged) => [...a.verdicts].every(([id, v]) => b.verdicts.get(id) === v);

/**
 * The reading kept among `readings` (the previous draft first, then the re-draft, then rivals):
 * of those that fit as many labels of the rule as the re-draft or more, the previous draft, else
 * the one whose verdicts on the samples no label speaks of differ least from the previous draft's;
 * ties go to the order given. And the others that fit as many labels as it or more but judge some
 * sample differently: the rivals left.
 */
export function keptReading(readings: readonly Judged[], labels: RuleLabels, ruleName: string): { kept: Judged; rivals: Judged[] } {
  const previous = readings[0]!;
  const given = labelsOf(labels, ruleName);
  // The re-draft's fit is the bar: the drafter may keep a reading that misses a label rather than
  // follow one that fits them all but that the labels do not bear out (synthesize.ts heldOut).
  const bar = fit(readings[1] ?? previous, given);
  const fitting = readings.filter((r) => fit(r, given) >= bar);
  // The previous draft where it fits as well, else the re-draft: a rival fitting as many labels is
  // no better evidence than the search's own pick (it is asked about instead). But one or two labels
  // leave many readings fitting, and the search may pick one that merely fits them, failing most
  // samples where it applies: then the first reading that the samples make plausible, as the words
  // path asks of its own (offline/synthesize-unlabeled.ts), stands instead.
  const few = given.size < FEW_LABELS;
  const kept =
    fitting[0] === previous
      ? previous
      : few && !plausible(readings[1]!)
        ? (fitting.find((r) => r !== previous && plausible(r)) ?? readings[1]!)
        : readings[1]!;
  // Rivals left: the readings that fit the most labels (as many as the one kept, or more: it may
  // have been kept though they fit better) and judge some sample otherwise; the next question is theirs.
  const most = Math.max(fit(kept, given), ...fitting.map((r) => fit(r, given)));
  const rivals: Judged[] = [];
  for (const r of fitting) if (fit(r, given) === most && !sameVerdicts(r, kept) && !rivals.some((x) => sameVerdicts(x, r))) rivals.push(r);
  return { kept, rivals };
}

/**
 * The question that separates `kept` from its rivals: on the unlabeled sample where the readings
 * split most evenly (the fewest of them on the largest side), the first rival disagreeing with the
 * draft breaking ties, then the samples' order. Undefined when they agree on every unlabeled sample.
 */
export function separatingQuestion(
  rule: number,
  kept: Judged,
  rivals: readonly Judged[],
  labels: RuleLabels,
  samples: readonly Trajectory[],
): VerdictQuestion | undefined {
  const given = labelsOf(labels, kept.rule.name);
  const all = [kept, ...rivals];
  let best: { sample: string; even: number; first: number; other: Judged } | undefined;
  for (const s of samples) {
    if (given.has(s.id)) continue;
    const mine = kept.verdicts.get(s.id);
    const first = rivals.findIndex((r) => r.verdicts.get(s.id) !== mine);
    if (first < 0) continue;
    const sides = new Map<LabelVerdict | undefined, number>();
    for (const r of all) sides.set(r.verdicts.get(s.id), (sides.get(r.verdicts.get(s.id)) ?? 0) + 1);
    const even = all.length - Math.max(...sides.values());
    if (best === undefined || even > best.even || (even === best.even && first < best.first))
      best = { sample: s.id, even, first, other: rivals[first]! };
  }
  if (best === undefined) return undefined;
  const text = `In ${best.sample}, did the agent follow ${JSON.stringify(kept.rule.name)}? y/n/n.a.`;
  return {
    rule,
    ruleName: kept.rule.name,
    sample: best.sample,
    text,
    readings: { draft: kept.verdicts.get(best.sample)!, other: best.other.verdicts.get(best.sample)! },
    other: best.other.rule,
  };
}
