/**
 * The voice layer (issue 25): one rule sentence rewritten into the voice the class readers were
 * written against, before they read it. Teams write the same obligation as a compliance procedure
 * ("The clerk shall not release … prior to …; thereafter …"), a note to the assistant ("You never
 * hand over …"), a checklist ("Never push to `main`"), or in the passive ("is to be logged").
 * Teaching each class reader every voice does not generalize, so the voices are folded here into
 * one: the agent as the subject in the present tense ("the agent never pushes …"), "must" for the
 * modal of obligation, "before", "afterwards", "more than".
 *
 * Only the reading uses the rewritten sentence: a draft's quotes are the spec's own words. Each
 * rewrite keeps, for every character of the new text, the span of the original it came from, so a
 * quote cut from the rewritten sentence maps back to the original's words (`originalQuote`).
 * Deterministic: the steps below, in order, each a small table or pattern with the reason for it.
 */
import type { ClauseOutcome } from "./clauses.js";
import type { Lexicon } from "./lexicon.js";
import { canonical } from "./words.js";
import { escapeRegExp } from "./shape.js";
import { formSteps, lateSteps } from "./voice-forms.js";
import { headingSteps } from "./voice-headings.js";
import { asideSteps } from "./voice-asides.js";
import { contrastSteps } from "./voice-contrasts.js";
import { doneSteps, letterSteps } from "./voice-letters.js";
import { dutySteps } from "./voice-duties.js";
import { windowLeadSteps, windowSteps } from "./voice-windows.js";
import { otherSteps } from "./voice-others.js";
import { boundSteps, leadInSteps } from "./voice-bounds.js";
import { withDefinedTerms, withTerms } from "./voice-terms.js";
import { absorbed, readWithNeighbour, withNeighbours } from "./voice-joins.js";
import { riderOfBan } from "./voice-riders.js";
import { rowSubject, tableRow } from "./voice-table.js";
import { figureSteps } from "./voice-figures.js";
import { afterWait, answersInOwnWords, chatSteps, unspoken, waitsForNext } from "./voice-chat.js";
import { recordSteps } from "./voice-record.js";
import { originalQuote, rewrite, unchanged, type Voiced } from "./voice-spans.js";
import { deniesAsked } from "./speakers.js";
import { readAsBan } from "./banned-acts.js";
import { foldedCase, shouts } from "./voice-case.js";
import { cardSteps } from "./voice-card.js";
import { flowchartSteps } from "./flowchart.js";
import { numberSteps } from "./voice-numbers.js";
import { perSteps } from "./voice-per.js";
import { faqSteps } from "./voice-faq.js";
import { trailingConditionSteps } from "./voice-trailing.js";
import {
  actByNoun,
  ADVERB,
  imperativeVerb,
  LEADING_CONDITION,
  NOT_A_VERB,
  OBJECT_START,
  ORDINALS,
  participle,
  STEP_NOUNS,
  thirdPerson,
} from "./voice-words.js";

export { withDefinedTerms, originalQuote, participle, thirdPerson, type Voiced };

/**
 * "3.2 The clerk …", "(b) The clerk …", "Rule 4: …", "[ ] Check …": a clause's number or checkbox is no part of its
 * reading. First of all the steps: "1.1 The Provider agrees not to …" is the contract's voice only once the number is gone.
 */
const CLAUSE_NUMBER = {
  name: "clause number",
  apply: (v: Voiced) =>
    rewrite(
      v,
      /^(?:(?:(?:§|rule|clause|section|article|step|item)\s*)?\d+(?:\.\d+)*[.):]?|\(?[a-z0-9]{1,3}\)|\[[ xX]?\]|Q\s*\d*[.:])\s+/gi,
      // Only before a capital: "30 minutes after …" starts with a number of its own.
      (m, text) => (/[A-Z]/.test(text.charAt(m[0].length)) ? "" : undefined),
    ),
};

/**
 * "Requirement: every redemption …", "A: Any landing …": an audit finding's or a transcript's label before the
 * rule is no part of it either, whatever case follows ("Lane total: 40 tonnes max" names what it bounds, and stays).
 */
