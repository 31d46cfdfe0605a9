/**
 * An independent reference evaluator for differential tests of the code
 * generator. It is a direct, multi-pass transcription of docs/FORMATS.md §4 for the
 * no-model case: every check re-scans the events, nothing is clever, and no
 * code is shared with compiler/ or runtime/ (only their types), so a bug in
 * the single-pass generated judge cannot hide behind the same bug here.
 */
import type {
  Citation,
  Clause,
  MetaBehaviorJudgment,
  NaReason,
  Trajectory,
  TrajectoryEvent,
  TrajectoryJudgment,
  Verdict,
} from "../../runtime/types.js";
import { parseWhen } from "../../compiler/ir/when.js";
import type {
  Check,
  ConditionCheck,
  CountCheck,
  ForbiddenCheck,
  JudgeIR,
  Matcher,
  MetaBehavior,
  OrderingCheck,
  PairingCheck,
  Pattern,
  RequiredCheck,
  SemanticCheck,
} from "../../compiler/ir/types.js";
import { decimalOf, evaluateWhen, valueHolds, type ValueEvent } from "./values.js";

export const NO_MODEL_TRIGGER_REASONING = "No model was available to decide whether this rule applies.";
export const NO_MODEL_CHECK_REASONING = "No model was available to answer this question.";

/** What a deterministic check decided, before it is dressed as a clause. */
interface CheckOutcome {
  verdict: Verdict;
  naReason: NaReason | null;
  cited: OracleEvent[];
}

/** An event as docs/FORMATS.md §2 defines it after defaults: content a string, metadata a string map. */
interface OracleEvent {
  id: string;
  actor: string;
  action: string;
  content: string;
  metadata: Record<string, string>;
}

interface OracleTrajectory {
  id: string;
  complete: boolean;
  events: OracleEvent[];
}

/** docs/FORMATS.md §2 defaults, applied here independently of the runtime's validation. */
function withDefaults(event: TrajectoryEvent): OracleEvent {
  const raw = event as unknown as Record<string, unknown>;
  const metadata: Record<string, string> = {};
  const given = raw.metadata;
  if (typeof given === "object" && given !== null) {
    for (const [key, value] of Object.entries(given)) metadata[key] = String(value);
  }
  return {
    id: event.id,
    actor: event.actor,
    action: event.action,
    content: typeof raw.content === "string" ? raw.content : "",
    metadata,
  };
}

/** Judges one trajectory (with well-formed ids, actors and actions) against the IR, as if no model were configured. */
export function oracleJudge(ir: JudgeIR, input: Trajectory): TrajectoryJudgment {
  const trajectory = { ...input, events: input.events.map(withDefaults) };
  const metaBehaviors = ir.metaBehaviors.map((meta) => judgeMeta(meta, trajectory));
  return {
    behavior: ir.behavior,
    trajectoryId: trajectory.id,
    verdict: foldVerdicts(metaBehaviors.map((m) => m.verdict)),
    metaBehaviors,
  };
}

// ---------------------------------------------------------------- matching

