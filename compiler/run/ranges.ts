/**
 * `judge --workers N` on one large JSONL file: each worker thread reads a
 * byte range of the file itself (range-worker.ts), parses, judges and
 * renders it, so the main thread does little more than write. The output
 * is byte for byte one thread's (test/judge/ranges.test.ts).
 *
 * The main thread cuts the file into ranges at line breaks (planRanges), a
 * few per worker so a worker slowed by other work on its core holds up the
 * run less, counting the line breaks before each so the workers number
 * lines as one thread does, and the non-blank lines, so they can guess the
 * numbers of its cases. It writes range 0's output as it comes and each
 * later range's once the ones before are written; only a bounded number of
 * ranges is in flight, so what waits to be written stays bounded. Each case
 * gets its number here, in order: a worker's guess is written as it is when
 * it is right (always, but after a trace line or a line of Unicode white
 * space), else corrected (report/sink.ts numberedText).
 *
 * Lines that need the importers come back raw and are read here in their
 * turn (a trace line is kept for the file's end, as the reader does), so a
 * file of traces is judged correctly, but on this thread. A worker that dies
 * (process.exit in a judge, memory) costs the line it died on only: its
 * range is read on by a fresh worker from the last line it sent, each line
 * announced, and the line a worker dies on then is a failed case saying so.
 */
import { statSync } from "node:fs";
import { getHeapStatistics } from "node:v8";
import type { Worker } from "node:worker_threads";
import type { InputCase } from "../inputs/case.js";
import { loadImporters } from "../inputs/importers.js";
import { readJsonlLine, traceLinesCases } from "../inputs/jsonl.js";
import type { TraceReadOptions } from "../inputs/trace-inputs.js";
import { printable } from "../report/printable.js";
import type { RenderedRun } from "../report/sink.js";
import { judgeCaseBatches, type CaseResult, type OutputRender, type RunOptions } from "./judge-cases.js";
import type { JudgeCode, JudgeModule } from "./load.js";
import { crashMessage, readCrashMessage } from "./pool-worker.js";
import { planRanges, type Range } from "./range-plan.js";
import { startRangeWorker, type EarlyWorkers } from "./range-start.js";
import {
  RangeStopped,
  runRange,
  spare,
  type LinePlace,
  type RangeInput,
  type RangeItem,
  type RangeJob,
  type RangeMessage,
  type RangeSetup,
} from "./range-judge.js";

/** A range is at least this large: a range is a message round and a worker's chunk reads. */
export const MIN_RANGE_BYTES = 1 << 20;
/** A range is at most this large, so the output of the ranges waiting to be written stays bounded. */
export const MAX_RANGE_BYTES = 2 << 20;
/** Ranges per worker: enough that a worker on a busy core holds the others up less, few enough to cost nothing. */
const RANGES_PER_WORKER = 4;
/**
 * Ranges read or waiting to be written, per thread: what waits in memory.
 * Three: a worker's range and the next it was sent, and one more, so a
 * thread that is done with its range while the one before it is still
 * judged takes the next rather than waiting.
 */
const WINDOW_PER_THREAD = 3;
/**
 * The longest line the main thread reads itself: a 64th of its heap (about
 * 0.75 MB under --max-old-space-size=32, tens of MB by default). Parsing a
 * line takes several times its length in memory; a longer line goes to a
 * worker, where running out of memory costs that line only, as when the
 * main thread judged nothing (test/judge/pool.test.ts).
 */
const MAIN_LINE_BYTES = Math.floor(getHeapStatistics().heap_size_limit / 64);

export interface RangeOptions {
  workers: number;
  render: OutputRender;
  /** Bytes per read of a worker (tests read in tiny pieces). */
  readBytes?: number;
  /** The size of a range (tests cut small files into many); by default the file's size over 4 ranges a worker, within MIN_RANGE_BYTES and MAX_RANGE_BYTES. */
  rangeBytes?: number;
  /** Workers started before the judge was loaded, taken first; those not needed are stopped. */
  early?: EarlyWorkers;
}

/** What a range's lines gave, and, where a worker died, the line it died on. */
type Item = RangeItem | { kind: "died"; line: number; message: string };

