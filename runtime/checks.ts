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
import { boundsText, countFound, factsList, orderingFound } from "./evidence.js";
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

/** A false clause with what it found (`Clause.found`), when its stepper described the events. */
function withFound(clause: Clause, found: string | undefined): Clause {
  if (found !== undefined) clause.found = found;
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
  /**
   * Evidence (runtime/evidence.ts), from judges built since it was added:
   * the `before` match described, the first events before it with the action
   * of `first` that did not match it, how many there were, and the actions
   * looked for.
   */
  readonly beforeFacts?: string | undefined;
  readonly nearMisses?: readonly string[];
  readonly missed?: number;
  readonly nearActions?: readonly string[];
}

/** `first` must come before `before`. */
export function orderingClause(state: OrderingState): Clause {
  const { quote, complete, first, before } = state;
  if (before === undefined) return na("ordering", quote, absentReason(complete));
  if (first !== undefined) {
    return predicate("ordering", quote, "true", null, [
      cite(first, "first event matching `first`"),
      cite(before, "first event matching `before`"),
    ]);
  }
  const { beforeFacts, nearMisses = [], missed = 0, nearActions = [] } = state;
  return withFound(
    predicate("ordering", quote, "false", null, [cite(before, "event matching `before` with no earlier event matching `first`")]),
    beforeFacts === undefined ? undefined : orderingFound(beforeFacts, nearMisses, missed, nearActions),
  );
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
  // Sized once for the most there can be, then cut: a long trace cites tens of thousands of
  // events, and a list grown push by push is reallocated and copied as it grows.
  const citations = new Array<Citation>(each.length * 2);
  let cited = 0;
  let lastFollower: string | undefined;
  for (let k = 0; k < each.length; k++) {
    const match = each[k]!;
    const follower = followers[k]!;
    if (match !== lastFollower) citations[cited++] = cite(match, "event matching `each`");
    if (follower !== lastFollower) citations[cited++] = cite(follower, "first later event matching `followedBy`");
    lastFollower = follower;
  }
  citations.length = cited;
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
  /** The first matches described (runtime/evidence.ts), from judges built since it was added. */
  readonly facts?: readonly string[];
}

export function forbiddenClause({ quote, complete, windowOpen = true, matches, facts }: ForbiddenState): Clause {
  if (!windowOpen) return na("forbidden", quote, absentReason(complete));
  if (matches.length === 0) return predicate("forbidden", quote, "true", null, []);
  return withFound(
    predicate(
      "forbidden",
      quote,
      "false",
      null,
      matches.map((id) => cite(id, "forbidden match")),
    ),
    facts === undefined ? undefined : factsList(facts, matches.length),
  );
}

export interface CountState extends ClauseBase, Windowed {
  /** The matches counted inside the window, after `distinctBy`. */
  readonly counted: readonly string[];
  /** The bounds judge.yaml gives (at least one). */
  readonly min?: number;
  readonly max?: number;
  /** The first counted matches described (runtime/evidence.ts), from judges built since it was added. */
  readonly facts?: readonly string[];
}

export function countClause({ quote, complete, windowOpen = true, counted, min, max, facts }: CountState): Clause {
  if (!windowOpen) return na("count", quote, absentReason(complete));
  const n = counted.length;
  const citations = () => counted.map((id) => cite(id, "counted match"));
  const found = (tooFew: boolean) => (facts === undefined ? undefined : countFound(n, tooFew, boundsText(min, max), facts));
  if (max !== undefined && n > max) return withFound(predicate("count", quote, "false", null, citations()), found(false));
  if (min !== undefined && n < min) {
    if (!complete) return na("count", quote, "insufficient_evidence");
    return withFound(predicate("count", quote, "false", null, citations()), found(true));
  }
  return predicate("count", quote, "true", null, citations());
}
