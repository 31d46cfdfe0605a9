/** `calibrate`: labeled cases against the compiled judge; exit 1 on any disagreement or error. */
import { calibrateResults, calibrationPassed, UNLABELED } from "../analyses/calibrate.js";
import { caseErrorOf, judgedTrajectory, writeReportFiles } from "../report/outputs.js";
import type { CaseError, ReportResult } from "../report/html.js";
import type { CaseResult } from "../run/judge-cases.js";
import { compareLabels } from "../../testing/labels.js";
import { proposedBy } from "../analyses/label.js";
import { renderCalibrationTotals, renderComparison } from "../report/calibration.js";
import { loadJudgeCode, type JudgeModule } from "../run/load.js";
import { renderRunSummary, renderUsageLine } from "../report/summary.js";
import { allRunsPerfect, calibrateRuns } from "../analyses/repeated-runs.js";
import { renderCalibrateRuns } from "../report/runs.js";
import { openRun, type RunFlags } from "./run-options.js";
import type { TraceCommandOptions } from "./trace-flags.js";
import { judgedFiles, threadCount, type WorkersFlags } from "./workers.js";
import { NOTHING_JUDGED } from "../analyses/tally.js";

export interface CalibrateCommandOptions extends RunFlags, TraceCommandOptions, WorkersFlags {
  json?: boolean;
  /** Run the judge this many times (cache off) and report agreement statistics. */
  runs?: number;
  /** Exit 1 when a model overturned any deterministic failure, even if every verdict agrees. */
  failOnOverturned?: boolean;
  /** Count the model calls the run would make; judge nothing for real, send nothing. */
  dryRun?: boolean;
  /** Write the HTML report here: each verdict beside its label, disagreements marked. */
  html?: string;
  /** Write a JUnit XML report here: a disagreement with a label is a failure. */
  junit?: string;
}

export async function runCalibrateCommand(judgePath: string, files: readonly string[], options: CalibrateCommandOptions): Promise<number> {
  const loaded = await loadJudgeCode(judgePath);
  const { judge } = loaded;
  if (options.dryRun === true) return (await import("./dry-run.js")).runDryRunCommand(judge, files, options, { labeled: true });
  if (options.runs !== undefined) return runRepeated(judge, files, options, options.runs);
  const text = options.json !== true;
  const run = await openRun(options, judge.rules);
  const threads = threadCount(options, files, run.model !== undefined, (line) => void process.stderr.write(`${line}\n`));
  const reports = options.html !== undefined || options.junit !== undefined;
  const collected = reports ? new ReportCases() : undefined;
  const judged = judgedFiles(loaded, files, run, threads, { keepTrajectories: reports });
  const result = await calibrateResults(judge, collected === undefined ? judged : collected.tap(judged), {
    ...run.options,
    onCase: (c) => {
      if (typeof c === "string") process.stderr.write(`error: ${c}\n`);
      else if (text) process.stdout.write(`${renderComparison(c)}\n`);
    },
  });
  const { tally } = result;
  if (collected !== undefined) {
    const input = {
      behavior: judge.behavior,
      rules: judge.rules,
      ...collected.input(),
      model: run.model !== undefined,
      proposedBy: { ...proposedBy(judge) },
    };
    for (const path of await writeReportFiles(input, options)) process.stderr.write(`wrote ${path}\n`);
  }
  if (text) {
    process.stdout.write(`${renderCalibrationTotals(result.totals)}\n`);
    for (const line of renderRunSummary(tally, { usage: run.model !== undefined })) process.stdout.write(`${line}\n`);
  } else {
    const { comparisons, judgments, totals } = result;
    process.stdout.write(`${JSON.stringify({ comparisons, judgments, totals }, null, 2)}\n`);
    // What the calls cost depends on the run (cache hits are free): with --json it goes to stderr, so stdout depends only on the inputs.
    if (run.model !== undefined) process.stderr.write(`${renderUsageLine(tally.usage)}\n`);
  }
  if (tally.totals.judged + tally.totals.errors === 0) {
    process.stderr.write(`behavior-judge: ${NOTHING_JUDGED}\n`);
    return 1;
  }
  if (options.failOnOverturned === true && result.totals.overturned > 0) return 1;
  return calibrationPassed(result) && tally.clauseErrors === 0 ? 0 : 1;
}

/** What `--html` and `--junit` show: every judged case with its labels compared, and the cases calibrate could not compare. */
class ReportCases {
  private readonly results: ReportResult[] = [];
  private readonly errors: CaseError[] = [];

  async *tap(results: AsyncIterable<CaseResult>): AsyncGenerator<CaseResult> {
    for await (const result of results) {
      this.add(result);
      yield result;
    }
  }

  private add(result: CaseResult): void {
    if (result.kind === "failed") {
      this.errors.push(caseErrorOf(result));
      return;
    }
    const { input, judgment } = result;
    // A case without labels is one calibrate cannot compare: an error, as on stderr.
    if (input.expected === undefined) {
      this.errors.push(caseErrorOf({ kind: "failed", input, message: UNLABELED }));
      return;
    }
    const trajectory = judgedTrajectory(input.trajectory);
    this.results.push({
      file: input.file,
      judgment,
      labels: compareLabels(input.expected, judgment),
      ...(trajectory !== undefined ? { trajectory } : {}),
    });
  }

  input(): { results: ReportResult[]; errors: CaseError[] } {
    return { results: this.results, errors: this.errors };
  }
}

/** `--runs N`: fresh answers every run (the cache would make every run the first). */
async function runRepeated(judge: JudgeModule, files: readonly string[], options: CalibrateCommandOptions, runs: number): Promise<number> {
  const run = await openRun(options, judge.rules, { cache: false });
  const { statistics, usage, verifications } = await calibrateRuns(judge, files, runs, { ...run.options, read: run.read });
  if (options.json === true)
    process.stdout.write(`${JSON.stringify({ suite: judge.behavior, statistics, overturned: verifications.overturned }, null, 2)}\n`);
  else process.stdout.write(`${renderCalibrateRuns(judge.behavior, statistics, verifications)}\n`);
  if (run.model !== undefined) (options.json === true ? process.stderr : process.stdout).write(`${renderUsageLine(usage)}\n`);
  // Every run of nothing is "perfect": calibrating nothing is a failure, not a pass.
  if (statistics.slots === 0) {
    process.stderr.write(`behavior-judge: ${NOTHING_JUDGED}\n`);
    return 1;
  }
  if (options.failOnOverturned === true && verifications.overturned > 0) return 1;
  return allRunsPerfect(statistics) ? 0 : 1;
}
