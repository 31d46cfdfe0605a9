/**
 * The importers' hook into the input reader (IMPORTERS.md "Where importers
 * are used"): a file, a JSONL line or a labeled case's `trajectory` that is
 * not already a trajectory is imported from its trace format (`--from`, or
 * detected), so `judge`, `calibrate`, `generate` and `import` read agent
 * traces with no conversion step. Trajectories pass through untouched.
 */
import type { FormatSetting, ImportIssue, ImportTraceOptions } from "../../importers/index.js";
import { looksLikeTrajectory } from "../../importers/formats.js";
import { importers } from "./importers.js";
import { isObject } from "../../runtime/is-object.js";
import { toCase, type CaseOrigin, type InputCase } from "./case.js";

export interface TraceReadOptions {
  /** "auto" (default): import what is not a trajectory; "trajectory": read as is; else an importer's name. */
  from?: string;
  /** Overrides the detected completeness of imported traces. */
  complete?: boolean | undefined;
  /** Keep reasoning as agent/reasoning events. */
  reasoning?: boolean | undefined;
  /** `--id`: the id of every imported trajectory (`<id>-<n>` for several in one input), instead of the native id or the file's name. */
  id?: string | undefined;
  /** How a message about an unknown format names the setting: the library's `from` option (default), or the CLI's `--from`. */
  formatSetting?: FormatSetting | undefined;
  /** Receives each importer warning, located (`file: trace 0: path: message`). */
  onWarning?: (message: string) => void;
}

/**
 * A trajectory, or a labeled case (whose `trajectory` is imported later if it
 * needs to be). A `trajectory` key alone does not make a case (IMPORTERS.md):
 * with `expected` it is one; without, it is one only when no format reads
 * the object whole, since traces keep their own `trajectory` field (a
 * SWE-agent `.traj` holds its steps there). Unlabeled, such a case still
 * reaches calibrate, which names it, so a misspelled `expected` surfaces.
 */
export function isNativeCase(value: unknown, options: TraceReadOptions = {}): boolean {
  if (looksLikeTrajectory(value)) return true;
  if (!isObject(value) || !("trajectory" in value)) return false;
  return "expected" in value || !readAsTrace(value, options);
}

/** Whether a format reads `value` as a trace: the `--from` one's shape test passes, or under auto detection finds one (or several). */
function readAsTrace(value: unknown, options: TraceReadOptions): boolean {
  const from = options.from ?? "auto";
  if (from === "trajectory") return false;
  if (from !== "auto") {
    try {
      return importers().findFormat(from)?.detect(value) === true;
    } catch {
      return false;
    }
  }
  return importers().detectFormat(value, importOptions(options)).candidates.length > 0;
}

/**
 * Whether a JSONL line is read in place as a trajectory (or labeled case),
 * rather than kept until the file's end: for the importers, or, with `from`
 * "trajectory", to tell a chat log's lines apart as one mismatch.
 */
export function readsInPlace(value: unknown, options: TraceReadOptions): boolean {
  const from = options.from ?? "auto";
  return isNativeCase(value, options) || ((from === "auto" || from === "trajectory") && meantAsTrajectory(value, options));
}

function safeDetect(detect: (value: unknown) => boolean, value: unknown): boolean {
  try {
    return detect(value);
  } catch {
    return false;
  }
}

/**
 * A format given (`--from`, the `from` option) that the input plainly does
 * not have: one error naming the format it looks like (auto-detection), for
 * the whole file, instead of an error per message or element. Undefined when
 * the input fits the given format, holds trajectories, or looks like no
 * known format (the reader then says what is wrong where).
 */
