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

const UNITS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000, million: 1000000 };

const WORD = `(?:${[...Object.keys(UNITS), ...Object.keys(TENS), ...Object.keys(SCALES)].join("|")})`;
/** A run of number words, joined by hyphens, spaces or "and" between them ("one hundred and twenty"). */
const RUN = new RegExp(`\\b${WORD}(?:(?:-|\\s+(?:and\\s+)?)${WORD})*\\b`, "gi");

/** The value a run of number words says, or undefined when the words make no one number ("five six"). */
export function wordsValue(run: string): number | undefined {
  let total = 0;
  let group = 0;
  let last: "unit" | "tens" | "scale" | undefined;
  for (const word of run
    .toLowerCase()
    .split(/[\s-]+/)
    .filter((w) => w !== "and")) {
    if (word in UNITS) {
      // "five six" is two numbers; "twenty five" one.
      if (last === "unit" || (last === "tens" && UNITS[word]! >= 10)) return undefined;
      group += UNITS[word]!;
      last = "unit";
    } else if (word in TENS) {
      if (last === "unit" || last === "tens") return undefined;
      group += TENS[word]!;
      last = "tens";
    } else {
      const scale = SCALES[word]!;
      if (group === 0) return undefined;
      if (scale === 100) group *= 100;
      else {
        total += group * scale;
        group = 0;
      }
      last = "scale";
    }
  }
  return total + group;
}

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
