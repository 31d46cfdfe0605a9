/**
 * `judge --workers N` and `calibrate --workers N`: judging on worker threads
 * (pool-worker.ts), with the results in input order and byte for byte what a
 * single-threaded run gives.
 *
 * What runs where: this thread reads each JSONL file and splits it into
 * lines (cheap), sends batches of raw lines to the workers, and puts their
 * results back in order for the outputs. The workers decode, parse, import
 * and judge, which is what costs. A .json file is one job: its worker reads
 * it too. Only a bounded number of jobs is in flight, so memory stays
 * bounded whatever the input's size.
 *
 * Index bookkeeping keeps the single-threaded numbering: a JSONL batch
 * numbers its cases from 0 and says how many indexes its lines took; this
 * thread adds the indexes of the lines before. JSONL lines that are not
 * trajectories come back raw and are imported together at the file's end,
 * here, as the reader does.
 *
 * A worker that dies (an exception outside a case, process.exit, out of
 * memory) takes no results with it: its job is judged again one announced
 * case at a time, and a case a worker dies judging, or the line or file it
 * dies reading, comes out as a failed case with its location, under the
 * index it would have had; the dead worker is replaced and the rest run.
 */
import { createReadStream, statSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { printable } from "../report/printable.js";
import { byteLines } from "../files/byte-lines.js";
import { readError, type InputCase } from "../inputs/case.js";
import { readCases } from "../inputs/inputs.js";
import type { TraceReadOptions } from "../inputs/trace-inputs.js";
import { loadImporters } from "../inputs/importers.js";
import { readJsonlLine, traceLinesCases } from "../inputs/jsonl.js";
import { groupSessions } from "../inputs/claude-code-sessions.js";
import type { MetaBehaviorJudgment, NaReason, TrajectoryJudgment, Verdict } from "../../runtime/types.js";
import { judgeCases, type CaseResult, type JudgedCase, type OutputRender, type RunOptions } from "./judge-cases.js";
import type { JudgeCode, JudgeModule } from "./load.js";
import { STDIN } from "../inputs/stream-inputs.js";
import {
  crashMessage,
  NA_REASON_CODES,
  VERDICT_CODES,
  type CompactCase,
  type Isolation,
  type Job,
  type JobOutcome,
  type LinesJob,
  type SentResult,
  type WorkerMessage,
  type WorkerSetup,
} from "./pool-worker.js";

export interface PoolOptions {
  /** Worker threads (at least 2; one thread is judgeCases itself). */
  workers: number;
  /** Send trajectories back from the workers (the report sinks show them). */
  keepTrajectories: boolean;
  /** Render each judged case's stdout on the workers (pool-worker.ts): only when no report needs the judgments whole. */
  render?: OutputRender;
  /** A JSONL batch ends at this many bytes of lines… */
  batchBytes?: number;
  /** …or this many lines, whichever comes first. */
  batchLines?: number;
}

/**
 * Batches of 64 KB: a worker holds a batch's results until it ends, and
 * results held long survive the young generation and cost full collections
 * (1 MB batches took half again the CPU on a 30 MB corpus); smaller ones
 * wake the threads more often, which costs when the machine is busy.
 */
const BATCH_BYTES = 1 << 16;
const BATCH_LINES = 128;
/** Read in large chunks: each one is a round trip to the I/O threads. */
const READ_CHUNK = 1 << 20;
/** Jobs in flight per worker: one running, the others queued so a worker never waits for this thread. */
const JOBS_PER_WORKER = 8;
/** .json files per job, at most. */
const FILES_PER_JOB = 32;

/**
 * The worker entry. Under vitest this module is the TypeScript source, which
 * a worker thread cannot load: the build's entry is used then (the test
 * setup compiles dist/ first).
 */
function workerEntry(): URL {
  if (import.meta.url.endsWith(".ts")) return new URL("../../dist/compiler/run/pool-worker.js", import.meta.url);
  return new URL("./pool-worker.js", import.meta.url);
}

interface Pending {
  job: Job;
  resolve: (outcome: JobOutcome) => void;
  reject: (error: Error) => void;
  /** What an isolated job announced last: the case it was judging, or the place it was reading. */
  last?: Announced;
}

type Announced = { kind: "begin"; ordinal: number } | { kind: "reading"; unit: number; ordinal: number };

interface Thread {
  worker: Worker;
  jobs: Pending[];
  ready: boolean;
  error?: Error;
}

/** N worker threads taking jobs in order; a job resolves once, whatever happens to the threads. */
class WorkerPool {
  private readonly threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private closed = false;
  /** Set when a worker could not even load the judge: nothing would ever run. */
  private failure: Error | undefined;

  constructor(
    private readonly size: number,
    private readonly setup: WorkerSetup,
  ) {}

  run(job: Omit<LinesJob, "id"> | Omit<Job, "id">): Promise<JobOutcome> {
    const outcome = new Promise<JobOutcome>((resolve, reject) => {
      if (this.failure !== undefined) return reject(this.failure);
      this.queue.push({ job: { ...job, id: this.nextId++ } as Job, resolve, reject });
      this.dispatch();
    });
    // Awaited in input order, maybe never (the run stopped at an earlier failure): not an unhandled rejection meanwhile.
    outcome.catch(() => {});
    return outcome;
  }

  /** Hands queued jobs to the least busy thread, starting threads up to `size` while every one is busy. */
  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      let thread = this.threads.reduce<Thread | undefined>(
        (best, t) => (best === undefined || t.jobs.length < best.jobs.length ? t : best),
        undefined,
      );
      if ((thread === undefined || thread.jobs.length > 0) && this.threads.length < this.size) thread = this.start();
      if (thread === undefined || thread.jobs.length >= JOBS_PER_WORKER) return;
      const pending = this.queue.shift()!;
      thread.jobs.push(pending);
      // Copied, not transferred: a job whose worker dies is sent again.
      thread.worker.postMessage(pending.job);
    }
  }

  private start(): Thread {
    // What a judge prints is forwarded by hand: piping each worker's streams into this process's would add
    // listeners to stdout and stderr that a terminated worker never removes.
    const worker = new Worker(workerEntry(), { workerData: this.setup, stdout: true, stderr: true });
    worker.stdout.on("data", (chunk: Buffer) => void process.stdout.write(chunk));
    worker.stderr.on("data", (chunk: Buffer) => void process.stderr.write(chunk));
    const thread: Thread = { worker, jobs: [], ready: false };
    this.threads.push(thread);
    worker.on("message", (message: WorkerMessage) => this.received(thread, message));
    worker.on("error", (error) => (thread.error = error));
    worker.on("exit", (code) => this.exited(thread, code));
    return thread;
  }

  private received(thread: Thread, message: WorkerMessage): void {
    if (message.kind === "ready") {
      thread.ready = true;
      return;
    }
    const pending = thread.jobs[0]!;
    if (message.kind === "begin") {
      pending.last = { kind: "begin", ordinal: message.ordinal };
      return;
    }
    if (message.kind === "reading") {
      pending.last = { kind: "reading", unit: message.unit, ordinal: message.ordinal };
      return;
    }
    thread.jobs.shift();
    const { results, consumed, traces, warnings } = message;
    pending.resolve({ results, consumed, traces, warnings });
    this.dispatch();
  }

  private exited(thread: Thread, code: number): void {
    this.threads.splice(this.threads.indexOf(thread), 1);
    if (this.closed) return;
    const reason = thread.error?.message ?? `it exited with code ${code}`;
    if (!thread.ready) {
      // The judge did not even load in a worker: no job could ever run.
      const failure = new Error(`a worker thread could not start: ${reason}`);
      this.failure = failure;
      for (const pending of [...this.queue.splice(0), ...thread.jobs, ...this.threads.flatMap((t) => t.jobs)]) pending.reject(failure);
      this.close();
      return;
    }
    const [running, ...waiting] = thread.jobs;
    // Jobs queued behind the one that died never started: they run as they are.
    this.queue.unshift(...waiting.map(({ job, resolve, reject }) => ({ job, resolve, reject })));
    if (running !== undefined) this.retry(running, reason);
    this.dispatch();
  }

  /**
   * A job whose worker died: first judged again case by case, announced;
   * then without each case a worker died judging (that case comes out
   * failed) and without each line or file it died reading (a failed case
   * stands in for it, under its index, so the cases after keep theirs).
   * Every death marks a new place, after the ones marked before, so this
   * ends. A worker that dies twice at one marked place, or before it
   * announced anything, leaves nothing narrower to blame: every case of the
   * job comes out failed, saying so.
   */
  private retry(pending: Pending, reason: string): void {
    const { job, last } = pending;
    const again = (isolation: Isolation): void => {
      this.queue.unshift({ job: { ...job, isolation }, resolve: pending.resolve, reject: pending.reject });
    };
    if (job.isolation === undefined) return again({ crashed: [], unreadable: [] });
    const { crashed, unreadable } = job.isolation;
    if (last?.kind === "begin" && !crashed.some(([ordinal]) => ordinal === last.ordinal)) {
      return again({ crashed: [...crashed, [last.ordinal, crashMessage(reason)]], unreadable });
    }
    if (last?.kind === "reading" && !unreadable.some((u) => u.unit === last.unit)) {
      return again({ crashed, unreadable: [...unreadable, { unit: last.unit, ordinal: last.ordinal, reason }] });
    }
    pending.resolve(diedReading(job, reason));
  }

  close(): void {
    this.closed = true;
    for (const { worker } of this.threads) void worker.terminate();
  }
}

