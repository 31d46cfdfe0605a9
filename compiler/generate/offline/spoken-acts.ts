/**
 * What the reading from the words over the samples (synthesize-unlabeled.ts) may take as a rule about
 * the samples' acts, in words no phrase rule knows (issue 25).
 *
 * A section that names its acts only in its own words. The reading was tried only where a section
 * writes a name in backticks, a name with its underscore or an amount, or (named-acts.ts) where it
 * names an act by every word of its name and calls the sequence a breach. A spec that names its
 * tools once, in its introduction ("Texting me is text_owner", "Ringing the vet is `ring_vet`"), and
 * then writes each rule in plain words ("text me at some point afterwards", "ring him about that
 * same sheep") had those rules left to the model, n/a on every sample, and so did a rule that names
 * two acts plainly and asks one after the other ("that same pool is closed within two steps"). Such
 * a section speaks of events when its heading or its words name one of the samples' acts, by every
 * word of the act's name or by a word the spec calls it by (its gloss); one about how the agent puts
 * something ("kindly put", "in plain language") stays the model's, whatever acts it names.
 *
 * A ban in words no prohibition list has. "Is not to be reopened", "puts that kiln out of bounds",
 * "stays off limits" forbid as "must not" does: read without that, the reading from the words took
 * the act after its trigger as required (a pool's reopening required after its closing for a
 * fouling), the opposite of the words.
 */
import type { Lexicon } from "./lexicon.js";
import { MANNER, UNREADABLE } from "./named-acts.js";
import { nameStems, stemSet } from "./words.js";

/** The samples' acts (no results: a call names them) the text names by every word of their names or by their gloss. */
export function actsSpokenOf(lexicon: Lexicon, text: string): string[] {
  const said = stemSet(text);
  return lexicon.actions
    .filter(
      (a) =>
        !a.isResult &&
        a.count > 0 &&
        ((a.stems.length > 0 && a.stems.every((s) => said.has(s))) || (a.gloss ?? []).some((s) => said.has(s))),
    )
    .map((a) => a.name);
}

/**
 * Whether a rule's words speak of the samples' acts (its heading's too), and not of how the agent puts
 * something nor with what one check cannot keep (an exception, an act negated: named-acts.ts). An
 * exception of a value the samples carry is a filter one check keeps.
 */
export function speaksOfActs(lexicon: Lexicon, words: string, quote: string): boolean {
  return (
    ASKS.test(quote) &&
    !MANNER.test(quote) &&
    !UNREADABLE.test(withoutValueExceptions(lexicon, quote)) &&
    actsSpokenOf(lexicon, words).length > 0
  );
}

/** Words that ask something of the acts (a duty, a ban, a time): "It no longer can" after a story asks nothing. */
const ASKS =
  /\b(?:must|shall|should|never|every|each|always|only|within|after|afterwards|before|until|once|then|requires?|needs?|has\s+to|have\s+to|is\s+to|are\s+to|to\s+be|out\s+of\s+bounds|off[\s-]limits)\b|→/i;

/**
 * The quote without its exceptions of a value the samples carry: "every one except stillborn lambs"
 * (a `cause: stillborn`) is a filter one check keeps (`cause: {not: stillborn}`), where "except for
 * the mayor", whom no sample names, is not.
 */
function withoutValueExceptions(lexicon: Lexicon, quote: string): string {
  const values = lexicon.actions.flatMap((a) => a.metadata.flatMap((m) => m.values.map((v) => nameStems(v.value))));
  return quote.replace(/\b(?:except|other\s+than|save\s+for|apart\s+from)\s+(?:for\s+)?((?:[\w'’-]+\s*){1,3})/gi, (all, after: string) => {
    const said = stemSet(after);
    return values.some((v) => v.length > 0 && v.every((s) => said.has(s))) ? "" : all;
  });
}

/**
 * A ban in other words: a passive with "not to be" ("is not to be reopened", "aren't to be
 * lent"), or a thing put or kept out of bounds, off limits or barred ("puts that kiln out of bounds",
 * "the bay stays off-limits").
 */
const WORDED_BAN =
  /\b(?:(?:is|are|was|were)\s+not|isn['’]t|aren['’]t|never)\s+to\s+be\b|\b(?:out\s+of\s+bounds|off[\s-]limits|barred|banned)\b/i;

/** Whether the words forbid in words a prohibition list does not have. */
export function bansInOtherWords(quote: string): boolean {
  return WORDED_BAN.test(quote);
}

/**
 * Which form of two events the words ask, where they name the acts only in passing and the samples
 * bear several out alike (an ordering, a pairing): words that put the later act "afterwards", "then",
 * "within" or "followed by" the earlier ask that it follow (a pairing, a duty after: "if you've had
 * to log a spill, ring him afterwards"); words that put one act "before", "first", "until" or "only
 * once" the other ask for it first (an ordering). Both or neither: no nudge. Smaller than the
 * nudge of the words' order (named-acts.ts sequenceNudge), it only breaks ties.
 */
const FOLLOWS = /\b(?:afterwards|afterward|then|within|followed\s+by|after\s+(?:that|it|you['’]ve|you\s+have|each|every))\b|→/i;
const PRECEDES = /\b(?:before|first|until|till|only\s+(?:once|after|when|if))\b/i;

export function formNudge(type: string, quote: string): number {
  const follows = FOLLOWS.test(quote);
  const precedes = PRECEDES.test(quote);
  if (follows === precedes) return 0;
  if (follows) return type === "pairing" || type === "required" ? 0.05 : 0;
  return type === "ordering" ? 0.05 : 0;
}
