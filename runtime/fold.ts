/**
 * The fold of docs/FORMATS.md §4: any false → false; else any error → na
 * (`insufficient_evidence`, marked as an error); else all na → na; else true.
 */
import type { NaReason, Verdict } from "./types.js";

/**
 * An item of a fold: a clause (`error` is the model's failure message) or a
 * meta-behavior (`error: true`). Either way a set `error` means "no verdict".
 */
export interface Foldable {
  readonly verdict: Verdict;
  readonly error?: string | boolean | undefined;
}

/** Whether an item rests on a model call that failed (after the retry). */
export function hasError(item: Foldable): boolean {
  return item.error !== undefined && item.error !== false;
}

export function foldVerdicts(items: readonly Foldable[]): Verdict {
  let sawTrue = false;
  let sawError = false;
  for (const item of items) {
    if (item.verdict === "false") return "false";
    // An errored item never counts as a pass, whatever verdict it carries.
    if (hasError(item)) sawError = true;
    else if (item.verdict === "true") sawTrue = true;
  }
  return sawTrue && !sawError ? "true" : "na";
}

/**
 * The reason of a fold that gave na: `insufficient_evidence` when an item
 * errored (a failed call decides nothing), else the reason of the first na
 * item, `insufficient_evidence` by default.
 */
export function foldNaReason(items: readonly (Foldable & { naReason: NaReason | null })[]): NaReason {
  if (items.some(hasError)) return "insufficient_evidence";
  for (const c of items) if (c.verdict === "na" && c.naReason !== null) return c.naReason;
  return "insufficient_evidence";
}

/** `na(c)` of docs/FORMATS.md §4: nothing happened in a complete trace, or the trace stopped early. */
export function absentReason(complete: boolean): NaReason {
  return complete ? "not_applicable" : "insufficient_evidence";
}
