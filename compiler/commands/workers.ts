/**
 * `--workers N` of `judge` and `calibrate`: how many threads judge, and the
 * results of a run from either path. One thread is judgeCases over
 * readCases, exactly as before; more is run/pool.ts. The outputs cannot
 * tell them apart.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { availableParallelism, loadavg } from "node:os";
import { readCaseBatches, readHeldCaseBatches } from "../inputs/inputs.js";
import type { FileHold } from "../inputs/case.js";
import { judgeCaseBatches, type CaseResult, type OutputRender } from "../run/judge-cases.js";
import { STDIN } from "../inputs/stream-inputs.js";
import { isJudgeModulePath, type JudgeCode, type JudgeModule } from "../run/load.js";
import type { EarlyWorkers } from "../run/range-start.js";
import type { CommandRun } from "./run-options.js";
import type { RenderedRun } from "../report/sink.js";
import type { WorkersFlags } from "./workers-flag.js";

export { addWorkersOption, type WorkersFlags } from "./workers-flag.js";

/**
 * Below this many bytes of input the default starts no threads: each worker
 * costs a start, the judge loaded and compiled again, and a run's worth of
 * garbage collection of its own (0.6 to 0.7 s of CPU for two, measured),
 * which two threads earn back only on a few tens of megabytes of small
 * trajectories (docs/SPEED.md "Threads: what pays").
 */
export const THREADS_FROM_BYTES = 32 << 20;

/**
 * The default starts threads only when this many cores are free. Two are not
 * enough: on two free cores of the 2-core machines this project is measured
 * on, `--workers 2` judged the 110 MB corpus in 0.8 to 0.9 times the speed of
 * one thread, and even two separate processes judging half the file each
 * reached only 1.0 to 1.2 times, because the two cores slow each other down
 * on parsing and allocating (docs/SPEED.md "Threads on two free cores").
 * Three or more were never measured; they keep the thread-per-free-core rule.
 */
export const THREADS_FROM_FREE_CORES = 3;

/** The inputs' size in bytes, as far as it is known (standard input and unreadable files count nothing). */
function inputBytes(files: readonly string[]): number {
  let total = 0;
  for (const file of files) {
    if (file === STDIN) continue;
    try {
      total += statSync(file).size;
    } catch {
      // The reader reports it, located, as the case it is.
    }
  }
  return total;
}

/**
 * The cores other work leaves free, from the load average of the last
 * minute (runnable tasks, averaged): on a 2-core machine a load of 1 leaves
 * one core, and 2 or more leaves none. Rounded to the nearest core, so a
 * load of 0.3 still leaves both.
 */
export function freeCores(cores: number, load: number): number {
  return Math.max(0, Math.min(cores, Math.round(cores - load)));
}

/**
 * How many threads judge: what --workers says, else, by default, what pays
 * (docs/SPEED.md "Threads: what pays"): one thread unless the run can be
 * judged in byte ranges (`ranges`: `judge` without a report, on one JSONL
 * file; run/ranges.ts), the file is large enough to repay starting workers,
 * and at least THREADS_FROM_FREE_CORES cores are free of other work; then a
 * thread per free core. Workers on busy cores only add their own costs, and workers fed
 * lines by the main thread (several files, calibrate, a report) did not pay
 * even on free cores: they judged slower than one thread. A model keeps it
 * to one: its calls wait on the network, not the CPU, and the request rate
 * and the answer cache are one thread's to keep. Judging is CPU-bound, so
 * more threads than cores only add a heap each and contention (--workers 64
 * on 2 cores once took 1.3 GB and five times as long): --workers is capped
 * at the cores available, with a notice.
 */
export function threadCount(
  flags: WorkersFlags,
  files: readonly string[],
  model: boolean,
  notice: (line: string) => void,
  cores: number = availableParallelism(),
  load: number = loadavg()[0]!,
  ranges = false,
): number {
  if (model) {
    if (flags.workers !== undefined && flags.workers > 1)
      notice(`--workers ${flags.workers}: a model is configured, so judging stays on one thread (--concurrency overlaps its calls)`);
    return 1;
  }
  if (flags.workers !== undefined) {
    if (flags.workers <= cores) return flags.workers;
    notice(
      `--workers ${flags.workers}: this machine has ${cores} ${cores === 1 ? "core" : "cores"} available, so judging runs on ${cores} ${cores === 1 ? "thread" : "threads"} (more threads than cores only cost memory)`,
    );
    return cores;
  }
  if (!ranges || !rangeable(files) || inputBytes(files) < THREADS_FROM_BYTES) return 1;
  const free = freeCores(cores, load);
  return free < THREADS_FROM_FREE_CORES ? 1 : free;
}

