/**
 * The voice layer's fourth round (voice.ts, issue 25): a pinned crew chat ("**Mags:** No. A balloon
 * only launches if …", "one per passenger", "Two people boarded on one "I accept the risks" means the
 * second one never accepted anything"), a regulator's numbered notice ("Effective 1 February 2027, …",
 * "Each dispatch shall be reported … through the police notification, … no later than the third event
 * following the dispatch", "An authorization is good for one dispatch only and may not be carried over
 * to a second vehicle") and the forms the third round left: a runbook's "Wait for X. Only then V Y", a
 * team lead's "What we do is wait for X; we don't V Y until then" and "we don't V …". Each is folded
 * into the voice the readers know before the steps of voice-letters.ts, voice-forms.ts and voice.ts
 * run; the spans are kept (voice-spans.ts), so quotes stay the spec's words.
 */
import { absorbed, joined, rewrite, type Voiced } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";
import { thirdPerson } from "./voice-words.js";
import { ANSWER_WORD, answersInOwnWords, unspoken } from "./speakers.js";
import { wordsValue } from "./number-words.js";
import { unitAround } from "./units.js";

export { answersInOwnWords, unspoken };

/** Nouns a count is said per that are acts of the agent ("one refund per order", "one rental per rider"): a count, not a go-ahead used up. */
const knowsNoun = (knows: (verb: string) => boolean, noun: string) =>
  knows(noun) || knows(noun.replace(/s$/, "")) || knows(noun.replace(/(?:als?|ments?|ings?)$/, ""));

/** A runbook's "Wait for X." (or "Step 3: wait until X."): a step that only waits, before the one that acts. */
const WAIT = /^(?:(?:step|stage)\s*\d+[a-z]?\s*[.):-]\s*)?wait\s+(?:for|until)\s+(.+?)\.?$/i;
/** "Only then call `restore_service` …": the act the wait was for. */
const ONLY_THEN = /^only\s+then\s*,?\s+/i;

/** Whether this sentence is a runbook's wait read with the step after it ("Only then …"). */
export function waitsForNext(sentence: string, next: string | undefined): boolean {
  return next !== undefined && WAIT.test(sentence) && ONLY_THEN.test(next);
}

/** "wait for the possession … to be handed back": what is waited for as the ordering reader says it ("… is handed back"). */
const awaited = (what: string) => what.replace(/\s+to\s+be\s+/i, " is ").replace(/\s+to\s+come\s+/i, " comes ");

/** "Only then open that same section …" after "Wait until the possession … has been handed back.": "open … only after …". */
export function afterWait(v: Voiced, previous: string | undefined): Voiced {
  const wait = previous === undefined ? null : WAIT.exec(previous);
  if (wait === null || !ONLY_THEN.test(v.text)) return v;
  return joined(
    rewrite(v, new RegExp(ONLY_THEN.source, "gi"), () => ""),
    "",
    ` only after ${awaited(wait[1]!)}`,
  );
}

