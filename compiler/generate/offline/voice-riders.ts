/**
 * A rider that only says a ban for good holds (voice.ts, issue 25): "A clean account check after
 * the bar changes nothing.", "A later check of the permit makes no difference." after "Once a
 * customer is barred, never hire to that customer again". It adds no condition and asks for no
 * act: the ban the sentence before states is already for good, whatever a later look-up shows (the
 * same words inside that sentence are a concession, shape.ts CONCESSION). Read on its own, it named
 * the look-up and became a needless model question, so it is read as part of the sentence before.
 */

/** "a clean account check after the bar", "a later scan of it", "a fresh look-up": a look-up that comes after the ban's event. */
const LATER_LOOKUP =
  /^(?:a|an|any|the)\s+(?:(?:clean|later|new|fresh|good|valid|passing|subsequent|second|further)\s+)+(?:[\w-]+\s+){0,2}?(?:check|look-?up|scan|reading|search|query|result|test)s?\b[^.;:]*?\s+/i;
/** What the rider says of it: nothing changes. */
const CHANGES_NOTHING =
  /(?:changes\s+nothing|makes\s+no\s+difference|(?:does\s+not|doesn't)\s+(?:change|lift|undo|clear)\s+(?:that|this|it|anything|the\s+\w+))\s*[.!]?$/i;
/** The sentence before bans something for good: "never … again", "nothing more/further", "no longer", "once …". */
const FOR_GOOD = /\b(?:again|no\s+(?:more|further|longer)|nothing\s+(?:more|further)|never|once|after)\b/i;

/** Whether this sentence is a rider of the ban for good in the sentence before, read with it. */
export function riderOfBan(sentence: string, previous: string | undefined): boolean {
  return previous !== undefined && FOR_GOOD.test(previous) && LATER_LOOKUP.test(sentence) && CHANGES_NOTHING.test(sentence);
}
