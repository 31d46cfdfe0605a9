/**
 * Where a run's results go as they come. Every output of `judge` is a sink:
 * the text or JSON on stdout, progress and failures on stderr, the HTML and
 * JUnit files, the browser report. The command picks its sinks once, adds
 * every result to each, and finishes them with the run's Tally.
 */
import { fstatSync, writeSync } from "node:fs";
import type { CaseResult } from "../run/judge-cases.js";
import type { Tally, TallyPart } from "../analyses/tally.js";
import type { FileHold } from "../inputs/case.js";

export interface OutputSink {
  add(result: CaseResult): void;
  /**
   * Cases a worker thread judged and rendered itself (run/ranges.ts): only
   * the stdout and progress sinks take them, and a run has them only when no
   * other sink is asked for (commands/judge.ts). Returns true when it holds
   * nothing of `run.bytes` (written at once, or not used): once every sink
   * says so, they go back to the worker to be filled again.
   */
  addRendered?(run: RenderedRun): boolean;
  /** Ends this output once every result is in; returns the paths of the files it wrote. */
  finish(tally: Tally): Promise<string[]>;
  /**
   * A promise while this output cannot take more yet (a slow reader of
   * stdout), settled once it can: the run reads no further case until then,
   * so what waits to be written stays bounded.
   */
  drained?(): Promise<void> | undefined;
  /** Writes out what this output holds back (chunkedWriter), also when the run stops on an error. */
  flush?(): void;
  /**
   * A file's output held back (FileHold, inputs/held-array.ts): from `hold`,
   * nothing this sink would write is written, until `commit` writes it all,
   * as it would have been, or `discard` forgets it and puts the sink back as
   * it was at `hold`. A run that holds needs them of every sink.
   */
  hold?(): void;
  commit?(): void;
  discard?(): void;
}

/**
 * Consecutive cases a worker thread judged and rendered (run/ranges.ts):
 * `bytes` is their stdout in the run's mode (text, `--json` or `--jsonl`),
 * UTF-8, their numbers guessed: case i is numbered `numbered + i` at
 * characters `[cuts[2i], cuts[2i + 1])` of the text (JSON modes; text has
 * none), and is in fact case `first + i`. In `--json` each element comes
 * after ",\n  ", which the array's first element replaces with "[\n  ".
 * `tally` is what the run's Tally counts of them; `release` hands the bytes
 * back to be filled again, once nothing holds them.
 */
export interface RenderedRun {
  kind: "rendered";
  bytes: Uint8Array;
  cuts: readonly number[];
  numbered: number;
  first: number;
  cases: number;
  tally: TallyPart;
  release?: () => void;
}

/**
 * A RenderedRun's text with each case's number right, or undefined when its
 * bytes have them right already (the guess was right): they are written as
 * they came then.
 */
export function renumbered(run: RenderedRun): string | undefined {
  const { cuts, first } = run;
  if (cuts.length === 0 || run.numbered === first) return undefined;
  const text = utf8(run.bytes);
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < cuts.length; i += 2) {
    parts.push(text.slice(from, cuts[i]), String(first + i / 2));
    from = cuts[i + 1]!;
  }
  parts.push(text.slice(from));
  return parts.join("");
}

/** Text goes to a writer (process.stdout or stderr in the CLI, a string in tests). */
export type Write = (text: string) => void;

/**
 * Bytes (UTF-8 text) go to a writer too, where a worker thread rendered them
 * (RenderedRun). Returns true when they are written and may be reused, false
 * when the stream still holds them (a pipe writes later).
 */
export type WriteBytes = (bytes: Uint8Array) => boolean;

function utf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

/** A WriteBytes for a Write: the bytes decoded (tests; the CLI writes them as they are). */
export function bytesAsText(write: Write): WriteBytes {
  return (bytes) => {
    write(utf8(bytes));
    return true;
  };
}

