/**
 * The voice layer's words around a rule's own check (voice.ts, issue 25, round 12): an interview's
 * answer label ("A: …"), a remark before a colon that the rule after it restates ("If the officer's
 * detained a boat, that's the end of it: once `detain_vessel` has gone in …"), a team's "we won't
 * release …" and a condition put after the ban ("… won't release any remains of a case once a hold
 * has been placed on that case"). Each is folded into the voice the readers know, the condition first,
 * so that a further sentence of a rule is read as the check it states; the spans are kept
 * (voice-spans.ts), so quotes stay the spec's words.
 */
import { rewrite } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";
import { thirdPerson } from "./voice-words.js";

/** Words that make a remark a rule of its own: it is then read, not dropped. */
const RULE_WORDS = /\b(?:must|never|not|no|only|shall|may|should|every|each|always|cannot|can't|don't|won't|at\s+most|at\s+least)\b/i;
/** The words a condition opens with, as the shape reader knows them. */
const OPENS = String.raw`(?:once|after|if|when|whenever|as\s+soon\s+as)`;
/** "(for example when …)", "(e.g. …)": an example of the condition, not a narrower one. */
const EXAMPLE = /\s*\((?:for\s+example|for\s+instance|e\.g\.|such\s+as|say)\b[^)]*\)/gi;
/** "at most once", "only once", "more than once": a count, not a condition. */
const COUNTED_ONCE = /\b(?:at\s+most|only|just|exactly|than|more|twice|times)\s*$/i;

export function asideSteps(agent: string, knows: (verb: string) => boolean): VoiceStep[] {
  const Agent = agent.charAt(0).toUpperCase() + agent.slice(1);
  return [
    {
      // "A: Since before the auction went on computers.": an interview's answer label (the question's "Q:" is a clause number).
      name: "answer label",
      apply: (v) => rewrite(v, /^A\s*\d*\s*:\s+(?=\S)/g, () => ""),
    },
    {
      // "**Rule 3** Once a permit has been suspended, …", "**Stage 2 · Returns** Once …", "**Important** Once …": bold words
      // of a label before the rule's condition are no part of it; the condition after them opens the sentence. No message
      // header gets here (the sentence splitter sets those apart, header.ts), but a label is no header: it holds no date.
      name: "bold label before condition",
      apply: (v) => rewrite(v, new RegExp(String.raw`^\*\*[^*]{1,120}?\*\*\s+(?=${OPENS}\s+[^,:;]+,\s+\S)`, "gi"), () => ""),
    },
    {
      // "If the officer's detained a boat, that's the end of it: once `detain_vessel` has gone in …, no landing …": the
      // remark before the colon states nothing the rule after it does not, and the rule has a condition of its own.
      name: "aside before colon",
      apply: (v) =>
        // A time of day in the remark ("Agreed at the 10:40 meeting: once …") is no colon of its own. (A message's header,
        // "**H. Marsh · Tue 9 Mar, 08:44**", never gets here: the sentence splitter sets it apart, header.ts.)
        rewrite(v, new RegExp(String.raw`^(?:[^:;]|\d:\d\d){1,120}?:\s+(?=${OPENS}\s+[^,:;]+,\s+\S)`, "gi"), (m) =>
          RULE_WORDS.test(m[0]) ? undefined : "",
        ),
    },
    {
      // "We will not release …", "we shall never charge …": a team's ban on what it does through the agent (an act the
      // agent's actions are called by; "we will not be able to …" is no act).
      name: "we will not",
      apply: (v) =>
        rewrite(v, /\bwe\s+(?:will|shall|must|would)\s+(?:not|never)\s+(?:ever\s+)?([a-z]+)\b/gi, (m) =>
          knows(m[1]!) ? `${m.index === 0 ? Agent : agent} never ${thirdPerson(m[1]!.toLowerCase())}` : undefined,
        ),
    },
    {
      // "the assistant won't start a session for that client again", "the desk may no longer issue …", "will never
      // renew": a ban on an act the agent's actions are called by, as "must not" says it (the readers know no "will not").
      name: "will not",
      apply: (v) =>
        rewrite(
          v,
          /\b(?:(?:will|would)\s+(?:not|never)(?:\s+ever)?|(?:(?:may|can|will|shall|must|is|are)\s+)?no\s+longer)\s+(?=([a-z]+)\b)/gi,
          // "isotopes are no longer issued under it": a passive's own "are", kept ("are not issued"), not "are must not".
          (m) => (!knows(m[1]!) ? undefined : /^(?:is|are)\b/i.test(m[0]) ? `${m[0].split(/\s/)[0]!} not ` : "must not "),
        ),
    },
    {
      // "The agent never releases any remains of a case once a hold has been placed on that case, whatever …": the
      // condition put last, put first as the readers know it ("Once a hold has been placed on that case, …").
      name: "once last",
      apply: (v) =>
        rewrite(
          v,
          /^([^,;:]+?)\s+once\s+((?:[^,;:()]|\([^)]*\))*?\b(?:has|have|had|is|are|was|were)\b(?:[^,;:()]|\([^)]*\))*?)(?=\s*(?:,|$))/gi,
          (m) => {
            // An example in brackets ("(for example when family members disagree)") narrows nothing.
            const [head, condition] = [m[1]!, m[2]!.replace(EXAMPLE, "").trim()];
            if (COUNTED_ONCE.test(head) || new RegExp(String.raw`\b${OPENS}\b|\b(?:before|until|unless)\b`, "i").test(head))
              return undefined;
            // "can only be banned once they have …", "only goes … once the tests have passed": an ordering as it is.
            if (!RULE_WORDS.test(head) || /\bonly\b/i.test(head)) return undefined;
            const main = /^(?:The|A|An|No|Nothing|Each|Every|Any)\b/.test(head) ? head.charAt(0).toLowerCase() + head.slice(1) : head;
            return `Once ${condition}, ${main}`;
          },
        ),
    },
  ];
}
