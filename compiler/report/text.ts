/** The plain-text report of `judge`: per trajectory, per rule, per clause, with cited event ids. */
import type { Clause, MetaBehaviorJudgment, TrajectoryJudgment, Verdict } from "../../runtime/types.js";
import { printable } from "./printable.js";
import { isModelError, type RunTotals } from "../judge/tally.js";
import { plural } from "./plural.js";
import type { OutputSink, Write } from "./sink.js";
import { renderRunSummary, renderSummaryTable, renderUsageLine } from "./summary.js";

const LABEL: Record<Verdict, string> = { true: "PASS", false: "FAIL", na: "N/A" };

/** PASS, FAIL, N/A, or ERROR when the verdict rests on a failed model call and nothing failed. */
function label(judged: { verdict: Verdict; error?: true }): string {
  return isModelError(judged) ? "ERROR" : LABEL[judged.verdict];
}

function naSuffix(reason: string | null): string {
  return reason === null ? "" : ` (${reason})`;
}

function clauseLine(clause: Clause): string {
  const kind = clause.kind === "semantic" ? `semantic ${clause.check ?? ""}`.trimEnd() : (clause.check ?? "predicate");
  const cites = clause.citations.length > 0 ? ` [${clause.citations.map((c) => printable(c.eventId)).join(", ")}]` : "";
  const verification = clause.verification !== undefined ? ` (${clause.verification})` : "";
  const error = clause.error !== undefined ? ` ERROR: ${printable(clause.error)}` : "";
  const lines = [
    `      ${clause.verdict.padEnd(5)} ${kind}: ${printable(JSON.stringify(clause.quote))}${naSuffix(clause.naReason)}${cites}${verification}${error}`,
  ];
  if (clause.reasoning !== undefined && clause.error === undefined)
    lines.push(`            ${printable(clause.reasoning.replace(/\s+/g, " "))}`);
  // An overturn rests on a model's word alone, and text in the trajectory may have asked for it: never only a parenthesis.
  if (clause.verification === "overturned") {
    lines.push(`            OVERTURNED: the deterministic check found this clause violated; the model answered ${clause.verdict}`);
  }
  return lines.join("\n");
}

function metaLines(meta: MetaBehaviorJudgment): string[] {
  const trigger = meta.triggered ? "" : " — not triggered";
  // Also beside a FAIL (a failed verify call): a failed model call must catch the eye wherever it is.
  const errors = meta.clauses.filter((c) => c.error !== undefined).length;
  const flagged =
    errors > 0 ? ` — ${errors} ${plural(errors, "clause")} without a valid model answer${isModelError(meta) ? "" : " (ERROR)"}` : "";
  return [
    `  ${label(meta).padEnd(5)} ${printable(meta.name)}${naSuffix(meta.naReason)}${trigger}${flagged}`,
    ...meta.clauses.map(clauseLine),
  ];
}

/** One trajectory's block of the text report. */
export function renderTrajectoryText(judgment: TrajectoryJudgment, source: string): string {
  return [
    `${label(judgment)}  ${printable(judgment.trajectoryId)}  (${printable(source)})`,
    ...judgment.metaBehaviors.flatMap(metaLines),
    "",
  ].join("\n");
}

export function renderTotalsLine(totals: RunTotals): string {
  const errors = totals.errors > 0 ? `; ${totals.errors} could not be judged` : "";
  const modelErrors = totals.modelErrors > 0 ? `, ${totals.modelErrors} ERROR (no valid model answer)` : "";
  return `${totals.judged} ${plural(totals.judged, "trajectory", "trajectories")} judged: ${totals.true} true, ${totals.false} false, ${totals.na} na${modelErrors}${errors}`;
}

/**
 * The text report on stdout: each judged trajectory's block as it comes (with
 * what its calls cost, given a model), then the per-rule table, the totals
 * and the run's summary lines. A case that could not be judged is on stderr
 * (progressSink), not here.
 */
export function textSink(write: Write, options: { usage: boolean }): OutputSink {
  return {
    add(result) {
      if (result.kind === "failed") return;
      const cost = result.usage;
      write(renderTrajectoryText(result.judgment, result.input.file) + (cost !== undefined ? `  ${renderUsageLine(cost)}\n` : "") + "\n");
    },
    async finish(tally) {
      write(`${renderSummaryTable(tally.ruleRows())}\n${renderTotalsLine(tally.totals)}\n`);
      // Model failures are never a silent pass: counted in the summary (and the run fails).
      for (const line of renderRunSummary(tally, options)) write(`${line}\n`);
      return [];
    },
  };
}