function hasOwn(record: Readonly<Record<string, string>>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

function matcherHolds(matcher: Matcher, event: OracleEvent): boolean {
  if (matcher.action !== undefined && !valueHolds(matcher.action, event.action)) return false;
  if (matcher.actor !== undefined && event.actor !== matcher.actor) return false;
  if (matcher.contentIncludes !== undefined && !event.content.includes(matcher.contentIncludes)) {
    return false;
  }
  if (matcher.content !== undefined && !valueHolds(matcher.content, event.content)) return false;
  if (matcher.metadata !== undefined) {
    for (const [key, value] of Object.entries(matcher.metadata)) {
      // A missing key reads as undefined: only `not` and `exists: false` hold of it.
      if (!valueHolds(value, hasOwn(event.metadata, key) ? event.metadata[key] : undefined)) return false;
    }
  }
  return true;
}

function patternMatches(pattern: Pattern, event: OracleEvent): boolean {
  return pattern.some((matcher) => matcherHolds(matcher, event));
}

/** Indexes (into the full event list) of the events matching `pattern`, in order. */
function matchingIndexes(pattern: Pattern, events: readonly OracleEvent[], fromIndex = 0): number[] {
  const indexes: number[] = [];
  for (let i = fromIndex; i < events.length; i++) {
    const event = events[i];
    if (event !== undefined && patternMatches(pattern, event)) indexes.push(i);
  }
  return indexes;
}

// ---------------------------------------------------------------- verdict helpers

/** na(c): the condition never arose; "not applicable" only if we saw the whole session. */
function naForCompleteness(complete: boolean): NaReason {
  return complete ? "not_applicable" : "insufficient_evidence";
}

function na(reason: NaReason): CheckOutcome {
  return { verdict: "na", naReason: reason, cited: [] };
}

function decided(verdict: "true" | "false", cited: OracleEvent[]): CheckOutcome {
  return { verdict, naReason: null, cited };
}

function at(events: readonly OracleEvent[], index: number): OracleEvent {
  const event = events[index];
  if (event === undefined) throw new Error(`oracle bug: no event at index ${index}`);
  return event;
}

/**
 * The index where an `after:` window starts, i.e. just past the first event
 * matching `after`; 0 without `after`; null when the window never opens.
 */
function windowStart(after: Pattern | undefined, events: readonly OracleEvent[]): number | null {
  if (after === undefined) return 0;
  const opener = matchingIndexes(after, events)[0];
  return opener === undefined ? null : opener + 1;
}

// ---------------------------------------------------------------- checks

function evaluateOrdering(check: OrderingCheck, trajectory: OracleTrajectory): CheckOutcome {
  if (check.on !== undefined || check.fresh === true) return evaluateOrderingExtended(check, trajectory);
  const events = trajectory.events;
  const firstBefore = matchingIndexes(check.before, events)[0];
  if (firstBefore === undefined) return na(naForCompleteness(trajectory.complete));
  const firstFirst = matchingIndexes(check.first, events)[0];
  // Strictly earlier: an event matching both sides does not precede itself.
  if (firstFirst !== undefined && firstFirst < firstBefore) {
    return decided("true", [at(events, firstFirst), at(events, firstBefore)]);
  }
  return decided("false", [at(events, firstBefore)]);
}

function evaluatePairing(check: PairingCheck, trajectory: OracleTrajectory): CheckOutcome {
  if (check.on !== undefined || check.within !== undefined) return evaluatePairingExtended(check, trajectory);
  const events = trajectory.events;
  const eachIndexes = matchingIndexes(check.each, events);
  if (eachIndexes.length === 0) return na(naForCompleteness(trajectory.complete));

  const pairs = eachIndexes.map((eachIndex) => ({
    eachIndex,
    followerIndex: matchingIndexes(check.followedBy, events, eachIndex + 1)[0],
  }));
  const unmatched = pairs.filter((p) => p.followerIndex === undefined);

  if (unmatched.length === 0) {
    const cited: OracleEvent[] = [];
    for (const pair of pairs) {
      cited.push(at(events, pair.eachIndex));
      if (pair.followerIndex !== undefined) cited.push(at(events, pair.followerIndex));
    }
    return decided("true", withoutDuplicateEvents(cited));
  }
  // A follower may still come in the part of the session we did not see.
  if (!trajectory.complete) return na("insufficient_evidence");
  return decided(
    "false",
    unmatched.map((p) => at(events, p.eachIndex)),
  );
}

function withoutDuplicateEvents(events: OracleEvent[]): OracleEvent[] {
  const seen = new Set<string>();
  const kept: OracleEvent[] = [];
  for (const event of events) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    kept.push(event);
  }
  return kept;
}