/** What `whenDrained` needs of a stream (process.stdout in the CLI). */
export interface DrainableStream {
  readonly writableNeedDrain: boolean;
  readonly destroyed: boolean;
  once(event: "drain" | "close" | "error", listener: () => void): unknown;
  off(event: "drain" | "close" | "error", listener: () => void): unknown;
}

/**
 * A promise while `stream` holds more unwritten text than its buffer should
 * (the reader is slower than the judge), settled when it drains, or closes
 * (a reader gone early: nothing will ever drain, and the output is dropped).
 */
export function whenDrained(stream: DrainableStream): Promise<void> | undefined {
  if (!stream.writableNeedDrain || stream.destroyed) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      stream.off("error", done);
      resolve();
    };
    stream.once("drain", done);
    stream.once("close", done);
    stream.once("error", done);
  });
}

/**
 * Adds each result to the tally, then to every sink, in order; once all are
 * in, finishes the sinks in order. Returns the files they wrote. A sink that
 * is not ready for more (`drained`) holds back the next result, or the next
 * batch: `results` may come a batch at a time (judgeCaseBatches), added in
 * one pass.
 */
export async function runSinks(
  results:
    | AsyncIterable<CaseResult | readonly CaseResult[] | RenderedRun | FileHold>
    | Iterable<CaseResult | readonly CaseResult[] | RenderedRun | FileHold>,
  sinks: readonly OutputSink[],
  tally: Tally,
): Promise<string[]> {
  // While a file's output is held (FileHold), its results are counted apart, and added to `tally` on commit.
  let held: Tally | undefined;
  const add = (result: CaseResult) => {
    (held ?? tally).add(result);
    for (const sink of sinks) sink.add(result);
  };
  const hold = (item: FileHold) => {
    if (item.kind === "hold") {
      held = tally.fresh();
      for (const sink of sinks) {
        if (sink.hold === undefined)
          throw new Error("internal error: an output that cannot hold a file's output was asked to (report/sink.ts)");
        sink.hold();
      }
    } else if (item.kind === "commit") {
      if (held !== undefined) tally.merge(held.part());
      held = undefined;
      for (const sink of sinks) sink.commit?.();
    } else {
      held = undefined;
      for (const sink of sinks) sink.discard?.();
    }
  };
  const addRendered = (run: RenderedRun) => {
    tally.merge(run.tally);
    let free = true;
    for (const sink of sinks) {
      if (sink.addRendered === undefined)
        throw new Error("internal error: an output that needs whole judgments got rendered cases (report/sink.ts)");
      if (!sink.addRendered(run)) free = false;
    }
    if (free) run.release?.();
  };
  try {
    for await (const item of results) {
      if (isBatch(item)) for (const result of item) add(result);
      else if (item.kind === "rendered") addRendered(item);
      else if (item.kind === "hold" || item.kind === "commit" || item.kind === "discard") hold(item);
      else add(item);
      for (const sink of sinks) {
        const wait = sink.drained?.();
        if (wait !== undefined) await wait;
      }
    }
    const written: string[] = [];
    for (const sink of sinks) written.push(...(await sink.finish(tally)));
    return written;
  } finally {
    for (const sink of sinks) sink.flush?.();
  }
}

function isBatch(item: CaseResult | readonly CaseResult[] | RenderedRun | FileHold): item is readonly CaseResult[] {
  return Array.isArray(item);
}

/** What `chunkedWriter` needs of a stream (process.stdout in the CLI). */
export interface ChunkStream extends DrainableStream {
  write(text: string | Uint8Array): unknown;
}

/**
 * Text is handed to the stream once this much is waiting, or when the run
 * next waits (for input, for a reader). At most 32K characters (and a case's
 * text beyond): text with a character outside Latin-1 (the text report's
 * "—") takes two bytes a character, and a joined chunk past 128 KB goes to
 * V8's large-object space, a mapping of its own each time, which made 64K
 * chunks of the text report ten times as slow to join as 32K ones (issue 26).
 */
export const CHUNK_CHARS = 1 << 15;

