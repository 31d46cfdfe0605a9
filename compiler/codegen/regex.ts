/**
 * Build time for `matches`: a JS regular expression (u-mode syntax) → the
 * plain-data NFA program that runtime/regex.ts runs in linear time, and that
 * program as a code literal.
 *
 * The supported language is JS RegExp with the `u` flag minus what needs
 * backtracking or look-around: backreferences, lookahead and lookbehind are
 * refused with a located message, as are Unicode property escapes (not
 * implemented). Everything the parser accepts means what `new RegExp(p, f +
 * "u")` means; test/runtime/regex.test.ts checks that differentially.
 *
 * Case-insensitivity is resolved here: under `i` every character and class is
 * widened to its case-fold closure (regex-case-fold.ts, generated from Node's
 * own `iu`), so the runtime compares code points only. The closure is exact
 * for the Unicode version the table was made with (17.0, Node 20), including
 * the `iu` word characters ſ and K of \w, \W and \b.
 *
 * Where this differs from `new RegExp(p, f + "u")` in Node 20, on purpose:
 * - refused at build time though JS accepts them: backreferences (\1,
 *   \k<name>), lookahead, lookbehind, \p{…}/\P{…}, a group name written with
 *   escapes (`(?<\u0061>…)`), and repetition counts above MAX_REPETITION;
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
  OP_ASSERT,
  OP_CHAR,
  OP_JUMP,
  OP_MATCH,
  OP_SET,
  OP_SPLIT,
  type RegexProgram,
} from "../../runtime/regex.js";
import { code, join, lit, type Code } from "./code.js";
import { CASE_FOLD_CLASSES } from "./regex-case-fold.js";

/** The largest count a `{n,m}` quantifier may name: each repetition is a copy in the program. */
export const MAX_REPETITION = 1000;
/** The most instructions a program may have (it is a literal in every judge.mjs, and the run time is linear in its size). */
export const MAX_INSTRUCTIONS = 10_000;
/** The most range bounds its character classes may hold together (each distinct class is stored once). */
export const MAX_SET_BOUNDS = 50_000;

export type CompileRegexResult = { ok: true; program: RegexProgram } | { ok: false; message: string; offset?: number };

/** Compiles `source` under `flags` ("" or "i"). Never throws: a bad pattern is `{ok: false}` with a message and, where it has one, the UTF-16 offset in `source`. */
export function compileRegex(source: string, flags: string): CompileRegexResult {
  if (flags !== "" && flags !== "i") return { ok: false, message: 'flags must be "i" or absent' };
  try {
    const ignoreCase = flags === "i";
    const tree = new Parser(source, ignoreCase).parsePattern();
    return { ok: true, program: emitProgram(tree) };
  } catch (error) {
    if (error instanceof RegexError)
      return error.offset === undefined
        ? { ok: false, message: error.message }
        : { ok: false, message: error.message, offset: error.offset };
    throw error;
  }
}

/** The program as an object literal, through the safe builders only: numbers, booleans and `lit` for the literal text. */
export function regexLiteral(program: RegexProgram): Code {
  const numbers = (list: readonly number[]): Code => code`[${join(list.map((n) => code`${checkedInteger(n)}`))}]`;
  const literal = program.literal === null ? code`null` : lit(program.literal);
  return code`{ ops: ${numbers(program.ops)}, sets: [${join(program.sets.map(numbers))}], literal: ${literal}, anchorStart: ${program.anchorStart}, anchorEnd: ${program.anchorEnd} }`;
}

function checkedInteger(n: number): number {
  if (!Number.isSafeInteger(n)) throw new TypeError(`internal: a regex program holds ${n}, not an integer`);
  return n;
}

// ---------------------------------------------------------------------------
// Errors

