/**
 * The voice layer's third round (voice.ts, issue 25): a regulator's notice ("Licensees must ensure
 * that …"), an onboarding letter ("You'll be expected to …"), a manager's e-mail ("And a discount
 * has to …", "I don't want to see … again: …", "No boat takes more than 600 litres"), a contract
 * schedule ("save where …", "Upon a Lost Key Report …, …", "…, whatever any later lookup may show",
 * "ten (10)"), a runbook's permission ("One sign-off opens one batch"). Each is folded into the
 * voice the readers know before the steps of voice-forms.ts and voice.ts run; each step is a small
 * pattern with the reason for it, and the spans are kept (voice-spans.ts), so quotes stay the spec's words.
 */
import { rewrite, type Voiced } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";

/** Who a regulator's notice or a policy addresses, standing for whoever runs the agent. */
const ADDRESSEES =
  "(?:licensees?|operators?|firms?|registrants?|permit\\s+holders?|providers?|(?:all\\s+)?staff|employees|everyone|we|the\\s+(?:licensee|operator|firm|company|provider|team))";

/** Number words a contract writes with the figure after them: "ten (10)", "four (4)". */
const NUMBER_WORD = "(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|hundred)";

/** Verbs a permission is said to be used up by, besides "covers": "One sign-off opens one batch". */
const SPENT_ON = "(?:opens|unlocks|allows|clears|authori[sz]es|permits|buys|pays\\s+for|counts\\s+for|is\\s+good\\s+for|is\\s+for)";

