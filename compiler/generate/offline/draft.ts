/**
 * The offline drafter: a judge.yaml proposal without any model, from the
 * spec's wording and the samples' vocabulary. It reads each rule sentence for
 * a few fixed shapes ("Before X, Y", "X before Y", "Whenever X, afterwards
 * Y", "After X, no further Y", "at most N", "at least N different", "always",
 * "must", "every"), and picks the actions and metadata each side names. The
 * agent is "the agent", "it", or the name the spec gives it ("Sprout"). What
 * it cannot map becomes a semantic check whose quote is the clause itself, so
 * nothing the spec says is silently lost; the interview is where a person
 * corrects it.
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { Check, MetaBehavior, Pattern, SemanticCheck, Trigger } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import type { BehaviorSpec, SpecSection } from "../../behavior-md/load.js";
import {
  buildLexicon,
  followsInSamples,
  keyNamedBy,
  namesAgentAction,
  resolvePattern,
  splitReportedSpeech,
  type Lexicon,
} from "./lexicon.js";
import { sectionSentences, type SpecSentence } from "./sentences.js";
import type { Draft, DraftNote, Vocabulary } from "../types.js";
import { parseCount } from "./words.js";
import { previewRule } from "../preview.js";

export interface OfflineDraftInput {
  spec: BehaviorSpec;
  vocabulary: Vocabulary;
  /** The sample trajectories: their contents supply `contentIncludes` text. */
  samples: readonly Trajectory[];
}

type ConditionKind = "before" | "after" | "whenever" | "if" | "during";

/** A sentence cut into its leading condition ("After X,") and its main clauses. */
interface SentenceShape {
  sentence: string;
  condition?: { kind: ConditionKind; phrase: string; text: string };
  clauses: string[];
}

/** A clause the drafter turned into a check, or could not. */
type ClauseOutcome = { kind: "check"; check: Check } | { kind: "semantic"; semantic: SemanticCheck; reason: string } | { kind: "skip" };

