/**
 * Located compile-time diagnostics, shared by everything that checks a file
 * (judge.yaml here; other checkers may reuse the shape).
 */
import { printable } from "../printable.js";

/** One problem, located at a 1-based line and column of `file`. */
export interface Diagnostic {
  file: string;
  line: number;
  col: number;
  /** Where in the document, e.g. `metaBehaviors[0].checks[1].type`; "" for document-level problems. */
  path: string;
  message: string;
  /** A suggestion, e.g. `did you mean "ordering"?`. */
  hint?: string;
}

/**
 * `judge.yaml:12:9 error: metaBehaviors[0].checks[1].type: unknown check type "orderng" (did you mean "ordering"?)`
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.path === "" ? "" : `${d.path}: `;
  const hint = d.hint === undefined ? "" : ` (${d.hint})`;
  // Messages quote the file's keys and values: one line, nothing a terminal would act on.
  return printable(`${d.file}:${d.line}:${d.col} error: ${where}${d.message}${hint}`);
}

/** Reading order: by file, line, then column. Array.prototype.sort is stable, so ties keep discovery order. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.col - b.col;
}