/** The steps of the round-4 voices, in order. */
export function chatSteps(agent: string, knows: (verb: string) => boolean): VoiceStep[] {
  const Agent = agent.charAt(0).toUpperCase() + agent.slice(1);
  return [
    {
      // "**Mags:** No. A balloon only launches if …": the answer word before a rule said in full.
      name: "answer word",
      apply: (v) => rewrite(v, new RegExp(ANSWER_WORD.source, "gi"), () => ""),
    },
    {
      // "Effective 1 February 2027, …", "With effect from 3 March, …": when a notice starts to apply is no part of the rule.
      name: "effective date",
      apply: (v) =>
        rewrite(
          v,
          /^(?:effective|with\s+effect\s+from|as\s+(?:of|from))\s+(?:\d{1,2}(?:st|nd|rd|th)?\s+[A-Z][a-z]+|[A-Z][a-z]+\s+\d{1,2}(?:st|nd|rd|th)?)(?:,?\s+\d{4})?\s*,\s+/gi,
          () => "",
        ),
    },
    {
      // "What we do is wait for a take_payment result …; we don't call `restore_service` … until then": the wait is the
      // ordering's first event, as "Tap never calls … until a take_payment result …" says it.
      name: "wait until then",
      apply: (v) =>
        rewrite(
          v,
          /^what\s+we\s+do\s+is\s+wait\s+(?:for|until)\s+(.+?)\s*;\s+(?:we|you)\s+(?:don't|do\s+not|never)\s+([a-z]+)\b(.*?)\s+until\s+then$/gi,
          (m) => `${Agent} never ${thirdPerson(m[2]!.toLowerCase())}${m[3]!} until ${awaited(m[1]!)}`,
        ),
    },
    {
      // "After a trip we don't make any further lift …": a team's "we don't" is what the agent never does (only for a verb
      // an agent act is called by; "we waive fees for seniors" describes, it rules nothing).
      name: "we don't",
      apply: (v) =>
        rewrite(v, /(?<!\bwhat\s+)\bwe\s+(?:don't|don\u2019t|do\s+not|never)\s+(?!do\b)([a-z]+)\b/gi, (m) =>
          knows(m[1]!) ? `${m.index === 0 ? Agent : agent} never ${thirdPerson(m[1]!.toLowerCase())}` : undefined,
        ),
    },
    {
      // "Each dispatch shall be reported to the police … through the police notification, …, no later than the third
      // event following the dispatch": the tool it is reported through follows each such event, as "is followed by" says.
      name: "reported through",
      apply: (v) =>
        /\b(?:within|no\s+later\s+than)\b/i.test(v.text)
          ? rewrite(
              v,
              /^((?:each|every)\s+[\w`-]+(?:\s+[\w`-]+)?)\s+(?:must|shall|is\s+to|has\s+to)\s+be\s+(?:reported|notified|logged|recorded|entered|announced)\b[^,;]*?\s+(?:through|via|by\s+means\s+of|using)\s+/gi,
              (m) => `${m[1]!} is followed by `,
            )
          : v,
    },
    {
      // "An authorization is good for one dispatch only and may not be carried over to a second vehicle": the second half
      // says the first again; read as a clause of its own it named an act ("carried over" a release).
      name: "said again",
      apply: (v) =>
        rewrite(
          v,
          /(?<=\b(?:is|are)\s+good\s+for\s+(?:one|a\s+single)\s+[\w-]+(?:\s+only)?)\s*,?\s+and\s+(?:(?:may|must|can|shall|will|should)\s+)?(?:not|never)\s+(?:be\s+)?(?:carried\s+over|used|relied\s+(?:on|upon))\s+(?:to|for)\s+(?:a\s+second|another|the\s+next)\s+[\w-]+/gi,
          () => "",
        ),
    },
    {
      // "…, one per passenger", "one agreement per adoption", "One approval per Handover": a go-ahead used up by one act, as
      // "covers one" says (not "one refund per order", a count of the agent's own act, nor "at most one … per …").
      name: "one per",
      apply: (v) =>
        rewrite(
          v,
          /(?<!\b(?:most|than|only|just|exactly|least)\s+)\b(one)\s+(?:("[^"]*"|[a-z][\w-]*)\s+)?per\s+(?:each\s+)?([\w-]+)/gi,
          (m, text) => {
            const [one, noun, per] = [m[1]!, m[2], m[3]!];
            // "One mg per ten kg", "one ml per kilo" is a rate of two amounts (rates.ts), no go-ahead.
            if (wordsValue(per) !== undefined || /^\d/.test(per) || (noun !== undefined && unitAround("", ` ${noun}`) !== undefined))
              return undefined;
            // A bare "one per X" is a go-ahead only beside the words it stands for ("I accept the risks", in quotes).
            if (noun === undefined ? !/"[^"]+"/.test(text) : noun.startsWith('"') ? false : knowsNoun(knows, noun)) return undefined;
            return `${one} ${noun === undefined ? "" : `${noun} `}covers one ${per}`;
          },
        ),
    },
    {
      // "Two people boarded on one "I accept the risks" means the second one never accepted anything": one go-ahead, one act.
      name: "two on one",
      apply: (v) =>
        rewrite(
          v,
          /^two\s+([\w-]+)(?:\s+[\w-]+){0,2}?\s+on\s+(?:one|a\s+single|the\s+same)\s+("[^"]*"|[\w-]+)\s+means\s+(?:that\s+)?the\s+second\s+(?:one\s+)?[^,;]*/gi,
          (m) => `One ${m[2]!} covers one ${m[1]!.replace(/(?<=[^s])s$/, "")}`,
        ),
    },
  ];
}

export { absorbed };
