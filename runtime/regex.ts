/**
 * The linear-time regular-expression matcher behind `matches` (LANGUAGE.md §1).
 *
 * JS RegExp backtracks: `(a+)+$` on a long run of `a`s never finishes, and a
 * judge runs on content we do not control. So patterns are compiled at build
 * time (compiler/codegen/regex.ts) into a small NFA program, and the judge
 * runs it here as a Thompson/Pike simulation: every live NFA state advances
 * together, one code point at a time, and a state is added at most once per
 * position. Time is O(text length × program size) whatever the pattern; no
 * recursion, and no allocation per character.
 *
 * Only a boolean is needed (does the pattern match anywhere?), so there are no
 * captures and no thread priorities: lazy and greedy quantifiers, and the
 * order of alternatives, cannot change the answer.
 */

/**
 * A compiled pattern, plain data (the generated judge holds it as a literal).
 *
 * `ops` is a flat list of instructions, each an opcode and its operands:
 *
 *   0 MATCH            the pattern has matched
 *   1 CHAR  c          the code point c, then the next instruction
 *   2 SET   k          a code point in `sets[k]`
 *   3 SPLIT x y        continue at x and at y
 *   4 JUMP  x          continue at x
 *   5 ASSERT a         a zero-width test (ASSERT_*), then the next instruction
 *
 * Each of `sets` is a sorted list of disjoint inclusive code point ranges
 * `[lo0, hi0, lo1, hi1, …]`; case-insensitivity and negation were resolved when
 * it was built. When `literal` is a string the pattern is exactly that text
 * (anchored at the start and/or end as `anchorStart`/`anchorEnd` say) and is
 * searched without the NFA. `anchorStart` also tells the NFA that a match can
 * only begin at position 0.
 */
export interface RegexProgram {
  readonly ops: readonly number[];
  readonly sets: readonly (readonly number[])[];
  readonly literal: string | null;
  readonly anchorStart: boolean;
  readonly anchorEnd: boolean;
}

export const OP_MATCH = 0;
export const OP_CHAR = 1;
export const OP_SET = 2;
export const OP_SPLIT = 3;
export const OP_JUMP = 4;
export const OP_ASSERT = 5;

/** `^`: at the start of the text (there is no `m` flag). */
export const ASSERT_START = 0;
/** `$`: at the end of the text. */
export const ASSERT_END = 1;
/** `\b` and `\B` with word characters [A-Za-z0-9_]. */
export const ASSERT_WORD_BOUNDARY = 2;
export const ASSERT_NOT_WORD_BOUNDARY = 3;
/** `\b` and `\B` under the `i` flag, where JS counts U+017F (ſ) and U+212A (K) as word characters too. */
export const ASSERT_WORD_BOUNDARY_I = 4;
export const ASSERT_NOT_WORD_BOUNDARY_I = 5;

/** Per-program working memory, made on first use and reused: a test allocates nothing after that. */
interface Scratch {
  /** stamp[pc] === generation: pc is already in the list being built. */
  readonly stamp: Int32Array;
  generation: number;
  /** The consuming instructions (CHAR, SET) live at the current position, and those for the next. */
  current: Int32Array;
  next: Int32Array;
  /** The explicit stack of the epsilon closure (each pc is pushed at most once per generation). */
  readonly stack: Int32Array;
  matched: boolean;
}

const scratches = new WeakMap<RegexProgram, Scratch>();

function scratchFor(program: RegexProgram): Scratch {
  let scratch = scratches.get(program);
  if (scratch === undefined) {
    const size = program.ops.length + 1;
    scratch = {
      stamp: new Int32Array(size),
      generation: 0,
      current: new Int32Array(size),
      next: new Int32Array(size),
      stack: new Int32Array(size),
      matched: false,
    };
    scratches.set(program, scratch);
  }
  return scratch;
}

/** Starts a new list: a fresh generation, so every pc counts as absent (stamps are reset long before they could wrap). */
function newGeneration(scratch: Scratch): void {
  if (scratch.generation >= 0x3fffffff) {
    scratch.stamp.fill(0);
    scratch.generation = 0;
  }
  scratch.generation++;
}

/**
 * Whether the code point c lies in the ranges (a binary search over the pairs).
 * Exported for the compiler's tests.
 */
export function inRanges(ranges: readonly number[], c: number): boolean {
  let lo = 0;
  let hi = ranges.length >> 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c > ranges[2 * mid + 1]!) lo = mid + 1;
    else hi = mid;
  }
  return lo < ranges.length >> 1 && c >= ranges[2 * lo]!;
}

