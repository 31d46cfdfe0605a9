/**
 * A quick-reference card's symbols read as the words they stand for (issue 25). A laminated card at
 * a till writes "HIRE OUT → ONLY IF … ID VERIFIED = YES", "MAX £1,500.00 OF KIT PER CUSTOMER PER
 * VISIT", "£1,500.00 ON THE DOT → OK", "\"OK\" ≠ DEMO DONE"; prose says "when", "is", "is not", "at
 * most", "exactly". These steps run first of the voice layer's (voice.ts), after its case fold
 * (voice-case.ts), so every later step and reader sees the words. Spans are kept (voice-spans.ts).
 *
 * An arrow between a situation and an order ("BARRED → NEVER HIRE TO THAT CUSTOMER AGAIN", "BEFORE
 * EACH HIRE → CUSTOMER TYPES …") is "when X, Y" / "X, Y"; an arrow between two acts ("Every
 * release_record → log_disclosure") is left to the checklist's reading (voice-forms.ts: each X is
 * followed by Y).
 */
import { rewrite } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";

const ARROW = String.raw`\s*(?:→|->|=>)\s*`;
/** What opens an order after an arrow: a restriction, a ban, a duty. */
const ORDER = String.raw`(?:never|no|not|must|always|nothing|none)\b`;
/** What opens a situation that is already a condition ("before each hire", "once barred"). */
const CONDITION = String.raw`(?:before|after|once|until|whenever|when|if|unless|while)\b`;

export function cardSteps(): VoiceStep[] {
  return [
    {
      // "MAX £1,500.00 OF KIT PER CUSTOMER": a bound on a sum of money written as a card writes it ("Max 60
      // miles per bus" is read by the letters' step already, voice-letters.ts).
      name: "max min",
      apply: (v) =>
        rewrite(v, /\b(max(?:imum)?|min(?:imum)?)\.?(?=\s+[£$€]\d)/gi, (m) => {
          const words = /^max/i.test(m[1]!) ? "at most" : "at least";
          return /^[A-Z]/.test(m[1]!) && m.index === 0 ? words.charAt(0).toUpperCase() + words.slice(1) : words;
        }),
    },
    {
      // "£1,500.00 ON THE DOT → OK": a figure hit exactly.
      name: "on the dot",
      apply: (v) => rewrite(v, /\s+on\s+the\s+dot\b/gi, () => " exactly"),
    },
    {
      // "CHECK OF A MATE ≠ CHECK OF THE CUSTOMER", "\"OK\" ≠ DEMO DONE": is not.
      name: "not equal",
      apply: (v) => rewrite(v, /\s*(?:≠|!=|=\/=)\s*/g, () => " is not "),
    },
    {
      // "ID VERIFIED = YES", "powered = NO": a field and its value, "is". Only between words (not in
      // "a=b" code, which would be in backticks anyway).
      name: "equals",
      apply: (v) => rewrite(v, /(?<=[\w)"'%£$])\s+=\s+(?=[\w"'£$`(])/g, () => " is "),
    },
    {
      // "BEFORE EACH HIRE OF POWERED KIT → CUSTOMER TYPES …": a condition, then what it asks.
      name: "condition arrow",
      apply: (v) =>
        rewrite(v, new RegExp(String.raw`^((?:[*_"(]*)${CONDITION}(?:[^→;:]|->|=>)*?)${ARROW}(?=\S)`, "gi"), (m) =>
          /->|=>/.test(m[1]!) ? undefined : `${m[1]!}, `,
        ),
    },
    {
      // "HIRE OUT → ONLY IF …": the act, only if (as "Hire out only if …" says it).
      name: "only arrow",
      apply: (v) => rewrite(v, new RegExp(String.raw`^([^→;:]+?)${ARROW}(?=only\b)`, "gi"), (m) => `${m[1]!} `),
    },
    {
      // "BARRED → NEVER HIRE TO THAT CUSTOMER AGAIN", "£500.00 OR UNDER → NO DAMAGE CHECK": when the situation holds, the order.
      name: "order arrow",
      apply: (v) =>
        rewrite(v, new RegExp(String.raw`^([^→;:]+?)${ARROW}(?=${ORDER})`, "gi"), (m) =>
          new RegExp(`^${CONDITION}`, "i").test(m[1]!.trim()) ? `${m[1]!}, ` : `When ${lowerFirst(m[1]!)}, `,
        ),
    },
  ];
}

/** "Barred" → "barred" after "When": a capital only because it opened the line. */
function lowerFirst(words: string): string {
  return /^[A-Z][a-z]/.test(words) ? words.charAt(0).toLowerCase() + words.slice(1) : words;
}
