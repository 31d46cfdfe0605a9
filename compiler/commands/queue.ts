/**
 * `enqueue`, `worker` and `collect`: the Redis Streams commands (queue/).
 * Thin: flags → library call → stderr summary → exit code.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { readCases } from "../inputs/inputs.js";
import { locatedMessage } from "../run/judge-cases.js";
import { loadJudge } from "../run/load.js";
import { connectRedis } from "../queue/redis.js";
import { plural } from "../report/plural.js";
import { openJudgeModel } from "./model.js";
import { runOptions, type RunFlags } from "./run-options.js";
import { traceReadOptions, type TraceCommandOptions } from "./trace-flags.js";

export const DEFAULT_STREAM = "trajectories";
export const DEFAULT_GROUP = "judges";
export const DEFAULT_RESULTS = "verdicts";
/** Long enough that a live worker's slow model calls are not taken from it; a dead worker's entries wait this long. */
export const DEFAULT_CLAIM_AFTER_MS = 300_000;
/**
 * Deliveries of one entry before it is written as a case error: its first
 * (with its batch), then two alone. A worker stopped from outside (a deploy,
 * a SIGKILL) costs a delivery too, so one would be too few.
 */
export const DEFAULT_MAX_DELIVERIES = 3;

export interface EnqueueCommandOptions extends TraceCommandOptions {
  redis: string;
  stream?: string;
}

export async function runEnqueueCommand(files: readonly string[], options: EnqueueCommandOptions): Promise<number> {
  const { enqueueCases } = await import("../queue/enqueue.js");
  const stream = options.stream ?? DEFAULT_STREAM;
  const redis = await connectRedis(options.redis);
  try {
    const totals = await enqueueCases(redis, stream, readCases(files, traceReadOptions(options)), (input) =>
      process.stderr.write(`error: ${locatedMessage(input, input.error ?? "")}\n`),
    );
    process.stderr.write(
      `enqueued ${totals.enqueued} ${plural(totals.enqueued, "trajectory", "trajectories")} to ${stream} at ${redis.where}\n`,
    );
    return totals.unreadable > 0 ? 1 : 0;
  } finally {
    await redis.close();
  }
}

export interface WorkerCommandOptions extends RunFlags {
  redis: string;
  stream?: string;
  group?: string;
  results?: string;
  claimAfter?: number;
  untilEmpty?: boolean;
  batch?: number;
  maxDeliveries?: number;
  consumer?: string;
}

/** Runs until killed, or with --until-empty until the group has nothing left; exit 1 when a case could not be judged. */
export async function runWorkerCommand(judgePath: string, options: WorkerCommandOptions): Promise<number> {
  const { runWorker } = await import("../queue/worker.js");
  const judge = await loadJudge(judgePath);
  const model = await openJudgeModel(options, judge.rules);
  const redis = await connectRedis(options.redis);
  try {
    const totals = await runWorker(judge, redis, {
      stream: options.stream ?? DEFAULT_STREAM,
      group: options.group ?? DEFAULT_GROUP,
      results: options.results ?? DEFAULT_RESULTS,
      claimAfterMs: options.claimAfter ?? DEFAULT_CLAIM_AFTER_MS,
      untilEmpty: options.untilEmpty === true,
      batch: options.batch ?? 16,
      maxDeliveries: options.maxDeliveries ?? DEFAULT_MAX_DELIVERIES,
      // Waiting for work: long reads; draining (--until-empty): short ones, so the last worker leaves soon after the last entry.
      blockMs: options.untilEmpty === true ? 100 : 1000,
      ...(options.consumer !== undefined ? { consumer: options.consumer } : {}),
      run: runOptions(options, model),
      onCaseError: (message) => process.stderr.write(`error: ${message}\n`),
    });
    process.stderr.write(
      `worker ${totals.consumer}: ${totals.acknowledged} judged and acknowledged (${totals.claimed} claimed from other workers), ${totals.caseErrors} could not be judged\n`,
    );
    return totals.caseErrors > 0 ? 1 : 0;
  } finally {
    await redis.close();
  }
}

export interface CollectCommandOptions {
  redis: string;
  results?: string;
  out?: string;
  judge?: string;
}

export async function runCollectCommand(options: CollectCommandOptions): Promise<number> {
  const { collectResults } = await import("../queue/collect.js");
  const { describeJudge } = await import("../queue/records.js");
  const results = options.results ?? DEFAULT_RESULTS;
  const redis = await connectRedis(options.redis);
  // Opened at the first line: a mix of judges refused before any is written leaves no empty file behind.
  let sink: NodeJS.WritableStream | undefined = options.out === undefined ? process.stdout : undefined;
  const out = () => (sink ??= createWriteStream(options.out!));
  try {
    const totals = await collectResults(
      redis,
      results,
      async (line) => {
        const to = out();
        if (!to.write(line)) await once(to, "drain");
      },
      options.judge !== undefined ? { judge: options.judge } : {},
    );
    if (options.out !== undefined) {
      const file = out();
      file.end();
      await once(file, "finish");
    }
    const leftOut = [...totals.leftOut.values()];
    const others = leftOut.reduce((sum, other) => sum + other.results, 0);
    const named = leftOut.map((other) => (other.judge === undefined ? "an unregistered judge" : describeJudge(other.judge))).join("; ");
    const otherJudges =
      others === 0
        ? ""
        : `; ${others} ${plural(others, "result")} of ${leftOut.length === 1 ? "another judge" : `${leftOut.length} other judges`} left out: ${named}`;
    process.stderr.write(
      `collected ${totals.written} ${plural(totals.written, "judgment")} from ${results} (${totals.duplicates} ${plural(totals.duplicates, "duplicate")} dropped${otherJudges})\n`,
    );
    return totals.caseErrors > 0 ? 1 : 0;
  } finally {
    await redis.close();
  }
}
