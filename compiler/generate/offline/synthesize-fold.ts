/**
 * Small pieces of the label search's inner loop (synthesize.ts, issue 25), kept cheap: the search
 * judges tens of thousands of readings a rule on up to 50 samples.
 */
import type { Vector, Verdict } from "./synthesize-eval.js";

/** The parts' verdicts on sample i folded as `fold` does (any "false": "false"; else any "true": "true"), without an array. */
export function foldAt(vectors: readonly Vector[], i: number): Verdict {
  let v: Verdict = "na";
  for (const part of vectors) {
    const x = part[i]!;
    if (x === "false") return "false";
    if (x === "true") v = "true";
  }
  return v;
}

/** `f` worked out once per object (a reading): the search's sorts ask for it at every comparison. */
export function once<T extends object>(f: (x: T) => number): (x: T) => number {
  const known = new WeakMap<T, number>();
  return (x: T): number => {
    let n = known.get(x);
    if (n === undefined) known.set(x, (n = f(x)));
    return n;
  };
}

/**
 * Whether a reading agrees with more than `than` of the labels, read on the labeled samples only
 * and given up at the miss too many: agreement as the whole vector would count it.
 */
export function agreesMore(
  labeled: readonly { i: number; label: Verdict }[],
  fires: readonly boolean[],
  vectors: readonly Vector[],
  than: number,
): boolean {
  if (than >= labeled.length) return false;
  let misses = labeled.length - than;
  for (const x of labeled) if ((fires[x.i] ? foldAt(vectors, x.i) : "na") !== x.label && --misses === 0) return false;
  return true;
}
