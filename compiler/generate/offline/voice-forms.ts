/**
 * The voice layer's second round (voice.ts, issue 25): the voices of checklists, FAQs, narratives,
 * managers' e-mails, Do/Don't lists, If/then lines, contract clauses and runbooks, each folded into
 * the voice the class readers know before the steps of voice.ts run. Each step is a small pattern
 * with the reason for it; the spans are kept (voice-spans.ts), so quotes stay the spec's words.
 */
import { escapeRegExp, PARTICIPLE } from "./shape.js";
import { rewrite, type Voiced } from "./voice-spans.js";
import { imperativeVerb, participle, thirdPerson } from "./voice-words.js";

export interface VoiceStep {
  name: string;
  apply: (v: Voiced) => Voiced;
}

/** "doesn't" → "does not": the readers' negations and "does not carry over" are written in full. */
const CONTRACTIONS: Record<string, string> = {
  "don't": "do not",
  "doesn't": "does not",
  "didn't": "did not",
  "isn't": "is not",
  "aren't": "are not",
  "wasn't": "was not",
  "weren't": "were not",
  "can't": "cannot",
  "won't": "will not",
  "shouldn't": "should not",
  "mustn't": "must not",
  "hasn't": "has not",
  "haven't": "have not",
};

/** When a manager's e-mail says a rule starts: "Starting Monday,", "From now on,", "Effective immediately,". */
const DAY = "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
const LEAD_IN = new RegExp(
  `^(?:(?:starting|beginning|effective|as\\s+of|from)\\s+(?:now(?:\\s+on)?|today|tonight|tomorrow|immediately|(?:(?:this|next)\\s+)?(?:${DAY}|week|month|shift)|(?:the\\s+)?\\d{1,2}(?:st|nd|rd|th)?(?:\\s+of)?\\s+[a-z]+|[a-z]+\\s+\\d{1,2}(?:st|nd|rd|th)?)|going\\s+forward|with\\s+immediate\\s+effect)\\s*,\\s+`,
  "i",
);

/** A contract's parties that stand for the agent: "The Assistant agrees …", "The Provider shall …". */
const PARTY = "(?:the\\s+)?(?:assistant|agent|provider|supplier|contractor|service(?:\\s+provider)?|operator|system)";

