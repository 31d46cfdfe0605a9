/**
 * The fastest of `runs` runs of `run`, in milliseconds. The linear-time tests
 * compare two sizes by their fastest runs: the machine is shared, and the
 * fastest run is the least disturbed by what else it is doing.
 */
export function fastestOf(run: () => void, runs: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < runs; k++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/**
 * A time ratio (a large input's time over a small one's), measured again while it is at or over
 * `limit`, at most `attempts` times in all; returns the smallest. A linear algorithm is under the
 * limit in any quiet moment, so one moment of a shared machine's load cannot fail its test, while
 * a quadratic one is over it on every attempt (the limits sit between the two growths).
 */
export function calmestRatio(measure: () => number, limit: number, attempts = 3): number {
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < attempts && best >= limit; k++) best = Math.min(best, measure());
  return best;
}

/** `calmestRatio` for a measurement that awaits (the judge's own async entry points). */
export async function calmestRatioAsync(measure: () => Promise<number>, limit: number, attempts = 3): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < attempts && best >= limit; k++) best = Math.min(best, await measure());
  return best;
}
