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
 *
 * Hold a program in a module constant (generated code hoists it): regexTest
 * keeps its working memory per program object.
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

/**
 * Per-program working memory, made on the program's first test and reused, so
 * a test allocates nothing (JS is single-threaded and regexTest does not
 * re-enter, so one per program is enough).
 */
interface Scratch {
  /** The instructions as a typed array (the hot loop reads nothing else of the program but `sets`). */
  readonly ops: Int32Array;
  /** For each set, one byte per ASCII code point: 1 if the set holds it (most judged text is ASCII). */
  readonly ascii: Uint8Array;
  /** stamp[pc] === generation: pc is already in the list being built. */
  readonly stamp: Int32Array;
  generation: number;
  /** The consuming instructions (CHAR, SET) live at the current position, and those for the next. */
  current: Int32Array;
  next: Int32Array;
  /** The explicit stack of the epsilon closure (each pc is pushed at most once per generation). */
  readonly stack: Int32Array;
  matched: boolean;
  /** The ASCII code units a match can begin with, and whether it can begin with a non-ASCII one (see firstUnits). */
  readonly firstAscii: Uint8Array;
  readonly firstNonAscii: boolean;
  /** False when a match may consume nothing (then every position must be tried). */
  readonly canSkip: boolean;
}

const scratches = new WeakMap<RegexProgram, Scratch>();

function scratchFor(program: RegexProgram): Scratch {
  let scratch = scratches.get(program);
  if (scratch === undefined) {
    const size = program.ops.length + 1;
    const ops = Int32Array.from(program.ops);
    const ascii = new Uint8Array(program.sets.length * 128);
    program.sets.forEach((ranges, k) => {
      for (let c = 0; c < 128; c++) ascii[k * 128 + c] = inRanges(ranges, c) ? 1 : 0;
    });
    const first = firstUnits(program, ops);
    scratch = {
      ops,
      ascii,
      stamp: new Int32Array(size),
      generation: 0,
      current: new Int32Array(size),
      next: new Int32Array(size),
      stack: new Int32Array(size),
      matched: false,
      ...first,
    };
    scratches.set(program, scratch);
  }
  return scratch;
}

/**
 * What a match can begin with: the consuming instructions reachable from the
 * start without consuming, taking every assertion as passable (an
 * over-approximation, which is what makes skipping safe). When no thread is
 * live, positions whose code unit cannot begin a match are skipped in a tight
 * loop instead of being tried one by one.
 */
function firstUnits(program: RegexProgram, ops: Int32Array): { firstAscii: Uint8Array; firstNonAscii: boolean; canSkip: boolean } {
  const firstAscii = new Uint8Array(128);
  let firstNonAscii = false;
  const seen = new Uint8Array(ops.length + 1);
  const stack = [0];
  seen[0] = 1;
  while (stack.length > 0) {
    const pc = stack.pop()!;
    const op = ops[pc];
    const targets: number[] = [];
    if (op === OP_MATCH) return { firstAscii, firstNonAscii: true, canSkip: false };
    if (op === OP_CHAR) {
      const c = ops[pc + 1]!;
      if (c < 128) firstAscii[c] = 1;
      else firstNonAscii = true;
    } else if (op === OP_SET) {
      const ranges = program.sets[ops[pc + 1]!]!;
      for (let c = 0; c < 128; c++) if (inRanges(ranges, c)) firstAscii[c] = 1;
      if (ranges.length > 0 && ranges[ranges.length - 1]! >= 128) firstNonAscii = true;
    } else if (op === OP_SPLIT) targets.push(ops[pc + 1]!, ops[pc + 2]!);
    else if (op === OP_JUMP) targets.push(ops[pc + 1]!);
    else targets.push(pc + 2); // ASSERT
    for (const target of targets) {
      if (seen[target] === 0) {
        seen[target] = 1;
        stack.push(target);
      }
    }
  }
  return { firstAscii, firstNonAscii, canSkip: true };
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
function addClosure(scratch: Scratch, start: number, list: Int32Array, count: number, text: string, pos: number): number {
  const { ops, stamp, stack, generation } = scratch;
  if (stamp[start] === generation) return count;
  stamp[start] = generation;
  let top = 0;
  stack[top++] = start;
  while (top > 0) {
    const pc = stack[--top]!;
    const op = ops[pc]!;
    let next = -1;
    if (op === OP_CHAR || op === OP_SET) {
      list[count++] = pc;
      continue;
    } else if (op === OP_SPLIT) {
      const other = ops[pc + 2]!;
      if (stamp[other] !== generation) {
        stamp[other] = generation;
        stack[top++] = other;
      }
      next = ops[pc + 1]!;
    } else if (op === OP_JUMP) {
      next = ops[pc + 1]!;
    } else if (op === OP_ASSERT) {
      if (!assertionHolds(ops[pc + 1]!, text, pos)) continue;
      next = pc + 2;
    } else {
      scratch.matched = true; // OP_MATCH
      return count;
    }
    if (stamp[next] !== generation) {
      stamp[next] = generation;
      stack[top++] = next;
    }
  }
  return count;
}

/** The first position from `pos` whose code unit can begin a match (text.length if none). */
function skipAhead(scratch: Scratch, text: string, pos: number): number {
  const { firstAscii, firstNonAscii } = scratch;
  const length = text.length;
  while (pos < length) {
    const unit = text.charCodeAt(pos);
    if (unit < 128 ? firstAscii[unit] === 1 : firstNonAscii) return pos;
    pos++;
  }
  return pos;
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
  const { ops, ascii, canSkip } = scratch;
  const { sets, anchorStart } = program;
  const length = text.length;
  scratch.matched = false;
  newGeneration(scratch);
  let count = 0;
  let pos = 0;
  for (;;) {
    if (count === 0) {
      if (anchorStart && pos > 0) return false;
      if (canSkip && !anchorStart) {
        const from = skipAhead(scratch, text, pos);
        if (from >= length) return false; // a match must consume a code unit, and none is left
        if (from !== pos) {
          pos = from;
          newGeneration(scratch); // the stamps of the empty list were for another position
        }
      }
    }
    // A match may begin here (the list for this position is being built in this generation).
    if (!anchorStart || pos === 0) count = addClosure(scratch, 0, scratch.current, count, text, pos);
    if (scratch.matched) return true;
    if (pos >= length) return false;
    // The code point at pos: a surrogate pair is one, a lone surrogate is itself.
    let c = text.charCodeAt(pos);
    let after = pos + 1;
    if (c >= 0xd800 && c <= 0xdbff && after < length) {
      const low = text.charCodeAt(after);
      if (low >= 0xdc00 && low <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        after++;
      }
    }
    newGeneration(scratch);
    const current = scratch.current;
    const next = scratch.next;
    let nextCount = 0;
    for (let k = 0; k < count; k++) {
      const pc = current[k]!;
      const operand = ops[pc + 1]!;
      const accepts = ops[pc] === OP_CHAR ? operand === c : c < 128 ? ascii[operand * 128 + c] === 1 : inRanges(sets[operand]!, c);
      if (!accepts) continue;
      nextCount = addClosure(scratch, pc + 2, next, nextCount, text, after);
      if (scratch.matched) return true;
    }
    scratch.current = next;
    scratch.next = current;
    count = nextCount;
    pos = after;
  }
}
