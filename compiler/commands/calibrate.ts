/** `calibrate`: labeled cases against the compiled judge; exit 1 on any disagreement or error. */
import { addUsage, clauseErrorCount, emptyUsageTotals, renderUsageLine, usageOf } from "../adapters/usage.js";
import { calibrate, calibrationPassed, renderCalibrationTotals, renderComparison } from "../calibrate.js";
import { readCases } from "../inputs.js";
import { loadJudge, type JudgeModule } from "../load.js";
import { allRunsPerfect, calibrateRuns, renderRunStatistics } from "../runs.js";
import type { ModelCommandOptions } from "./model-flags.js";
import { DEFAULT_CONCURRENCY, openJudgeModel } from "./model.js";
import { traceReadOptions, type TraceCommandOptions } from "./trace-flags.js";

export interface CalibrateCommandOptions extends ModelCommandOptions, TraceCommandOptions {
  json?: boolean;
  verify?: boolean;
  /** Run the judge this many times (cache off) and report agreement statistics. */
  runs?: number;
}

export async function runCalibrateCommand(judgePath: string, files: readonly string[], options: CalibrateCommandOptions): Promise<number> {
  const judge = await loadJudge(judgePath);
  if (options.runs !== undefined) return runRepeated(judge, files, options, options.runs);
  const text = options.json !== true;
  const adapter = await openJudgeModel(options, judge.rules);
  const result = await calibrate(judge, readCases(files, traceReadOptions(options)), {
    verify: options.verify !== false,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    ...(adapter !== undefined ? { complete: adapter } : {}),
    onCase: (c) => {
      if (typeof c === "string") process.stderr.write(`error: ${c}\n`);
      else if (text) process.stdout.write(`${renderComparison(c)}\n`);
    },
  });
  const usage = emptyUsageTotals();
  let clauseErrors = 0;
  for (const judgment of result.judgments) {
    addUsage(usage, usageOf(judgment));
    clauseErrors += clauseErrorCount(judgment);
  }
  if (text) {
    process.stdout.write(`${renderCalibrationTotals(result.totals)}\n`);
    if (clauseErrors > 0) process.stdout.write(`${clauseErrors} clause${clauseErrors === 1 ? "" : "s"} got no valid model answer (marked ERROR)\n`);
    if (adapter !== undefined) process.stdout.write(`${renderUsageLine(usage)}\n`);
  } else {
    const { comparisons, judgments, totals } = result;
    const extra = adapter !== undefined ? { usage } : {};
    process.stdout.write(`${JSON.stringify({ comparisons, judgments, totals, ...extra }, null, 2)}\n`);
  }
  return calibrationPassed(result) && clauseErrors === 0 ? 0 : 1;
}

/** `--runs N`: fresh answers every run (the cache would make every run the first). */
async function runRepeated(judge: JudgeModule, files: readonly string[], options: CalibrateCommandOptions, runs: number): Promise<number> {
  const adapter = await openJudgeModel(options, judge.rules, { cache: false });
  const { statistics, usage } = await calibrateRuns(judge, files, runs, {
    read: traceReadOptions(options),
    verify: options.verify !== false,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    ...(adapter !== undefined ? { complete: adapter } : {}),
  });
  if (options.json === true) {
    const extra = adapter !== undefined ? { usage } : {};
    process.stdout.write(`${JSON.stringify({ suite: judge.behavior, statistics, ...extra }, null, 2)}\n`);
  } else {
    process.stdout.write(`${renderRunStatistics(`behavior-judge (${judge.behavior})`, statistics)}\n`);
    if (adapter !== undefined) process.stdout.write(`${renderUsageLine(usage)}\n`);
  }
  return allRunsPerfect(statistics) ? 0 : 1;
}
