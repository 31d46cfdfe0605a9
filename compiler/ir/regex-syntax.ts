/**
 * The syntax of `matches` patterns: a JS regular expression (u-mode syntax)
 * → a syntax tree, or a RegexError with a message and the UTF-16 offset.
 * regex-program.ts compiles the tree into the plain-data NFA program that
 * runtime/regex.ts runs in linear time.
 *
 * The supported language is JS RegExp with the `u` flag minus what needs
 * backtracking or look-around: backreferences, lookahead and lookbehind are
 * refused with a located message, as are Unicode property escapes (not
 * implemented). Everything the parser accepts means what `new RegExp(p, f +
 * "u")` means; test/runtime/regex.test.ts checks that differentially.
 *
 * Case-insensitivity is resolved here: under `i` every character and class is
 * widened to its case-fold closure (regex-sets.ts), so the runtime compares
 * code points only. The closure is exact for the Unicode version the table was
 * made with (17.0, Node 20), including the `iu` word characters ſ and K of \w,
 * \W and \b.
 *
 * Where this differs from `new RegExp(p, f + "u")` in Node 20, on purpose:
 * - refused at build time though JS accepts them: backreferences (\1,
 *   \k<name>), lookahead, lookbehind, \p{…}/\P{…}, a group name written with
 *   escapes (`(?<\u0061>…)`), and repetition counts above MAX_REPETITION
 *   (and patterns whose program is above the limits of regex-program.ts);
 * - V8 also tries a match at the middle of a surrogate pair, where a pattern
 *   that can match empty under \B succeeds (`/\B/u.test("a😀a")` is true);
 *   ECMA-262 steps over the pair, and so does regexTest (false).
 */
import {
  ASSERT_END,
  ASSERT_NOT_WORD_BOUNDARY,
  ASSERT_NOT_WORD_BOUNDARY_I,
  ASSERT_START,
  ASSERT_WORD_BOUNDARY,
  ASSERT_WORD_BOUNDARY_I,
} from "../../runtime/regex.js";
import {
  caseClosure,
  caseVariants,
  complement,
  DIGITS,
  LINE_TERMINATORS,
  MAX_CODE_POINT,
  normalize,
  SPACE,
  WORD,
  WORD_I,
  type Ranges,
} from "./regex-sets.js";

/** The largest count a `{n,m}` quantifier may name: each repetition is a copy in the program. */
export const MAX_REPETITION = 1000;

