/** A `.json` file read whole (docs/FORMATS.md §2): one trajectory, one labeled case, an array of either, or one trace to import. */
import { decodeUtf8, describeInvalidUtf8 } from "../files/utf8.js";
import { toCase, type InputCase } from "./case.js";
import { arrayElementLines, BOM, invalidJson } from "./json-text.js";
import { elementCases, formatMismatch, importedCases, importsWhole, type TraceReadOptions } from "./trace-inputs.js";

/** A .json file's cases once its value is parsed; `lines` gives the line of each element of an array. */
export function* parsedCases(
  value: unknown,
  file: string,
  lines: () => readonly number[],
  options: TraceReadOptions,
): Generator<InputCase> {
  // A format given that the file plainly does not have: one line naming the one it looks like.
  const mismatch = formatMismatch(value, options);
  if (mismatch !== undefined) {
    yield { file, index: 0, error: mismatch };
    return;
  }
  // A trace file of another format (a chat log, a span export) is imported as a whole.
  if (importsWhole(value, options)) {
    // Paths such as `[3].messages[2]` stay as they are: in a JSON file they point into the value.
    yield* importedCases(value, file, 0, options);
  } else if (Array.isArray(value)) {
    const starts = lines();
    for (let i = 0; i < value.length; i++) {
      const line = starts[i];
      yield* elementCases(value[i], line === undefined ? { file, index: i } : { file, index: i, line }, options);
    }
  } else {
    yield* elementCases(value, { file, index: 0 }, options);
  }
}

/** The cases of a whole .json file's bytes. */
export function* jsonFileCases(file: string, bytes: Uint8Array, options: TraceReadOptions): Generator<InputCase> {
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) {
    const { invalid } = decoded;
    yield { file, index: 0, line: invalid.line, col: invalid.col, error: describeInvalidUtf8(invalid) };
    return;
  }
  let text = decoded.text;
  // A byte order mark (Windows editors write one) is not JSON; RFC 8259 lets readers ignore it.
  if (text.startsWith(BOM)) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    yield { file, index: 0, ...invalidJson(text, error) };
    return;
  }
  yield* parsedCases(value, file, () => arrayElementLines(text), options);
}
