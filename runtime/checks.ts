/**
 * Clause builders for the five deterministic checks. A generated stepper keeps
 * each check's state in its fields (the ids of the events that matter, in
 * order); at the end these turn that state into a clause per the table of
 * docs/FORMATS.md §4.
 *
 * Called with `complete: false`, a builder gives `false` exactly when no
 * continuation of the trajectory can change the verdict (ordering, forbidden,
 * count above `max`): the monitor's violations rest on that.
 */
import { absentReason } from "./fold.js";
import type { CheckType, Citation, Clause, NaReason, Verdict } from "./types.js";

function cite(eventId: string, description: string): Citation {
  return { eventId, description };
}

function predicate(check: CheckType, quote: string, verdict: Verdict, naReason: NaReason | null, citations: Citation[]): Clause {
  const clause: Clause = { kind: "predicate", quote, verdict, naReason, citations, check };
  if (verdict === "false") clause.verification = "unverified";
  return clause;
}

function na(check: CheckType, quote: string, reason: NaReason): Clause {
  return predicate(check, quote, "na", reason, []);
}

/** What every builder takes: the check's quote and whether the trajectory is complete. */
export interface ClauseBase {
  readonly quote: string;
  readonly complete: boolean;
}

/** A check with `after:` passes `windowOpen` (did an `after` match occur?); without one the window is always open. */
export interface Windowed {
  readonly windowOpen?: boolean;
}

export interface OrderingState extends ClauseBase {
  /** The first `first` match, if one came strictly before the first `before` match. */
  readonly first: string | undefined;
  /** The first `before` match. */
  readonly before: string | undefined;
}

/** `first` must come before `before`. */
export function orderingClause({ quote, complete, first, before }: OrderingState): Clause {
  if (before === undefined) return na("ordering", quote, absentReason(complete));
  if (first !== undefined) {
    return predicate("ordering", quote, "true", null, [
      cite(first, "first event matching `first`"),
      cite(before, "first event matching `before`"),
    ]);
  }
  return predicate("ordering", quote, "false", null, [cite(before, "event matching `before` with no earlier event matching `first`")]);
}

export interface PairingState extends ClauseBase {
  /** The `each` matches in order. */
  readonly each: readonly string[];
  /**
   * `followers[k]` is the first follower of `each[k]`, for as many as found
   * one (a prefix: one follower answers all the matches waiting before it).
   */
  readonly followers: readonly string[];
}

/** Every `each` match needs a strictly later `followedBy` match. */
export function pairingClause({ quote, complete, each, followers }: PairingState): Clause {
  if (each.length === 0) return na("pairing", quote, absentReason(complete));
  if (followers.length < each.length) {
    if (!complete) return na("pairing", quote, "insufficient_evidence");
    const unmatched: Citation[] = [];
    for (let k = followers.length; k < each.length; k++) {
      unmatched.push(cite(each[k]!, "event matching `each` with no later event matching `followedBy`"));
    }
    return predicate("pairing", quote, "false", null, unmatched);
  }
  // Each match then its follower, duplicates removed, first occurrence kept.
  // Followers never go back in time, and an event that is both a follower and
  // an `each` match comes as an `each` right after its last appearance as a
  // follower (it answered every earlier `each`). So a repeat is always equal
  // to the last follower cited.
  const citations: Citation[] = [];
  let lastFollower: string | undefined;
  for (let k = 0; k < each.length; k++) {
    const match = each[k]!;
    const follower = followers[k]!;
    if (match !== lastFollower) citations.push(cite(match, "event matching `each`"));
    if (follower !== lastFollower) citations.push(cite(follower, "first later event matching `followedBy`"));
    lastFollower = follower;
  }
  return predicate("pairing", quote, "true", null, citations);
}

export interface RequiredState extends ClauseBase, Windowed {
  /** The first match inside the window. */
  readonly match: string | undefined;
}

export function requiredClause({ quote, complete, windowOpen = true, match }: RequiredState): Clause {
  if (!windowOpen) return na("required", quote, absentReason(complete));
  if (match !== undefined) return predicate("required", quote, "true", null, [cite(match, "first match")]);
  if (!complete) return na("required", quote, "insufficient_evidence");
  return predicate("required", quote, "false", null, []);
}

export interface ForbiddenState extends ClauseBase, Windowed {
  /** Every match inside the window. */
  readonly matches: readonly string[];
}

export function forbiddenClause({ quote, complete, windowOpen = true, matches }: ForbiddenState): Clause {
  if (!windowOpen) return na("forbidden", quote, absentReason(complete));
  if (matches.length === 0) return predicate("forbidden", quote, "true", null, []);
  return predicate(
    "forbidden",
    quote,
    "false",
    null,
    matches.map((id) => cite(id, "forbidden match")),
  );
}

export interface CountState extends ClauseBase, Windowed {
  /** The matches counted inside the window, after `distinctBy`. */
  readonly counted: readonly string[];
  /** The bounds judge.yaml gives (at least one). */
  readonly min?: number;
  readonly max?: number;
}

export function countClause({ quote, complete, windowOpen = true, counted, min, max }: CountState): Clause {
  if (!windowOpen) return na("count", quote, absentReason(complete));
  const n = counted.length;
  const citations = () => counted.map((id) => cite(id, "counted match"));
  if (max !== undefined && n > max) return predicate("count", quote, "false", null, citations());
  if (min !== undefined && n < min) {
    if (!complete) return na("count", quote, "insufficient_evidence");
    return predicate("count", quote, "false", null, citations());
  }
  return predicate("count", quote, "true", null, citations());
}
