/**
 * Judging a byte range of a JSONL file (ranges.ts holds the plan and the
 * writing): the work of a range worker (range-worker.ts), and of the main
 * thread, which judges ranges too between its writes. A range is read with
 * a descriptor of its own, split into lines, each parsed and judged, the
 * judged cases' stdout rendered in the run's output mode and counted in a
 * Tally, and all that handed on a chunk read at a time. The main thread
 * only numbers the cases and writes.
 *
 * Lines are numbered as in the whole file (the main thread counted the line
 * breaks before the range) and offsets are the file's, so the errors a
 * range locates are located as one thread locates them. Case numbers are
 * only guessed here (the main thread counted the non-blank lines before the
 * range; a trace line takes no number): the rendered text says where each
 * number is, and the main thread writes the text as it is when the guess
 * was right, else with the right numbers. A case that is not rendered here
 * (a failed case, a judgment whose JSON cannot be completed with its
 * number) goes back whole, numbered by the main thread.
 * A line that needs the importers goes back as its bytes, to be read on the
 * main thread in its turn, as the single-threaded reader reads it.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { Tally, type TallyPart } from "../analyses/tally.js";
import { byteLineBatches, type ByteLine } from "../files/byte-lines.js";
import type { InputCase } from "../inputs/case.js";
import { readAsIs } from "../inputs/importers.js";
import { jsonlValue, parseJsonlLine } from "../inputs/jsonl.js";
import type { TraceReadOptions } from "../inputs/trace-inputs.js";
import { elementHead, lineHead } from "../report/json.js";
import { renderTrajectoryText } from "../report/text.js";
import { judgeOne, type CaseResult, type JudgeCaseOptions, type OutputRender } from "./judge-cases.js";
import type { JudgeCode, JudgeModule } from "./load.js";

/** What every range worker of a run is started with (structured-cloned: no functions). */
export interface RangeSetup {
  judge: JudgeCode;
  read: Omit<TraceReadOptions, "onWarning">;
  /** Without a model (ranges are judged only without one): verify only. */
  judgeOptions: Pick<JudgeCaseOptions, "verify">;
  render: OutputRender;
  /** Bytes per read (tests read in tiny pieces, so lines and "\r\n" span reads). */
  readBytes?: number;
}

/**
 * Bytes `[start, end)` of `file`, whose first line is line `firstLine` of
 * the file and whose first case is guessed to be case `firstCase`; `start`
 * is 0 or follows a "\n".
 */
export interface RangeJob {
  id: number;
  file: string;
  start: number;
  end: number;
  firstLine: number;
  firstCase: number;
  /** The first line was read before (by a worker that died after it): it is counted, not read again. */
  skipFirst?: boolean;
  /** Announce each line before reading it and post after it (after a worker died in this range, to find the line it died on). */
  careful?: boolean;
}

/** What a range's lines gave, in their order. */
export type RangeItem =
  /** Judged cases, rendered, the first numbered `numbered` (report/sink.ts RenderedRun). */
  | { kind: "rendered"; bytes: Uint8Array; cuts: number[]; numbered: number; cases: number; tally: TallyPart }
  /** A case not rendered here, without its trajectory; its index is the main thread's to set. */
  | { kind: "result"; result: CaseResult }
  /** A line for the importers, read on the main thread in its turn. */
  | { kind: "raw"; bytes: Uint8Array; offset: number; line: number }
  /** An importer warning, located. */
  | { kind: "warning"; message: string };

/** A line, by its number in the file and the offset it starts at. */
export interface LinePlace {
  line: number;
  offset: number;
}

/** What the main thread sends a worker: the run's setup (first), a range to judge, or rendered bytes it has written, to be filled again. */
export type RangeInput = { setup: RangeSetup } | RangeJob | { spare: ArrayBuffer };

export type RangeMessage =
  | { kind: "ready" }
  /** A careful job reads this line next, or judges its case. */
  | { kind: "begin"; id: number; at: LinePlace; stage: "reading" | "judging" }
  /** Items of job `id` so far; `last`, the last line read (none yet: undefined); `done` once the range is read. */
  | { kind: "batch"; id: number; items: RangeItem[]; last: LinePlace | undefined; done: boolean };

/**
 * Reads in 64 KB chunks, as the single-threaded reader does, and gathers at
 * most 32K characters of rendered text an item: larger pieces (1 MB reads
 * and their joined output) went to fresh pages of memory each time, and
 * touching them cost more system time than the thread saved.
 */