/** The steps of the round-2 voices, in order, for the agent named `agent`. */
export function formSteps(agent: string): VoiceStep[] {
  const Agent = agent.charAt(0).toUpperCase() + agent.slice(1);
  const who = (at: number) => (at === 0 ? Agent : agent);
  return [
    {
      name: "contractions",
      apply: (v) =>
        // Not one that opens a clause: "Don't …" is the imperative step's to read as the agent's.
        rewrite(v, /(?<=[A-Za-z]\s+)(?:do|does|did|is|are|was|were|ca|wo|should|must|has|have)n(?:'|\u2019)t\b/gi, (m) => {
          const full = CONTRACTIONS[m[0].toLowerCase().replace("\u2019", "'")];
          if (full === undefined) return undefined;
          return m[0].charAt(0) === m[0].charAt(0).toUpperCase() ? full.charAt(0).toUpperCase() + full.slice(1) : full;
        }),
    },
    {
      // "Step 3: after each …", "Stage 2) call …": a runbook's step label, whatever case follows it.
      name: "step label",
      apply: (v) => rewrite(v, /^(?:step|stage|phase)\s*\d+[a-z]?\s*[.):-]\s*/gi, () => ""),
    },
    {
      // "Starting Monday, nobody …": when a rule starts is no part of what it asks.
      name: "lead-in",
      apply: (v) => rewrite(v, new RegExp(LEAD_IN.source, "gi"), () => ""),
    },
    {
      // "No paid booking, no boarding: the latest …": a checklist's slogan before the rule it heads.
      name: "slogan",
      // Only before a rule with a frame of its own: "No paid booking, no boarding: the latest …" names the act in its slogan.
      apply: (v) =>
        rewrite(
          v,
          /^no\s+[^,:;]{1,40},\s+no\s+[^,:;]{1,40}:\s+(?=(?:before|after|once|when|whenever|if|every|each|for\s+(?:each|every))\b)/gi,
          () => "",
        ),
    },
    {
      // A Do/Don't page's labels and marks: "Do: log …", "✅ Log …" are the imperative; "Don't: cancel …", "❌ Cancel …" a ban.
      name: "do dont label",
      apply: (v) =>
        rewrite(
          v,
          /^(?:(do)\s*:|(don't|do\s+not|never)\s*:|(\u2705|\u2714\ufe0f?|\u2611\ufe0f?)|(\u274c|\u2716\ufe0f?|\u26d4|\ud83d\udeab))\s*/giu,
          (m) => (m[2] !== undefined || m[4] !== undefined ? "Never " : ""),
        ),
    },
    {
      // "Please make sure you log …", "Make sure to log …", "Remember to log …": a manager's way of asking is the ask.
      name: "please make sure",
      apply: (v) =>
        rewrite(
          v,
          /^(?:please\s+)?(?:(?:make|be)\s+sure(?:\s+that)?(?:\s+to)?|remember\s+to|ensure(?:\s+that)?)\s+|^please\s+(?=[a-z])/gi,
          () => "",
        ),
    },
    {
      // "The Assistant shall ensure that each …", "… must make sure that …": what is to be ensured is the rule.
      name: "ensure that",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(
            `^(?:${PARTY}|${escapeRegExp(agent)}|you)\\s+(?:shall|must|will|should)\\s+(?:ensure|make\\s+sure|see\\s+to\\s+it)\\s+that\\s+(?=\\S)`,
            "gi",
          ),
          () => "",
        ),
    },
    {
      // "If a diver surfaces with `deco: missed`: give …", "If X then Y", "If X → Y": an If/then line's condition, as the readers split it.
      name: "if colon",
      apply: (v) =>
        rewrite(
          v,
          /^((?:if|when|whenever)\s+(?:[^,;:`→]|`[^`]*`)+?)(?:\s*:\s+|\s*(?:→|->|=>)\s*(?:then\s+)?|\s+then\s+)(?=\S)/gi,
          (m) => `${m[1]!}, `,
        ),
    },
    {
      // "Do log every release: …", "Please do call …": an emphatic imperative is the imperative.
      name: "emphatic do",
      apply: (v) => rewrite(v, /^(?:please\s+)?do\s+(?!not\b)(?=[a-z]+\s)/gi, () => ""),
    },
    {
      // "Nobody renews a loan more than twice", "no one may cancel …": a ban on everyone is one on the agent.
      name: "nobody",
      apply: (v) =>
        rewrite(
          v,
          /\b(?:nobody|no\s+one|no-one)\s+(?:(may|can|should|must|will|is\s+(?:allowed|permitted)\s+to|gets\s+to)\s+)?([a-z]+)\b/gi,
          (m) => {
            const [modal, verb] = [m[1], m[2]!];
            if (modal !== undefined) return imperativeVerb(verb, false) ? `${who(m.index)} must not ${verb}` : undefined;
            // Without a modal the verb is in the third person: "nobody renews", "nobody dumps".
            return /[^s]s$/.test(verb) ? `${who(m.index)} never ${verb}` : undefined;
          },
        ),
    },
    {
      // "The Assistant agrees not to renew …", "The Provider undertakes to confirm …": the contract's duty on the agent.
      name: "agrees to",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(
            `^(?:${PARTY}|${escapeRegExp(agent)})\\s+(?:hereby\\s+)?(?:agrees|undertakes|commits|covenants|is\\s+(?:obliged|required|bound))\\s+(not\\s+)?to\\s+(?=[a-z])`,
            "gi",
          ),
          (m) => `${Agent} must ${m[1] === undefined ? "" : "not "}`,
        ),
    },
    {
      // "The Assistant agrees that each issue_weapon is matched by …": what it agrees to is the rule.
      name: "agrees that",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(
            `^(?:${PARTY}|${escapeRegExp(agent)})\\s+(?:hereby\\s+)?(?:agrees|undertakes|warrants|ensures|guarantees)\\s+that\\s+(?=\\S)`,
            "gi",
          ),
          () => "",
        ),
    },
    {
      // "… not to renew a loan more than twice, nor to add …": the contract's second ban, as the readers say it.
      name: "nor to",
      apply: (v) => (/\bmust not\b/.test(v.text) ? rewrite(v, /,?\s+nor\s+to\s+(?=[a-z])/gi, () => ", and must not ") : v),
    },
    {
      // "What we do is confirm …", "What we never do is cancel …", "What we do when X is give …": a team's narrative.
      name: "what we do",
      apply: (v) => rewrite(v, /^what\s+(?:we|you|i|they)\s+(never\s+|always\s+)?(?:do|does)\b(.*)$/gi, (m) => narrative(m, Agent)),
    },
    {
      // "If Blockpost calls `grant_possession`, …": a condition on each call of an act is "Whenever … calls `x`,".
      name: "if it calls",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(
            `^(?:if|when)\\s+(?=(?:${escapeRegExp(agent)}|it|you|the\\s+agent|the\\s+assistant)\\s+(?:calls|uses|runs|call|use|run)\\s+\`[a-z0-9_]+\`\\s*,)`,
            "gi",
          ),
          () => "Whenever ",
        ),
    },
    {
      // "If an order_pilot is made for a booking, then an `assign_berth` result … has come before it": an If/then line
      // that says what must have come first is the ordering "X is made … only after Y has come".
      name: "if then before it",
      apply: (v) =>
        rewrite(
          v,
          /^if\s+((?:[^,;:`]|`[^`]*`)+?\s+(?:is|are)\s+[a-z]+\b(?:[^,;:`]|`[^`]*`)*?),\s+(?:then\s+)?(.+?)\s+(?:must|should|has\s+to)?\s*(?:have|has)\s+(come(?:\s+back)?|happened|been\s+[a-z]+)\s+(?:before|first|earlier)(?:\s+it)?$/gi,
          (m) => `${m[1]!.charAt(0).toUpperCase()}${m[1]!.slice(1)} only after ${m[2]!} has ${m[3]!}`,
        ),
    },
    {
      // "If X, then Y": the readers split the condition at its comma; "then" adds nothing.
      name: "if then",
      apply: (v) => rewrite(v, /^((?:if|when|whenever|once|where|after|before)\b[^;:]*?),\s+then\s+(?=\S)/gi, (m) => `${m[1]!}, `),
    },
    {
      // "Every release_record → log_disclosure …", "X → then Y": a checklist's arrow. With "then" it orders
      // two things (X comes first); bare, each X is followed by what the arrow points to.
      name: "arrow",
      apply: (v) => rewrite(v, /\s*(?:→|->|=>)\s*(then\s+)?/g, (m) => (m[1] === undefined ? " is followed by " : " comes before ")),
    },
    {
      // "Tally never dumps a load unless the latest check …", "must not dump … unless": the readers know "dumps … only if".
      name: "never unless",
      apply: (v) =>
        rewrite(v, /\b(?:never\s+([a-z]+)|(?:must|may|shall)\s+not\s+([a-z]+)|cannot\s+([a-z]+))\b([^,;:]*?)\s+unless\s+/gi, (m) => {
          const verb = m[1] ?? thirdPerson(m[2] ?? m[3]!);
          return m[1] !== undefined && !/[^s]s$/.test(m[1]) ? undefined : `${verb}${m[4]!} only if `;
        }),
    },
    {
      // "nothing more is loaded for that sailing": a prohibition, as "no more is loaded" says it. A slide's "→ nothing more
      // loaded for that sailing" leaves out the "is".
      name: "nothing more",
      apply: (v) => {
        const said = rewrite(v, /\bnothing(?:\s+(?:more|else|further))?(?=\s+(?:is|are|gets|may\s+be|can\s+be|must\s+be)\s)/gi, (m) =>
          m[0].charAt(0) === "N" ? "No more" : "no more",
        );
        return rewrite(said, new RegExp(`\\bnothing(?:\\s+(?:more|else|further))?(?=\\s+${PARTICIPLE}\\b)`, "gi"), (m) =>
          m[0].charAt(0) === "N" ? "No more is" : "no more is",
        );
      },
    },
  ];
}

/** The steps that read what the steps of voice.ts wrote ("Porter must not cancel …" from "Can Porter cancel …? No"). */
export function lateSteps(agent: string, knows: (verb: string) => boolean = () => false): VoiceStep[] {
  return [
    {
      // "Relay doesn't make more than four call-outs" (from "Don't make …"): the readers know "never makes".
      name: "does not",
      apply: (v) =>
        rewrite(v, new RegExp(`(?<=\\b${escapeRegExp(agent)}\\s+)(?:does\\s+not|doesn't)\\s+([a-z]+)\\b`, "gi"), (m) =>
          imperativeVerb(m[1]!, false) ? `never ${thirdPerson(m[1]!)}` : undefined,
        ),
    },
    {
      // "Porter never cancels a reservation whose latest look-up shows …" (from "Don't cancel …", "nobody cancels …",
      // "Can Porter cancel …? No"): the readers know the ban on such a thing in the passive, "A reservation whose … is never cancelled".
      name: "whose passive",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(
            `^${escapeRegExp(agent)}\\s+(?:never|does\\s+not|doesn't|must\\s+not|may\\s+not|must\\s+never|cannot)\\s+([a-z]+)\\s+(?:a|an|any)\\s+([a-z-]+)\\s+(whose\\s+.+)$`,
            "gi",
          ),
          (m) => {
            const verb = m[1]!.toLowerCase().replace(/([^s])s$/, "$1");
            return `A ${m[2]!} ${m[3]!} is never ${participle(verb)}`;
          },
        ),
    },
    {
      // "Bollard never extends a cancelled booking" (from "Don't extend a cancelled booking"): a participle that names an
      // agent's act says that act came first, as "Once a booking is cancelled, Bollard never extends that booking" does.
      name: "participle object",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(
            `^((?:${escapeRegExp(agent)}|the\\s+(?:agent|assistant))\\s+(?:never|must\\s+not|must\\s+never)\\s+[a-z]+\\s+)(?:a|an|any)\\s+([a-z]+ed)\\s+([a-z][\\w-]*)\\b`,
            "gi",
          ),
          (m) => {
            const [head, done, noun] = [m[1]!, m[2]!, m[3]!];
            if (!knowsDone(knows, done) || NOT_A_NOUN.test(noun)) return undefined;
            return `Once ${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun} is ${done}, ${head}that ${noun}`;
          },
        ),
    },
  ];
}

/** Whether a participle is of a verb the agent's acts are called by: "cancelled" of "cancel", "shredded" of "shred". */
const knowsDone = (knows: (verb: string) => boolean, done: string) =>
  [done, done.replace(/([b-df-hj-np-tv-z])\1ed$/i, "$1"), done.replace(/ed$/i, ""), done.replace(/d$/i, "")].some((w) => knows(w));

/** Words after a participle that are not the thing it describes ("a cancelled or …", "a reversed by …"). */
const NOT_A_NOUN = /^(?:or|and|by|to|for|with|in|on|at|from|as|than|that|which)$/i;

/** "What we do when X is give oxygen …" → "When X, Tender gives oxygen …"; "What we never do is cancel …" → "Porter never cancels …". */
function narrative(m: RegExpExecArray, Agent: string): string | undefined {
  const adverb = m[1]?.trim().toLowerCase();
  const rest = m[2]!;
  // The verb of what is done follows the last " is (to) " before a bare verb: the condition may hold an "is" of its own.
  const verbs = [...rest.matchAll(/\s+is\s+(?:to\s+)?([a-z]+)\b/gi)].filter((x) => imperativeVerb(x[1]!, false));
  const at = verbs[verbs.length - 1];
  if (at === undefined) return undefined;
  const condition = rest.slice(0, at.index).trim();
  const done = `${adverb === undefined ? "" : `${adverb} `}${thirdPerson(at[1]!)}${rest.slice(at.index! + at[0].length)}`;
  if (condition === "") return `${Agent} ${done}`;
  if (!/^(?:when|whenever|if|once|after|before)\b/i.test(condition)) return undefined;
  return `${condition.charAt(0).toUpperCase()}${condition.slice(1)}, ${Agent} ${done}`;
}
