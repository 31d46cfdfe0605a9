/**
 * Forms a rule's words ask for by name (issue 25): "other than the agent who took control of those
 * goods" is a comparison of two people, "the most recent look-up" a condition on the latest one, "no
 * later than the second entry following" a window of two steps. Labels that are few fit many plain
 * readings (at most one removal, a deposit before each sign-off), and the search stopped at the first
 * plain one before trying the extended forms that say what the words say. Where the search's fit uses
 * fewer of the forms its words ask for than they ask, the extended forms are searched for one that
 * fits the labels as well and uses more of them (synthesize.ts), as a written number is
 * (synthesize-written.ts).
 */
import type { Check } from "../../ir/types.js";
import { DIFFERENT } from "./synthesize-forms.js";
import type { Vocab } from "./synthesize-vocab.js";

/** Words that point at the latest of some events: "the most recent look-up", "most recently assigned", "the latest scan". */
const LATEST = /\b(?:most\s+recent(?:ly)?|latest|last)\b/i;

/** The forms the words ask for. */
export interface FormCues {
  /** "other than", "someone else": a comparison that two values differ. */
  different: boolean;
  /** "the most recent", "the latest": a condition on the latest earlier event. */
  latest: boolean;
  /** Step counts the words write for a window ("no later than the second entry following"). */
  within: readonly number[];
}

export function formCues(vocab: Vocab): FormCues {
  return { different: DIFFERENT.test(vocab.text), latest: LATEST.test(vocab.text), within: vocab.cues.within };
}

/** How many forms the words ask for. */
export function cuesGiven(cues: FormCues): number {
  return Number(cues.different) + Number(cues.latest) + Number(cues.within.length > 0);
}

/** How many of the forms the words ask for the checks use. */
export function cuedUse(checks: readonly Check[], cues: FormCues): number {
  let use = 0;
  if (cues.different && checks.some((c) => c.type === "condition" && /!=\s*event\./.test(c.when))) use++;
  if (cues.latest && checks.some((c) => c.type === "condition")) use++;
  if (cues.within.length > 0 && checks.some((c) => c.type === "pairing" && c.within !== undefined && cues.within.includes(c.within))) use++;
  return use;
}
