/**
 * A judgment as text a person reads in a failed test: which rules did not
 * pass, each failing clause's quote and type, and the events it cites. It
 * imports nothing outside this folder and no `node:` module, so a repo that
 * ships only judge.mjs gets the same message as `behavior-judge/testing`.
 */
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

/** Escapes control characters and clips, so one event cannot flood or garble the message. */
function clipText(text: string, max: number): string {
  const flat = JSON.stringify(text).slice(1, -1);
  return flat.length > max ? `${flat.slice(0, Math.max(0, max - 1))}…` : flat;
}

function clauseType(clause: Clause): string {
  if (clause.kind === "semantic") return clause.check === "trigger" ? "semantic trigger" : "semantic question";
  return clause.check ?? "predicate";
}

function undecidedNote(rule: MetaBehaviorJudgment): string {
  const undecided = undecidedClauses(rule);
  if (undecided.length === 0) return "";
  const reasons = [...new Set(undecided.map((c) => undecidedReason(c)!))].join(", ");
  return ` (${undecided.length} clause${undecided.length === 1 ? "" : "s"} undecided: ${reasons})`;
}

function formatClause(clause: Clause, events: Map<string, TrajectoryInput["events"][number]>, clip: number): string[] {
  const reason = undecidedReason(clause);
  const state = reason !== undefined ? `undecided (${reason})` : clause.verdict;
  const lines = [`    ${clauseType(clause)} [${state}]: "${clipText(clause.quote, 400)}"`];
  for (const citation of clause.citations) {
    const event = events.get(citation.eventId);
    const shown =
      event === undefined
        ? `${clipText(citation.eventId, 80)}`
        : `${clipText(event.id, 80)} ${clipText(event.actor, 20)}/${clipText(event.action, 80)} "${clipText(event.content ?? "", clip)}"`;
    lines.push(`      - ${shown}${citation.description !== "" ? ` (${clipText(citation.description, 200)})` : ""}`);
  }
  return lines;
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
  const events = new Map((options.trajectory?.events ?? []).map((e) => [e.id, e] as const));
  const headline = judgment.verdict === "false" ? "FAIL" : judgment.verdict === "true" ? "PASS" : "N/A";
  const note = undecidedNote({ ...judgment.metaBehaviors[0]!, clauses: judgment.metaBehaviors.flatMap((m) => m.clauses) });
  const lines = [
    `${headline}${note} ${clipText(judgment.behavior, 200)}: trajectory ${clipText(judgment.trajectoryId, 200)} is ${judgment.verdict}${judgment.error === true ? " (a model call failed)" : ""}`,
  ];
  for (const rule of judgment.metaBehaviors) {
    if (!worthShowing(rule)) continue;
    lines.push(`  ${rule.verdict === "false" ? "✗" : "?"} ${clipText(rule.name, 200)}: ${rule.verdict}${undecidedNote(rule)}`);
    for (const clause of rule.clauses) {
      if (clause.verdict === "false" || undecidedReason(clause) !== undefined) lines.push(...formatClause(clause, events, clip));
    }
  }
  return lines.join("\n");
}
