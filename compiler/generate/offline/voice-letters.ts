/**
 * The voice layer's third round (voice.ts, issue 25): a regulator's notice ("Licensees must ensure
 * that …"), an onboarding letter ("You'll be expected to …"), a manager's e-mail ("And a discount
 * has to …", "I don't want to see … again: …"), a contract
 * schedule ("save where …", "Upon a Lost Key Report …, …", "…, whatever any later lookup may show",
 * "ten (10)"), a runbook's permission ("One sign-off opens one batch"). Each is folded into the
 * voice the readers know before the steps of voice-forms.ts and voice.ts run; each step is a small
 * pattern with the reason for it, and the spans are kept (voice-spans.ts), so quotes stay the spec's words.
 *
 * A form a class reader reads as written is left to it. "No boat takes more than 600 litres" is the
 * count and sum readers' own (counts.ts, a subject of "no" forbids what it takes); rewritten here as
 * "Each boat takes at most …" it also reached the reader of duties, and "no household gets more than
 * $100.00 in waivers from us, all its adoptions counted together" became a required adoption of a fee
 * of at most $100 (blind13's adoption-desk, 51 → 45 of 60 verdicts when the two rounds were merged).
 */
import { rewrite, type Voiced } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";
import { participle, thirdPerson } from "./voice-words.js";

/** Who a regulator's notice or a policy addresses, standing for whoever runs the agent. */
const ADDRESSEES =
  "(?:licensees?|operators?|firms?|registrants?|permit\\s+holders?|providers?|(?:all\\s+)?staff|employees|everyone|we|the\\s+(?:licensee|operator|firm|company|provider|team))";

/** Number words a contract writes with the figure after them: "ten (10)", "four (4)". */
const NUMBER_WORD =
  "(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)";
/** "fifty-five", "four hundred", "two thousand five hundred", "one hundred and twenty": a number said in words. */
const NUMBER_WORDS = `${NUMBER_WORD}(?:(?:-|\\s+(?:and\\s+)?)${NUMBER_WORD})*`;

/** Verbs a permission is said to be used up by, besides "covers": "One sign-off opens one batch". */
const SPENT_ON = "(?:opens|unlocks|allows|clears|authori[sz]es|permits|buys|pays\\s+for|counts\\s+for|is\\s+good\\s+for|is\\s+for)";