/**
 * A job no isolation could narrow down (pool.retry): each of its non-blank
 * lines, or each of its files, is a failed case saying so, so no case is
 * left out unsaid and the cases after keep their indexes.
 */
function diedReading(job: Job, reason: string): JobOutcome {
  const error = `a worker thread died again and again on the job holding this ${job.kind === "lines" ? "line" : "file"} (${printable(reason)}); it was not judged`;
  const failed = (input: InputCase): SentResult => ({ kind: "failed", input, message: error });
  if (job.kind === "file")
    return { results: job.files.map((file) => failed({ file, index: 0, error })), consumed: 0, traces: [], warnings: [] };
  const results: SentResult[] = [];
  let start = 0;
  job.ends.forEach((end, i) => {
    const blank = job.data.subarray(start, end).every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d);
    start = end;
    if (!blank) results.push(failed({ file: job.file, index: results.length, line: job.firstLine + i, error }));
  });
  return { results, consumed: results.length, traces: [], warnings: [] };
}

/**
 * One step of the run, in input order. A worker job's outcome is awaited
 * when its turn comes; the rest runs on this thread then, when everything
 * before it is known (the index a JSONL file has reached, its trace lines).
 */
type Step =
  | { kind: "lines"; file: string; outcome: Promise<JobOutcome> }
  | { kind: "file"; outcome: Promise<JobOutcome> }
  /** A JSONL file is read: a read error that stopped it, then its trace lines imported together. */
  | { kind: "jsonl-end"; file: string; readFailed?: { line: number; error: string } }
  /** Cases this thread reads and judges itself (a file that could not be opened, standard input). */
  | { kind: "here"; cases: () => AsyncIterable<InputCase> };

