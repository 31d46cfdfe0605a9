/**
 * Runs a loaded judge over input cases, in input order, with a bounded number
 * in flight. Only the cases in flight are held in memory, so a large JSONL
 * corpus streams through.
 */
import type { JudgeOptions } from "../../runtime/judge.js";
import { emptyUsage, type SemanticUsage } from "../../runtime/semantic.js";
import type { TrajectoryJudgment } from "../../runtime/types.js";
import { describeOrigin, type InputCase } from "./inputs.js";
import { printable } from "../report/printable.js";
import type { JudgeModule } from "./load.js";
import { inSample } from "./sample.js";

export interface CaseResult {
  input: InputCase;
  judgment?: TrajectoryJudgment;
  /** Why the case has no judgment: file, case, line and field. */
  error?: string;
  /** What this case's model calls cost (with a model only): beside the judgment, never in it. */
  usage?: SemanticUsage;
}

function isTrajectoryError(error: unknown): error is Error & { field: string } {
  return error instanceof Error && error.name === "TrajectoryError" && typeof (error as { field?: unknown }).field === "string";
}

/** The located message for a case the judge rejected or failed on; it may quote the trajectory (an id), so it is escaped. */
export function caseErrorMessage(input: InputCase, error: unknown): string {
  return printable(unescapedCaseErrorMessage(input, error));
}

function unescapedCaseErrorMessage(input: InputCase, error: unknown): string {
  const where = describeOrigin(input);
  if (isTrajectoryError(error)) {
    const prefix = input.labeled ? "trajectory" : "";
    const message = error.message.startsWith(error.field) ? error.message.slice(error.field.length).trimStart() : error.message;
    // A whole-trajectory problem has no field; its message is a sentence of its own.
    if (error.field === "") return prefix === "" ? `${where}: ${message}` : `${where}: ${prefix}: ${message}`;
    return `${where}: ${prefix === "" ? error.field : `${prefix}.${error.field}`} ${message}`;
  }
  return `${where}: ${error instanceof Error ? error.message : String(error)}`;
}

/** How one case is judged: the judge's options, and with `sample` only that fraction of trajectories gets the model (the rest are judged deterministically). */
export interface JudgeCaseOptions extends JudgeOptions {
  sample?: number | undefined;
}

export async function judgeOne(judge: JudgeModule, input: InputCase, caseOptions: JudgeCaseOptions): Promise<CaseResult> {
  if (input.error !== undefined) return { input, error: printable(`${describeOrigin(input)}: ${input.error}`) };
  const { sample, ...options } = caseOptions;
  if (sample !== undefined && options.complete !== undefined && !inSample(input.trajectory, sample, `${input.file}#${input.index}`)) delete options.complete;
  const cost = options.complete !== undefined ? { usage: emptyUsage() } : {};
  try {
    return { input, judgment: await judge.judgeTrajectory(input.trajectory, { ...options, ...cost }), ...cost };
  } catch (error) {
    return { input, error: caseErrorMessage(input, error), ...cost };
  }
}

/**
 * Judges every case and yields results in input order, with at most
 * `concurrency` cases in flight (model calls are the only reason to overlap).
 */
export async function* judgeCases(
  judge: JudgeModule,
  cases: AsyncIterable<InputCase>,
  options: JudgeCaseOptions & { concurrency?: number } = {},
): AsyncGenerator<CaseResult> {
  const { concurrency = 1, ...judgeOptions } = options;
  const inFlight: Promise<CaseResult>[] = [];
  for await (const input of cases) {
    inFlight.push(judgeOne(judge, input, judgeOptions));
    if (inFlight.length >= Math.max(1, concurrency)) yield await inFlight.shift()!;
  }
  while (inFlight.length > 0) yield await inFlight.shift()!;
}
