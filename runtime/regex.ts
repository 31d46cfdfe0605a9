/**
 * The linear-time regular-expression matcher behind `matches` (LANGUAGE.md §1).
 *
 * JS RegExp backtracks: `(a+)+$` on a long run of `a`s never finishes, and a
 * judge runs on content we do not control. So patterns are compiled at build
 * time (compiler/ir/regex-program.ts) into a small NFA program, and the judge
 * runs every live NFA state together, one code point at a time (Thompson's
 * construction, simulated as a set of states). Each set of states met is
 * remembered as one state of a DFA, built lazily, with its transitions per
 * class of code points: after warming up, a character costs one table lookup,
 * and `a{0,1000}x` on a megabyte costs what `ax` does. The cache is bounded;
 * when content makes it overflow it is cleared and rebuilt, so the worst case
 * is the plain simulation: O(text length × program size), whatever the pattern
 * and the content. No recursion, no allocation per character once warm.
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

/** Flags of a DFA state (what the next position's assertions need to know of the past), and of a closure's context. */
const AT_START = 1;
const PREV_WORD = 2;
const PREV_WORD_I = 4;
const AT_END = 8;
const NEXT_WORD = 16;
const NEXT_WORD_I = 32;

/** A transition not computed yet, and one that reaches MATCH. */
const UNKNOWN = -1;
const MATCHED = -2;

/** The bounds of the DFA cache: transition table entries, and NFA states stored over all DFA states. */
const MAX_TRANSITIONS = 1 << 18;
const MAX_STORED_STATES = 1 << 20;
/**
 * A text switches from the cache to plain simulation once the cache has been
 * cleared during it, past this many misses, when more than one character in
 * MISS_RATIO missed.
 */
const MIN_MISSES_BEFORE_SIMULATION = 1000;
const MISS_RATIO = 8;
/** Past this many classes of code points, only ASCII transitions are cached (the rest are computed each time). */
const MAX_CLASSES = 1024;

/**
 * Per-program working memory, made on the program's first test and reused (JS
 * is single-threaded and regexTest does not re-enter, so one per program).
 */
interface Engine {
  /** The instructions as a typed array. */
  readonly ops: Int32Array;
  readonly sets: readonly (readonly number[])[];
  /** Whether a match can begin only at position 0 (then no thread is started later). */
  readonly anchored: boolean;
  /** The class of each ASCII code point; `bounds[k]` is the least code point of class k (sorted). */
  readonly asciiClass: Int32Array;
  readonly bounds: Int32Array;
  /** Classes with cached transitions: all of them, or (past MAX_CLASSES) those below 128. */
  readonly classCount: number;
  /** NFA scratch: per-pc stamps of the current generation, the closure's stack, its consuming pcs, the next set. */
  readonly stamp: Int32Array;
  generation: number;
  readonly stack: Int32Array;
  readonly consuming: Int32Array;
  nextSet: Int32Array;
  spareSet: Int32Array;
  /** The flags that matter to this program (no \b: the previous character does not). */
  readonly flagMask: number;
  /** The DFA cache: transitions[state * classCount + class]; UNKNOWN when not yet computed. Grown as states are added. */
  transitions: Int32Array;
  /** Per DFA state: its NFA states (pcs before their epsilon closure), its flags, whether it matches at the end (-1 unknown). */
  readonly stateSets: Int32Array[];
  stateFlags: Uint8Array;
  acceptsAtEnd: Int8Array;
  readonly ids: Map<string, number>;
  readonly maxStates: number;
  stateCount: number;
  storedStates: number;
  /** Bumped each time the cache is cleared: a state id from before is stale. */
  epoch: number;
}

const engines = new WeakMap<RegexProgram, Engine>();

function engineFor(program: RegexProgram): Engine {
  let engine = engines.get(program);
  if (engine === undefined) {
    engine = makeEngine(program);
    engines.set(program, engine);
  }
  return engine;
}