const CONDITION = /^(before|after|once|whenever|each time|every time|if|when|during|as soon as)\s+(.+)$/i;
const PROHIBITION =
  /\b(?:never|must not|mustn't|may not|should not|shouldn't|shall not|cannot|can't|no further|no more(?! than)|(?:is|are) (?:a )?violations?|(?:is|are) forbidden|(?:is|are) not (?:allowed|permitted))\b/i;
/** Words that relate two events: a single forbidden pattern cannot say "X followed by Y". */
const RELATIONAL = /\b(?:followed by|before|after|afterwards|without|unless|until|even if|instead of)\b/i;
const NEGATION = /\b(?:not|n't|neither|nor|never|no|none|without)\b/i;
const STRONG_CUE =
  /\b(?:must|never|always|every|each|whenever|at most|at least|no more than|fewer than|exactly|no further|violations?|should|shall|required|forbidden|only|(?:has|have|needs?) to)\b|^first\b.*\bthen\b/i;
/** A passive's auxiliary: "is", "gets", "must be", "has to be". */
const PASSIVE = "(?:is|are|gets?|(?:must|should|shall|will|has to|have to|needs? to)\\s+(?:be|get))";
/** A past participle, regular or one of the common irregular ones. */
const PARTICIPLE =
  "(?:\\w+(?:ed|en)|sent|run|put|set|kept|held|paid|made|done|told|shown|read|built|found|left|brought|bought|met|cut|shut|sold|spent)";
/** "the dispatcher's first job is to halt it": an obligation put as the agent's job. */
const DUTY = /\b(?:job|task|duty|responsibility|priority)\s+is\s+to\s+(.+)$/i;
/** The session as a subject: "the session has to include a `save_progress` call". */
const SESSION_SUBJECT =
  /^(?:the|each|every)\s+(?:session|conversation|transcript|trajectory)\s+(?:\w+\s+){0,3}?(?:include|contain|show)s?\b/i;
/** A modal verb phrase: "must", "must not", "has to", "may only". */
const MODAL = "(?:must|should|shall|may|can|cannot|can't|never|has to|have to|needs? to|is required to)";
/** The words of a count bound, longest first: "no fewer than" before "fewer than". */
const BOUND_WORDS =
  "at most|at least|no more than|not more than|no fewer than|not fewer than|no less than|not less than|fewer than|less than|more than|up to|exactly|capped at|limited to|a maximum of|a minimum of";
const COUNT = new RegExp(`\\b(${BOUND_WORDS})\\s+(\\w+)`, "i");
const MIN_BOUNDS = new Set(["at least", "no fewer than", "not fewer than", "no less than", "not less than", "a minimum of"]);

/** The limits a bound word sets on a count of n: "capped at three" is at most 3, "no fewer than two" at least 2. */
function limitsOf(bound: string, n: number): { min?: number; max?: number } {
  if (MIN_BOUNDS.has(bound)) return { min: n };
  if (bound === "more than") return { min: n + 1 };
  if (bound === "fewer than" || bound === "less than") return { max: Math.max(0, n - 1) };
  if (bound === "exactly") return { min: n, max: n };
  return { max: n };
}

/** Whether a clause bounds a count of something: a bound word and a number. */
function boundsCount(clause: string): boolean {
  const count = COUNT.exec(clause);
  return count !== null && parseCount(count[2]!) !== undefined;
}

/** How the spec names the agent: the usual words, plus a name of its own ("Sprout", "the dispatcher"). */
export interface Grammar {
  /** The agent (or a pronoun for it) as the subject at the start of a clause. */
  agentSubject: RegExp;
  /** Where a leading condition ends: at a comma followed by the agent. */
  mainSubject: RegExp;
  agentDenial: RegExp;
  /** "the assistant erases no records", "and gives no advice": a verb whose object is "no X" forbids doing it. */
  verbNo: RegExp;
  /** "At the end of the intake the assistant writes …": a time frame before the agent, like a condition. */
  timeFrame: RegExp;
  /** "… and it writes": a second clause with the agent as its subject. */
  andAgent: string;
}

const PRONOUNS = ["it", "they"];
const AGENT_NOUNS = ["the agent", "the assistant", "the bot", "the model"];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The patterns that find the agent in a clause, for the usual words and the spec's own names for it. */
export function grammarFor(names: readonly string[] = []): Grammar {
  const nouns = [...AGENT_NOUNS, ...names.map(escapeRegExp)].join("|");
  const subjects = `${nouns}|${PRONOUNS.join("|")}`;
  return {
    agentSubject: new RegExp(`^(?:${subjects})\\b`, "i"),
    mainSubject: new RegExp(`,\\s+(?=(?:${subjects})\\b)`, "i"),
    agentDenial: new RegExp(`^(?:${subjects})\\s+(?:\\w+\\s+)?(?:does not|do not|doesn't|don't|never)\\b`, "i"),
    verbNo: new RegExp(`^(?:(?:${subjects})\\s+)?[a-z]+s\\s+no\\s+(?!(?:more|fewer|less|later|earlier)\\s+than\\b)`, "i"),
    timeFrame: new RegExp(`^(?:at|by|towards?|near)\\s+the\\s+(?:end|close|start|beginning)\\s+of\\s+[^,]*?,?\\s+(?=(?:${nouns})\\b)`, "i"),
    andAgent: `it|the agent|${names.map(escapeRegExp).join("|")}`.replace(/\|$/, ""),
  };
}

const DEFAULT_GRAMMAR = grammarFor();

/**
 * A name of its own the spec gives the agent: the description says whom the rules are for
 * ("Ground rules for Sprout, the … tutor", "Rules for the dispatcher agent that …") and the
 * preamble opens with it as its subject ("Sprout talks to …", "The dispatcher sits …").
 */
export function agentNames(spec: Pick<BehaviorSpec, "description" | "preamble">): string[] {
  const whom = /\bfor\s+(.+?)(?=\s+(?:that|who|which|with)\b|\s+[\u2014\u2013-]\s|[,;.:(]|$)/i.exec(spec.description)?.[1];
  const opening = sectionSentences(spec.preamble)[0]?.text;
  if (whom === undefined || opening === undefined) return [];
  const article = /^(?:a|an|the)\s+/i.test(whom);
  const head = whom.replace(/^(?:a|an|the)\s+/i, "").trim();
  const candidates = [head, head.replace(/\s+(?:agent|assistant|bot|model)$/i, "")].filter((c) => c !== "");
  for (const name of candidates) {
    const written = article ? `the ${name}` : name;
    if (new RegExp(`^${escapeRegExp(written)}\\b`, "i").test(opening) && !AGENT_NOUNS.includes(written.toLowerCase())) return [written];
  }
  return [];
}

const PURPOSE = /,?\s+(?:so that|so the|because|since|in order to)\b.*$/i;

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Cuts "After the agent escalates, it issues no further refunds, and it writes a note" into its parts. */
export function shapeSentence(sentence: string, grammar: Grammar = DEFAULT_GRAMMAR): SentenceShape {
  let main = sentence;
  let condition: SentenceShape["condition"];
  const lead = CONDITION.exec(sentence);
  if (lead !== null) {
    const split = grammar.mainSubject.exec(sentence) ?? /,\s+/.exec(sentence);
    if (split !== null) {
      const word = lead[1]!.toLowerCase();
      const kind: ConditionKind =
        word === "before"
          ? "before"
          : word === "after" || word === "once" || word === "as soon as"
            ? "after"
            : word === "during"
              ? "during"
              : word === "if" || word === "when"
                ? "if"
                : "whenever";
      const text = sentence.slice(0, split.index);
      condition = { kind, phrase: text.slice(lead[1]!.length).trim(), text };
      main = sentence.slice(split.index + split[0].length);
    }
  }
  return { sentence, ...(condition !== undefined ? { condition } : {}), clauses: splitClauses(main, grammar) };
}

/** "; " always separates; ", and it …" separates unless the part is one ordering ("X, and Y, before Z"). */
function splitClauses(main: string, grammar: Grammar): string[] {
  return main
    .split(/;\s+/)
    .flatMap((part) => {
      if (/\bbefore\b/i.test(part) && !/\bbefore\b.*,\s+(?:and|but)\s+/i.test(part)) return [part];
      // "… and it writes", "… and sends the person a message": a second verb phrase is a second clause.
      // "… must alert the lead and must not carry on": a second modal verb phrase keeps the subject too.
      return part.split(
        new RegExp(
          `,\\s+(?:and|but)\\s+(?!(?:${BOUND_WORDS})\\s)|\\s+and\\s+(?=(?:${grammar.andAgent})\\s)|\\s+and\\s+(?=[a-z]+s\\s+(?:the|a|an|it|them|to|no)\\s)|\\s+and\\s+(?=${MODAL}\\s)`,
          "i",
        ),
      );
    })
    .map((c) => c.trim())
    .filter((c) => c !== "");
}

/** Whether a clause forbids something: a prohibition, a denial by the agent, or a verb with "no" as its object. */
function forbids(clause: string, grammar: Grammar): boolean {
  return PROHIBITION.test(clause) || grammar.agentDenial.test(clause) || grammar.verbNo.test(clause);
}

/** A clause that only qualifies the rule ("a lookup that comes back empty does not count"). */
function isQualifier(clause: string, grammar: Grammar): boolean {
  if (forbids(clause, grammar)) return false;
  // "no more than once" bounds a count; it negates nothing.
  const bounds = /\b(?:no|not) (?:more|fewer|less|later|earlier) than\b/gi;
  return NEGATION.test(splitReportedSpeech(clause).rest.replace(bounds, " "));
}

interface ClauseContext {
  lexicon: Lexicon;
  grammar: Grammar;
  shape: SentenceShape;
  /** Index of the clause in the sentence; the first one's quote includes the condition. */
  index: number;
}

/** "… applies no further migrations and sends the person a message": the second verb keeps the first subject. */
function continuesAgentClause(context: ClauseContext, clause: string): boolean {
  const verb = /^(?!(?:the|a|an|it|this|that|its|is|was|has|does|as|always|sometimes)\b)[a-z]+s\b/.test(clause);
  // "… must alert the lead and must not carry on": a bare modal continues the subject as well.
  if (context.index === 0 || !(verb || new RegExp(`^${MODAL}\\b`, "i").test(clause))) return false;
  const previous = context.shape.clauses[context.index - 1] ?? "";
  return context.grammar.agentSubject.test(previous) || continuesAgentClause({ ...context, index: context.index - 1 }, previous);
}

/** Whether the agent is the one acting in the clause. */
function agentActs(context: ClauseContext, clause: string): boolean {
  return (
    context.grammar.agentSubject.test(clause.replace(context.grammar.timeFrame, "")) ||
    namesAgentAction(context.lexicon, clause) ||
    continuesAgentClause(context, clause)
  );
}

/**
 * Whether the clause has the agent do something, with it as the subject or without a subject:
 * "the session has to include a `save_progress` call" (a session includes what the agent does in
 * it); and, within a situation, a passive naming no one who does it ("the supervisor gets paged")
 * whose verb phrase is some agent action's.
 */
function agentDoes(context: ClauseContext, clause: string): boolean {
  if (agentActs(context, clause) || SESSION_SUBJECT.test(clause)) return true;
  const situated = context.shape.condition !== undefined && context.shape.condition.kind !== "before";
  const passive = new RegExp(`\\b${PASSIVE}\\s+(${PARTICIPLE}\\b(?!\\s+by\\b).*)$`, "i").exec(clause);
  // Only a verb phrase that names some agent action: "that robot is finished working for now" names none.
  return situated && passive !== null && resolvePattern(context.lexicon, passive[1]!, { agentOnly: true }) !== undefined;
}

/** The verbatim quote for a clause: the first clause carries the sentence's condition with it. */
function quoteFor(context: ClauseContext, clause: string): string {
  const { shape } = context;
  if (shape.clauses.length === 1) return shape.sentence.replace(PURPOSE, "");
  if (context.index === 0 && shape.condition !== undefined) {
    const end = shape.sentence.indexOf(clause) + clause.length;
    return shape.sentence.slice(0, end).replace(PURPOSE, "");
  }
  return clause.replace(PURPOSE, "");
}

function semanticFor(quote: string, forbidding: boolean, reason: string): ClauseOutcome {
  const question = forbidding
    ? `Judging by this session, did the agent avoid what this forbids: "${quote}"?`
    : `Judging by this session, did the agent do what this requires: "${quote}"?`;
  return { kind: "semantic", semantic: { quote, question }, reason };
}

/** The pattern of the sentence's leading condition, when it sets an "after" window. */
function afterWindow(context: ClauseContext): Pattern | undefined | "unresolved" {
  const condition = context.shape.condition;
  if (condition === undefined || (condition.kind !== "after" && condition.kind !== "if")) return undefined;
  if (NEGATION.test(condition.phrase)) return "unresolved";
  return resolvePattern(context.lexicon, condition.phrase) ?? "unresolved";
}

function withWindow<T extends Check>(check: T, window: Pattern | undefined): T {
  return window === undefined ? check : { ...check, after: window };
}

/** Verbs that only say an event takes place: they name no action of their own. */
const OCCUR = /^(?:come|happen|occur|follow|appear|take place|be)$/i;
/** "once" that starts a clause ("once the checker has replied"), not a count ("once per session", "once a day"). */
const ONCE_CLAUSE = /^(?!(?:per|a|an|every|each|in|during|more|again|only)\b)\S/i;

/**
 * "Y may only appear after X", "Y can only be banned once X", "Y is only submitted after X",
 * "Y only goes to a robot once X": the later event (subject and verb phrase) and the first one.
 */
function laterEvent(clause: string): { later: string; first: string } | undefined {
  const modal = /^(.*?)\s+(?:must|should|may|can)\s+(?:only\s+)?(?:be\s+)?(\w+(?:\s+place)?)\s+(?:only\s+)?(after|once)\s+(.+)$/i.exec(
    clause,
  );
  const only = /^(.*?)\s+(?:(?:is|are)\s+)?only\s+(.*?)\s*\b(after|once)\s+(.+)$/i.exec(clause);
  const match = modal ?? only;
  if (match === null || match[1]!.trim() === "") return undefined;
  if (match[3]!.toLowerCase() === "once" && !ONCE_CLAUSE.test(match[4]!)) return undefined;
  const verb = OCCUR.test(match[2]!) ? "" : match[2]!;
  return { later: `${match[1]!} ${verb}`.trim(), first: match[4]! };
}

function orderingFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  const { lexicon, shape } = context;
  let firstPhrase: string | undefined;
  let beforePhrase: string | undefined;
  const inner = /^(.*?)\s*,?\s+before\s+(.+)$/i.exec(clause);
  // "Y must come after X", "the agent does Y only after X": X is what comes first.
  // "A user can only be banned once they have been warned": the participle is the later event.
  // "An expense is only submitted after X", "a solution may only appear after X", "a job only goes
  // to a robot once X": whatever the verb phrase between the modal or "only" and "after", it is Y's.
  const mustFollow = laterEvent(clause);
  const firstThen = /^first\s+(.+?),?\s+(?:and\s+)?then\s+(.+)$/i.exec(clause);
  // "No migration may be applied until X", "the agent never drops a table unless X", "never X without having Y".
  const until = /^(.*?)\s+(?:until|unless|without\s+(?:first\s+)?(?:having\s+)?(?=\w+(?:ed|en|ing)\b))\s*(.+)$/i.exec(clause);
  if (until !== null && NEGATION.test(until[1]!))
    [firstPhrase, beforePhrase] = [until[2]!, until[1]!.replace(/\b(?:must|may|can|should)?\s*(?:never|not|no)\b/gi, " ")];
  else if (inner !== null && (context.grammar.agentSubject.test(inner[1]!) || namesAgentAction(lexicon, inner[1]!)))
    [firstPhrase, beforePhrase] = [inner[1]!, inner[2]!];
  else if (mustFollow !== undefined) [firstPhrase, beforePhrase] = [mustFollow.first, mustFollow.later];
  else if (firstThen !== null) [firstPhrase, beforePhrase] = [firstThen[1]!, firstThen[2]!];
  else if (shape.condition?.kind === "before" && context.index === 0) [firstPhrase, beforePhrase] = [clause, shape.condition.phrase];
  if (firstPhrase === undefined || beforePhrase === undefined) return undefined;
  let before = resolvePattern(lexicon, beforePhrase);
  let first = resolvePattern(lexicon, firstPhrase.replace(COUNT, " "));
  // "runs a migration in dry-run mode before it applies it": the pronoun borrows the other side's action.
  const pronoun = /\b(?:it|them|this|that one)\b/i;
  if (before === undefined && first !== undefined && pronoun.test(beforePhrase))
    before = resolvePattern(lexicon, `${beforePhrase} ${actionWords(first)}`);
  if (first === undefined && before !== undefined && pronoun.test(firstPhrase))
    first = resolvePattern(lexicon, `${firstPhrase} ${actionWords(before)}`);
  if (before === undefined || first === undefined || samePattern(first, before)) {
    return semanticFor(quote, false, "the drafter could not tell which sample events each side of this ordering is");
  }
  return { kind: "check", check: { type: "ordering", quote, first, before } };
}

function pairingFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  const { lexicon, shape } = context;
  let eachPhrase: string | undefined;
  let followerPhrase: string | undefined;
  const each =
    /^(?:each|every)\s+(.+?)\s+(?:gets|receives|needs|requires|must get|must be followed by|is followed by|is answered by|must be answered by)\s+(.+)$/i.exec(
      clause,
    );
  // "Every email classified as urgent is forwarded to a human afterwards": the passive verb is the follower.
  // "Each lock has to be matched by an unlock later", "every answer is sent to the checker": any auxiliary.
  const passive = new RegExp(`^(?:each|every)\\s+(.+?)\\s+${PASSIVE}\\s+(${PARTICIPLE}\\b.*)$`, "i").exec(clause);
  let tentative = false;
  const afterEach = shape.condition?.kind === "after" && /^(?:each|every)\s+/i.test(shape.condition.phrase);
  if (shape.condition?.kind === "whenever" || afterEach) {
    eachPhrase = shape.condition!.phrase.replace(/^(?:each|every)\s+/i, "");
    followerPhrase = clause;
  } else if (each !== null && /\b(?:later|afterwards|after|then|followed)\b/i.test(clause)) {
    eachPhrase = each[1]!;
    const rest = each[2]!;
    followerPhrase = rest.includes(":") ? rest.slice(rest.indexOf(":") + 1) : rest;
  } else if (passive !== null) {
    [eachPhrase, followerPhrase] = [passive[1]!, passive[2]!];
    // Without "later" or "afterwards" the order is the samples' to say.
    tentative = !/\b(?:later|afterwards|then)\b/i.test(passive[2]!);
  }
  if (eachPhrase === undefined || followerPhrase === undefined) return undefined;
  const first = resolvePattern(lexicon, eachPhrase);
  const follower = resolvePattern(lexicon, followerPhrase.replace(/\b(?:afterwards|later|then)\b/gi, " "));
  if (
    tentative &&
    (first === undefined || follower === undefined || samePattern(first, follower) || !followsInSamples(lexicon, first, follower))
  )
    return undefined;
  if (first === undefined || follower === undefined || samePattern(first, follower)) {
    return semanticFor(quote, false, "the drafter could not tell which sample events are paired here");
  }
  return { kind: "check", check: { type: "pairing", quote, each: first, followedBy: follower } };
}

function countFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  const count = COUNT.exec(clause);
  if (count === null) return undefined;
  const n = parseCount(count[2]!);
  if (n === undefined) return undefined;
  const bound = count[1]!.toLowerCase();
  let limits = limitsOf(bound.replace(/\s+/g, " "), n);
  // "Removing more than three posts is not allowed": a forbidden range is the complement of the allowed one.
  const negated = forbids(clause.replace(COUNT, " "), context.grammar) && !/\b(?:no|not) (?:more|fewer|less) than\b/i.test(clause);
  if (negated) {
    if (limits.min !== undefined && limits.max === undefined) limits = { max: limits.min - 1 };
    else if (limits.max !== undefined && limits.min === undefined) limits = { min: limits.max + 1 };
    else return undefined;
  }
  const distinct = /\b(?:different|distinct|unique|separate)\s+([\w-]+)/i.exec(clause);
  const match = resolvePattern(context.lexicon, clause, { agentOnly: true, ...(distinct !== null ? { ignore: distinct[1]! } : {}) });
  const window = afterWindow(context);
  if (match === undefined || window === "unresolved")
    return semanticFor(quote, false, "the drafter could not tell which sample events are counted");
  let distinctBy: string | undefined;
  if (distinct !== null) {
    const key = keyNamedBy(
      context.lexicon,
      match.flatMap((m) => {
        const action = exactValue(m.action);
        return action === undefined ? [] : [action];
      }),
      distinct[1]!,
    );
    distinctBy = key === undefined ? "content" : `metadata.${key}`;
  }
  const check: Check = { type: "count", quote, match, ...limits, ...(distinctBy !== undefined ? { distinctBy } : {}) };
  return { kind: "check", check: withWindow(check, window) };
}

function forbiddenFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  if (!forbids(clause, context.grammar)) return undefined;
  // Only what the agent does can be forbidden by one pattern; "X followed by Y is a violation" needs two.
  const byAgent = agentActs(context, clause);
  // "never archives an email it has not read": a condition on the object needs more than one pattern.
  const cue = PROHIBITION.exec(clause) ?? context.grammar.agentDenial.exec(clause) ?? context.grammar.verbNo.exec(clause);
  // A parenthesis restates what is forbidden ("carry on with the lesson (no new problems)"): it adds no condition.
  const forbiddenPart = (cue === null ? clause : clause.slice(cue.index + cue[0].length)).replace(/\([^)]*\)/g, " ");
  const conditional =
    NEGATION.test(forbiddenPart) ||
    /\b(?:which|who|whose)\b|\bthat\s+(?:it|they|the agent|has|have|had|is|are|was|were)\b/i.test(forbiddenPart);
  if (!byAgent || conditional || RELATIONAL.test(clause))
    return semanticFor(quote, true, "the drafter could not tell which single agent action this forbids");
  const match = resolvePattern(context.lexicon, clause, { agentOnly: true });
  const window = afterWindow(context);
  if (match === undefined || window === "unresolved")
    return semanticFor(quote, true, "the drafter could not tell which sample events this forbids");
  return { kind: "check", check: withWindow({ type: "forbidden", quote, match }, window) };
}

function requiredFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  const window = afterWindow(context);
  // "X's first job is to halt it": what the agent is to do is the infinitive, up to a colon that elaborates.
  const duty = DUTY.exec(clause);
  const demanded =
    /\b(?:always|must|every|each|shall|is required to|(?:has|have|needs?) to)\b/i.test(clause) ||
    duty !== null ||
    context.grammar.timeFrame.test(clause);
  if (!demanded && window === undefined) return undefined;
  if (!agentDoes(context, clause) && !/^(?:always|every|each)\b/i.test(clause)) return undefined;
  const match = resolvePattern(context.lexicon, duty?.[1]?.replace(/:.*$/, "") ?? clause, { agentOnly: true });
  if (match === undefined || window === "unresolved")
    return semanticFor(quote, false, "the drafter could not tell which sample event shows this");
  return { kind: "check", check: withWindow({ type: "required", quote, match }, window) };
}

/** Whether a clause states a rule at all, rather than describing or qualifying one. */
function isRuleClause(context: ClauseContext, clause: string): boolean {
  if (STRONG_CUE.test(clause) || boundsCount(clause) || forbids(clause, context.grammar)) return true;
  const weak =
    context.shape.condition !== undefined || context.grammar.timeFrame.test(clause) || /\b(?:before|after|afterwards|then)\b/i.test(clause);
  return weak && agentDoes(context, clause);
}

