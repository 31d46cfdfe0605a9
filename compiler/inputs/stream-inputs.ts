/**
 * Inputs read without holding them whole (docs/SCALE.md "Streams"): a .json
 * file past JSON_STREAM_BYTES whose top level is an array is read element by
 * element, and stdin (`-`) as it comes. A file read whole is json-file.ts's,
 * JSON Lines are jsonl.ts's; inputs.ts chooses among them.
 */
import { closeSync, createReadStream, fstatSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { jsonArrayElements, type ArrayStreamItem } from "../files/json-array-stream.js";
import { readError, type InputCase } from "./case.js";
import { loadImporters, needsImporters } from "./importers.js";
import { jsonFileCases, parsedCases } from "./json-file.js";
import { readJsonlLines } from "./jsonl.js";
import { elementCases, isNativeCase, readsInPlace, type TraceReadOptions } from "./trace-inputs.js";
import { sniffStream } from "./stream-shape.js";
import { printable } from "../report/printable.js";

type ArrayStreamError = Extract<ArrayStreamItem, { kind: "error" }>;

/** A .json file this large or larger whose top level is an array is streamed; smaller ones are read in one call. */
export const JSON_STREAM_BYTES = 64 * 1024 * 1024;

/** The threshold, which `BEHAVIOR_JUDGE_JSON_STREAM_BYTES` may lower or raise (tests stream tiny files with it). */
export function jsonStreamBytes(): number {
  const set = Number(process.env.BEHAVIOR_JUDGE_JSON_STREAM_BYTES);
  return process.env.BEHAVIOR_JUDGE_JSON_STREAM_BYTES !== undefined && Number.isInteger(set) && set >= 0 ? set : JSON_STREAM_BYTES;
}

/** A .json file read whole, or one to stream. */
export type JsonFileRead = { kind: "bytes"; bytes: Buffer } | { kind: "large-array" };

/** How much of a large file is looked at for its first character. */
const HEAD_BYTES = 64 * 1024;

/** The first byte of `head` after a byte order mark and JSON whitespace; undefined when there is none yet. */
function firstNonBlank(head: Uint8Array): number | undefined {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09)) i++;
  return head[i];
}

/** Whether the first character after whitespace (and a byte order mark) is "[". */
function startsArray(head: Uint8Array): boolean {
  return firstNonBlank(head) === 0x5b;
}

/**
 * A small file in one synchronous read (a corpus of many small files is
 * read without a thread-pool round trip per step); a large one is looked at
 * first: an array is streamed, anything else (one huge trajectory) read
 * whole. Throws the file system's error.
 */
