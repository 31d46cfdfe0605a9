/**
 * A top-level JSON array read element by element from a byte stream, so a
 * file (or stdin) far larger than memory is never held whole: only the
 * element being read is. The scanner finds where each element ends (strings,
 * escapes and nesting are tracked; JSON.parse checks the rest) and counts
 * lines, so each element knows the line it starts on, as arrayElementLines
 * gives it for a whole file.
 *
 * A mistake is located as findJsonSyntaxError would locate it in the whole
 * text: that scanner is run on a window that starts at the last element read
 * (behind a "[" or "[0," that puts it in the same state) and runs a little
 * past the point where this scanner stopped.
 */
import { findJsonSyntaxError, lineAndColumn } from "./json-syntax.js";
import { decodeUtf8, describeInvalidUtf8, type InvalidUtf8 } from "./utf8.js";

/** One element (its parsed value and the line it starts on), or the first mistake, located; nothing follows a mistake. */
export type ArrayStreamItem =
  { kind: "element"; value: unknown; line: number } | { kind: "error"; line?: number; col?: number; error: string };

/** How far past the point of failure the window reaches: findJsonSyntaxError names up to 40 characters of a bare word. */
const LOOKAHEAD_BYTES = 64;

const enum State {
  /** Before the "[" (only whitespace, and a byte order mark at the very start, may come first). */
  Start,
  /** After "[" or ",": an element, or (not after a comma) the "]". */
  Value,
  /** Inside an element. */
  Element,
  /** After an element: "," or "]". */
  AfterElement,
  /** After the closing "]": only whitespace. */
  End,
  /** A mistake was seen: collecting the lookahead before locating it. */
  Failed,
}

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
/** Bytes a number, true, false or null is made of; anything else ends a bare element (JSON.parse judges what it got). */
const isBareByte = (b: number): boolean =>
  (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || b === 0x2d || b === 0x2b || b === 0x2e;

/** Where a piece of the input starts: byte offset, 1-based line, and 1-based column in UTF-16 units (as lineAndColumn counts). */
interface Place {
  byte: number;
  line: number;
  col: number;
}

/**
 * Bytes that end `bytes` in the middle of a character (the window was cut
 * there, not the input), dropped so the window decodes.
 */
function wholeCharacters(bytes: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue;
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return length > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}

/**
 * What the scanner inside an element returns besides the index past its end:
 * that it goes on in the next chunk, or (encoded below -1) the index of a
 * byte that cannot be there.
 */
const GOES_ON = -1;
const failedAt = (i: number): number => -2 - i;
const failureIndex = (result: number): number => -2 - result;

/**
 * The incremental scanner: `push` each chunk, then `end`; elements and the
 * mistake come out of both. Between elements it goes byte by byte; inside
 * one it only tracks strings and nesting, and the element's text (decoded
 * once it is whole) moves the line and column past it.
 */
class ArrayScanner {
  private state = State.Start;
  /** Where the scanner is, between elements: byte offset, 1-based line, UTF-16 units since the line's start. */
  private byte = 0;
  private line = 1;
  private col = 0;
  private afterComma = false;
  /**
   * The window: views of the chunks (each read gets a buffer of its own)
   * from the start of the last element begun, or from the "[" before any,
   * to here; where it starts; and the prefix that puts findJsonSyntaxError
   * in the same state there ("" at the "[", "[" before the first element,
   * "[0," before any other).
   */
  private window: Uint8Array[] = [];
  private windowStart: Place = { byte: 0, line: 1, col: 1 };
  private windowPrefix = "";
  /** Open containers of the element in progress ("[" or "{"), innermost last. */
  private readonly stack: number[] = [];
  private inString = false;
  private escaped = false;
  /** The element is a number or a word: it ends at the first byte that cannot be part of one. */
  private bare = false;
  private lookaheadLeft = 0;
  /** At the end of the input, not where the window was cut. */
  private atEnd = false;

  constructor(private readonly skipBom: boolean) {}

  *push(chunk: Uint8Array, first: boolean): Generator<ArrayStreamItem> {
    let i = 0;
    // A byte order mark is not JSON; the whole-file reader drops it too.
    if (first && this.skipBom) {
      i = 3;
      this.byte = 3;
    }
    let from = i;
    const n = chunk.length;
    while (i < n) {
      if (this.state === State.Failed) {
        if (n - i < this.lookaheadLeft) {
          this.lookaheadLeft -= n - i;
          break;
        }
        this.window.push(chunk.subarray(from, i + this.lookaheadLeft));
        yield this.locate();
        return;
      }
      if (this.state === State.Element) {
        const end = this.scanElement(chunk, i);
        if (end === GOES_ON) break;
        if (end < GOES_ON) {
          i = failureIndex(end);
          this.fail();
          i++;
          continue;
        }
        this.window.push(chunk.subarray(from, end));
        from = end;
        i = end;
        const item = this.element();
        yield item;
        if (item.kind === "error") return;
        continue;
      }
      const b = chunk[i]!;
      if (this.between(b)) {
        // An element starts here (or the "[" before any): the window moves to it.
        this.window = [];
        this.windowStart = { byte: this.byte, line: this.line, col: this.col + 1 };
        from = i;
        // (between() has changed the state: read it afresh.)
        if (this.currentState() === State.Element) continue;
      }
      if (this.currentState() !== State.Failed) this.advance(b);
      i++;
    }
    // The rest of the chunk is part of the element in progress, or of the lookahead.
    if (from < n) this.window.push(chunk.subarray(from));
  }

  /** The end of the input: a number or word in progress ends here; anything still open is a mistake. */
  *end(): Generator<ArrayStreamItem> {
    this.atEnd = true;
    if (this.state === State.Element && this.bare) {
      const item = this.element();
      yield item;
      if (item.kind === "error") return;
    }
    if (this.state !== State.End) yield this.locate();
  }

  private currentState(): State {
    return this.state;
  }

  private fail(): void {
    this.state = State.Failed;
    this.lookaheadLeft = LOOKAHEAD_BYTES;
  }

  /** A byte between elements (all of JSON's structure there is ASCII). */
  private advance(b: number): void {
    this.byte++;
    if (b === 0x0a) {
      this.line++;
      this.col = 0;
    } else if ((b & 0xc0) !== 0x80) this.col += b >= 0xf0 ? 2 : 1;
  }

  /** One byte outside the elements; true when it opens the window (the "[", or an element's first byte). */
  private between(b: number): boolean {
    switch (this.state) {
      case State.Start:
        if (isSpace(b)) return false;
        if (b !== 0x5b) {
          this.fail();
          return false;
        }
        this.state = State.Value;
        return true;
      case State.Value:
        if (isSpace(b)) return false;
        if (b === 0x5d && !this.afterComma) {
          this.state = State.End;
          return false;
        }
        return this.beginElement(b);
      case State.AfterElement:
        if (isSpace(b)) return false;
        if (b === 0x2c) {
          this.state = State.Value;
          this.afterComma = true;
        } else if (b === 0x5d) this.state = State.End;
        else this.fail();
        return false;
      default:
        if (!isSpace(b)) this.fail();
        return false;
    }
  }

  private beginElement(b: number): boolean {
    this.stack.length = 0;
    this.inString = false;
    this.escaped = false;
    this.bare = false;
    // scanElement reads this byte again, as the element's first.
    if (isBareByte(b)) this.bare = true;
    else if (b !== 0x5b && b !== 0x7b && b !== 0x22) {
      this.fail();
      return false;
    }
    this.windowPrefix = this.afterComma ? "[0," : "[";
    this.state = State.Element;
    return true;
  }

  /**
   * Reads the element in progress from `i` (its first byte included): the
   * index just past its end, GOES_ON, or failedAt a closing bracket that does
   * not match. Hot: locals only.
   */
  private scanElement(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    if (this.bare) {
      while (i < n && isBareByte(chunk[i]!)) i++;
      return i < n ? i : GOES_ON;
    }
    const stack = this.stack;
    let inString = this.inString;
    let escaped = this.escaped;
    for (; i < n; i++) {
      const b = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === 0x5c) escaped = true;
        else if (b === 0x22) {
          inString = false;
          if (stack.length === 0) {
            this.inString = false;
            return i + 1;
          }
        }
        continue;
      }
      if (b === 0x22) inString = true;
      else if (b === 0x5b || b === 0x7b) stack.push(b);
      else if (b === 0x5d || b === 0x7d) {
        if (stack.pop() !== (b === 0x5d ? 0x5b : 0x7b)) return failedAt(i);
        if (stack.length === 0) {
          this.inString = false;
          return i + 1;
        }
      }
    }
    this.inString = inString;
    this.escaped = escaped;
    return GOES_ON;
  }

  /** The element the window holds, parsed; a mistake in it is located. Moves the place past it. */
  private element(): ArrayStreamItem {
    const bytes = this.window.length === 1 ? this.window[0]! : Buffer.concat(this.window);
    this.window = [bytes];
    this.state = State.AfterElement;
    this.afterComma = false;
    const decoded = decodeUtf8(bytes);
    if (!decoded.ok) return this.invalidUtf8(decoded.invalid);
    const text = decoded.text;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.locate();
    }
    const start = this.windowStart;
    this.byte = start.byte + bytes.length;
    const lastBreak = text.lastIndexOf("\n");
    if (lastBreak === -1) {
      this.line = start.line;
      this.col = start.col - 1 + text.length;
    } else {
      let breaks = 0;
      for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) breaks++;
      this.line = start.line + breaks;
      this.col = text.length - lastBreak - 1;
    }
    return { kind: "element", value, line: start.line };
  }

  private invalidUtf8(invalid: InvalidUtf8): ArrayStreamItem {
    const start = this.windowStart;
    this.state = State.Failed;
    return {
      kind: "error",
      line: start.line + invalid.line - 1,
      col: invalid.line === 1 ? start.col + invalid.col - 1 : invalid.col,
      error: describeInvalidUtf8(invalid, start.byte),
    };
  }

  /** The first mistake in the window, as findJsonSyntaxError finds it, placed in the whole input. */
  private locate(): ArrayStreamItem {
    this.state = State.Failed;
    const joined = Buffer.concat(this.window);
    const decoded = decodeUtf8(this.atEnd ? joined : wholeCharacters(joined));
    if (!decoded.ok) return this.invalidUtf8(decoded.invalid);
    const text = decoded.text;
    const found = findJsonSyntaxError(this.windowPrefix + text);
    // The window is always valid up to where this scanner stopped; past it, it is cut short.
    const offset = found === undefined ? text.length : found.offset - this.windowPrefix.length;
    const at = lineAndColumn(text, Math.max(0, offset));
    const start = this.windowStart;
    return {
      kind: "error",
      line: start.line + at.line - 1,
      col: at.line === 1 ? start.col + at.col - 1 : at.col,
      error: `invalid JSON: ${found?.message ?? "unexpected end of the input"}`,
    };
  }
}

/**
 * The elements of the JSON array in `chunks`, one at a time, each with the
 * line it starts on; the first mistake ends it (located as in the whole
 * text). The input must start with "[" (after whitespace or a byte order mark).
 */
export async function* jsonArrayElements(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<ArrayStreamItem> {
  let scanner: ArrayScanner | undefined;
  // The first three bytes are looked at together, so a byte order mark split across reads is still seen.
  let head: Uint8Array[] | undefined = [];
  const push = (bytes: Uint8Array): Generator<ArrayStreamItem> => {
    const first = scanner === undefined;
    scanner ??= new ArrayScanner(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf);
    return scanner.push(bytes, first);
  };
  for await (const chunk of chunks) {
    let bytes = chunk;
    if (head !== undefined) {
      head.push(chunk);
      bytes = Buffer.concat(head);
      if (bytes.length < 3) continue;
      head = undefined;
    }
    for (const item of push(bytes)) {
      yield item;
      if (item.kind === "error") return;
    }
  }
  if (head !== undefined && head.length > 0) {
    for (const item of push(Buffer.concat(head))) {
      yield item;
      if (item.kind === "error") return;
    }
  }
  yield* (scanner ?? new ArrayScanner(false)).end();
}
