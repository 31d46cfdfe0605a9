/**
 * `watch`: a judge's monitor fed from a stream of lines (docs/FORMATS.md §9),
 * reporting each violation as it becomes certain and the judgment at the end.
 *
 * A line is one JSON value:
 *   - an event (docs/FORMATS.md §2), pushed as it comes;
 *   - `{"trajectory": {"id": …, "description": …}}`, the header, before any event (optional);
 *   - `{"end": {"complete": true | false}}`, which ends the trajectory (nothing is read after it);
 *   - a whole trajectory (`{id, complete, events}`) or labeled case, replayed event by event.
 * With `from` naming a trace format, lines are records of that format: the
 * lines so far are imported after each one, and the events the import adds
 * are pushed (an import that changes an event already pushed is an error).
 *
 * Without an end line the trajectory ends where the input does, as
 * incomplete unless `complete` says otherwise (for an imported trace, as the
 * importer detected): a stream that stops may have been cut off.
 */
import { formatIssue, importTrace, looksLikeTrajectory } from "../../importers/index.js";
import type { ImportIssue } from "../../importers/index.js";
import type { JudgeOptions } from "../../runtime/judgment.js";
import { isObject } from "../../runtime/is-object.js";
import type { Monitor, TrajectoryJudgment, Violation } from "../../runtime/types.js";
import { findJsonSyntaxError } from "../files/json-syntax.js";
import type { BuiltJudge } from "./load.js";

/** One line of input: its 1-based number and its text. */
export interface WatchLine {
  line: number;
  text: string;
}

/** Where a violation was reported: the event that made it certain. */
export interface ViolationAt {
  /** The event's position in the trajectory (0-based) and its id. */
  index: number;
  eventId: string;
  /** The input line it came from. */
  line: number;
}

export interface WatchHandlers {
  violation(violation: Violation, at: ViolationAt): void;
  /** A line that could not be used: it is skipped, the rest is still read. */
  refused(line: number, message: string): void;
}

export interface WatchOptions {
  /** The trajectory id (default: the header line's, the imported trace's, or `fallbackId`). */
  id?: string | undefined;
  fallbackId: string;
  /** Whether the trajectory ended normally when the input ends without an end line. */
  complete?: boolean | undefined;
  /** "auto" or "trajectory": events as above; anything else: a trace format's name. */
  from?: string | undefined;
  /** As for judgeTrajectory: the model adapter, verify-on-false. */
  judge: JudgeOptions;
}

export interface WatchResult {
  judgment: TrajectoryJudgment;
  events: number;
  refused: number;
}

function describeJsonError(text: string): string {
  const found = findJsonSyntaxError(text);
  return found === undefined ? "invalid JSON" : `invalid JSON at column ${found.offset + 1}: ${found.message}`;
}

/** `{"end": {"complete": …}}` */
function isEndLine(value: unknown): value is { end: unknown } {
  return isObject(value) && Object.keys(value).length === 1 && "end" in value;
}

/** `{"trajectory": {"id": …}}`, a header: no `expected` (that is a labeled case), no events. */
function isHeaderLine(value: unknown): value is { trajectory: unknown } {
  return (
    isObject(value) &&
    Object.keys(value).length === 1 &&
    "trajectory" in value &&
    !(isObject(value.trajectory) && "events" in value.trajectory)
  );
}

/**
 * An import error, told as the line of the record it is in: `[3].tool_calls[0]`
 * is the new record's field when record 3 is the new one, else a record of
 * an earlier line.
 */
function describeRecordIssue(issue: ImportIssue, format: string | undefined, recordLines: readonly number[]): string {
  const match = /^\[(\d+)\]\.?(.*)$/.exec(issue.path);
  const record = match === null ? undefined : Number(match[1]);
  let text = formatIssue(issue);
  if (match !== null && record !== undefined && recordLines[record] !== undefined) {
    const rest: ImportIssue = { path: match[2]!, message: issue.message };
    text = record === recordLines.length - 1 ? formatIssue(rest) : `with the record of line ${recordLines[record]}: ${formatIssue(rest)}`;
  }
  return `${format === undefined ? "" : `${format}: `}${text}`;
}

function formatMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function watchLines(
  judge: BuiltJudge,
  lines: AsyncIterable<WatchLine>,
  options: WatchOptions,
  handlers: WatchHandlers,
): Promise<WatchResult> {
  const importing = options.from !== undefined && options.from !== "auto" && options.from !== "trajectory";
  let header: { id: string; description: string } | undefined = options.id === undefined ? undefined : { id: options.id, description: "" };
  let monitor: Monitor | undefined;
  let count = 0;
  let refused = 0;
  let ended: boolean | undefined;
  let importedComplete: boolean | undefined;
  // Importing: every record so far, and the events pushed (as JSON, to see that a new import extends them).
  const records: unknown[] = [];
  const recordLines: number[] = [];
  const pushedJson: string[] = [];

  const refuse = (line: number, message: string) => {
    refused++;
    handlers.refused(line, message);
  };
  const open = (): Monitor => {
    monitor ??= judge.createMonitor(header ?? { id: options.fallbackId }, options.judge);
    return monitor;
  };
  /** Pushes one event; a bad one is refused with the monitor unchanged. */
  const push = (event: unknown, line: number): boolean => {
    let found: Violation[];
    try {
      found = open().push(event);
    } catch (error) {
      refuse(line, formatMessage(error));
      return false;
    }
    const eventId = (event as { id: string }).id;
    for (const violation of found) handlers.violation(violation, { index: count, eventId, line });
    count++;
    return true;
  };

  for await (const { line, text } of lines) {
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      refuse(line, describeJsonError(text));
      continue;
    }
    if (isEndLine(value)) {
      const complete = isObject(value.end) ? value.end.complete : undefined;
      if (typeof complete !== "boolean") {
        refuse(line, "end.complete must be true or false");
        continue;
      }
      ended = complete;
      break;
    }
    if (importing) {
      records.push(value);
      recordLines.push(line);
      const result = importTrace(records, {
        from: options.from!,
        ...(options.complete !== undefined ? { complete: options.complete } : {}),
      });
      // The records before this one imported cleanly: an error is this record's, and it is left out
      // (kept, it would fail every later import and nothing after it would be judged).
      if (result.errors.length > 0) {
        refuse(line, result.errors.map((issue) => describeRecordIssue(issue, result.format, recordLines)).join("; "));
        records.pop();
        recordLines.pop();
        continue;
      }
      const trace = result.trajectories[0];
      // No trace yet (records that open one but hold no event): more records may complete it.
      if (trace === undefined) continue;
      if (result.trajectories.length > 1) {
        refuse(line, "the records so far hold more than one trace; watch follows one trajectory");
        records.pop();
        recordLines.pop();
        continue;
      }
      header ??= { id: trace.id, description: trace.description ?? "" };
      importedComplete = trace.complete;
      const changed = pushedJson.findIndex((json, k) => JSON.stringify(trace.events[k]) !== json);
      if (changed >= 0) {
        refuse(
          line,
          `importing this record changed event ${changed} (${JSON.stringify(trace.events[changed]?.id)}) after it was judged: this trace format cannot be watched event by event`,
        );
        records.pop();
        recordLines.pop();
        continue;
      }
      for (let k = pushedJson.length; k < trace.events.length; k++) {
        pushedJson.push(JSON.stringify(trace.events[k]));
        push(trace.events[k], line);
      }
      continue;
    }
    if (isHeaderLine(value)) {
      if (monitor !== undefined) {
        refuse(line, "a trajectory header must come before the first event");
        continue;
      }
      const given = value.trajectory;
      if (!isObject(given) || typeof given.id !== "string" || given.id === "") {
        refuse(line, "trajectory.id must be a non-empty string");
        continue;
      }
      if (options.id === undefined) header = { id: given.id, description: typeof given.description === "string" ? given.description : "" };
      continue;
    }
    const whole = isObject(value) && "trajectory" in value ? value.trajectory : value;
    if (looksLikeTrajectory(whole) && isObject(whole) && Array.isArray(whole.events)) {
      if (monitor !== undefined) {
        refuse(line, "a whole trajectory can only be watched on its own, not after events");
        continue;
      }
      if (options.id === undefined && typeof whole.id === "string" && whole.id !== "") {
        header = { id: whole.id, description: typeof whole.description === "string" ? whole.description : "" };
      }
      open();
      for (const event of whole.events) push(event, line);
      if (typeof whole.complete === "boolean") ended = whole.complete;
      break;
    }
    push(value, line);
  }
  const complete = ended ?? options.complete ?? importedComplete ?? false;
  const judgment = await open().end({ complete });
  return { judgment, events: count, refused };
}
