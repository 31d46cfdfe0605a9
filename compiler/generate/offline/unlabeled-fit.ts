/**
 * What a reading from the words alone may not lean on (issue 25). With labels, the search ranks its
 * candidates by the words and lets the labels choose; with none (synthesize-unlabeled.ts), the words'
 * ranking chooses alone, and it adds up the matchers' shares of the words: two matchers that share
 * the most words win, whatever they say. Two kinds of them win that way and say nothing a rule can
 * mean, on any voice's words, because they are about the samples' vocabulary, not the wording:
 *
 * - two events of one tool: a call and its own result ("no `scan_box` after a `scan_box_result`",
 *   "a `check_permit_result` granted after a `check_permit`"), or one act twice told apart by values
 *   the words name as examples ("a ramp in prod after a ramp in staging"). Both share every word of
 *   the tool's name, so they outrank any pair of two acts the words name once each; the tool answers
 *   every call, and an example's value is no second act. A comparison of two events of one act
 *   ("a second check, by someone else") is a condition with a cross test, and stays.
 * - a value the words do not name, on a matcher: no label says the rule is about that value, and
 *   every value of every key crowds the few matchers tried (a depot's four destinations pushed the
 *   release the words name out of them). And a value is named by every word of its own, not by one
 *   ("security training" does not name a `SecurityAdmin` role; "Top Allotment" is not named by
 *   "Low Allotment").
 */
import type { Matcher } from "../../ir/types.js";
import { valueTest } from "../../ir/values.js";
import { actionsOf } from "./synthesize-forms.js";
import { usedMatchers, type Candidate } from "./synthesize-eval.js";
import { nameStems } from "./words.js";

/** The tool an action belongs to: a result's is its call's. */
const toolOf = (action: string) => action.replace(/_result$/, "");

/**
 * Whether a reading of two events has one tool on both sides (its call and result, or the act twice
 * by values): counts and conditions are left alone, a condition being how two events of one act compare.
 */
export function oneToolTwice(c: Candidate, matchers: readonly Matcher[]): boolean {
  if (c.type === "count" || c.type === "condition") return false;
  const used = usedMatchers(c);
  if (used.length < 2) return false;
  // A comparison of an amount narrows the event to what the words state of it ("purchases exceeding
  // $500"), whichever event the check pairs it with: such a reading stays (without it, two dev rules
  // with amounts fell to a reading one verdict worse).
  if (used.some((m) => Object.values(matchers[m]!.metadata ?? {}).some((v) => valueTest(v).op === "range"))) return false;
  const [a, b] = used.map((m) => new Set(actionsOf(matchers[m]!).map(toolOf)));
  return [...a!].some((t) => b!.has(t));
}

/** Whether the words name a key's value by every word of it that the key's own name lacks. */
export function namesEveryWord(words: ReadonlySet<string>, key: string, value: string): boolean {
  const keyStems = nameStems(key);
  const own = nameStems(value).filter((s) => !keyStems.includes(s));
  return own.length > 0 && own.every((s) => words.has(s));
}
