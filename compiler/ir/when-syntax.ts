/**
 * The syntax of `when` expressions (semantics.md, "when expressions"): a
 * hand-written recursive-descent parser from text to a WhenNode tree
 * (when-tree.ts), over the tokens of when-tokens.ts. It stops at the first
 * syntax error (what follows one is rarely worth reporting); names and types
 * are checked afterwards, on the whole tree, by when.ts. Nesting is capped
 * (MAX_DEPTH), so hostile input gets a located error instead of overflowing
 * the stack here, in the checker or in the lowering, which all recurse over
 * the tree.
 */
import { didYouMean } from "./did-you-mean.js";
import { describeToken, fail, SyntaxFailure, WhenScanner, type Token } from "./when-tokens.js";
import type { ArithmeticOperator, ComparisonOperator, EventField, WhenError, WhenNode } from "./when-tree.js";

/** How deep an expression may nest: parentheses, operands, arguments and list items each count one level. */
export const MAX_DEPTH = 64;

const KEY_SEGMENT = /[A-Za-z0-9_$]+/y;
/** What a user may have meant as a key after a `.` (`r.@turn`), for the hint to write it in brackets. */
const KEY_CHARACTERS = /[^\s()[\],=!<>&|+*\/"']+/y;
/** The functions of the language, for "did you mean". */
const FUNCTIONS: readonly string[] = ["matches", "count"];
const WORD_OPERATORS: Record<string, string> = { and: "&&", or: "||", not: "!" };
const COMPARISON = /^(?:==|!=|<=?|>=?)$/;
const FIELDS: readonly string[] = ["content", "action", "actor"];

/** The grammar over the scanner's cursor (WhenScanner says why it is one cursor). */
class Parser extends WhenScanner {
  /** Current nesting (MAX_DEPTH). */
  private depth = 0;
  /** The height of each node built, so a long left-nested chain (`1+1+…`) is capped too. */
  private readonly heights = new WeakMap<WhenNode, number>();

  parse(): WhenNode {
    const tree = this.parseOr();
    const rest = this.peek();
    if (rest.kind !== "end") this.unexpected(rest, "after the expression");
    return tree;
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
