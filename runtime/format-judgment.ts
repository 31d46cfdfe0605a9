/**
 * A judgment as text a person reads in a failed test: which rules did not
 * pass, each failing clause's quote and type, and the events it cites. It
 * imports nothing outside this folder and no `node:` module, so a repo that
 * ships only judge.mjs gets the same message as `behavior-judge/testing`.
 */
import { citationsInOrder, eventOrigin, eventPositions } from "./citations.js";
import { NO_MODEL_REASONING } from "./semantic.js";
import type { Clause, MetaBehaviorJudgment, TrajectoryInput, TrajectoryJudgment } from "./types.js";

export interface FormatJudgmentOptions {
  /** The judged trajectory: cited events are then shown by id, action and clipped content. */
  trajectory?: { readonly events?: readonly TrajectoryInput["events"][number][] } | undefined;
  /** Characters of event content shown per cited event (default 80). */
  clip?: number;
}

/** Why a clause has no verdict, or undefined when it has one (or is na for a reason of its own). */
export function undecidedReason(clause: Clause): string | undefined {
  if (clause.kind !== "semantic" || clause.verdict !== "na") return undefined;
  if (clause.error !== undefined) return "no valid model answer";
  if (clause.reasoning === NO_MODEL_REASONING) return "no model";
  return undefined;
}

/** The clauses of a rule that no model decided. */
export function undecidedClauses(rule: MetaBehaviorJudgment): Clause[] {
  return rule.clauses.filter((c) => undecidedReason(c) !== undefined);
}

/**
 * Cited events shown per clause in text, HTML, JUnit and this message; the
 * rest are counted ("… and 999,990 more"). A passing pairing clause over a
 * 1M-event trace cites every event: JSON keeps them all, a report line must not.
 */
export const CITATIONS_SHOWN = 10;

