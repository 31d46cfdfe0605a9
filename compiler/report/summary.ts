/**
 * Per-rule counts over many trajectory judgments: the table that ends the
 * text report, and the rule overview at the top of the HTML report.
 */
import type { MetaBehaviorJudgment, NaReason, TrajectoryJudgment, Verdict } from "../../runtime/types.js";
import { printable } from "../printable.js";

/** The human label for a verdict; `na` is told apart by its reason, as the spec asks. */
export function verdictLabel(verdict: Verdict, naReason: NaReason | null): string {
  if (verdict === "true") return "Pass";
  if (verdict === "false") return "Fail";
  if (naReason === "not_applicable") return "Didn't apply";
  if (naReason === "insufficient_evidence") return "No verdict — insufficient evidence";
  return "No verdict";
}

/** Why a file verdict is na: the reason of its first na rule (all are na when the file is), as the fold gives it. */
export function fileNaReason(judgment: TrajectoryJudgment): NaReason | null {
  if (judgment.verdict !== "na") return null;
  return judgment.metaBehaviors.find((m) => m.verdict === "na")?.naReason ?? "insufficient_evidence";
}

export interface RuleSummaryRow {
  name: string;
  passed: number;
  failed: number;
  /** na with reason `not_applicable`: the rule's condition never arose. */
  notApplicable: number;
  /** na with reason `insufficient_evidence` (incomplete trace, or no model answer). */
  noVerdict: number;
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
      row = { name, passed: 0, failed: 0, notApplicable: 0, noVerdict: 0 };
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
  if (meta.verdict === "true") row.passed++;
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

const MAX_NAME_WIDTH = 60;

/**
 * A plain-text table, one line per rule, numbers right-aligned. Rule names
 * come from the spec, so control, bidi and invisible characters are shown
 * escaped: they can neither drive the terminal nor make two names look alike.
 */
export function renderSummaryTable(rows: readonly RuleSummaryRow[]): string {
  if (rows.length === 0) return "No rules were judged.\n";
  const names = rows.map((r) => truncate(printable(r.name), MAX_NAME_WIDTH));
  const nameWidth = Math.max("Rule".length, ...names.map((n) => n.length));
  const widths = COLUMNS.map((c) => Math.max(c.title.length, ...rows.map((r) => String(c.value(r)).length)));
  const header = ["Rule".padEnd(nameWidth), ...COLUMNS.map((c, i) => c.title.padStart(widths[i]!))];
  const rule = ["-".repeat(nameWidth), ...widths.map((w) => "-".repeat(w))];
  const body = rows.map((r, rowIndex) => [
    names[rowIndex]!.padEnd(nameWidth),
    ...COLUMNS.map((c, i) => String(c.value(r)).padStart(widths[i]!)),
  ]);
  return [header, rule, ...body].map((cells) => cells.join("  ").trimEnd()).join("\n") + "\n";
}

function truncate(text: string, width: number): string {
  return text.length <= width ? text : text.slice(0, width - 1) + "…";
}