function makeEngine(program: RegexProgram): Engine {
  const ops = Int32Array.from(program.ops);
  const size = ops.length + 1;
  const bounds = classBounds(program, ops);
  const asciiClass = new Int32Array(128);
  for (let c = 0; c < 128; c++) asciiClass[c] = classOf(bounds, c);
  let classCount = bounds.length;
  if (classCount > MAX_CLASSES) classCount = asciiClass[127]! + 1;
  const maxStates = Math.max(16, Math.floor(MAX_TRANSITIONS / classCount));
  const initialStates = Math.min(16, maxStates);
  return {
    ops,
    sets: program.sets,
    anchored: program.anchorStart,
    asciiClass,
    bounds,
    classCount,
    stamp: new Int32Array(size),
    generation: 0,
    stack: new Int32Array(size),
    consuming: new Int32Array(size),
    nextSet: new Int32Array(size),
    spareSet: new Int32Array(size),
    flagMask: AT_START | wordAssertionFlags(ops),
    transitions: new Int32Array(initialStates * classCount),
    stateSets: [],
    stateFlags: new Uint8Array(initialStates),
    acceptsAtEnd: new Int8Array(initialStates),
    ids: new Map(),
    maxStates,
    stateCount: 0,
    storedStates: 0,
    epoch: 0,
  };
}

/**
 * The classes of code points the program cannot tell apart: every character
 * and set of the program, and the word characters of \b, hold all or none of
 * a class, so one transition serves the whole class.
 */
function classBounds(program: RegexProgram, ops: Int32Array): Int32Array {
  // [0-9] [A-Z] _ [a-z], and ſ K (word characters under i).
  const cuts = [0, 0x30, 0x3a, 0x41, 0x5b, 0x5f, 0x60, 0x61, 0x7b, 0x17f, 0x180, 0x212a, 0x212b];
  for (let pc = 0; pc < ops.length; pc += instructionWidth(ops[pc]!)) {
    if (ops[pc] === OP_CHAR) cuts.push(ops[pc + 1]!, ops[pc + 1]! + 1);
  }
  for (const ranges of program.sets) for (let k = 0; k < ranges.length; k += 2) cuts.push(ranges[k]!, ranges[k + 1]! + 1);
  const sorted = Int32Array.from(cuts.filter((c) => c <= 0x10ffff)).sort();
  return sorted.filter((c, k) => k === 0 || c !== sorted[k - 1]);
}

/** PREV_WORD and/or PREV_WORD_I when the program has \b or \B (plain or under i): only then is the previous character part of a state. */
function wordAssertionFlags(ops: Int32Array): number {
  let flags = 0;
  for (let pc = 0; pc < ops.length; pc += instructionWidth(ops[pc]!)) {
    if (ops[pc] !== OP_ASSERT) continue;
    const kind = ops[pc + 1]!;
    if (kind === ASSERT_WORD_BOUNDARY || kind === ASSERT_NOT_WORD_BOUNDARY) flags |= PREV_WORD;
    if (kind === ASSERT_WORD_BOUNDARY_I || kind === ASSERT_NOT_WORD_BOUNDARY_I) flags |= PREV_WORD_I;
  }
  return flags;
}

function instructionWidth(op: number): number {
  return op === OP_MATCH ? 1 : op === OP_SPLIT ? 3 : 2;
}

