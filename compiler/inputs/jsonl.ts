/**
 * A `.jsonl` file (or stdin read as JSON Lines), streamed line by line: each
 * line a case, a located error, or a trace kept for the importers until the
 * end (a trace may span several lines).
 */
import { closeSync, createReadStream, openSync, readSync, statSync } from "node:fs";
import { lineBatches } from "../files/byte-lines.js";
import { decodeUtf8, describeInvalidUtf8 } from "../files/utf8.js";
import { readError, toCase, type InputCase } from "./case.js";
import { loadImporters, needsImporters, plainTrajectory } from "./importers.js";
import { BOM, invalidJson } from "./json-text.js";
import { elementCases, formatMismatch, importedCases, importsWhole, readsInPlace, type TraceReadOptions } from "./trace-inputs.js";

export async function* readJsonlFile(file: string, options: TraceReadOptions): AsyncGenerator<InputCase> {
  for await (const batch of readJsonlFileBatches(file, options)) yield* batch;
}

/** The cases of a `.jsonl` file as readJsonlFile gives them, a batch per chunk read. */
export async function* readJsonlFileBatches(file: string, options: TraceReadOptions): AsyncGenerator<InputCase[]> {
  if (regularFile(file)) {
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch (error) {
      yield [{ file, index: 0, error: readError(error) }];
      return;
    }
    try {
      yield* readJsonlBatches(file, fileChunks(fd), options);
    } finally {
      closeSync(fd);
    }
    return;
  }
  const stream = createReadStream(file);
  const opened = new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", reject);
  });
  try {
    await opened;
  } catch (error) {
    yield [{ file, index: 0, error: readError(error) }];
    return;
  }
  try {
    yield* readJsonlBatches(file, stream, options);
  } finally {
    stream.destroy();
  }
}

function regularFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Bytes read from a regular file per chunk: each chunk's lines are one batch. */
const FILE_CHUNK = 64 << 10;

/**
 * A regular file's bytes in chunks, read on this thread: a read from a file
 * does not wait the way a pipe does, and a stream's reads on the I/O threads
 * cost the run a twentieth of its CPU (issue 26). The run still turns its
 * event loop after each chunk, so what the chunk's lines gave is written
 * before the next one is read, as with a stream.
 */