/**
 * Writes to `stream` in large chunks rather than a call per case: a write
 * is a system call (a file, /dev/null) or a request to the I/O threads (a
 * pipe), which cost more than rendering a small case. What is waiting goes
 * out once CHUNK_CHARS have gathered, and whenever the run waits for
 * anything (a setImmediate runs only then), so a filter between two pipes
 * still answers each line as soon as it is judged; `flush` writes the rest.
 */
export function chunkedWriter(
  stream: ChunkStream,
  writeText: Write = (text) => void stream.write(text),
  writeBytes: WriteBytes = (bytes) => {
    stream.write(bytes);
    return false;
  },
): HeldWriter {
  let parts: string[] = [];
  let size = 0;
  let scheduled = false;
  // While held (a file's output, FileHold): the chunks that would have been written, in order.
  let held: string[] | undefined;
  const flush = () => {
    if (size === 0) return;
    const text = parts.length === 1 ? parts[0]! : parts.join("");
    parts = [];
    size = 0;
    if (held !== undefined) held.push(text);
    else writeText(text);
  };
  const later = () => {
    scheduled = false;
    flush();
  };
  return {
    write(text) {
      if (text.length === 0) return;
      parts.push(text);
      size += text.length;
      if (size >= CHUNK_CHARS) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(later);
      }
    },
    // Already one large piece: after what waits, as it is.
    writeBytes(bytes) {
      // Worker threads' bytes come only in runs that hold nothing (commands/workers.ts judgedOutput).
      if (held !== undefined) throw new Error("internal error: rendered bytes while a file's output is held (report/sink.ts)");
      flush();
      return bytes.length === 0 || writeBytes(bytes);
    },
    flush,
    drained: () => whenDrained(stream),
    hold() {
      flush();
      held = [];
    },
    commit() {
      flush();
      const chunks = held ?? [];
      held = undefined;
      for (const chunk of chunks) writeText(chunk);
    },
    discard() {
      held = undefined;
      parts = [];
      size = 0;
    },
  };
}

/**
 * `sink`, whose text goes to `out`: a slow reader of `out` holds the run back
 * (drained) rather than letting output pile up in memory, and a file's
 * output is held by the writer (its text) and the sink (its own place, such
 * as whether `--json`'s first element is written).
 */
export function writtenBy(sink: OutputSink, out: HeldWriter): OutputSink {
  return {
    ...sink,
    drained: out.drained,
    flush: out.flush,
    hold() {
      out.hold();
      sink.hold?.();
    },
    commit() {
      sink.commit?.();
      out.commit();
    },
    discard() {
      out.discard();
      sink.discard?.();
    },
  };
}

/** chunkedWriter's writer: `hold`, `commit` and `discard` are OutputSink's, for the text it is given. */
export interface HeldWriter {
  write: Write;
  writeBytes: WriteBytes;
  flush: () => void;
  drained: () => Promise<void> | undefined;
  hold: () => void;
  commit: () => void;
  discard: () => void;
}

/**
 * For a stream on a file or a character device that is no terminal
 * (/dev/null), which Node writes synchronously: a write of the text on its
 * descriptor, as the stream does after first copying the text into a
 * Buffer (a twentieth of a run). Undefined for a pipe or a terminal.
 */
export function fileWrite(stream: { fd?: unknown; isTTY?: boolean }): Write | undefined {
  const fd = writableFd(stream);
  return fd === undefined ? undefined : (text) => void writeSync(fd, text);
}

/** As fileWrite, for bytes: every byte written (writeSync may write fewer than asked), at once. */
export function fileWriteBytes(stream: { fd?: unknown; isTTY?: boolean }): WriteBytes | undefined {
  const fd = writableFd(stream);
  if (fd === undefined) return undefined;
  return (bytes) => {
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
    return true;
  };
}

function writableFd(stream: { fd?: unknown; isTTY?: boolean }): number | undefined {
  const fd = stream.fd;
  if (typeof fd !== "number" || stream.isTTY === true) return undefined;
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() && !stats.isCharacterDevice()) return undefined;
  } catch {
    return undefined;
  }
  return fd;
}