/** One clause → a check, a semantic check, or nothing. */
function draftClause(context: ClauseContext, rawClause: string): ClauseOutcome {
  const clause = rawClause.replace(PURPOSE, "");
  const quote = quoteFor(context, rawClause);
  // "No X until Y" and "never X unless Y" are orderings, not qualifiers.
  if (/\b(?:until|unless|without)\b/i.test(clause) && NEGATION.test(clause.replace(/\bwithout\b.*$/i, ""))) {
    const ordering = orderingFrom(context, clause, quote);
    if (ordering !== undefined) return ordering;
  }
  if (isQualifier(clause, context.grammar) || !isRuleClause(context, clause)) return { kind: "skip" };
  const forbidding = forbids(clause, context.grammar);
  // An ordering context ("Before answering, … at least one …") says more than a count of one;
  // "at least two different …" says more than the ordering, which one event satisfies.
  const several = COUNT.exec(clause);
  const countFirst = several !== null && /^at least$/i.test(several[1]!) && (parseCount(several[2]!) ?? 0) >= 2;
  const attempts = forbidding
    ? [countFrom, forbiddenFrom]
    : context.shape.condition?.kind === "before" || /\bbefore\b/i.test(clause)
      ? countFirst
        ? [countFrom, orderingFrom, requiredFrom]
        : [orderingFrom, countFrom, requiredFrom]
      : [pairingFrom, orderingFrom, countFrom, requiredFrom];
  for (const attempt of attempts) {
    const outcome = attempt(context, clause, quote);
    if (outcome !== undefined) return outcome;
  }
  return semanticFor(quote, forbidding, "the drafter found no deterministic shape in this clause");
}

