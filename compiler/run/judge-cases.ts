/**
 * Runs a loaded judge over input cases, in input order, with a bounded number
 * in flight. Only the cases in flight are held in memory, so a large JSONL
 * corpus streams through.
 */
import type { JudgeOptions } from "../../runtime/judge.js";
import { emptyUsage, type SemanticUsage } from "../../runtime/semantic.js";
import type { TrajectoryJudgment } from "../../runtime/types.js";
import { describeOrigin, type CaseOrigin, type FileHold, type InputCase } from "../inputs/case.js";
import { printable } from "../report/printable.js";
import type { JudgeModule } from "./load.js";

/** A case the judge judged. */
export interface JudgedCase {
  kind: "judged";
  input: InputCase;
  judgment: TrajectoryJudgment;
  /** What this case's model calls cost (with a model only): beside the judgment, never in it. */
  usage?: SemanticUsage;
  /**
   * Set by a worker thread (run/pool.ts) when stdout is text or JSON and no
   * report is asked for: the case's stdout, rendered there. `judgment` then
   * holds only what the run's tally reads (verdicts, na reasons, error
   * markers; no clause evidence), so the main thread neither receives nor
   * renders the rest.
   */
  rendered?: RenderedCase;
}

/** A judged case's stdout, rendered on a worker thread: its text block, or its `--json` element without `case` (report/json.ts adds it). */
/** The stdout a worker thread may render for a judged case: `judge`'s text, `--json` or `--jsonl`. */
export type OutputRender = "text" | "json" | "jsonl";

export type RenderedCase = { text: string } | { jsonHead: string } | { lineHead: string };

/** A case that has no judgment: unreadable, malformed, or the judge threw. */
export interface FailedCase {
  kind: "failed";
  input: InputCase;
  /**
   * Why, escaped for printing: the field and what is wrong with it, without
   * the place (that is `input`; `locatedMessage` puts the two together).
   */
  message: string;
  /** What the model calls cost before the case failed (with a model only). */
  usage?: SemanticUsage;
}

export type CaseResult = JudgedCase | FailedCase;

/** `file:line: case N: message`: the one place a case's message gets its location. */
export function locatedMessage(origin: CaseOrigin, message: string): string {
  return `${describeOrigin(origin)}: ${message}`;
}

/** A failed case's message with its place, as stderr and the live page show it. */
export function failureLine(result: FailedCase): string {
  return locatedMessage(result.input, result.message);
}

function isTrajectoryError(error: unknown): error is Error & { field: string } {
  return error instanceof Error && error.name === "TrajectoryError" && typeof (error as { field?: unknown }).field === "string";
}

/** Why the judge rejected or failed on a case; it may quote the trajectory (an id), so it is escaped. */
export function failureMessage(input: InputCase, error: unknown): string {
  return printable(unescapedFailureMessage(input, error));
}

