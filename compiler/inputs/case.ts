/**
 * What the readers make of each input: an `InputCase`, a trajectory (or a
 * labeled case) with its place (file, index, line), or an error at that
 * place. The bottom of the inputs stage: every reader builds its cases here.
 */
import { isObject } from "../../runtime/is-object.js";
import { readExpected, type ExpectedLabels } from "../../testing/labels.js";
import { printable } from "../report/printable.js";

/** A case's labels; read by the test helpers' reader, so calibrate and a test suite accept the same label files. */
export type Expected = ExpectedLabels;

/** Where a case came from: `file`, its 0-based index there, its line (JSONL, arrays) and, for invalid JSON, the column. */
export interface CaseOrigin {
  file: string;
  index: number;
  line?: number;
  col?: number;
}

export interface InputCase extends CaseOrigin {
  /** The raw trajectory object, validated later by the judge itself. */
  trajectory?: unknown;
  /** Present when the case was labeled `{trajectory, expected}`. */
  expected?: Expected;
  /** Set when the case could not be read; nothing else is. */
  error?: string;
  /** For a labeled case, field paths in the trajectory are prefixed with `trajectory.`. */
  labeled?: boolean;
}

/** `file:line: case N` when the line is known (`file:line:col: case N` for invalid JSON), else `file: case N`; a file name can hold control characters too. */
export function describeOrigin(origin: CaseOrigin): string {
  const file = printable(origin.file);
  if (origin.line === undefined) return `${file}: case ${origin.index}`;
  const col = origin.col === undefined ? "" : `:${origin.col}`;
  return `${file}:${origin.line}${col}: case ${origin.index}`;
}

/**
 * One element of a file: a trajectory or a `{trajectory, expected}` case.
 * Other keys of a labeled case (notes, tags) are ignored, as a trajectory's
 * are: docs/FORMATS.md §2 lets users bring their label files unchanged. A
 * misspelled `expected` still surfaces, as a case calibrate finds unlabeled.
 */
export function toCase(value: unknown, origin: CaseOrigin): InputCase {
  if (isObject(value) && "trajectory" in value) {
    if (value.expected === undefined) return { ...origin, trajectory: value.trajectory, labeled: true };
    const expected = readExpected(value.expected);
    if (typeof expected === "string") return { ...origin, error: expected };
    return { ...origin, trajectory: value.trajectory, expected, labeled: true };
  }
  return { ...origin, trajectory: value };
}

/**
 * Said between a file's batches of cases by a reader that meets a file's
 * mistakes only as it goes (held-array.ts): `hold` the output of the cases
 * that follow, `commit` it (the file is as read), or `discard` it (the file
 * is read again another way, and its cases come after). Only a consumer that
 * asks for them gets them (readHeldCaseBatches).
 */
export type FileHold = { kind: "hold" } | { kind: "commit" } | { kind: "discard" };

export function readError(error: unknown): string {
  return `cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
}
