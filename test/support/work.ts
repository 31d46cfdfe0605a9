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
