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
