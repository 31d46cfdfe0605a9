/**
 * `judge --json` (docs/FORMATS.md §6): one JSON array on stdout, element i for
 * input case i; `judge --jsonl`: the same elements, one line each.
 */
import type { TrajectoryJudgment } from "../../runtime/types.js";
import type { CaseResult, FailedCase } from "../run/judge-cases.js";
import { compactJudgmentHead, indentedJudgmentHead } from "./judgment-json.js";
import { bytesAsText, renumbered, type OutputSink, type RenderedRun, type Write, type WriteBytes } from "./sink.js";
import { renderRunSummary } from "./summary.js";

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

export function jsonCaseError(result: FailedCase): JsonCaseError {
  const { file, index, line } = result.input;
  return { file, case: index, ...(line !== undefined ? { line } : {}), caseError: result.message };
}

/**
 * The `--json` element of a judged case: the judgment, then where it came
 * from (`file`, and `case`, its 0-based index in that file), so a verdict can
 * be traced to its input without counting positions. The judgment's own
 * fields come first and keep their order.
 */
export type JsonJudgment = TrajectoryJudgment & { file: string; case: number };

/** The one `--json` element of a case (judged or not), as every JSON output writes it: the array, and the queue's results. */
export function jsonElement(result: CaseResult): JsonJudgment | JsonCaseError {
  if (result.kind === "failed") return jsonCaseError(result);
  return { ...result.judgment, file: result.input.file, case: result.input.index };
}

/**
 * An element of the array as JsonArrayWriter writes it: indented one level.
 * Stringified inside an array, which indents it so in the same pass (a
 * replace of every line break after it was a second pass over the text):
 * `[\n  ` before it, `\n]` after.
 */
function elementText(value: JsonJudgment | JsonCaseError): string {
  return indentedElement(value);
}

/**
 * Whether a judgment's JSON, with `file` and `case` written after its last
 * field, is the JSON of jsonElement's `{...judgment, file, case}`: it is a
 * plain object without fields of those names (nor a toJSON, which the copy
 * would not keep). Then the judgment is stringified as it is, without the
 * copy, which made stringifying it twice as slow (issue 26).
 */
function appendable(judgment: TrajectoryJudgment): boolean {
  return (
    !Object.hasOwn(judgment, "file") && !Object.hasOwn(judgment, "case") && typeof (judgment as { toJSON?: unknown }).toJSON !== "function"
  );
}

function indentedElement(value: object): string {
  const text = JSON.stringify([value], null, 2);
  return text.slice(4, -2);
}

/**
 * `prefix` and the JSON of a file name, quoted once per file rather than once
 * per case: cases come file by file, so one remembered file serves a run
 * (issue 26).
 */
function fileField(prefix: string): (file: string) => string {
  let last: string | undefined;
  let field = "";
  return (file) => {
    if (file !== last) {
      last = file;
      field = `${prefix}${JSON.stringify(file)}`;
    }
    return field;
  };
}

/** `file` after an element's last field, as elementText indents it, and as a compact line has it. */
const elementFile = fileField(`,\n    "file": `);
const lineFile = fileField(`,"file":`);

/**
 * A judged case's element without its last field, `case`, which a worker
 * thread may not know (run/pool.ts): `elementWithCase` completes it to
 * the bytes of `elementText`. A judgment of the runtime's shape is written
 * by report/judgment-json.ts (0.6× the time of the indented stringify),
 * anything else stringified. Undefined when a judgment has a `file` or
 * `case` field of its own, which would move them (or a toJSON).
 */
export function elementHead(judgment: TrajectoryJudgment, file: string): string | undefined {
  const known = indentedJudgmentHead(judgment);
  if (known !== undefined) return `${known}${elementFile(file)}`;
  if (!appendable(judgment)) return undefined;
  const text = indentedElement(judgment);
  // A judgment with fields ends "\n  }": the brace goes, `file` follows the last field; `case` and the brace come in elementWithCase.
  if (text.endsWith("\n  }")) return `${text.slice(0, -4)}${elementFile(file)}`;
  return indentedElement({ ...judgment, file }).slice(0, -4);
}

/** `index`, a case's number (an integer), is written as JSON writes it: a number's JSON is its string (issue 26: without a call to the stringifier per case). */
export function elementWithCase(head: string, index: number): string {
  return `${head},\n    "case": ${index}\n  }`;
}

