/** Totals of what model calls cost over a run, from each case's `usage`. */
import type { SemanticUsage } from "../../runtime/semantic.js";
import type { TrajectoryJudgment } from "../../runtime/types.js";

export function emptyUsageTotals(): SemanticUsage {
  return { calls: 0, cachedCalls: 0, inputTokens: 0, outputTokens: 0 };
}

export function addUsage(total: SemanticUsage, usage: SemanticUsage | undefined): void {
  if (usage === undefined) return;
  total.calls += usage.calls;
  total.cachedCalls += usage.cachedCalls;
  total.inputTokens += usage.inputTokens;
  total.outputTokens += usage.outputTokens;
}

/** `model calls: 3 made, 5 from cache; tokens: 1200 in, 300 out` */
export function renderUsageLine(total: SemanticUsage): string {
  return `model calls: ${total.calls} made, ${total.cachedCalls} from cache; tokens: ${total.inputTokens} in, ${total.outputTokens} out`;
}

/** Semantic clauses the model could not answer validly (or a verification that failed). */
export function clauseErrorCount(judgment: TrajectoryJudgment | undefined): number {
  if (judgment === undefined) return 0;
  let errors = 0;
  for (const meta of judgment.metaBehaviors) for (const clause of meta.clauses) if (clause.error !== undefined) errors++;
  return errors;
}
