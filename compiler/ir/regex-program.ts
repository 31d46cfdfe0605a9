/**
 * The program of a `matches` pattern: the syntax tree of regex-syntax.ts →
 * the plain-data NFA program that runtime/regex.ts runs in linear time (a
 * Thompson construction into a flat instruction list). The schema and the
 * `when` checks compile each pattern here to refuse it with a located message
 * (syntax and size), the build-time evaluators run the program on samples,
 * and codegen writes it into judge.ts as a literal (codegen/regex.ts).
 */
import {
  ASSERT_END,
  ASSERT_START,
  OP_ASSERT,
  OP_CHAR,
  OP_JUMP,
  OP_MATCH,
  OP_SET,
  OP_SPLIT,
  type RegexProgram,
} from "../../runtime/regex.js";
import type { Ranges } from "./regex-sets.js";
import { parseRegexTree, RegexError, type RegexNode } from "./regex-syntax.js";

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
    const tree = parseRegexTree(source, ignoreCase);
    return { ok: true, program: emitProgram(tree) };
  } catch (error) {
    if (error instanceof RegexError)
      return error.offset === undefined
        ? { ok: false, message: error.message }
        : { ok: false, message: error.message, offset: error.offset };
    throw error;
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

  program(tree: RegexNode, literal: { text: string; anchorStart: boolean; anchorEnd: boolean } | null, anchorStart: boolean): RegexProgram {
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

  private emit(node: RegexNode): void {
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
  private emitAlternation(items: readonly RegexNode[]): void {
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
  private emitRepeat(item: RegexNode, min: number, max: number): void {
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
function flatTerms(node: RegexNode): RegexNode[] {
  if (node.kind === "concat") return node.items.flatMap(flatTerms);
  if (node.kind === "empty") return [];
  return [node];
}

/** The literal fast path: the pattern is plain characters, with `^` first and/or `$` last at most. */
function literalOf(tree: RegexNode): { text: string; anchorStart: boolean; anchorEnd: boolean } | null {
  const terms = flatTerms(tree);
  const isAssert = (node: RegexNode | undefined, assertion: number) =>
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

function emitProgram(tree: RegexNode): RegexProgram {
  const literal = literalOf(tree);
  const first = flatTerms(tree)[0];
  const anchorStart = first !== undefined && first.kind === "assert" && first.assertion === ASSERT_START;
  return new Emitter().program(tree, literal, anchorStart);
}
