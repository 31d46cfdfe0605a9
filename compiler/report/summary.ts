/**
 * What ends a run's report: the per-rule table (also the rule overview at the
 * top of the HTML report), the lines on failed model calls, verify-on-false
 * and usage; and the labels verdicts are shown with.
 */
import { foldNaReason } from "../../runtime/fold.js";
import type { SemanticUsage } from "../../runtime/semantic.js";
import type { NaReason, TrajectoryJudgment, Verdict } from "../../runtime/types.js";
import { isModelError, type RuleSummaryRow, type Tally, type VerifyCounts } from "../analyses/tally.js";
import { plural } from "./plural.js";
import { printable } from "./printable.js";

/** The human label for a verdict; `na` is told apart by its reason, as the spec asks, and from a failed model call. */
export function verdictLabel(verdict: Verdict, naReason: NaReason | null, error?: true): string {
  if (isModelError({ verdict, ...(error !== undefined ? { error } : {}) })) return "Error — no valid model answer";
  if (verdict === "true") return "Pass";
  if (verdict === "false") return "Fail";
  if (naReason === "not_applicable") return "Didn't apply";
  if (naReason === "insufficient_evidence") return "No verdict — insufficient evidence";
  return "No verdict";
}

/** Why a file verdict is na, as the fold gives it: `insufficient_evidence` after a failed call, else the reason of its first na rule. */
export function fileNaReason(judgment: TrajectoryJudgment): NaReason | null {
  if (judgment.verdict !== "na") return null;
  return foldNaReason(judgment.metaBehaviors);
}

/**
 * The summary line, or none when no failure was put to a model. An overturn
 * turns a deterministic failure into a pass on a model's word, and a model can
 * be talked into it by text inside the trajectory, so it is always counted.
 */
export function renderVerifyLine(counts: VerifyCounts): string | undefined {
  if (counts.confirmed + counts.overturned === 0) return undefined;
  const note =
    counts.overturned > 0 ? " (deterministic failures a model answered true or na: review them; --fail-on-overturned refuses them)" : "";
  return `verify-on-false: ${counts.confirmed} confirmed, ${counts.overturned} overturned${note}`;
}

/**
 * `model calls: 3 answered, 5 from cache, 1 failed; requests sent: 8 (5 failed); tokens: 1200 in, 300 out`.
 * Every request beyond the one that brought each answer failed (the
 * transport's retries, and all requests of a failed call).
 */
export function renderUsageLine(total: SemanticUsage): string {
  const failedRequests = Math.max(0, total.requests - total.calls);
  return (
    `model calls: ${total.calls} answered, ${total.cachedCalls} from cache, ${total.failedCalls} failed; ` +
    `requests sent: ${total.requests} (${failedRequests} failed); tokens: ${total.inputTokens} in, ${total.outputTokens} out`
  );
}

/**
 * The lines after a run's results: clauses without a valid model answer (a
 * model failure is never a silent pass), what verify-on-false did, and with a
 * model, what the calls cost.
 */
export function renderRunSummary(tally: Tally, { usage }: { usage: boolean }): string[] {
  const n = tally.clauseErrors;
  const verifyLine = renderVerifyLine(tally.verifications);
  return [
    ...(n > 0 ? [`${n} ${plural(n, "clause")} got no valid model answer (marked ERROR)`] : []),
    ...(verifyLine !== undefined ? [verifyLine] : []),
    ...(usage ? [renderUsageLine(tally.usage)] : []),
  ];
}

const COLUMNS = [
  { title: "Passed", value: (r: RuleSummaryRow) => r.passed },
  { title: "Failed", value: (r: RuleSummaryRow) => r.failed },
  { title: "Didn't apply", value: (r: RuleSummaryRow) => r.notApplicable },
  { title: "No verdict", value: (r: RuleSummaryRow) => r.noVerdict },
] as const;

/** Shown only when some rule has one, so a run without failed calls prints the table it always did. */
const MODEL_ERROR_COLUMN = { title: "Model error", value: (r: RuleSummaryRow) => r.modelErrors } as const;

/** The table's columns for these rows. */
export function summaryColumns(rows: readonly RuleSummaryRow[]): readonly { title: string; value: (r: RuleSummaryRow) => number }[] {
  return rows.some((r) => r.modelErrors > 0) ? [...COLUMNS, MODEL_ERROR_COLUMN] : COLUMNS;
}

const MAX_NAME_WIDTH = 60;

/**
 * A plain-text table, one line per rule, numbers right-aligned. Rule names
 * come from the spec, so control, bidi and invisible characters are shown
 * escaped: they can neither drive the terminal nor make two names look alike.
 */
export function renderSummaryTable(rows: readonly RuleSummaryRow[]): string {
  if (rows.length === 0) return "No rules were judged.\n";
  const columns = summaryColumns(rows);
  const names = rows.map((r) => truncate(printable(r.name), MAX_NAME_WIDTH));
  const nameWidth = Math.max("Rule".length, ...names.map((n) => n.length));
  const widths = columns.map((c) => Math.max(c.title.length, ...rows.map((r) => String(c.value(r)).length)));
  const header = ["Rule".padEnd(nameWidth), ...columns.map((c, i) => c.title.padStart(widths[i]!))];
  const rule = ["-".repeat(nameWidth), ...widths.map((w) => "-".repeat(w))];
  const body = rows.map((r, rowIndex) => [
    names[rowIndex]!.padEnd(nameWidth),
    ...columns.map((c, i) => String(c.value(r)).padStart(widths[i]!)),
  ]);
  return [header, rule, ...body].map((cells) => cells.join("  ").trimEnd()).join("\n") + "\n";
}

function truncate(text: string, width: number): string {
  return text.length <= width ? text : text.slice(0, width - 1) + "…";
}
