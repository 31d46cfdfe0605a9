/** A `.json` file read whole (docs/FORMATS.md §2): one trajectory, one labeled case, an array of either, or one trace to import. */
import { decodeUtf8, describeInvalidUtf8 } from "../files/utf8.js";
import { looksLikeTrajectory } from "../../importers/formats.js";
import { isObject } from "../../runtime/is-object.js";
import { type InputCase } from "./case.js";
import { loadImporters, needsImporters } from "./importers.js";
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
    // The lines of the elements are found only if a case asks for one (an error names it): one pass, then kept.
    let starts: readonly number[] | undefined;
    const lineAt = (i: number): number | undefined => (starts ??= lines())[i];
    const plain = (options.from ?? "auto") === "trajectory" ? (v: unknown) => !isLabeled(v) : plainTrajectory;
    for (let i = 0; i < value.length; i++) {
      const element: unknown = value[i];
      if (plain(element)) {
        yield lazyLineCase(file, i, lineAt, element);
        continue;
      }
      const line = lineAt(i);
      yield* elementCases(element, line === undefined ? { file, index: i } : { file, index: i, line }, options);
    }
  } else {
    yield* elementCases(value, { file, index: 0 }, options);
  }
}

function isLabeled(value: unknown): boolean {
  return isObject(value) && "trajectory" in value;
}

/** A trajectory as it is (no import, no label): elementCases would give `toCase(value, origin)`. */
function plainTrajectory(value: unknown): boolean {
  return looksLikeTrajectory(value) && !isLabeled(value);
}

/**
 * The case `toCase(value, {file, index, line})` gives, with `line` an
 * enumerable getter: read (or spread, or cloned to a thread) only when
 * something needs it, mostly an error's place.
 */
function lazyLineCase(file: string, index: number, lineAt: (i: number) => number | undefined, trajectory: unknown): InputCase {
  return {
    file,
    index,
    get line() {
      // Every element of an array JSON.parse accepted has one; were it not found, it reads as absent.
      return lineAt(index) as number;
    },
    trajectory,
  };
}

/** A .json file's value and its text, or the one case that says why it has none. */
export type ParsedJsonFile = { kind: "parsed"; value: unknown; text: string } | { kind: "failed"; failure: InputCase };

/** `beforeParse` sees the decoded text before JSON.parse does (old-generation.ts). */
export function parseJsonFile(file: string, bytes: Uint8Array, beforeParse?: (text: string) => void): ParsedJsonFile {
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) {
    const { invalid } = decoded;
    return { kind: "failed", failure: { file, index: 0, line: invalid.line, col: invalid.col, error: describeInvalidUtf8(invalid) } };
  }
  let text = decoded.text;
  // A byte order mark (Windows editors write one) is not JSON; RFC 8259 lets readers ignore it.
  if (text.startsWith(BOM)) text = text.slice(1);
  beforeParse?.(text);
  try {
    return { kind: "parsed", value: JSON.parse(text), text };
  } catch (error) {
    return { kind: "failed", failure: { file, index: 0, ...invalidJson(text, error) } };
  }
}

/** old-generation.ts's LARGE_TEXT_CHARS as bytes: a file this large may be worth a collection before it is parsed. */
const LARGE_TEXT_BYTES = 1 << 22;

/**
 * What sees a large file's decoded text before it is parsed: one collection of the heap
 * (old-generation.ts, loaded only for such a file), so that V8 sets its limit from the text and
 * the start-up rather than from the start-up's garbage. Undefined for a small file.
 */
export async function beforeLargeParse(bytes: Uint8Array): Promise<((text: string) => void) | undefined> {
  return bytes.length >= LARGE_TEXT_BYTES ? (await import("./old-generation.js")).collectBeforeLargeParse : undefined;
}

/** The cases of a whole .json file's bytes, once the importers are loaded if its value may need them (importers.ts). */
export async function jsonFileCases(file: string, bytes: Uint8Array, options: TraceReadOptions): Promise<Iterable<InputCase>> {
  // A large file's value is held while it is judged: the heap is made ready for it first.
  const parsed = parseJsonFile(file, bytes, await beforeLargeParse(bytes));
  if (parsed.kind === "failed") return [parsed.failure];
  if (needsImporters(parsed.value)) await loadImporters();
  return parsedCases(parsed.value, file, () => arrayElementLines(parsed.text), options);
}
