/**
 * How a command runs a judge, built once from its flags: verify-on-false,
 * cases in flight, the model (or none, or for a sample), and how trace files
 * are read. `judge`, `calibrate`, `calibrate --runs`, `baseline` and `worker`
 * all start here.
 */
import type { SemanticAdapter } from "../../runtime/semantic.js";
import type { TraceReadOptions } from "../inputs/trace-inputs.js";
import type { RunOptions } from "../run/judge-cases.js";
import type { HostModelOptions } from "../model/index.js";
import type { ModelCommandOptions } from "./model-flags.js";
import { DEFAULT_CONCURRENCY, openJudgeModel } from "./model.js";
import { traceReadOptions, type TraceCommandOptions } from "./trace-flags.js";

export interface RunFlags extends ModelCommandOptions {
  /** `--no-verify` makes it false. */
  verify?: boolean;
}

/** The judge's options for a run with `model` (undefined: no model, semantic clauses are na). */
export function runOptions(flags: RunFlags, model: SemanticAdapter | undefined): RunOptions {
  return {
    verify: flags.verify !== false,
    concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY,
    ...(model !== undefined ? { complete: model } : {}),
    // `--sample` (judge, worker): only that fraction of trajectories gets the model.
    ...(flags.sample !== undefined ? { sample: flags.sample } : {}),
  };
}

export interface CommandRun {
  /** The host model; without one no call is made and no usage line is printed. */
  model: SemanticAdapter | undefined;
  options: RunOptions;
  read: TraceReadOptions;
}

/** Opens the host model for `rules` (with its one notice when there is none) and builds the run from the flags. */
export async function openRun(
  flags: RunFlags & TraceCommandOptions,
  rules: Parameters<typeof openJudgeModel>[1],
  overrides: Partial<HostModelOptions> = {},
): Promise<CommandRun> {
  const model = await openJudgeModel(flags, rules, overrides);
  return { model, options: runOptions(flags, model), read: traceReadOptions(flags) };
}