async function* fileChunks(fd: number): AsyncGenerator<Uint8Array> {
  // One buffer for every read: lineBatches keeps nothing of a chunk once its lines are read, and a new
  // buffer per read cost more than reading into it (fresh memory, and its collection).
  const chunk = Buffer.allocUnsafe(FILE_CHUNK);
  for (;;) {
    const read = readSync(fd, chunk, 0, FILE_CHUNK, null);
    if (read === 0) return;
    yield chunk.subarray(0, read);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The cases of JSON Lines read from `chunks` (a file, or stdin), streamed line by line. */
export async function* readJsonlLines(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  options: TraceReadOptions,
): AsyncGenerator<InputCase> {
  for await (const batch of readJsonlBatches(file, chunks, options)) yield* batch;
}

/**
 * The cases of JSON Lines as readJsonlLines gives them, a batch per chunk
 * read (lineBatches): the lines of a chunk become cases in one synchronous
 * pass, with no promise per line, decoded in one call when they are UTF-8.
 */
export async function* readJsonlBatches(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  options: TraceReadOptions,
): AsyncGenerator<InputCase[]> {
  let lineNumber = 0;
  let index = 0;
  // Lines that are not trajectories are kept and imported together at the end: a trace may span
  // several lines (a Responses API log, one exchange per line). Trajectory lines still stream.
  const traces: unknown[] = [];
  const traceLines: number[] = [];
  let batch: InputCase[] = [];
  try {
    for await (const read of lineBatches(chunks)) {
      for (let i = 0; i < read.lines.length; i++) {
        lineNumber++;
        let parsed: ParsedLine;
        if (read.text) {
          const text = read.lines[i]!;
          // The common line, a trajectory ("{" first: neither blank nor after a byte order mark), made a case as
          // toCase makes it without the objects of the general path below.
          const value = text.charCodeAt(0) === 0x7b ? parsedOrUndefined(text) : undefined;
          if (value !== undefined && plainTrajectory(value)) {
            batch.push({ file, index: index++, line: lineNumber, trajectory: value });
            continue;
          }
          parsed = value !== undefined ? { kind: "value", value } : parseJsonlText(text, { file, index, line: lineNumber });
        } else {
          const { bytes, offset } = read.lines[i]!;
          parsed = parseJsonlLine(bytes, offset, { file, index, line: lineNumber });
        }
        const origin = { file, index, line: lineNumber };
        if (parsed.kind === "value" && plainTrajectory(parsed.value)) {
          index++;
          batch.push(toCase(parsed.value, origin));
          continue;
        }
        if (parsed.kind === "value" && needsImporters(parsed.value)) await loadImporters();
        const line = parsed.kind === "value" ? jsonlValue(parsed.value, origin, options) : parsed;
        if (line.kind === "blank") continue;
        if (line.kind === "trace") {
          traces.push(line.value);
          traceLines.push(lineNumber);
          continue;
        }
        index++;
        for (const c of line.cases) batch.push(c);
      }
      if (batch.length > 0) {
        const ready = batch;
        batch = [];
        yield ready;
      }
    }
  } catch (error) {
    // A read that fails mid-file (a folder named *.jsonl, an I/O error) ends this file only, after the cases before it.
    batch.push({ file, index, line: lineNumber + 1, error: readError(error) });
    yield batch;
  }
  const imported = [...traceLinesCases(traces, traceLines, file, index, options)];
  if (imported.length > 0) yield imported;
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
  const parsed = parseJsonlLine(bytes, offset, origin);
  return parsed.kind === "value" ? jsonlValue(parsed.value, origin, options) : parsed;
}

/** What parseJsonlLine makes of a line. */
type ParsedLine = Exclude<JsonlLine, { kind: "trace" }> | { kind: "value"; value: unknown };

/** A line's JSON value, or what readJsonlLine makes of a line that has none (blank, or one located error). */
export function parseJsonlLine(bytes: Uint8Array, offset: number, origin: { file: string; index: number; line: number }): ParsedLine {
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) {
    return { kind: "cases", cases: [{ ...origin, col: decoded.invalid.col, error: describeInvalidUtf8(decoded.invalid, offset) }] };
  }
  return parseJsonlText(decoded.text, origin);
}

/** parseJsonlLine of a line already decoded. */
function parseJsonlText(raw: string, origin: { file: string; index: number; line: number }): ParsedLine {
  const line = origin.line === 1 && raw.startsWith(BOM) ? raw.slice(1) : raw;
  if (line.trim() === "") return { kind: "blank" };
  try {
    return { kind: "value", value: JSON.parse(line) };
  } catch (error) {
    return { kind: "cases", cases: [{ ...origin, ...invalidJson(line, error, origin.line) }] };
  }
}

/** The value of a line of JSON, or undefined when it is not JSON (the line is then read again, to say why). */
function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What a line's value is: a trace kept for the end, or its cases (the importers loaded if needsImporters says so). */
export function jsonlValue(value: unknown, origin: { file: string; index: number; line: number }, options: TraceReadOptions): JsonlLine {
  if (plainTrajectory(value)) return { kind: "cases", cases: [toCase(value, origin)] };
  if (!readsInPlace(value, options)) return { kind: "trace", value };
  return { kind: "cases", cases: elementCases(value, origin, options) };
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
  // A format given that the lines plainly do not have (a chat log under --from trajectory): one line for them all.
  const mismatch = formatMismatch(traces, options);
  if (mismatch !== undefined) {
    yield { file, index, line: traceLines[0]!, error: mismatch };
    return;
  }
  if (importsWhole(traces, options)) {
    yield* importedCases(traces, file, index, options, traceLines);
    return;
  }
  // No format fits the lines together: each line on its own (imported, or a located error).
  for (let i = 0; i < traces.length; i++) yield* elementCases(traces[i], { file, index: index++, line: traceLines[i]! }, options);
}