/** A range handed to a worker: its items as they come, until it is done. */
interface InFlight {
  range: Range;
  batches: Item[][];
  done: boolean;
  /** Where a worker that dies goes on from: the last line read (skipped then), or the range's start. */
  resume: LinePlace & { skip: boolean };
  /** A worker died in this range: it is read on carefully, each line announced. */
  careful: boolean;
  /** The line a careful worker announced it reads, or judges, now. */
  announced?: (LinePlace & { stage: "reading" | "judging" }) | undefined;
  wake?: (() => void) | undefined;
}

/** A worker thread, or (no worker) the main thread, which judges ranges between its writes. */
interface Thread {
  worker?: Worker | undefined;
  ready: boolean;
  range?: InFlight | undefined;
  /** A worker's next range, sent while it judges `range`, so it never waits for the main thread between ranges. */
  queued?: InFlight | undefined;
  error?: Error;
}

/** Cases as one batch, for judgeCaseBatches. */
async function* oneBatch(cases: readonly InputCase[]): AsyncGenerator<readonly InputCase[]> {
  yield cases;
}

/**
 * Every case of the JSONL file `file` judged on `options.workers` threads,
 * a range each at a time, in input order: results whole where the main
 * thread must see them (a failed case, a line for the importers), rendered
 * runs of cases otherwise. runSinks takes both.
 */
