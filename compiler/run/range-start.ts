/**
 * Range workers (range-worker.ts) started before the main thread has loaded
 * the judge and the rest of the run, so their own start (an isolate, the
 * modules, the judge compiled again) overlaps the main thread's. This module
 * imports nothing of the project: `judge` imports it first. judgeRanges
 * (ranges.ts) takes the workers started here and sends each the run's setup;
 * a run that ends up judging on one thread ends them (`stop`).
 */
import { Worker } from "node:worker_threads";
import type { JudgeCode } from "./load.js";

/** What a range worker is started with: the judge's code when it is known (a judge.mjs), to load at once. */
export interface RangeWorkerData {
  judge?: JudgeCode;
}

/** The worker entry; under vitest, the build's (as pool.ts). */
function workerEntry(): URL {
  if (import.meta.url.endsWith(".ts")) return new URL("../../dist/compiler/run/range-worker.js", import.meta.url);
  return new URL("./range-worker.js", import.meta.url);
}

/** A range worker, started: it loads the judge of `judge` (when given) and waits for the run's setup. */
export function startRangeWorker(judge?: JudgeCode): Worker {
  // A young generation of 12 MB: what a worker allocates per case dies young, and V8's default let
  // each worker's heap grow 25 MB more on a large file (peak RSS 267 MB against 214 MB on 110 MB
  // of JSONL, for the same CPU).
  const resourceLimits = { maxYoungGenerationSizeMb: 12 };
  const workerData: RangeWorkerData = judge !== undefined ? { judge } : {};
  return new Worker(workerEntry(), { workerData, stdout: true, stderr: true, resourceLimits });
}

/** Workers started early, for judgeRanges to take (`take`), or to end when the run does not use them. */
export class EarlyWorkers {
  private readonly workers: Worker[];

  constructor(count: number, judge?: JudgeCode) {
    this.workers = Array.from({ length: count }, () => startRangeWorker(judge));
  }

  /** A started worker, if one is left. */
  take(): Worker | undefined {
    return this.workers.shift();
  }

  /** Ends the workers not taken. */
  stop(): void {
    for (const worker of this.workers.splice(0)) void worker.terminate();
  }
}