const READ_CHUNK = 1 << 16;
const ITEM_CHARS = 1 << 15;

/**
 * Rendered text is encoded here, in parallel, into buffers that move to the
 * main thread, which writes them as they are and sends them back: filled
 * again, they cost no fresh memory. A buffer holds an item of ITEM_CHARS
 * and the case that passed it, mostly; what does not fit gets a buffer of
 * its own.
 */
const SPARE_BYTES = 1 << 16;
const SPARE_BUFFERS = 32;
const spares: ArrayBuffer[] = [];
const encoder = new TextEncoder();

/** A buffer of rendered bytes, written: kept to be filled again (up to SPARE_BUFFERS of them). */
export function spare(buffer: ArrayBuffer): void {
  if (spares.length < SPARE_BUFFERS && buffer.byteLength === SPARE_BYTES) spares.push(buffer);
}

/** `text` as UTF-8, in a spare buffer when it fits one. */
function encoded(text: string): Uint8Array {
  // Short texts (a read of long lines holds few cases) get a buffer of their size: a spare is zeroed whole when made.
  if (text.length > SPARE_BYTES || (spares.length === 0 && text.length < SPARE_BYTES / 4)) return encoder.encode(text);
  const view = new Uint8Array(spares.pop() ?? new ArrayBuffer(SPARE_BYTES));
  const { read, written } = encoder.encodeInto(text, view);
  if (read === text.length) return view.subarray(0, written);
  spares.push(view.buffer);
  return encoder.encode(text);
}

/**
 * The lines of bytes `[start, end)` of `file`, split as byte-lines.ts splits
 * them ("\n", "\r\n", a lone "\r"), with their file offsets, a batch per
 * read. Read synchronously (this thread has nothing else to do meanwhile)
 * into one buffer used again for every read: a batch's lines are only valid
 * until the next batch is asked for, and a line that spans reads is copied
 * whole. A fresh buffer per read piled up outside the heap until the next
 * collection, 40 MB more at its peak on a file of 100 KB lines.
 */
async function* rangeLines(file: string, start: number, end: number, readBytes: number): AsyncGenerator<ByteLine[]> {
  const fd = openSync(file, "r");
  try {
    yield* byteLineBatches(rangeReads(fd, start, end, readBytes), start);
  } finally {
    closeSync(fd);
  }
}

