/**
 * `watch --from FORMAT`: lines that are records of a trace format, imported
 * as they come and pushed as events (docs/FORMATS.md §9, README "watch").
 *
 * The importers read a whole trace, not one record at a time, so the records
 * so far are imported again whenever records arrive: an import per line made
 * a file of 8,001 lines cost 8,001 imports of up to 8,001 records (minutes).
 * Records that arrive together (the lines of one read of the input) are
 * imported once, together. A record the import cannot take (one it rejects,
 * one that starts a second trace, one that changes an event already judged)
 * sends its group back to one import per record, so each such record is
 * refused with its own line and the others kept, as when lines come alone.
 */
import { formatIssue, importTrace } from "../../importers/index.js";
import type { ImportIssue, Trajectory } from "../../importers/index.js";

/** One record: its input line and its parsed value. */
export interface WatchRecord {
  line: number;
  value: unknown;
}

/** What the records need from the watch around them. */
export interface RecordSink {
  /** Pushes one event; `line` is asked for only when a violation or a refusal must name it. */
  push(event: unknown, line: () => number): void;
  refuse(line: number, message: string): void;
  /** The imported trace's id, description and completeness, after each import that added events. */
  traced(trace: Trajectory): void;
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

export class WatchedRecords {
  /** Every record kept so far, and its line. */
  private readonly records: unknown[] = [];
  private readonly lines: number[] = [];
  /** The events pushed, as JSON: a later import must leave them as they are. */
  private readonly pushedJson: string[] = [];

  constructor(
    private readonly sink: RecordSink,
    private readonly from: string,
    private readonly complete: boolean | undefined,
  ) {}

  private importAll(count = this.records.length) {
    return importTrace(count === this.records.length ? this.records : this.records.slice(0, count), {
      from: this.from,
      ...(this.complete !== undefined ? { complete: this.complete } : {}),
    });
  }

  /** The first pushed event the trace no longer has as it was, or -1. */
  private changedEvent(trace: Trajectory): number {
    return this.pushedJson.findIndex((json, k) => JSON.stringify(trace.events[k]) !== json);
  }

  /** Records read together: one import for all; any trouble, and each is taken on its own. */
  add(batch: readonly WatchRecord[]): void {
    if (batch.length === 0) return;
    if (batch.length === 1) return this.addOne(batch[0]!);
    const before = this.records.length;
    for (const record of batch) {
      this.records.push(record.value);
      this.lines.push(record.line);
    }
    const result = this.importAll();
    const trace = result.trajectories[0];
    const clean = result.errors.length === 0 && result.trajectories.length <= 1 && (trace === undefined || this.changedEvent(trace) < 0);
    if (!clean) {
      this.records.length = before;
      this.lines.length = before;
      for (const record of batch) this.addOne(record);
      return;
    }
    if (trace === undefined) return;
    const lineOf = this.eventLines(before, batch);
    this.pushNew(trace, lineOf);
  }

  /**
   * The line of the record that brought in event k, for a group imported
   * together: the first record whose prefix import holds event k (a binary
   * search, each count one import, asked only for an event that must be
   * located).
   */
  private eventLines(before: number, batch: readonly WatchRecord[]): (k: number) => number {
    const counts = new Map<number, number>();
    const eventsWith = (m: number): number => {
      let n = counts.get(m);
      if (n === undefined) {
        n = this.importAll(before + m + 1).trajectories[0]?.events.length ?? 0;
        counts.set(m, n);
      }
      return n;
    };
    return (k) => {
      let lo = 0;
      let hi = batch.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (eventsWith(mid) > k) hi = mid;
        else lo = mid + 1;
      }
      return batch[lo]!.line;
    };
  }

  private pushNew(trace: Trajectory, lineOf: (k: number) => number): void {
    this.sink.traced(trace);
    for (let k = this.pushedJson.length; k < trace.events.length; k++) {
      this.pushedJson.push(JSON.stringify(trace.events[k]));
      this.sink.push(trace.events[k], () => lineOf(k));
    }
  }

  /** One record, imported with the records before it; a record that cannot be taken is refused and left out. */
  private addOne({ line, value }: WatchRecord): void {
    this.records.push(value);
    this.lines.push(line);
    const result = this.importAll();
    const leaveOut = (message: string) => {
      this.sink.refuse(line, message);
      this.records.pop();
      this.lines.pop();
    };
    // The records before this one imported cleanly: an error is this record's, and it is left out
    // (kept, it would fail every later import and nothing after it would be judged).
    if (result.errors.length > 0)
      return leaveOut(result.errors.map((issue) => describeRecordIssue(issue, result.format, this.lines)).join("; "));
    const trace = result.trajectories[0];
    // No trace yet (records that open one but hold no event): more records may complete it.
    if (trace === undefined) return;
    if (result.trajectories.length > 1) return leaveOut("the records so far hold more than one trace; watch follows one trajectory");
    const changed = this.changedEvent(trace);
    if (changed >= 0) {
      return leaveOut(
        `importing this record changed event ${changed} (${JSON.stringify(trace.events[changed]?.id)}) after it was judged: this trace format cannot be watched event by event`,
      );
    }
    this.pushNew(trace, () => line);
  }
}

/**
 * The lines of `lines` in groups: each group is what is ready now (the rest
 * of a chunk already read), ended when the next line would have to wait for
 * input. A line is never held back waiting for another.
 */
export async function* readyBatches<T>(lines: AsyncIterable<T>): AsyncGenerator<T[]> {
  const iterator = lines[Symbol.asyncIterator]();
  const NOT_YET = Symbol("not yet");
  let pending = iterator.next();
  try {
    for (;;) {
      const first = await pending;
      if (first.done === true) return;
      const batch = [first.value];
      for (;;) {
        pending = iterator.next();
        const next = await Promise.race([pending, new Promise<typeof NOT_YET>((resolve) => setImmediate(() => resolve(NOT_YET)))]);
        if (next === NOT_YET) break;
        if (next.done === true) {
          yield batch;
          return;
        }
        batch.push(next.value);
      }
      yield batch;
    }
  } finally {
    // Stopped early (an end line): a read may still be waiting for input (the caller stops the
    // input). The lines are closed once it is done, as a `break` out of them would close them.
    pending.then(
      () => void iterator.return?.(),
      () => {},
    );
  }
}
