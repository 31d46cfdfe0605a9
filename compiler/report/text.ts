/** The plain-text report of `judge`: per trajectory, per rule, per clause, with cited event ids. */
import type { Clause, MetaBehaviorJudgment, TrajectoryJudgment, Verdict } from "../../runtime/types.js";

const LABEL: Record<Verdict, string> = { true: "PASS", false: "FAIL", na: "N/A " };

function naSuffix(reason: string | null): string {
  return reason === null ? "" : ` (${reason})`;
}

function clauseLine(clause: Clause): string {
  const kind = clause.kind === "semantic" ? `semantic ${clause.check ?? ""}`.trimEnd() : (clause.check ?? "predicate");
  const cites = clause.citations.length > 0 ? ` [${clause.citations.map((c) => c.eventId).join(", ")}]` : "";
  const verification = clause.verification !== undefined ? ` (${clause.verification})` : "";
  const error = clause.error !== undefined ? ` ERROR: ${clause.error}` : "";
  const lines = [`      ${clause.verdict.padEnd(5)} ${kind}: ${JSON.stringify(clause.quote)}${naSuffix(clause.naReason)}${cites}${verification}${error}`];
  if (clause.reasoning !== undefined && clause.error === undefined) lines.push(`            ${clause.reasoning.replace(/\s+/g, " ")}`);
  return lines.join("\n");
}

function metaLines(meta: MetaBehaviorJudgment): string[] {
  const trigger = meta.triggered ? "" : " — not triggered";
  return [`  ${LABEL[meta.verdict]}  ${meta.name}${naSuffix(meta.naReason)}${trigger}`, ...meta.clauses.map(clauseLine)];
}

/** One trajectory's block of the text report. */
export function renderTrajectoryText(judgment: TrajectoryJudgment, source: string): string {
  return [`${LABEL[judgment.verdict].trim()}  ${judgment.trajectoryId}  (${source})`, ...judgment.metaBehaviors.flatMap(metaLines), ""].join("\n");
}

export interface RunTotals {
  judged: number;
  true: number;
  false: number;
  na: number;
  errors: number;
}

export function emptyTotals(): RunTotals {
  return { judged: 0, true: 0, false: 0, na: 0, errors: 0 };
}

export function addToTotals(totals: RunTotals, judgment: TrajectoryJudgment | undefined): void {
  if (judgment === undefined) {
    totals.errors++;
    return;
  }
  totals.judged++;
  totals[judgment.verdict]++;
}

export function renderTotalsLine(totals: RunTotals): string {
  const errors = totals.errors > 0 ? `; ${totals.errors} could not be judged` : "";
  return `${totals.judged} trajectories judged: ${totals.true} true, ${totals.false} false, ${totals.na} na${errors}`;
}
