/**
 * Reads trajectory files (docs/FORMATS.md §2): a `.json` file holds one trajectory,
 * one labeled case, or an array of either; a `.jsonl` file holds one per line
 * and is streamed. A bad case never hides the others: it comes out as an
 * `InputCase` with an `error` that names file, case, line and field.
 */
import { readError, type FileHold, type InputCase } from "./case.js";
import { heldArrayBatches } from "./held-array.js";
import { beforeLargeParse, jsonFileCases } from "./json-file.js";
import { readJsonlFileBatches } from "./jsonl.js";
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
import type { TraceReadOptions } from "./trace-inputs.js";
import { groupSessions, sessionCases } from "./claude-code-sessions.js";

const CSV =
  "a .csv file: behavior-judge reads trajectories as JSON or JSONL (docs/FORMATS.md §2) and traces in the formats docs/IMPORTERS.md lists, not CSV";

/** A .json file read whole, or one to stream (a large array); when it cannot be read, the case that says why. */
function openJson(file: string): JsonFileRead | InputCase {
  try {
    return openJsonFile(file, jsonStreamBytes());
  } catch (error) {
    return { file, index: 0, error: readError(error) };
  }
}

/**
 * How many cases of a file read whole go in one batch: enough that a batch
 * costs nothing per case, few enough that its judgments are written while
 * still fresh. 512 cost a tenth more CPU than 64 (or 16, or 128) on a `.json`
 * array of 5,000 48-event trajectories (docs/SPEED.md "Sixth round").
 */
const BATCH_CASES = 64;

/** The cases of a synchronous reader in batches of BATCH_CASES. */
function* inBatches(cases: Iterable<InputCase>): Generator<InputCase[]> {
  let batch: InputCase[] = [];
  for (const c of cases) {
    batch.push(c);
    if (batch.length === BATCH_CASES) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** The cases of an asynchronous reader, one per batch: each as soon as it is read. */
async function* oneByOne(cases: AsyncIterable<InputCase>): AsyncGenerator<InputCase[]> {
  for await (const c of cases) yield [c];
}

/**
 * Every case of every file, in order; JSONL files are streamed line by line,
 * and so are large .json arrays, element by element; `-` is stdin.
 * What is not a trajectory is imported from its trace format (`options.from`,
 * detected by default; see trace-inputs.ts).
 */
export async function* readCases(files: readonly string[], options: TraceReadOptions = {}): AsyncGenerator<InputCase> {
  for await (const batch of readCaseBatches(files, options)) yield* batch;
}

/**
 * The cases of readCases in batches, each ready to judge in one synchronous
 * pass: a JSONL file's lines a chunk read at a time, a .json file read whole
 * BATCH_CASES at a time, and a case at a time what arrives as it comes
 * (stdin, a pipe, a large array streamed), so no case waits for the next.
 */
export async function* readCaseBatches(files: readonly string[], options: TraceReadOptions = {}): AsyncGenerator<InputCase[]> {
  for await (const batch of caseBatches(files, options, false)) if (Array.isArray(batch)) yield batch;
}

/**
 * readCaseBatches for a consumer that holds a file's output when told
 * (FileHold; report/sink.ts runSinks): a `.json` array laid out one element
 * a line is then parsed an element at a time as it is judged
 * (held-array.ts), between a `hold` and a `commit`, or a `discard` and the
 * file's cases read whole.
 */
export function readHeldCaseBatches(files: readonly string[], options: TraceReadOptions = {}): AsyncGenerator<InputCase[] | FileHold> {
  return caseBatches(files, options, true);
}

async function* caseBatches(files: readonly string[], options: TraceReadOptions, held: boolean): AsyncGenerator<InputCase[] | FileHold> {
  for (const { file, companions } of groupSessions(files, options)) {
    // A Claude Code session given with its sub-agents' files: read as one trace.
    if (companions.length > 0) yield* oneByOne(sessionCases({ file, companions }, options));
    else if (file === STDIN) yield* oneByOne(readStdinCases(options));
    else if (/\.jsonl$/i.test(file)) yield* readJsonlFileBatches(file, options);
    // Read as JSON, a CSV export fails at 1:1 with a syntax error that does not say what is wrong.
    else if (/\.csv$/i.test(file)) yield [{ file, index: 0, error: CSV }];
    // A pipe with no .json name (`<(cat f)`, a FIFO): read once as a stream, as stdin is, never at an offset.
    else if (!/\.json$/i.test(file) && isStreamPath(file)) yield* oneByOne(readPipeCases(file, options));
    else {
      const read = openJson(file);
      if (!("kind" in read)) yield [read];
      else if (read.kind === "large-array") yield* oneByOne(readLargeJsonArray(file, options));
      else if (!held || (yield* heldArrayBatches(file, read.bytes, options, BATCH_CASES, await beforeLargeParse(read.bytes))) === "whole")
        yield* inBatches(await jsonFileCases(file, read.bytes, options));
    }
  }
}
