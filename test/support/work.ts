/**
 * Deterministic measures of work, for the tests that guard against super-linear
 * growth. They count what the code under test does (characters read, states
 * looked up, set bounds compared), never time it: a loaded machine cannot fail
 * them, and a wrong algorithm fails them on every run. Speed figures live in
 * bench/ (bench/regex-linear.js for the matcher).
 *
 * The hooks are read-only and live here, not in runtime/: a global method is
 * replaced for the length of one call and put back, and a program's data is
 * wrapped in a Proxy.
 */
import { regexTest, type RegexProgram } from "../../runtime/regex.js";

/**
 * Runs `run` with `String.prototype.codePointAt` counting its calls (the
 * matcher reads its text through it, one call per code point read), and
 * returns what `run` returned and the count. For an async `run`, await the
 * result inside: the hook stays until the promise settles.
 */
export async function countingCodePointReads<T>(run: () => Promise<T> | T): Promise<{ result: T; reads: number }> {
  const original = String.prototype.codePointAt;
  let reads = 0;
  String.prototype.codePointAt = function (this: string, pos: number) {
    reads++;
    return original.call(this, pos);
  };
  try {
    const result = await run();
    return { result, reads };
  } finally {
    String.prototype.codePointAt = original;
  }
}

type Method = (this: unknown, ...args: unknown[]) => unknown;
/** The steps a built-in call takes, from its receiver, arguments and result (one, or the length it goes over). */
type Weight = (self: unknown, args: unknown[], result: unknown) => number;

const one: Weight = () => 1;
const overArray: Weight = (self) => (self as unknown[]).length + 1;
const resultLength: Weight = (_self, _args, result) => (result as { length: number }).length + 1;
/** String indexOf: the characters passed over, from the start position to the match or the end. */
const scanned: Weight = (self, args, result) => {
  const from = Math.max(0, Number(args[1] ?? 0) || 0);
  return ((result as number) < 0 ? (self as string).length : (result as number)) - from + 1;
};
/**
 * RegExp exec: the characters from where it starts (lastIndex when global or sticky) to the match's end,
 * or to the text's end; a sticky pattern tries one position only, so its failure costs one.
 */
function execWeight(pattern: RegExp, start: number, text: string, match: RegExpExecArray | null): number {
  if (pattern.sticky) return (match === null ? 0 : match[0].length) + 1;
  return (match === null ? text.length : match.index + match[0].length) - start + 1;
}

/**
 * The built-in methods `countingWork` counts, with the steps each call costs:
 * the ones parsers, code generators and importers call for each piece of their
 * input or output, weighed by the length they go over, so a quadratic loop
 * hidden in a native call (an `includes` over a growing list, a `slice` of the
 * whole text per token) counts as quadratic. RegExp.prototype.exec counts
 * `test`, `match` and `replace` with a pattern too: they call it.
 */
const COUNTED: [owner: object, name: string, weight: Weight][] = [
  [Array.prototype, "push", one],
  [Array.prototype, "pop", one],
  [Array.prototype, "map", overArray],
  [Array.prototype, "filter", overArray],
  [Array.prototype, "some", overArray],
  [Array.prototype, "join", (self, args, result) => (self as unknown[]).length + (result as string).length + 1],
  [Array.prototype, "slice", resultLength],
  [Array.prototype, "indexOf", overArray],
  [Array.prototype, "includes", overArray],
  [Map.prototype, "get", one],
  [Map.prototype, "set", one],
  [Map.prototype, "has", one],
  [Set.prototype, "add", one],
  [Set.prototype, "has", one],
  [String.prototype, "charCodeAt", one],
  [String.prototype, "codePointAt", one],
  [String.prototype, "indexOf", scanned],
  [String.prototype, "slice", resultLength],
  [String.prototype, "startsWith", (_self, args) => String(args[0]).length + 1],
];

