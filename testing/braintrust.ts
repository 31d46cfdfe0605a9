/**
 * behavior-judge/braintrust: a compiled judge as a Braintrust scorer, the
 * deterministic counterpart of autoevals' LLM `Behavior` scorer:
 *
 *   import * as judge from "./.agents/behaviors/x/judge.mjs";
 *   import { behaviorScorer } from "behavior-judge/braintrust";
 *   Eval("agent", { data, task, scores: [behaviorScorer(judge)] });
 *
 * The scorer follows the SDK's conventions: it returns an array of
 * `{ name, score, metadata }`, one for the trajectory (named after the
 * behavior) and one per rule (`<behavior>/<rule>`), score 1 for true, 0 for
 * false and null where there is no verdict (na, or resting on a failed model
 * call). It imports nothing, not even braintrust.
 */
import { CITATIONS_SHOWN, formatJudgment, undecidedReason } from "../runtime/format-judgment.js";
import type { JudgeOptions } from "../runtime/judge.js";
import type { MetaBehaviorJudgment, TrajectoryEvent, TrajectoryJudgment, Verdict } from "../runtime/types.js";
import { readCases, type JudgeLike } from "./inputs.js";

export interface BraintrustScore {
  name: string;
  score: number | null;
  metadata: Record<string, unknown>;
}

/** The fields Braintrust passes a scorer (EvalScorerArgs); only `output` is read by default. */
export interface ScorerArgs {
  input?: unknown;
  output?: unknown;
  expected?: unknown;
  metadata?: unknown;
  [key: string]: unknown;
}

export interface BehaviorScorerOptions {
  /** Where the trajectory is in the scorer's arguments (default: `output`). Any format the importers read. */
  trajectory?: (args: ScorerArgs) => unknown;
  /** The trace format when detection cannot tell (an importer name, or "trajectory"). */
  from?: string;
  /** Passed to judgeTrajectory (a model adapter for semantic clauses…). */
  judgeOptions?: JudgeOptions;
  /** Characters of event content kept per cited event in metadata (default 200). */
  clip?: number;
}

/** 1 / 0 / null: na and failed model calls are no verdict, never a pass. */
export function verdictScore(verdict: Verdict, error?: true): number | null {
  if (error === true) return null;
  return verdict === "true" ? 1 : verdict === "false" ? 0 : null;
}

/** Several trajectories from one trace: false if any is false, true if any is true, else na. */
function fold(verdicts: { verdict: Verdict; error?: true }[]): { verdict: Verdict; error?: true } {
  const error = verdicts.some((v) => v.error === true) ? { error: true as const } : {};
  if (verdicts.some((v) => v.verdict === "false")) return { verdict: "false", ...error };
  if (verdicts.some((v) => v.verdict === "true")) return { verdict: "true", ...error };
  return { verdict: "na", ...error };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function ruleDetails(rule: MetaBehaviorJudgment, trajectoryId: string, events: Map<string, TrajectoryEvent>, max: number) {
  return {
    trajectoryId,
    verdict: rule.verdict,
    naReason: rule.naReason,
    triggered: rule.triggered,
    ...(rule.error === true ? { error: true } : {}),
    clauses: rule.clauses.map((c) => ({
      type: c.kind === "semantic" ? `semantic ${c.check ?? "question"}` : (c.check ?? "predicate"),
      quote: c.quote,
      verdict: c.verdict,
      naReason: c.naReason,
      ...(undecidedReason(c) !== undefined ? { undecided: undecidedReason(c) } : {}),
      ...(c.reasoning !== undefined ? { reasoning: c.reasoning } : {}),
      // The first few, as every report shows them: a passing pairing over a long trace cites every event.
      citations: c.citations.slice(0, CITATIONS_SHOWN).map((cite) => {
        const e = events.get(cite.eventId);
        return {
          eventId: cite.eventId,
          description: cite.description,
          ...(e !== undefined ? { actor: e.actor, action: e.action, content: clip(e.content ?? "", max) } : {}),
        };
      }),
      ...(c.citations.length > CITATIONS_SHOWN ? { moreCitations: c.citations.length - CITATIONS_SHOWN } : {}),
    })),
  };
}

/** A Braintrust scorer built from an imported judge.mjs. */
export function behaviorScorer(judge: JudgeLike & { rules?: readonly { name: string }[] }, options: BehaviorScorerOptions = {}) {
  const pick = options.trajectory ?? ((args: ScorerArgs) => args.output);
  const max = options.clip ?? 200;
  const scorer = async (args: ScorerArgs): Promise<BraintrustScore[]> => {
    const cases = readCases(pick(args), options.from !== undefined ? { from: options.from } : {});
    const judged: { judgment: TrajectoryJudgment; events: Map<string, TrajectoryEvent> }[] = [];
    for (const c of cases) {
      const judgment = await judge.judgeTrajectory(c.trajectory, options.judgeOptions);
      const events = (c.trajectory as { events?: TrajectoryEvent[] }).events ?? [];
      judged.push({ judgment, events: new Map(events.map((e) => [e.id, e])) });
    }
    const whole = fold(judged.map((j) => j.judgment));
    const scores: BraintrustScore[] = [
      {
        name: judge.behavior,
        score: verdictScore(whole.verdict, whole.error),
        metadata: {
          verdict: whole.verdict,
          ...(whole.error === true ? { error: true } : {}),
          trajectories: judged.map(({ judgment }) => ({ trajectoryId: judgment.trajectoryId, verdict: judgment.verdict })),
          failing: [
            ...new Set(judged.flatMap(({ judgment }) => judgment.metaBehaviors.filter((m) => m.verdict === "false").map((m) => m.name))),
          ],
          text: judged
            .map(({ judgment }, i) => formatJudgment(judgment, { trajectory: cases[i]!.trajectory as { events?: TrajectoryEvent[] } }))
            .join("\n\n"),
        },
      },
    ];
    const names = judged[0]?.judgment.metaBehaviors.map((m) => m.name) ?? [];
    for (const name of names) {
      const rules = judged.map(({ judgment, events }) => ({
        rule: judgment.metaBehaviors.find((m) => m.name === name)!,
        judgment,
        events,
      }));
      const folded = fold(rules.map((r) => r.rule));
      const details = rules.map(({ rule, judgment, events }) => ruleDetails(rule, judgment.trajectoryId, events, max));
      scores.push({
        name: `${judge.behavior}/${name}`,
        score: verdictScore(folded.verdict, folded.error),
        metadata: details.length === 1 ? details[0]! : { verdict: folded.verdict, trajectories: details },
      });
    }
    return scores;
  };
  // Braintrust names a scorer after its function; the per-score names above take precedence.
  Object.defineProperty(scorer, "name", { value: judge.behavior });
  return scorer;
}
