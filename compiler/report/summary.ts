/**
 * Per-rule counts over many trajectory judgments: the table that ends the
 * text report, and the rule overview at the top of the HTML report.
 */
import { foldNaReason } from "../../runtime/fold.js";
import type { SemanticUsage } from "../../runtime/semantic.js";
import type { MetaBehaviorJudgment, NaReason, TrajectoryJudgment, Verdict } from "../../runtime/types.js";
import { printable } from "./printable.js";

/**
 * Whether a rule or trajectory verdict is shown as ERROR: it carries the
 * error marker and no clause failed (a failure stands even beside a failed
 * call; FORMATS.md §4). Its verdict is then na, which must not read as "no
 * evidence" or "didn't apply": a model call failed.
 */
export function isModelError(judged: { verdict: Verdict; error?: true }): boolean {
  return judged.error === true && judged.verdict !== "false";
}

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

/** What verify-on-false did in one judgment or a whole run: failures the model confirmed, and failures it overturned. */
export interface VerifyCounts {
  confirmed: number;
  overturned: number;
}

export function emptyVerifyCounts(): VerifyCounts {
  return { confirmed: 0, overturned: 0 };
}

/** Adds a judgment's confirmed and overturned clauses to `into`. */
export function countVerifications(into: VerifyCounts, judgment: TrajectoryJudgment | undefined): VerifyCounts {
  for (const meta of judgment?.metaBehaviors ?? []) {
    for (const clause of meta.clauses) {
      if (clause.verification === "confirmed") into.confirmed++;
      else if (clause.verification === "overturned") into.overturned++;
    }
  }
  return into;
}

/**
 * The summary line, or none when no failure was put to a model. An overturn
 * turns a deterministic failure into a pass on a model's word, and a model can
 * be talked into it by text inside the trajectory, so it is always counted.
 */
export function renderVerifyLine(counts: VerifyCounts): string | undefined {
  if (counts.confirmed + counts.overturned === 0) return undefined;
  const note = counts.overturned > 0 ? " (deterministic failures a model answered true or na: review them; --fail-on-overturned refuses them)" : "";
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

export interface RuleSummaryRow {
  name: string;
  passed: number;
  failed: number;
  /** na with reason `not_applicable`: the rule's condition never arose. */
  notApplicable: number;
  /** na with reason `insufficient_evidence` (incomplete trace, or no model available). */
  noVerdict: number;
  /** na because a model call failed (the rule carries `error`). */
  modelErrors: number;
}

/**
 * Counts, per rule, how many trajectories passed, failed, didn't apply or got
 * no verdict. Rows follow `ruleOrder` when given (so rules nobody triggered
 * still show up), then any other rule in order of first appearance.
 */
export function summarizeByRule(
  judgments: readonly TrajectoryJudgment[],
  ruleOrder: readonly string[] = [],
): RuleSummaryRow[] {
  const rows = new Map<string, RuleSummaryRow>();
  const rowFor = (name: string): RuleSummaryRow => {
    let row = rows.get(name);
    if (row === undefined) {
      row = { name, passed: 0, failed: 0, notApplicable: 0, noVerdict: 0, modelErrors: 0 };
      rows.set(name, row);
    }
    return row;
  };
  for (const name of ruleOrder) rowFor(name);
  for (const judgment of judgments) {
    for (const meta of judgment.metaBehaviors) countInto(rowFor(meta.name), meta);
  }
  return [...rows.values()];
}

function countInto(row: RuleSummaryRow, meta: MetaBehaviorJudgment): void {
  if (isModelError(meta)) row.modelErrors++;
  else if (meta.verdict === "true") row.passed++;
  else if (meta.verdict === "false") row.failed++;
  else if (meta.naReason === "not_applicable") row.notApplicable++;
  else row.noVerdict++;
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