function evaluateRequired(check: RequiredCheck, trajectory: OracleTrajectory): CheckOutcome {
  if (check.on !== undefined) return evaluateRequiredOn(check, trajectory);
  const events = trajectory.events;
  const start = windowStart(check.after, events);
  if (start === null) return na(naForCompleteness(trajectory.complete));
  const firstMatch = matchingIndexes(check.match, events, start)[0];
  if (firstMatch !== undefined) return decided("true", [at(events, firstMatch)]);
  if (!trajectory.complete) return na("insufficient_evidence");
  return decided("false", []);
}

function evaluateForbidden(check: ForbiddenCheck, trajectory: OracleTrajectory): CheckOutcome {
  if (check.on !== undefined) return evaluateForbiddenOn(check, trajectory);
  const events = trajectory.events;
  const start = windowStart(check.after, events);
  if (start === null) return na(naForCompleteness(trajectory.complete));
  const matches = matchingIndexes(check.match, events, start);
  if (matches.length > 0) {
    return decided(
      "false",
      matches.map((i) => at(events, i)),
    );
  }
  return decided("true", []);
}

function evaluateCount(check: CountCheck, trajectory: OracleTrajectory): CheckOutcome {
  if (check.on !== undefined || check.per !== undefined || check.sum !== undefined) return evaluateCountExtended(check, trajectory);
  const events = trajectory.events;
  const start = windowStart(check.after, events);
  if (start === null) return na(naForCompleteness(trajectory.complete));
  const matches = matchingIndexes(check.match, events, start).map((i) => at(events, i));
  const counted = check.distinctBy === undefined ? matches : keepDistinct(matches, check.distinctBy);
  const n = counted.length;

  // Too many can only grow with more events, so it is false even when incomplete.
  if (check.max !== undefined && n > check.max) return decided("false", counted);
  if (check.min !== undefined && n < check.min) {
    if (!trajectory.complete) return na("insufficient_evidence");
    return decided("false", counted);
  }
  return decided("true", counted);
}

/** The value `distinctBy` groups by, or undefined when the event lacks it. */
function distinctValue(event: OracleEvent, distinctBy: string): string | undefined {
  if (distinctBy === "content") return event.content;
  const prefix = "metadata.";
  if (!distinctBy.startsWith(prefix)) {
    throw new Error(`oracle: unsupported distinctBy ${JSON.stringify(distinctBy)}`);
  }
  const key = distinctBy.slice(prefix.length);
  return hasOwn(event.metadata, key) ? event.metadata[key] : undefined;
}

function keepDistinct(matches: OracleEvent[], distinctBy: string): OracleEvent[] {
  const seen = new Set<string>();
  const kept: OracleEvent[] = [];
  for (const event of matches) {
    const value = distinctValue(event, distinctBy);
    if (value === undefined || seen.has(value)) continue;
    seen.add(value);
    kept.push(event);
  }
  return kept;
}

// ---------------------------------------------------------------- extended checks (semantics.md §2-6)
//
// Each is a direct re-scan of the event list as semantics.md reads, with
// nested loops where a judge would keep state: for every `before` event, look
// back for a `first` event; for every `each` event, look ahead for a follower.

/** The key a side of `on` reads: "metadata.k" names key k (everything after the first dot). */
function sideKey(on: string | Record<string, string>, side: string): string {
  const ref = typeof on === "string" ? on : on[side];
  if (ref === undefined || !ref.startsWith("metadata.")) throw new Error(`oracle: bad on ${JSON.stringify(on)} for ${side}`);
  return ref.slice("metadata.".length);
}

/** e.metadata[k] when it is an own key, else undefined ("missing"). */
function keyValue(event: OracleEvent, key: string): string | undefined {
  return hasOwn(event.metadata, key) ? event.metadata[key] : undefined;
}

function dedupedPairs(pairs: [number, number][], events: readonly OracleEvent[]): OracleEvent[] {
  return withoutDuplicateEvents(pairs.flat().map((i) => at(events, i)));
}

