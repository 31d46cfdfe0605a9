/** `judge`: run a judge over trajectory files and report as text or JSON. */
import type { TrajectoryJudgment } from "../../runtime/types.js";
import { readCases } from "../judge/inputs.js";
import { loadJudge } from "../judge/load.js";
import { renderTotalsLine, renderTrajectoryText } from "../report/text.js";
import { caseErrorOf, ReportOutputs } from "../report/outputs.js";
import { renderRunSummary, renderSummaryTable, renderUsageLine } from "../report/summary.js";
import { Tally } from "../judge/tally.js";
import { failureLine, judgeCases, type FailedCase } from "../judge/judge-cases.js";
import { canShowBrowser } from "../web/display.js";
import { openRun, type RunFlags } from "./run-options.js";
import type { TraceCommandOptions } from "./trace-flags.js";

export interface JudgeCommandOptions extends RunFlags, TraceCommandOptions {
  json?: boolean;
  failOnFalse?: boolean;
  /** Exit 1 when a model overturned any deterministic failure (verify-on-false). */
  failOnOverturned?: boolean;
  /** Write the self-contained HTML report here. */
  html?: string;
  /** Write the JUnit XML report here. */
  junit?: string;
  /** Serve the browser report (default: on an interactive terminal without --json). */
  web?: boolean;
}

/**
 * The `--json` element of a case that could not be judged: it keeps the
 * case's place, so element i is always input case i. It has no `verdict`;
 * its message is `caseError` (not `error`, which on a judgment marks a failed
 * model call).
 */
export interface JsonCaseError {
  file: string;
  case: number;
  line?: number;
  caseError: string;
}

function jsonCaseError(result: FailedCase): JsonCaseError {
  const { file, caseIndex, line, message } = caseErrorOf(result);
  return { file, case: caseIndex, ...(line !== undefined ? { line } : {}), caseError: message };
}

/**
 * JSON output streams one element at a time yet is byte-identical to
 * `JSON.stringify(all, null, 2)`, so large corpora never sit in memory.
 */
class JsonArrayWriter {
  private count = 0;
  constructor(private readonly write: (text: string) => void) {}
  push(value: TrajectoryJudgment | JsonCaseError): void {
    const body = JSON.stringify(value, null, 2).replace(/\n/g, "\n  ");
    this.write(`${this.count === 0 ? "[\n  " : ",\n  "}${body}`);
    this.count++;
  }
  end(): void {
    this.write(this.count === 0 ? "[]\n" : "\n]\n");
  }
}

/** Progress on stderr, only for a person watching a terminal. */
function progress(): { tick(n: number): void; done(): void } {
  if (!process.stderr.isTTY) return { tick() {}, done() {} };
  let shown = false;
  return {
    tick(n) {
      if (n % 100 !== 0) return;
      process.stderr.write(`\rjudged ${n} trajectories…`);
      shown = true;
    },
    done() {
      if (shown) process.stderr.write("\r\x1b[K");
    },
  };
}

/** Returns the exit code: 1 when a case could not be judged or a clause got no valid model answer (or, with failOnFalse, any false; with failOnOverturned, any overturn). */
export async function runJudgeCommand(judgePath: string, files: readonly string[], options: JudgeCommandOptions): Promise<number> {
  const judge = await loadJudge(judgePath);
  const out = (text: string) => process.stdout.write(text);
  const json = options.json === true ? new JsonArrayWriter(out) : undefined;
  const tally = new Tally(judge.rules.map((r) => r.name));
  const meter = progress();
  const run = await openRun(options, judge.rules);
  const web = options.web !== false && options.json !== true && process.stdout.isTTY === true && canShowBrowser();
  const reports = await ReportOutputs.open(judge.behavior, judge.rules, { ...options, web });
  for await (const result of judgeCases(judge, readCases(files, run.read), run.options)) {
    tally.add(result);
    meter.tick(tally.cases);
    reports?.add(result);
    if (result.kind === "failed") {
      meter.done();
      process.stderr.write(`error: ${failureLine(result)}\n`);
      json?.push(jsonCaseError(result));
      continue;
    }
    if (json !== undefined) json.push(result.judgment);
    else {
      const cost = result.usage;
      out(renderTrajectoryText(result.judgment, result.input.file) + (cost !== undefined ? `  ${renderUsageLine(cost)}\n` : "") + "\n");
    }
  }
  meter.done();
  if (json !== undefined) json.end();
  else out(`${renderSummaryTable(tally.ruleRows())}\n${renderTotalsLine(tally.totals)}\n`);
  // Model failures are never a silent pass: counted in the summary, and the run fails.
  // With --json, stdout stays one JSON document; the totals go to stderr.
  for (const line of renderRunSummary(tally, { usage: run.model !== undefined })) (json !== undefined ? process.stderr : process.stdout).write(`${line}\n`);
  for (const path of (await reports?.finish()) ?? []) process.stderr.write(`wrote ${path}\n`);
  if (tally.totals.errors > 0 || tally.clauseErrors > 0) return 1;
  if (options.failOnFalse === true && tally.totals.false > 0) return 1;
  if (options.failOnOverturned === true && tally.verifications.overturned > 0) return 1;
  return 0;
}
