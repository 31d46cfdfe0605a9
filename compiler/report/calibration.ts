/** `calibrate` for a person: each case that disagrees, and the agreement totals. */
import { caseAgrees, type CalibrationTotals, type CaseComparison } from "../analyses/calibrate.js";
import { describeOrigin } from "../inputs/case.js";
import { plural } from "./plural.js";
import { printable } from "./printable.js";

export function renderComparison(c: CaseComparison): string {
  const mark = caseAgrees(c) ? "ok  " : "DIFF";
  const total = c.metaBehaviors.length;
  const rules = c.unlabeled.length === 0 ? [] : [`${c.unlabeled.length} of ${total} ${plural(total, "rule")} unlabeled`];
  const file = c.verdict.unlabeled === true ? ["file verdict unlabeled"] : [];
  const left = [...rules, ...file];
  const unlabeled = left.length === 0 ? "" : ` — ${left.join(", ")}, not counted`;
  const lines = [
    `${mark} ${printable(c.trajectoryId)} (${describeOrigin({ file: c.file, index: c.caseIndex, ...(c.line !== undefined ? { line: c.line } : {}) })})${unlabeled}`,
  ];
  if (!c.verdict.agree) lines.push(`     file verdict: expected ${c.verdict.expected}, got ${c.verdict.actual}${errorNote(c.verdict)}`);
  for (const m of c.metaBehaviors) {
    if (!m.agree) lines.push(`     ${printable(m.name)}: expected ${m.expected ?? "(no label)"}, got ${m.actual}${errorNote(m)}`);
  }
  for (const name of c.unknownLabels) lines.push(`     label ${printable(JSON.stringify(name))} names no rule of this judge`);
  return lines.join("\n");
}

function errorNote(c: { error?: true }): string {
  return c.error === true ? " (ERROR: no valid model answer)" : "";
}

export function renderCalibrationTotals(t: CalibrationTotals): string {
  const errors = t.errors > 0 ? `, ${t.errors} ${plural(t.errors, "error")}` : "";
  const empty = t.fileTotal + t.metaTotal === 0 && t.errors === 0 ? " (no labeled cases: nothing was compared)" : "";
  return `meta agreement ${t.metaAgree}/${t.metaTotal}, file agreement ${t.fileAgree}/${t.fileTotal}${errors}${empty}`;
}