function evaluateOrderingExtended(check: OrderingCheck, trajectory: OracleTrajectory): CheckOutcome {
  const events = trajectory.events;
  const isBefore = (i: number) => patternMatches(check.before, at(events, i));
  // An event matching `before` is a before-event only, never also a first-event.
  const isFirst = (i: number) => !isBefore(i) && patternMatches(check.first, at(events, i));
  const firstKey = check.on === undefined ? undefined : sideKey(check.on, "first");
  const beforeKey = check.on === undefined ? undefined : sideKey(check.on, "before");
  const fresh = check.fresh === true;

  const befores = events.map((_, i) => i).filter(isBefore);
  if (befores.length === 0) return na(naForCompleteness(trajectory.complete));
  const pairs: [number, number][] = [];
  for (const b of befores) {
    let key: string | undefined;
    if (beforeKey !== undefined) {
      key = keyValue(at(events, b), beforeKey);
      if (key === undefined) return decided("false", [at(events, b)]);
    }
    const sameKey = (i: number) => key === undefined || keyValue(at(events, i), firstKey!) === key;
    // fresh: only first-events after the previous before-event (of this key, with on) count.
    let from = 0;
    if (fresh) {
      for (const p of befores) {
        if (p >= b) break;
        if (key === undefined || keyValue(at(events, p), beforeKey!) === key) from = p + 1;
      }
    }
    let found: number | undefined;
    for (let i = from; i < b; i++) {
      if (isFirst(i) && sameKey(i)) {
        found = i;
        break;
      }
    }
    if (found === undefined) return decided("false", [at(events, b)]);
    pairs.push([found, b]);
  }
  return decided("true", dedupedPairs(pairs, events));
}

function evaluatePairingExtended(check: PairingCheck, trajectory: OracleTrajectory): CheckOutcome {
  const events = trajectory.events;
  const eachKey = check.on === undefined ? undefined : sideKey(check.on, "each");
  const followKey = check.on === undefined ? undefined : sideKey(check.on, "followedBy");
  const within = check.within;
  const last = events.length - 1;

  const eaches = events.map((_, i) => i).filter((i) => patternMatches(check.each, at(events, i)));
  if (eaches.length === 0) return na(naForCompleteness(trajectory.complete));
  const pairs: [number, number][] = [];
  const failed: number[] = [];
  let pending = false;
  for (const i of eaches) {
    const key = eachKey === undefined ? undefined : keyValue(at(events, i), eachKey);
    const end = within === undefined ? last : Math.min(last, i + within);
    let follower: number | undefined;
    // An each-event without its key is never served.
    if (eachKey === undefined || key !== undefined) {
      for (let j = i + 1; j <= end; j++) {
        const e = at(events, j);
        if (patternMatches(check.followedBy, e) && (followKey === undefined || keyValue(e, followKey) === key)) {
          follower = j;
          break;
        }
      }
    }
    if (follower !== undefined) pairs.push([i, follower]);
    // Its N following events passed without a follower: failed, complete or not.
    else if (within !== undefined && i + within <= last) failed.push(i);
    else if (trajectory.complete) failed.push(i);
    else pending = true;
  }
  if (failed.length > 0)
    return decided(
      "false",
      failed.map((i) => at(events, i)),
    );
  if (pending) return na("insufficient_evidence");
  return decided("true", dedupedPairs(pairs, events));
}

/** The windows of a keyed `after` (semantics.md §4): key value → index of its opener, in order of opening. */
function keyedWindows(after: Pattern, afterKey: string, events: readonly OracleEvent[]): Map<string, number> {
  const windows = new Map<string, number>();
  events.forEach((event, i) => {
    if (!patternMatches(after, event)) return;
    const key = keyValue(event, afterKey);
    // Only the first after-event of a key opens its window; one without the key opens nothing.
    if (key !== undefined && !windows.has(key)) windows.set(key, i);
  });
  return windows;
}

interface KeyedScope {
  windows: Map<string, number>;
  /** The window an event at index j with match-side key value `key` lies in, if any. */
  insideOf: (j: number) => string | undefined;
}

