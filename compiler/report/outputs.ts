/**
 * The report sinks of `judge`: results are collected as they come, then
 * written (`--html`, `--junit`) or served (the browser report on an
 * interactive terminal, live while judging) once the run ends.
 */
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { RuleInfo } from "../../runtime/judge.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import type { Trajectory } from "../../runtime/types.js";
import { failureLine, type CaseResult, type FailedCase } from "../run/judge-cases.js";
import type { CaseError, ReportInput, ReportResult } from "./html.js";
import type { ProgressEvent } from "./serve.js";
import type { OutputSink } from "./sink.js";
import { fileNaReason } from "./summary.js";

export interface ReportOutputOptions {
  html?: string;
  junit?: string;
  /** Serve the live report in the browser. */
  web?: boolean;
  /** How long to wait for a browser to show the final report (default BROWSER_WAIT_MS). */
  browserWaitMs?: number;
  /** A model was configured, so verify-on-false could have checked failures (the reports then say which went unverified). */
  modelConfigured?: boolean;
  /** The judge, as a case saved from the HTML report names it. */
  proposedBy?: Readonly<Record<string, string>>;
}

async function writeText(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, "utf8");
}

/**
 * Asks the desktop to open the URL. Resolves with why it could not: no
 * opener, or one that exited non-zero (xdg-open with a DISPLAY no X server
 * answers exits 4 at once); stays pending while the browser may yet show the
 * page. Windows' explorer exits 1 even when it opened the page, so only a
 * failure to start counts there.
 */
