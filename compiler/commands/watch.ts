/**
 * `watch`: runs a judge's monitor over a stream of events (a JSONL file, a
 * file that is still being written with --follow, or stdin), printing each
 * violation as it becomes certain and the judgment at the end. The stream's
 * shape is compiler/watch/watch.ts's; docs/FORMATS.md §9 says when a
 * violation is certain.
 */
import type { Stats } from "node:fs";
import { open, stat, type FileHandle } from "node:fs/promises";
import { basename, extname } from "node:path";
import { importTrace } from "../../importers/index.js";
import { JudgeLoadError, UserError } from "../errors.js";
import { decodeUtf8, describeInvalidUtf8, readUtf8File } from "../files/utf8.js";
import { byteLines } from "../files/byte-lines.js";
import { loadImporters, needsImporters } from "../inputs/importers.js";
import { isNativeCase } from "../inputs/trace-inputs.js";
import { loadJudge, type BuiltJudge } from "../run/load.js";
import { watchLines, type ViolationAt, type WatchLine } from "../watch/watch.js";
import { printable } from "../report/printable.js";
import { renderTrajectoryText } from "../report/text.js";
import type { Violation } from "../../runtime/types.js";
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

/** Between chunks of a followed file: the file was truncated or replaced, and what follows is read from its start. */
const RESTART = Symbol("restart");
type FollowedChunk = Uint8Array | typeof RESTART;

/**
 * What became of a followed file that has no more bytes at `position`: the
 * same file, truncated below it (copy-truncate, `: > file`), or another file
 * at its path (rename and a new file: log rotation). A path that is gone is
 * waited for: a rotating writer creates the new file next.
 */
async function followedChange(path: string, handle: FileHandle, position: number): Promise<"same" | "truncated" | "replaced"> {
  const opened = await handle.stat();
  let now: Stats;
  try {
    now = await stat(path);
  } catch {
    return "same";
  }
  if (now.ino !== opened.ino || now.dev !== opened.dev) return "replaced";
  return opened.size < position ? "truncated" : "same";
}

/**
 * The bytes of a file as they come; with `follow`, waits for more at the end
 * until `stop` is aborted, and reads the file again from its start (after a
 * RESTART and a notice) when it was truncated or replaced: without that, the
 * events written afterwards were never read and Ctrl-C printed PASS.
 */
async function* fileChunks(
  path: string,
  follow: boolean,
  stop: AbortSignal,
  notice: (message: string) => void,
): AsyncGenerator<FollowedChunk> {
  let handle = await open(path, "r");
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
      const change = await followedChange(path, handle, position);
      // Replaced, but gone again before it could be opened: wait on the old file and look again.
      const replacement = change === "replaced" ? await open(path, "r").catch(() => undefined) : undefined;
      if (change === "truncated" || replacement !== undefined) {
        if (replacement !== undefined) {
          await handle.close();
          handle = replacement;
        }
        notice(
          change === "truncated"
            ? `${printable(path)} was truncated: reading it again from its start (line numbers start again at 1)`
            : `${printable(path)} was replaced by a new file: reading the new file from its start (line numbers start again at 1)`,
        );
        position = 0;
        yield RESTART;
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
      if (stop.aborted) return;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Lines of a byte stream, each decoded as strict UTF-8; a line that is not is
 * refused by `watchLines` as invalid JSON would be. After a RESTART the lines
 * are the new file's: a partial line before it is not joined to them, and
 * they are numbered from 1 again.
 */
async function* decodedLines(
  chunks: AsyncIterable<FollowedChunk>,
  refuse: (line: number, message: string) => void,
): AsyncGenerator<WatchLine> {
  const iterator = chunks[Symbol.asyncIterator]();
  let restarted = true;
  while (restarted) {
    restarted = false;
    // The chunks up to the next RESTART (or the end), one file's bytes for byteLines.
    const untilRestart = async function* (): AsyncGenerator<Uint8Array> {
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) return;
        if (next.value === RESTART) {
          restarted = true;
          return;
        }
        yield next.value;
      }
    };
    let line = 0;
    for await (const { bytes } of byteLines(untilRestart())) {
      line++;
      const decoded = decodeUtf8(bytes);
      if (decoded.ok) yield { line, text: decoded.text };
      else refuse(line, describeInvalidUtf8(decoded.invalid));
    }
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
  if (needsImporters(value)) await loadImporters();
  const native = isNativeCase(value, { from });
  if (from === "trajectory" || (from === "auto" && native)) return [{ line: 1, text: JSON.stringify(value) }];
  const imported = importTrace(value, { from, formatSetting: "--from" });
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

  const notice = (message: string) => void process.stderr.write(`behavior-judge: note: ${message}\n`);

  const stop = new AbortController();
  const interrupt = () => stop.abort();
  // Ctrl-C ends a followed file where it is: the trajectory is judged as it stands.
  if (options.follow === true) process.once("SIGINT", interrupt);
  try {
    const lines =
      !fromStdin && extname(input).toLowerCase() === ".json"
        ? listed(await wholeJsonFile(input, from))
        : decodedLines(fromStdin ? process.stdin : fileChunks(input, options.follow === true, stop.signal, notice), refuse);
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
    // As for judge: a gate that saw no event has passed nothing.
    if (options.failOnFalse === true && result.events === 0) {
      process.stderr.write("behavior-judge: no events were judged: the input holds none\n");
      return 1;
    }
    return 0;
  } finally {
    process.removeListener("SIGINT", interrupt);
    // After an end line a read may still wait for input that never comes: stop it, so the process can exit.
    stop.abort();
    if (fromStdin) process.stdin.destroy();
  }
}