/** Replaces the methods above (and RegExp.prototype.exec) by counting ones; returns the steps so far and a function putting them back. */
function hookWork(): { steps: () => number; restore: () => void } {
  let steps = 0;
  const define = (owner: object, name: string, value: unknown) =>
    Object.defineProperty(owner, name, { value, writable: true, configurable: true, enumerable: false });
  const originals = COUNTED.map(([owner, name]) => (owner as Record<string, Method>)[name]!);
  COUNTED.forEach(([owner, name, weight], k) => {
    const original = originals[k]!;
    define(owner, name, function (this: unknown, ...args: unknown[]) {
      const result = original.apply(this, args);
      steps += weight(this, args, result);
      return result;
    });
  });
  const exec = RegExp.prototype.exec;
  define(RegExp.prototype, "exec", function (this: RegExp, text: string) {
    const start = this.global || this.sticky ? this.lastIndex : 0;
    const result = exec.call(this, text);
    steps += execWeight(this, start, String(text), result);
    return result;
  });
  return {
    steps: () => steps,
    restore: () => {
      COUNTED.forEach(([owner, name], k) => define(owner, name, originals[k]));
      define(RegExp.prototype, "exec", exec);
    },
  };
}

/**
 * Runs `run` with the built-in methods above counting the steps they take,
 * and returns what it returned and the total: a deterministic measure of its
 * work that grows as the work does (a walk of the whole input per item, or a
 * re-import per line, shows as steps growing with the square of the size).
 * Work done without calling them (indexing, arithmetic, string `+`) is not
 * seen; compare two sizes of the same input, so what is counted stands for it.
 */
export function countingWork<T>(run: () => T): { result: T; steps: number } {
  const hook = hookWork();
  try {
    const result = run();
    return { result, steps: hook.steps() };
  } finally {
    hook.restore();
  }
}

/**
 * `countingWork` for an async `run`, the methods put back when it settles. The
 * count may include a little of whatever else runs meanwhile (the test
 * runner's own messages): compare sizes with a margin, not exact figures.
 */
export async function countingWorkAsync<T>(run: () => Promise<T>): Promise<{ result: T; steps: number }> {
  const hook = hookWork();
  try {
    const result = await run();
    return { result, steps: hook.steps() };
  } finally {
    hook.restore();
  }
}

/** What one regexTest call did, counted. */
export interface RegexWork {
  readonly matched: boolean;
  /** Code points read from the text (a backtracking or restarting matcher reads the same ones again). */
  readonly reads: number;
  /** DFA states looked up: one to start, then one per transition not in the cache (each costs at most one pass over the program). */
  readonly lookups: number;
  /** Set bounds compared (the NFA's SET instructions, run on cache misses and in plain simulation). */
  readonly setReads: number;
}

/**
 * Runs regexTest on a fresh copy of `program` (so its DFA cache starts empty,
 * and two texts are measured alike) and counts its work. The VM's steps are
 * bounded by (reads + lookups) × the program's size, plus setReads: each count
 * linear in the text means the matcher is.
 */
export function regexWork(program: RegexProgram, text: string): RegexWork {
  let reads = 0;
  let lookups = 0;
  let setReads = 0;
  const counted: ProxyHandler<readonly number[]> = {
    get(target, key, receiver) {
      if (typeof key === "string") setReads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  };
  const fresh: RegexProgram = { ...program, ops: [...program.ops], sets: program.sets.map((ranges) => new Proxy([...ranges], counted)) };
  const codePointAt = String.prototype.codePointAt;
  const get = Map.prototype.get;
  String.prototype.codePointAt = function (this: string, pos: number) {
    reads++;
    return codePointAt.call(this, pos);
  };
  // The matcher's only Map is its table of DFA states (runtime/regex.ts, intern).
  Map.prototype.get = function <K, V>(this: Map<K, V>, key: K) {
    lookups++;
    return get.call(this, key) as V | undefined;
  };
  try {
    const matched = regexTest(fresh, text);
    return { matched, reads, lookups, setReads };
  } finally {
    String.prototype.codePointAt = codePointAt;
    Map.prototype.get = get;
  }
}

/** The largest of the three counts' growth from `small` to `large` (each floored at 1). */
export function workGrowth(small: RegexWork, large: RegexWork): number {
  const ratio = (a: number, b: number) => Math.max(b, 1) / Math.max(a, 1);
  return Math.max(ratio(small.reads, large.reads), ratio(small.lookups, large.lookups), ratio(small.setReads, large.setReads));
}

/**
 * How many times the steps of `run(large)` are those of `run(small)`
 * (countingWork): a linear import of 4 times the input gives about 4, a
 * quadratic one about 16.
 */
export function stepsRatio<I>(run: (input: I) => unknown, large: I, small: I): number {
  return countingWork(() => run(large)).steps / countingWork(() => run(small)).steps;
}
