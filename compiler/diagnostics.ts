/**
 * Located problems, and the one way they are written for a person: judge.yaml
 * problems, BEHAVIOR.md problems, lint findings and the interview's refusals
 * all print through formatDiagnostic, so one problem reads the same wherever
 * it is reported. The errors that carry them (JudgeYamlError, SpecError)
 * live here beside their formatter; the other user errors are in errors.ts.
 */
import { UserError } from "./errors.js";
import { printable } from "./report/printable.js";

export type Severity = "error" | "warning";

/** One problem, located at a 1-based line and column of `file`. */
export interface Diagnostic {
  /** The file it is in; "" for text that is no file yet (an edit typed in the interview, the judge.yaml it is about to write). */
  file: string;
  /** 1-based; 0 with col 0 when the problem is about the whole text, not a place in it (an empty edit). */
  line: number;
  col: number;
  /** Where in the document, e.g. `metaBehaviors[0].checks[1].type`; "" for document-level problems. */
  path: string;
  /** A stable code, e.g. `duplicate-heading`: BEHAVIOR.md problems and lint findings have one, judge.yaml problems do not. */
  code?: string;
  severity: Severity;
  message: string;
  /** A suggestion, e.g. `did you mean "ordering"?`. */
  hint?: string;
}

/**
 * One line: where, then the code and the path when there are any, the message and the hint.
 *
 *     judge.yaml:12:9 error: metaBehaviors[0].checks[1].type: unknown check type "orderng" (did you mean "ordering"?)
 *     BEHAVIOR.md:7:1 error: duplicate-heading: the heading "A" already appears on line 5
 *     BEHAVIOR.md:9:1 warning: section-empty: the section "B" is empty, so there is nothing to judge in it
 *     line 3, col 1: first.action: unknown key "acton" (did you mean "action"?)
 *
 * The last is text with no file, which the interview shows beside the text
 * itself; everything it shows there is an error that refused the text, so
 * no severity is written.
 */
export function formatDiagnostic(d: Diagnostic): string {
  const code = d.code === undefined ? "" : `${d.code}: `;
  const path = d.path === "" ? "" : `${d.path}: `;
  const hint = d.hint === undefined ? "" : ` (${d.hint})`;
  // Messages quote the file's keys and values: one line, nothing a terminal would act on.
  return printable(`${location(d)}${code}${path}${d.message}${hint}`);
}

function location(d: Diagnostic): string {
  if (d.file !== "") return `${d.file}:${d.line}:${d.col} ${d.severity}: `;
  return d.line === 0 ? "" : `line ${d.line}, col ${d.col}: `;
}

/** Invalid input found as located diagnostics, every one at once: the message is one formatted line each. */
export class DiagnosticsError extends UserError<Diagnostic> {
  constructor(diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join("\n"), { diagnostics });
  }
}

/** Problems in a judge.yaml. */
export class JudgeYamlError extends DiagnosticsError {
  override name = "JudgeYamlError";
}

/** Problems in a BEHAVIOR.md. */
export class SpecError extends DiagnosticsError {
  override name = "SpecError";
}

/** Reading order: by file, line, then column. Array.prototype.sort is stable, so ties keep discovery order. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.col - b.col;
}
