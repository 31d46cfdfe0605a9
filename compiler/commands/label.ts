/**
 * `label`: judge cases as `judge` reads them (any trace format, folders,
 * arrays, JSON Lines) and write one labeled case file per case, with the
 * judge's verdicts as the labels, for a person to correct and `calibrate`
 * to read. A file that exists is kept unless `--force`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { labeledCase, proposedBy, proposeLabels } from "../analyses/label.js";
import { NOTHING_JUDGED } from "../analyses/tally.js";
import { caseFileNamer } from "../files/case-file-names.js";
import { describeOrigin } from "../inputs/case.js";
import { failureLine } from "../run/judge-cases.js";
import { loadJudgeCode } from "../run/load.js";
import { plural } from "../report/plural.js";
import { printable } from "../report/printable.js";
import { openRun, type RunFlags } from "./run-options.js";
import type { TraceCommandOptions } from "./trace-flags.js";
import { judgedFiles, threadCount, type WorkersFlags } from "./workers.js";

export interface LabelCommandOptions extends RunFlags, TraceCommandOptions, WorkersFlags {
  /** The folder the labeled case files go to (created if missing). */
  out: string;
  /** Replace files that exist (default: keep them, and say so). */
  force?: boolean;
  /** Count the model calls the run would make, as `judge --dry-run` does; write nothing. */
  dryRun?: boolean;
}

/**
 * Exit code: 1 when a case could not be judged, a clause got no valid model
 * answer (as `judge` exits), or nothing was judged; files kept (not
 * overwritten) are said, not failed.
 */
export async function runLabelCommand(judgePath: string, files: readonly string[], options: LabelCommandOptions): Promise<number> {
  const loaded = await loadJudgeCode(judgePath);
  const { judge } = loaded;
  if (options.dryRun === true) return (await import("./dry-run.js")).runDryRunCommand(judge, files, options);
  const run = await openRun(options, judge.rules);
  const threads = threadCount(options, files, run.model !== undefined, (line) => void process.stderr.write(`${line}\n`));
  mkdirSync(options.out, { recursive: true });
  const by = proposedBy(judge);
  const nameOf = caseFileNamer();
  let written = 0;
  let failed = 0;
  let undecided = 0;
  let modelErrors = 0;
  const skipped: string[] = [];
  for await (const result of judgedFiles(loaded, files, run, threads, { keepTrajectories: true })) {
    if (result.kind === "failed") {
      failed++;
      process.stderr.write(`error: ${failureLine(result)}\n`);
      continue;
    }
    const labels = proposeLabels(result.judgment);
    if (result.judgment.error === true) modelErrors++;
    // A file that labels nothing is one calibrate refuses (it would compare nothing): the case is named instead.
    if (labels.expected.verdict === undefined && Object.keys(labels.expected.metaBehaviorVerdicts).length === 0) {
      undecided++;
      process.stderr.write(
        `not labeled: ${describeOrigin(result.input)}: the judge decided none of its verdicts (${unlabeledWhy(labels)})\n`,
      );
      continue;
    }
    const path = join(options.out, nameOf(result.judgment.trajectoryId));
    try {
      writeFileSync(path, labeledCase(result.input.trajectory, labels, by), { flag: options.force === true ? "w" : "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      skipped.push(path);
      process.stderr.write(`skipped ${printable(path)}: the file exists (--force replaces it)\n`);
      continue;
    }
    written++;
    process.stdout.write(`${labelLine(path, result.input, labels)}\n`);
  }
  const parts = [`${written} labeled ${plural(written, "case")} written to ${printable(options.out)}`];
  if (skipped.length > 0) parts.push(`${skipped.length} ${plural(skipped.length, "file")} kept (they exist; --force replaces them)`);
  if (undecided > 0) parts.push(`${undecided} ${plural(undecided, "case")} not labeled (the judge decided none of their verdicts)`);
  if (failed > 0) parts.push(`${failed} ${plural(failed, "case")} could not be judged`);
  if (modelErrors > 0) parts.push(`${modelErrors} ${plural(modelErrors, "case")} with a clause no model answered (left unlabeled)`);
  process.stdout.write(`${parts.join(", ")}\n`);
  if (written + skipped.length + undecided + failed === 0) {
    process.stderr.write(`behavior-judge: ${NOTHING_JUDGED}\n`);
    return 1;
  }
  return failed > 0 || modelErrors > 0 ? 1 : 0;
}

/** `wrote out/t1.json (t1.json: case 0) — unlabeled: "Rule" (no model), the trajectory verdict`. */
function labelLine(path: string, origin: Parameters<typeof describeOrigin>[0], labels: ReturnType<typeof proposeLabels>): string {
  const line = `wrote ${printable(path)} (${describeOrigin(origin)})`;
  if (labels.unlabeled === undefined) return line;
  return `${line} — left unlabeled: ${unlabeledWhy(labels)}`;
}

/** `"Rule" (no model), the trajectory verdict (…)`: what a case left unlabeled, and why. */
function unlabeledWhy(labels: ReturnType<typeof proposeLabels>): string {
  const left = labels.unlabeled ?? {};
  const rules = Object.entries(left.rules ?? {}).map(([name, why]) => `${printable(JSON.stringify(name))} (${why})`);
  const verdict = left.verdict !== undefined ? [`the trajectory verdict (${left.verdict})`] : [];
  return [...rules, ...verdict].join(", ");
}
