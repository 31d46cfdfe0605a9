/**
 * A heading's own label, as a deck, a ticket or a procedure numbers its rules (issue 25): "Slide 5 ·
 * Fouling: close it", "AC-2: PIN goes out with the assignment", "Step 3 · Probe it twice", "Card 3
 * of 5: Lifts", "Order 1 — Weather". The voice layer drops a clause number before a capital ("3.2
 * The clerk", "Section 12: Refunds"), but a label word of any other name ("Slide", "AC", "Card",
 * "Condition") stayed, and its number was read as one the rule states: with no labels "AC-2" put
 * `door_cm > 2` on the assignment and "Slide 5" `litres > 5` on a dose, and the reading from the
 * words kept that instead of the acts the rule names. A number that labels the heading is followed
 * by the label's separator (":", "·", "—", "|", ")" or a spaced dash), and the rule's words come
 * after it; a bound in a heading is written with its noun ("Three suppliers, tops", "Max 3 lifts")
 * and keeps it. Used by the reading with no labels (synthesize-unlabeled.ts); the search from labels
 * lets the labels reject such a number.
 */

/** Words that make the number after them a bound, not a label ("Max 3: …", "Up to 4 — …"). */
const BOUND_WORDS = /^(?:max(?:imum)?|min(?:imum)?|limit|cap|tops?|under|over|above|below|at\s+most|at\s+least|up\s+to|no\s+more\s+than)$/i;

/**
 * The label at the start of a heading: a word or a short code (letters, with a dash or not:
 * "AC-2", "R4", "Slide 5"), a number with its sub-numbers ("6.5", "2b", "3 of 5"), and then the
 * separator before the rule's own words.
 */
const LABEL = /^\s*(?:([A-Za-z][A-Za-z ]{0,18}?)[\s-]?)?\d+(?:[.-]\d+)*[a-z]?(?:\s+of\s+\d+)?\s*(?:[:·•|)—–]|\s-\s|\.\s)\s*(?=\S)/u;

/** The heading without its label, or as written when it has none (or the number is a bound). */
export function withoutHeadingLabel(heading: string): string {
  const m = LABEL.exec(heading);
  if (m === null) return heading;
  if (m[1] !== undefined && BOUND_WORDS.test(m[1].trim())) return heading;
  return heading.slice(m[0].length);
}
