/**
 * Where JSON text stops being JSON (RFC 8259), for error messages. JSON.parse
 * says where only for some mistakes and only on some Node versions (Node 20's
 * "Unexpected token" names no position, and quotes the input instead), so when
 * it fails, this scanner reads the text again and finds the first error, with
 * a message of its own that is the same on every Node version.
 *
 * Iterative, with an explicit stack: the text may nest as deep as JSON.parse
 * allows. Only called on text JSON.parse refused, so it favours clarity.
 */

export interface JsonSyntaxError {
  /** UTF-16 offset of the offending character (or of the string that never closes). */
  offset: number;
  message: string;
}

const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
/** A word where a value should be (`nul`, `yes`, `None`), at most 40 characters shown. */
const BARE_WORD = /[A-Za-z_][A-Za-z0-9_]{0,39}/y;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** The character at `offset` as a message shows it: printable ASCII in single quotes, anything else as U+XXXX. */
function describeAt(text: string, offset: number): string {
  if (offset >= text.length) return "the end of the input";
  const code = text.codePointAt(offset)!;
  if (code > 0x20 && code < 0x7f) return `'${String.fromCharCode(code)}'`;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * The first syntax error in `text`, or undefined if it is valid JSON. Agrees
 * with JSON.parse on what is valid (the test suite checks it on mutations).
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const length = text.length;
  let i = 0;
  const fail = (offset: number, message: string): JsonSyntaxError => ({ offset, message });
  const skipWhitespace = (): void => {
    for (; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
    }
  };

  const readString = (): JsonSyntaxError | undefined => {
    const start = i++;
    for (;;) {
      if (i >= length) return fail(start, "this string is never closed");
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i++;
        return undefined;
      }
      if (c === BACKSLASH) {
        const next = text.charCodeAt(i + 1);
        if (next === 0x75 /* u */) {
          for (let k = 2; k < 6; k++) {
            if (!isHexDigit(text.charCodeAt(i + k))) return fail(i, "\\u in a string must be followed by four hex digits");
          }
          i += 6;
        } else if ('"\\/bfnrt'.includes(text[i + 1] ?? "x")) {
          i += 2;
        } else {
          return fail(i, `invalid escape in a string: a backslash before ${describeAt(text, i + 1)}`);
        }
        continue;
      }
      if (c < 0x20) {
        if (c === 0x0a || c === 0x0d) return fail(i, "a string must not hold a line break (write \\n)");
        return fail(i, `a string must not hold the control character ${describeAt(text, i)} (escape it)`);
      }
      i++;
    }
  };

  const readNumber = (): JsonSyntaxError | undefined => {
    const start = i;
    const invalid = () => fail(start, "invalid number");
    if (text.charCodeAt(i) === MINUS) i++;
    if (text.charCodeAt(i) === 0x30) {
      i++;
      if (isDigit(text.charCodeAt(i))) return fail(start, "invalid number: no leading zeros");
    } else if (isDigit(text.charCodeAt(i))) {
      while (isDigit(text.charCodeAt(i))) i++;
    } else return invalid();
    if (text.charCodeAt(i) === 0x2e /* . */) {
      i++;
      if (!isDigit(text.charCodeAt(i))) return invalid();
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 0x2b || sign === MINUS) i++;
      if (!isDigit(text.charCodeAt(i))) return invalid();
      while (isDigit(text.charCodeAt(i))) i++;
    }
    return undefined;
  };

  /** A property name and its colon; `afterComma` names the trailing comma when the object closes instead. */
  const readKey = (afterComma: boolean): JsonSyntaxError | undefined => {
    skipWhitespace();
    if (text.charCodeAt(i) !== QUOTE) {
      if (afterComma && text.charCodeAt(i) === CLOSE_OBJECT)
        return fail(i, "expected a property name after the comma (JSON allows no trailing comma)");
      return fail(i, `expected a property name in double quotes, got ${describeAt(text, i)}`);
    }
    const bad = readString();
    if (bad !== undefined) return bad;
    skipWhitespace();
    if (text.charCodeAt(i) !== COLON) return fail(i, `expected ':' after the property name, got ${describeAt(text, i)}`);
    i++;
    return undefined;
  };

  /** Containers open around the current position. */
  const stack: number[] = [];
  let afterComma = false;
  for (;;) {
    // A value starts here.
    skipWhitespace();
    const c = text.charCodeAt(i);
    let bad: JsonSyntaxError | undefined;
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      i++;
      skipWhitespace();
      const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
      if (text.charCodeAt(i) !== close) {
        stack.push(c);
        if (c === OPEN_OBJECT) {
          bad = readKey(false);
          if (bad !== undefined) return bad;
        }
        afterComma = false;
        continue;
      }
      i++;
    } else if (c === QUOTE) bad = readString();
    else if (c === MINUS || isDigit(c)) bad = readNumber();
    else if (text.startsWith("true", i)) i += 4;
    else if (text.startsWith("false", i)) i += 5;
    else if (text.startsWith("null", i)) i += 4;
    else if (afterComma && c === CLOSE_ARRAY) return fail(i, "expected a value after the comma (JSON allows no trailing comma)");
    else if (i >= length) return fail(i, "unexpected end of the input: a value is missing");
    else {
      BARE_WORD.lastIndex = i;
      const word = BARE_WORD.exec(text)?.[0];
      if (word !== undefined) return fail(i, `expected a value, got the bare word ${JSON.stringify(word)} (strings need double quotes)`);
      return fail(i, `expected a value, got ${describeAt(text, i)}`);
    }
    if (bad !== undefined) return bad;

    // A value ended: close the containers that end here, up to the next comma.
    for (;;) {
      skipWhitespace();
      const open = stack[stack.length - 1];
      const next = text.charCodeAt(i);
      if (open === undefined) return i < length ? fail(i, `unexpected ${describeAt(text, i)} after the JSON value`) : undefined;
      const close = open === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
      if (next === close) {
        i++;
        stack.pop();
        continue;
      }
      if (next !== COMMA) {
        if (i >= length) return fail(i, `unexpected end of the input: ${open === OPEN_OBJECT ? "an object" : "a list"} is not closed`);
        const what = open === OPEN_OBJECT ? "expected ',' or '}' after a property value" : "expected ',' or ']' after a list element";
        return fail(i, `${what}, got ${describeAt(text, i)}`);
      }
      i++;
      if (open === OPEN_OBJECT) {
        bad = readKey(true);
        if (bad !== undefined) return bad;
        afterComma = false;
      } else afterComma = true;
      break;
    }
  }
}

/** 1-based line and column (in UTF-16 units) of `offset`; lines end at "\n" (a "\r\n" ends one line). */
export function lineAndColumn(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, col: offset - lineStart + 1 };
}