/** `1234567` → `1,234,567`, the same on every host (no locale data needed). */
export function groupDigits(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** The line that stands for the citations not shown: `… and 999,990 more`. */
export function moreCitations(hidden: number): string {
  return `… and ${groupDigits(hidden)} more`;
}

/**
 * `1 clause undecided: no model` for clauses a model did not decide, or
 * undefined when there are none: a verdict resting on fewer clauses than the
 * spec states says so wherever it is shown.
 */
export function undecidedSummary(clauses: readonly Clause[]): string | undefined {
  const undecided = clauses.filter((c) => undecidedReason(c) !== undefined);
  if (undecided.length === 0) return undefined;
  const reasons = [...new Set(undecided.map((c) => undecidedReason(c)!))].join(", ");
  return `${groupDigits(undecided.length)} clause${undecided.length === 1 ? "" : "s"} undecided: ${reasons}`;
}

/** Escapes control characters and clips, so one event cannot flood or garble the message. */
function clipText(text: string, max: number): string {
  const flat = JSON.stringify(text).slice(1, -1);
  return flat.length > max ? `${flat.slice(0, Math.max(0, max - 1))}…` : flat;
}

/** Free text on one line, outside quotes: control characters escaped as in clipText, quotes kept as they are. */
function clipLine(text: string, max: number): string {
  const flat = JSON.stringify(text)
    .slice(1, -1)
    .replace(/\\(\\|")/g, (escape, char: string) => (char === '"' ? '"' : escape));
  return flat.length > max ? `${flat.slice(0, Math.max(0, max - 1))}…` : flat;
}

function clauseType(clause: Clause): string {
  if (clause.kind === "semantic") return clause.check === "trigger" ? "semantic trigger" : "semantic question";
  return clause.check ?? "predicate";
}

function undecidedNote(clauses: readonly Clause[]): string {
  const summary = undecidedSummary(clauses);
  return summary === undefined ? "" : ` (${summary})`;
}

/** An event as the messages show it: id, actor, action and content. */
export type CitedEvent = TrajectoryInput["events"][number];

/** `e4 (call call_9)` for an imported event, else its id. */
function idWithOrigin(event: CitedEvent): string {
  const origin = eventOrigin(event);
  return origin === undefined ? clipText(event.id, 80) : `${clipText(event.id, 80)} (${clipText(origin, 200)})`;
}

/**
 * A clause's cited events, one line each (`- e3 (call call_7) agent/issue_refund "Refund o…" (why)`):
 * the first CITATIONS_SHOWN in trajectory order (`positions`; without it, the
 * judgment's order), then `… and N more`. An event missing from `events` is
 * shown by its id. Shared with the JUnit report.
 */
export function citationLines(
  clause: Clause,
  events: ReadonlyMap<string, CitedEvent>,
  clip = 80,
  positions?: ReadonlyMap<string, number>,
): string[] {
  const lines: string[] = [];
  for (const citation of citationsInOrder(clause.citations, positions, CITATIONS_SHOWN)) {
    const event = events.get(citation.eventId);
    const shown =
      event === undefined
        ? `${clipText(citation.eventId, 80)}`
        : `${idWithOrigin(event)} ${clipText(event.actor, 20)}/${clipText(event.action, 80)} "${clipText(event.content ?? "", clip)}"`;
    lines.push(`- ${shown}${citation.description !== "" ? ` (${clipText(citation.description, 200)})` : ""}`);
  }
  const hidden = clause.citations.length - CITATIONS_SHOWN;
  if (hidden > 0) lines.push(moreCitations(hidden));
  return lines;
}

/** A trajectory's events by id, and where each sits (citations are listed in trajectory order). */
interface Events {
  byId: ReadonlyMap<string, CitedEvent>;
  positions: ReadonlyMap<string, number>;
}

function formatClause(clause: Clause, events: Events, clip: number): string[] {
  const reason = undecidedReason(clause);
  const state = reason !== undefined ? `undecided (${reason})` : clause.verdict;
  return [
    `    ${clauseType(clause)} [${state}]: "${clipText(clause.quote, 400)}"`,
    ...(clause.explanation === undefined ? [] : [`      expected: ${clipLine(clause.explanation, 600)}`]),
    ...(clause.found === undefined ? [] : [`      found: ${clipLine(clause.found, 600)}`]),
    ...citationLines(clause, events.byId, clip, events.positions).map((line) => `      ${line}`),
  ];
}

/** Whether a rule needs a line in the message: it failed, rests on a failed model call, or has undecided clauses. */
function worthShowing(rule: MetaBehaviorJudgment): boolean {
  return rule.verdict === "false" || rule.error === true || undecidedClauses(rule).length > 0;
}

/**
 * The text of a judgment: a headline with the verdict, then every rule that
 * failed or could not be decided, with its failing (or undecided) clauses.
 */
export function formatJudgment(judgment: TrajectoryJudgment, options: FormatJudgmentOptions = {}): string {
  const clip = options.clip ?? 80;
  const given = options.trajectory?.events ?? [];
  const events: Events = { byId: new Map(given.map((e) => [e.id, e] as const)), positions: eventPositions(given) };
  const headline = judgment.verdict === "false" ? "FAIL" : judgment.verdict === "true" ? "PASS" : "N/A";
  const note = undecidedNote(judgment.metaBehaviors.flatMap((m) => m.clauses));
  const lines = [
    `${headline}${note} ${clipText(judgment.behavior, 200)}: trajectory ${clipText(judgment.trajectoryId, 200)} is ${judgment.verdict}${judgment.error === true ? " (a model call failed)" : ""}`,
  ];
  for (const rule of judgment.metaBehaviors) {
    if (!worthShowing(rule)) continue;
    lines.push(`  ${rule.verdict === "false" ? "✗" : "?"} ${clipText(rule.name, 200)}: ${rule.verdict}${undecidedNote(rule.clauses)}`);
    for (const clause of rule.clauses) {
      if (clause.verdict === "false" || undecidedReason(clause) !== undefined) lines.push(...formatClause(clause, events, clip));
    }
  }
  return lines.join("\n");
}
