/**
 * The clause readers tried before a clause's shape is looked at (draft.ts): each reads one kind
 * of sentence whole, whatever its other words would suggest, and is undefined for any other.
 */
import { conditionFrom } from "./combined.js";
import { type ClauseContext, type ClauseOutcome } from "./clauses.js";
import { userWordsFrom } from "./consent.js";
import { latestFrom } from "./latest.js";

export function leadingReading(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  // "before every `charge_card` the applicant answers "yes"": a user's words, then the act (consent.ts).
  // "X may be filed only if the latest lookup shows Y": a condition on the latest earlier event's value.
  return (
    userWordsFrom(context, clause, quote) ?? latestFrom(context, clause, quote, context.earlier) ?? conditionFrom(context, clause, quote)
  );
}
