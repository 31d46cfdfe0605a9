/**
 * Reads trajectory files (docs/FORMATS.md §2): a `.json` file holds one trajectory,
 * one labeled case, or an array of either; a `.jsonl` file holds one per line
 * and is streamed. A bad case never hides the others: it comes out as an
 * `InputCase` with an `error` that names file, case, line and field.
 */
import { readError, type InputCase } from "./case.js";
import { jsonFileCases } from "./json-file.js";
import { readJsonlFile } from "./jsonl.js";
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
