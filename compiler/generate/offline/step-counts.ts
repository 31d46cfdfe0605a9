/**
 * Numbers that count steps, not amounts (issue 25). "Ring the vet within 3 steps of the loss",
 * "paged within 2 lines of the reply", "by the 3rd entry after": the number is a pairing's window
 * (synthesize-numbers.ts `writtenWithins` reads it so), never a value of the events' metadata. Read
 * as an amount it grounded `head > 3` on a move of sheep and `step > 2` on a ramp as the words' own
 * thresholds, and took the places of the actions the sentence names among the few matchers a rule
 * is searched with. Here they are blanked before the label path reads a rule's amounts.
 */

/** The nouns a count of steps is written in: a log's steps, events, lines, entries, messages, moves, actions, calls. */
const STEP_NOUN = String.raw`(?:steps?|events?|lines?|entry|entries|messages?|moves?|actions?|calls?)`;
/** A count of steps in digits, an ordinal's suffix allowed ("3 steps", "2 lines", "the 3rd step", "4 more events"). */
const STEP_COUNT = new RegExp(String.raw`\b\d+(?:st|nd|rd|th)?(?=\s+(?:more\s+|further\s+|other\s+)?${STEP_NOUN}\b)`, "gi");

/** The text with every number that counts steps blanked (the rest as written, same length). */
export function withoutStepCounts(text: string): string {
  return text.replace(STEP_COUNT, (m) => " ".repeat(m.length));
}
