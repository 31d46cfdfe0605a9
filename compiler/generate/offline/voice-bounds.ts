/**
 * The voice layer's words around a bound (voice.ts, issue 25): a contract's lead-in on how a clause
 * stands to the others ("Notwithstanding Clause 14.4, …", "Subject to paragraph 2, …"), and a bound
 * on one act said through the act's unit ("any single period of overtime of more than four (4)
 * hours", "no single transfer of over $10,000"). Each is folded into the voice the readers know, so
 * the count, sum and ban readers see the bound and the act it is on; the spans are kept
 * (voice-spans.ts), so quotes stay the spec's words.
 */
import { rewrite } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";

/** The parts of a document another clause is: "Clause 14.4", "paragraph 2(b)", "Schedule B", "the foregoing", "this Order". */
const DOCUMENT_PART =
  "(?:(?:sub-?)?(?:clauses?|sections?|paragraphs?|articles?|schedules?|annex(?:es)?|appendix|appendices)\\s+(?:[\\d(]|[a-z]\\b|[ivx]+\\b)|(?:the|this|that)\\s+(?:foregoing|above|following|preceding|provisions?|terms|remainder|rest)\\b|this\\s+(?:agreement|article|order|clause|schedule|policy|contract|licen[cs]e|notice|deed|section|part)\\b)";

/**
 * A lead-in on how a clause stands to the others: "Notwithstanding …", "Without prejudice to …",
 * "Except as provided in …", and "Subject to …" before a part of the document only ("Subject to a
 * manager's approval, …" is a condition of the rule).
 */
const LEAD_IN = `notwithstanding\\s|without\\s+prejudice\\s+to\\s|subject\\s+to\\s+(?=${DOCUMENT_PART})|(?:save|except)\\s+as\\s+(?:otherwise\\s+)?(?:provided|set\\s+out|stated|permitted|specified)\\s+(?:in|by|under)\\s`;

/** The lead-in's list goes on after a comma: "Notwithstanding Clauses 14.3, 14.4 and 14.5, …". */
const LIST_GOES_ON = "[\\d(]|(?:sub-?)?(?:clauses?|sections?|paragraphs?|articles?)\\b|(?:and|or)\\s+[\\d(]";

/** The words of a threshold on an amount, up to its figure: "of more than 4", "over $10,000", "exceeding 40". */
const THRESHOLD =
  "(?:of\\s+|for\\s+|worth\\s+)?(?:(?:more|greater|higher|longer|larger)\\s+than|over|above|exceeding|in\\s+excess\\s+of)\\s+[$€£]?\\d";

/** Nouns of a share of something uncountable: "a period of overtime" is overtime, "an amount of cash" cash. */
const SHARE = "(?:period|spell|stretch|block|amount|quantity|portion|volume)";

/** The steps, before those of voice-letters.ts (the lead-in first of all, once the clause number is gone). */
export function leadInSteps(): VoiceStep[] {
  return [
    {
      // "Notwithstanding Clause 14.4, no member …", "Without prejudice to paragraph 2, …", "Except as provided in Schedule B,
      // …": a contract's word on how the clause stands to others is no part of its rule, and read as a clause it names a
      // clause number as an amount.
      name: "lead-in",
      apply: (v) =>
        rewrite(v, new RegExp(`^(?:${LEAD_IN})(?:[^,;:]|,\\s+(?=${LIST_GOES_ON}))+,\\s+([A-Za-z"\`])`, "gi"), (m) => m[1]!.toUpperCase()),
    },
  ];
}

/** The steps after those of voice-letters.ts ("four (4)" is 4 by then). */
export function boundSteps(): VoiceStep[] {
  return [
    {
      // "shall not book any single period of overtime of more than 4 hours", "no single transfer of over $10,000": one
      // act's own amount, as "any transfer of over $10,000" says (the readers know "any X of more than N" as a bound on
      // each X). Only before a threshold: "for a single customer" groups a count (keys.ts).
      name: "any single",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(`\\b(any|a|an|each|every|no|one)\\s+single\\s+(?=(?:[\\w-]+\\s+){1,4}?${THRESHOLD})`, "gi"),
          (m) => `${/^(?:a|an|one)$/i.test(m[1]!) ? "any" : m[1]!} `,
        ),
    },
    {
      // "any period of overtime of more than 4 hours": the share names no act; what it is of does ("book overtime").
      name: "share of",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(`\\b(any|a|an|each|every|no)\\s+${SHARE}\\s+of\\s+(?=[a-z][\\w-]*\\s+(?:[\\w-]+\\s+){0,2}?${THRESHOLD})`, "gi"),
          (m) => `${/^(?:a|an)$/i.test(m[1]!) ? "any" : m[1]!} `,
        ),
    },
  ];
}
