/**
 * The report files and the browser report of `judge`: results are collected
 * as they come, then written (`--html`, `--junit`) or served (the browser
 * report on an interactive terminal) once the run ends.
 */
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { RuleInfo } from "../../runtime/judge.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import type { Trajectory } from "../../runtime/types.js";
import { failureLine, type CaseResult, type FailedCase } from "../judge/judge-cases.js";
import type { CaseError, ReportInput, ReportResult } from "./html.js";
import type { ProgressEvent, ReportServer } from "./serve.js";
import { fileNaReason } from "./summary.js";

export interface ReportOutputOptions {
  html?: string;
  junit?: string;
  /** Serve the live report in the browser. */
  web?: boolean;
}

async function writeText(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, "utf8");
}

/** Best effort: a machine without a desktop simply shows the printed URL. */
function openInBrowser(url: string): void {
  const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  try {
    const child = spawn(command, [url], { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
  } catch {
    // No opener: the URL on stderr is enough.
  }
}

/** One line of the live page: the trajectory's verdict labeled as the final report will label it, or why the case failed. */
export function progressEvent(done: number, result: CaseResult): ProgressEvent {
  if (result.kind === "failed") return { done, file: result.input.file, message: failureLine(result) };
  const { input, judgment } = result;
  const naReason = fileNaReason(judgment);
  return {
    done,
    file: input.file,
    trajectoryId: judgment.trajectoryId,
    verdict: judgment.verdict,
    ...(naReason !== null ? { naReason } : {}),
    ...(judgment.error === true ? { error: true as const } : {}),
  };
}

/**
 * The trajectory as the judge read it (FORMATS.md §2 defaults: no description
 * is "", non-string content is "", metadata values are String(v)), so the
 * evidence panel shows what was judged. Undefined if a judge built by another
 * version accepted what this runtime would not: the panel then lists ids only.
 */
function judgedTrajectory(raw: unknown): Trajectory | undefined {
  try {
    return validateTrajectory(raw);
  } catch {
    return undefined;
  }
}

/**
 * A case that could not be judged, for the reports and `--json`: file, case
 * and line are fields of their own, so the message goes without its place.
 */
export function caseErrorOf(result: FailedCase): CaseError {
  const { input, message } = result;
  return { file: input.file, caseIndex: input.index, ...(input.line !== undefined ? { line: input.line } : {}), message };
}

export class ReportOutputs {
  private readonly results: ReportResult[] = [];
  private readonly errors: CaseError[] = [];
  private server: ReportServer | undefined;
  private done = 0;

  private constructor(
    private readonly behavior: string,
    private readonly rules: readonly RuleInfo[],
    private readonly options: ReportOutputOptions,
  ) {}

  /** Undefined when no report was asked for, so a plain run holds nothing in memory. */
  static async open(behavior: string, rules: readonly RuleInfo[], options: ReportOutputOptions): Promise<ReportOutputs | undefined> {
    if (options.html === undefined && options.junit === undefined && options.web !== true) return undefined;
    const outputs = new ReportOutputs(behavior, rules, options);
    if (options.web === true) {
      const { serveReport } = await import("./serve.js");
      outputs.server = await serveReport({ behavior });
      process.stderr.write(`report: ${outputs.server.url}\n`);
      openInBrowser(outputs.server.url);
    }
    return outputs;
  }

  add(result: CaseResult): void {
    this.done++;
    this.server?.push(progressEvent(this.done, result));
    if (result.kind === "failed") {
      this.errors.push(caseErrorOf(result));
      return;
    }
    const { input, judgment } = result;
    const trajectory = judgedTrajectory(input.trajectory);
    this.results.push({ file: input.file, judgment, ...(trajectory !== undefined ? { trajectory } : {}) });
  }

  private input(): ReportInput {
    return { behavior: this.behavior, rules: this.rules, results: this.results, errors: this.errors };
  }

  /** Writes the files; with a browser report, waits until the page has shown the final report. */
  async finish(): Promise<string[]> {
    const written: string[] = [];
    if (this.options.html !== undefined) {
      const { renderHtmlReport } = await import("./html.js");
      await writeText(this.options.html, renderHtmlReport(this.input()));
      written.push(this.options.html);
    }
    if (this.options.junit !== undefined) {
      const { renderJunit } = await import("./junit.js");
      const byFile = new Map<string, ReportResult[]>();
      for (const r of this.results) {
        const group = byFile.get(r.file);
        if (group === undefined) byFile.set(r.file, [r]);
        else group.push(r);
      }
      const files = [...byFile].map(([file, results]) => ({ file, judgments: results.map((r) => r.judgment) }));
      await writeText(this.options.junit, renderJunit({ files, errors: this.errors }));
      written.push(this.options.junit);
    }
    if (this.server !== undefined) {
      this.server.finish(this.input());
      process.stderr.write("report: waiting for the browser to show the final report (Ctrl-C to stop waiting)\n");
      // Ctrl-C ends the wait, not the run: the command still exits with its own code.
      let stopWaiting = () => {};
      const interrupted = new Promise<void>((resolve) => {
        stopWaiting = resolve;
        process.once("SIGINT", resolve);
      });
      await Promise.race([this.server.finalServed, interrupted]);
      process.removeListener("SIGINT", stopWaiting);
      await this.server.close();
    }
    return written;
  }
}