class RegexError extends Error {
  constructor(
    message: string,
    readonly offset?: number,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------
// Code point sets: sorted, disjoint, non-adjacent inclusive ranges, flat.

const MAX_CODE_POINT = 0x10ffff;

type Ranges = number[];

/** Sorts and merges any list of ranges. */
function normalize(ranges: readonly number[]): Ranges {
  const pairs: [number, number][] = [];
  for (let k = 0; k < ranges.length; k += 2) pairs.push([ranges[k]!, ranges[k + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [lo, hi] of pairs) {
    const last = out.length - 1;
    if (last > 0 && lo <= out[last]! + 1) out[last] = Math.max(out[last]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

function complement(ranges: Ranges): Ranges {
  const out: Ranges = [];
  let from = 0;
  for (let k = 0; k < ranges.length; k += 2) {
    if (ranges[k]! > from) out.push(from, ranges[k]! - 1);
    from = ranges[k + 1]! + 1;
  }
  if (from <= MAX_CODE_POINT) out.push(from, MAX_CODE_POINT);
  return out;
}

function contains(ranges: Ranges, c: number): boolean {
  let lo = 0;
  let hi = ranges.length >> 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c > ranges[2 * mid + 1]!) lo = mid + 1;
    else hi = mid;
  }
  return lo < ranges.length >> 1 && c >= ranges[2 * lo]!;
}

let foldClasses: number[][] | undefined;
let foldClassOf: Map<number, number[]> | undefined;

/** The fold classes of regex-case-fold.ts, decoded once. */
function caseFoldClasses(): number[][] {
  foldClasses ??= CASE_FOLD_CLASSES.split(",").map((members) => members.split(" ").map((hex) => parseInt(hex, 16)));
  return foldClasses;
}

/** The fold class of one code point (undefined: it has no case variants); a map, so long literal patterns under `i` stay fast. */
function caseVariants(c: number): readonly number[] | undefined {
  if (foldClassOf === undefined) {
    foldClassOf = new Map();
    for (const members of caseFoldClasses()) for (const member of members) foldClassOf.set(member, members);
  }
  return foldClassOf.get(c);
}

/**
 * Every code point that folds like some member of `ranges` (JS `iu`: a
 * character matches when its simple case folding equals a member's).
 */
function caseClosure(ranges: Ranges): Ranges {
  const added: number[] = [];
  for (const members of caseFoldClasses()) {
    if (members.some((c) => contains(ranges, c))) for (const c of members) added.push(c, c);
  }
  return added.length === 0 ? ranges : normalize([...ranges, ...added]);
}

const DIGITS: Ranges = [0x30, 0x39];
const WORD: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
/** Under `iu` JS adds the two code points that fold into [A-Za-z0-9_]: U+017F ſ and U+212A K. */
const WORD_I: Ranges = normalize([...WORD, 0x17f, 0x17f, 0x212a, 0x212a]);
/** WhiteSpace and LineTerminator of ECMA-262 (Zs as of Unicode 17). */
const SPACE: Ranges = normalize([
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000,
  0xfeff, 0xfeff,
]);
const LINE_TERMINATORS: Ranges = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];

// ---------------------------------------------------------------------------
// The syntax tree

type Node =
  | { readonly kind: "empty" }
  | { readonly kind: "char"; readonly c: number }
  | { readonly kind: "set"; readonly ranges: Ranges }
  | { readonly kind: "assert"; readonly assertion: number }
  | { readonly kind: "concat"; readonly items: readonly Node[] }
  | { readonly kind: "alt"; readonly items: readonly Node[] }
  | { readonly kind: "repeat"; readonly item: Node; readonly min: number; readonly max: number };

const EMPTY: Node = { kind: "empty" };

/** A class atom or escape: one code point, or a set (\d, \w, …) that cannot bound a range. */
type ClassAtom = { readonly c: number } | { readonly ranges: Ranges; readonly text: string };

const SYNTAX_CHARACTERS = "^$\\.*+?()[]{}|/";

const hexDigit = (ch: string | undefined): boolean => ch !== undefined && /^[0-9a-fA-F]$/.test(ch);
const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= "0" && ch <= "9";

// ---------------------------------------------------------------------------
// The parser: recursive descent over the PATTERN (its depth is the pattern's
// nesting, bounded by the pattern the author wrote, never by judged content).

const MAX_NESTING = 200;

class Parser {
  private pos = 0;
  private depth = 0;
  private readonly groupNames = new Set<string>();

  constructor(
    private readonly source: string,
    private readonly ignoreCase: boolean,
  ) {}

  parsePattern(): Node {
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

  private parseDisjunction(): Node {
    const items = [this.parseAlternative()];
    while (this.peek() === "|") {
      this.pos++;
      items.push(this.parseAlternative());
    }
    return items.length === 1 ? items[0]! : { kind: "alt", items };
  }

  private parseAlternative(): Node {
    const items: Node[] = [];
    while (this.pos < this.source.length && this.peek() !== "|" && this.peek() !== ")") items.push(this.parseTerm());
    if (items.length === 0) return EMPTY;
    return items.length === 1 ? items[0]! : { kind: "concat", items };
  }

  private parseTerm(): Node {
    const start = this.pos;
    const atom = this.parseAtom();
    // `(?:^)*` is a quantified group; `^*` a quantified assertion, which u-mode refuses.
    const isAssertion = atom.kind === "assert" && this.source[start] !== "(";
    return this.parseQuantifier(atom, start, isAssertion);
  }

  /** An assertion or an atom (a quantifier after an assertion is refused by parseQuantifier). */
  private parseAtom(): Node {
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
  private charNode(c: number): Node {
    const variants = this.ignoreCase ? caseVariants(c) : undefined;
    return variants === undefined ? { kind: "char", c } : { kind: "set", ranges: normalize(variants.flatMap((v) => [v, v])) };
  }

  private setNode(ranges: Ranges, negated: boolean): Node {
    const folded = this.ignoreCase ? caseClosure(ranges) : ranges;
    return { kind: "set", ranges: negated ? complement(folded) : folded };
  }

  private parseGroup(): Node {
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

  private parseQuantifier(atom: Node, atomStart: number, isAssertion: boolean): Node {
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

  private parseAtomEscape(): Node {
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

  private parseClass(): Node {
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

// ---------------------------------------------------------------------------
// Emission: the Thompson construction into the flat instruction list.

class Emitter {
  readonly ops: number[] = [];
  private readonly sets: (readonly number[])[] = [];
  private readonly setIndex = new Map<string, number>();
  private instructions = 0;
  private setBounds = 0;

  program(tree: Node, literal: { text: string; anchorStart: boolean; anchorEnd: boolean } | null, anchorStart: boolean): RegexProgram {
    this.emit(tree);
    this.op(OP_MATCH);
    return {
      ops: this.ops,
      sets: this.sets,
      literal: literal === null ? null : literal.text,
      anchorStart: literal === null ? anchorStart : literal.anchorStart,
      anchorEnd: literal === null ? false : literal.anchorEnd,
    };
  }

  /** Appends one instruction; refuses a program above MAX_INSTRUCTIONS as soon as it gets there. */
  private op(...words: number[]): number {
    if (++this.instructions > MAX_INSTRUCTIONS) {
      throw new RegexError(
        `the pattern is too large: it compiles to more than ${MAX_INSTRUCTIONS} instructions (lower its repetition counts)`,
      );
    }
    const at = this.ops.length;
    this.ops.push(...words);
    return at;
  }

  private setNumber(ranges: Ranges): number {
    const key = ranges.join(",");
    let index = this.setIndex.get(key);
    if (index === undefined) {
      this.setBounds += ranges.length;
      if (this.setBounds > MAX_SET_BOUNDS) {
        throw new RegexError(`the pattern is too large: its character classes hold more than ${MAX_SET_BOUNDS / 2} ranges`);
      }
      index = this.sets.length;
      this.sets.push(ranges);
      this.setIndex.set(key, index);
    }
    return index;
  }

  private emit(node: Node): void {
    switch (node.kind) {
      case "empty":
        return;
      case "char":
        this.op(OP_CHAR, node.c);
        return;
      case "set":
        this.op(OP_SET, this.setNumber(node.ranges));
        return;
      case "assert":
        this.op(OP_ASSERT, node.assertion);
        return;
      case "concat":
        for (const item of node.items) this.emit(item);
        return;
      case "alt":
        this.emitAlternation(node.items);
        return;
      case "repeat":
        this.emitRepeat(node.item, node.min, node.max);
        return;
    }
  }

  /** a|b|c: SPLIT a' rest; a'; JUMP end; rest: SPLIT b' c'; … (the jumps patched once `end` is known). */
  private emitAlternation(items: readonly Node[]): void {
    const jumps: number[] = [];
    for (let k = 0; k < items.length - 1; k++) {
      const split = this.op(OP_SPLIT, 0, 0);
      this.ops[split + 1] = this.ops.length;
      this.emit(items[k]!);
      jumps.push(this.op(OP_JUMP, 0));
      this.ops[split + 2] = this.ops.length;
    }
    this.emit(items[items.length - 1]!);
    for (const jump of jumps) this.ops[jump + 1] = this.ops.length;
  }

  /** e{min,max}: min copies of e, then e* or (max - min) copies of e?; e{min,} with min ≥ 1 loops on its last copy. */
  private emitRepeat(item: Node, min: number, max: number): void {
    if (max === Infinity && min > 0) {
      // (min - 1) copies, then body: e; SPLIT body end; end: (no extra copy for the star, so (a+)+ stays small).
      for (let k = 1; k < min; k++) this.emit(item);
      const body = this.ops.length;
      this.emit(item);
      const split = this.op(OP_SPLIT, body, 0);
      this.ops[split + 2] = this.ops.length;
      return;
    }
    for (let k = 0; k < min; k++) this.emit(item);
    if (max === Infinity) {
      // loop: SPLIT body end; body; JUMP loop; end:
      const loop = this.op(OP_SPLIT, 0, 0);
      this.ops[loop + 1] = this.ops.length;
      this.emit(item);
      this.op(OP_JUMP, loop);
      this.ops[loop + 2] = this.ops.length;
      return;
    }
    for (let k = min; k < max; k++) {
      const split = this.op(OP_SPLIT, 0, 0);
      this.ops[split + 1] = this.ops.length;
      this.emit(item);
      this.ops[split + 2] = this.ops.length;
    }
  }
}

/** The top-level terms of a pattern, groups and nested sequences flattened. */
function flatTerms(node: Node): Node[] {
  if (node.kind === "concat") return node.items.flatMap(flatTerms);
  if (node.kind === "empty") return [];
  return [node];
}

/** The literal fast path: the pattern is plain characters, with `^` first and/or `$` last at most. */
function literalOf(tree: Node): { text: string; anchorStart: boolean; anchorEnd: boolean } | null {
  const terms = flatTerms(tree);
  const isAssert = (node: Node | undefined, assertion: number) =>
    node !== undefined && node.kind === "assert" && node.assertion === assertion;
  const anchorStart = isAssert(terms[0], ASSERT_START);
  if (anchorStart) terms.shift();
  const anchorEnd = isAssert(terms[terms.length - 1], ASSERT_END);
  if (anchorEnd) terms.pop();
  let text = "";
  for (const term of terms) {
    // A lone surrogate must not match half of a pair (u-mode), which indexOf would do.
    if (term.kind !== "char" || (term.c >= 0xd800 && term.c <= 0xdfff)) return null;
    text += String.fromCodePoint(term.c);
  }
  return { text, anchorStart, anchorEnd };
}

function emitProgram(tree: Node): RegexProgram {
  const literal = literalOf(tree);
  const first = flatTerms(tree)[0];
  const anchorStart = first !== undefined && first.kind === "assert" && first.assertion === ASSERT_START;
  return new Emitter().program(tree, literal, anchorStart);
}