/**
 * Range workers (run/range-start.ts) started before the judge is loaded,
 * when the run will likely judge one JSONL file in ranges on several
 * threads (threadCount with no model, no report asked): their start
 * overlaps the main thread's. The run takes them (judgedOutput) or, if it
 * judges otherwise after all (a model is configured), stops them.
 */
export async function earlyRangeWorkers(
  judgePath: string,
  files: readonly string[],
  flags: WorkersFlags,
  reports: boolean,
): Promise<EarlyWorkers | undefined> {
  if (reports || !rangeable(files)) return undefined;
  const threads = threadCount(flags, files, false, () => undefined, undefined, undefined, true);
  // A file of one range (run/ranges.ts MIN_RANGE_BYTES) is judged on the main thread alone.
  if (threads <= 1 || inputBytes(files) <= 1 << 20) return undefined;
  const { EarlyWorkers } = await import("../run/range-start.js");
  // A judge.mjs loads from its path at once; a judge.yaml's compiled source comes with the run's setup.
  return new EarlyWorkers(threads - 1, isJudgeModulePath(judgePath) ? { path: resolve(judgePath) } : undefined);
}

/**
 * What the outputs of a run need of each result, so worker threads send no
 * more: `keepTrajectories`, the trajectories (the reports show them; text,
 * JSON and calibrate do not); `render`, only a judged case's stdout (text,
 * `--json` or `--jsonl`) and what the tally counts (judge without reports).
 */
export interface OutputNeeds {
  keepTrajectories: boolean;
  render?: OutputRender;
}

/** Every case of `files` judged, in input order, on `threads` threads. */
export async function* judgedFiles(
  loaded: { judge: JudgeModule; code: JudgeCode },
  files: readonly string[],
  run: CommandRun,
  threads: number,
  needs: OutputNeeds,
): AsyncGenerator<CaseResult> {
  for await (const results of judgedBatches(loaded, files, run, threads, needs)) {
    if (isBatch(results)) yield* results;
    else yield results;
  }
}

function isBatch(results: CaseResult | readonly CaseResult[]): results is readonly CaseResult[] {
  return Array.isArray(results);
}

/** Whether `files` can be judged in byte ranges (run/ranges.ts): one `.jsonl` file, a regular file. */
export function rangeable(files: readonly string[]): boolean {
  if (files.length !== 1 || files[0] === STDIN || !/\.jsonl$/i.test(files[0]!)) return false;
  try {
    return statSync(files[0]!).isFile();
  } catch {
    return false;
  }
}

/**
 * `judge`'s results as they come: judgedBatches, or, when the workers may
 * render stdout themselves and the input is one JSONL file, the file judged
 * in byte ranges a worker reads each (run/ranges.ts), whose judged cases
 * come rendered.
 */
export async function* judgedOutput(
  loaded: { judge: JudgeModule; code: JudgeCode },
  files: readonly string[],
  run: CommandRun,
  threads: number,
  needs: OutputNeeds,
  early?: EarlyWorkers,
): AsyncGenerator<CaseResult | readonly CaseResult[] | RenderedRun | FileHold> {
  if (threads > 1 && needs.render !== undefined && rangeable(files)) {
    const { judgeRanges } = await import("../run/ranges.js");
    const options = { workers: threads, render: needs.render, ...(early !== undefined ? { early } : {}) };
    yield* judgeRanges(loaded.judge, loaded.code, files[0]!, run.read, run.options, options);
    return;
  }
  early?.stop();
  // One thread, no model, no report (their sinks keep whole results): a .json array may be read an element at a
  // time, its output held until it is all read (inputs/held-array.ts); runSinks holds it.
  if (threads <= 1 && needs.render !== undefined && run.options.complete === undefined) {
    yield* judgeCaseBatches(loaded.judge, readHeldCaseBatches(files, run.read), run.options);
    return;
  }
  yield* judgedBatches(loaded, files, run, threads, needs);
}

/**
 * judgedFiles as it comes: on one thread, batches of results (judgeCaseBatches),
 * from worker threads, a result at a time.
 */
export async function* judgedBatches(
  loaded: { judge: JudgeModule; code: JudgeCode },
  files: readonly string[],
  run: CommandRun,
  threads: number,
  needs: OutputNeeds,
): AsyncGenerator<CaseResult | readonly CaseResult[]> {
  if (threads <= 1) {
    yield* judgeCaseBatches(loaded.judge, readCaseBatches(files, run.read), run.options);
    return;
  }
  const { judgeInWorkers } = await import("../run/pool.js");
  yield* judgeInWorkers(loaded.judge, loaded.code, files, run.read, run.options, { workers: threads, ...needs });
}