function openInBrowser(url: string): Promise<string> {
  const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  return new Promise((resolve) => {
    try {
      const child = spawn(command, [url], { stdio: "ignore", detached: true });
      child.on("error", (error: Error) => resolve(`${command} could not be started: ${error.message}`));
      child.on("exit", (code: number | null, signal: NodeJS.Signals | null) => {
        if (process.platform === "win32" || code === 0) return;
        resolve(signal !== null ? `${command} was ended by ${signal}` : `${command} exited with code ${code}`);
      });
      child.unref();
    } catch (error) {
      resolve(`${command} could not be started: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

/** How long `judge` waits, once done, for a browser to fetch the final report. */
export const BROWSER_WAIT_MS = 60_000;

function formatWait(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

type WaitEnd = { kind: "served" } | { kind: "interrupted" } | { kind: "timeout" } | { kind: "no-browser"; reason: string };

/**
 * Waits for the final report to reach a browser, and no longer than it can
 * still happen: it ends when the page has loaded it, on Ctrl-C (which ends
 * the wait, not the run), when the browser could not be started and no page
 * ever asked for the report, or after `waitMs`.
 */
function waitForBrowser(
  server: { finalServed: Promise<void>; readonly visited: boolean },
  openerFailure: Promise<string>,
  waitMs: number,
): Promise<WaitEnd> {
  return new Promise((resolve) => {
    let settled = false;
    const end = (result: WaitEnd) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      process.removeListener("SIGINT", onInterrupt);
      resolve(result);
    };
    const onInterrupt = () => end({ kind: "interrupted" });
    const timer = setTimeout(() => end({ kind: "timeout" }), waitMs);
    process.once("SIGINT", onInterrupt);
    void server.finalServed.then(() => end({ kind: "served" }));
    // A page that did open (the URL pasted by hand) still gets its final report.
    void openerFailure.then((reason) => {
      if (!server.visited) end({ kind: "no-browser", reason });
    });
  });
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
 * The trajectory as the judge read it (docs/FORMATS.md §2 defaults: no description
 * is "", non-string content is "", metadata values are String(v)), so the
 * evidence panel shows what was judged. Undefined if a judge built by another
 * version accepted what this runtime would not: the panel then lists ids only.
 */
export function judgedTrajectory(raw: unknown): Trajectory | undefined {
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

/**
 * What the report files and the final browser page show, collected once for
 * all of them: each trajectory is validated and held once, however many
 * reports are asked for. It is the first of the report sinks; the others
 * read it when they finish.
 */
class ReportCollection implements OutputSink {
  private readonly results: ReportResult[] = [];
  private readonly errors: CaseError[] = [];

  constructor(
    private readonly behavior: string,
    private readonly rules: readonly RuleInfo[],
    private readonly model: boolean,
    private readonly proposedBy?: Readonly<Record<string, string>>,
  ) {}

  add(result: CaseResult): void {
    if (result.kind === "failed") {
      this.errors.push(caseErrorOf(result));
      return;
    }
    const { input, judgment } = result;
    const trajectory = judgedTrajectory(input.trajectory);
    this.results.push({ file: input.file, judgment, ...(trajectory !== undefined ? { trajectory } : {}) });
  }

  async finish(): Promise<string[]> {
    return [];
  }

  input(): ReportInput {
    return {
      behavior: this.behavior,
      rules: this.rules,
      results: this.results,
      errors: this.errors,
      model: this.model,
      ...(this.proposedBy !== undefined ? { proposedBy: this.proposedBy } : {}),
    };
  }
}

/** A report file, written once the run ends; `render` imports its renderer only then. */
function fileSink(path: string, render: () => Promise<string>): OutputSink {
  return {
    add() {},
    async finish() {
      await writeText(path, await render());
      return [path];
    },
  };
}

async function renderHtml(input: ReportInput): Promise<string> {
  const { renderHtmlReport } = await import("./html.js");
  return renderHtmlReport(input);
}

/** JUnit groups the judgments by file: one testsuite each. */
async function renderJunitReport(input: ReportInput): Promise<string> {
  const { renderJunit } = await import("./junit.js");
  const { results, errors, model } = input;
  const byFile = new Map<string, ReportResult[]>();
  for (const r of results) {
    const group = byFile.get(r.file);
    if (group === undefined) byFile.set(r.file, [r]);
    else group.push(r);
  }
  const files = [...byFile].map(([file, group]) => ({
    file,
    judgments: group.map((r) => r.judgment),
    trajectories: group.map((r) => r.trajectory),
    ...(group.some((r) => r.labels !== undefined) ? { labels: group.map((r) => r.labels) } : {}),
  }));
  return renderJunit({ files, errors: errors ?? [], ...(model !== undefined ? { model } : {}) });
}

/**
 * The live page while judging, then the final report. The URL is printed
 * before the first trajectory is judged; finishing waits for a browser to
 * show the final report, within bounds (waitForBrowser).
 */
async function browserSink(behavior: string, collection: ReportCollection, waitMs: number): Promise<OutputSink> {
  const { serveReport } = await import("./serve.js");
  const server = await serveReport({ behavior });
  process.stderr.write(`report: ${server.url}\n`);
  const openerFailure = openInBrowser(server.url);
  let openerFailed: string | undefined;
  void openerFailure.then((reason) => (openerFailed = reason));
  let done = 0;
  return {
    add(result) {
      server.push(progressEvent(++done, result));
    },
    async finish() {
      server.finish(collection.input());
      const wait = formatWait(waitMs);
      const noBrowser = (reason: string) =>
        process.stderr.write(`report: no browser could be opened (${reason}); not waiting. --html FILE writes the report to a file\n`);
      // Usually known by now: xdg-open gives up at once.
      if (openerFailed !== undefined && !server.visited) noBrowser(openerFailed);
      else {
        process.stderr.write(`report: waiting up to ${wait} for the browser to show the final report (Ctrl-C to stop waiting)\n`);
        const end = await waitForBrowser(server, openerFailure, waitMs);
        if (end.kind === "no-browser") noBrowser(end.reason);
        if (end.kind === "timeout")
          process.stderr.write(
            `report: no browser showed the report within ${wait}; stopped waiting. --html FILE writes the report to a file\n`,
          );
      }
      await server.close();
      return [];
    },
  };
}

/**
 * The sinks for the reports asked for (`html`, `junit`, `web`), in the order
 * they finish: the files first, then the browser report. None when no report
 * was asked for, so a plain run holds nothing in memory.
 */
export async function reportSinks(behavior: string, rules: readonly RuleInfo[], options: ReportOutputOptions): Promise<OutputSink[]> {
  if (options.html === undefined && options.junit === undefined && options.web !== true) return [];
  const collection = new ReportCollection(behavior, rules, options.modelConfigured !== false, options.proposedBy);
  return [
    collection,
    ...(options.html !== undefined ? [fileSink(options.html, () => renderHtml(collection.input()))] : []),
    ...(options.junit !== undefined ? [fileSink(options.junit, () => renderJunitReport(collection.input()))] : []),
    ...(options.web === true ? [await browserSink(behavior, collection, options.browserWaitMs ?? BROWSER_WAIT_MS)] : []),
  ];
}

/** `calibrate --html/--junit`: the report files of a run collected whole (results with their labels); returns the paths written. */
export async function writeReportFiles(
  input: ReportInput,
  paths: { html?: string | undefined; junit?: string | undefined },
): Promise<string[]> {
  const written: string[] = [];
  if (paths.html !== undefined) {
    await writeText(paths.html, await renderHtml(input));
    written.push(paths.html);
  }
  if (paths.junit !== undefined) {
    await writeText(paths.junit, await renderJunitReport(input));
    written.push(paths.junit);
  }
  return written;
}
