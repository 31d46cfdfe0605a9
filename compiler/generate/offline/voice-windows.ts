/**
 * The voices of "after an act over a threshold, another act on the same thing within N steps" (voice.ts, issue 25).
 * The pairing reader (clauses.ts pairingFrom, combined.ts withinOf/withWithin) knows "After each X of more than N, a
 * Y must be V-ed for that same K within N steps of the X", "If X …, …" and "Each X is followed by Y within N steps
 * of …". Written elsewhere, the same rule came in voices it did not read (blind16):
 * - minutes' "Agreed (proposed JV, seconded MK): where a spray carries …, …": the procedure's "where" after a remark
 *   and its colon, in any case ("WHERE A SPRAY …"), which the "where" steps of voice.ts and voice-duties.ts read only
 *   at the sentence's start and in one case each;
 * - a card's "KIT WORTH MORE THAN £500.00 BOOKED BACK IN → DAMAGE CHECK … WITHIN 2 STEPS OF THE RETURN" (the arrow
 *   is "is followed by" by then, voice-forms.ts): the act named by a bare noun and a participle, with no "each".
 * The spans are kept (voice-spans.ts), so quotes stay the spec's words.
 */
import { rewrite } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";

/** Words that make a remark before a colon a rule of its own (as voice-asides.ts reads them): it is then read, not dropped. */
const RULE_WORDS = /\b(?:must|never|not|no|only|shall|may|should|every|each|always|cannot|can't|don't|won't|at\s+most|at\s+least)\b/i;

/** What opens a phrase that is no bare noun: a determiner, a quantifier, a pronoun, or a condition's word. */
const NOT_BARE =
  /^(?:a|an|the|each|every|any|no|all|some|this|that|these|those|its|their|his|her|our|your|it|they|we|you|if|when|whenever|where|after|before|once|unless|until|while|as|only|never|always|nothing|none|nobody)$/i;

/** Steps that run first, before the remark before a colon is read (voice-asides.ts). */
export function windowLeadSteps(): VoiceStep[] {
  return [
    {
      // "Agreed (proposed JV, seconded MK): where a spray carries …, …", "WHERE A SPRAY CARRIES …, …": the procedure's
      // "if", whatever the case, after a remark that says who agreed it (no rule words of its own).
      name: "where after remark",
      apply: (v) =>
        rewrite(v, /^(?:([^:;]{1,120}?):\s+)?where\b(?=[^,;:]+,)/gi, (m) => {
          // A "Where" or "where" that opens the sentence is the other "where" steps' (voice.ts, voice-duties.ts).
          if (m[1] === undefined) return m[0] === "WHERE" ? "If" : undefined;
          return RULE_WORDS.test(m[1]) ? undefined : "If";
        }),
    },
  ];
}

/** Steps that run last, on the window the other steps wrote ("within N steps of …") and the arrow's "is followed by". */
export function windowSteps(): VoiceStep[] {
  return [
    {
      // "KIT WORTH MORE THAN £500.00 BOOKED BACK IN is followed by DAMAGE CHECK … within 2 steps of THE RETURN": a card's
      // act named by a bare noun is each such act, as "Each kit … is followed by …" says.
      name: "bare noun followed",
      apply: (v) =>
        rewrite(v, /^([A-Za-z][\w'-]*)(?=\s(?:[^,;:]|,(?=\d))*?\bis\s+followed\s+by\s+[^;:]*?\bwithin\s+\d+\s+steps\s+of\b)/g, (m) =>
          NOT_BARE.test(m[1]!) ? undefined : `Each ${m[1]!}`,
        ),
    },
  ];
}
