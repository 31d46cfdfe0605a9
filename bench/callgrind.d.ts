// Types of bench/callgrind.js, for test/project/bench-scripts.test.ts.

/** A perf map's entries (`start size name`), sorted by start; `order` is the line's place in the map. */
export function readPerfMap(text: string): { start: number; end: number; name: string; order: number }[];

/** Instructions by function of a callgrind profile written with `--dump-instr=yes`, compiled JavaScript named by `perfMapText`. */
export function costByFunction(callgrindText: string, perfMapText: string): Map<string, number>;

/** Data references, first-level and last-level data misses in a cachegrind summary (reads and writes together). */
export function cacheMisses(summary: string): { dataRefs: number; d1Misses: number; llMisses: number };