function actionWords(pattern: Pattern): string {
  return pattern.map((m) => (exactValue(m.action) ?? "").replace(/[_-]+/g, " ")).join(" ");
}

function samePattern(a: Pattern, b: Pattern): boolean {
  const key = (p: Pattern) =>
    p
      .map((m) => JSON.stringify(m))
      .sort()
      .join("|");
  return key(a) === key(b);
}

/** The trigger: the occurrence line, else the first condition, else the first check's own subject. */
function draftTrigger(
  lexicon: Lexicon,
  section: SpecSection,
  sentences: SpecSentence[],
  shapes: SentenceShape[],
  checks: Check[],
): Trigger {
  const occurrence = sentences.find((s) => s.role === "occurrence");
  if (occurrence !== undefined) {
    const subject = occurrence.text
      .replace(/^(?:each|every)\s+/i, "")
      .replace(/\s+(?:is|counts as|are)\s+(?:one|an|a single)\s+occurrences?.*$/i, "");
    const match = resolvePattern(lexicon, subject);
    if (match !== undefined) return { description: `${occurrence.text}.`, match };
  }
  // Only the opening sentence's condition says when the whole rule applies.
  const condition = shapes[0]?.condition;
  if (condition !== undefined) {
    // "When … and the user has not said …" describes an absence: no event can mark it.
    const match = NEGATION.test(condition.phrase) ? undefined : resolvePattern(lexicon, condition.phrase);
    if (match !== undefined) return { description: `${capitalize(condition.phrase)}.`, match };
    if (condition.kind === "if") return { description: `${capitalize(condition.phrase)}.`, semantic: true };
  }
  // When the opening sentence sets no frame of its own, a check windowed by a situation ("When the
  // screen comes back flagged, … must …") says when the rule applies. One that does ("During a
  // rollout, …") covers the whole rule, even when no event marks it.
  const windowed =
    condition === undefined ? checks.find((c) => (c.type === "required" || c.type === "forbidden") && c.after !== undefined) : undefined;
  const first = windowed ?? checks[0];
  const subject = first === undefined ? undefined : checkSubject(first);
  if (subject !== undefined) return { description: `${describePattern(subject)} occurs.`, match: subject };
  return { description: `The situation that "${section.heading}" is about arises in the session.`, semantic: true };
}

