/** What model calls cost, added up over cases (a Tally keeps a run's total). */
import type { SemanticUsage } from "../../runtime/semantic.js";

export function addUsage(total: SemanticUsage, usage: SemanticUsage | undefined): void {
  if (usage === undefined) return;
  total.calls += usage.calls;
  total.cachedCalls += usage.cachedCalls;
  total.failedCalls += usage.failedCalls;
  total.requests += usage.requests;
  total.inputTokens += usage.inputTokens;
  total.outputTokens += usage.outputTokens;
}
