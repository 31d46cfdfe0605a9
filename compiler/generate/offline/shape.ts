/**
 * How the offline drafter reads a rule sentence's shape: the agent's names
 * (the grammar), a leading condition ("After X,", "Before Y,"), the clauses
 * of the main part, and the cue words the clause readers (clauses.ts) look
 * for: prohibitions, negations, modals, passives, count bounds.
 */
import type { BehaviorSpec } from "../../behavior-md/load.js";
import { MEASURE_UNITS } from "./amounts.js";
import { splitReportedSpeech } from "./lexicon.js";
import { sectionSentences } from "./sentences.js";
import { alternation, comparisonOf, countLimits, countWordsAfter, countWordsBefore, NEGATED_COMPARISON } from "./comparisons.js";
import { NUMBER_WORD_LIST, parseCount } from "./words.js";

export type ConditionKind = "before" | "after" | "whenever" | "if" | "during";

/** A sentence cut into its leading condition ("After X,") and its main clauses. */
export interface SentenceShape {
  sentence: string;
  condition?: { kind: ConditionKind; phrase: string; text: string };
  clauses: string[];
}

export const CONDITION = /^(before|after|once|whenever|each time|every time|if|when|during|as soon as|upon)\s+(.+)$/i;
/** What a sentence that is only a condition does not write: an obligation of its own. */
const CONDITION_ONLY_NOT = /\b(?:must|should|shall|has to|have to|needs? to|never|may|can|cannot|is to|are to|always|only|then)\b|[,;:]/i;
export const PROHIBITION =
  /\b(?:never|must not|mustn't|may not|should not|shouldn't|shall not|cannot|can't|no further|no more(?! than)|(?:is|are) (?:a )?violations?|(?:is|are) forbidden|(?:is|are) not (?:allowed|permitted))\b/i;
/** "No run should include …", "no refund may go …", "no producer's deliveries may …": a subject with "no" and a modal forbids it; so do "nobody is paid …" and "no loan runs more than …". */
export const NO_SUBJECT =
  /^(?:no\s+(?:[\w'’-]+\s+){1,3}?(?:(?:from|for|of|on|at|to|by)\s+(?:that\s+same\s+|the\s+same\s+|that\s+|this\s+|the\s+)?[\w-]+\s+)?(?:should|may|must|can|shall|will)\b|no\s+(?:[\w'’-]+\s+){1,3}?[a-z]+s\s+(?:more|longer|fewer|less|over|above|beyond)\b|(?:nobody|no one|no-one)\b)/i;
/** "no matter what the customer says", "whatever the permit says": a concession adds no condition. */
export const CONCESSION =
  /,?\s+(?:no matter (?:what|how|who|whether|when)|whatever|however|whoever|regardless of|even if|even when|even though)\b.*$/i;
/** "before the session ends", "by the end of the conversation": the end of the trace, not a second event. */
export const SESSION_END =
  /,?\s+\b(?:before|by)\s+(?:the\s+end\s+of\s+the\s+(?:session|conversation|chat|run|call|interaction)|the\s+(?:session|conversation|chat|run|call|interaction)\s+(?:ends|is over|closes|finishes))\b/i;
/** Words that relate two events: a single forbidden pattern cannot say "X followed by Y". */
export const RELATIONAL = /\b(?:followed by|before|after|afterwards|without|unless|until|even if|instead of)\b/i;
export const NEGATION = /\b(?:not|n't|neither|nor|never|no|none|without)\b/i;
/**
 * Whether a condition describes an absence ("when the user has not said …"), which no event marks.
 * A value in backticks negates nothing ("a `log_discharge` with `planned: no`"), and a parenthesis
 * that names the event by a backticked `key: value` says which event it is, whatever the words before
 * it ("If a weapon goes off when it shouldn't (`log_discharge` with `planned: no`)").
 */
export function negatedCondition(phrase: string): boolean {
  if (/\([^()]*`[\w.-]+:\s*[^`]+`[^()]*\)/.test(phrase)) return false;
  return NEGATION.test(phrase.replace(/`[^`]*`/g, " "));
}
export const STRONG_CUE =
  /\b(?:must|never|always|every|each|whenever|at most|at least|no more than|fewer than|exactly|no further|violations?|should|shall|required|forbidden|only|capped at|limited to|(?:has|have|needs?) to)\b|^first\b.*\bthen\b|\b(?:needs?|requires?)\s[^:]*\bfirst\b/i;
/** A passive's auxiliary: "is", "gets", "must be", "has to be". */
export const PASSIVE = "(?:is|are|gets?|(?:must|should|shall|will|has to|have to|needs? to)\\s+(?:be|get))";
/** A past participle, regular or one of the common irregular ones. */
export const PARTICIPLE =
  "(?:\\w+(?:ed|en)|sent|run|put|set|kept|held|paid|made|done|told|shown|read|built|found|left|brought|bought|met|cut|shut|sold|spent)";
/** "the dispatcher's first job is to halt it": an obligation put as the agent's job. */
export const DUTY = /\b(?:job|task|duty|responsibility|priority)\s+is\s+to\s+(.+)$/i;
/** The session as a subject: "the session has to include a `save_progress` call". */
export const SESSION_SUBJECT =
  /^(?:the|each|every)\s+(?:session|conversation|transcript|trajectory)\s+(?:\w+\s+){0,3}?(?:include|contain|show)s?\b/i;
/** A modal verb phrase: "must", "must not", "has to", "may only". */
export const MODAL = "(?:must|should|shall|may|can|cannot|can't|never|has to|have to|needs? to|is required to)";
/** The words of a count bound, longest first ("no fewer than" before "fewer than"): the comparison table's (comparisons.ts) and "exactly". */
export const BOUND_WORDS = alternation([...countWordsBefore(), "exactly"]);
/** A number of things: digits or a number word ("at most two", "at least a"); "over the phone" counts nothing. */
const COUNT_NUMBER = `\\d+|${NUMBER_WORD_LIST.join("|")}`;
/** What a measure or an amount ends with: "more than 20 percent", "at most $500" are amounts.ts's, not counts. */
const NOT_AMOUNT = `(?![\\d.,]*\\s?(?:%|(?:percent|per cent|dollars?|euros?|pounds?|usd|eur|gbp|k)\\b|${MEASURE_UNITS}))`;
/** A number the bound words are about, unless it is an amount. */
// "add up to no more than 40": the "no" of the next bound is no number of its own.
export const COUNT = new RegExp(
  `\\b(${BOUND_WORDS})\\s+(${COUNT_NUMBER})\\b(?!\\s+(?:more|fewer|less|greater|higher|lower)\\s+than\\b)${NOT_AMOUNT}`,
  "i",
);
/** The bound written after the number and its noun: "90 tonnes at most", "two or fewer", "three call-outs or more". */
const COUNT_AFTER = new RegExp(
  // Not an amount ("$500 or more") nor a backticked key's value ("`dose_mg` is 100 at most": amounts.ts, bounds.ts).
  `(?<![$€£\\d.,]|\`[\\w.]*\`\\s+(?:(?:is|are|be|of|at)\\s+)?)\\b(\\d+|${NUMBER_WORD_LIST.filter((w) => w.length > 2 && !/^(?:once|twice|single)$/.test(w)).join("|")})\\b${NOT_AMOUNT}((?:\\s+[A-Za-z][\\w'-]*){0,2}?)\\s+(${alternation(countWordsAfter())})\\b`,
  "i",
);

/** A count's bound as written: its words, number, where it stands, and the words after the number (its noun). */
export interface CountBound {
  /** The bound words as written, lower case: "at most", "or fewer", "exactly". */
  words: string;
  n: number;
  min?: number;
  max?: number;
  index: number;
  end: number;
  /** The words after the number: "tablets in one session" after "at most 60", "tonnes" of "90 tonnes at most". */
  noun: string;
}

/** The first count bound of a clause, its words before the number ("at most 60 tablets") or after it ("60 tablets at most"). */
export function countBoundIn(clause: string): CountBound | undefined {
  const before = COUNT.exec(clause);
  const after = COUNT_AFTER.exec(clause);
  const pick = before !== null && (after === null || before.index <= after.index) ? "before" : after !== null ? "after" : undefined;
  if (pick === undefined) return undefined;
  const m = (pick === "before" ? before : after)!;
  const [words, number] = pick === "before" ? [m[1]!, m[2]!] : [m[3]!, m[1]!];
  const n = parseCount(number);
  if (n === undefined) return undefined;
  const said = words.toLowerCase().replace(/\s+/g, " ");
  const end = m.index + m[0].length;
  const noun = pick === "before" ? clause.slice(end) : m[2]!;
  if (said === "exactly") return { words: said, n, min: n, max: n, index: m.index, end, noun };
  const op = comparisonOf(said, pick)?.op;
  return op === undefined ? undefined : { words: said, n, ...countLimits(op, n), index: m.index, end, noun };
}

/** Whether a clause bounds a count of something: a bound word and a number. */
export function boundsCount(clause: string): boolean {
  return countBoundIn(clause) !== undefined;
}

/** How the spec names the agent: the usual words, plus a name of its own ("Sprout", "the dispatcher"). */
export interface Grammar {
  /** The agent (or a pronoun for it) as the subject at the start of a clause. */
  agentSubject: RegExp;
  /** Where a leading condition ends: at a comma followed by the agent. */
  mainSubject: RegExp;
  /** "Before each fill Pip runs …": without a comma, where the agent's name or noun starts the main clause. */
  bareSubject: RegExp;
  agentDenial: RegExp;
  /** "the assistant erases no records", "and gives no advice": a verb whose object is "no X" forbids doing it. */
  verbNo: RegExp;
  /** "At the end of the intake the assistant writes …": a time frame before the agent, like a condition. */
  timeFrame: RegExp;
  /** "… and it writes": a second clause with the agent as its subject. */
  andAgent: string;
  /** What to call the agent when a sentence is put in the readers' voice (voice.ts): the spec's name for it, else "the agent". */
  agent: string;
}

export const PRONOUNS = ["it", "they"];
export const AGENT_NOUNS = ["the agent", "the assistant", "the bot", "the model"];

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The patterns that find the agent in a clause, for the usual words and the spec's own names for it. */
export function grammarFor(names: readonly string[] = []): Grammar {
  const nouns = [...AGENT_NOUNS, ...names.map(escapeRegExp)].join("|");
  const subjects = `${nouns}|${PRONOUNS.join("|")}`;
  return {
    agentSubject: new RegExp(`^(?:${subjects})\\b`, "i"),
    mainSubject: new RegExp(`,\\s+(?=(?:${subjects})\\b)`, "i"),
    bareSubject: new RegExp(`\\s+(?=(?:${nouns})\\s+(?:[a-z]+s|must|never|always|only|first|has|does)\\b)`, "i"),
    agentDenial: new RegExp(`^(?:${subjects})\\s+(?:\\w+\\s+)?(?:does not|do not|doesn't|don't|never)\\b`, "i"),
    // "must make no payment", "shall give no advice", "carries out no inspection": a modal before the verb, a particle after it.
    verbNo: new RegExp(
      `^(?:(?:${subjects})\\s+)?(?:(?:must|shall|will|should|may)\\s+[a-z]+|[a-z]+s)(?:\\s+(?:out|through))?\\s+no\\s+(?!(?:more|fewer|less|later|earlier)\\s+than\\b)`,
      "i",
    ),
    timeFrame: new RegExp(`^(?:at|by|towards?|near)\\s+the\\s+(?:end|close|start|beginning)\\s+of\\s+[^,]*?,?\\s+(?=(?:${nouns})\\b)`, "i"),
    andAgent: `it|the agent|${names.map(escapeRegExp).join("|")}`.replace(/\|$/, ""),
    agent: names[0] ?? "the agent",
  };
}

export const DEFAULT_GRAMMAR = grammarFor();

/**
 * A name of its own the spec gives the agent: the description says whom the rules are for
 * ("Ground rules for Sprout, the … tutor", "Rules for the dispatcher agent that …") and the
 * preamble opens with it as its subject ("Sprout talks to …", "The dispatcher sits …").
 */
/** "Gull, the assistant …", "Quartermaster, the armoury assistant …", "ordering assistant Latch". */
const APPOSED_NAME =
  /\b([A-Z][a-z]{2,}),\s+(?:the|an?)\s+(?:[a-z][\w'-]*\s+){0,3}(?:assistant|agent|bot)\b|\b(?:assistant|agent|bot),?\s+([A-Z][a-z]{2,})\b/;

export function agentNames(spec: Pick<BehaviorSpec, "description" | "preamble">): string[] {
  const whom = /\bfor\s+(.+?)(?=\s+(?:that|who|which|with)\b|\s+[\u2014\u2013-]\s|[,;.:(]|$)/i.exec(spec.description)?.[1];
  const opening = sectionSentences(spec.preamble).find((s) => s.role !== "context")?.text;
  if (opening === undefined) return [];
  // "What Juniper, the recruiting assistant, must do" and "Juniper works for …": a proper name
  // that opens the preamble and that the description names too.
  const proper = /^([A-Z][a-z]+)\s+[a-z]+s\b/.exec(opening)?.[1];
  if (
    proper !== undefined &&
    !/^(?:The|This|That|These|Those|It|Its|Each|Every|Our|We|All|Any)$/.test(proper) &&
    new RegExp(`\\b${proper}\\b`).test(spec.description)
  )
    if (whom === undefined || !new RegExp(`^(?:the\\s+)?${escapeRegExp(proper)}\\b`, "i").test(whom)) return [proper];
  // "Rules for Gull, the assistant that runs the fuel dock", "binding the locksmith's ordering
  // assistant Latch, which …": a proper name the description sets beside the word for an assistant,
  // and the subject of a verb in the preamble ("Gull is the assistant …", "in which Latch takes an
  // Order"; not "Engineers ask Shipper for builds").
  const apposed = APPOSED_NAME.exec(spec.description);
  const named = apposed?.[1] ?? apposed?.[2];
  const acts = named !== undefined && new RegExp(`\\b${named}\\s+(?:is|has|may|must|can|[a-z]+s)\\b`).test(spec.preamble);
  if (named !== undefined && acts && (whom === undefined || whom.startsWith(named))) return [named];
  if (whom === undefined) return [];
  const article = /^(?:a|an|the)\s+/i.test(whom);
  const head = whom.replace(/^(?:a|an|the)\s+/i, "").trim();
  const candidates = [head, head.replace(/\s+(?:agent|assistant|bot|model)$/i, "")].filter((c) => c !== "");
  for (const name of candidates) {
    const written = article ? `the ${name}` : name;
    if (new RegExp(`^${escapeRegExp(written)}\\b`, "i").test(opening) && !AGENT_NOUNS.includes(written.toLowerCase())) return [written];
  }
  return [];
}

export const PURPOSE = /,?\s+(?:so that|so the|because|since|in order to)\b.*$/i;

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Cuts "After the agent escalates, it issues no further refunds, and it writes a note" into its parts. */
export function shapeSentence(sentence: string, grammar: Grammar = DEFAULT_GRAMMAR): SentenceShape {
  let main = sentence;
  let condition: SentenceShape["condition"];
  const lead = CONDITION.exec(sentence);
  if (lead !== null) {
    const comma = /,\s+/.exec(sentence);
    const bare = grammar.bareSubject.exec(sentence);
    const split =
      grammar.mainSubject.exec(sentence) ??
      (bare !== null && bare.index > lead[1]!.length && (comma === null || bare.index < comma.index) ? bare : comma);
    if (split !== null) {
      const word = lead[1]!.toLowerCase();
      const kind: ConditionKind =
        word === "before"
          ? "before"
          : word === "after" || word === "once" || word === "as soon as" || word === "upon"
            ? "after"
            : word === "during"
              ? "during"
              : word === "if" || word === "when"
                ? "if"
                : "whenever";
      const text = sentence.slice(0, split.index);
      condition = { kind, phrase: text.slice(lead[1]!.length).trim(), text };
      main = sentence.slice(split.index + split[0].length);
    } else if (/^(?:whenever|each time|every time|when|if)$/i.test(lead[1]!) && !CONDITION_ONLY_NOT.test(sentence)) {
      // "Whenever a withdrawal is more than 15 g.": a condition alone, the situation the next sentences are about.
      return {
        sentence,
        condition: { kind: /^(?:if|when)$/i.test(lead[1]!) ? "if" : "whenever", phrase: lead[2]!.trim(), text: sentence },
        clauses: [],
      };
    }
  }
  const state = condition === undefined ? stateSubject(sentence) : undefined;
  if (state !== undefined) return { sentence, condition: state.condition, clauses: [state.clause] };
  return { sentence, ...(condition !== undefined ? { condition } : {}), clauses: splitClauses(main, grammar) };
}

/**
 * "A correction that has been reversed is never paid off-cycle afterwards": a subject that names
 * the event after which the prohibition holds, like "Once a correction has been reversed, it is
 * never paid". The relative clause becomes the condition, the subject and its verb the clause.
 */
function stateSubject(sentence: string): { condition: NonNullable<SentenceShape["condition"]>; clause: string } | undefined {
  const match = new RegExp(
    `^((?:a|an|the|any|each|every)\\s+(?:[\\w-]+\\s+){0,3}?)(?:that|which|who)\\s+(?:has|have)\\s+(?:already\\s+)?been\\s+(${PARTICIPLE}\\b[^,;:]*?)\\s+((?:is|are)\\s+(?:never|not)\\s+${PARTICIPLE}\\b.*)$`,
    "i",
  ).exec(sentence);
  if (match === null) return undefined;
  const subject = match[1]!.trim();
  return {
    condition: { kind: "after", phrase: `${subject} has been ${match[2]!}`, text: "" },
    clause: `${subject.replace(/^(?:any|each|every)\b/i, "the")} ${match[3]!}`,
  };
}

/** "; " always separates; ", and it …" separates unless the part is one ordering ("X, and Y, before Z"). */
export function splitClauses(main: string, grammar: Grammar): string[] {
  return (
    main
      // "…and stops there: it must not open the account": a colon before the agent and a modal starts a clause.
      .split(new RegExp(`;\\s+|:\\s+(?=(?:${grammar.andAgent})\\s+(?:must|should|shall|may|cannot|can't|never|does not|doesn't)\\b)`, "i"))
      .flatMap((part) => {
        // Only a "before" of the rule itself keeps the part whole, not one in its purpose ("so that … before it lands")
        // or in what a colon elaborates ("… a fresh one: a reading taken before an earlier release …").
        const core = part
          .replace(PURPOSE, "")
          .replace(/:\s.*$/, "")
          .replace(SESSION_END, "");
        if (/\bbefore\b/i.test(core) && !/\bbefore\b.*,\s+(?:and|but)\s+/i.test(core)) return [part];
        // "… and it writes", "… and sends the person a message": a second verb phrase is a second clause.
        // "… must alert the lead and must not carry on": a second modal verb phrase keeps the subject too.
        return part.split(
          new RegExp(
            `,\\s+(?:and|but)\\s+(?!(?:${BOUND_WORDS})\\s)|\\s+and\\s+(?=(?:${grammar.andAgent})\\s)|\\s+and\\s+(?=[a-z]+s\\s+(?:the|a|an|it|them|to|no)\\s)|\\s+and\\s+(?=${MODAL}\\s)|\\s+and\\s+(?=no\\s+(?:[\\w-]+\\s+){1,3}?(?:is|are|gets?|may|must|should|can|will)\\s)`,
            "i",
          ),
        );
      })
      .map((c) => c.trim())
      .filter((c) => c !== "")
  );
}

/**
 * "the booking is never extended", "that account is not scheduled for shutoff again", "no kit is
 * dispensed to them": a negated passive as the clause's own verb forbids the act it names. Not one
 * after a relative pronoun ("an order that is not approved"), nor one that only waives a need ("is
 * not required") or states a state ("is not open").
 */
export const NEGATED_PASSIVE = new RegExp(
  `\\b(?:(?:is|are)\\s+(?:not|never)|no\\s+(?:[\\w-]+\\s+){1,3}?(?:(?:from|for|of|on|at|to|by)\\s+(?:that\\s+same\\s+|the\\s+same\\s+|that\\s+|this\\s+|the\\s+)?[\\w-]+\\s+)?(?:is|are|gets?))\\s+(?!(?:required|needed|necessary|expected|open)\\b)${PARTICIPLE}\\b`,
  "i",
);
/** "an order that is not approved", "a payment whose details are not verified": the negation describes the subject. */
const RELATIVE_NEGATION = /\b(?:(?:that|which|who)\s+|whose\s+(?:[\w-]+\s+){1,2}?)(?:is|are)\s+(?:not|never)\b/i;

/** Whether a clause forbids something: a prohibition, a denial by the agent, or a verb with "no" as its object. */
export function forbids(clause: string, grammar: Grammar): boolean {
  return (
    PROHIBITION.test(clause) ||
    NO_SUBJECT.test(clause) ||
    grammar.agentDenial.test(clause) ||
    grammar.verbNo.test(clause) ||
    forbidsByPassive(clause)
  );
}

/** Whether a clause forbids by a negated passive of its own ("the loan is not renewed again"). */
export function forbidsByPassive(clause: string): boolean {
  return NEGATED_PASSIVE.test(clause) && !RELATIVE_NEGATION.test(clause);
}

/** A clause that only qualifies the rule ("a lookup that comes back empty does not count"). */
export function isQualifier(clause: string, grammar: Grammar): boolean {
  if (forbids(clause, grammar)) return false;
  // "no more than once", "no greater than 40 tonnes" bound a count or a value (comparisons.ts); they negate nothing.
  const bounds = /\b(?:no|not) (?:later|earlier) than\b/gi;
  return NEGATION.test(splitReportedSpeech(clause).rest.replace(NEGATED_COMPARISON, " ").replace(bounds, " "));
}
