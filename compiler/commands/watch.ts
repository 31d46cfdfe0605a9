/**
 * `watch`: runs a judge's monitor over a stream of events (a JSONL file, a
 * file that is still being written with --follow, or stdin), printing each
 * violation as it becomes certain and the judgment at the end. The stream's
 * shape is compiler/judge/watch.ts's; docs/FORMATS.md §9 says when a
 * violation is certain.
 */
import { open } from "node:fs/promises";
import { basename, extname } from "node:path";
import { importTrace, looksLikeTrajectory } from "../../importers/index.js";
import { JudgeLoadError, UserError } from "../errors.js";
import { decodeUtf8, describeInvalidUtf8, readUtf8File } from "../files/utf8.js";
import { byteLines } from "../judge/inputs.js";
import { loadJudge, type BuiltJudge } from "../judge/load.js";
import { watchLines, type ViolationAt, type WatchLine } from "../judge/watch.js";
import { printable } from "../report/printable.js";
import { renderTrajectoryText } from "../report/text.js";
import type { Violation } from "../../runtime/types.js";
import { isObject } from "../../runtime/is-object.js";
import { openRun, type RunFlags } from "./run-options.js";
import type { TraceCommandOptions } from "./trace-flags.js";

export interface WatchCommandOptions extends RunFlags, TraceCommandOptions {
  json?: boolean;
  /** Keep reading a file as it grows, until its end line (or Ctrl-C). */
  follow?: boolean;
  /** The trajectory id (default: the header line's, or the input's file name). */
  id?: string;
  /** "true" / "false": whether the trajectory ended normally when the input ends without an end line. */
  complete?: string;
  failOnFalse?: boolean;
}

/** How long a followed file is left alone before it is read again. */
const FOLLOW_POLL_MS = 200;

/** The bytes of a file as they come; with `follow`, waits for more at the end until `stop` is aborted. */
async function* fileChunks(path: string, follow: boolean, stop: AbortSignal): AsyncGenerator<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    let position = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead > 0) {
        position += bytesRead;
        yield Buffer.from(buffer.subarray(0, bytesRead));
        continue;
      }
      if (!follow || stop.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
      if (stop.aborted) return;
    }
  } finally {
    await handle.close();
  }
}

/** Lines of a byte stream, each decoded as strict UTF-8; a line that is not is refused by `watchLines` as invalid JSON would be. */
async function* decodedLines(
  chunks: AsyncIterable<Uint8Array>,
  refuse: (line: number, message: string) => void,
): AsyncGenerator<WatchLine> {
  let line = 0;
  for await (const { bytes } of byteLines(chunks)) {
    line++;
    const decoded = decodeUtf8(bytes);
    if (decoded.ok) yield { line, text: decoded.text };
    else refuse(line, describeInvalidUtf8(decoded.invalid));
  }
}

/**
 * A .json file is one document, read whole: a trajectory (or labeled case),
 * or a trace of another format, imported first. It is watched as one line
 * holding the whole trajectory, replayed event by event.
 */
async function wholeJsonFile(path: string, from: string): Promise<WatchLine[]> {
  const decoded = await readUtf8File(path);
  if (!decoded.ok) throw new UserError(`${path}: ${describeInvalidUtf8(decoded.invalid)}`);
  let value: unknown;
  try {
    value = JSON.parse(decoded.text);
  } catch (error) {
    throw new UserError(`${path}: invalid JSON: ${(error as Error).message}`);
  }
  const native = looksLikeTrajectory(value) || (isObject(value) && "trajectory" in value);
  if (from === "trajectory" || (from === "auto" && native)) return [{ line: 1, text: JSON.stringify(value) }];
  const imported = importTrace(value, { from });
  const trajectory = imported.trajectories[0];
  if (trajectory === undefined) throw new UserError(`${path}: ${imported.errors.map((e) => e.message).join("; ") || "no trace found"}`);
  return [{ line: 1, text: JSON.stringify(trajectory) }];
}

async function* listed(lines: readonly WatchLine[]): AsyncGenerator<WatchLine> {
  yield* lines;
}

function violationText(v: Violation, at: ViolationAt): string {
  const cites = v.eventIds.map(printable).join(", ");
  return `VIOLATION at ${printable(at.eventId)} (event ${at.index}, line ${at.line}): ${printable(v.rule)} — ${v.type} ${printable(JSON.stringify(v.quote))} [${cites}]\n`;
}

async function loadMonitoredJudge(path: string): Promise<BuiltJudge> {
  const judge = await loadJudge(path);
  if (typeof (judge as Partial<BuiltJudge>).createMonitor !== "function") {
    throw new JudgeLoadError(
      `${path} has no createMonitor: it was built by an older behavior-judge; rebuild it with \`behavior-judge build\``,
    );
  }
  return judge as BuiltJudge;
}

/** Returns the exit code: 1 when a line was refused or a model call failed (or, with failOnFalse, the verdict is false). */
export async function runWatchCommand(judgePath: string, input: string | undefined, options: WatchCommandOptions): Promise<number> {
  const judge = await loadMonitoredJudge(judgePath);
  const run = await openRun(options, judge.rules);
  const fromStdin = input === undefined || input === "-";
  const source = fromStdin ? "stdin" : input;
  const from = options.from ?? "auto";
  const stdout = (text: string) => void process.stdout.write(text);
  let refused = 0;
  const refuse = (line: number, message: string) => {
    refused++;
    process.stderr.write(`${printable(source)}:${line}: ${printable(message)}\n`);
  };

  const stop = new AbortController();
  const interrupt = () => stop.abort();
  // Ctrl-C ends a followed file where it is: the trajectory is judged as it stands.
  if (options.follow === true) process.once("SIGINT", interrupt);
  try {
    const lines =
      !fromStdin && extname(input).toLowerCase() === ".json"
        ? listed(await wholeJsonFile(input, from))
        : decodedLines(fromStdin ? process.stdin : fileChunks(input, options.follow === true, stop.signal), refuse);
    const complete = options.complete === undefined ? undefined : options.complete === "true";
    const fallbackId = fromStdin ? "stdin" : basename(input).replace(/\.[^.]*$/, "");
    const result = await watchLines(
      judge,
      lines,
      {
        fallbackId,
        from: extname(input ?? "").toLowerCase() === ".json" ? "trajectory" : from,
        ...(options.id !== undefined ? { id: options.id } : {}),
        ...(complete !== undefined ? { complete } : {}),
        judge: { verify: run.options.verify !== false, ...(run.model !== undefined ? { complete: run.model } : {}) },
      },
      {
        violation: (v, at) => stdout(options.json === true ? `${JSON.stringify({ violation: { ...v, at } })}\n` : violationText(v, at)),
        refused: refuse,
      },
    );
    stdout(
      options.json === true
        ? `${JSON.stringify({ judgment: result.judgment })}\n`
        : `\n${renderTrajectoryText(result.judgment, source, { model: run.model !== undefined })}`,
    );
    if (refused > 0 || result.judgment.error === true) return 1;
    if (options.failOnFalse === true && result.judgment.verdict === "false") return 1;
    return 0;
  } finally {
    process.removeListener("SIGINT", interrupt);
  }
}
