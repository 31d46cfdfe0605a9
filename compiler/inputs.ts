/**
 * Reads trajectory files (FORMATS.md §2): a `.json` file holds one trajectory,
 * one labeled case, or an array of either; a `.jsonl` file holds one per line
 * and is streamed. A bad case never hides the others: it comes out as an
 * `InputCase` with an `error` that names file, case, line and field.
 */
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Verdict } from "../runtime/types.js";
import { elementCases, importedCases, importsWhole, readsInPlace, type TraceReadOptions } from "./trace-inputs.js";

export interface Expected {
  verdict: Verdict;
  metaBehaviorVerdicts: Record<string, Verdict>;
}

/** Where a case came from: `file`, its 0-based index there, and its line for JSONL. */
export interface CaseOrigin {
  file: string;
  index: number;
  line?: number;
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

/** `file:line: case N:` for JSONL, `file: case N:` for JSON. */
export function describeOrigin(origin: CaseOrigin): string {
  return origin.line === undefined ? `${origin.file}: case ${origin.index}` : `${origin.file}:${origin.line}: case ${origin.index}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const VERDICTS: readonly unknown[] = ["true", "false", "na"];

/** Checks an `expected` block; returns the error text or the typed labels. */
function readExpected(value: unknown): Expected | string {
  if (!isObject(value)) return "expected must be an object with verdict and metaBehaviorVerdicts";
  if (!VERDICTS.includes(value.verdict)) return 'expected.verdict must be "true", "false", or "na"';
  const metas = value.metaBehaviorVerdicts ?? {};
  if (!isObject(metas)) return "expected.metaBehaviorVerdicts must be an object of rule name: verdict";
  for (const [name, verdict] of Object.entries(metas)) {
    if (!VERDICTS.includes(verdict)) return `expected.metaBehaviorVerdicts[${JSON.stringify(name)}] must be "true", "false", or "na"`;
  }
  return { verdict: value.verdict as Verdict, metaBehaviorVerdicts: metas as Record<string, Verdict> };
}

/**
 * One element of a file: a trajectory or a `{trajectory, expected}` case.
 * Other keys of a labeled case (notes, tags) are ignored, as a trajectory's
 * are: FORMATS.md §2 lets users bring their label files unchanged. A
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

/** `line:col` of a JSON.parse error, when the engine says where it failed. */
function jsonErrorLocation(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const match = /position (\d+)/.exec(message);
  if (match === null) return "";
  const offset = Number(match[1]);
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const col = offset - before.lastIndexOf("\n");
  return `:${line}:${col}`;
}

function jsonMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/ in JSON at position \d+.*$/s, "").replace(/^JSON\.parse: /, "");
}

const BOM = "\uFEFF";

function readError(error: unknown): string {
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
      if (c === 92) i++; // a backslash escapes the next character (never a line break in valid JSON)
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

async function* readJsonFile(file: string, options: TraceReadOptions): AsyncGenerator<InputCase> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    yield { file, index: 0, error: readError(error) };
    return;
  }
  // A byte order mark (Windows editors write one) is not JSON; RFC 8259 lets readers ignore it.
  if (text.startsWith(BOM)) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    yield { file: `${file}${jsonErrorLocation(text, error)}`, index: 0, error: `invalid JSON: ${jsonMessage(error)}` };
    return;
  }
  // A trace file of another format (a chat log, a span export) is imported as a whole.
  if (importsWhole(value, options)) {
    // Paths such as `[3].messages[2]` stay as they are: in a JSON file they point into the value.
    yield* importedCases(value, file, 0, options);
  } else if (Array.isArray(value)) {
    const lines = arrayElementLines(text);
    for (let i = 0; i < value.length; i++) {
      const line = lines[i];
      yield* elementCases(value[i], line === undefined ? { file, index: i } : { file, index: i, line }, toCase, options);
    }
  } else {
    yield* elementCases(value, { file, index: 0 }, toCase, options);
  }
}

async function* readJsonlFile(file: string, options: TraceReadOptions): AsyncGenerator<InputCase> {
  const stream = createReadStream(file, { encoding: "utf8" });
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
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNumber = 0;
  let index = 0;
  // Lines that are not trajectories are kept and imported together at the end: a trace may span
  // several lines (a Responses API log, one exchange per line). Trajectory lines still stream.
  const traces: unknown[] = [];
  const traceLines: number[] = [];
  try {
    for await (const raw of lines) {
      lineNumber++;
      const line = lineNumber === 1 && raw.startsWith(BOM) ? raw.slice(1) : raw;
      if (line.trim() === "") continue;
      const origin = { file, index: index++, line: lineNumber };
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        yield { ...origin, error: `invalid JSON: ${jsonMessage(error)}` };
        continue;
      }
      if (!readsInPlace(value, options)) {
        traces.push(value);
        traceLines.push(lineNumber);
        index--;
        continue;
      }
      yield* elementCases(value, origin, toCase, options);
    }
  } catch (error) {
    // A read that fails mid-file (a folder named *.jsonl, an I/O error) ends this file only.
    yield { file, index, line: lineNumber + 1, error: readError(error) };
  } finally {
    stream.destroy();
  }
  if (traces.length === 0) return;
  if (importsWhole(traces, options)) {
    yield* importedCases(traces, file, index, options, traceLines);
    return;
  }
  // No format fits the lines together: each line on its own (imported, or a located error).
  for (let i = 0; i < traces.length; i++) yield* elementCases(traces[i], { file, index: index++, line: traceLines[i]! }, toCase, options);
}

/**
 * Every case of every file, in order; JSONL files are streamed line by line.
 * What is not a trajectory is imported from its trace format (`options.from`,
 * detected by default; see trace-inputs.ts).
 */
export async function* readCases(files: readonly string[], options: TraceReadOptions = {}): AsyncGenerator<InputCase> {
  for (const file of files) {
    yield* /\.jsonl$/i.test(file) ? readJsonlFile(file, options) : readJsonFile(file, options);
  }
}

export type { TraceReadOptions };
