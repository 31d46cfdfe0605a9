/**
 * Clause builders for the five deterministic checks. The generated rule
 * functions walk the events once and keep their state in locals; these turn
 * that final state into a clause per the table of FORMATS.md §4. Citations
 * are event indexes until here, so the hot loop never touches ids.
 */
import { absentReason } from "./fold.js";
import type { CheckType, Citation, Clause, NaReason, TrajectoryEvent, Verdict } from "./types.js";

function cite(events: readonly TrajectoryEvent[], index: number, description: string): Citation {
  return { eventId: events[index]!.id, description };
}

function predicate(
  check: CheckType,
  quote: string,
  verdict: Verdict,
  naReason: NaReason | null,
  citations: Citation[],
): Clause {
  const clause: Clause = { kind: "predicate", quote, verdict, naReason, citations, check };
  if (verdict === "false") clause.verification = "unverified";
  return clause;
}

function na(check: CheckType, quote: string, reason: NaReason): Clause {
  return predicate(check, quote, "na", reason, []);
}

/**
 * `first` must come before `before`. `firstIndex`/`beforeIndex` are the first
 * matches (-1 when none); the generator records `before` before `first` on the
 * same event, so an event matching both is never its own earlier `first`.
 */
export function orderingClause(
  quote: string,
  events: readonly TrajectoryEvent[],
  complete: boolean,
  firstIndex: number,
  beforeIndex: number,
): Clause {
  if (beforeIndex < 0) return na("ordering", quote, absentReason(complete));
  if (firstIndex >= 0 && firstIndex < beforeIndex) {
    return predicate("ordering", quote, "true", null, [
      cite(events, firstIndex, "first event matching `first`"),
      cite(events, beforeIndex, "first event matching `before`"),
    ]);
  }
  return predicate("ordering", quote, "false", null, [
    cite(events, beforeIndex, "event matching `before` with no earlier event matching `first`"),
  ]);
}

/**
 * Every `each` match needs a strictly later `followedBy` match. `eachs` are
 * the `each` matches in order; `followers[k]` is the first follower of
 * `eachs[k]`, for as many as found one (a prefix: one follower serves all the
 * matches waiting before it).
 */
export function pairingClause(
  quote: string,
  events: readonly TrajectoryEvent[],
  complete: boolean,
  eachs: readonly number[],
  followers: readonly number[],
): Clause {
  if (eachs.length === 0) return na("pairing", quote, absentReason(complete));
  if (followers.length < eachs.length) {
    if (!complete) return na("pairing", quote, "insufficient_evidence");
    const unmatched: Citation[] = [];
    for (let k = followers.length; k < eachs.length; k++) {
      unmatched.push(cite(events, eachs[k]!, "event matching `each` with no later event matching `followedBy`"));
    }
    return predicate("pairing", quote, "false", null, unmatched);
  }
  // Each match then its follower, duplicates removed, first occurrence kept.
  // Followers never decrease, and an event that is both a follower and an
  // `each` match comes as an `each` right after its last appearance as a
  // follower (it resolved every earlier `each`). So a repeat is always equal
  // to the last follower cited.
  const citations: Citation[] = [];
  let lastFollower = -1;
  for (let k = 0; k < eachs.length; k++) {
    const each = eachs[k]!;
    const follower = followers[k]!;
    if (each !== lastFollower) citations.push(cite(events, each, "event matching `each`"));
    if (follower !== lastFollower) citations.push(cite(events, follower, "first later event matching `followedBy`"));
    lastFollower = follower;
  }
  return predicate("pairing", quote, "true", null, citations);
}

/** `windowOpen` is false when an `after:` pattern never matched. */
export function requiredClause(
  quote: string,
  events: readonly TrajectoryEvent[],
  complete: boolean,
  windowOpen: boolean,
  firstMatch: number,
): Clause {
  if (!windowOpen) return na("required", quote, absentReason(complete));
  if (firstMatch >= 0) return predicate("required", quote, "true", null, [cite(events, firstMatch, "first match")]);
  if (!complete) return na("required", quote, "insufficient_evidence");
  return predicate("required", quote, "false", null, []);
}

export function forbiddenClause(
  quote: string,
  events: readonly TrajectoryEvent[],
  complete: boolean,
  windowOpen: boolean,
  matches: readonly number[],
): Clause {
  if (!windowOpen) return na("forbidden", quote, absentReason(complete));
  if (matches.length === 0) return predicate("forbidden", quote, "true", null, []);
  return predicate(
    "forbidden",
    quote,
    "false",
    null,
    matches.map((i) => cite(events, i, "forbidden match")),
  );
}

/** `min`/`max` are -1 when absent; `counted` are the matches kept after `distinctBy`. */
export function countClause(
  quote: string,
  events: readonly TrajectoryEvent[],
  complete: boolean,
  windowOpen: boolean,
  counted: readonly number[],
  min: number,
  max: number,
): Clause {
  if (!windowOpen) return na("count", quote, absentReason(complete));
  const n = counted.length;
  const citations = () => counted.map((i) => cite(events, i, "counted match"));
  if (max >= 0 && n > max) return predicate("count", quote, "false", null, citations());
  if (min >= 0 && n < min) {
    if (!complete) return na("count", quote, "insufficient_evidence");
    return predicate("count", quote, "false", null, citations());
  }
  return predicate("count", quote, "true", null, citations());
}
