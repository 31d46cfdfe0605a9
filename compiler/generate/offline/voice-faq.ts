/**
 * An FAQ's yes/no question in the readers' voice (voice.ts, issue 25): "Can the clerk buy from a seller without ID?
 * No." is a ban, "Does the clerk need to file a report? Yes." a duty. Run at the start of the voice steps and again
 * among the late ones (voice.ts), spans kept (voice-spans.ts), so quotes stay the question's words.
 */
import { escapeRegExp } from "./shape.js";
import { rewrite, type Voiced } from "./voice-spans.js";
import { LEADING_CONDITION } from "./voice-words.js";

/**
 * Where an FAQ's question starts: the sentence's start, or after a condition an earlier step put first ("Can the clerk
 * reopen a file after it is archived?" is "After a file is archived, can the clerk reopen that file?" by then).
 */
const ASKED_AT = `(?:^|(?<=${LEADING_CONDITION.source}[^,;:]*,\\s+))`;

/**
 * An FAQ's question answered "No" (a ban) or "Yes" (a duty), as a statement: "Can the assistant lend a tool once
 * damage has been flagged? No." is "The assistant must not lend a tool once damage has been flagged". Run first of
 * all the steps, so that the statement's condition is read as any statement's is ("once …" put first, voice-asides.ts)
 * rather than lost to a reader that takes the question's words as written; and again among the late steps, for a
 * question some step only makes one by putting its condition first ("After a file is archived, can the clerk …").
 */
export function faqSteps(agent: string, answer: "yes" | "no" | undefined): { name: string; apply: (v: Voiced) => Voiced }[] {
  // Who an FAQ asks about: the agent by any of its names, or a noun with its article ("a clerk").
  const FAQ_SUBJECT = `you|i|we|it|the agent|the assistant|${escapeRegExp(agent)}|(?:the|a|an|any)\\s+[\\w-]+`;
  const faqSubject = (who: string | undefined, at: number) => {
    const named = who === undefined || /^(?:you|i|we)$/i.test(who) ? agent : who;
    return at === 0 ? named.charAt(0).toUpperCase() + named.slice(1) : named;
  };
  return [
    {
      // "Can the clerk buy from a seller without ID? No.": the question answered "No" is a ban.
      name: "faq no",
      apply: (v) =>
        answer === "no"
          ? rewrite(
              v,
              new RegExp(
                `${ASKED_AT}(?:(?:can|may|could|should)\\s+(${FAQ_SUBJECT})|is\\s+(?:it\\s+)?(?:ok|okay|all\\s+right|allowed|permitted|acceptable)\\s+(?:for\\s+(${FAQ_SUBJECT})\\s+)?to)\\s+(?=[a-z]+\\b)`,
                "gi",
              ),
              (m) => `${faqSubject(m[1] ?? m[2], m.index)} must not `,
            )
          : v,
    },
    {
      // "Does the clerk need to file a report? Yes.": the question answered "Yes" is a duty.
      name: "faq yes",
      apply: (v) =>
        answer === "yes"
          ? rewrite(
              v,
              new RegExp(`${ASKED_AT}(?:does|do|must|should)\\s+(${FAQ_SUBJECT})\\s+(?:(?:need|have)\\s+to\\s+)?(?=[a-z]+\\b)`, "gi"),
              (m) => `${faqSubject(m[1], m.index)} must `,
            )
          : v,
    },
  ];
}
