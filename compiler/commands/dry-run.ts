/**
 * `judge --dry-run` and `calibrate --dry-run`: the model calls a run with the
 * same flags would make, counted from the answer cache, with no request sent
 * and no judgment printed. Exit 1 when a case cannot be read or judged.
 */
import { countModelCalls, timesRuns } from "../analyses/dry-run.js";
import { readCases } from "../inputs/inputs.js";
import type { JudgeModule } from "../run/load.js";
import { planHostModel, type HostModelPlan } from "../model/index.js";
import { dryRunReport, renderDryRun, type DryRunContext } from "../report/dry-run.js";
import { hostModelOptions } from "./model.js";
import type { RunFlags } from "./run-options.js";
import { traceReadOptions, type TraceCommandOptions } from "./trace-flags.js";

export interface DryRunFlags extends RunFlags, TraceCommandOptions {
  json?: boolean;
  /** `calibrate --runs N`: N runs without the cache. */
  runs?: number;
}

const NOT_CONFIGURED = "no model configured (set BRAINTRUST_API_KEY or OPENAI_API_KEY, or give --base-url)";

/** The model the flags configure, or why there is none. */
function planModel(flags: DryRunFlags): HostModelPlan | string {
  if (flags.model === false) return "--no-model";
  // `--runs` asks anew every run, as the real command does.
  return planHostModel(hostModelOptions(flags, flags.runs !== undefined ? { cache: false } : {})) ?? NOT_CONFIGURED;
}

export async function runDryRunCommand(
  judge: JudgeModule,
  files: readonly string[],
  flags: DryRunFlags,
  { labeled = false }: { labeled?: boolean } = {},
): Promise<number> {
  const plan = planModel(flags);
  const model = typeof plan === "string" ? undefined : plan;
  const counted = await countModelCalls(judge, readCases(files, traceReadOptions(flags)), {
    ...(model !== undefined ? { model: { cache: model.cache } } : {}),
    verify: flags.verify !== false,
    ...(flags.sample !== undefined ? { sample: flags.sample } : {}),
    requireLabels: labeled,
  });
  const counts = flags.runs !== undefined ? timesRuns(counted, flags.runs) : counted;
  const context: DryRunContext = {
    behavior: judge.behavior,
    ...(typeof plan === "string" ? { noModel: plan } : { model: { name: plan.config.model, description: plan.description } }),
    ...(model?.cache !== undefined ? { cacheDir: model.cache.dir } : {}),
    ...(flags.sample !== undefined ? { sample: flags.sample } : {}),
    verify: flags.verify !== false,
    ...(flags.rpm !== undefined ? { rpm: flags.rpm } : {}),
    ...(flags.runs !== undefined ? { runs: flags.runs } : {}),
  };
  const report = dryRunReport(counts, context);
  for (const failure of report.failures) process.stderr.write(`error: ${failure}\n`);
  const out = flags.json === true ? [JSON.stringify(report, null, 2)] : renderDryRun(report);
  for (const line of out) process.stdout.write(`${line}\n`);
  return report.failed > 0 ? 1 : 0;
}