/** The steps of the round-3 voices, in order. */
export function letterSteps(agent: string): VoiceStep[] {
  const Agent = agent.charAt(0).toUpperCase() + agent.slice(1);
  return [
    {
      // "Licensees must ensure that each …", "Operators shall see to it that …": what is to be ensured is the rule
      // (", and that no authorisation …" a second part of it).
      name: "regulator",
      apply: (v) => {
        const ensured = rewrite(
          v,
          new RegExp(
            `^${ADDRESSEES}\\s+(?:must|shall|should|will|are\\s+required\\s+to|is\\s+required\\s+to)\\s+(?:ensure|make\\s+sure|see\\s+to\\s+it)\\s+that\\s*,?\\s*`,
            "gi",
          ),
          () => "",
        );
        return ensured === v ? v : rewrite(ensured, /,?\s+and\s+that\s+(?=\S)/gi, () => ", and ");
      },
    },
    {
      // "You'll be expected to report it …", "you will be required to …": an onboarding letter's duty is "you must".
      name: "expected to",
      apply: (v) =>
        rewrite(
          v,
          /\b(you)(?:(?:'|\u2019)ll|\s+will)\s+be\s+(?:expected|required|asked)\s+to\s+|\b(you)\s+are\s+(?:expected|required)\s+to\s+/gi,
          (m) => `${m[1] ?? m[2]!} must `,
        ),
    },
    {
      // "And a discount has to be approved …": an e-mail's sentence that goes on from the one before.
      name: "leading and",
      apply: (v) => rewrite(v, /^(?:and|but|also|plus)\s*,?\s+(?=[a-z`"])/gi, () => ""),
    },
    {
      // "I don't want to see a signed agreement left unfiled again: every agreement …": the complaint heads the rule.
      name: "dont want to see",
      apply: (v) =>
        rewrite(v, /^i\s+(?:don't|don\u2019t|do\s+not|never)\s+want\s+to\s+(?:see|hear\s+of)\s+[^:;]+?\s+again\s*:\s*/gi, () => ""),
    },
    {
      // "save where", "except where": a contract's "unless", which the readers know ("must not … unless" is "… only if").
      name: "save where",
      apply: (v) => rewrite(v, /\b(?:save|except)\s+(?:where|when|if|that|in\s+so\s+far\s+as)\b/gi, () => "unless"),
    },
    {
      // "Upon a Lost Key Report for a Key System, …", "On the closing of a batch, …": the contract's "After".
      name: "upon",
      apply: (v) => rewrite(v, /^(?:upon|on)\s+(?=(?:a|an|the|each|every|any)\s+[^,]+,\s)/gi, () => "After "),
    },
    {
      // "…, whatever any later Register Lookup may show", "…, regardless of …": the rule holds in every case; the
      // trailer only says so, and read as a clause it names an act (the look-up) the rule is not about.
      name: "whatever",
      apply: (v) =>
        rewrite(
          v,
          /,\s+(?:whatever|whichever|regardless\s+of|irrespective\s+of|notwithstanding)\s+[^,;:]*\s+(?:may|might|can|could)\s+(?:show|say|read|return)$/gi,
          () => "",
        ),
    },
    {
      // "at least one (1) and at most four (4)", "ten (10)": the figure in brackets says the word again.
      name: "figure in brackets",
      apply: (v) => rewrite(v, new RegExp(`\\b${NUMBER_WORD}\\s+\\((\\d+)\\)`, "gi"), (m) => m[1]!),
    },
    {
      // "No boat takes more than 600 litres from us in a shift", "no requester receives more than 60 g": a bound
      // on each one, as "Each boat takes at most 600 litres" says it (not a ban on every boat).
      name: "no noun more than",
      apply: (v) =>
        rewrite(v, /\b(no)\s+([a-z][\w-]*)\s+((?:[a-z]+s|is|has)\s+)(?:ever\s+)?more\s+than\s+(?=[$€£]?\d)/gi, (m) =>
          /^(?:more|one|longer|matter|doubt|less|fewer)$/i.test(m[2]!)
            ? undefined
            : `${m[1] === "No" ? "Each" : "each"} ${m[2]!} ${m[3]!}at most `,
        ),
    },
    {
      // "No section is opened with open_line before the possession … has been handed back": the ordering, as "A section
      // is opened … only after …" says it (read as a ban, "no section is opened" would forbid every opening).
      name: "no noun before",
      apply: (v) =>
        rewrite(v, /^no\s+([a-z][\w-]*)\s+(is|are)\s+([a-z]+(?:ed|en))\b([^,;:]*?)\s+(?:before|until)\s+(?=\S)/gi, (m) => {
          const noun = m[1]!;
          return `${/^[aeiou]/i.test(noun) ? "An" : "A"} ${noun} ${m[2]!} ${m[3]!}${m[4]!} only after `;
        }),
    },
    {
      // "… only if the possession on that same section has been handed back": an act that must have happened is an
      // ordering, as "only after" says (the "must not … save where" of a contract comes here as "… only if").
      name: "only if done",
      apply: (v) => rewrite(v, /\bonly\s+if\s+(?=[^,;:]*?\b(?:has|have)\s+been\s+[a-z]+(?:ed|en)\b)/gi, () => "only after "),
    },
    {
      // "The Provider shall not open …": the contract's party that acts through the agent is the agent (after a condition,
      // "…, the Provider shall not cut …", the readers already take it as the main clause's subject).
      name: "party",
      apply: (v) =>
        rewrite(
          v,
          /^(?:the\s+)?(?:provider|supplier|contractor|service\s+provider)\b(?=\s+(?:shall|must|may|will|agrees|undertakes|is|has|never|cannot|does)\b)/gi,
          () => Agent,
        ),
    },
    {
      // "Nothing is shredded into a batch after it has been closed", "Don't shred anything into a batch once it is
      // closed": the condition put last, on a pronoun; the readers know it first, the thing named in it ("Once a batch
      // has been closed …, nothing is shredded into that batch").
      name: "condition last",
      apply: (v) =>
        rewrite(
          v,
          /^(.*?\b)(?:a|an|any)\s+([a-z][\w-]*)(\b[^,;:]*?)\s+(once|after|when|as\s+soon\s+as)\s+it\s+((?:has\s+been|is|was)\s+[a-z]+(?:ed|en)\b[^,;:]*)$/gi,
          (m) => {
            const [head, noun, middle, conj, event] = [m[1]!, m[2]!, m[3]!, m[4]!, m[5]!];
            // Not a condition already, nor "may only be lent once it has been inspected" ("may only" reads that whole).
            if (/\b(?:if|when|once|after|before|unless|until|only)\b/i.test(head + middle)) return undefined;
            // The main clause's first word written small once the condition stands before it, unless it is a name.
            const main = /^(?:don't|do|never|no|nothing|the|each|every|always)\b/i.test(head)
              ? head.charAt(0).toLowerCase() + head.slice(1)
              : head;
            return `${conj.charAt(0).toUpperCase()}${conj.slice(1).toLowerCase()} a ${noun} ${event}, ${main}that ${noun}${middle}`;
          },
        ),
    },
    {
      // "One sign-off opens one batch", "one OK is good for one change": a permission used up by one act, as "covers" says.
      name: "one opens one",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(`\\b(one\\s+(?:"[^"]*"|[\\w-]+)(?:\\s+[\\w-]+)?)\\s+${SPENT_ON}\\s+(?=one\\b)`, "gi"),
          (m) => `${m[1]!} covers `,
        ),
    },
  ];
}