/** The class of code point c: the last bound at or below it. */
function classOf(bounds: Int32Array, c: number): number {
  let lo = 0;
  let hi = bounds.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (bounds[mid]! <= c) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Starts a new set: a fresh generation, so every pc counts as absent (stamps are reset long before they could wrap). */
function newGeneration(engine: Engine): number {
  if (engine.generation >= 0x3fffffff) {
    engine.stamp.fill(0);
    engine.generation = 0;
  }
  return ++engine.generation;
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

/** A word character of \b: [A-Za-z0-9_], and under i also U+017F and U+212A. */
function isWord(c: number, ignoreCase: boolean): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
  return ignoreCase && (c === 0x17f || c === 0x212a);
}

/** The flags a position gets from the code point before it. */
function wordFlags(c: number): number {
  return (isWord(c, false) ? PREV_WORD : 0) | (isWord(c, true) ? PREV_WORD_I : 0);
}

/** A zero-width assertion in a context (flags of the DFA state, plus what follows). */
function assertionHolds(kind: number, context: number): boolean {
  switch (kind) {
    case ASSERT_START:
      return (context & AT_START) !== 0;
    case ASSERT_END:
      return (context & AT_END) !== 0;
    case ASSERT_WORD_BOUNDARY:
      return ((context & PREV_WORD) !== 0) !== ((context & NEXT_WORD) !== 0);
    case ASSERT_NOT_WORD_BOUNDARY:
      return ((context & PREV_WORD) !== 0) === ((context & NEXT_WORD) !== 0);
    case ASSERT_WORD_BOUNDARY_I:
      return ((context & PREV_WORD_I) !== 0) !== ((context & NEXT_WORD_I) !== 0);
    default:
      return ((context & PREV_WORD_I) !== 0) === ((context & NEXT_WORD_I) !== 0);
  }
}

/**
 * The epsilon closure of a DFA state's NFA states in a context: writes the
 * consuming instructions (CHAR, SET) reached to `engine.consuming` and returns
 * how many, or MATCHED when MATCH is reachable.
 */
function closure(engine: Engine, states: Int32Array, size: number, context: number): number {
  const { ops, stamp, stack, consuming } = engine;
  const generation = newGeneration(engine);
  let count = 0;
  let top = 0;
  for (let k = 0; k < size; k++) {
    const pc = states[k]!;
    if (stamp[pc] !== generation) {
      stamp[pc] = generation;
      stack[top++] = pc;
    }
  }
  while (top > 0) {
    const pc = stack[--top]!;
    const op = ops[pc]!;
    let next: number;
    if (op === OP_CHAR || op === OP_SET) {
      consuming[count++] = pc;
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
      if (!assertionHolds(ops[pc + 1]!, context)) continue;
      next = pc + 2;
    } else {
      return MATCHED; // OP_MATCH
    }
    if (stamp[next] !== generation) {
      stamp[next] = generation;
      stack[top++] = next;
    }
  }
  return count;
}

/** The DFA state with these NFA states and flags: found in the cache, or added (clearing a full cache first). */
function intern(engine: Engine, states: Int32Array, flags: number): number {
  const key = `${flags}:${states.join(",")}`;
  const known = engine.ids.get(key);
  if (known !== undefined) return known;
  if (engine.stateCount >= engine.maxStates || engine.storedStates + states.length > MAX_STORED_STATES) {
    // Full: start over. The cost of the states built since is bounded by the characters read since.
    engine.ids.clear();
    engine.stateSets.length = 0;
    engine.stateCount = 0;
    engine.storedStates = 0;
    engine.epoch++;
  }
  const id = engine.stateCount++;
  if (id >= engine.stateFlags.length) grow(engine);
  engine.stateSets[id] = states.slice();
  engine.storedStates += states.length;
  engine.stateFlags[id] = flags;
  engine.acceptsAtEnd[id] = -1;
  engine.transitions.fill(UNKNOWN, id * engine.classCount, (id + 1) * engine.classCount);
  engine.ids.set(key, id);
  return id;
}

/** Doubles the room for states in the cache (up to maxStates): a program that meets few states keeps a small table. */
function grow(engine: Engine): void {
  const capacity = Math.min(engine.maxStates, engine.stateFlags.length * 2);
  const transitions = new Int32Array(capacity * engine.classCount);
  transitions.set(engine.transitions);
  engine.transitions = transitions;
  const flags = new Uint8Array(capacity);
  flags.set(engine.stateFlags);
  engine.stateFlags = flags;
  const ends = new Int8Array(capacity);
  ends.set(engine.acceptsAtEnd);
  engine.acceptsAtEnd = ends;
}

/**
 * Reads code point c from the NFA states `states[0..size)` whose position has
 * `flags`: writes the states after it to `engine.nextSet` and returns how many,
 * or MATCHED when the pattern matched before c.
 */
function advance(engine: Engine, states: Int32Array, size: number, flags: number, c: number): number {
  const { ops, sets, stamp, consuming, nextSet } = engine;
  const count = closure(engine, states, size, flags | (isWord(c, false) ? NEXT_WORD : 0) | (isWord(c, true) ? NEXT_WORD_I : 0));
  if (count === MATCHED) return MATCHED;
  const generation = newGeneration(engine);
  let nextSize = 0;
  for (let k = 0; k < count; k++) {
    const pc = consuming[k]!;
    const operand = ops[pc + 1]!;
    if (ops[pc] === OP_CHAR ? operand !== c : !inRanges(sets[operand]!, c)) continue;
    if (stamp[pc + 2] !== generation) {
      stamp[pc + 2] = generation;
      nextSet[nextSize++] = pc + 2;
    }
  }
  // A match may also begin at the next position.
  if (!engine.anchored && stamp[0] !== generation) nextSet[nextSize++] = 0;
  return nextSize;
}

/** The DFA state after reading code point c in `state`, or MATCHED. */
function step(engine: Engine, state: number, c: number): number {
  const states = engine.stateSets[state]!;
  const size = advance(engine, states, states.length, engine.stateFlags[state]!, c);
  if (size === MATCHED) return MATCHED;
  return intern(engine, engine.nextSet.subarray(0, size).sort(), wordFlags(c) & engine.flagMask);
}

/** Whether `state` matches at the end of the text. */
function acceptsAtEnd(engine: Engine, state: number): boolean {
  let known = engine.acceptsAtEnd[state]!;
  if (known < 0) {
    const states = engine.stateSets[state]!;
    known = closure(engine, states, states.length, engine.stateFlags[state]! | AT_END) === MATCHED ? 1 : 0;
    engine.acceptsAtEnd[state] = known;
  }
  return known === 1;
}

/**
 * The rest of the text from `pos` without the cache, starting in DFA state
 * `state`: for content on which nearly every character meets a new set of
 * states, building and storing them costs more than just simulating the NFA.
 */
function simulate(engine: Engine, text: string, pos: number, state: number): boolean {
  const length = text.length;
  let current = engine.spareSet;
  let size = engine.stateSets[state]!.length;
  current.set(engine.stateSets[state]!);
  let flags = engine.stateFlags[state]!;
  while (pos < length) {
    const c = text.codePointAt(pos)!;
    pos += c > 0xffff ? 2 : 1;
    const nextSize = advance(engine, current, size, flags, c);
    if (nextSize === MATCHED) return true;
    // Swap the two buffers: the one just filled is current, the other takes the next set.
    const filled = engine.nextSet;
    engine.nextSet = current;
    engine.spareSet = filled;
    current = filled;
    size = nextSize;
    flags = wordFlags(c) & engine.flagMask;
    if (engine.anchored && size === 0) return false;
  }
  return closure(engine, current, size, flags | AT_END) === MATCHED;
}

const START_STATES = Int32Array.of(0);

/** The literal fast path: no automaton when the pattern is one fixed text. */
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
  const engine = engineFor(program);
  const { asciiClass, bounds, classCount, anchored } = engine;
  const length = text.length;
  let state = intern(engine, START_STATES, AT_START);
  let misses = 0;
  const startEpoch = engine.epoch;
  for (let pos = 0; pos < length;) {
    // The code point at pos (u-mode: a surrogate pair is one, a lone surrogate is itself).
    const c = text.codePointAt(pos)!;
    let k = c < 128 ? asciiClass[c]! : classOf(bounds, c);
    if (k >= classCount) k = -1; // not cached (a program with very many classes)
    let next = k < 0 ? UNKNOWN : engine.transitions[state * classCount + k]!;
    if (next === UNKNOWN) {
      // Mostly misses, and the cache has already filled up once: this content defeats it.
      if (++misses > MIN_MISSES_BEFORE_SIMULATION && misses * MISS_RATIO > pos && engine.epoch !== startEpoch) {
        return simulate(engine, text, pos, state);
      }
      const epoch = engine.epoch;
      next = step(engine, state, c);
      // Remembered unless the cache was cleared meanwhile (then `state` names another state).
      if (k >= 0 && engine.epoch === epoch) engine.transitions[state * classCount + k] = next;
    }
    if (next === MATCHED) return true;
    state = next;
    if (anchored && engine.stateSets[state]!.length === 0) return false; // no thread left, and none can start
    pos += c > 0xffff ? 2 : 1;
  }
  return acceptsAtEnd(engine, state);
}
