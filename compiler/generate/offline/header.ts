/**
 * A message's header: who wrote and when, as a thread, an e-mail or minutes print it above or before
 * what was said ("**Helen Marsh · Tue 9 Mar, 13:02**", "**From:** … · **To:** …", "Present: …").
 * It is no part of the rule: its date and time are no thresholds, and the words after it open the
 * message's first sentence with the rule's own condition. The sentence splitter (sentences.ts) is the
 * one place that asks, so no header reaches a reader: a header is a sentence of its own, and context
 * (context.ts). This is the one definition of what a header is (issue 25): the voice layer
 * (voice-case.ts, voice-windows.ts, voice-asides.ts) kept three others, each with its own regex, until
 * the splitter did it for them.
 */

const WEEKDAY = String.raw`(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\.?`;
const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
/**
 * A date or a time of day as a header writes it: "Tue 9 Mar", "9 March 2027", "Mar 9", "13:02",
 * "2027-03-09". Only the names of days and months are dates: "Monitor 3" and "Rule 3" are not.
 */
const WHEN = new RegExp(
  String.raw`\b${WEEKDAY}\s+\d{1,2}\b|\b\d{1,2}\s+${MONTH}(?=\s|,|$)|\b${MONTH}\s+\d{1,2}\b|\b\d{1,2}:\d{2}\b|\b\d{4}-\d{2}-\d{2}\b`,
  "i",
);
/** "**From:** …", "Sent: …", "Present: …": a field of an e-mail's or a minute's head, the whole line. */
const FIELD =
  /^\s*(?:\*\*|__)?(?:from|to|cc|bcc|sent|date|subject|re|present|apologies|attendees|in\s+attendance|absent|chair)\s*(?::\s*(?:\*\*|__)?|(?:\*\*|__)\s*:)\s*\S/i;
/** "On Tue 9 Mar, Helen wrote:": a quote's lead-in, the whole line. */
const WROTE = /^on\s.{0,80}\bwrote:$/i;
/** Words a rule is written with: bold words carrying them are the rule, even with a time in them. */
const RULE_WORDS =
  /\b(?:must|never|always|every|each|only|should|shall|may\s+not|cannot|can't|at\s+most|at\s+least|no\s+more\s+than|not|no)\b/i;
/** "**After 17:00**", "**Before 9 March**", "**From 1 April 2027**": a time the rule is about, not when a message was sent. */
const WHEN_OF_RULE = /^(?:after|before|by|from|until|till|since|between|during|within|past|once|if|when|whenever|unless)\b/i;
/** A bold span at the start ("**…**" or "__…__"), and what follows it on the same line. */
const BOLD = /^(?:\*\*|__)([^*_\n]+)(?:\*\*|__)(?=\s|$)/;

/**
 * The message header `text` (a line, or a sentence) opens with, as written, or undefined if it opens
 * with none. A header is
 * - a line that is a field of an e-mail's or a minute's head ("**From:** Helen · **To:** stores ·
 *   **Mon 8 Mar, 08:55**", "Present: …") or a quote's lead-in ("On Tue 9 Mar, Helen wrote:"): the
 *   whole text;
 * - a bold span with a date or a time of day in it ("**Helen Marsh · Tue 9 Mar, 13:02**", "**Jon Pike,
 *   10 March 2027 16:20**", "**Kim Osei · 2027-03-09**"), alone on its line or followed on the same
 *   line by the message's first sentence ("**A. Berg · Tue 9 Mar, 12:48** Once a member is banned, …"):
 *   the bold span. Bold words that end as a sentence does, carry a rule's words ("**Never lift a crate
 *   after 17:00.**"), open with a time the rule is about ("**After 17:00** no crate is lifted") or run
 *   past 14 words are the rule's, not a header; so are a bold label's ("**Note:** …", "**Why:** …",
 *   "**Rule 3** …"), which hold no date.
 */
export function messageHeader(text: string): string | undefined {
  const line = text.trim();
  if (FIELD.test(line) || WROTE.test(line)) return line;
  const bold = BOLD.exec(line);
  if (bold === null) return undefined;
  const words = bold[1]!.trim();
  if (/[.!?]$/.test(words) || RULE_WORDS.test(words) || WHEN_OF_RULE.test(words)) return undefined;
  return WHEN.test(words) && words.split(/\s+/).length <= 14 ? bold[0] : undefined;
}
