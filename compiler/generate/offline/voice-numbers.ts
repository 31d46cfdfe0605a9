/**
 * Numbers said in words above twelve: "six thousand metres", "two hundred and fifty kilos", "forty-five
 * minutes". Standing orders, minutes and letters spell their figures out; the readers of amounts and
 * bounds read digits, and the count readers know the words up to twelve only (words.ts), so a larger
 * number in words was read as no number at all, or as the "six" of "six thousand". Rewritten here as
 * digits, with the spans kept (voice-spans.ts), so the quotes stay the spec's words. Twelve and below
 * are left to the readers that already know them ("more than three refunds", "within two steps").
 */
import { rewrite, type Voiced } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";
import { NUMBER_WORD, wordsValue } from "./number-words.js";

/** A run of number words, joined by hyphens, spaces or "and" between them ("one hundred and twenty"). */
const RUN = new RegExp(`\\b${NUMBER_WORD}(?:(?:-|\\s+(?:and\\s+)?)${NUMBER_WORD})*\\b`, "gi");

/** The step: each number in words above twelve as its digits ("six thousand" → "6000"). */
export function numberSteps(): VoiceStep[] {
  return [
    {
      name: "number in words",
      apply: (v: Voiced) =>
        rewrite(v, RUN, (m, text) => {
          // "two thousand (2,000)": a contract writes the digits itself, and its own step reads them (voice-letters.ts).
          if (/^\s*\(\s*\d/.test(text.slice(m.index + m[0].length))) return undefined;
          const value = wordsValue(m[0]);
          return value === undefined || value <= 12 ? undefined : String(value);
        }),
    },
  ];
}
