/** The fold of FORMATS.md §4: any false → false; else all na → na; else true. */
import type { NaReason, Verdict } from "./types.js";

export function foldVerdicts(verdicts: readonly { verdict: Verdict }[]): Verdict {
  let sawTrue = false;
  for (const v of verdicts) {
    if (v.verdict === "false") return "false";
    if (v.verdict === "true") sawTrue = true;
  }
  return sawTrue ? "true" : "na";
}

/** A meta-behavior that folds to na takes the reason of its first na clause. */
export function firstNaReason(clauses: readonly { verdict: Verdict; naReason: NaReason | null }[]): NaReason {
  for (const c of clauses) if (c.verdict === "na" && c.naReason !== null) return c.naReason;
  return "insufficient_evidence";
}

/** `na(c)` of FORMATS.md §4: nothing happened in a complete trace, or the trace stopped early. */
export function absentReason(complete: boolean): NaReason {
  return complete ? "not_applicable" : "insufficient_evidence";
}