/** As elementHead, for a `--jsonl` line: the compact element without `case` and its closing brace. */
export function lineHead(judgment: TrajectoryJudgment, file: string): string | undefined {
  const known = compactJudgmentHead(judgment);
  if (known !== undefined) return `${known}${lineFile(file)}`;
  if (!appendable(judgment)) return undefined;
  const text = JSON.stringify(judgment);
  if (text.length > 2 && text.endsWith("}")) return `${text.slice(0, -1)}${lineFile(file)}`;
  return JSON.stringify({ ...judgment, file }).slice(0, -1);
}

/** Completes a lineHead to the bytes `JSON.stringify(jsonElement(result))` gives. */
export function lineWithCase(head: string, index: number): string {
  return `${head},"case":${index}}`;
}

/** `--jsonl`'s line of a case, without its line break: `JSON.stringify(jsonElement(result))`. */
export function jsonLine(result: CaseResult): string {
  const head = result.kind === "judged" ? lineHead(result.judgment, result.input.file) : undefined;
  return head !== undefined ? lineWithCase(head, result.input.index) : JSON.stringify(jsonElement(result));
}

/** `--json`'s element of a case, indented one level: `elementText(jsonElement(result))`. */
function jsonArrayElement(result: CaseResult): string {
  const head = result.kind === "judged" ? elementHead(result.judgment, result.input.file) : undefined;
  return head !== undefined ? elementWithCase(head, result.input.index) : elementText(jsonElement(result));
}

/**
 * JSON output streams one element at a time yet is byte-identical to
 * `JSON.stringify(all, null, 2)`, so large corpora never sit in memory.
 */
class JsonArrayWriter {
  /** Elements written so far; `hold` remembers it, for `discard` to put back (the first element opens the array). */
  private count = 0;
  private countAtHold = 0;
  hold(): void {
    this.countAtHold = this.count;
  }
  discard(): void {
    this.count = this.countAtHold;
  }
  constructor(
    private readonly write: Write,
    private readonly writeBytes: WriteBytes,
  ) {}
  pushText(body: string): void {
    this.write(`${this.count === 0 ? "[\n  " : ",\n  "}${body}`);
    this.count++;
  }
  /** A RenderedRun's elements, each after its ",\n  ". Returns whether nothing holds its bytes (WriteBytes). */
  pushRun(run: RenderedRun): boolean {
    if (run.cases === 0) return true;
    const opening = this.count === 0;
    this.count += run.cases;
    const text = renumbered(run);
    if (text !== undefined) {
      this.write(opening ? `[\n  ${text.slice(4)}` : text);
      return true;
    }
    if (!opening) return this.writeBytes(run.bytes);
    this.write("[\n  ");
    return this.writeBytes(run.bytes.subarray(4));
  }
  end(): void {
    this.write(this.count === 0 ? "[]\n" : "\n]\n");
  }
}

/**
 * The judgments as one JSON document on `write` (stdout); the run's summary
 * lines go to `writeSummary` (stderr), so stdout stays one JSON document that
 * depends only on the inputs.
 */
export function jsonSink(write: Write, writeSummary: Write, options: { usage: boolean; writeBytes?: WriteBytes }): OutputSink {
  const array = new JsonArrayWriter(write, options.writeBytes ?? bytesAsText(write));
  return {
    add(result) {
      if (result.kind === "judged" && result.rendered !== undefined && "jsonHead" in result.rendered)
        array.pushText(elementWithCase(result.rendered.jsonHead, result.input.index));
      else array.pushText(jsonArrayElement(result));
    },
    addRendered(run) {
      return array.pushRun(run);
    },
    hold: () => array.hold(),
    discard: () => array.discard(),
    async finish(tally) {
      array.end();
      for (const line of renderRunSummary(tally, options)) writeSummary(`${line}\n`);
      return [];
    },
  };
}

/**
 * `--jsonl`: each case's `--json` element on a line of its own, written as
 * soon as the case is judged, so the judge is a filter between two pipes.
 * Line i is input case i; the summary lines go to `writeSummary` (stderr).
 */
export function jsonlSink(write: Write, writeSummary: Write, options: { usage: boolean; writeBytes?: WriteBytes }): OutputSink {
  const writeBytes = options.writeBytes ?? bytesAsText(write);
  return {
    add(result) {
      if (result.kind === "judged" && result.rendered !== undefined && "lineHead" in result.rendered)
        write(`${lineWithCase(result.rendered.lineHead, result.input.index)}\n`);
      else write(`${jsonLine(result)}\n`);
    },
    addRendered(run) {
      const text = renumbered(run);
      if (text === undefined) return writeBytes(run.bytes);
      write(text);
      return true;
    },
    async finish(tally) {
      for (const line of renderRunSummary(tally, options)) writeSummary(`${line}\n`);
      return [];
    },
  };
}
