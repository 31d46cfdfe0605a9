/**
 * "Someone other than the one who did an earlier act" in the voices other-than.ts was not written
 * against (issue 25): a laminated card's arrow ("DAMAGE CHECK → BY STAFF OTHER THAN THE ONE WHO
 * BOOKED THAT SAME ITEM BACK IN"), and the sentence that goes with the rule, that the act needs the
 * earlier one at all, in a relative clause of its own ("an order that nobody has prepared is not
 * issued at all", "NO DAMAGE CHECK ON KIT NOT BOOKED BACK IN FIRST"). These steps run first of the
 * voice layer's (voice.ts), before the arrow is read as "is followed by" and "nobody" as a ban on the
 * agent; the spans are kept (voice-spans.ts), so quotes stay the spec's words.
 */
import { rewrite } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";

/** What says the act's person is someone else: "other than", "≠", "different from", "besides". */
const OTHER = String.raw`(?:other\s+than|≠|!=|different\s+(?:from|than|to)|besides|apart\s+from|not\s+the\s+(?:same\s+)?(?:one|person)\b)`;

/** A past participle, regular or one of the irregular ones rules use. */
const DONE = String.raw`(?:[a-z]+(?:ed|en)|done|made|paid|sent|kept|held|put|set|sold|bought|shown|told|run|built|brought|taken|given|read|cut|fit|seen)`;

export function otherSteps(): VoiceStep[] {
  return [
    {
      // "DAMAGE CHECK → BY STAFF OTHER THAN …", "Tank check: by crew other than …": a card's act, then who does it. The act is
      // done by that person, as "a damage check must be done by staff other than …" says (not "is followed by").
      name: "card by other",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(
            String.raw`^((?!(?:if|when|whenever|once|after|before)\b)[^:;→]+?)\s*(?:→|->|=>|:|—|–)\s*(?=by\s+[^.;]*?\s${OTHER})`,
            "gi",
          ),
          (m) => `${m[1]!} must be done `,
        ),
    },
    {
      // "an order that nobody has prepared", "a tank that no one has ever mixed", "a tank that has never been mixed": what
      // has not been done to it, in one voice ("that has not been prepared"); "nobody" is no ban on the agent here.
      name: "that nobody has",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(
            String.raw`\b(that|which)\s+(?:(?:nobody|no\s+one|no-one)\s+(?:has|have|had)\s+(?:yet\s+|ever\s+)?|(?:has|have|had)\s+(?:never|not\s+yet|yet\s+to)\s+been\s+)(?=${DONE}\b)`,
            "gi",
          ),
          (m) => `${m[1]!} has not been `,
        ),
    },
    {
      // "NO DAMAGE CHECK ON KIT NOT BOOKED BACK IN FIRST", "no verification of a tank not mixed beforehand": the thing the act
      // is on, with what has not been done to it first, said as a relative clause ("on kit that has not been booked back in").
      name: "not done first",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(
            String.raw`^(no\s+[^,;:]+?\s(?:on|of|for|to)\s+(?:(?:a|an|any|the)\s+)?[a-z-]+)\s+not\s+(?:yet\s+)?(${DONE}\b[^,;:]*?)\s+(?:first|beforehand|before(?:\s+that|\s+it)?|already)$`,
            "gi",
          ),
          (m) => `${m[1]!} that has not been ${m[2]!}`,
        ),
    },
  ];
}