const LABEL = {
  name: "label",
  apply: (v: Voiced) =>
    rewrite(
      v,
      // A release note's "New in 4.2:", "Also new in 4.2:", "Fixed:", "Changed:" say when the rule came, not what it is.
      /^(?:A\s*\d*|answer|(?:corrective\s+)?action|requirements?|rule|(?:also\s+)?new\s+in\s+v?\d+(?:\.\d+)*|fixed|changed|added)\s*:\s+(?=[A-Za-z"`])/gi,
      () => "",
    ),
};

/** The steps, in order. Each takes the sentence as the steps before it left it. */
function steps(
  agent: string,
  knows: (verb: string) => boolean,
  answer: "yes" | "no" | undefined,
): { name: string; apply: (v: Voiced) => Voiced }[] {
  const subject = (at: number) => (at === 0 ? agent.charAt(0).toUpperCase() + agent.slice(1) : agent);
  const conjugated = (adverb: string | undefined, verb: string) => {
    const adv = adverb?.toLowerCase();
    if (adv === "do not" || adv === "does not") return `does not ${verb.toLowerCase()}`;
    if (adv === "don't" || adv === "doesn't") return `doesn't ${verb.toLowerCase()}`;
    return `${adv === undefined ? "" : `${adv} `}${thirdPerson(verb.toLowerCase())}`;
  };
  return [
    // An FAQ's question, if no step before this one could read it as a statement (faqSteps).
    ...faqSteps(agent, answer),
    {
      // "shall" is the procedure's "must": the readers know "must", "must not", "must be".
      name: "shall",
      apply: (v) => rewrite(v, /\bshall\b/gi, (m) => (m[0] === "Shall" ? "Must" : "must")),
    },
    {
      // "is to be logged", "is not to run": an obligation put as a plan ("the job is to …" stays, duty.ts reads it).
      name: "is to",
      apply: (v) =>
        rewrite(
          v,
          /\b(?<!(?:job|task|duty|responsibility|priority|aim|goal|purpose|idea|plan|point|intent|intention|rule|thing|answer|hope|way)\s)(?:is|are)\s+(not\s+)?to\s+(?=\w)/gi,
          (m) => (m[1] === undefined ? "must " : "must not "),
        ),
    },
    {
      // "prior to" is "before"; "prior to the end of the session" is the session's end as the readers know it.
      name: "prior to",
      apply: (v) => rewrite(v, /\bprior\s+to\b/gi, (m) => (m[0].startsWith("P") ? "Before" : "before")),
    },
    {
      // "once at most", "twice at most", "three times at most": the count's bound words put first, where the count reader looks.
      name: "times at most",
      apply: (v) => rewrite(v, /\b(once|twice|(?:\d+|[a-z]+)\s+times)\s+at\s+(?:the\s+)?most\b/gi, (m) => `at most ${m[1]!}`),
    },
    {
      // "never unlocks the door before the check", "must not book before …": a ban on doing it before Y is an
      // ordering with Y first, as "never … until Y" says (the session's end stays "before the end of …").
      name: "never before",
      apply: (v) =>
        rewrite(
          v,
          /\b((?:never|not|\w+n't)\b[^,;:]*?\s+)before\s+(?!the\s+(?:end|session|conversation|chat|run|call)\b|it\s+ends\b|(?:each|every|any)\b)/gi,
          (m) => `${m[1]}until `,
        ),
    },
    {
      // "thereafter": from the event just named on, as "afterwards" is.
      name: "thereafter",
      apply: (v) => rewrite(v, /\bthereafter\b/gi, (m) => (m[0].startsWith("T") ? "Afterwards" : "afterwards")),
    },
    {
      // "in excess of $500", "exceeding 26 degrees": a threshold, as "more than" writes it (not the verb "exceed the approved_amount").
      name: "in excess of",
      apply: (v) => rewrite(v, /\b(?:in\s+excess\s+of|exceeding)(?=\s+[$€£]?\d)/gi, () => "more than"),
    },
    {
      // "no later than the fourth step after the purchase", "no later than three steps after it", "the third event
      // following the dispatch" (a notice's words): a window of steps.
      name: "no later than",
      apply: (v) =>
        // "by the second event after the redemption", "not later than …", "at or before …", "no more than two steps after
        // the `transfer_custody` event" are the same window.
        rewrite(
          v,
          new RegExp(
            `\\b(?:(?:no|not)\\s+(?:later|more)\\s+than|at\\s+most|(?:at\\s+the\\s+latest\\s+)?by|(?:on|at)\\s+or\\s+before)\\s+(?:the\\s+)?(\\w+)\\s+${STEP_NOUNS}\\s+(?:after|following)\\b`,
            "gi",
          ),
          (m) => {
            // "the 2ND step after": a numeric ordinal, in any case, is its number.
            const n =
              ORDINALS[m[1]!.toLowerCase()] ??
              /^(\d+)(?:st|nd|rd|th)$/i.exec(m[1]!)?.[1] ??
              (/^(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)$/i.test(m[1]!) ? m[1]! : undefined);
            return n === undefined ? undefined : `within ${n} steps of`;
          },
        ),
    },
    {
      // "Where a check returns a hit, …": the procedure's "if".
      name: "where",
      apply: (v) => rewrite(v, /^Where\b(?=[^,]+,)/g, () => "If"),
    },
    {
      // "…; where an invoice has been entered more than once, the most recent entry is the one that counts": a clause of
      // its own after a semicolon, with its own condition (draft.ts reads a later clause's "if" as its own sentence). Read as
      // anything else, its "more than once" was a count of the act.
      name: "where after semicolon",
      apply: (v) => rewrite(v, /(?<=;\s+(?:and\s+|but\s+)?)where\b(?=[^,;:]+,)/gi, () => "if"),
    },
    {
      // "A correction that has been reversed must not be paid …": the event-subject prohibition (shape.ts stateSubject) says "is not paid".
      name: "modal state subject",
      apply: (v) =>
        rewrite(
          v,
          /^((?:a|an|any|each|every)\s+(?:[\w-]+\s+){0,3}?(?:that|which|who)\s+(?:has|have)\s+(?:already\s+)?been\s+\w+(?:ed|en)\b[^,;:]*?\s+)(?:must|may|should|can)\s+(not|never)\s+be\s+(?=\w+(?:ed|en)\b|paid|sent|made|given|sold)/gi,
          (m) => `${m[1]}is ${m[2]!.toLowerCase()} `,
        ),
    },
    {
      // "At no time does Hearth set …", "Under no circumstances may it …": a denial put first, said as "never".
      name: "at no time",
      apply: (v) =>
        rewrite(
          v,
          /^(?:at\s+no\s+time|under\s+no\s+circumstances?|in\s+no\s+case|on\s+no\s+account)\s+(does|do|did|may|can|will|must|should|is|are)\s+(.+)$/gi,
          (m) => atNoTime(m[1]!.toLowerCase(), m[2]!, agent),
        ),
    },
    {
      // "It is forbidden to …", "It is not permitted for the agent to …": a ban on the agent.
      name: "it is forbidden",
      apply: (v) =>
        rewrite(
          v,
          /^it\s+is\s+(?:forbidden|prohibited|not\s+permitted|not\s+allowed)\s+(?:for\s+(.+?)\s+)?to\s+/gi,
          (m) => `${m[1] ?? agent} must not `,
        ),
    },
    {
      // "Enter every lift in the log within four steps", "you settle each load with …": a duty on each such
      // event is what "Every lift is entered in the log …" says, the voice the pairing reader knows.
      name: "every object",
      apply: (v) =>
        rewrite(
          v,
          /(?<=^|[:;]\s+|,\s+)(?:(you)\s+)?(?:always\s+)?([A-Za-z]+)\s+(every|each)\s+((?:[\w`'-]+\s+){0,2}?[\w`'-]+?)(?=\s+(?:with|for|within|afterwards|later|then|to|by|on|in|at|before|after|once|as|so)\b)/gi,
          (m) => {
            const [you, verb, every, noun] = [m[1], m[2]!, m[3]!, m[4]!];
            if (you === undefined && !imperativeVerb(verb, m.index === 0)) return undefined;
            const quantifier = m.index === 0 ? every.charAt(0).toUpperCase() + every.slice(1).toLowerCase() : every.toLowerCase();
            return `${quantifier} ${noun} is ${participle(verb.toLowerCase())}`;
          },
        ),
    },
    {
      // "A permit may only be issued when …", "Plat may only post an order once …": the readers know
      // "is issued only when", "posts an order only after" ("only once" would read as a count).
      name: "may only",
      apply: (v) =>
        rewrite(v, /\b(?:may|can|must|should)\s+only\s+(?:(be)\s+)?([a-z]+)([^,;:]*?)\s+(once|after|when|if)\s+/gi, (m, text) => {
          const [passive, verb, middle, conj] = [m[1], m[2]!, m[3]!, m[4]!.toLowerCase()];
          const subject = /(\S+)\s*$/.exec(text.slice(0, m.index))?.[1] ?? "";
          const be = /[^s]s$/i.test(subject) ? "are" : "is";
          const head = passive === undefined ? thirdPerson(verb) : `${be} ${verb}`;
          return `${head}${middle} only ${conj === "once" ? "after" : conj} `;
        }),
    },
    {
      // "you're arming", "you'll file", "you've checked": the second person's contractions, spelled out.
      name: "contractions",
      apply: (v) =>
        rewrite(
          v,
          /\byou(?:'|\u2019)(re|ll|ve|d)\b/gi,
          (m) => `${m[0].slice(0, 3)} ${{ re: "are", ll: "will", ve: "have", d: "would" }[m[1]!.toLowerCase()]}`,
        ),
    },
    {
      // "the weapon is issued by you", "is logged by the agent": a passive naming the agent reads as one naming no one.
      name: "by the agent",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(
            `(?<=\\b\\w+(?:ed|en)|\\b(?:sent|paid|made|held|kept|put|set|told|shown|sold|bought))\\s+by\\s+(?:you|the agent|the assistant|${escapeRegExp(agent)})\\b`,
            "gi",
          ),
          () => "",
        ),
    },
    {
      // "before the end of the transaction record", "by the end of the shift": the end of the trace, as the readers say it.
      name: "end of the record",
      apply: (v) =>
        rewrite(
          v,
          /\b(before|by)\s+the\s+end\s+of\s+the\s+(?:transaction(?:\s+record)?|record|shift|day|visit|job|booking|appointment|procedure)\b/gi,
          (m) => `${m[1]!.toLowerCase()} the end of the session`,
        ),
    },
    {
      // "you never hand over …", "before you open …", "you must …": the second person is the agent.
      name: "second person",
      apply: (v) =>
        rewrite(v, new RegExp(`\\byou\\s+(?:(${ADVERB})\\s+)?([A-Za-z']+)`, "gi"), (m, text) => {
          const verb = m[2]!;
          // "unless you tell us …", "you ask us": the person the team ("us") serves speaks, not the agent.
          if (/^\s+us\b/i.test(text.slice(m.index + m[0].length))) return undefined;
          const who = subject(m.index);
          if (/^(?:must|may|might|can|cannot|can't|shall|should|will|would|could|need|ought)$/i.test(verb))
            return `${who}${m[1] === undefined ? "" : ` ${m[1]}`} ${verb}`;
          // Not the subject ("tells you the code", "asks you to wait"): only the pronoun changes. Before a verb it is
          // the subject, also in a relative clause ("every weapon you issue comes back").
          if (m[1] === undefined && NOT_A_VERB.has(verb.toLowerCase()) && !/^(?:are|have|do)$/i.test(verb)) return `${who}${m[0].slice(3)}`;
          return `${who} ${conjugated(m[1], verb)}`;
        }),
    },
    {
      // "your licence" is the agent's.
      name: "your",
      apply: (v) => rewrite(v, /\byour\b/gi, () => "its"),
    },
    {
      // "Never share …", "Always push …", "Do not …", "…, call `notify` …": an imperative's subject is the agent.
      name: "imperative",
      apply: (v) => {
        const afterCondition = LEADING_CONDITION.test(v.text);
        const boundary = afterCondition ? "(?<=^|[:;]\\s+|,\\s+(?:(?:and|but|then)\\s+)?)" : "(?<=^|[:;]\\s+|,\\s+(?:and|but|then)\\s+)";
        const pattern = new RegExp(`${boundary}(?:(${ADVERB})\\s+)?([A-Za-z]+)(?=\\s+(\\S+)(?:\\s+(\\S+))?)`, "gi");
        return rewrite(v, pattern, (m) => {
          const [adverb, verb, next, after] = [m[1], m[2]!, m[3]!, m[4]];
          if (!imperativeVerb(verb, m.index === 0)) return undefined;
          if (adverb !== undefined && /^(?:only|also|then|first|still)$/i.test(adverb) && m.index === 0) return undefined;
          // What follows is an object: a determiner (not a relative "that"), a backticked or snake_case name, or a plain noun.
          // "Never …", "Always …", "Do not …" say it is a verb, whatever follows it.
          const object =
            (adverb !== undefined && /^(?:never|always|do not|don't)$/i.test(adverb)) ||
            new RegExp(`^${OBJECT_START}`, "i").test(next) ||
            (/^(?:that|this)$/i.test(next) && after !== undefined && !NOT_A_VERB.has(after.toLowerCase()) && !/[^s]s$/.test(after)) ||
            (/^[a-z]+$/.test(next) && !NOT_A_VERB.has(next) && !/(?:[^s]s|ed)$/.test(next) && (afterCondition || m.index > 0));
          // A verb no agent action is called by ("Don't dress up routine readings …") is advice, not an act to read.
          // "make no payment …": a light verb before an act's noun is that act (voice-words.ts actByNoun).
          const at = v.text.slice(m.index + m[0].length - verb.length);
          if (!object || !(knows(verb) || namesAnAction(v.text.slice(m.index)) || actByNoun(knows, at))) return undefined;
          return `${subject(m.index)} ${conjugated(adverb, verb)}`;
        });
      },
    },
    {
      // "… and never disarm the alarm": a second imperative joined by "and".
      name: "and imperative",
      apply: (v) =>
        rewrite(v, /(?<=\s(?:and|or)\s+)(never|always|do not|don't)\s+([a-z]+)(?=\s)/g, (m, text) =>
          imperativeVerb(m[2]!, false) &&
          (knows(m[2]!) || namesAnAction(text.slice(m.index)) || actByNoun(knows, text.slice(m.index + m[0].length - m[2]!.length)))
            ? `${agent} ${conjugated(m[1], m[2]!)}`
            : undefined,
        ),
    },
  ];
}

/** "At no time does Hearth set X" → "Hearth never sets X"; "… is a correction … paid …" → "a correction … is never paid …". */
function atNoTime(aux: string, rest: string, agent: string): string | undefined {
  if (aux === "is" || aux === "are") {
    // The subject runs to the first participle not itself part of a relative clause's "has been reversed".
    const participle =
      /(?<!\b(?:been|be|is|are|was|were|has|have|had)\s+)\b(\w+(?:ed|en)|paid|sent|made|done|given|kept|held|put|set|sold|bought|shown|told)\b/i.exec(
        rest,
      );
    if (participle === null) return undefined;
    return `${rest.slice(0, participle.index).trim()} ${aux} never ${rest.slice(participle.index)}`;
  }
  const subjectVerb = /^(.+?)\s+([a-z]+)\b(.*)$/i.exec(rest);
  if (subjectVerb === null) return undefined;
  const [, who, verb, tail] = subjectVerb;
  const subject = /^(?:you)$/i.test(who!) ? agent : who!;
  if (aux === "does" || aux === "do" || aux === "did") return `${subject} never ${thirdPerson(verb!)}${tail}`;
  return `${subject} must never ${verb}${tail}`;
}

/** Whether a clause names an action as written: in backticks or snake_case ("call `notify_police`", "file report_incident"). */
function namesAnAction(clause: string): boolean {
  return /`[a-z][a-z0-9]*(?:_[a-z0-9]+)+`|\b[a-z]+_[a-z0-9_]+\b/.test(clause.split(/[;:]/)[0]!);
}

/**
 * Whether a word is one the agent's actions are called by (a stem of an agent action's name or of
 * a word the spec glosses it with): "share" for `share_document`, "book" for `book_interview`.
 */
export function actionVerbs(lexicon: Lexicon): (verb: string) => boolean {
  const stems = new Set(
    lexicon.actions.filter((a) => !a.isResult && a.actors.includes("agent")).flatMap((a) => [...a.stems, ...(a.gloss ?? [])]),
  );
  return (verb) => stems.has(canonical(verb));
}

/** A question, by its first word: "can Blockpost grant a possession off an older look-up". */
const ASKS_FIRST = /^(?:can|may|could|should|is|are|do|does|must)\b/i;

/** The sentence in the readers' voice, the agent named `agent` ("the agent", or the spec's own name for it). */
export function voiced(
  sentence: string,
  agent = "the agent",
  knows: (verb: string) => boolean = () => true,
  next?: string,
  previous?: string,
  terms?: ReadonlyMap<string, string>,
  flow?: Parameters<typeof flowchartSteps>[0],
  banned = false,
): Voiced {
  // A chat's speaker ("**Mags:**") is no part of what is said; the quotes are the words after the name (voice-chat.ts).
  [sentence, next, previous] = [unspoken(sentence), unspoken(next), unspoken(previous)];
  // A sentence in capitals read in ordinary case, character for character (voice-case.ts); the quotes stay in the spec's capitals.
  const written = sentence;
  [sentence, next, previous] = [foldedCase(sentence), foldedCase(next), foldedCase(previous)];
  // An FAQ's answer, the sentence after a question ("Can the clerk …? No."), says what the question's words mean; an
  // answer that goes on to say the rule ("No. A balloon only launches if …") says it itself, and the question asks nothing more.
  const ownWords = answersInOwnWords(next);
  // "… ? That is exactly what we are here to prevent.": a "No" in the team's words (speakers.ts).
  const answer =
    next === undefined || ownWords
      ? undefined
      : deniesAsked(next)
        ? "no"
        : (/^(?:A\s*\d*[.:]\s*)?(no|yes)\b/i.exec(next)?.[1]?.toLowerCase() as "yes" | "no" | undefined);
  // A part of a rule its voice put in a sentence of its own is read with the sentence it belongs to (voice-joins.ts).
  // "A clean account check after the bar changes nothing.": the ban for good before it says so already (voice-riders.ts).
  if (
    readWithNeighbour(sentence, next) ||
    waitsForNext(sentence, next) ||
    (ownWords && ASKS_FIRST.test(sentence)) ||
    riderOfBan(sentence, previous) ||
    // The "No" of the question before it, in the team's words, is read with that question.
    (previous !== undefined && (ASKS_FIRST.test(unspoken(previous)!) || /\?\s*$/.test(previous)) && deniesAsked(sentence)) ||
    // "Item: payments to any one supplier …" before "Limit: £7,500.00 …": a table's row, read at its field (voice-table.ts).
    rowSubject(sentence, next)
  )
    return absorbed(unchanged(written));
  let v = tableRow(afterWait(withNeighbours(sentence, previous, next, agent), previous), previous);
  v = { ...v, original: written };
  // A bare act a "Don't" column or a "Never:" list bans, read as the ban its place makes it (banned-acts.ts).
  if (banned) v = readAsBan(v);
  // A contract's defined terms read as the tools they name (voice-terms.ts), then the voices of each round.
  v = withTerms(LABEL.apply(CLAUSE_NUMBER.apply(v)), terms, shouts(written));
  for (const step of [
    // Words before a figure that says them again go first ("seven thousand five hundred pounds
    // (£7,500.00)", voice-figures.ts), then other figures in words become digits: every later step
    // and reader reads digits (voice-numbers.ts).
    ...figureSteps(),
    ...numberSteps(),
    // "three lifts to the hour", "two refills to a customer": a rate's "to" is its "per" (voice-per.ts).
    ...perSteps(),
    // A flowchart's question and the answer that stops it, as a statement (flowchart.ts): before the
    // other steps, which read statements.
    ...flowchartSteps(flow),
    // An FAQ's question answered "No" or "Yes" as the statement it asks about, for the steps after it to read (faqSteps).
    ...faqSteps(agent, answer),
    ...otherSteps(),
    ...windowLeadSteps(),
    ...cardSteps(),
    ...chatSteps(agent, knows),
    ...recordSteps(),
    // "Agreed (proposed R.O., seconded J.K.): 4.2 Where …": the clause's number after the minute's lead-in goes too.
    CLAUSE_NUMBER,
    ...leadInSteps(),
    ...letterSteps(agent, knows),
    ...boundSteps(),
    ...contrastSteps(knows),
    ...formSteps(agent),
    // A Do/Don't page's or a slide's heading before its colon, after the forms' "Do" and lead-ins are gone (voice-headings.ts).
    ...headingSteps(agent, knows),
    ...asideSteps(agent, knows),
    ...steps(agent, knows, answer),
    // After the modals are "must" (steps above): a duty's condition put last, put first (voice-trailing.ts).
    ...trailingConditionSteps(),
    ...lateSteps(agent, knows),
    ...doneSteps(),
    ...dutySteps(),
    ...windowSteps(),
  ])
    v = step.apply(v);
  return v;
}

/** A reader's outcome with its quote (and its question's) in the spec's own words. */
export function inOriginalWords(outcome: ClauseOutcome, voiced: Voiced): ClauseOutcome {
  if (voiced.text === voiced.original) return outcome;
  if (outcome.kind === "check") return { ...outcome, check: { ...outcome.check, quote: originalQuote(voiced, outcome.check.quote) } };
  if (outcome.kind === "semantic") {
    const quote = originalQuote(voiced, outcome.semantic.quote);
    return { ...outcome, semantic: { quote, question: outcome.semantic.question.replace(outcome.semantic.quote, quote) } };
  }
  return outcome;
}
