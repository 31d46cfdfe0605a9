/**
 * `baseline`: the one-call LLM judge over labeled cases, N runs, with the
 * same figures as `calibrate --runs N`; with `--judge`, the compiled judge's
 * figures beside it. Answers are never cached: each run asks afresh.
 */
import type { TrajectoryJudgment } from "../../runtime/types.js";
import { UsageError } from "../errors.js";
import { renderBaselineReport, type JudgedRuns } from "../report/runs.js";
import { createHostModel, NO_MODEL_NOTICE } from "../model/index.js";
import { judgeBaseline, type BaselineJudgment } from "../analyses/baseline.js";
import { readCases } from "../inputs/inputs.js";
import { loadJudge, type JudgeModule } from "../run/load.js";
import { failureLine, judgeCases, type RunOptions } from "../run/judge-cases.js";
import { Tally } from "../analyses/tally.js";
import { calibrateRuns, collectRuns, summarizeRuns } from "../analyses/repeated-runs.js";
import { loadBehaviorSpec, type BehaviorSpec } from "../behavior-md/load.js";
import { plural } from "../report/plural.js";
import { hostModelOptions } from "./model.js";
import { runOptions, type RunFlags } from "./run-options.js";
import { traceReadOptions, type TraceCommandOptions } from "./trace-flags.js";
import type { TraceReadOptions } from "../inputs/trace-inputs.js";

export interface BaselineCommandOptions extends RunFlags, TraceCommandOptions {
  runs?: number;
  /** A judge.mjs or judge.yaml to run over the same cases, side by side. */
  judge?: string;
  json?: boolean;
}

/**
 * The baseline as a judge module, so it runs through the same ordered pool as
 * the real judge, with the model and the usage booking the pool passes in (a
 * case whose answers were invalid twice throws, and its calls cost just the
 * same: the pool keeps its usage beside the failure).
 */
function baselineModule(spec: BehaviorSpec): JudgeModule {
  return {
    version: "baseline",
    behavior: spec.name,
    irSha256: "",
    rules: spec.sections.map((s) => ({
      name: s.heading,
      trigger: { description: s.heading, kind: "semantic" as const },
      checks: [],
      semanticChecks: [],
    })),
    async judgeTrajectory(trajectory, options = {}) {
      if (options.complete === undefined) throw new Error("the one-call baseline needs a model");
      return asJudgment(spec, await judgeBaseline(spec, trajectory, options.complete, options.usage));
    },
  };
}

function asJudgment(spec: BehaviorSpec, judged: BaselineJudgment): TrajectoryJudgment {
  return {
    behavior: spec.name,
    trajectoryId: judged.trajectoryId,
    verdict: judged.verdict,
    metaBehaviors: judged.metaBehaviors.map((m) => ({
      name: m.name,
      verdict: m.verdict,
      naReason: m.naReason,
      triggered: m.verdict !== "na",
      clauses: [
        { kind: "semantic", quote: m.name, verdict: m.verdict, naReason: m.naReason, citations: m.citations, reasoning: m.reasoning },
      ],
    })),
  };
}

async function runBaseline(
  spec: BehaviorSpec,
  files: readonly string[],
  runs: number,
  options: RunOptions,
  read: TraceReadOptions,
): Promise<JudgedRuns> {
  const judge = baselineModule(spec);
  // Over all runs: what the calls cost.
  const tally = new Tally();
  const { slots, results } = await collectRuns(
    runs,
    judge.rules.map((r) => r.name),
    async function* (run) {
      for await (const result of judgeCases(judge, readCases(files, read), options)) {
        tally.add(result);
        if (result.kind === "failed") process.stderr.write(`baseline run ${run + 1}: error: ${failureLine(result)}\n`);
        const verdicts = result.kind === "judged" ? new Map(result.judgment.metaBehaviors.map((m) => [m.name, m.verdict])) : undefined;
        yield { input: result.input, verdicts };
      }
    },
  );
  return { statistics: summarizeRuns(slots, results), usage: tally.usage };
}

export async function runBaselineCommand(specPath: string, files: readonly string[], options: BaselineCommandOptions): Promise<number> {
  const spec = await loadBehaviorSpec(specPath);
  const runs = options.runs ?? 1;
  const { adapter, description } = await createHostModel(hostModelOptions(options, { cache: false }));
  if (adapter === undefined) throw new UsageError(`baseline needs a model; ${NO_MODEL_NOTICE.replace(/:.*$/, "")}`);
  process.stderr.write(`baseline: ${runs} ${plural(runs, "run")} with ${description}\n`);
  const run = runOptions(options, adapter);
  // `--from`: the same files, read the same way, for both judges.
  const read = traceReadOptions(options);
  const baseline = await runBaseline(spec, files, runs, run, read);
  let compiled: JudgedRuns | undefined;
  if (options.judge !== undefined) {
    const judge = await loadJudge(options.judge);
    compiled = await calibrateRuns(judge, files, runs, { ...run, read });
  }
  if (options.json === true) {
    const judged = compiled !== undefined ? { judge: compiled } : {};
    process.stdout.write(`${JSON.stringify({ suite: spec.name, runs, baseline, ...judged }, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(`${renderBaselineReport(spec.name, baseline, compiled)}\n`);
  return 0;
}