async function* justThese(cases: readonly InputCase[]): AsyncGenerator<InputCase> {
  yield* cases;
}

/** Opens a file for reading, or says why it cannot be read. */
async function openJsonl(file: string): Promise<ReturnType<typeof createReadStream> | string> {
  const stream = createReadStream(file, { highWaterMark: READ_CHUNK });
  try {
    await new Promise<void>((resolve, reject) => {
      stream.once("open", () => resolve());
      stream.once("error", reject);
    });
    return stream;
  } catch (error) {
    return readError(error);
  }
}

/** The lines of a JSONL file as batches for the workers, then its end. */
async function* jsonlSteps(file: string, pool: WorkerPool, options: PoolOptions): AsyncGenerator<Step> {
  const stream = await openJsonl(file);
  if (typeof stream === "string") {
    yield { kind: "here", cases: () => justThese([{ file, index: 0, error: stream }]) };
    return;
  }
  const maxBytes = options.batchBytes ?? BATCH_BYTES;
  const maxLines = options.batchLines ?? BATCH_LINES;
  let lines: Uint8Array[] = [];
  let offsets: number[] = [];
  let bytes = 0;
  let lineNumber = 0;
  const flush = (): Step => {
    const data = new Uint8Array(bytes);
    const ends: number[] = [];
    let at = 0;
    for (const line of lines) {
      data.set(line, at);
      at += line.length;
      ends.push(at);
    }
    const job = { kind: "lines" as const, file, data, ends, offsets, firstLine: lineNumber - lines.length + 1 };
    lines = [];
    offsets = [];
    bytes = 0;
    return { kind: "lines", file, outcome: pool.run(job) };
  };
  let readFailed: { line: number; error: string } | undefined;
  try {
    for await (const line of byteLines(stream)) {
      lineNumber++;
      lines.push(line.bytes);
      offsets.push(line.offset);
      bytes += line.bytes.length;
      if (bytes >= maxBytes || lines.length >= maxLines) yield flush();
    }
  } catch (error) {
    // A read that fails mid-file ends this file only, as in the single-threaded reader.
    readFailed = { line: lineNumber + 1, error: readError(error) };
  } finally {
    stream.destroy();
  }
  if (lines.length > 0) yield flush();
  yield { kind: "jsonl-end", file, ...(readFailed !== undefined ? { readFailed } : {}) };
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0; // the worker reports it, located
  }
}