function unescapedFailureMessage(input: InputCase, error: unknown): string {
  if (isTrajectoryError(error)) {
    const prefix = input.labeled ? "trajectory" : "";
    const message = error.message.startsWith(error.field) ? error.message.slice(error.field.length).trimStart() : error.message;
    // A whole-trajectory problem has no field; its message is a sentence of its own.
    if (error.field === "") return prefix === "" ? message : `${prefix}: ${message}`;
    return `${prefix === "" ? error.field : `${prefix}.${error.field}`} ${message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** How one case is judged: the judge's options, and with `sample` only that fraction of trajectories gets the model (the rest are judged deterministically). */
export interface JudgeCaseOptions extends JudgeOptions {
  sample?: number | undefined;
}

/** How a run judges: each case's options, and how many cases may be in flight at once. */
export interface RunOptions extends JudgeCaseOptions {
  concurrency?: number;
}

/** run/sample.ts, loaded with the first case `--sample` decides: it loads node:crypto, which a run without it does not need (issue 26). */
let sampleModule: Promise<typeof import("./sample.js")> | undefined;
const sampling = () => (sampleModule ??= import("./sample.js"));

export async function judgeOne(judge: JudgeModule, input: InputCase, caseOptions: JudgeCaseOptions): Promise<CaseResult> {
  if (input.error !== undefined) return { kind: "failed", input, message: printable(input.error) };
  const { sample, ...options } = caseOptions;
  if (sample !== undefined && options.complete !== undefined && !(await sampling()).caseInSample(input, sample)) delete options.complete;
  const cost = options.complete !== undefined ? { usage: emptyUsage() } : {};
  try {
    return { kind: "judged", input, judgment: await judge.judgeTrajectory(input.trajectory, { ...options, ...cost }), ...cost };
  } catch (error) {
    return { kind: "failed", input, message: failureMessage(input, error), ...cost };
  }
}

/**
 * Judges every case and yields results in input order, with at most
 * `concurrency` cases in flight (model calls are the only reason to overlap).
 * A result is yielded as soon as it is the oldest and done, even while the
 * next case has not arrived (a pipe that is slow to write): a filter answers
 * each line when it can.
 */
export async function* judgeCases(
  judge: JudgeModule,
  cases: AsyncIterable<InputCase>,
  options: RunOptions = {},
): AsyncGenerator<CaseResult> {
  const { concurrency = 1, ...judgeOptions } = options;
  const limit = Math.max(1, concurrency);
  const inFlight: Promise<CaseResult>[] = [];
  const inputs = cases[Symbol.asyncIterator]();
  let next = inputs.next();
  try {
    for (;;) {
      if (inFlight.length >= limit) {
        yield await inFlight.shift()!;
        continue;
      }
      // Both may be ready: the input is taken first, so a fast source fills the window as before.
      const oldest = inFlight[0];
      const winner =
        oldest === undefined ? "input" : await Promise.race([next.then(() => "input" as const), oldest.then(() => "result" as const)]);
      if (winner === "result") {
        yield await inFlight.shift()!;
        continue;
      }
      const input = await next;
      if (input.done === true) break;
      inFlight.push(judgeOne(judge, input.value, judgeOptions));
      next = inputs.next();
    }
    while (inFlight.length > 0) yield await inFlight.shift()!;
  } finally {
    // A consumer that stops early closes the input (a file stream), as for-await would; not awaited,
    // since the read already asked for may wait on a pipe that has nothing more to say yet.
    void inputs.return?.()?.catch(() => {});
  }
}

/**
 * judgeCases over batches of cases (readCaseBatches), a batch of results per
 * batch of cases. Without a model a judgment waits on nothing, so the cases
 * of a batch are judged one after the other and their results yielded
 * together: no race and no promise per case between reader, judge and
 * outputs, which cost more than judging a small trajectory. With a model
 * (`complete`), cases overlap up to `concurrency` and each result is yielded
 * as soon as it is ready, as judgeCases does.
 */
export function judgeCaseBatches(
  judge: JudgeModule,
  batches: AsyncIterable<readonly InputCase[]>,
  options?: RunOptions,
): AsyncGenerator<CaseResult[]>;
/** A FileHold between the batches (readHeldCaseBatches) is passed on as it is, in its place: only without a model. */
export function judgeCaseBatches(
  judge: JudgeModule,
  batches: AsyncIterable<readonly InputCase[] | FileHold>,
  options?: RunOptions,
): AsyncGenerator<CaseResult[] | FileHold>;
export async function* judgeCaseBatches(
  judge: JudgeModule,
  batches: AsyncIterable<readonly InputCase[] | FileHold>,
  options: RunOptions = {},
): AsyncGenerator<CaseResult[] | FileHold> {
  if (options.complete !== undefined) {
    for await (const result of judgeCases(judge, flatten(batches), options)) yield [result];
    return;
  }
  // Without a model, `sample` picks nothing and no case has usage: one options object serves every case.
  const { concurrency: _concurrency, sample: _sample, ...judgeOptions } = options;
  for await (const batch of batches) {
    if (!isCaseBatch(batch)) {
      yield batch;
      continue;
    }
    const results: CaseResult[] = [];
    // judgeOne without a model (`options.complete` unset): the same result, without a copy of the options, nor a
    // promise of its own, per case.
    for (const input of batch) {
      if (input.error !== undefined) {
        results.push({ kind: "failed", input, message: printable(input.error) });
        continue;
      }
      try {
        results.push({ kind: "judged", input, judgment: await judge.judgeTrajectory(input.trajectory, judgeOptions) });
      } catch (error) {
        results.push({ kind: "failed", input, message: failureMessage(input, error) });
      }
    }
    yield results;
  }
}

function isCaseBatch(batch: readonly InputCase[] | FileHold): batch is readonly InputCase[] {
  return Array.isArray(batch);
}

async function* flatten(batches: AsyncIterable<readonly InputCase[] | FileHold>): AsyncGenerator<InputCase> {
  for await (const batch of batches) {
    // Held output is for runs without a model (cases in flight overlap, and a held file would wait on all of them).
    if (!isCaseBatch(batch)) throw new Error("internal error: a held file's cases with a model (run/judge-cases.ts)");
    yield* batch;
  }
}
