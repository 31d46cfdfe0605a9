/**
 * The report files and the browser report of `judge`: results are collected
 * as they come, then written (`--html`, `--junit`) or served (the browser
 * report on an interactive terminal) once the run ends.
 */
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { RuleInfo } from "../../runtime/judge.js";
import type { Trajectory } from "../../runtime/types.js";
import type { CaseResult } from "../run.js";
import type { CaseError, ReportInput, ReportResult } from "./html.js";
import type { ReportServer } from "./serve.js";

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
    const { input, judgment, error } = result;
    if (judgment === undefined) {
      this.errors.push({ file: input.file, caseIndex: input.index, ...(input.line !== undefined ? { line: input.line } : {}), message: error ?? "not judged" });
      this.server?.push({ done: this.done, file: input.file, message: error ?? "not judged" });
      return;
    }
    // The judge accepted this trajectory, so it has the shape the evidence panel reads.
    this.results.push({ file: input.file, judgment, trajectory: input.trajectory as Trajectory });
    this.server?.push({ done: this.done, file: input.file, trajectoryId: judgment.trajectoryId, verdict: judgment.verdict });
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
      process.stderr.write("report: waiting for the browser to show the final report (Ctrl-C to stop)\n");
      await this.server.finalServed;
      await this.server.close();
    }
    return written;
  }
}