export async function* judgeRanges(
  judge: JudgeModule,
  code: JudgeCode,
  file: string,
  read: TraceReadOptions,
  run: RunOptions,
  options: RangeOptions,
): AsyncGenerator<CaseResult | CaseResult[] | RenderedRun> {
  const size = statSync(file).size;
  const rangeBytes =
    options.rangeBytes ?? Math.min(MAX_RANGE_BYTES, Math.max(MIN_RANGE_BYTES, Math.ceil(size / (options.workers * RANGES_PER_WORKER))));
  const plan = planRanges(file, size, rangeBytes);
  const { onWarning: _onWarning, ...readData } = read;
  const setup: RangeSetup = {
    judge: code,
    read: readData,
    judgeOptions: run.verify !== undefined ? { verify: run.verify } : {},
    render: options.render,
    ...(options.readBytes !== undefined ? { readBytes: options.readBytes } : {}),
  };
  const threads: Thread[] = [];
  const window: InFlight[] = [];
  let planned = false;
  let failure: Error | undefined;
  let closed = false;
  let nextId = 0;
  /** Wakes the range being written (a batch came, a worker died, the run failed). */
  const wake = (range: InFlight | undefined) => {
    const waiting = range?.wake;
    if (range !== undefined) range.wake = undefined;
    waiting?.();
  };

  /** What a thread's range gave: its items kept in order, its rendered bytes given back once written. */
  const receive = (thread: Thread, message: RangeMessage) => {
    if (message.kind === "ready") {
      thread.ready = true;
      return;
    }
    const range = thread.range!;
    if (message.kind === "begin") {
      range.announced = { ...message.at, stage: message.stage };
      return;
    }
    range.batches.push(message.items);
    // Rendered bytes go back to their thread once written (runSinks calls release), to be filled again.
    for (const item of message.items)
      if (item.kind === "rendered") {
        const buffer = item.bytes.buffer as ArrayBuffer;
        releases.set(item.bytes, thread.worker === undefined ? () => spare(buffer) : () => giveBack(thread, buffer));
      }
    if (message.last !== undefined) range.resume = { ...message.last, skip: true };
    range.announced = undefined;
    if (message.done) {
      range.done = true;
      thread.range = thread.queued;
      thread.queued = undefined;
      dispatch();
    }
    wake(range);
  };

  const start = (): Thread => {
    // A worker started before the judge was loaded (EarlyWorkers) has loaded it meanwhile, if it was a judge.mjs.
    const worker = options.early?.take() ?? startRangeWorker(code);
    const input: RangeInput = { setup };
    worker.postMessage(input);
    worker.stdout.on("data", (chunk: Buffer) => void process.stdout.write(chunk));
    worker.stderr.on("data", (chunk: Buffer) => void process.stderr.write(chunk));
    const thread: Thread = { worker, ready: false };
    threads.push(thread);
    worker.on("message", (message: RangeMessage) => receive(thread, message));
    worker.on("error", (error) => (thread.error = error));
    worker.on("exit", (code) => {
      threads.splice(threads.indexOf(thread), 1);
      if (closed) return;
      const reason = thread.error?.message ?? `it exited with code ${code}`;
      const range = thread.range;
      if (!thread.ready) {
        failure = new Error(`a worker thread could not start: ${reason}`);
        for (const r of window) wake(r);
        return;
      }
      if (range !== undefined) died(range, reason);
      // The range it had not begun goes to the next thread as it was.
      if (thread.queued !== undefined) unread.push(thread.queued);
      // The other ranges still need a thread.
      start();
      dispatch();
    });
    return thread;
  };

  /**
   * The main thread judges ranges too, with the judge it loaded, in turns
   * between its writes (a read's lines at a time). A judge that calls
   * process.exit here does not end the run: its range is given up from the
   * last line handed on and read on by a worker, carefully (as after a
   * worker that died), so the line costs what it costs on a worker.
   */
  const main: Thread = { ready: true };
  let exited = false;
  const exit = process.exit;
  const guarded: JudgeModule = {
    version: judge.version,
    behavior: judge.behavior,
    irSha256: judge.irSha256,
    rules: judge.rules,
    judgeTrajectory: ((...args: Parameters<JudgeModule["judgeTrajectory"]>) => {
      process.exit = ((code?: number | string | null) => {
        exited = true;
        throw new Error(`the judge called process.exit(${code ?? ""})`);
      }) as typeof process.exit;
      try {
        return judge.judgeTrajectory(...args);
      } finally {
        process.exit = exit;
      }
    }) as JudgeModule["judgeTrajectory"],
  };
  const judgeHere = (range: InFlight) => {
    main.range = range;
    const job: RangeJob = { id: nextId++, file, ...range.range };
    const post = (message: RangeMessage) => {
      if (!closed) receive(main, message);
    };
    runRange(guarded, setup, job, post, () => exited || closed, MAIN_LINE_BYTES).catch((error: unknown) => {
      if (closed) return;
      main.range = undefined;
      if (error instanceof RangeStopped) {
        // The judge called process.exit, or a line too long for this thread's heap is next: a worker reads on.
        const reason = exited ? "the judge called process.exit on the main thread" : "a line too long to read on the main thread";
        exited = false;
        died(range, reason);
        if (threads.length === 0) start();
        dispatch();
        return;
      }
      failure = error instanceof Error ? error : new Error(String(error));
      for (const r of window) wake(r);
    });
  };

  const releases = new WeakMap<Uint8Array, () => void>();
  const giveBack = (thread: Thread, buffer: ArrayBuffer) => {
    if (closed || !threads.includes(thread)) return;
    const input: RangeInput = { spare: buffer };
    thread.worker!.postMessage(input, [buffer]);
  };

  /** Ranges sent to a worker that died before it began them: sent again, as they were, before the plan's next. */
  const unread: InFlight[] = [];
  /** Ranges whose worker died, to be read on from where it was, first. */
  const again: InFlight[] = [];
  /**
   * A worker died in `range`: it is read on carefully from the last line
   * read. A careful worker said which line it died on: that line is a failed
   * case, and the range is read on after it. One that died before it
   * announced any line leaves nothing to blame: the rest of the range is
   * one failed case.
   */
  const died = (range: InFlight, reason: string) => {
    if (!range.careful) range.careful = true;
    else if (range.announced !== undefined) {
      const { line, offset, stage } = range.announced;
      range.batches.push([{ kind: "died", line, message: stage === "reading" ? readCrashMessage("case", reason) : crashMessage(reason) }]);
      range.resume = { line, offset, skip: true };
    } else {
      const line = range.resume.line + (range.resume.skip ? 1 : 0);
      const message = `the worker thread reading this line and the rest of its part of the file (to byte ${range.range.end}) died (${printable(reason)}); they were not judged, the other lines were`;
      range.batches.push([{ kind: "died", line, message }]);
      range.done = true;
      wake(range);
      return;
    }
    range.announced = undefined;
    again.push(range);
    wake(range);
  };

  /** The next range of the plan, in the window, or undefined (the window is full, or the plan is done). */
  const nextRange = (): InFlight | undefined => {
    if (planned || window.length >= options.workers * WINDOW_PER_THREAD) return undefined;
    const next = plan.next();
    if (next.done === true) {
      planned = true;
      return undefined;
    }
    const { start: offset, firstLine: line } = next.value;
    const range: InFlight = { range: next.value, batches: [], done: false, resume: { offset, line, skip: false }, careful: false };
    window.push(range);
    return range;
  };

  /**
   * Hands ranges to idle threads: the main thread first (it is ready at
   * once), then the workers, first those a worker died in, then those a
   * dead worker had not begun, then the next while the window has room. A
   * worker judging a range as it was cut also gets its next one, to begin
   * when it is done, so it does not wait for the main thread between
   * ranges (the main thread may be judging a read of its own).
   */
  const dispatch = () => {
    if (closed) return;
    const fresh = () => unread.shift() ?? nextRange();
    if (main.range === undefined) {
      const range = fresh();
      if (range !== undefined) judgeHere(range);
    }
    for (const thread of threads) {
      if (thread.range === undefined) {
        const retry = again.shift();
        if (retry !== undefined) {
          thread.range = retry;
          const { offset, line, skip } = retry.resume;
          const job: RangeJob = {
            id: nextId++,
            file,
            start: offset,
            end: retry.range.end,
            firstLine: line,
            firstCase: 0,
            skipFirst: skip,
            careful: true,
          };
          thread.worker!.postMessage(job);
          continue;
        }
        const range = fresh();
        if (range === undefined) continue;
        thread.range = range;
        thread.worker!.postMessage({ id: nextId++, file, ...range.range } satisfies RangeJob);
      }
      if (thread.queued !== undefined || thread.range.careful) continue;
      const next = fresh();
      if (next === undefined) continue;
      thread.queued = next;
      thread.worker!.postMessage({ id: nextId++, file, ...next.range } satisfies RangeJob);
    }
  };

  let index = 0;
  const traces: unknown[] = [];
  const traceLines: number[] = [];
  try {
    // The main thread is one of the threads: it starts judging at once, the workers once they are up;
    // no more workers than there are ranges besides the main thread's first (a small file starts none).
    const workers = Math.min(options.workers - 1, Math.ceil(size / rangeBytes) - 1);
    for (let i = 0; i < workers; i++) start();
    options.early?.stop();
    dispatch();
    while (window.length > 0) {
      const range = window[0]!;
      for (;;) {
        if (failure !== undefined) throw failure;
        const items = range.batches.shift();
        if (items !== undefined) {
          for (const item of items) {
            if (item.kind === "rendered") {
              const { bytes, cuts, numbered, cases, tally } = item;
              const release = releases.get(bytes);
              yield { kind: "rendered", bytes, cuts, numbered, first: index, cases, tally, ...(release !== undefined ? { release } : {}) };
              index += cases;
            } else if (item.kind === "result") {
              const { result } = item;
              result.input.index = index++;
              yield result;
            } else if (item.kind === "warning") read.onWarning?.(item.message);
            else if (item.kind === "died") {
              const error = item.message;
              yield { kind: "failed", input: { file, index: index++, line: item.line, error }, message: error };
            } else {
              // As the single-threaded reader reads such a line (inputs/jsonl.ts readJsonlBatches).
              await loadImporters();
              const line = readJsonlLine(item.bytes, item.offset, { file, index, line: item.line }, read);
              if (line.kind === "blank") continue;
              if (line.kind === "trace") {
                traces.push(line.value);
                traceLines.push(item.line);
                continue;
              }
              index++;
              for await (const results of judgeCaseBatches(judge, oneBatch([...line.cases]), run)) yield results;
            }
          }
          continue;
        }
        if (range.done) break;
        await new Promise<void>((resolve) => (range.wake = resolve));
      }
      window.shift();
      dispatch();
    }
    if (failure !== undefined) throw failure;
    const ended = [...traceLinesCases(traces, traceLines, file, index, read)];
    if (ended.length > 0) for await (const results of judgeCaseBatches(judge, oneBatch(ended), run)) yield results;
  } finally {
    closed = true;
    for (const { worker } of threads) void worker?.terminate();
    plan.return(undefined);
  }
}