/** The steps of the round-3 voices, in order. */
export function letterSteps(agent: string, knows: (verb: string) => boolean): VoiceStep[] {
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
      // "You'll hear from us about …", "we'll let you know …": a promise to the person is the agent telling them, the
      // words the reader of duties knows ("notifies" names a `notify_…` act).
      name: "hear from us",
      apply: (v) =>
        rewrite(
          v,
          /\byou(?:(?:'|\u2019)ll|\s+will|\s+are\s+going\s+to)\s+(?:always\s+)?hear\s+(?:back\s+)?from\s+us\b|\bwe(?:(?:'|\u2019)ll|\s+will)\s+(?:always\s+)?let\s+you\s+know\b/gi,
          (m) => `${m.index === 0 ? Agent : agent} notifies them`,
        ),
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
      // "The Respondent's agents shall not …", "the Licensee's staff must …": a court order or licence binds the people of a
      // party who use the agent; what they are bound to do is what the agent does.
      name: "party's agents",
      apply: (v) =>
        rewrite(
          v,
          // With "the", any case: a notice in capitals, read in ordinary case (voice-case.ts), says "the respondent's agents".
          /\b(?:[Tt]he\s+[A-Za-z][\w-]*|[A-Z][\w-]*)(?:'|\u2019)s\s+(?:agents|staff|employees|officers)\s+(?=(?:shall|must|may|will)\b)/g,
          (m) => `${m.index === 0 ? Agent : agent} `,
        ),
    },
    {
      // "the assistant now refuses to start a session … unless …": a release note's ban with its exception, which the
      // readers know as "never starts … unless" (and so "starts … only if"). Only before "unless": "refuses to X" alone
      // may be a refusal the agent says to the user.
      name: "refuses unless",
      apply: (v) =>
        rewrite(v, /\b(?:now\s+)?(?:refuses|declines)\s+to\s+([a-z]+)\b(?=[^,;:]*\s+unless\s)/gi, (m) => `never ${thirdPerson(m[1]!)}`),
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
      // "at least one (1) and at most four (4)", "ten (10)", "fifty-five (55)", "four hundred (400)": the figure in brackets
      // says the words again.
      name: "figure in brackets",
      apply: (v) => rewrite(v, new RegExp(`\\b${NUMBER_WORDS}\\s+\\((\\d[\\d,]*)\\)`, "gi"), (m) => m[1]!),
    },
    {
      // "The total … shall not exceed 10": a bound, as "must be at most 10" says it (the sum reader knows "at most"); "shall
      // not cumulatively exceed", "shall not in aggregate exceed": the adverb says it is a total, and stays.
      name: "not exceed",
      apply: (v) =>
        rewrite(
          v,
          /\b(must|may|shall|should|can|will)\s+not\s+(?:(cumulatively|collectively|together|in\s+(?:the\s+)?aggregate|in\s+total)\s+)?exceed\s+(?=[$€£]?\d)/gi,
          (m) => `${m[1]!} be ${m[2] === undefined ? "" : `${m[2]} `}at most `,
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
      // "Keep each batch to 25 kg of media at most: add up `weight_kg` …" (a runbook), "Max 60 g per requester, all of
      // their withdrawals added up" (a slide): a bound on each one, as "Each batch gets at most 25 kg …" says it, a
      // total where the sentence adds up ("in total", the word the sum reader knows).
      name: "keep each to",
      apply: (v) => {
        const total =
          /\b(?:add(?:ed)?\s+up|adds\s+up|in\s+total|summed|combined|all\s+together|altogether)\b/i.test(v.text) &&
          !/\bin\s+total\b/i.test(v.text);
        const bound = (noun: string, amount: string) => `Each ${noun} gets at most ${amount}${total ? " in total" : ""}`;
        const kept = rewrite(
          v,
          /^keep\s+(?:each|every|any|a)\s+([\w-]+)\s+(?:to|at|under)\s+(?:(?:at\s+most|no\s+more\s+than)\s+)?([$€£]?\d[\d.,]*\s*[^\s:;,]*(?:\s+of\s+[a-z]+)?)(?:\s+(?:at\s+most|max(?:imum)?|or\s+(?:less|fewer|under)))?(?=\s*[:;,.]|$)/gi,
          (m) => bound(m[1]!, m[2]!),
        );
        return rewrite(kept, /^max(?:imum)?\.?\s+([$€£]?\d[\d.,]*\s*[a-z%]*)\s+(?:per|for\s+(?:each|every|any\s+one))\s+([\w-]+)/gi, (m) =>
          bound(m[2]!, m[1]!.trim()),
        );
      },
    },
    {
      // "Every lift: the latest verify_card result … shows …": a slide's heading before its point, as "For every lift, …" says it.
      name: "slide heading",
      apply: (v) =>
        rewrite(v, /^(every|each)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s*:\s+(?=\S)/gi, (m) => `For ${m[1]!.toLowerCase()} ${m[2]!}, `),
    },
    {
      // "Tapes never go through this shredder", "goes through the scanner": the tool's noun for its act, when the agent's
      // actions are called by its verb ("are never shredded", "is scanned").
      name: "go through",
      apply: (v) =>
        rewrite(
          v,
          /\b(never\s+|always\s+)?(?:go|goes|went|are\s+put|is\s+put)\s+through\s+(?:the|this|that|a)\s+([a-z]+?)(?:(?<=([bdgmnpt]))\3)?er\b/gi,
          (m, text) => {
            const verb = [m[2]!, `${m[2]!}e`].find((w) => knows(w));
            if (verb === undefined) return undefined;
            const be = /\bgoes\b|\bis\s+put\b/i.test(m[0]) ? "is" : "are";
            return `${be} ${(m[1] ?? "").trim() === "" ? "" : `${m[1]!.trim().toLowerCase()} `}${participle(verb)}`;
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

/** The steps that read what the steps of voice-forms.ts and voice.ts wrote ("… only if" from "must not … unless"). */
export function doneSteps(): VoiceStep[] {
  return [
    {
      // "… only if the possession on that same section has been handed back": an act that must have happened is an
      // ordering, as "only after" says (after the steps of voice-forms.ts, which read a contract's "must not … save where" as "… only if").
      name: "only if done",
      apply: (v) => rewrite(v, /\bonly\s+if\s+(?=[^,;:]*?\b(?:has|have)\s+been\s+[a-z]+(?:ed|en)\b)/gi, () => "only after "),
    },
  ];
}
