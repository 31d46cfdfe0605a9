/**
 * An amount written out in words with its figure after it (voice.ts, issue 25): a grant agreement's,
 * a lease's or a court order's "seven thousand five hundred pounds (£7,500.00)", "two hundred and fifty
 * dollars ($250)", "fifteen kilograms (15 kg)". The figure says the words again, with its currency or
 * unit; voice-letters.ts reads a bare "ten (10)", but with the unit's word between the number words and
 * the brackets the count reader took "seven" for a count of payments (at most 7 payments, not £7,500.00
 * in total). The words go and the figure stays, so the bound readers see the amount they know. Spans
 * are kept (voice-spans.ts): a quote is still the spec's words.
 */
import { rewrite } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";
import { NUMBER_WORD } from "./number-words.js";

/** "seven thousand five hundred", "two hundred and fifty", "fifty-five". */
const NUMBER_WORDS = `${NUMBER_WORD}(?:(?:-|\\s+(?:and\\s+)?)${NUMBER_WORD})*`;
/** "£7,500.00", "$ 250", "€1.200", "15 kg", "40 %": a figure with its currency or unit. */
const FIGURE = "(?:[£$€¥]\\s?\\d[\\d,.]*|\\d[\\d,]*(?:\\.\\d+)?\\s?(?:%|[A-Za-z]{1,12}))";

/** "pounds", "US dollars", "kilograms": the unit's words between the number's and the figure (not "of them", "per day"). */
const UNIT_WORD = "(?!(?:of|the|a|an|and|or|to|per|in|on|at|by|for|with|each|every)\\b)[A-Za-z]+";

export function figureSteps(): VoiceStep[] {
  return [
    {
      // "seven thousand five hundred pounds (£7,500.00)", "fifteen kilograms (15 kg)": the figure, with its unit, stands alone.
      name: "amount in words",
      apply: (v) => rewrite(v, new RegExp(`\\b${NUMBER_WORDS}(?:\\s+${UNIT_WORD}){0,2}?\\s+\\((${FIGURE})\\)`, "gi"), (m) => m[1]!),
    },
  ];
}
