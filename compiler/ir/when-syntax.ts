/**
 * The syntax of `when` expressions (semantics.md, "when expressions"): a
 * hand-written recursive-descent parser from text to a WhenNode tree. It
 * stops at the first syntax error (what follows one is rarely worth
 * reporting); names and types are checked afterwards, on the whole tree, by
 * when.ts. Nesting is capped (MAX_DEPTH), so hostile input gets a located
 * error instead of overflowing the stack here, in the checker or in the
 * lowering, which all recurse over the tree.
 */
import { didYouMean } from "./did-you-mean.js";

/** Both operands are values; the result is a condition. */
export type ComparisonOperator = "==" | "!=" | "<" | "<=" | ">" | ">=";
export type ArithmeticOperator = "+" | "-" | "*" | "/";
/** The fields of an event a reference reads directly; any other path is a metadata key. */
export type EventField = "content" | "action" | "actor";

/**
 * A node of a parsed `when` expression. `offset` is where a diagnostic about
 * the node points, in UTF-16 units from the start of the text: the operator of
 * a binary or `in` node, else the node's first character. References carry
 * `label`, the canonical spelling a report shows (`r.cabin`, `r["a b"]`).
 */
export type WhenNode =
  | { kind: "string"; value: string; offset: number }
  | { kind: "number"; value: number; offset: number }
  | { kind: "boolean"; value: boolean; offset: number }
  | { kind: "null"; offset: number }
  | { kind: "list"; items: WhenNode[]; offset: number }
  | { kind: "field"; name: string; field: EventField; label: string; offset: number }
  | { kind: "metadata"; name: string; key: string; label: string; offset: number }
  | { kind: "count"; name: string; prefix: string; label: string; offset: number }
  | { kind: "not"; operand: WhenNode; offset: number }
  | { kind: "and" | "or"; operands: WhenNode[]; offset: number }
  | { kind: "compare"; op: ComparisonOperator; left: WhenNode; right: WhenNode; offset: number }
  | { kind: "in"; value: WhenNode; list: WhenNode; offset: number }
  | { kind: "arithmetic"; op: ArithmeticOperator; left: WhenNode; right: WhenNode; offset: number }
  | { kind: "negate"; operand: WhenNode; offset: number }
  | { kind: "matches"; value: WhenNode; pattern: string; flags: string; patternOffset: number; flagsOffset: number; offset: number };

/** One located problem with a `when` expression. */
export interface WhenError {
  offset: number;
  message: string;
  hint?: string;
}

/** How deep an expression may nest: parentheses, operands, arguments and list items each count one level. */
export const MAX_DEPTH = 64;

/** The first syntax error; thrown inside the parser, caught by parseWhenSyntax. */
class SyntaxFailure extends Error {
  constructor(readonly error: WhenError) {
    super(error.message);
  }
}

function fail(offset: number, message: string, hint?: string): never {
  throw new SyntaxFailure(hint === undefined ? { offset, message } : { offset, message, hint });
}

type TokenKind = "identifier" | "number" | "string" | "operator" | "end";

