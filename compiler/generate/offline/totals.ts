/**
 * A bound on a total said over two clauses (issue 25, round 12): "At most 2,000 kilos of cod per
 * trip, and that's every cod landing with the same trip number added up". The first clause has the
 * number, the second only says the events' amounts are added together; read apart, the first is a
 * bound on each landing (or a count of them) and the second a question. The two are read as one
 * clause, whose quote reaches over both, so the sum reader (counts.ts sumFrom) sees the number
 * and the words of the total together.
 */
import type { Check } from "../../ir/types.js";
import type { DraftNote } from "../types.js";
import { amountsIn } from "./amounts.js";
import type { ClauseOutcome } from "./clauses.js";
import { groupingKey } from "./keys.js";
import { NO_GROUP_KEY } from "./counts.js";
import type { Lexicon } from "./lexicon.js";
import type { SentenceShape } from "./shape.js";
import { SUM, TOTAL } from "./summed.js";
import type { Voiced } from "./voice-spans.js";
import { canonical } from "./words.js";

/** Whether a clause says only that amounts are added together: the words of a total and no number of its own. */
function onlyTotal(clause: string): boolean {
  return (SUM.test(clause) || TOTAL.test(clause)) && amountsIn(clause).length === 0 && !/\d/.test(clause);
}

/** The shape with a clause of one amount joined to the next clause when that one only says it is a total. */
export function withTotalsJoined(shape: SentenceShape): SentenceShape {
  const clauses = shape.clauses.slice();
  for (let i = 0; i + 1 < clauses.length; i++) {
    const [first, second] = [clauses[i]!, clauses[i + 1]!];
    if (amountsIn(first).length !== 1 || SUM.test(first) || TOTAL.test(first) || !onlyTotal(second)) continue;
    const start = shape.sentence.indexOf(first);
    const end = start < 0 ? -1 : shape.sentence.indexOf(second, start + first.length);
    if (end < 0) continue;
    clauses.splice(i, 2, shape.sentence.slice(start, end + second.length));
  }
  return clauses.length === shape.clauses.length ? shape : { ...shape, clauses };
}

/**
 * "Hours of overtime booked under Clause 14.4 are not CALLS and shall not be counted toward this limit", "Sales on
 * another account count against that other account only": a sentence after a bound on a total that says which events
 * the total leaves out, or that another thing's events count against that thing only.
 */
const NOT_COUNTED =
  /\b(?:(?:not|never)\s+(?:be\s+)?(?:counted|count|included|reckoned|added)\s+(?:toward|towards|against|in|into|within|as\s+part\s+of)\s+(?:this|that|the|any\s+such)\s+(?:limit|total|cap|maximum|ceiling|allowance|sum|bound|figure)|counts?\s+(?:only\s+)?against\s+(?:that|the)\s+other\s+[a-z]+(?:\s+only)?)\b/i;
/** "… under a different writ …", "… for another account …": the other thing whose events count against it alone. */
const OTHER_THING = /\b(?:under|for|on|against|to|of|from|with|by)\s+(?:another|a\s+different|some\s+other)\s+([a-z]+)\b/i;

/**
 * The sentence's outcomes (none) once it is read as part of the rule's last count (`checks` and its `notes`, changed in place): its
 * quote reaches over the sentence when the section writes the two side by side, and "another thing's events count
 * against that thing only" groups the count by the thing's key when it has no group yet. Read alone, the sentence
 * was a question ("shall not be counted toward this limit" forbids nothing the agent does). Unchanged when the
 * sentence says no such thing, reads a check of its own (but a ban: "are not sales"), or follows no count.
 */
export function notCountedAcross(
  lexicon: Lexicon,
  body: string,
  voiced: Voiced,
  checks: Check[],
  notes: Omit<DraftNote, "rule">[],
  outcomes: ClauseOutcome[],
): ClauseOutcome[] {
  // "Payments taken are not sales and …": what the sentence says the events are not is no ban of its own either.
  if (!NOT_COUNTED.test(voiced.text) || outcomes.some((o) => o.kind === "check" && o.check.type !== "forbidden")) return outcomes;
  const k = checks.map((c) => c.type).lastIndexOf("count");
  if (k < 0) return outcomes;
  const check = checks[k] as Extract<Check, { type: "count" }>;
  const sentence = voiced.original;
  const start = body.indexOf(check.quote);
  const at = start < 0 ? -1 : body.indexOf(sentence, start + check.quote.length);
  if (at < 0 || !/^[.;,!?]?\s{1,3}$/.test(body.slice(start + check.quote.length, at))) return outcomes;
  const other = OTHER_THING.exec(voiced.text)?.[1];
  const grouping =
    other === undefined || check.per !== undefined
      ? undefined
      : groupingKey(lexicon, { noun: canonical(other.toLowerCase()), phrase: other }, check.match);
  const per = grouping !== undefined && "per" in grouping && grouping.per !== undefined ? { per: grouping.per } : {};
  checks[k] = { ...check, ...per, quote: body.slice(start, at + sentence.length) };
  // Grouped now, the count's note that it had no key for its group ("… for each day …") is no longer so.
  if (per.per !== undefined) {
    const stale = notes.findIndex((n) => n.clause?.kind === "check" && n.clause.index === k && n.message.startsWith(NO_GROUP_KEY));
    if (stale >= 0) notes.splice(stale, 1);
  }
  return outcomes.map(() => ({ kind: "skip" }));
}
