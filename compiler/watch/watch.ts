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
 * records so far are imported whenever records arrive (those that arrive
 * together, once: watch-records.ts), and the events the import adds are
 * pushed (a record that changes an event already pushed is refused).
 *
 * Without an end line the trajectory ends where the input does, as
 * incomplete unless `complete` says otherwise (for an imported trace, as the
 * importer detected): a stream that stops may have been cut off.
 */
import { detectFormat, looksLikeTrajectory } from "../../importers/index.js";
import type { JudgeOptions } from "../../runtime/judgment.js";
import { isObject } from "../../runtime/is-object.js";
import type { Monitor, TrajectoryJudgment, Violation } from "../../runtime/types.js";
import { findJsonSyntaxError } from "../files/json-syntax.js";
import type { BuiltJudge } from "../run/load.js";
import { readyBatches, WatchedRecords, type WatchRecord } from "./watch-records.js";

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

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function formatMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Record lines (`--from FORMAT`) fed to `records` in the groups that are
 * ready together; returns the end line's completeness, if one came.
 */
async function feedRecords(
  lines: AsyncIterable<WatchLine>,
  records: WatchedRecords,
  refuse: (line: number, message: string) => void,
  endOf: (line: number, value: { end: unknown }) => boolean | undefined,
): Promise<boolean | undefined> {
  for await (const batch of readyBatches(lines)) {
    let group: WatchRecord[] = [];
    for (const { line, text } of batch) {
      if (text.trim() === "") continue;
      const parsed = parseJson(text);
      // What is said about a line that is not a record comes after what the records before it say.
      if (!parsed.ok || isEndLine(parsed.value)) {
        records.add(group);
        group = [];
      }
      if (!parsed.ok) {
        refuse(line, describeJsonError(text));
        continue;
      }
      if (isEndLine(parsed.value)) {
        const complete = endOf(line, parsed.value);
        if (complete !== undefined) return complete;
        continue;
      }
      group.push({ line, value: parsed.value });
    }
    records.add(group);
  }
  return undefined;
}

/** How many records `watch` without `--from` reads before deciding that the lines are events. */
const DETECT_RECORDS = 8;

/**
 * With `from` "auto": a line that decides the lines are events (an event,
 * header, end line or whole trajectory, or not a JSON object), else the
 * parsed record, for detection.
 */
function recordOf(text: string): Record<string, unknown> | undefined {
  const parsed = parseJson(text);
  if (!parsed.ok || !isObject(parsed.value)) return undefined;
  const value = parsed.value;
  if (isEndLine(value) || isHeaderLine(value) || ("actor" in value && "action" in value)) return undefined;
  if (looksLikeTrajectory("trajectory" in value ? value.trajectory : value)) return undefined;
  return value;
}

/**
 * Reads the first records, up to DETECT_RECORDS, until a trace format is
 * detected from them (a Claude Code, Codex or Gemini CLI session line) or a
 * line shows the input is events; returns that format (or undefined) and the
 * lines, those read included.
 */
async function detectFirst(lines: AsyncIterable<WatchLine>): Promise<{ from: string | undefined; lines: AsyncIterable<WatchLine> }> {
  const iterator = lines[Symbol.asyncIterator]();
  const seen: WatchLine[] = [];
  const records: Record<string, unknown>[] = [];
  let from: string | undefined;
  let done = false;
  while (records.length < DETECT_RECORDS) {
    const next = await iterator.next();
    if (next.done === true) {
      done = true;
      break;
    }
    seen.push(next.value);
    if (next.value.text.trim() === "") continue;
    const record = recordOf(next.value.text);
    if (record === undefined) break;
    records.push(record);
    from = detectFormat(records).format;
    if (from !== undefined) break;
  }
  async function* rest(): AsyncGenerator<WatchLine> {
    yield* seen;
    if (done) return;
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) return;
        yield next.value;
      }
    } finally {
      void iterator.return?.();
    }
  }
  return { from, lines: rest() };
}

export async function watchLines(
  judge: BuiltJudge,
  input: AsyncIterable<WatchLine>,
  given: WatchOptions,
  handlers: WatchHandlers,
): Promise<WatchResult> {
  let lines = input;
  let options = given;
  if (options.from === undefined || options.from === "auto") {
    const first = await detectFirst(input);
    lines = first.lines;
    if (first.from !== undefined) options = { ...options, from: first.from };
  }
  const importing = options.from !== undefined && options.from !== "auto" && options.from !== "trajectory";
  let header: { id: string; description: string } | undefined = options.id === undefined ? undefined : { id: options.id, description: "" };
  let monitor: Monitor | undefined;
  let count = 0;
  let refused = 0;
  let ended: boolean | undefined;
  let importedComplete: boolean | undefined;

  const refuse = (line: number, message: string) => {
    refused++;
    handlers.refused(line, message);
  };
  const open = (): Monitor => {
    monitor ??= judge.createMonitor(header ?? { id: options.fallbackId }, options.judge);
    return monitor;
  };
  /** Pushes one event; a bad one is refused with the monitor unchanged. `line` may be worked out only when needed. */
  const push = (event: unknown, line: number | (() => number)): boolean => {
    const lineOf = () => (typeof line === "number" ? line : line());
    let found: Violation[];
    try {
      found = open().push(event);
    } catch (error) {
      refuse(lineOf(), formatMessage(error));
      return false;
    }
    const eventId = (event as { id: string }).id;
    for (const violation of found) handlers.violation(violation, { index: count, eventId, line: lineOf() });
    count++;
    return true;
  };

  /** An end line's completeness; undefined (refused) when it is not true or false. */
  const endOf = (line: number, value: { end: unknown }): boolean | undefined => {
    const complete = isObject(value.end) ? value.end.complete : undefined;
    if (typeof complete === "boolean") return complete;
    refuse(line, "end.complete must be true or false");
    return undefined;
  };

  if (importing) {
    const records = new WatchedRecords(
      {
        push: (event, line) => void push(event, line),
        refuse,
        traced: (trace) => {
          header ??= { id: trace.id, description: trace.description ?? "" };
          importedComplete = trace.complete;
        },
      },
      options.from!,
      options.complete,
    );
    ended = await feedRecords(lines, records, refuse, endOf);
  } else {
    for await (const { line, text } of lines) {
      if (text.trim() === "") continue;
      const parsed = parseJson(text);
      if (!parsed.ok) {
        refuse(line, describeJsonError(text));
        continue;
      }
      const value = parsed.value;
      if (isEndLine(value)) {
        const complete = endOf(line, value);
        if (complete === undefined) continue;
        ended = complete;
        break;
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
        if (options.id === undefined)
          header = { id: given.id, description: typeof given.description === "string" ? given.description : "" };
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
  }
  const complete = ended ?? options.complete ?? importedComplete ?? false;
  const judgment = await open().end({ complete });
  return { judgment, events: count, refused };
}
