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
import type {
  Check,
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
  if (matcher.action !== undefined && event.action !== matcher.action) return false;
  if (matcher.actor !== undefined && event.actor !== matcher.actor) return false;
  if (matcher.contentIncludes !== undefined && !event.content.includes(matcher.contentIncludes)) {
    return false;
  }
  if (matcher.metadata !== undefined) {
    for (const [key, value] of Object.entries(matcher.metadata)) {
      if (!hasOwn(event.metadata, key)) return false;
      if (event.metadata[key] !== value) return false;
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
  const events = trajectory.events;
  const start = windowStart(check.after, events);
  if (start === null) return na(naForCompleteness(trajectory.complete));
  const firstMatch = matchingIndexes(check.match, events, start)[0];
  if (firstMatch !== undefined) return decided("true", [at(events, firstMatch)]);
  if (!trajectory.complete) return na("insufficient_evidence");
  return decided("false", []);
}

function evaluateForbidden(check: ForbiddenCheck, trajectory: OracleTrajectory): CheckOutcome {
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
      throw new Error("the oracle does not know condition checks yet");
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