function keyedScope(
  check: { after?: Pattern | undefined; on?: string | Record<string, string> | undefined },
  events: readonly OracleEvent[],
): KeyedScope {
  if (check.after === undefined || check.on === undefined) throw new Error("oracle: on without after");
  const windows = keyedWindows(check.after, sideKey(check.on, "after"), events);
  const matchKey = sideKey(check.on, "match");
  const insideOf = (j: number) => {
    const key = keyValue(at(events, j), matchKey);
    if (key === undefined) return undefined;
    const opener = windows.get(key);
    // Strictly after its opener: the opener itself is never inside its own window.
    return opener !== undefined && opener < j ? key : undefined;
  };
  return { windows, insideOf };
}

function evaluateForbiddenOn(check: ForbiddenCheck, trajectory: OracleTrajectory): CheckOutcome {
  const events = trajectory.events;
  const { windows, insideOf } = keyedScope(check, events);
  if (windows.size === 0) return na(naForCompleteness(trajectory.complete));
  const inside = events.filter((e, j) => patternMatches(check.match, e) && insideOf(j) !== undefined);
  return inside.length > 0 ? decided("false", inside) : decided("true", []);
}

function evaluateRequiredOn(check: RequiredCheck, trajectory: OracleTrajectory): CheckOutcome {
  const events = trajectory.events;
  const { windows, insideOf } = keyedScope(check, events);
  if (windows.size === 0) return na(naForCompleteness(trajectory.complete));
  const firstMatches: OracleEvent[] = [];
  const unmetOpeners: OracleEvent[] = [];
  for (const [key, opener] of windows) {
    const j = events.findIndex((e, j) => patternMatches(check.match, e) && insideOf(j) === key);
    if (j >= 0) firstMatches.push(at(events, j));
    else unmetOpeners.push(at(events, opener));
  }
  if (unmetOpeners.length === 0) return decided("true", firstMatches);
  if (!trajectory.complete) return na("insufficient_evidence");
  return decided("false", unmetOpeners);
}

interface CountGroup {
  /** The counted matches (after per, distinctBy), as indexes in order. */
  counted: number[];
}

/** Keeps, in order, the first index per distinct value; indexes whose event lacks the value are dropped. */
function distinctIndexes(indexes: number[], distinctBy: string | undefined, events: readonly OracleEvent[]): number[] {
  if (distinctBy === undefined) return indexes;
  const seen = new Set<string>();
  return indexes.filter((i) => {
    const value = distinctValue(at(events, i), distinctBy);
    if (value === undefined || seen.has(value)) return false;
    seen.add(value);
    return true;
  });
}

/** Splits matches (indexes in order) by per value, groups in order of first appearance; without per, one group. */
function perGroups(matches: number[], per: string | undefined, events: readonly OracleEvent[]): number[][] {
  if (per === undefined) return [matches];
  const key = per.slice("metadata.".length);
  const groups = new Map<string, number[]>();
  for (const i of matches) {
    const value = keyValue(at(events, i), key);
    if (value === undefined) continue;
    if (!groups.has(value)) groups.set(value, []);
    groups.get(value)!.push(i);
  }
  return [...groups.values()];
}