/**
 * The steps of a run. Standard input (`-`) is read here, as a whole.
 * Consecutive .json files go to the workers together, up to FILES_PER_JOB
 * of them or a batch's bytes: a message per small file would cost more
 * than reading it.
 */
async function* steps(files: readonly string[], pool: WorkerPool, read: TraceReadOptions, options: PoolOptions): AsyncGenerator<Step> {
  let group: string[] = [];
  let groupBytes = 0;
  const flush = (): Step => {
    const job = { kind: "file" as const, files: group };
    group = [];
    groupBytes = 0;
    return { kind: "file", outcome: pool.run(job) };
  };
  for (const { file, companions } of groupSessions(files, read)) {
    const jsonl = /\.jsonl$/i.test(file);
    if (group.length > 0 && (jsonl || file === STDIN)) yield flush();
    // A Claude Code session with its sub-agents' files is one trace: read here, as one.
    if (companions.length > 0) yield { kind: "here", cases: () => readCases([file, ...companions], read) };
    else if (jsonl) yield* jsonlSteps(file, pool, options);
    else if (file === STDIN) yield { kind: "here", cases: () => readCases([file], read) };
    else {
      group.push(file);
      groupBytes += fileSize(file);
      if (group.length >= FILES_PER_JOB || groupBytes >= (options.batchBytes ?? BATCH_BYTES)) yield flush();
    }
  }
  if (group.length > 0) yield flush();
}

/** The worker setup: the read options without their callback (warnings come back as text), the judge options without a model. */
function workerSetup(code: JudgeCode, read: TraceReadOptions, run: RunOptions, options: PoolOptions): WorkerSetup {
  const { onWarning: _onWarning, ...readData } = read;
  return {
    judge: code,
    read: readData,
    judgeOptions: run.verify !== undefined ? { verify: run.verify } : {},
    keepTrajectories: options.keepTrajectories,
    ...(options.render !== undefined ? { render: options.render } : {}),
  };
}

/**
 * Judges every case of `files` on `options.workers` threads and yields the
 * results in input order, as `judgeCases(judge, readCases(files, read), run)`
 * would. `run` must have no model (semantic calls stay on one thread:
 * commands/workers.ts decides). `judge` is the same judge loaded here, for
 * the few cases judged on this thread.
 */