/** A refused pattern: the message, and where it has one, the UTF-16 offset in the source. */
export class RegexError extends Error {
  constructor(
    message: string,
    readonly offset?: number,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------
// The syntax tree

export type RegexNode =
  | { readonly kind: "empty" }
  | { readonly kind: "char"; readonly c: number }
  | { readonly kind: "set"; readonly ranges: Ranges }
  | { readonly kind: "assert"; readonly assertion: number }
  | { readonly kind: "concat"; readonly items: readonly RegexNode[] }
  | { readonly kind: "alt"; readonly items: readonly RegexNode[] }
  | { readonly kind: "repeat"; readonly item: RegexNode; readonly min: number; readonly max: number };

const EMPTY: RegexNode = { kind: "empty" };

/** A class atom or escape: one code point, or a set (\d, \w, …) that cannot bound a range. */
type ClassAtom = { readonly c: number } | { readonly ranges: Ranges; readonly text: string };

const SYNTAX_CHARACTERS = "^$\\.*+?()[]{}|/";

const hexDigit = (ch: string | undefined): boolean => ch !== undefined && /^[0-9a-fA-F]$/.test(ch);
const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= "0" && ch <= "9";

// ---------------------------------------------------------------------------
// The parser: recursive descent over the PATTERN (its depth is the pattern's
// nesting, bounded by the pattern the author wrote, never by judged content).

const MAX_NESTING = 200;

/** The tree of `source`, case-folded when `ignoreCase`; throws RegexError for a pattern it refuses. */
export function parseRegexTree(source: string, ignoreCase: boolean): RegexNode {
  return new Parser(source, ignoreCase).parsePattern();
}

class Parser {
  private pos = 0;
  private depth = 0;
  private readonly groupNames = new Set<string>();

  constructor(
    private readonly source: string,
    private readonly ignoreCase: boolean,
  ) {}

  parsePattern(): RegexNode {
    const node = this.parseDisjunction();
    if (this.pos < this.source.length) {
      // parseDisjunction stops only at `)` or the end.
      throw new RegexError("unmatched ) (escape it as \\) to match a parenthesis)", this.pos);
    }
    return node;
  }

  private peek(ahead = 0): string | undefined {
    return this.source[this.pos + ahead];
  }

  private parseDisjunction(): RegexNode {
    const items = [this.parseAlternative()];
    while (this.peek() === "|") {
      this.pos++;
      items.push(this.parseAlternative());
    }
    return items.length === 1 ? items[0]! : { kind: "alt", items };
  }

  private parseAlternative(): RegexNode {
    const items: RegexNode[] = [];
    while (this.pos < this.source.length && this.peek() !== "|" && this.peek() !== ")") items.push(this.parseTerm());
    if (items.length === 0) return EMPTY;
    return items.length === 1 ? items[0]! : { kind: "concat", items };
  }

  private parseTerm(): RegexNode {
    const start = this.pos;
    const atom = this.parseAtom();
    // `(?:^)*` is a quantified group; `^*` a quantified assertion, which u-mode refuses.
    const isAssertion = atom.kind === "assert" && this.source[start] !== "(";
    return this.parseQuantifier(atom, start, isAssertion);
  }

  /** An assertion or an atom (a quantifier after an assertion is refused by parseQuantifier). */
  private parseAtom(): RegexNode {
    const start = this.pos;
    const ch = this.peek()!;
    switch (ch) {
      case "^":
        this.pos++;
        return { kind: "assert", assertion: ASSERT_START };
      case "$":
        this.pos++;
        return { kind: "assert", assertion: ASSERT_END };
      case ".":
        this.pos++;
        return { kind: "set", ranges: complement(LINE_TERMINATORS) };
      case "(":
        return this.parseGroup();
      case "[":
        return this.parseClass();
      case "\\":
        return this.parseAtomEscape();
      case "*":
      case "+":
      case "?":
        throw new RegexError(`nothing to repeat before ${ch}`, start);
      case "{":
        if (this.quantifierAhead()) throw new RegexError("nothing to repeat before {", start);
        throw new RegexError("lone { (escape it as \\{)", start);
      case "}":
        throw new RegexError("lone } (escape it as \\})", start);
      case "]":
        throw new RegexError("lone ] (escape it as \\])", start);
      default: {
        const c = this.source.codePointAt(this.pos)!;
        this.pos += c > 0xffff ? 2 : 1;
        return this.charNode(c);
      }
    }
  }

  /** A single code point; under `i` the set of its case variants when it has any. */
  private charNode(c: number): RegexNode {
    const variants = this.ignoreCase ? caseVariants(c) : undefined;
    return variants === undefined ? { kind: "char", c } : { kind: "set", ranges: normalize(variants.flatMap((v) => [v, v])) };
  }

  private setNode(ranges: Ranges, negated: boolean): RegexNode {
    const folded = this.ignoreCase ? caseClosure(ranges) : ranges;
    return { kind: "set", ranges: negated ? complement(folded) : folded };
  }

  private parseGroup(): RegexNode {
    const open = this.pos;
    this.pos++;
    if (this.peek() === "?") {
      const kind = this.peek(1);
      const next = this.peek(2);
      if (kind === "=" || kind === "!") throw new RegexError("unsupported: lookahead (?= (?! cannot run in linear time here", open);
      if (kind === "<" && (next === "=" || next === "!"))
        throw new RegexError("unsupported: lookbehind (?<= (?<! cannot run in linear time here", open);
      if (kind === ":") this.pos += 2;
      else if (kind === "<") this.parseGroupName();
      else throw new RegexError("invalid group: (? must be followed by :, <name>, =, !, <= or <!", open);
    }
    if (++this.depth > MAX_NESTING) throw new RegexError(`groups nested more than ${MAX_NESTING} deep`, open);
    const inner = this.parseDisjunction();
    this.depth--;
    if (this.peek() !== ")") throw new RegexError("missing ) for this group", open);
    this.pos++;
    return inner;
  }

  /** `<name>` of `(?<name>…)`: an identifier, not used twice. */
  private parseGroupName(): void {
    const at = this.pos;
    const close = this.source.indexOf(">", this.pos + 2);
    const name = close < 0 ? "" : this.source.slice(this.pos + 2, close);
    if (close < 0 || !/^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u.test(name)) {
      throw new RegexError("invalid group name: (?<name> takes an identifier (letters, digits, _ or $, not first a digit)", at);
    }
    if (this.groupNames.has(name)) throw new RegexError(`duplicate group name ${name}`, at);
    this.groupNames.add(name);
    this.pos = close + 1;
  }

  /** Whether a well-formed `{n}`, `{n,}` or `{n,m}` starts here. */
  private quantifierAhead(): boolean {
    return /^\{[0-9]+(,[0-9]*)?\}/.test(this.source.slice(this.pos));
  }

  private parseQuantifier(atom: RegexNode, atomStart: number, isAssertion: boolean): RegexNode {
    const at = this.pos;
    const ch = this.peek();
    let min: number;
    let max: number;
    if (ch === "*") [min, max] = [0, Infinity];
    else if (ch === "+") [min, max] = [1, Infinity];
    else if (ch === "?") [min, max] = [0, 1];
    else if (ch === "{") {
      const match = /^\{([0-9]+)(,([0-9]*))?\}/.exec(this.source.slice(this.pos));
      if (match === null) throw new RegexError("incomplete quantifier: { must be {n}, {n,} or {n,m} (escape a literal { as \\{)", at);
      const text = match[0];
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === "" ? Infinity : Number(match[3]);
      if (min > max) throw new RegexError(`numbers out of order in ${text}`, at);
      if (min > MAX_REPETITION || (max !== Infinity && max > MAX_REPETITION)) {
        throw new RegexError(`repetition ${text} is above the limit of ${MAX_REPETITION}`, at);
      }
      this.pos += text.length - 1;
    } else return atom;
    if (isAssertion)
      throw new RegexError(`nothing to repeat: an assertion (${this.source.slice(atomStart, at)}) cannot take a quantifier`, at);
    this.pos++;
    if (this.peek() === "?") this.pos++; // lazy: the same boolean answer
    const next = this.peek();
    if (next === "*" || next === "+" || next === "?" || (next === "{" && this.quantifierAhead())) {
      throw new RegexError(`nothing to repeat before ${next} (a quantifier cannot follow a quantifier)`, this.pos);
    }
    return { kind: "repeat", item: atom, min, max };
  }

  private parseAtomEscape(): RegexNode {
    const start = this.pos;
    const ch = this.peek(1);
    if (ch === undefined) throw new RegexError("\\ at end of pattern", start);
    if (ch === "b" || ch === "B") {
      this.pos += 2;
      const boundary = ch === "b";
      const assertion = this.ignoreCase
        ? boundary
          ? ASSERT_WORD_BOUNDARY_I
          : ASSERT_NOT_WORD_BOUNDARY_I
        : boundary
          ? ASSERT_WORD_BOUNDARY
          : ASSERT_NOT_WORD_BOUNDARY;
      return { kind: "assert", assertion };
    }
    if (ch >= "1" && ch <= "9") {
      let end = this.pos + 1;
      while (isDigit(this.source[end])) end++;
      throw new RegexError(`unsupported: backreferences (${this.source.slice(start, end)}) cannot run in linear time`, start);
    }
    if (ch === "k") {
      if (this.peek(2) === "<") {
        const close = this.source.indexOf(">", start);
        const shown = close < 0 ? "\\k<…>" : this.source.slice(start, close + 1);
        throw new RegexError(`unsupported: backreferences (${shown}) cannot run in linear time`, start);
      }
      throw new RegexError("invalid escape \\k (u-mode allows it only as \\k<name>)", start);
    }
    const atom = this.parseCharacterEscape(false);
    return "c" in atom ? this.charNode(atom.c) : this.setNode(atom.ranges, false);
  }

  /**
   * An escape that means a code point or a set, outside a class or (inClass)
   * inside one; `\b` inside a class is backspace. Starts at the backslash.
   */
  private parseCharacterEscape(inClass: boolean): ClassAtom {
    const start = this.pos;
    const ch = this.peek(1);
    if (ch === undefined) throw new RegexError("\\ at end of pattern", start);
    this.pos += 2;
    const set = (ranges: Ranges): ClassAtom => ({ ranges, text: this.source.slice(start, this.pos) });
    const word = this.ignoreCase ? WORD_I : WORD;
    switch (ch) {
      case "d":
        return set(DIGITS);
      case "D":
        return set(complement(DIGITS));
      case "w":
        return set(word);
      case "W":
        return set(complement(word));
      case "s":
        return set(SPACE);
      case "S":
        return set(complement(SPACE));
      case "f":
        return { c: 0x0c };
      case "n":
        return { c: 0x0a };
      case "r":
        return { c: 0x0d };
      case "t":
        return { c: 0x09 };
      case "v":
        return { c: 0x0b };
      case "0":
        if (isDigit(this.peek()))
          throw new RegexError("invalid escape: \\0 cannot be followed by a digit in u-mode (octal escapes are not allowed)", start);
        return { c: 0 };
      case "c": {
        const letter = this.peek();
        if (letter === undefined || !/^[A-Za-z]$/.test(letter))
          throw new RegexError("invalid escape: \\c must be followed by a letter A-Z or a-z", start);
        this.pos++;
        return { c: letter.charCodeAt(0) % 32 };
      }
      case "x": {
        if (!hexDigit(this.peek()) || !hexDigit(this.peek(1)))
          throw new RegexError("invalid escape: \\x must be followed by two hex digits", start);
        this.pos += 2;
        return { c: parseInt(this.source.slice(this.pos - 2, this.pos), 16) };
      }
      case "u":
        return { c: this.parseUnicodeEscape(start) };
      case "p":
      case "P":
        throw new RegexError(`unsupported: Unicode property escapes (\\${ch}{…}) are not implemented`, start);
      case "b":
        if (inClass) return { c: 0x08 };
        break;
      case "-":
        if (inClass) return { c: 0x2d };
        break;
    }
    if (SYNTAX_CHARACTERS.includes(ch)) return { c: ch.charCodeAt(0) };
    if (inClass && ch === "B") throw new RegexError("invalid escape \\B inside a character class", start);
    if (inClass && isDigit(ch))
      throw new RegexError(`invalid escape \\${ch} inside a character class (u-mode has no octal escapes)`, start);
    const shown = String.fromCodePoint(this.source.codePointAt(start + 1)!);
    throw new RegexError(
      `invalid escape \\${shown} (u-mode allows escaping only syntax characters ^ $ \\ . * + ? ( ) [ ] { } | / and - inside a class)`,
      start,
    );
  }

  /** After `\u`: `HHHH` (a surrogate pair of two such escapes is one code point) or `{H…}` up to 10FFFF. */
  private parseUnicodeEscape(start: number): number {
    if (this.peek() === "{") {
      const close = this.source.indexOf("}", this.pos);
      const digits = close < 0 ? "" : this.source.slice(this.pos + 1, close);
      if (!/^[0-9a-fA-F]+$/.test(digits) || parseInt(digits, 16) > MAX_CODE_POINT) {
        throw new RegexError("invalid escape: \\u{…} must hold hex digits of a code point up to 10FFFF", start);
      }
      this.pos = close + 1;
      return parseInt(digits, 16);
    }
    const unit = this.hex4(this.pos);
    if (unit < 0) throw new RegexError("invalid escape: \\u must be followed by four hex digits or {code point}", start);
    this.pos += 4;
    if (unit >= 0xd800 && unit <= 0xdbff && this.peek() === "\\" && this.peek(1) === "u") {
      const low = this.hex4(this.pos + 2);
      if (low >= 0xdc00 && low <= 0xdfff) {
        this.pos += 6;
        return 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
      }
    }
    return unit;
  }

  private hex4(at: number): number {
    const digits = this.source.slice(at, at + 4);
    return /^[0-9a-fA-F]{4}$/.test(digits) ? parseInt(digits, 16) : -1;
  }

  private parseClass(): RegexNode {
    const open = this.pos;
    this.pos++;
    const negated = this.peek() === "^";
    if (negated) this.pos++;
    const ranges: number[] = [];
    for (;;) {
      if (this.pos >= this.source.length) throw new RegexError("unterminated character class", open);
      if (this.peek() === "]") break;
      const atomStart = this.pos;
      const first = this.parseClassAtom();
      if (this.peek() === "-" && this.peek(1) !== undefined && this.peek(1) !== "]") {
        this.pos++;
        const last = this.parseClassAtom();
        if (!("c" in first) || !("c" in last)) {
          const bad = "c" in first ? (last as { text: string }).text : first.text;
          throw new RegexError(`invalid character class range: ${bad} cannot be an end of a range (escape the - as \\-)`, atomStart);
        }
        if (first.c > last.c)
          throw new RegexError(`range out of order in character class: ${this.source.slice(atomStart, this.pos)}`, atomStart);
        ranges.push(first.c, last.c);
      } else if ("c" in first) ranges.push(first.c, first.c);
      else ranges.push(...first.ranges);
    }
    this.pos++;
    return this.setNode(normalize(ranges), negated);
  }

  private parseClassAtom(): ClassAtom {
    if (this.peek() === "\\") return this.parseCharacterEscape(true);
    const c = this.source.codePointAt(this.pos)!;
    this.pos += c > 0xffff ? 2 : 1;
    return { c };
  }
}