function evaluateCountExtended(check: CountCheck, trajectory: OracleTrajectory): CheckOutcome {
  const events = trajectory.events;
  const isMatch = (j: number) => patternMatches(check.match, at(events, j));
  const all = events.map((_, j) => j);

  // The matches of each window, windows in order of opening (one window without on).
  const windowMatches: number[][] = [];
  if (check.on !== undefined) {
    const { windows, insideOf } = keyedScope(check, events);
    if (windows.size === 0) return na(naForCompleteness(trajectory.complete));
    for (const key of windows.keys()) windowMatches.push(all.filter((j) => isMatch(j) && insideOf(j) === key));
  } else {
    const start = windowStart(check.after, events);
    if (start === null) return na(naForCompleteness(trajectory.complete));
    windowMatches.push(all.filter((j) => j >= start && isMatch(j)));
  }

  const groups: CountGroup[] = [];
  for (const matches of windowMatches) {
    // A match without distinctBy's value is not counted at all, so it makes no group of its own.
    const valued =
      check.distinctBy === undefined ? matches : matches.filter((i) => distinctValue(at(events, i), check.distinctBy!) !== undefined);
    const split = perGroups(valued, check.per, events);
    // A keyed window with nothing of per's key in it is one empty group (n = 0, against min).
    if (split.length === 0 && check.on !== undefined) split.push([]);
    for (const members of split) groups.push({ counted: distinctIndexes(members, check.distinctBy, events) });
  }

  const sumKey = check.sum?.slice("metadata.".length);
  const figure = (g: CountGroup) => {
    if (sumKey === undefined) return g.counted.length;
    let total = 0;
    for (const i of g.counted) {
      const value = keyValue(at(events, i), sumKey);
      total += value === undefined ? 0 : (decimalOf(value) ?? 0);
    }
    return total;
  };
  const aboveMax = (g: CountGroup) => check.max !== undefined && figure(g) > check.max;
  const belowMin = (g: CountGroup) => check.min !== undefined && figure(g) < check.min;
  // Group order: by each group's first counted match; groups nothing was counted in (opened
  // windows) come after, in order of opening. semantics.md orders groups "in order of first
  // appearance" and says nothing of empty ones; this is the reading the judge took too.
  const firstOf = (g: CountGroup) => g.counted[0] ?? Number.MAX_SAFE_INTEGER;
  groups.sort((a, b) => firstOf(a) - firstOf(b));
  // A group above max wins over one below min, and among groups above max the one that went
  // above it first: the monitor reported that one while running (certain at once, given
  // non-negative values), and the final clause must cite what it reported (MONITOR.md).
  const brokeMaxAt = (g: CountGroup) => {
    for (let k = 1; k <= g.counted.length; k++) if (figure({ counted: g.counted.slice(0, k) }) > check.max!) return g.counted[k - 1]!;
    throw new Error("oracle bug: above max, never went above it");
  };
  const above = groups.filter(aboveMax).sort((a, b) => brokeMaxAt(a) - brokeMaxAt(b))[0];
  const broken = above ?? (trajectory.complete ? groups.find(belowMin) : undefined);
  if (broken !== undefined)
    return decided(
      "false",
      broken.counted.map((i) => at(events, i)),
    );
  if (groups.some(belowMin)) return na("insufficient_evidence");
  const counted = groups.flatMap((g) => g.counted).sort((a, b) => a - b);
  return decided(
    "true",
    counted.map((i) => at(events, i)),
  );
}

function evaluateCondition(check: ConditionCheck, trajectory: OracleTrajectory): CheckOutcome {
  const events = trajectory.events;
  const bindings = Object.entries(check.with ?? {});
  const parsed = parseWhen(
    check.when,
    bindings.map(([name]) => name),
  );
  if (!parsed.ok) throw new Error(`oracle: bad when ${JSON.stringify(check.when)}: ${JSON.stringify(parsed.errors)}`);

  const eaches = events.map((_, i) => i).filter((i) => patternMatches(check.each, at(events, i)));
  if (eaches.length === 0) return na(naForCompleteness(trajectory.complete));
  const failedCitations: OracleEvent[] = [];
  for (const i of eaches) {
    const each = at(events, i);
    const names = new Map<string, ValueEvent>([["event", each]]);
    const boundEvents: OracleEvent[] = [];
    let unbound = false;
    for (const [name, binding] of bindings) {
      const pattern = binding.latest ?? binding.first;
      const side = binding.latest !== undefined ? "latest" : "first";
      const eachKeyValue = binding.on === undefined ? undefined : keyValue(each, sideKey(binding.on, "each"));
      const candidates: number[] = [];
      for (let j = 0; j < i; j++) {
        const e = at(events, j);
        if (!patternMatches(pattern!, e)) continue;
        if (binding.on !== undefined && (eachKeyValue === undefined || keyValue(e, sideKey(binding.on, side)) !== eachKeyValue)) continue;
        candidates.push(j);
      }
      const chosen = side === "latest" ? candidates[candidates.length - 1] : candidates[0];
      if (chosen === undefined) {
        unbound = true;
        continue;
      }
      names.set(name, at(events, chosen));
      boundEvents.push(at(events, chosen));
    }
    const passes = !unbound && evaluateWhen(parsed.tree, names) === true;
    if (!passes) failedCitations.push(each, ...boundEvents);
  }
  if (failedCitations.length > 0) return decided("false", withoutDuplicateEvents(failedCitations));
  return decided(
    "true",
    eaches.map((i) => at(events, i)),
  );
}

