/**
 * A `.json` array read element by element, its output held back (issue 26,
 * docs/SPEED.md "Tenth round"). `JSON.parse` of the whole text builds every
 * element before the first is judged, and the run then holds them all: the
 * collector copies them in young collections and marks them in old ones.
 * Parsed one at a time, each element is judged and dies young.
 *
 * The rule it keeps: a file with a syntax error anywhere judges nothing (its
 * one case is the error, located as the whole-file reader locates it). An
 * element-by-element reader meets a mistake only when it gets there, so the
 * consumer holds the file's output (FileHold): `hold` before its first case,
 * `commit` once the last element is parsed and the array closed, `discard`
 * when anything is not as this reader expects, after which the whole-file
 * reader (json-file.ts) reads the file again, as it always did, and says
 * what is wrong. What is held is the file's rendered output and its tally,
 * never its elements.
 *
 * The layout it reads is what writers of large arrays produce: one element
 * a line, each but the last followed by a comma on its line, the brackets
 * around them on lines of their own or beside the first and last element.
 * Anything else (a pretty-printed array, an element that is not a plain
 * trajectory, blank lines between elements, an empty array) is read whole.
 */
import { decodeUtf8 } from "../files/utf8.js";
import { plainTrajectory } from "./importers.js";
import type { FileHold, InputCase } from "./case.js";
import { BOM } from "./json-text.js";
import type { TraceReadOptions } from "./trace-inputs.js";

/** Where one element's text is: `[from, to)`, starting on `line` (1-based). */
interface Span {
  from: number;
  to: number;
  line: number;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * The spans of the elements of `text` laid out one a line; returns true when
 * the array closed with only JSON whitespace after it, false at the first
 * thing that is not that layout (the caller reads the text whole then).
 * Nothing here checks an element: JSON.parse of each span does, and a line
 * break is never inside a valid JSON string, so a span is never cut inside
 * one. If every span parses and this returns true, the text is
 * `[ span, span, …, span ]` with JSON whitespace between: valid JSON whose
 * elements are the spans' values.
 */
function* lineElements(text: string): Generator<Span, boolean, void> {
  let line = 1;
  let i = 0;
  const skipBlank = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (!isBlank(c)) break;
      if (c === 0x0a) line++;
      i++;
    }
  };
  const restIsBlank = (from: number) => {
    for (let j = from; j < text.length; j++) if (!isBlank(text.charCodeAt(j))) return false;
    return true;
  };
  skipBlank();
  if (text.charCodeAt(i) !== 0x5b) return false;
  i++;
  skipBlank();
  // An empty array (or nothing after "["): read whole, where `[]`'s own rules apply.
  if (i >= text.length || text.charCodeAt(i) === 0x5d) return false;
  for (;;) {
    const newline = text.indexOf("\n", i);
    const lineEnd = newline === -1 ? text.length : newline;
    let end = lineEnd;
    while (end > i && isBlank(text.charCodeAt(end - 1))) end--;
    const last = text.charCodeAt(end - 1);
    if (last === 0x2c) {
      // "element," : another element follows.
      yield { from: i, to: end - 1, line };
      i = lineEnd;
      skipBlank();
      if (i >= text.length) return false;
      continue;
    }
    if (last === 0x5d) {
      // "element]" : the last element and the array's end on one line.
      yield { from: i, to: end - 1, line };
      return restIsBlank(end);
    }
    // "element" alone: the next thing must be the "]" that closes the array.
    yield { from: i, to: end, line };
    i = lineEnd;
    skipBlank();
    return text.charCodeAt(i) === 0x5d && restIsBlank(i + 1);
  }
}

const HOLD: FileHold = { kind: "hold" };
const COMMIT: FileHold = { kind: "commit" };
const DISCARD: FileHold = { kind: "discard" };

/**
 * The cases of a `.json` file's bytes in batches of `batchCases`, between a
 * `hold` and a `commit`, when the file is an array of plain trajectories
 * laid out one a line; `undefined` when it is plainly not (not UTF-8, no
 * "[" first, a `from` other than auto or trajectory): the caller reads it
 * whole. A `discard` says the batches since `hold` were not the file's cases
 * after all (see above); `readWhole` then gives them.
 */
export function* heldArrayBatches(
  file: string,
  bytes: Uint8Array,
  options: TraceReadOptions,
  batchCases: number,
  beforeParse?: (text: string) => void,
): Generator<InputCase[] | FileHold, "whole" | "done", void> {
  const from = options.from ?? "auto";
  if (from !== "auto" && from !== "trajectory") return "whole";
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) return "whole";
  let text = decoded.text;
  if (text.startsWith(BOM)) text = text.slice(1);
  const spans = lineElements(text);
  let next = spans.next();
  // Not even one element to read this way: nothing held, nothing to discard.
  if (next.done === true) return "whole";
  // The text and the output held are what live through the run: the heap's limit is set from them
  // (json-file.ts beforeLargeParse), so neither is marked again while the elements come and go.
  beforeParse?.(text);
  yield HOLD;
  let batch: InputCase[] = [];
  let index = 0;
  while (next.done !== true) {
    const { from: start, to, line } = next.value;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, to));
    } catch {
      yield DISCARD;
      return "whole";
    }
    // What the whole-file reader would make something else of (a labeled case, a trace): read whole.
    if (!plainTrajectory(value)) {
      yield DISCARD;
      return "whole";
    }
    // The case parsedCases gives a plain trajectory (toCase), its line known here rather than looked up.
    batch.push({ file, index: index++, line, trajectory: value });
    if (batch.length === batchCases) {
      yield batch;
      batch = [];
    }
    next = spans.next();
  }
  if (!next.value) {
    yield DISCARD;
    return "whole";
  }
  if (batch.length > 0) yield batch;
  yield COMMIT;
  return "done";
}