/** "A deploy event" / "An issue_refund or issue_store_credit event" for trigger descriptions. */
function describePattern(pattern: Pattern): string {
  const parts = pattern.map((m) => {
    const what = m.action ?? (m.actor === undefined ? "matching" : `${m.actor}`);
    const facts = Object.entries(m.metadata ?? {}).map(([k, v]) => `${k} ${v}`);
    if (m.contentIncludes !== undefined) facts.push(`mentioning "${m.contentIncludes}"`);
    return facts.length === 0 ? what : `${what} (${facts.join(", ")})`;
  });
  const text = `${parts.join(" or ")} event`;
  return `${/^[aeiou]/i.test(text) ? "An" : "A"} ${text}`;
}

/** The events a check is about: what is ordered, paired, windowed or counted. */
function checkSubject(check: Check): Pattern | undefined {
  switch (check.type) {
    case "ordering":
      return check.before;
    case "pairing":
      return check.each;
    case "count":
      // A trigger on the counted event itself could never let "too few" fail: none is too few.
      return check.after ?? ((check.min ?? 0) > 0 ? [{ actor: "agent" }] : check.match);
    case "required":
    case "forbidden":
      return check.after ?? [{ actor: "agent" }];
  }
}

/** A condition that only points back ("After that, …"): the situation of the sentence before. */
const ANAPHORIC = /^(?:that|this|which|then)$/i;

/**
 * The sentence read in the situation the section has set up: "After that, the supervisor gets
 * paged" is after what the previous condition named, and a sentence with no condition of its own
 * follows one that set up a situation and demanded nothing ("… that robot is finished working").
 */
function inSituation(shape: SentenceShape, situation: SentenceShape["condition"], last: SentenceShape["condition"]): SentenceShape {
  if (shape.condition === undefined) return situation === undefined ? shape : { ...shape, condition: { ...situation, text: "" } };
  if (ANAPHORIC.test(shape.condition.phrase) && last !== undefined) return { ...shape, condition: { ...last, text: shape.condition.text } };
  return shape;
}

