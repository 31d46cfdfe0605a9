/**
 * `judge`: run a judge over trajectory files and report as text or JSON (and
 * HTML, JUnit, the browser). What only some runs need (the renderer of the
 * other output modes, the reports, the browser check) is imported when the
 * run asks for it: a plain run's start-up loads none of it (issue 26).
 */
import type { JudgeModule } from "../run/load.js";
import { loadJudgeCode } from "../run/load.js";
import { NOTHING_JUDGED, Tally } from "../analyses/tally.js";
import { progressSink } from "../report/progress.js";
import { chunkedWriter, fileWrite, fileWriteBytes, runSinks, writtenBy, type OutputSink } from "../report/sink.js";
import { openRun, type RunFlags } from "./run-options.js";
import type { TraceCommandOptions } from "./trace-flags.js";
import { earlyRangeWorkers, judgedOutput, threadCount, type WorkersFlags } from "./workers.js";
import type { EarlyWorkers } from "../run/range-start.js";

export interface JudgeCommandOptions extends RunFlags, TraceCommandOptions, WorkersFlags {
  json?: boolean;
  /** One JSON line per case, written as it is judged (the `--json` element). */
  jsonl?: boolean;
  failOnFalse?: boolean;
  /** Exit 1 when a model overturned any deterministic failure (verify-on-false). */
  failOnOverturned?: boolean;
  /** Write the self-contained HTML report here. */
  html?: string;
  /** Write the JUnit XML report here. */
  junit?: string;
  /** Serve the browser report (default: on an interactive terminal without --json). */
  web?: boolean;
  /** Count the model calls the run would make; judge nothing for real, send nothing. */
  dryRun?: boolean;
}

/** The judgments on stdout: text, one JSON array, or JSON Lines (with JSON, the summary lines go to stderr). */
async function stdoutSink(options: JudgeCommandOptions, usage: boolean): Promise<OutputSink> {
  // In large chunks: a write per case cost more than rendering it (issue 26).
  const out = chunkedWriter(process.stdout, fileWrite(process.stdout), fileWriteBytes(process.stdout));
  const stdout = out.write;
  const stderr = (text: string) => void process.stderr.write(text);
  // What worker threads render comes as bytes, written as they are (run/ranges.ts).
  const { writeBytes } = out;
  const sink =
    options.jsonl === true
      ? (await import("../report/json.js")).jsonlSink(stdout, stderr, { usage, writeBytes })
      : options.json === true
        ? (await import("../report/json.js")).jsonSink(stdout, stderr, { usage, writeBytes })
        : (await import("../report/text.js")).textSink(stdout, { usage, writeBytes });
  return writtenBy(sink, out);
}

/**
 * The outputs of this run, picked once: progress and failed cases on stderr,
 * the judgments on stdout, and the reports asked for.
 */
async function openSinks(judge: JudgeModule, options: JudgeCommandOptions, usage: boolean, web: boolean): Promise<OutputSink[]> {
  const stderr = (text: string) => void process.stderr.write(text);
  return [
    progressSink(stderr, { tty: process.stderr.isTTY === true }),
    await stdoutSink(options, usage),
    ...(reportsAsked(options, web) ? await openReportSinks(judge, options, usage, web) : []),
  ];
}

/** The report files and the browser report (the report modules load only when one is asked for). */
async function openReportSinks(judge: JudgeModule, options: JudgeCommandOptions, usage: boolean, web: boolean): Promise<OutputSink[]> {
  const [{ proposedBy }, { reportSinks }] = await Promise.all([import("../analyses/label.js"), import("../report/outputs.js")]);
  return reportSinks(judge.behavior, judge.rules, { ...options, web, modelConfigured: usage, proposedBy: { ...proposedBy(judge) } });
}

/** Whether a report is asked for: a file (--html, --junit) or the browser. */
function reportsAsked(options: JudgeCommandOptions, web: boolean): boolean {
  return options.html !== undefined || options.junit !== undefined || web;
}

/** Whether the browser report is served: asked for (the default) on an interactive terminal, without --json or --jsonl. */
async function servesBrowser(options: JudgeCommandOptions): Promise<boolean> {
  if (options.web === false || options.json === true || options.jsonl === true || process.stdout.isTTY !== true) return false;
  return (await import("../web/display.js")).canShowBrowser();
}

/** Returns the exit code: 1 when a case could not be judged or a clause got no valid model answer (or, with failOnFalse, any false; with failOnOverturned, any overturn). */
export async function runJudgeCommand(judgePath: string, files: readonly string[], options: JudgeCommandOptions): Promise<number> {
  // Range workers, when the run will likely use them, start before the judge loads here (run/range-start.ts).
  const early = options.dryRun === true ? undefined : await earlyRangeWorkers(judgePath, files, options, reportsMaybe(options));
  try {
    return await judgeCommand(judgePath, files, options, early);
  } finally {
    early?.stop();
  }
}

/** Whether a report may be asked for, before the browser check (reportsAsked): a report file, or the browser not ruled out. */
function reportsMaybe(options: JudgeCommandOptions): boolean {
  if (options.html !== undefined || options.junit !== undefined) return true;
  return !(options.web === false || options.json === true || options.jsonl === true || process.stdout.isTTY !== true);
}

async function judgeCommand(
  judgePath: string,
  files: readonly string[],
  options: JudgeCommandOptions,
  early: EarlyWorkers | undefined,
): Promise<number> {
  const loaded = await loadJudgeCode(judgePath);
  const { judge } = loaded;
  if (options.dryRun === true) return (await import("./dry-run.js")).runDryRunCommand(judge, files, options);
  const run = await openRun(options, judge.rules);
  const web = await servesBrowser(options);
  const sinks = await openSinks(judge, options, run.model !== undefined, web);
  const tally = new Tally(judge.rules.map((r) => r.name));
  // Only the reports show trajectories and whole judgments: without them, worker threads send back the stdout they rendered.
  const reports = reportsAsked(options, web);
  // By default, threads only where each reads its own part of the file (run/ranges.ts): without a report.
  const notice = (line: string) => void process.stderr.write(`${line}\n`);
  const threads = threadCount(options, files, run.model !== undefined, notice, undefined, undefined, !reports);
  const needs = reports
    ? { keepTrajectories: true }
    : {
        keepTrajectories: false,
        render: options.jsonl === true ? ("jsonl" as const) : options.json === true ? ("json" as const) : ("text" as const),
      };
  const written = await runSinks(judgedOutput(loaded, files, run, threads, needs, early), sinks, tally);
  for (const path of written) process.stderr.write(`wrote ${path}\n`);
  // Model failures are never a silent pass: the run fails.
  if (tally.totals.errors > 0 || tally.clauseErrors > 0) return 1;
  if (options.failOnFalse === true && tally.totals.false > 0) return 1;
  // A gate that judged nothing (an empty file, `[]`, empty stdin) has not passed anything.
  if (options.failOnFalse === true && tally.totals.judged + tally.totals.errors === 0) {
    process.stderr.write(`behavior-judge: ${NOTHING_JUDGED}\n`);
    return 1;
  }
  if (options.failOnOverturned === true && tally.verifications.overturned > 0) return 1;
  return 0;
}
