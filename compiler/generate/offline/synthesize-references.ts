/**
 * Numbers that name, not count (issue 25): a clause, a paragraph, a version, a date. The label path
 * takes the numbers a rule's words write as its thresholds, bounds and sums (synthesize-keys.ts
 * `numbersIn`, synthesize-vocab.ts `boundsIn`), and a contract, an order or a release note writes
 * many that are none of these: "Notwithstanding Clause 14.4, no member is assigned more than 10
 * hours", "does not satisfy paragraph 1.1", "4.3: aftercare sheet sign-off", "Dated 19 November
 * 2026". Read as amounts, they grounded `hours < 14.4` and `amount > 4.3` as the words' own, and took
 * places of the few numbers a rule is searched with. Here they are blanked before numbers are read.
 */

/** A month by name, capitalized ("3 may be" is no date). */
const MONTH =
  "(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\\b\\.?";
/** A time of day after a date: ", 12:48", " at 1:02 pm" (optional). */
const TIME = "(?:,?\\s+(?:at\\s+)?\\d{1,2}:\\d{2}(?:\\s?[ap]\\.?m\\.?)?)?";
/** A number as a clause is numbered: "14", "14.2", "4.3", "2(b)". */
const NUMBERING = "\\d+(?:\\.\\d+)*(?:\\s?\\([a-z0-9]{1,3}\\))*";

const REFERENCES: readonly RegExp[] = [
  // "Clause 14.4", "paragraph 1.1", "sections 3 and 4", "Article 14", "§ 2", "versions 4.1 to 4.3", "v4.2";
  // a grant's "Condition 4", a master's "Order 2", a flowchart's "go to step 5", "see Note 3", "Table 1".
  new RegExp(
    `\\b(?:clauses?|paragraphs?|paras?|sections?|articles?|schedules?|chapters?|annex(?:es)?|appendix|versions?|releases?|rules?|items?|conditions?|orders?|steps?|parts?|stages?|notes?|charts?|tables?|figures?|regulations?)\\s+${NUMBERING}(?:\\s*(?:to|and|or|through|-|–)\\s*${NUMBERING})*`,
    "gi",
  ),
  new RegExp(`(?:§§?|¶)\\s*${NUMBERING}`, "g"),
  /\bv\d+(?:\.\d+)+\b/gi,
  // A clause's own number where a heading or a paragraph begins: "4.3: …", "1.1 The Provider …", "2. Release …".
  new RegExp(`(?:^|(?<=\\n)|(?<=[.:]\\s))\\s*${NUMBERING}(?:[.:)]\\s|\\s(?=[A-Z]))`, "g"),
  // Dates: "19 November 2026", "November 19, 2026", "December 2026", "2026-12-07", with the time of day
  // a message's header writes after one ("Tue 9 Mar, 12:48", "March 9 at 1:02 pm"): "12:48" gave `mbq < 48`.
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}(?:,?\\s+\\d{4})?${TIME}`, "g"),
  new RegExp(`\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?\\b${TIME}`, "g"),
  new RegExp(`\\b${MONTH}\\s+\\d{4}\\b`, "g"),
  /\b\d{4}-\d{2}-\d{2}\b/g,
];

/** The text with every number that names a clause, a version or a date blanked (the rest as written, same length). */
export function withoutReferences(text: string): string {
  let out = text;
  for (const pattern of REFERENCES) out = out.replace(pattern, (m) => m.replace(/\d/g, " "));
  return out;
}