/** Drafts one meta-behavior from its section. */
export function draftSection(
  lexicon: Lexicon,
  section: SpecSection,
  grammar: Grammar = DEFAULT_GRAMMAR,
): { rule: MetaBehavior; notes: Omit<DraftNote, "rule">[] } {
  const sentences = sectionSentences(section.body);
  const ruleSentences = sentences.filter((s) => s.role === "rule");
  const shapes = ruleSentences.map((s) => shapeSentence(s.text, grammar));
  const checks: Check[] = [];
  const semanticChecks: SemanticCheck[] = [];
  const notes: Omit<DraftNote, "rule">[] = [];
  let situation: SentenceShape["condition"];
  let last: SentenceShape["condition"];
  for (const written of shapes) {
    const shape = inSituation(written, situation, last);
    last = shape.condition ?? last;
    const outcomes = shape.clauses.map((clause, index) => draftClause({ lexicon, grammar, shape, index }, clause));
    // "When a status result reports the battery as low, that robot is finished working for now.":
    // a condition whose own sentence demands nothing sets up the situation the next sentences are about.
    if (written.condition !== undefined) situation = outcomes.every((o) => o.kind === "skip") ? shape.condition : undefined;
    outcomes.forEach((outcome) => {
      if (outcome.kind === "check") checks.push(outcome.check);
      else if (outcome.kind === "semantic") {
        notes.push({
          clause: { kind: "semanticCheck", index: semanticChecks.length },
          kind: "unmapped-clause",
          message: `${outcome.reason}; it became a semantic question: edit it or map it to events`,
        });
        semanticChecks.push(outcome.semantic);
      }
    });
  }
  if (checks.length === 0 && semanticChecks.length === 0) {
    // Every rule needs a clause; the section's first sentence stands for the whole rule.
    const quote = ruleSentences[0]?.text ?? sentences[0]?.text ?? section.heading;
    const fallback = semanticFor(quote, false, "the drafter found no rule sentence in this section") as Extract<
      ClauseOutcome,
      { kind: "semantic" }
    >;
    notes.push({
      clause: { kind: "semanticCheck", index: 0 },
      kind: "unmapped-clause",
      message: `${fallback.reason}; it became a semantic question: edit it or map it to events`,
    });
    semanticChecks.push(fallback.semantic);
  }
  const trigger = draftTrigger(lexicon, section, sentences, shapes, checks);
  if (trigger.semantic === true)
    notes.push({
      clause: { kind: "trigger" },
      kind: "unmapped-clause",
      message: "no sample event marks when this rule applies, so a model decides (semantic trigger)",
    });
  // judge.yaml forbids an empty source: an empty section's rule has none.
  return {
    rule: { name: section.heading, trigger, checks, semanticChecks, ...(section.body === "" ? {} : { source: section.body }) },
    notes,
  };
}

/**
 * Samples mix sessions that keep a rule and sessions that break it, so a reading under which
 * none of them keeps it is implausible: "never repeats personal data in a chat reply" read as
 * "never replies". While the drafted rule passes no sample and fails several, the check that
 * fails the most samples goes back to being a question, with a note saying why.
 */
function plausible(drafted: { rule: MetaBehavior; notes: Omit<DraftNote, "rule">[] }, samples: readonly Trajectory[]): typeof drafted {
  let { rule, notes } = drafted;
  for (;;) {
    const preview = previewRule(rule, samples);
    if (rule.checks.length === 0 || preview.rule.pass.length > 0 || preview.rule.fail.length < 2) return { rule, notes };
    const fails = preview.clauses.filter((c) => c.clause.kind === "check").map((c) => c.samples.fail.length);
    const worst = fails.indexOf(Math.max(...fails));
    const check = rule.checks[worst]!;
    const demoted = semanticFor(check.quote, check.type === "forbidden", "") as Extract<ClauseOutcome, { kind: "semantic" }>;
    const message = `read as a ${check.type} check, it failed ${fails[worst]} of the ${preview.triggered.length} samples the rule applies to and the rule passed none, so it became a semantic question: edit it or map it to events`;
    notes = [...notes, { clause: { kind: "semanticCheck", index: rule.semanticChecks.length }, kind: "unmapped-clause", message }];
    rule = { ...rule, checks: rule.checks.filter((_, i) => i !== worst), semanticChecks: [...rule.semanticChecks, demoted.semantic] };
  }
}

/** Drafts a whole judge.yaml from the spec and the samples, without a model. */
export function draftOffline(input: OfflineDraftInput, sections: readonly SpecSection[] = input.spec.sections): Draft {
  const names = agentNames(input.spec);
  const lexicon = { ...buildLexicon(input.vocabulary, input.samples), agentNames: names };
  const grammar = grammarFor(names);
  const notes: DraftNote[] = [];
  const metaBehaviors = sections.map((section, rule) => {
    const drafted = plausible(draftSection(lexicon, section, grammar), input.samples);
    for (const note of drafted.notes) notes.push({ rule, ...note });
    return drafted.rule;
  });
  return { ir: { version: 1, behavior: input.spec.name, metaBehaviors }, notes, origins: metaBehaviors.map(() => "offline" as const) };
}
