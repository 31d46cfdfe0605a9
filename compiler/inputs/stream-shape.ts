/**
 * What a stream of trajectories (stdin, a pipe) holds, told from its first
 * line without reading it twice (a pipe cannot seek): the reader it needs,
 * and its chunks again from the first byte for that reader.
 */
import { decodeUtf8 } from "../files/utf8.js";
import { findJsonSyntaxError } from "../files/json-syntax.js";

/**
 * - `array`: one JSON array, streamed element by element;
 * - `jsonl`: JSON Lines, line by line (also when line 1 is a whole array
 *   and another value follows it: lines that are arrays, such as one chat
 *   log per line, read as the `.jsonl` path reads them);
 * - `pretty`: one JSON document spread over lines (its first line opens an
 *   object and does not close it), which JSON Lines would report line by line.
 */
export type StreamShape = "array" | "jsonl" | "pretty";

/**
 * How much of a first line is held to tell an array line from an array:
 * a longer first line starting with "[" is streamed as an array, so a
 * large one-line array is never held whole.
 */
export const FIRST_LINE_BYTES = 16 * 1024 * 1024;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const isBlank = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const isLineEnd = (b: number) => b === 0x0a || b === 0x0d;

/** The chunks read so far, pulled on demand, searched by absolute offset. */
class Lookahead {
  readonly seen: Uint8Array[] = [];
  private total = 0;
  private ended = false;

  constructor(
    private readonly iterator: AsyncIterator<Uint8Array>,
    private readonly limit: number,
  ) {}

  get atEnd(): boolean {
    return this.ended;
  }

  private async pull(): Promise<boolean> {
    if (this.ended || this.total > this.limit) return false;
    const next = await this.iterator.next();
    if (next.done === true) {
      this.ended = true;
      return false;
    }
    this.seen.push(next.value);
    this.total += next.value.length;
    return true;
  }

  /** The offset of the first byte at or after `from` that `test` accepts; undefined at the end or past the limit. */
  async find(from: number, test: (b: number) => boolean): Promise<number | undefined> {
    let base = 0;
    for (let c = 0; ; c++) {
      if (c === this.seen.length && !(await this.pull())) return undefined;
      const chunk = this.seen[c]!;
      for (let j = Math.max(0, from - base); j < chunk.length; j++) if (test(chunk[j]!)) return base + j;
      base += chunk.length;
    }
  }

  /** The bytes from `from` up to `to` (default: all that was read). */
  bytes(from: number, to?: number): Buffer {
    return Buffer.concat(this.seen).subarray(from, to);
  }

  /** Every chunk from the first: those looked at, then the rest. */
  async *again(): AsyncGenerator<Uint8Array> {
    yield* this.seen;
    for (;;) {
      const next = await this.iterator.next();
      if (next.done === true) return;
      yield next.value;
    }
  }
}

/** Whether `text` is the start of a JSON value that the end of the text cuts off (not a mistake inside it). */
function cutOff(text: string): boolean {
  const found = findJsonSyntaxError(text);
  return found !== undefined && found.offset >= text.trimEnd().length;
}

function parses(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The stream's shape and its chunks again. Throws what the stream throws. */
export async function sniffStream(
  chunks: AsyncIterable<Uint8Array>,
  limit = FIRST_LINE_BYTES,
): Promise<{ shape: StreamShape; chunks: AsyncIterable<Uint8Array> }> {
  const look = new Lookahead(chunks[Symbol.asyncIterator](), limit);
  const result = (shape: StreamShape) => ({ shape, chunks: look.again() });
  let start = await look.find(0, (b) => !isBlank(b));
  // A byte order mark (a Windows editor's) comes before the first character.
  if (start === 0 && (await look.find(2, () => true)) === 2 && look.bytes(0, 3).equals(BOM)) start = await look.find(3, (b) => !isBlank(b));
  if (start === undefined) return result("jsonl");
  const first = look.bytes(start, start + 1)[0];
  if (first !== 0x5b && first !== 0x7b) return result("jsonl");
  const lineEnd = (await look.find(start, isLineEnd)) ?? (look.atEnd ? Infinity : undefined);
  // A first line longer than the limit: an array streams (it is one, or a huge array line), anything else is JSON Lines.
  if (lineEnd === undefined) return result(first === 0x5b ? "array" : "jsonl");
  const decoded = decodeUtf8(look.bytes(start, lineEnd === Infinity ? undefined : lineEnd));
  if (!decoded.ok) return result(first === 0x5b ? "array" : "jsonl");
  if (first === 0x7b) return result(cutOff(decoded.text) ? "pretty" : "jsonl");
  if (!Array.isArray(parses(decoded.text)) || lineEnd === Infinity) return result("array");
  // A whole array on line 1: JSON Lines when another value follows it.
  return result((await look.find(lineEnd, (b) => !isBlank(b))) === undefined ? "array" : "jsonl");
}
