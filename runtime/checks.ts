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
import type { StepEvent } from "./stepper.js";
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
  /**
   * The events the clause cites when every `each` match has a follower, in
   * the order they came (`pairedEach`, `pairedFollower`): each `each` match,
   * and each follower once, when it answers the matches waiting before it.
   * Empty while no `each` match occurred. The true clause cites this list
   * joined into one array, put in citation order in place (`inCitationOrder`).
   */
  readonly cited: CitationList;
  /**
   * How many `each` matches wait for a follower: the events of the last
   * `waiting` entries of `cited` (a follower that is itself an `each` match is
   * cited once, as the follower, and waits from there).
   */
  readonly waiting: number;
  /** The followers that are also `each` matches, in order (rare: the two patterns overlap). */
  readonly carried: readonly string[];
}

const EACH_CITED = "event matching `each`";
const FOLLOWER_CITED = "first later event matching `followedBy`";

/**
 * A pairing's citations while stepping: chunks of 4,096 citations, so that a
 * long trace never grows one array past V8's large-object size (16,383
 * slots) push by push, each growth a fresh copy; the first chunk grows as
 * pushed (a short trace allocates no more than an array), each later one is
 * made at its full size. `length` is a plain field: a stepper's `save` reads
 * it and `restore` cuts the list by setting it (what lies past it is written
 * over by the next `push`). `toArray` joins the chunks into one array of the
 * exact length, the one a clause cites. (4,096 and its shift 12 are
 * written as literals: a judge without a pairing then carries none of this.)
 */
export class CitationList {
  length = 0;
  readonly chunks: Citation[][] = [[]];
  /**
   * Whether some follower answered more than one waiting match, so that the clause must move
   * it (inCitationOrder); undefined while no follower came by `pushFollower`, as in a judge.ts
   * generated before it, and then the order pass runs as it always did.
   */
  moves: boolean | undefined = undefined;

  push(citation: Citation): void {
    const n = this.length;
    const k = n >>> 12;
    const chunks = this.chunks;
    if (k === chunks.length) chunks.push(new Array<Citation>(4096));
    chunks[k]![n & 4095] = citation;
    this.length = n + 1;
  }

  /** A follower, cited once, answering the `waiting` matches pushed last. */
  pushFollower(eventId: string, waiting: number): void {
    this.push(pairedFollower(eventId));
    if (waiting > 1) this.moves = true;
    else if (this.moves === undefined) this.moves = false;
  }

  /** The citation at index `i` (below `length`). */
  at(i: number): Citation {
    return this.chunks[i >>> 12]![i & 4095]!;
  }

  /** The citations in order, as one array of `length` entries (the first chunk itself while there is one). */
  toArray(): Citation[] {
    const n = this.length;
    const chunks = this.chunks;
    if (n <= 4096) {
      const first = chunks[0]!;
      if (first.length !== n) first.length = n;
      return first;
    }
    const all = new Array<Citation>(n);
    for (let i = 0; i < n; i++) all[i] = chunks[i >>> 12]![i & 4095]!;
    return all;
  }
}

/** A pairing's `each` match, cited as the event comes (PairingState.cited). */
export function pairedEach(eventId: string): Citation {
  return cite(eventId, EACH_CITED);
}

/** A pairing's follower, cited once, when it answers the `each` matches waiting before it. */
export function pairedFollower(eventId: string): Citation {
  return cite(eventId, FOLLOWER_CITED);
}

/*
 * The ids a violation or an obligation cites (`Found`'s `eventIds`): a copy the caller owns. A
 * rule's `check`, `violations` and `obligations` call these rather than copy in place: a rule's
 * own code runs rarely (each event concerns one rule in a hundred) and stays cold, while these
 * run for every rule's report and are optimized once, so a report costs the same on every rule
 * (docs/SPEED.md, round 14).
 */

/** A copy of a rule's list of ids. */
export function reportIds(list: readonly string[]): string[] {
  return list.slice();
}

/** A copy of a rule's list of ids, and the event `check` asks about after them (the list as `step` would grow it). */
export function reportIdsAnd(list: readonly string[], e: StepEvent): string[] {
  const n = list.length;
  const ids = new Array<string>(n + 1);
  for (let k = 0; k < n; k++) ids[k] = list[k]!;
  ids[n] = e.id;
  return ids;
}

/** One id, as a list of its own. */
export function reportId(id: string): string[] {
  return [id];
}

/** The event `check` asks about, as a list of its own. */
export function reportEventId(e: StepEvent): string[] {
  return [e.id];
}

/** The ids of the `each` matches still waiting for a follower (PairingState.waiting). */
export function waitingIds(cited: CitationList, waiting: number): string[] {
  const ids = new Array<string>(waiting);
  const from = cited.length - waiting;
  for (let k = 0; k < waiting; k++) ids[k] = cited.at(from + k).eventId;
  return ids;
}

/**
 * Moves each follower from where it came to where a pairing cites it: right
 * after the first match it answers (each match, then its first follower, an
 * event cited once), so a follower answering one match, the usual case, does
 * not move. A carried follower (also an `each` match) heads the next block
 * from the slot it came in. Linear: a block is shifted once.
 */
function inCitationOrder(cited: Citation[], carried: readonly string[]): Citation[] {
  let blockStart = 0;
  let c = 0;
  for (let i = 0; i < cited.length; i++) {
    const follower = cited[i]!;
    if (follower.description !== FOLLOWER_CITED) continue;
    const to = blockStart + 1;
    for (let k = i; k > to; k--) cited[k] = cited[k - 1]!;
    if (to < i) cited[to] = follower;
    if (c < carried.length && carried[c] === follower.eventId) {
      c++;
      blockStart = i;
    } else blockStart = i + 1;
  }
  return cited;
}

/**
 * Every `each` match needs a strictly later `followedBy` match. The citations
 * of a true clause are the stepper's own list, made while stepping: a long
 * trace cites tens of thousands of events, and no second list of their ids is
 * kept (one copy joins the chunks of a list past 4,096 citations).
 */
export function pairingClause({ quote, complete, cited, waiting, carried }: PairingState): Clause {
  if (cited.length === 0) return na("pairing", quote, absentReason(complete));
  if (waiting > 0) {
    if (!complete) return na("pairing", quote, "insufficient_evidence");
    const unmatched = new Array<Citation>(waiting);
    const from = cited.length - waiting;
    for (let k = 0; k < waiting; k++) {
      unmatched[k] = cite(cited.at(from + k).eventId, "event matching `each` with no later event matching `followedBy`");
    }
    return predicate("pairing", quote, "false", null, unmatched);
  }
  // When every follower answered one match, each already sits after it: nothing moves.
  const citations = cited.toArray();
  return predicate("pairing", quote, "true", null, cited.moves === false ? citations : inCitationOrder(citations, carried));
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