/** Bytes `[start, end)` of `fd`, each read into the same buffer. */
async function* rangeReads(fd: number, start: number, end: number, readBytes: number): AsyncGenerator<Uint8Array> {
  const buffer = Buffer.allocUnsafe(readBytes);
  for (let at = start; at < end;) {
    const read = readSync(fd, buffer, 0, Math.min(readBytes, end - at), at);
    if (read === 0) return;
    at += read;
    yield buffer.subarray(0, read);
    // A turn of the event loop, so the buffers the main thread has written come back meanwhile.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Gathers a chunk's items: judged cases rendered into one text, the others as they are. */
class Items {
  items: RangeItem[] = [];
  private parts: string[] = [];
  private cuts: number[] = [];
  private length = 0;
  private cases = 0;
  private tally: Tally;
  /** The guessed number of the first case of the text gathered, and of the next case. */
  private first: number;

  constructor(
    private readonly render: OutputRender,
    private readonly ruleNames: readonly string[],
    public next: number,
  ) {
    this.tally = new Tally(ruleNames);
    this.first = next;
  }

  private push(text: string): void {
    this.parts.push(text);
    this.length += text.length;
  }

  /** Adds a result: rendered into the text when it can be, else whole. */
  add(result: CaseResult, file: string): void {
    if (result.kind === "judged" && this.rendered(result, file)) {
      this.cases++;
      this.next++;
      this.tally.add(result);
      if (this.length >= ITEM_CHARS) this.end();
      return;
    }
    this.end();
    const { trajectory: _trajectory, ...input } = result.input;
    this.items.push({ kind: "result", result: { ...result, input } });
    this.next++;
    this.first = this.next;
  }

  /** The case's number, and where it is in the text (two cuts). */
  private number(): void {
    this.cuts.push(this.length);
    this.push(String(this.next));
    this.cuts.push(this.length);
  }

  private rendered(result: CaseResult & { kind: "judged" }, file: string): boolean {
    const { judgment } = result;
    if (this.render === "text") {
      this.push(`${renderTrajectoryText(judgment, file, { model: false, trajectory: result.input.trajectory })}\n`);
      return true;
    }
    // The bytes of lineWithCase and elementWithCase (report/json.ts), the number left out.
    if (this.render === "jsonl") {
      const head = lineHead(judgment, file);
      if (head === undefined) return false;
      this.push(`${head},"case":`);
      this.number();
      this.push("}\n");
      return true;
    }
    const head = elementHead(judgment, file);
    if (head === undefined) return false;
    this.push(`,\n  ${head},\n    "case": `);
    this.number();
    this.push("\n  }");
    return true;
  }

  /** A warning, or a raw line (guessed to take a number: most lines the importers read are cases). */
  other(item: RangeItem): void {
    this.end();
    this.items.push(item);
    if (item.kind === "raw") this.next++;
    this.first = this.next;
  }

  /** Closes the text gathered so far into an item. */
  end(): void {
    if (this.cases === 0) return;
    const { first: numbered, cases } = this;
    const bytes = encoded(this.parts.join(""));
    this.items.push({ kind: "rendered", bytes, cuts: this.cuts, numbered, cases, tally: this.tally.part() });
    this.first = this.next;
    this.parts = [];
    this.cuts = [];
    this.length = 0;
    this.cases = 0;
    this.tally = new Tally(this.ruleNames);
  }

  take(): RangeItem[] {
    this.end();
    const items = this.items;
    this.items = [];
    return items;
  }
}

/** What runRange throws when `stopped` said so: nothing of the line it was on, nor since the last batch, was posted. */
export class RangeStopped extends Error {}

/**
 * Judges the range of `job`, posting what its lines give a read at a time
 * (a line at a time when careful). `stopped`, asked after each case, ends it
 * with RangeStopped before that case is added (the main thread's judging,
 * when the judge called process.exit or the run is over). A line longer
 * than `maxLineBytes` ends it with RangeStopped before it is parsed: the
 * main thread leaves such a line to a worker, where running out of memory
 * costs that line only.
 */
export async function runRange(
  judge: JudgeModule,
  setup: RangeSetup,
  job: RangeJob,
  post: (message: RangeMessage) => void,
  stopped?: () => boolean,
  maxLineBytes = Infinity,
): Promise<void> {
  const { file } = job;
  const items = new Items(
    setup.render,
    judge.rules.map((rule) => rule.name),
    job.firstCase,
  );
  const read: TraceReadOptions = { ...setup.read, onWarning: (message) => items.other({ kind: "warning", message }) };

  const readLine = async (bytes: Uint8Array, offset: number, line: number, careful: boolean): Promise<void> => {
    // The index is the main thread's to set: 0 stands in.
    const origin = { file, index: 0, line };
    const parsed = parseJsonlLine(bytes, offset, origin);
    if (parsed.kind === "blank") return;
    let cases: Iterable<InputCase>;
    if (parsed.kind === "cases") cases = parsed.cases;
    else if (!Array.isArray(parsed.value) && readAsIs(parsed.value)) {
      // A trajectory, or a labeled case wrapping one: one case, read without the importers (on the
      // main thread too, where they may be loaded: the other lines go to the main loop's reader).
      const value = jsonlValue(parsed.value, origin, read);
      if (value.kind !== "cases") throw new Error("internal error: a trajectory line read as a trace (run/range-judge.ts)");
      cases = value.cases;
    } else {
      items.other({ kind: "raw", bytes: bytes.slice(), offset, line });
      return;
    }
    if (careful) post({ kind: "begin", id: job.id, at: { line, offset }, stage: "judging" });
    for (const input of cases) {
      const result = await judgeOne(judge, input, setup.judgeOptions);
      if (stopped?.() === true) throw new RangeStopped();
      items.add(result, file);
    }
  };

  let line = job.firstLine - 1;
  let last: LinePlace | undefined;
  let skip = job.skipFirst === true;
  for await (const lines of rangeLines(file, job.start, job.end, setup.readBytes ?? READ_CHUNK)) {
    for (const { bytes, offset } of lines) {
      line++;
      if (skip) {
        skip = false;
        continue;
      }
      if (bytes.length > maxLineBytes) throw new RangeStopped();
      if (job.careful === true) post({ kind: "begin", id: job.id, at: { line, offset }, stage: "reading" });
      await readLine(bytes, offset, line, job.careful === true);
      last = { line, offset };
      if (job.careful === true) post({ kind: "batch", id: job.id, items: items.take(), last, done: false });
    }
    post({ kind: "batch", id: job.id, items: items.take(), last, done: false });
  }
  post({ kind: "batch", id: job.id, items: items.take(), last, done: true });
}
