/**
 * A sub-clause that only states the outcome of what the clause before it names ("…, and the run
 * has to come back `status: passed`") refines that clause's check rather than standing alone.
 */
import type { Check, Pattern } from "../../ir/types.js";
import { applyOutcome, isOutcomeClause } from "./backticks.js";
import type { ClauseOutcome } from "./clauses.js";
import type { Lexicon } from "./lexicon.js";
import type { SentenceShape } from "./shape.js";

/** The pattern fields of a check, in the order an outcome is looked for in them. */
const SIDES = {
  ordering: ["first", "before"],
  pairing: ["each", "followedBy"],
  required: ["match"],
  forbidden: ["match"],
  count: ["match"],
} as const;

/**
 * "Patch runs the tests before it commits, and the run has to come back `status: passed`": a
 * clause that only states the outcome of what the clause before it names refines that check
 * (the call becomes its result with the value) and its quote reaches over both, instead of
 * standing alone as a question about nothing the samples show.
 */
export function withOutcomes(lexicon: Lexicon, shape: SentenceShape, outcomes: ClauseOutcome[]): ClauseOutcome[] {
  const out = outcomes.slice();
  shape.clauses.forEach((clause, i) => {
    const previous = out[i - 1];
    if (i === 0 || previous?.kind !== "check" || out[i]!.kind === "check" || !isOutcomeClause(clause)) return;
    const check = previous.check;
    const sides = (SIDES as Record<string, readonly string[]>)[check.type] ?? [];
    for (const side of sides) {
      const pattern = (check as unknown as Record<string, Pattern | undefined>)[side];
      const refined = pattern === undefined ? undefined : applyOutcome(lexicon, pattern, clause);
      if (refined === undefined) continue;
      const start = shape.sentence.indexOf(check.quote);
      const end = shape.sentence.indexOf(clause, Math.max(start, 0));
      if (start < 0 || end < 0) return;
      const quote = shape.sentence.slice(start, end + clause.length);
      out[i - 1] = { ...previous, check: { ...check, quote, [side]: refined } as Check };
      out[i] = { kind: "skip" };
      return;
    }
  });
  return out;
}
