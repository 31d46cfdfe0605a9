/**
 * The tokens of `when` expressions: strings (escapes resolved), numbers,
 * names and operators, scanned on demand, and the located failure that stops
 * the parse at the first syntax error. Misspelled operators (`===`, `=`, `&`)
 * are refused here, each with its hint.
 */
import type { WhenError } from "./when-tree.js";

/** The first syntax error; thrown inside the parser, caught by parseWhenSyntax. */
export class SyntaxFailure extends Error {
  constructor(readonly error: WhenError) {
    super(error.message);
  }
}

/** Stops the parse at a syntax error, located at `offset`. */
export function fail(offset: number, message: string, hint?: string): never {
  throw new SyntaxFailure(hint === undefined ? { offset, message } : { offset, message, hint });
}

type TokenKind = "identifier" | "number" | "string" | "operator" | "end";

export interface Token {
  kind: TokenKind;
  /** The source text (for a string: with its quotes). */
  text: string;
  offset: number;
  /** A string token's value, escapes resolved. */
  value?: string;
}

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const NUMBER = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
/** Longest first, so `<=` is not read as `<`. Wrong spellings are listed to be refused with a hint. */
const OPERATORS = [
  "===",
  "!==",
  "==",
  "!=",
  "<=",
  ">=",
  "&&",
  "||",
  "<",
  ">",
  "!",
  "+",
  "-",
  "*",
  "/",
  "(",
  ")",
  "[",
  "]",
  ",",
  ".",
  "=",
  "&",
  "|",
];
const MISSPELLED: Record<string, string> = {
  "===": "use == (values compare by kind: numbers, dates, then text)",
  "!==": "use !=",
  "=": "use == to compare",
  "&": "use && for and",
  "|": "use || for or",
};
const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  r: "\r",
  t: "\t",
  b: "\b",
  f: "\f",
  v: "\v",
  "'": "'",
  '"': '"',
  "\\": "\\",
  "/": "/",
};

/** A token as a message quotes it; a long one (a string literal) clipped. */
export function describeToken(token: Token): string {
  if (token.kind === "end") return "the end of the expression";
  return `\`${token.text.length > 40 ? `${token.text.slice(0, 39)}…` : token.text}\``;
}

/**
 * The cursor over a `when` text, reading one token ahead. The parser
 * (when-syntax.ts) extends it rather than holding one: a key path
 * (`r.flights.0.date`) is read character by character right after its name,
 * where `.0` must not be taken for a number, so the grammar moves the same
 * cursor the scanner does.
 */
export class WhenScanner {
  protected pos = 0;
  protected lookahead: Token | undefined;

  constructor(protected readonly text: string) {}

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  protected peek(): Token {
    this.lookahead ??= this.scan();
    return this.lookahead;
  }

  protected next(): Token {
    const token = this.peek();
    this.lookahead = undefined;
    return token;
  }

  protected isOperator(text: string): boolean {
    const token = this.peek();
    return token.kind === "operator" && token.text === text;
  }

  protected expectOperator(text: string, context: string): Token {
    const token = this.next();
    if (token.kind !== "operator" || token.text !== text)
      fail(token.offset, `expected \`${text}\` ${context}, found ${describeToken(token)}`);
    return token;
  }

  protected stickyMatch(pattern: RegExp, at: number): string | undefined {
    pattern.lastIndex = at;
    return pattern.exec(this.text)?.[0];
  }

  private scan(): Token {
    this.skipSpace();
    const offset = this.pos;
    if (offset >= this.text.length) return { kind: "end", text: "", offset };
    const c = this.text[offset]!;
    if (c === '"' || c === "'") return this.scanString(offset);
    if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(this.text[offset + 1] ?? ""))) return this.scanNumber(offset);
    const word = this.stickyMatch(IDENTIFIER, offset);
    if (word !== undefined) {
      this.pos += word.length;
      return { kind: "identifier", text: word, offset };
    }
    const operator = OPERATORS.find((op) => this.text.startsWith(op, offset));
    if (operator === undefined)
      fail(offset, `unexpected character ${JSON.stringify(String.fromCodePoint(this.text.codePointAt(offset)!))}`);
    const hint = MISSPELLED[operator];
    if (hint !== undefined) fail(offset, `\`${operator}\` is not an operator here`, hint);
    this.pos += operator.length;
    return { kind: "operator", text: operator, offset };
  }

  private scanNumber(offset: number): Token {
    const text = this.stickyMatch(NUMBER, offset)!;
    const after = this.text[offset + text.length] ?? "";
    if (/[A-Za-z0-9_$.]/.test(after)) {
      const junk = this.stickyMatch(/[A-Za-z0-9_$.]+/y, offset)!;
      fail(offset, `malformed number \`${junk}\``, "numbers are decimal: 12, -3.5, 1e3");
    }
    // A literal is a decimal number as toNumber reads values: finite, so 1e400 is no number.
    if (!Number.isFinite(Number(text))) fail(offset, `${text} is too large for a number`);
    this.pos += text.length;
    return { kind: "number", text, offset };
  }

  private scanString(offset: number): Token {
    const quote = this.text[offset]!;
    let value = "";
    let at = offset + 1;
    for (;;) {
      if (at >= this.text.length || this.text[at] === "\n" || this.text[at] === "\r") {
        fail(offset, "unterminated string", `close it with ${quote}`);
      }
      const c = this.text[at]!;
      if (c === quote) break;
      if (c !== "\\") {
        value += c;
        at++;
        continue;
      }
      const [resolved, length] = this.escape(at);
      value += resolved;
      at += length;
    }
    this.pos = at + 1;
    return { kind: "string", text: this.text.slice(offset, this.pos), offset, value };
  }

  /** The escape at `at` (a backslash): its value and its length in the source. */
  private escape(at: number): [string, number] {
    const c = this.text[at + 1] ?? "";
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) return [simple, 2];
    if (c === "0" && !/[0-9]/.test(this.text[at + 2] ?? "")) return ["\0", 2];
    if (c === "x") {
      const hex = this.stickyMatch(/[0-9A-Fa-f]{2}/y, at + 2);
      if (hex === undefined) fail(at, "bad escape: \\x needs two hex digits");
      return [String.fromCharCode(parseInt(hex, 16)), 4];
    }
    if (c === "u") {
      const four = this.stickyMatch(/[0-9A-Fa-f]{4}/y, at + 2);
      if (four !== undefined) return [String.fromCharCode(parseInt(four, 16)), 6];
      const braced = this.stickyMatch(/\{[0-9A-Fa-f]{1,6}\}/y, at + 2);
      const point = braced === undefined ? NaN : parseInt(braced.slice(1, -1), 16);
      if (!(point <= 0x10ffff)) fail(at, "bad escape: \\u needs four hex digits or {a code point}");
      return [String.fromCodePoint(point), 2 + braced!.length];
    }
    // JavaScript would quietly read `\d` as `d`; in a regex that is never what was meant.
    fail(at, `unknown escape \\${c}`, `write \\\\${c} for a backslash followed by ${c} (in a regex: "\\\\d+")`);
  }
}