/** A UTF-16 unit that is a word character; only BMP characters are, so one unit is enough. */
function isWordUnit(unit: number, ignoreCase: boolean): boolean {
  if (unit < 128) return (unit >= 97 && unit <= 122) || (unit >= 65 && unit <= 90) || (unit >= 48 && unit <= 57) || unit === 95;
  return ignoreCase && (unit === 0x17f || unit === 0x212a);
}

/** A zero-width assertion at `pos` (a UTF-16 index; NaN from charCodeAt outside the text is no word character). */
function assertionHolds(kind: number, text: string, pos: number): boolean {
  switch (kind) {
    case ASSERT_START:
      return pos === 0;
    case ASSERT_END:
      return pos === text.length;
    default: {
      const ignoreCase = kind >= ASSERT_WORD_BOUNDARY_I;
      const boundary = isWordUnit(text.charCodeAt(pos - 1), ignoreCase) !== isWordUnit(text.charCodeAt(pos), ignoreCase);
      return kind === ASSERT_WORD_BOUNDARY || kind === ASSERT_WORD_BOUNDARY_I ? boundary : !boundary;
    }
  }
}

/**
 * Adds to `list` (holding `count` pcs) every consuming instruction reachable
 * from `start` without consuming input at `pos`; returns the new count. Sets
 * `scratch.matched` when MATCH is reachable.
 */
function addClosure(
  program: RegexProgram,
  scratch: Scratch,
  start: number,
  list: Int32Array,
  count: number,
  text: string,
  pos: number,
): number {
  const { ops } = program;
  const { stamp, stack, generation } = scratch;
  if (stamp[start] === generation) return count;
  stamp[start] = generation;
  let top = 0;
  stack[top++] = start;
  while (top > 0) {
    const pc = stack[--top]!;
    let next = -1;
    let other = -1;
    switch (ops[pc]) {
      case OP_MATCH:
        scratch.matched = true;
        return count;
      case OP_CHAR:
      case OP_SET:
        list[count++] = pc;
        break;
      case OP_SPLIT:
        next = ops[pc + 1]!;
        other = ops[pc + 2]!;
        break;
      case OP_JUMP:
        next = ops[pc + 1]!;
        break;
      case OP_ASSERT:
        if (assertionHolds(ops[pc + 1]!, text, pos)) next = pc + 2;
        break;
    }
    if (other >= 0 && stamp[other] !== generation) {
      stamp[other] = generation;
      stack[top++] = other;
    }
    if (next >= 0 && stamp[next] !== generation) {
      stamp[next] = generation;
      stack[top++] = next;
    }
  }
  return count;
}

/** Whether the consuming instruction at pc accepts the code point c. */
function consumes(program: RegexProgram, pc: number, c: number): boolean {
  const operand = program.ops[pc + 1]!;
  return program.ops[pc] === OP_CHAR ? operand === c : inRanges(program.sets[operand]!, c);
}

/** The literal fast path: no NFA when the pattern is one fixed text. */
function testLiteral(program: RegexProgram, literal: string, text: string): boolean {
  if (program.anchorStart && program.anchorEnd) return text === literal;
  if (program.anchorStart) return text.startsWith(literal);
  if (program.anchorEnd) return text.endsWith(literal);
  return text.includes(literal);
}

/**
 * Whether `program` matches `text` anywhere (at the start only if anchored),
 * reading the text as code points as a JS RegExp with the `u` flag does (a
 * lone surrogate is a code point of its own). Linear in the text's length.
 */
export function regexTest(program: RegexProgram, text: string): boolean {
  if (program.literal !== null) return testLiteral(program, program.literal, text);
  const scratch = scratchFor(program);
  scratch.matched = false;
  newGeneration(scratch);
  let count = addClosure(program, scratch, 0, scratch.current, 0, text, 0);
  const length = text.length;
  for (let pos = 0; pos < length && !scratch.matched;) {
    if (count === 0 && program.anchorStart) return false;
    // The code point at pos: a surrogate pair is one, a lone surrogate is itself.
    let c = text.charCodeAt(pos);
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && pos + 1 < length) {
      const low = text.charCodeAt(pos + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        width = 2;
      }
    }
    const after = pos + width;
    newGeneration(scratch);
    const current = scratch.current;
    const next = scratch.next;
    let nextCount = 0;
    for (let k = 0; k < count && !scratch.matched; k++) {
      const pc = current[k]!;
      if (consumes(program, pc, c)) nextCount = addClosure(program, scratch, pc + 2, next, nextCount, text, after);
    }
    // A match may also begin at the next position.
    if (!program.anchorStart && !scratch.matched) nextCount = addClosure(program, scratch, 0, next, nextCount, text, after);
    scratch.current = next;
    scratch.next = current;
    count = nextCount;
    pos = after;
  }
  return scratch.matched;
}
