/**
 * Evidence for the interview: which events of the sample trajectories a
 * drafted trigger or check would look at. A person confirming "the lookup
 * comes first" needs to see that `get_order_result` with `status: found` is
 * what the samples actually contain; a pattern that matches nothing is the
 * most common drafting mistake, so roles without matches are reported too.
 *
 * Matching follows the compiled judge exactly (docs/FORMATS.md §3, §10): every
 * given field of a matcher must hold, a pattern is any-of, a value matcher
 * reads values as the judge does, absent content is "".
 */
import type { Actor, Trajectory, TrajectoryEvent } from "../../runtime/types.js";
import { matcherHolds, patternHolds } from "../ir/value-eval.js";
import type { Check, Matcher, Pattern, SemanticCheck, Trigger } from "../ir/types.js";

/** One matching sample event, trimmed for display. */
export interface EvidenceEvent {
  id: string;
  actor: Actor;
  action: string;
  /** The content with whitespace collapsed, cut to EXCERPT_LENGTH characters. */
  excerpt: string;
  metadata: Record<string, string>;
  /** Which of the clause's patterns this event matches ("first", "before", "match", "after", …). */
  roles: string[];
}

/** The matching events of one sample trajectory, in event order. */
export interface EvidenceGroup {
  trajectoryId: string;
  complete: boolean;
  events: EvidenceEvent[];
  /** Matching events left out to keep the page short. */
  omitted: number;
}

export interface Evidence {
  /** The clause's patterns, each with how many sample events match it in all. */
  roles: { role: string; matches: number }[];
  /** Samples with at least one matching event, in sample order. */
  groups: EvidenceGroup[];
  samplesWithoutMatches: number;
  /** Set when the clause has no pattern: a model decides it at judge time. */
  semantic: boolean;
}

const EXCERPT_LENGTH = 160;
const EVENTS_PER_GROUP = 12;

/** True when every field the matcher gives holds for the event, as in the compiled judge (value matchers too). */
export const matcherMatches = matcherHolds;

/** Any-of: a pattern matches when one of its matchers does. */
export const patternMatches = patternHolds;

/** The named patterns a check reads, in the order docs/FORMATS.md lists its fields. */
export function checkPatterns(check: Check): { role: string; pattern: Pattern }[] {
  const roles: { role: string; pattern: Pattern }[] = [];
  const add = (role: string, pattern: Pattern | undefined) => {
    if (pattern !== undefined) roles.push({ role, pattern });
  };
  switch (check.type) {
    case "ordering":
      add("first", check.first);
      add("before", check.before);
      break;
    case "pairing":
      add("each", check.each);
      add("followedBy", check.followedBy);
      break;
    case "required":
    case "forbidden":
    case "count":
      add("match", check.match);
      add("after", check.after);
      break;
    case "condition":
      add("each", check.each);
      // Each name's pattern, under the name: the events it may be bound to.
      for (const [name, binding] of Object.entries(check.with ?? {})) add(`with.${name}`, binding.latest ?? binding.first);
      break;
  }
  return roles;
}

/** A trigger, check or semantic check: the three kinds of clause the interview asks about. */
export type InterviewClause =
  { kind: "trigger"; trigger: Trigger } | { kind: "check"; check: Check } | { kind: "semanticCheck"; semanticCheck: SemanticCheck };

/** The patterns of any interview clause; none for semantic ones. */
export function clausePatterns(clause: InterviewClause): { role: string; pattern: Pattern }[] {
  if (clause.kind === "check") return checkPatterns(clause.check);
  if (clause.kind === "trigger" && clause.trigger.match !== undefined) {
    return [{ role: "trigger", pattern: clause.trigger.match }];
  }
  return [];
}

/** The sample events each of the clause's patterns matches, grouped by sample trajectory. */
export function clauseEvidence(clause: InterviewClause, samples: readonly Trajectory[]): Evidence {
  const patterns = clausePatterns(clause);
  const totals = patterns.map(({ role }) => ({ role, matches: 0 }));
  const groups: EvidenceGroup[] = [];
  for (const sample of samples) {
    const events: EvidenceEvent[] = [];
    let matching = 0;
    for (const event of sample.events) {
      const roles = patterns.filter(({ pattern }) => patternMatches(event, pattern)).map(({ role }) => role);
      if (roles.length === 0) continue;
      for (const total of totals) if (roles.includes(total.role)) total.matches++;
      matching++;
      if (events.length < EVENTS_PER_GROUP) events.push(evidenceEvent(event, roles));
    }
    if (matching > 0) {
      groups.push({ trajectoryId: sample.id, complete: sample.complete, events, omitted: matching - events.length });
    }
  }
  return {
    roles: totals,
    groups,
    samplesWithoutMatches: samples.length - groups.length,
    semantic: patterns.length === 0,
  };
}

function evidenceEvent(event: TrajectoryEvent, roles: string[]): EvidenceEvent {
  return {
    id: event.id,
    actor: event.actor,
    action: event.action,
    excerpt: excerpt(event.content ?? ""),
    metadata: { ...event.metadata },
    roles,
  };
}

/** Collapses whitespace so a multi-line message stays one readable line, and cuts it short. */
export function excerpt(content: string, length = EXCERPT_LENGTH): string {
  const flat = content.replace(/\s+/g, " ").trim();
  if (flat.length <= length) return flat;
  // By code points, so an emoji is never cut in half.
  return `${Array.from(flat)
    .slice(0, length - 1)
    .join("")}…`;
}
