/**
 * A reading of a rule the search from labels judged (synthesize.ts), and how readings are ordered:
 * by rank when the phrase reading anchors the pick (synthesize-rank.ts), else by the labels they fit,
 * then whether they judge any sample broken, the words, simplicity; and the leave-one-out test a
 * change of the phrase reading must pass.
 */
import type { Candidate, Vector } from "./synthesize-eval.js";
import { MISS } from "./synthesize-rank.js";
import type { Variant } from "./synthesize-variants.js";

export interface Reading {
  /** Per kept drafted check: its index; per new one: the candidate. */
  parts: ({ drafted: number } | { candidate: Candidate; quote: string } | { variant: Variant })[];
  trigger: { drafted: true } | { matcher: number | "any" };
  agree: number;
  score: number;
  vector: Vector;
  /** Its log-posterior (synthesize-rank.ts): fit, fields changed from the phrase reading, words. */
  rank: number;
  /** Whether it judges some sample broken: a reading that fails none cannot tell a sample from another. */
  fails: boolean;
  /**
   * Samples where its trigger fires and its checks say nothing ("na"): the rule applies there and
   * the reading judges nothing ("if you've put a loss in, text me afterwards" read as an ordering of
   * texts after losses says nothing of a loss with no text). Of readings alike on labels and words,
   * the one that decides where the rule applies reads more of it.
   */
  silent: number;
}

/**
 * Leave-one-out over the readings the search judged: how many labels the pick predicts when it is
 * made without them. With label k left out, a reading that disagreed with it no longer pays for
 * that (one label fewer missed: MISS back on its rank when the phrase reading anchors the pick),
 * one that agreed has one agreement fewer; the pick is the better of the best of each side, and
 * it predicts label k when it is the agreeing one. A reading that fits the labels only because
 * of the label left out, or one of many that fit the rest alike and split on it, predicts it no
 * better than chance; the phrase reading, fitted on no label, predicts exactly what it agrees with.
 */
export function heldOut(
  labeled: readonly unknown[],
  bestAgreeing: readonly (Reading | undefined)[],
  bestMissing: readonly (Reading | undefined)[],
  anchored: boolean,
): number {
  return labeled.filter((_, k) => {
    const hit = bestAgreeing[k];
    const miss = bestMissing[k];
    if (hit === undefined) return false;
    if (miss === undefined) return true;
    // Left out, the label counts for neither: the agreeing side loses one agreement, the missing side its miss.
    const h = { ...hit, agree: hit.agree - 1 };
    const m = { ...miss, rank: anchored ? miss.rank + MISS : miss.rank };
    return byRank(h, m) < 0;
  }).length;
}

/** Higher rank first, then the search's own order (labels, words, simplicity). */
export function byRank(a: Reading, b: Reading): number {
  return b.rank - a.rank || compareReadings(a, b);
}

export function compareReadings(a: Reading, b: Reading): number {
  return (
    b.agree - a.agree || Number(b.fails) - Number(a.fails) || b.score - a.score || a.silent - b.silent || a.parts.length - b.parts.length
  );
}