interface Token {
  kind: TokenKind;
  /** The source text (for a string: with its quotes). */
  text: string;
  offset: number;
  /** A string token's value, escapes resolved. */
  value?: string;
}

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const NUMBER = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const KEY_SEGMENT = /[A-Za-z0-9_$]+/y;
/** What a user may have meant as a key after a `.` (`r.@turn`), for the hint to write it in brackets. */
const KEY_CHARACTERS = /[^\s()[\],=!<>&|+*\/"']+/y;
/** The functions of the language, for "did you mean". */
const FUNCTIONS: readonly string[] = ["matches", "count"];
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
const WORD_OPERATORS: Record<string, string> = { and: "&&", or: "||", not: "!" };
const COMPARISON = /^(?:==|!=|<=?|>=?)$/;
const FIELDS: readonly string[] = ["content", "action", "actor"];
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
function describeToken(token: Token): string {
  if (token.kind === "end") return "the end of the expression";
  return `\`${token.text.length > 40 ? `${token.text.slice(0, 39)}…` : token.text}\``;
}

/**
 * The scanner and parser in one: tokens are read on demand, because a key
 * path (`r.flights.0.date`) is read character by character right after its
 * name, where `.0` must not be taken for a number.
 */
class Parser {
  private pos = 0;
  private lookahead: Token | undefined;
  /** Current nesting (MAX_DEPTH). */
  private depth = 0;
  /** The height of each node built, so a long left-nested chain (`1+1+…`) is capped too. */
  private readonly heights = new WeakMap<WhenNode, number>();

  constructor(private readonly text: string) {}

  parse(): WhenNode {
    const tree = this.parseOr();
    const rest = this.peek();
    if (rest.kind !== "end") this.unexpected(rest, "after the expression");
    return tree;
  }

  // ── tokens ──────────────────────────────────────────────────────────────

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  private peek(): Token {
    this.lookahead ??= this.scan();
    return this.lookahead;
  }

  private next(): Token {
    const token = this.peek();
    this.lookahead = undefined;
    return token;
  }

  private isOperator(text: string): boolean {
    const token = this.peek();
    return token.kind === "operator" && token.text === text;
  }

  private expectOperator(text: string, context: string): Token {
    const token = this.next();
    if (token.kind !== "operator" || token.text !== text)
      fail(token.offset, `expected \`${text}\` ${context}, found ${describeToken(token)}`);
    return token;
  }

  private stickyMatch(pattern: RegExp, at: number): string | undefined {
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

  private unexpected(token: Token, context: string): never {
    if (token.kind === "identifier" && WORD_OPERATORS[token.text] !== undefined) {
      fail(token.offset, `unexpected \`${token.text}\` ${context}`, `use ${WORD_OPERATORS[token.text]}`);
    }
    fail(token.offset, `unexpected ${describeToken(token)} ${context}`);
  }

  // ── nesting ─────────────────────────────────────────────────────────────

  /** Runs `parse` one level deeper, refusing to go past MAX_DEPTH. */
  private nested<T>(offset: number, parse: () => T): T {
    if (this.depth >= MAX_DEPTH)
      fail(offset, `the expression nests deeper than ${MAX_DEPTH} levels`, "split it, or flatten a chain with && or ||");
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  /** Records `node`'s height over its children; a node higher than MAX_DEPTH is refused. */
  private built<T extends WhenNode>(node: T, children: readonly WhenNode[]): T {
    let height = 1;
    for (const child of children) height = Math.max(height, (this.heights.get(child) ?? 1) + 1);
    if (height > MAX_DEPTH) fail(node.offset, `the expression nests deeper than ${MAX_DEPTH} levels`, "split it into smaller expressions");
    this.heights.set(node, height);
    return node;
  }

  // ── grammar, loosest first ──────────────────────────────────────────────

  private parseOr(): WhenNode {
    return this.parseChain("||", "or", () => this.parseAnd());
  }

  private parseAnd(): WhenNode {
    return this.parseChain("&&", "and", () => this.parseNot());
  }

  /** `a op b op c` as one n-ary node: a long disjunction is wide, not deep. */
  private parseChain(op: "||" | "&&", kind: "or" | "and", operand: () => WhenNode): WhenNode {
    const first = operand();
    if (!this.isOperator(op)) return first;
    const offset = this.peek().offset;
    const operands = [first];
    while (this.isOperator(op)) {
      this.next();
      operands.push(operand());
    }
    return this.built({ kind, operands, offset }, operands);
  }

  private parseNot(): WhenNode {
    if (!this.isOperator("!")) return this.parseComparison();
    const offset = this.next().offset;
    const operand = this.nested(offset, () => this.parseNot());
    return this.built({ kind: "not", operand, offset }, [operand]);
  }

  private parseComparison(): WhenNode {
    const left = this.parseAdditive();
    const token = this.peek();
    if (token.kind === "identifier" && token.text === "in") {
      this.next();
      const list = this.parseAdditive();
      return this.built({ kind: "in", value: left, list, offset: token.offset }, [left, list]);
    }
    if (token.kind !== "operator" || !COMPARISON.test(token.text)) return left;
    this.next();
    const right = this.parseAdditive();
    const after = this.peek();
    if (after.kind === "operator" && COMPARISON.test(after.text))
      fail(after.offset, "comparisons do not chain", "join them with &&: a < b && b < c");
    return this.built({ kind: "compare", op: token.text as ComparisonOperator, left, right, offset: token.offset }, [left, right]);
  }

  private parseAdditive(): WhenNode {
    return this.parseArithmetic(["+", "-"], () => this.parseMultiplicative());
  }

  private parseMultiplicative(): WhenNode {
    return this.parseArithmetic(["*", "/"], () => this.parseUnary());
  }

  /** A left-associative chain of arithmetic operators (`a - b - c` is `(a - b) - c`). */
  private parseArithmetic(ops: readonly ArithmeticOperator[], operand: () => WhenNode): WhenNode {
    let left = operand();
    for (;;) {
      const token = this.peek();
      if (token.kind !== "operator" || !ops.includes(token.text as ArithmeticOperator)) return left;
      this.next();
      const right = operand();
      left = this.built({ kind: "arithmetic", op: token.text as ArithmeticOperator, left, right, offset: token.offset }, [left, right]);
    }
  }

  private parseUnary(): WhenNode {
    if (!this.isOperator("-")) return this.parsePrimary();
    const offset = this.next().offset;
    const operand = this.nested(offset, () => this.parseUnary());
    // A negative literal is a literal, so the lowering can fold comparisons with it.
    if (operand.kind === "number") return this.built({ kind: "number", value: -operand.value + 0, offset }, []);
    return this.built({ kind: "negate", operand, offset }, [operand]);
  }

  private parsePrimary(): WhenNode {
    const token = this.next();
    switch (token.kind) {
      case "string":
        return this.built({ kind: "string", value: token.value!, offset: token.offset }, []);
      case "number":
        return this.built({ kind: "number", value: Number(token.text) + 0, offset: token.offset }, []);
      case "identifier":
        return this.parseWord(token);
      case "operator":
        if (token.text === "(") return this.parseParenthesized(token);
        if (token.text === "[") return this.parseList(token);
        return this.unexpected(token, "where a value was expected");
      case "end":
        return fail(token.offset, "the expression ends where a value was expected");
    }
  }

  private parseParenthesized(open: Token): WhenNode {
    const inner = this.nested(open.offset, () => this.parseOr());
    this.expectOperator(")", `to close the \`(\` at offset ${open.offset}`);
    return inner;
  }

  private parseList(open: Token): WhenNode {
    const items: WhenNode[] = [];
    if (!this.isOperator("]")) {
      do {
        items.push(this.nested(this.peek().offset, () => this.parseOr()));
      } while (this.isOperator(",") && this.next());
    }
    this.expectOperator("]", `to close the list at offset ${open.offset}`);
    return this.built({ kind: "list", items, offset: open.offset }, items);
  }

  private parseWord(token: Token): WhenNode {
    switch (token.text) {
      case "true":
      case "false":
        return this.built({ kind: "boolean", value: token.text === "true", offset: token.offset }, []);
      case "null":
        return this.built({ kind: "null", offset: token.offset }, []);
      case "matches":
        if (this.isOperator("(")) return this.parseMatches(token);
        break;
      case "count":
        if (this.isOperator("(")) return this.parseCount(token);
        break;
    }
    // `and r.x` is a mistaken operator; `and.x` reads a name `and` (unknown, unless `with` binds it).
    const startsReference = /[.[]/.test(this.text[token.offset + token.text.length] ?? "");
    if ((WORD_OPERATORS[token.text] !== undefined || token.text === "in") && !startsReference) {
      this.unexpected(token, "where a value was expected");
    }
    return this.parseReference(token, false).node;
  }

  private parseMatches(word: Token): WhenNode {
    this.expectOperator("(", "after matches");
    const value = this.nested(word.offset, () => this.parseOr());
    this.expectOperator(",", "after the value matches tests");
    const pattern = this.next();
    if (pattern.kind !== "string") fail(pattern.offset, `matches takes its regex as a string literal, found ${describeToken(pattern)}`);
    let flags = "";
    let flagsOffset = pattern.offset;
    if (this.isOperator(",")) {
      this.next();
      const flagsToken = this.next();
      if (flagsToken.kind !== "string")
        fail(flagsToken.offset, `matches takes its flags as a string literal ("i"), found ${describeToken(flagsToken)}`);
      flags = flagsToken.value!;
      flagsOffset = flagsToken.offset;
    }
    this.expectOperator(")", "to close matches(");
    const node: WhenNode = {
      kind: "matches",
      value,
      pattern: pattern.value!,
      flags,
      patternOffset: pattern.offset,
      flagsOffset,
      offset: word.offset,
    };
    return this.built(node, [value]);
  }

  private parseCount(word: Token): WhenNode {
    this.expectOperator("(", "after count");
    const name = this.next();
    if (name.kind !== "identifier") fail(name.offset, `count takes x.prefix.*, found ${describeToken(name)}`, "count(r.flights.*)");
    const { node, wildcard } = this.parseReference(name, true);
    if (!wildcard || node.kind !== "metadata")
      fail(name.offset, "count takes a metadata prefix ending in .*", `count(${name.text}.flights.*)`);
    this.expectOperator(")", "to close count(");
    const label = `count(${node.label}.*)`;
    // Its offset is the name's: the one thing about a count a diagnostic can be about.
    return this.built({ kind: "count", name: node.name, prefix: node.key, label, offset: name.offset }, []);
  }

  /**
   * `NAME.path` or `NAME["key"]`, right after the name (no spaces inside a
   * path). With `wildcard`, a final `.*` is allowed and reported (count).
   */
  private parseReference(name: Token, wildcard: boolean): { node: WhenNode; wildcard: boolean } {
    this.lookahead = undefined;
    this.pos = name.offset + name.text.length;
    const c = this.text[this.pos];
    if (c === "[") {
      this.pos++;
      const keyToken = this.next();
      if (keyToken.kind !== "string")
        fail(keyToken.offset, `expected a quoted key inside [ ], found ${describeToken(keyToken)}`, `${name.text}["some key"]`);
      this.expectOperator("]", "to close the key");
      const key = keyToken.value!;
      const node = this.built(
        { kind: "metadata", name: name.text, key, label: `${name.text}[${JSON.stringify(key)}]`, offset: name.offset },
        [],
      );
      return { node, wildcard: this.readWildcard(wildcard) };
    }
    if (c !== ".") this.failAfterBareName(name);
    const segments: string[] = [];
    let sawWildcard = false;
    while (this.text[this.pos] === ".") {
      if (wildcard && this.text[this.pos + 1] === "*") {
        this.pos += 2;
        sawWildcard = true;
        break;
      }
      const segment = this.stickyMatch(KEY_SEGMENT, this.pos + 1);
      if (segment === undefined) {
        if (this.text[this.pos + 1] === "*")
          fail(this.pos + 1, "`.*` is only for count(…)", `count(${name.text}.${segments.join(".") || "prefix"}.*)`);
        const written = this.stickyMatch(KEY_CHARACTERS, this.pos + 1) ?? "some-key";
        const key = [...segments, written].join(".");
        fail(this.pos + 1, `expected a key after \`.\``, `keys with other characters are written ${name.text}[${JSON.stringify(key)}]`);
      }
      segments.push(segment);
      this.pos += 1 + segment.length;
    }
    if (sawWildcard && segments.length === 0) fail(name.offset, "count needs a prefix before .*", `count(${name.text}.flights.*)`);
    const path = segments.join(".");
    const label = `${name.text}.${path}`;
    const node: WhenNode =
      segments.length === 1 && FIELDS.includes(path) && !sawWildcard
        ? { kind: "field", name: name.text, field: path as EventField, label, offset: name.offset }
        : { kind: "metadata", name: name.text, key: path, label, offset: name.offset };
    return { node: this.built(node, []), wildcard: sawWildcard };
  }

  /**
   * A name that is not followed by `.` or `[`. The common causes get their
   * own hint: a function that does not exist (`contains(…)`), and a key with
   * a hyphen (`r.reservation-id`, read as `r.reservation - id`).
   */
  private failAfterBareName(name: Token): never {
    const at = name.offset + name.text.length;
    if (this.text[at] === "(") {
      const hint = didYouMean(name.text, FUNCTIONS) ?? 'the functions are matches(v, "re") and count(x.prefix.*)';
      fail(name.offset, `unknown function ${name.text}(…)`, hint);
    }
    // Only the last 200 characters: an unanchored search over all of a long text would be quadratic.
    const before = this.text.slice(Math.max(0, name.offset - 200), name.offset);
    const hyphenated = /([A-Za-z_$][A-Za-z0-9_$]*)\.([A-Za-z0-9_$.-]+)-$/.exec(before);
    if (hyphenated !== null) {
      const key = `${hyphenated[2]}-${name.text}`;
      fail(
        name.offset - 1,
        `\`-\` inside a key is subtraction here`,
        `a key with a hyphen is written ${hyphenated[1]}[${JSON.stringify(key)}]`,
      );
    }
    fail(
      at,
      `expected . or [ after ${name.text}`,
      `a name stands for an event: read its fields as ${name.text}.action, ${name.text}.content or ${name.text}.some_key`,
    );
  }

  private readWildcard(allowed: boolean): boolean {
    if (this.lookahead === undefined && this.text.startsWith(".*", this.pos)) {
      if (!allowed) fail(this.pos, "`.*` is only for count(…)");
      this.pos += 2;
      return true;
    }
    return false;
  }
}

/** The tree of `text`, or its first syntax error. */
export function parseWhenSyntax(text: string): { ok: true; tree: WhenNode } | { ok: false; error: WhenError } {
  try {
    return { ok: true, tree: new Parser(text).parse() };
  } catch (error) {
    if (error instanceof SyntaxFailure) return { ok: false, error: error.error };
    throw error;
  }
}