export async function* judgeInWorkers(
  judge: JudgeModule,
  code: JudgeCode,
  files: readonly string[],
  read: TraceReadOptions,
  run: RunOptions,
  options: PoolOptions,
): AsyncGenerator<CaseResult> {
  // This thread reads the lines the workers keep as traces (readJsonlLine, traceLinesCases): the importers are at hand from the start.
  await loadImporters();
  const pool = new WorkerPool(options.workers, workerSetup(code, read, run, options));
  const source = steps(files, pool, read, options);
  const window: Step[] = [];
  const inFlight = () => window.filter((s) => s.kind === "lines" || s.kind === "file").length;
  let exhausted = false;
  const fill = async () => {
    while (!exhausted && inFlight() < options.workers * JOBS_PER_WORKER) {
      const next = await source.next();
      if (next.done === true) exhausted = true;
      else window.push(next.value);
    }
  };
  // Where the JSONL file being put back together has got to.
  let base = 0;
  let traces: unknown[] = [];
  let traceLines: number[] = [];
  try {
    await fill();
    while (window.length > 0) {
      const step = window.shift()!;
      if (step.kind === "here") {
        yield* judgeCases(judge, step.cases(), run);
      } else if (step.kind === "jsonl-end") {
        const ended: InputCase[] =
          step.readFailed !== undefined ? [{ file: step.file, index: base, line: step.readFailed.line, error: step.readFailed.error }] : [];
        yield* judgeCases(judge, justThese([...ended, ...traceLinesCases(traces, traceLines, step.file, base, read)]), run);
        base = 0;
        traces = [];
        traceLines = [];
      } else {
        const outcome = await step.outcome;
        for (const warning of outcome.warnings) read.onWarning?.(warning);
        for (const trace of outcome.traces) {
          const line = readJsonlLine(trace.bytes, trace.offset, { file: "", index: 0, line: trace.line }, read);
          // Read again as the worker read it, so the importers see the very value the reader would have kept.
          if (line.kind !== "trace") continue;
          traces.push(line.value);
          traceLines.push(trace.line);
        }
        for (const sent of outcome.results) {
          const result = sent.kind === "compact" ? expandCompact(sent, step.kind === "lines" ? step.file : "", judge) : sent;
          if (step.kind === "lines") result.input.index += base;
          yield result;
        }
        base += outcome.consumed;
      }
      await fill();
    }
  } finally {
    pool.close();
    await source.return(undefined);
  }
}

const VERDICTS = new Map(Object.entries(VERDICT_CODES).map(([verdict, code]) => [code, verdict as Verdict]));
const NA_REASONS = new Map(Object.entries(NA_REASON_CODES).map(([reason, code]) => [code, reason as NaReason]));

/**
 * A compact case (pool-worker.ts) as the outputs take it: its rendered
 * stdout, and a judgment holding what the tally reads (verdicts, na
 * reasons, error markers); its clauses and evidence stayed in the worker.
 */
function expandCompact(sent: CompactCase, file: string, judge: JudgeModule): JudgedCase {
  const { code } = sent;
  const metaBehaviors: MetaBehaviorJudgment[] = judge.rules.map((rule, i) => {
    const at = 2 + i * 4;
    return {
      name: rule.name,
      verdict: VERDICTS.get(code[at]!)!,
      naReason: code[at + 1] === "-" ? null : NA_REASONS.get(code[at + 1]!)!,
      ...(code[at + 2] === "E" ? { error: true as const } : {}),
      triggered: code[at + 3] === "T",
      clauses: [],
    };
  });
  const judgment: TrajectoryJudgment = {
    behavior: judge.behavior,
    trajectoryId: sent.trajectoryId,
    verdict: VERDICTS.get(code[0]!)!,
    ...(code[1] === "E" ? { error: true as const } : {}),
    metaBehaviors,
  };
  // A lines job's cases come without their file (the job's); a files job's carry theirs.
  return { kind: "judged", input: { file, ...sent.input }, judgment, rendered: sent.rendered };
}