function evaluateCheck(check: Check, trajectory: OracleTrajectory): CheckOutcome {
  switch (check.type) {
    case "ordering":
      return evaluateOrdering(check, trajectory);
    case "pairing":
      return evaluatePairing(check, trajectory);
    case "required":
      return evaluateRequired(check, trajectory);
    case "forbidden":
      return evaluateForbidden(check, trajectory);
    case "count":
      return evaluateCount(check, trajectory);
    case "condition":
      return evaluateCondition(check, trajectory);
  }
}

// ---------------------------------------------------------------- clauses

function citationFor(event: OracleEvent): Citation {
  return { eventId: event.id, description: `${event.actor} ${event.action}` };
}

function predicateClause(check: Check, trajectory: OracleTrajectory): Clause {
  const outcome = evaluateCheck(check, trajectory);
  const clause: Clause = {
    kind: "predicate",
    quote: check.quote,
    verdict: outcome.verdict,
    naReason: outcome.naReason,
    // A na verdict rests on nothing that happened, so it cites nothing.
    citations: outcome.verdict === "na" ? [] : outcome.cited.map(citationFor),
  };
  // With no model, a deterministic false is never confirmed nor overturned.
  if (outcome.verdict === "false") clause.verification = "unverified";
  return clause;
}

function unansweredSemanticClause(quote: string, reasoning: string): Clause {
  return {
    kind: "semantic",
    quote,
    verdict: "na",
    naReason: "insufficient_evidence",
    citations: [],
    reasoning,
  };
}

function semanticCheckClause(check: SemanticCheck): Clause {
  return unansweredSemanticClause(check.quote, NO_MODEL_CHECK_REASONING);
}

// ---------------------------------------------------------------- meta-behaviors

function untriggered(meta: MetaBehavior, naReason: NaReason, clauses: Clause[]): MetaBehaviorJudgment {
  return { name: meta.name, verdict: "na", naReason, triggered: false, clauses };
}

function judgeMeta(meta: MetaBehavior, trajectory: OracleTrajectory): MetaBehaviorJudgment {
  if (trajectory.events.length === 0) return untriggered(meta, "insufficient_evidence", []);

  const trigger = meta.trigger;
  if (trigger.match === undefined) {
    const stopped = unansweredSemanticClause(trigger.description, NO_MODEL_TRIGGER_REASONING);
    return untriggered(meta, "insufficient_evidence", [stopped]);
  }
  if (matchingIndexes(trigger.match, trajectory.events).length === 0) {
    return untriggered(meta, naForCompleteness(trajectory.complete), []);
  }

  const clauses = meta.checks.map((check) => predicateClause(check, trajectory));
  // Semantic checks are skipped (not listed) once a deterministic clause failed.
  if (!clauses.some((c) => c.verdict === "false")) {
    clauses.push(...meta.semanticChecks.map(semanticCheckClause));
  }
  const verdict = foldVerdicts(clauses.map((c) => c.verdict));
  return {
    name: meta.name,
    verdict,
    naReason: verdict === "na" ? firstNaReason(clauses) : null,
    triggered: true,
    clauses,
  };
}

// ---------------------------------------------------------------- fold

function foldVerdicts(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes("false")) return "false";
  if (verdicts.every((v) => v === "na")) return "na";
  return "true";
}

function firstNaReason(clauses: readonly Clause[]): NaReason {
  const firstNa = clauses.find((c) => c.verdict === "na");
  return firstNa?.naReason ?? "insufficient_evidence";
}
