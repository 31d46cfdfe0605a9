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
 * It interprets the IR directly (no compile: it runs after every edit) with
 * the runtime's own clause builders, so each verdict is the one the built
 * judge gives without a model: semantic triggers and checks come out na.
 * The warnings are in preview-warnings.ts.
 */
import { countClause, forbiddenClause, orderingClause, pairingClause, requiredClause } from "../../runtime/checks.js";
import { foldVerdicts } from "../../runtime/fold.js";
import type { Clause, Trajectory, TrajectoryEvent, Verdict } from "../../runtime/types.js";
import { patternMatches } from "../interview/evidence.js";
import type { Check, JudgeIR, MetaBehavior, Pattern } from "../ir/types.js";
import { failsNoSample, ruleWarnings } from "./preview-warnings.js";

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

function verdictSamples(): VerdictSamples {
  return { pass: [], fail: [], na: [] };
}

function add(into: VerdictSamples, verdict: Verdict, id: string): void {
  (verdict === "true" ? into.pass : verdict === "false" ? into.fail : into.na).push(id);
}

function indexesOf(events: readonly TrajectoryEvent[], pattern: Pattern, from = 0): number[] {
  const out: number[] = [];
  for (let i = from; i < events.length; i++) if (patternMatches(events[i]!, pattern)) out.push(i);
  return out;
}

/** Where an `after:` window starts (the index after its first match), 0 without one, -1 when it never opens. */
function windowStart(events: readonly TrajectoryEvent[], after: Pattern | undefined): number {
  if (after === undefined) return 0;
  const opener = events.findIndex((e) => patternMatches(e, after));
  return opener < 0 ? -1 : opener + 1;
}

/** One deterministic check on one trajectory, exactly as docs/FORMATS.md §4 (and the generated judge) decides it. */
export function evaluateCheck(check: Check, trajectory: Trajectory): Clause {
  const { events, complete } = trajectory;
  const ids = (indexes: readonly number[]) => indexes.map((i) => events[i]!.id);
  const quote = check.quote;
  switch (check.type) {
    case "ordering": {
      const before = events.findIndex((e) => patternMatches(e, check.before));
      const first = events.findIndex((e) => patternMatches(e, check.first));
      // The builder wants the `first` match only when it came strictly before the first `before` match.
      return orderingClause({
        quote,
        complete,
        first: first >= 0 && first < before ? events[first]!.id : undefined,
        before: events[before]?.id,
      });
    }
    case "pairing": {
      const eachs = indexesOf(events, check.each);
      const followers: number[] = [];
      for (const each of eachs) {
        const follower = events.findIndex((e, i) => i > each && patternMatches(e, check.followedBy));
        if (follower < 0) break;
        followers.push(follower);
      }
      return pairingClause({ quote, complete, each: ids(eachs), followers: ids(followers) });
    }
    case "required":
    case "forbidden":
    case "count": {
      const start = windowStart(events, check.after);
      const windowOpen = start >= 0;
      const matches = windowOpen ? indexesOf(events, check.match, start) : [];
      if (check.type === "required") return requiredClause({ quote, complete, windowOpen, match: events[matches[0] ?? -1]?.id });
      if (check.type === "forbidden") return forbiddenClause({ quote, complete, windowOpen, matches: ids(matches) });
      const counted = ids(distinct(events, matches, check.distinctBy));
      return countClause({
        quote,
        complete,
        windowOpen,
        counted,
        ...(check.min === undefined ? {} : { min: check.min }),
        ...(check.max === undefined ? {} : { max: check.max }),
      });
    }
    case "condition":
      // TODO(extended preview): evaluate with the compiled judge; until then no verdict is claimed.
      return { kind: "predicate", quote, verdict: "na", naReason: "insufficient_evidence", citations: [], check: "condition" };
  }
}

function distinct(events: readonly TrajectoryEvent[], matches: number[], by: string | undefined): number[] {
  if (by === undefined) return matches;
  const seen = new Set<string>();
  const kept: number[] = [];
  for (const i of matches) {
    const event = events[i]!;
    let value: string | undefined;
    if (by === "content") value = event.content ?? "";
    else {
      const key = by.slice("metadata.".length);
      const metadata = event.metadata ?? {};
      value = Object.hasOwn(metadata, key) ? String(metadata[key]) : undefined;
    }
    if (value === undefined || seen.has(value)) continue;
    seen.add(value);
    kept.push(i);
  }
  return kept;
}

function triggerFires(rule: MetaBehavior, trajectory: Trajectory): boolean {
  const match = rule.trigger.match;
  return match !== undefined && trajectory.events.some((e) => patternMatches(e, match));
}

/** The preview of one rule on the samples. */
export function previewRule(rule: MetaBehavior, samples: readonly Trajectory[]): RulePreview {
  const triggered: string[] = [];
  const ruleSamples = verdictSamples();
  const checks = rule.checks.map(() => verdictSamples());
  const semantic = rule.semanticChecks.map(() => verdictSamples());
  const gated: Verdict[][] = rule.checks.map(() => []);
  for (const sample of samples) {
    const fires = triggerFires(rule, sample);
    if (fires) triggered.push(sample.id);
    const clauses = rule.checks.map((check) => evaluateCheck(check, sample));
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
