/**
 * Reads trajectory files (docs/FORMATS.md §2): a `.json` file holds one trajectory,
 * one labeled case, or an array of either; a `.jsonl` file holds one per line
 * and is streamed. A bad case never hides the others: it comes out as an
 * `InputCase` with an `error` that names file, case, line and field.
 */
import { createReadStream } from "node:fs";
import { isObject } from "../../runtime/is-object.js";
import { readExpected, type ExpectedLabels } from "../../testing/labels.js";
import { printable } from "../report/printable.js";
import { findJsonSyntaxError, lineAndColumn } from "../files/json-syntax.js";
import { decodeUtf8, describeInvalidUtf8 } from "../files/utf8.js";
import {
  isStreamPath,
  jsonStreamBytes,
  openJsonFile,
  readLargeJsonArray,
  readPipeCases,
  readStdinCases,
  STDIN,
  type JsonFileRead,
} from "./stream-inputs.js";
import { elementCases, importedCases, importsWhole, readsInPlace, type TraceReadOptions } from "./trace-inputs.js";
import { groupSessions, sessionCases } from "./claude-code-sessions.js";

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
 * Why JSON.parse refused `text`, located: the scanner finds the first error
 * itself, since the engine's message names no position for some mistakes
 * (Node 20's "Unexpected token") and quotes the input instead. `line` is the
 * text's first line in its file (JSONL). The engine's own words are kept only
 * if the scanner finds the text valid (a string too long to build, say).
 */
export function invalidJson(text: string, error: unknown, line = 1): { line?: number; col?: number; error: string } {
  const found = findJsonSyntaxError(text);
  if (found === undefined) {
    const message = error instanceof Error ? error.message : String(error);
    return { error: `cannot parse the JSON: ${printable(message.split("\n")[0]!.slice(0, 200))}` };
  }
  const at = lineAndColumn(text, found.offset);
  return { line: line + at.line - 1, col: at.col, error: `invalid JSON: ${printable(found.message)}` };
}

const BOM = "\uFEFF";

export function readError(error: unknown): string {
  return `cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
}

/**
 * The 1-based line on which each element of a top-level JSON array starts, so
 * an error in case 412 of a large file can name its line too. One pass over
 * text that JSON.parse has already accepted: only strings and nesting matter.
 */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (inString) {
      if (c === 92)
        i++; // a backslash escapes the next character (never a line break in valid JSON)
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (expectElement && c !== 93) lines.push(line);
    expectElement = false;
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth === 1 && c === 91) expectElement = true;
    } else if (c === 93 || c === 125) depth--;
    else if (c === 44 && depth === 1) expectElement = true;
  }
  return lines;
}

/** A .json file's cases once its value is parsed; `lines` gives the line of each element of an array. */
export function* parsedCases(
  value: unknown,
  file: string,
  lines: () => readonly number[],
  options: TraceReadOptions,
): Generator<InputCase> {
  // A trace file of another format (a chat log, a span export) is imported as a whole.
  if (importsWhole(value, options)) {
    // Paths such as `[3].messages[2]` stay as they are: in a JSON file they point into the value.
    yield* importedCases(value, file, 0, options);
  } else if (Array.isArray(value)) {
    const starts = lines();
    for (let i = 0; i < value.length; i++) {
      const line = starts[i];
      yield* elementCases(value[i], line === undefined ? { file, index: i } : { file, index: i, line }, toCase, options);
    }
  } else {
    yield* elementCases(value, { file, index: 0 }, toCase, options);
  }
}

/** The cases of a whole .json file's bytes. */
export function* jsonFileCases(file: string, bytes: Uint8Array, options: TraceReadOptions): Generator<InputCase> {
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) {
    const { invalid } = decoded;
    yield { file, index: 0, line: invalid.line, col: invalid.col, error: describeInvalidUtf8(invalid) };
    return;
  }
  let text = decoded.text;
  // A byte order mark (Windows editors write one) is not JSON; RFC 8259 lets readers ignore it.
  if (text.startsWith(BOM)) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    yield { file, index: 0, ...invalidJson(text, error) };
    return;
  }
  yield* parsedCases(value, file, () => arrayElementLines(text), options);
}

async function* readJsonFile(file: string, options: TraceReadOptions): AsyncGenerator<InputCase> {
  let read: JsonFileRead;
  try {
    read = openJsonFile(file, jsonStreamBytes());
  } catch (error) {
    yield { file, index: 0, error: readError(error) };
    return;
  }
  if (read.kind === "large-array") yield* readLargeJsonArray(file, options);
  else yield* jsonFileCases(file, read.bytes, options);
}

/**
 * The lines of a byte stream with the file offset of each, split where
 * readline splits ("\n", "\r\n", or a lone "\r"). Bytes, not text: each line
 * is decoded on its own, so an invalid sequence is one line's error. A line
 * that spans chunks is joined once, at its end.
 */
export async function* byteLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<{ bytes: Uint8Array; offset: number }> {
  let pending: Uint8Array[] = [];
  let offset = 0;
  // The previous chunk ended with "\r": a "\n" opening this one ends the same line.
  let afterCr = false;
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    let start = 0;
    if (afterCr && chunk[0] === 0x0a) {
      start = 1;
      offset++;
    }
    afterCr = false;
    // Next "\n" and "\r" at or after `start`, each searched for again only once passed.
    let lf = chunk.indexOf(0x0a, start);
    let cr = chunk.indexOf(0x0d, start);
    for (;;) {
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(lf, cr);
      if (end === -1) break;
      const tail = chunk.subarray(start, end);
      const bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
      pending = [];
      yield { bytes, offset };
      let next = end + 1;
      if (end === cr) {
        if (next === chunk.length) afterCr = true;
        else if (chunk[next] === 0x0a) next++;
      }
      offset += bytes.length + (next - end);
      start = next;
      if (lf !== -1 && lf < start) lf = chunk.indexOf(0x0a, start);
      if (cr !== -1 && cr < start) cr = chunk.indexOf(0x0d, start);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) yield { bytes: pending.length === 1 ? pending[0]! : Buffer.concat(pending), offset };
}

async function* readJsonlFile(file: string, options: TraceReadOptions): AsyncGenerator<InputCase> {
  const stream = createReadStream(file);
  const opened = new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", reject);
  });
  try {
    await opened;
  } catch (error) {
    yield { file, index: 0, error: readError(error) };
    return;
  }
  try {
    yield* readJsonlLines(file, stream, options);
  } finally {
    stream.destroy();
  }
}

/** The cases of JSON Lines read from `chunks` (a file, or stdin), streamed line by line. */
export async function* readJsonlLines(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  options: TraceReadOptions,
): AsyncGenerator<InputCase> {
  let lineNumber = 0;
  let index = 0;
  // Lines that are not trajectories are kept and imported together at the end: a trace may span
  // several lines (a Responses API log, one exchange per line). Trajectory lines still stream.
  const traces: unknown[] = [];
  const traceLines: number[] = [];
  try {
    for await (const { bytes, offset } of byteLines(chunks)) {
      lineNumber++;
      const read = readJsonlLine(bytes, offset, { file, index, line: lineNumber }, options);
      if (read.kind === "blank") continue;
      if (read.kind === "trace") {
        traces.push(read.value);
        traceLines.push(lineNumber);
        continue;
      }
      index++;
      yield* read.cases;
    }
  } catch (error) {
    // A read that fails mid-file (a folder named *.jsonl, an I/O error) ends this file only.
    yield { file, index, line: lineNumber + 1, error: readError(error) };
  }
  yield* traceLinesCases(traces, traceLines, file, index, options);
}

/**
 * What one line of a JSONL file holds: nothing (a blank line), a trace kept
 * for the importers until the file's end, or its cases (one line takes one
 * index, `origin.index`; an invalid line is one located error case). The
 * worker threads (pool-worker.ts) read lines with this too.
 */
export type JsonlLine = { kind: "blank" } | { kind: "trace"; value: unknown } | { kind: "cases"; cases: Iterable<InputCase> };

export function readJsonlLine(
  bytes: Uint8Array,
  offset: number,
  origin: { file: string; index: number; line: number },
  options: TraceReadOptions,
): JsonlLine {
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) {
    return { kind: "cases", cases: [{ ...origin, col: decoded.invalid.col, error: describeInvalidUtf8(decoded.invalid, offset) }] };
  }
  const raw = decoded.text;
  const line = origin.line === 1 && raw.startsWith(BOM) ? raw.slice(1) : raw;
  if (line.trim() === "") return { kind: "blank" };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { kind: "cases", cases: [{ ...origin, ...invalidJson(line, error, origin.line) }] };
  }
  if (!readsInPlace(value, options)) return { kind: "trace", value };
  return { kind: "cases", cases: elementCases(value, origin, toCase, options) };
}

/**
 * The lines of a JSONL file that are not trajectories, imported together
 * once the file is read (a trace may span several lines), their cases
 * numbered from `index`.
 */
export function* traceLinesCases(
  traces: readonly unknown[],
  traceLines: readonly number[],
  file: string,
  index: number,
  options: TraceReadOptions,
): Generator<InputCase> {
  if (traces.length === 0) return;
  if (importsWhole(traces, options)) {
    yield* importedCases(traces, file, index, options, traceLines);
    return;
  }
  // No format fits the lines together: each line on its own (imported, or a located error).
  for (let i = 0; i < traces.length; i++) yield* elementCases(traces[i], { file, index: index++, line: traceLines[i]! }, toCase, options);
}

/**
 * Every case of every file, in order; JSONL files are streamed line by line,
 * and so are large .json arrays, element by element; `-` is stdin.
 * What is not a trajectory is imported from its trace format (`options.from`,
 * detected by default; see trace-inputs.ts).
 */
export async function* readCases(files: readonly string[], options: TraceReadOptions = {}): AsyncGenerator<InputCase> {
  for (const { file, companions } of groupSessions(files, options)) {
    // A Claude Code session given with its sub-agents' files: read as one trace.
    if (companions.length > 0) yield* sessionCases({ file, companions }, options);
    else if (file === STDIN) yield* readStdinCases(options);
    else if (/\.jsonl$/i.test(file)) yield* readJsonlFile(file, options);
    // A pipe with no .json name (`<(cat f)`, a FIFO): read once as a stream, as stdin is, never at an offset.
    else if (!/\.json$/i.test(file) && isStreamPath(file)) yield* readPipeCases(file, options);
    else yield* readJsonFile(file, options);
  }
}

export type { TraceReadOptions };
