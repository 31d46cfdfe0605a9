/**
 * Whether a rule's words name one of the samples' acts by the words of its name (issue 25): "every
 * bottle of donor milk already issued" names `issue_milk`, "a return the counter clerk received"
 * names `receive_return`. The reading from words (synthesize-unlabeled.ts) was tried only on a
 * section that writes a name in backticks, an amount or a name with its underscore; a spec in
 * prose names its acts in its own words, and a rule the phrase readers could not map was left a
 * question the samples never answer (n/a on every one). This test depends on no voice: it asks
 * only that every word of an act's name be among the rule's words, in any order and form.
 */
import type { Lexicon } from "./lexicon.js";
import { canonical, nameStems, stemSet, words } from "./words.js";

/** The acts the samples show (no results: a call names them) the text names by every word of their names, in the lexicon's order. */
export function actsNamed(lexicon: Lexicon, text: string): string[] {
  const said = stemSet(text);
  return lexicon.actions
    .filter((a) => !a.isResult && a.count > 0 && a.stems.length > 0 && a.stems.every((s) => said.has(s)))
    .map((a) => a.name);
}

/**
 * Words about how the agent puts something ("explain what happens next in plain language and with
 * some warmth", "put it to the caller politely"; not what a check "says"): what it says is for the model, however plainly the
 * sentence names the act it speaks after.
 */
export const MANNER =
  /\b(?:explains?|explained|explaining|worded|wording|phrased?|phrasing|describes?|apologi[sz]es?|reassures?|plain\s+(?:language|english|words)|tone|warmth|warmly|polite(?:ly)?|kind(?:ly)?|courteous(?:ly)?|jargon)\b/i;

/**
 * Words a single check over the acts cannot keep: an exception ("except for the mayor"), an act
 * negated inside the sentence ("a cask that has not been filled cannot be sealed", read as a sequence
 * of the two acts, turns into its opposite).
 */
export const UNREADABLE =
  /\b(?:except|unless|other\s+than|save\s+for|apart\s+from|without|nobody|no\s+one)\b|\b(?:has|have|had|is|are|was|were|be|been)\s+not\b|\bnot\s+(?:yet|been)\b|\bn't\s+been\b/i;

/** The acts the rule's words name by their names' words, none where the quote speaks of how the agent puts something or says what one check cannot keep. */
export function actsNamedPlainly(lexicon: Lexicon, text: string, quote: string): string[] {
  return MANNER.test(quote) || UNREADABLE.test(quote) ? [] : actsNamed(lexicon, text);
}

/** Words that say a sequence is what the rule forbids ("is exactly what we are here to prevent", "is a breach"). */
export const PREVENTS = /\b(?:prevents?|prevented|breach(?:es)?|violations?|forbidden|prohibited|not\s+allowed)\b/i;

/**
 * How the words order two acts they name, as a nudge to the reading from words when they name them by
 * their names' words only: "a bike flagged with a fault and hired out before its repair" writes the
 * flag first, so a reading whose earlier event is the hire goes against the words (-0.2); and where
 * the words forbid the sequence, the later act forbidden after the earlier one fits them best (+0.1).
 * `earlier`/`later` are the two events' actions (undefined: a reading of one event, no nudge).
 */
export function sequenceNudge(
  quote: string,
  earlier: readonly string[],
  later: readonly string[],
  forbidsLater: boolean,
  prohibiting: boolean,
): number {
  // A verb again is the verb ("reopened" is an opening, "re-sealed" a sealing): its act's place in the words.
  const tokens = words(quote).map((w) => canonical(w.toLowerCase().replace(/^re-?(?=[a-z]{4})/, "")));
  // Each side by the words of its names the other side does not share ("bike" names every act of a bike dock).
  const own = (xs: readonly string[], ys: readonly string[]) => {
    const theirs = new Set(ys.flatMap(nameStems));
    return new Set(xs.flatMap(nameStems).filter((s) => s !== "result" && !theirs.has(s)));
  };
  const at = (stems: Set<string>) => tokens.findIndex((t) => stems.has(t));
  const [a, b] = [at(own(earlier, later)), at(own(later, earlier))];
  if (a < 0 || b < 0) return 0;
  return (a > b ? -0.2 : 0) + (prohibiting && forbidsLater && a < b ? 0.1 : 0);
}
