/**
 * The voice layer's contrasts (voice.ts, issue 25, round 13): "…, tag value, not hire price", "the
 * figure is 370 MBq, not 37, and it is per permit, not per researcher". A writer sets what a rule
 * measures or groups by against what it does not; the "not" of the contrast negates no act, but the
 * readers took it for the rule's own: a bound on a total with ", not hire price" after it was read
 * as a qualifier ("… does not count") and dropped. The contrast is left out of the reading; the
 * spans are kept (voice-spans.ts), so quotes stay the spec's words. Only a sentence with a figure in it, a bound's.
 */
import { rewrite } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";

/**
 * The first words of a "not" that is no contrast of a thing: a bound ("…, not more than 10 a week", "not later than"), a
 * time ("not before", "not until"), a restriction ("not only", "not even", "not to exceed"), a quantifier ("not every").
 */
const NOT_A_THING =
  /^(?:more|less|fewer|over|under|above|below|beyond|exceeding|later|earlier|sooner|before|after|until|unless|while|only|just|even|ever|again|always|yet|so|to|too|all|any|every|each|both|either|neither|including|counting|because|if|when|once|twice|by|at|in|on)$/i;

/** The words an act's object opens with. */
const OBJECT = /^(?:the|a|an|it|them|that|this|these|those|any|its|their|his|her|one|`)/i;

/** ", not hire price", ", not 37", ", not per researcher": a comma, "not", then one to four words up to a stop, a dash or a comma. */
const CONTRAST = /,\s+not\s+((?:[$€£]?[\w'.-]*\w)(?:\s+[$€£]?[\w'.-]*\w){0,3}?)(?=\s*(?:[,;:.)]|\s[—–-]\s|$))/gi;

/** The steps, before the voices of duties and bans read the sentence's "not". */
export function contrastSteps(knows: (verb: string) => boolean): VoiceStep[] {
  return [
    {
      // "…, tag value, not hire price": the thing measured, set against another; "…, not refund it" (an act) stays.
      name: "contrast",
      apply: (v) =>
        // Only in a sentence with a figure: "… is general information, not individual tax advice" says what an answer
        // tells, and its words are read as written.
        !/\d/.test(v.text)
          ? v
          : rewrite(v, CONTRAST, (m) => {
              const [first, next] = m[1]!.split(/\s+/);
              if (NOT_A_THING.test(first!.replace(/^[$€£]/, ""))) return undefined;
              // An act's verb alone or before its object ("not refund", "not refund it"); "hire price" is a thing.
              if (knows(first!) && (next === undefined || OBJECT.test(next))) return undefined;
              return "";
            }),
    },
  ];
}