export function openJsonFile(file: string, threshold: number): JsonFileRead {
  const fd = openSync(file, "r");
  try {
    if (fstatSync(fd).size >= threshold) {
      const head = Buffer.alloc(HEAD_BYTES);
      const read = readSync(fd, head, 0, HEAD_BYTES, 0);
      if (startsArray(head.subarray(0, read))) return { kind: "large-array" };
    }
    return { kind: "bytes", bytes: readFileSync(fd) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The file's elements, read in the stream's default 64 KiB chunks: with
 * 1 MiB ones the chunks waiting for the collector doubled the peak memory.
 */
function fileElements(file: string): AsyncGenerator<ArrayStreamItem> {
  return jsonArrayElements(createReadStream(file));
}

/**
 * How the array is read with the same cases as the whole-file reader gives:
 * streamed when it holds only trajectories or labeled cases; whole when it
 * holds anything else (it may be one trace, imported whole); and a broken
 * one is its first mistake, located as the whole-file reader locates it (an
 * invalid UTF-8 sequence after that mistake, which the whole-file reader
 * would name first, is not looked for).
 */
/**
 * Whether an array element is read in place as the array streams: a
 * trajectory or labeled case; with `from` "trajectory", also what is meant
 * as one. Anything else makes the array be read whole, as a small file's
 * value is (imported, or, under "trajectory", named as the format it looks like).
 */
function streamsInPlace(value: unknown, options: TraceReadOptions): boolean {
  return (options.from ?? "auto") === "trajectory" ? readsInPlace(value, options) : isNativeCase(value, options);
}

async function checkArray(file: string, options: TraceReadOptions): Promise<"stream" | "whole" | ArrayStreamError> {
  const from = options.from ?? "auto";
  let count = 0;
  for await (const item of fileElements(file)) {
    if (item.kind === "error") return item;
    if (needsImporters(item.value)) await loadImporters();
    if (!streamsInPlace(item.value, options)) return "whole";
    count++;
  }
  // An empty array is read whole by a named importer (importsWhole); it is tiny anyway.
  return count > 0 || from === "auto" || from === "trajectory" ? "stream" : "whole";
}

/**
 * A large .json array, element by element: the same cases as the whole-file
 * reader, holding one element at a time. It is read twice: first to check
 * that it is valid and holds trajectories, then to yield its cases, so a
 * broken file judges nothing, whatever its size.
 */
export async function* readLargeJsonArray(file: string, options: TraceReadOptions): AsyncGenerator<InputCase> {
  let index = 0;
  try {
    const check = await checkArray(file, options);
    if (check === "whole") {
      yield* await jsonFileCases(file, readFileSync(file), options);
      return;
    }
    if (check !== "stream") {
      yield located(file, 0, check);
      return;
    }
    for await (const item of fileElements(file)) {
      // An error now means the file changed since it was checked.
      if (item.kind === "error") return yield located(file, index, item);
      if (needsImporters(item.value)) await loadImporters();
      yield* elementCases(item.value, { file, index: index++, line: item.line }, options);
    }
  } catch (error) {
    // A read that fails midway (an I/O error) ends this file only.
    yield { file, index, error: readError(error) };
  }
}

/** The error case for a mistake in a streamed array. */
function located(file: string, index: number, item: ArrayStreamError): InputCase {
  const { kind: _kind, ...place } = item;
  return { file, index, ...place };
}

/** The trajectory argument that stands for stdin; its cases carry it as their `file`. */
export const STDIN = "-";

/**
 * A JSON array read once, as it comes (a pipe cannot be read twice):
 * trajectories and labeled cases are yielded as they are read, and a mistake
 * ends the input with one located error case after the cases before it. An
 * array whose first element is something else (a trace export) is collected
 * and read as a whole .json file's value would be.
 */
async function* streamedArrayCases(file: string, chunks: AsyncIterable<Uint8Array>, options: TraceReadOptions): AsyncGenerator<InputCase> {
  let index = 0;
  let collected: { value: unknown; line: number }[] | undefined;
  for await (const item of jsonArrayElements(chunks)) {
    if (item.kind === "error") return yield located(file, collected === undefined ? index : 0, item);
    if (needsImporters(item.value)) await loadImporters();
    if (index === 0 && collected === undefined && !streamsInPlace(item.value, options)) collected = [];
    if (collected !== undefined) {
      collected.push(item);
      continue;
    }
    yield* elementCases(item.value, { file, index: index++, line: item.line }, options);
  }
  if (collected !== undefined) {
    // Each element was asked needsImporters as it came: what the whole array needs is loaded.
    const elements = collected;
    yield* parsedCases(
      elements.map((e) => e.value),
      file,
      () => elements.map((e) => e.line),
      options,
    );
  }
}

/**
 * The cases of a stream (stdin, a pipe): a JSON array when its first
 * character is "[" (unless its first line is a whole array with more values
 * after it: JSON Lines), else JSON Lines; both streamed, so `judge` can sit
 * in a pipe. Nothing is read twice: a pipe cannot seek (stream-shape.ts).
 */
async function* readStreamCases(file: string, chunks: AsyncIterable<Uint8Array>, options: TraceReadOptions): AsyncGenerator<InputCase> {
  let sniffed: Awaited<ReturnType<typeof sniffStream>>;
  try {
    sniffed = await sniffStream(chunks);
  } catch (error) {
    yield { file, index: 0, error: readError(error) };
    return;
  }
  if (sniffed.shape === "array") yield* streamedArrayCases(file, sniffed.chunks, options);
  else if (sniffed.shape === "jsonl") yield* readJsonlLines(file, sniffed.chunks, options);
  else {
    // Read as JSON Lines, one document over 47 lines was 47 errors: one error says what to do instead.
    const name = file === STDIN ? "stdin" : printable(file);
    yield { file, index: 0, error: `${name} holds one pretty-printed JSON document: compact it (jq -c) or wrap it in [ ]` };
  }
}

/** The cases on stdin (the `-` argument), read as a stream. `chunks` is process.stdin but in tests. */
export async function* readStdinCases(
  options: TraceReadOptions,
  chunks: AsyncIterable<Uint8Array> = process.stdin,
): AsyncGenerator<InputCase> {
  yield* readStreamCases(STDIN, chunks, options);
}

/**
 * Whether `file` is a pipe, a socket or a device rather than a file (a FIFO,
 * bash's `<(…)`, /dev/stdin): it cannot be read at an offset, so it is read
 * once, as a stream, like stdin. A path that cannot be looked at is not one
 * (the file reader reports why, located).
 */
export function isStreamPath(file: string): boolean {
  try {
    const stats = statSync(file);
    return !stats.isFile() && !stats.isDirectory();
  } catch {
    return false;
  }
}

/** The cases of a pipe given by path (see isStreamPath), read as stdin is. */
export async function* readPipeCases(file: string, options: TraceReadOptions): AsyncGenerator<InputCase> {
  const stream = createReadStream(file);
  try {
    yield* readStreamCases(file, stream, options);
  } finally {
    stream.destroy();
  }
}