export function formatMismatch(value: unknown, options: TraceReadOptions): string | undefined {
  const from = options.from ?? "auto";
  if (from === "auto") return undefined;
  const inPlace = (v: unknown) => isNativeCase(v, options) || meantAsTrajectory(v, options);
  if (inPlace(value) || (Array.isArray(value) && value.some(inPlace))) return undefined;
  if (from !== "trajectory") {
    const format = importers().findFormat(from);
    if (format === undefined || safeDetect(format.detect, value)) return undefined;
    if (Array.isArray(value) && value.length > 0 && value.every((v) => safeDetect(format.detect, v))) return undefined;
  }
  const detected = importers().detectFormat(value, importOptions({ ...options, from: "auto" })).format;
  if (detected === undefined || detected === from) return undefined;
  const looks = `looks like ${detected} (${importers().findFormat(detected)!.description})${from === "trajectory" ? ", not trajectories (docs/FORMATS.md §2)" : ""}`;
  return options.formatSetting === "--from"
    ? `--from ${from} does not fit: the file ${looks}; pass --from ${detected}, or --from auto`
    : `from ${JSON.stringify(from)} does not fit: the file ${looks}; set the from option to ${JSON.stringify(detected)}, or "auto"`;
}

/**
 * Something meant as a trajectory that the validator should explain (a
 * missing field), rather than an unknown trace: it has `events`, `complete`
 * or an `id` among few keys, and no format reads it (an ADK session has
 * `id` and `events` too, but its events are ADK's). A small object with an
 * id and `content` is a trace's message record (a Gemini CLI session line
 * `{id, timestamp, type, content}`), never a trajectory: trajectories have
 * no `content`.
 */
function meantAsTrajectory(value: unknown, options: TraceReadOptions): boolean {
  if (
    !isObject(value) ||
    !("events" in value || "complete" in value || ("id" in value && !("content" in value) && Object.keys(value).length <= 4))
  )
    return false;
  return !readAsTrace(value, options);
}

/**
 * Import options for the whole of `file`, or for its element `element` (a
 * JSONL line, an array element): the ids of an element's traces are numbered
 * as the file name is, so `--id` given for a file of several cases names each
 * apart (`ticket-7-1`, `ticket-7-2`), as it does a file imported whole.
 */
function importOptions(options: TraceReadOptions, file?: string, element?: number): ImportTraceOptions {
  const id = options.id === undefined || options.id === "" || element === undefined ? options.id : `${options.id}-${element + 1}`;
  return {
    from: options.from ?? "auto",
    complete: options.complete,
    reasoning: options.reasoning,
    id,
    defaultId: file === undefined ? undefined : fileTraceId(file, element),
    formatSetting: options.formatSetting,
  };
}

/**
 * The id of a trace without a native one: its file's name without the
 * extension (`run-7.jsonl` → `run-7`, `astropy-12907.traj.json` →
 * `astropy-12907`), and, for one element of a file (a JSONL line, an array
 * element), `-<n>` with its 1-based index. Stdin has no name: `trace-<n>`.
 */
export function fileTraceId(file: string, element?: number): string | undefined {
  if (file === "-" || file === "") return undefined;
  const name = (file.split(/[\\/]/).pop() ?? file).replace(/(\.traj)?(\.jsonl?|\.traj)$/i, "");
  if (name === "") return undefined;
  return element === undefined ? name : `${name}-${element + 1}`;
}

/** Whether the reader should import `value` (a whole file's value, or the non-trajectory lines of a JSONL file) as one input. */
export function importsWhole(value: unknown, options: TraceReadOptions): boolean {
  const from = options.from ?? "auto";
  if (from === "trajectory") return false;
  const native = (v: unknown): boolean => isNativeCase(v, options);
  if (from !== "auto") return !native(value) && !(Array.isArray(value) && value.length > 0 && value.every(native));
  if (native(value) || (Array.isArray(value) && value.every(native))) return false;
  return importers().detectFormat(value, importOptions(options)).format !== undefined;
}

/** `[3].messages[2]` in a JSONL batch: the line of element 3, and the path after it. */
function locate(issue: ImportIssue, lines: readonly number[] | undefined): { line?: number; text: string } {
  const match = lines === undefined ? null : /^\[(\d+)\]\.?(.*)$/.exec(issue.path);
  if (match !== null && lines![Number(match[1])] !== undefined) {
    const rest = { ...issue, path: match[2]! };
    delete rest.trace;
    return { line: lines![Number(match[1])]!, text: importers().formatIssue(rest) };
  }
  return { text: importers().formatIssue(issue) };
}

