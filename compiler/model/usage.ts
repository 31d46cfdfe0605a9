/** Totals of what model calls cost over a run, from each case's `usage`. */
import { emptyUsage, type SemanticUsage } from "../../runtime/semantic.js";
import type { TrajectoryJudgment } from "../../runtime/types.js";

export function emptyUsageTotals(): SemanticUsage {
  return emptyUsage();
}

export function addUsage(total: SemanticUsage, usage: SemanticUsage | undefined): void {
  if (usage === undefined) return;
  total.calls += usage.calls;
  total.cachedCalls += usage.cachedCalls;
  total.failedCalls += usage.failedCalls;
  total.requests += usage.requests;
  total.inputTokens += usage.inputTokens;
  total.outputTokens += usage.outputTokens;
}

/** Semantic clauses the model could not answer validly (or a verification that failed). */
export function clauseErrorCount(judgment: TrajectoryJudgment | undefined): number {
  if (judgment === undefined) return 0;
  let errors = 0;
  for (const meta of judgment.metaBehaviors) for (const clause of meta.clauses) if (clause.error !== undefined) errors++;
  return errors;
}
