/**
 * "Did you mean …?" suggestions for misspelled keys, check types, actors and
 * actions. Kept apart from the schema so the spec loader and the generator can
 * reuse it.
 */

/**
 * Optimal-string-alignment distance: Levenshtein plus adjacent transpositions,
 * because swapped letters ("qoute") are the most common typo and plain
 * Levenshtein would charge them twice.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * Typos scale with word length: one slip in a short word, about one per three
 * letters in a long one. Anything further is a different word, and a wrong
 * suggestion is worse than none.
 */
function isCloseEnough(input: string, candidate: string, distance: number): boolean {
  if (distance <= Math.max(1, Math.floor(Math.max(input.length, candidate.length) / 3))) return true;
  // A truncated word ("order", "pair") is an obvious intent even when far in edits.
  return input.length >= 3 && candidate.startsWith(input);
}

/**
 * The candidate closest to `input`, or undefined when none is plausibly meant.
 * Case is ignored when measuring (`Quote`, `content_includes` are near misses),
 * and ties go to the earlier candidate so suggestions are stable.
 */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  const folded = fold(input);
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === input) return undefined;
    const distance = editDistance(folded, fold(candidate));
    if (!isCloseEnough(folded, fold(candidate), distance)) continue;
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  return best?.candidate;
}

/** Separators are dropped so snake_case and kebab-case spellings of camelCase keys match. */
function fold(word: string): string {
  return word.toLowerCase().replace(/[_\- ]/g, "");
}

/** The hint text for the closest candidate, e.g. `did you mean "quote"?`. */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  const match = closestMatch(input, candidates);
  return match === undefined ? undefined : `did you mean ${JSON.stringify(match)}?`;
}