/**
 * Imports one input and yields its trajectories as cases, then its errors as
 * error cases (the other traces still come through). `lines` maps element
 * indexes to line numbers when the input is the batch of a JSONL file.
 */
export function* importedCases(
  value: unknown,
  file: string,
  firstIndex: number,
  options: TraceReadOptions,
  lines?: readonly number[],
  line?: number,
): Generator<InputCase> {
  const result = importers().importTrace(value, importOptions(options, file, line === undefined ? undefined : firstIndex));
  // Cases come in trace order: each error takes the place of the trace it stopped.
  const errors = [...result.errors].sort((a, b) => (a.trace ?? 0) - (b.trace ?? 0));
  const at = (index: number, where: number | undefined): CaseOrigin =>
    where === undefined ? { file, index } : { file, index, line: where };
  let next = 0;
  let index = firstIndex;
  for (const issue of errors) {
    while (next < result.trajectories.length && (issue.trace === undefined || index - firstIndex < issue.trace))
      yield { ...at(index++, line), trajectory: result.trajectories[next++] };
    const located = locate(issue, lines);
    yield { ...at(index++, located.line ?? line), error: `${result.format === undefined ? "" : `${result.format}: `}${located.text}` };
  }
  while (next < result.trajectories.length) yield { ...at(index++, line), trajectory: result.trajectories[next++] };
  for (const warning of result.warnings) {
    const located = locate(warning, lines);
    const where = located.line ?? line;
    options.onWarning?.(`${file}${where === undefined ? "" : `:${where}`}: ${result.format ?? ""}: ${located.text}`);
  }
}

/**
 * One element (a whole file's value, an array element, a JSONL line) that is
 * not imported whole: a trajectory or labeled case as is (a labeled case's
 * `trajectory` imported if it is a trace), else imported on its own, else
 * left to the validator when it was meant as a trajectory, else an error
 * naming the formats.
 */
export function* elementCases(value: unknown, origin: CaseOrigin, options: TraceReadOptions): Generator<InputCase> {
  const from = options.from ?? "auto";
  if (from === "trajectory") return yield toCase(value, origin);
  if (isNativeCase(value, options)) {
    const c = toCase(value, origin);
    if (c.error === undefined && c.labeled === true && !looksLikeTrajectory(c.trajectory) && !meantAsTrajectory(c.trajectory, options))
      return yield labeledImport(c, options);
    return yield c;
  }
  if (from === "auto") {
    const detection = importers().detectFormat(value, importOptions(options));
    if (detection.format === undefined)
      return yield detection.candidates.length === 0 && meantAsTrajectory(value, options)
        ? toCase(value, origin)
        : { ...origin, error: importers().detectionError(detection, options.formatSetting) };
  }
  yield* importedCases(value, origin.file, origin.index, options, undefined, origin.line);
}

/** A labeled case wrapping a trace: it must import to exactly one trajectory. */
function labeledImport(c: InputCase, options: TraceReadOptions): InputCase {
  const result = importers().importTrace(c.trajectory, importOptions(options, c.file, c.line === undefined ? undefined : c.index));
  const { trajectory: _raw, ...rest } = c;
  void _raw;
  // Unlabeled, and neither the object nor its `trajectory` is a trace any format knows: the object is what is unknown.
  if (result.errors.length > 0 && c.expected === undefined && result.format === undefined && (options.from ?? "auto") === "auto")
    return {
      ...rest,
      labeled: false,
      error: `${importers().detectionError({ candidates: [] }, options.formatSetting)} (an object with a "trajectory" key is a labeled case only with "expected")`,
    };
  if (result.errors.length > 0)
    return {
      ...rest,
      error: `trajectory: ${result.format === undefined ? "" : `${result.format}: `}${importers().formatIssue(result.errors[0]!)}`,
    };
  if (result.trajectories.length !== 1)
    return { ...rest, error: `trajectory: a labeled case wraps one trace; this one holds ${result.trajectories.length}` };
  for (const warning of result.warnings)
    options.onWarning?.(
      `${c.file}${c.line === undefined ? "" : `:${c.line}`}: case ${c.index}: trajectory: ${importers().formatIssue(warning)}`,
    );
  return { ...rest, trajectory: result.trajectories[0] };
}
