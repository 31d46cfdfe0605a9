/**
 * The offline drafter's clause readers: one clause of a rule sentence to an
 * ordering, pairing, count, forbidden or required check, or to a semantic
 * question (saying why) when no reading fits. draft.ts assembles a rule's
 * checks, trigger and notes from them.
 */
import { carrierOf } from "./carried.js";
import type { Check, Pattern, SemanticCheck } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { amountsNaming, withAmounts, withoutAmounts } from "./amounts.js";
import { withMeasures } from "./measured.js";
import { applyOutcome, asWritten, namedActions, namedPairs } from "./backticks.js";
import { exceptionOf, withException } from "./exceptions.js";
import { crossTie } from "./crossed.js";
import { correlationOf } from "./keys.js";
import { valueList, withList } from "./lists.js";
import { canonical, nameStems } from "./words.js";
import { followsInSamples, namesAgentAction, resolvePattern, type Lexicon, type ResolveOptions } from "./lexicon.js";
import { stemSet } from "./words.js";
import { actedOn, unreadCondition } from "./acted-on.js";
import {
  COUNT,
  DUTY,
  forbids,
  MODAL,
  NEGATED_PASSIVE,
  NEGATION,
  negatedCondition,
  NO_SUBJECT,
  PARTICIPLE,
  PASSIVE,
  PROHIBITION,
  PURPOSE,
  RELATIONAL,
  SESSION_SUBJECT,
  type Grammar,
  type SentenceShape,
} from "./shape.js";

/** A clause the drafter turned into a check, or could not. */
export type ClauseOutcome =
  /** `note`: what the person should check in the drafted check. */
  { kind: "check"; check: Check; note?: string } | { kind: "semantic"; semantic: SemanticCheck; reason: string } | { kind: "skip" };

export interface ClauseContext {
  lexicon: Lexicon;
  grammar: Grammar;
  shape: SentenceShape;
  /** Index of the clause in the sentence; the first one's quote includes the condition. */
  index: number;
  /** The act an earlier sentence of the rule made conditional ("A loan is made only to …"), for a look-up's condition (latest.ts). */
  earlier?: readonly Pattern[];
  /** The window of steps the clause wrote ("within 2 steps of the redemption"), taken out of it: the event it counts from. */
  window?: { within: number; of?: string };
  /** The checks the rule's earlier sentences drafted: a deadline in a sentence of its own is of their duty (continued.ts). */
  drafted?: readonly Check[];
}

/** "… applies no further migrations and sends the person a message": the second verb keeps the first subject. */
export function continuesAgentClause(context: ClauseContext, clause: string): boolean {
  const verb = /^(?!(?:the|a|an|it|this|that|its|is|was|has|does|as|always|sometimes)\b)[a-z]+s\b/.test(clause);
  // "… must alert the lead and must not carry on": a bare modal continues the subject as well.
  if (context.index === 0 || !(verb || new RegExp(`^${MODAL}\\b`, "i").test(clause))) return false;
  const previous = context.shape.clauses[context.index - 1] ?? "";
  return context.grammar.agentSubject.test(previous) || continuesAgentClause({ ...context, index: context.index - 1 }, previous);
}

/** Whether the agent is the one acting in the clause. */
export function agentActs(context: ClauseContext, clause: string): boolean {
  return (
    context.grammar.agentSubject.test(clause.replace(context.grammar.timeFrame, "")) ||
    namesAgentAction(context.lexicon, clause) ||
    continuesAgentClause(context, clause) ||
    ownSubjectActs(context.lexicon, clause)
  );
}

/** "The cage must not issue …", "The desk never pays …": a definite subject, a modal or "never", and the verb. */
const OWN_SUBJECT =
  /^the\s+([a-z][a-z-]*)\s+(?:(?:must|shall|will|may|should|can)(?:\s+not|n't)?\s+(?:never\s+|ever\s+)?|never\s+|(?:does|do)\s+not\s+)(?=[a-z])/i;

/**
 * "The cage must not issue any single marker …": a rule's subject that names no one the samples know
 * (no key, no action is called by it) is the team or place the agent acts for, when what it does
 * is an agent action. "The patron must not …" names the `patron_id` of the events: not the agent.
 */
function ownSubjectActs(lexicon: Lexicon, clause: string): boolean {
  const m = OWN_SUBJECT.exec(clause);
  if (m === null) return false;
  const noun = canonical(m[1]!.toLowerCase());
  if (/^(?:same|other|first|last|next|latest)$/i.test(m[1]!)) return false;
  const known = lexicon.actions.some((a) => a.stems.includes(noun) || a.metadata.some((md) => nameStems(md.key).includes(noun)));
  return !known && namesAgentAction(lexicon, clause.slice(m[0].length));
}

/**
 * Whether the clause has the agent do something, with it as the subject or without a subject:
 * "the session has to include a `save_progress` call" (a session includes what the agent does in
 * it); and, within a situation, a passive naming no one who does it ("the supervisor gets paged")
 * whose verb phrase is some agent action's.
 */
export function agentDoes(context: ClauseContext, clause: string): boolean {
  if (agentActs(context, clause) || SESSION_SUBJECT.test(clause)) return true;
  const situated = context.shape.condition !== undefined && context.shape.condition.kind !== "before";
  const passive = new RegExp(`\\b${PASSIVE}\\s+(${PARTICIPLE}\\b(?!\\s+by\\b).*)$`, "i").exec(clause);
  // Only a verb phrase that names some agent action: "that robot is finished working for now" names none.
  return situated && passive !== null && resolvePattern(context.lexicon, passive[1]!, { agentOnly: true }) !== undefined;
}

/** The verbatim quote for a clause: the first clause carries the sentence's condition with it. */
export function quoteFor(context: ClauseContext, clause: string): string {
  const { shape } = context;
  if (shape.clauses.length === 1) return shape.sentence.replace(PURPOSE, "");
  if (context.index === 0 && shape.condition !== undefined) {
    const end = shape.sentence.indexOf(clause) + clause.length;
    return shape.sentence.slice(0, end).replace(PURPOSE, "");
  }
  return clause.replace(PURPOSE, "");
}

export function semanticFor(quote: string, forbidding: boolean, reason: string): ClauseOutcome {
  const question = forbidding
    ? `Judging by this session, did the agent avoid what this forbids: "${quote}"?`
    : `Judging by this session, did the agent do what this requires: "${quote}"?`;
  return { kind: "semantic", semantic: { quote, question }, reason };
}

/** A phrase's pattern, with the amounts it writes ("a refund over $500") on the amount key of each of its actions (amounts.ts). */
export function resolve(lexicon: Lexicon, phrase: string, options?: ResolveOptions): Pattern | undefined {
  // "a grant or a refusal (`deny_request`)": the name in backticks is one alternative's, not the whole phrase's.
  const parts = phrase.split(/\s*,?\s+or\s+(?:every\s+|each\s+|any\s+)?/i);
  if (parts.length > 1 && namedActions(lexicon, phrase).length > 0 && parts.some((p) => namedActions(lexicon, p).length === 0)) {
    const each = parts.map((p) => resolveWhole(lexicon, p, options));
    if (each.every((p) => p !== undefined))
      return each.flat().filter((m, i, all) => all.findIndex((o) => JSON.stringify(o) === JSON.stringify(m)) === i);
  }
  return resolveWhole(lexicon, phrase, options);
}

function resolveWhole(lexicon: Lexicon, phrase: string, options?: ResolveOptions): Pattern | undefined {
  // A list of values ("firearms, pharmaceuticals or explosives") is one matcher's `in:`, not alternatives (lists.ts).
  const list = valueList(lexicon, phrase);
  const rest = list === undefined ? phrase : `${phrase.slice(0, list.start)} ${phrase.slice(list.end)}`;
  const amounts = amountsNaming(rest);
  const pattern = resolvePattern(lexicon, withoutAmounts(rest, amounts), options);
  // What the phrase writes in backticks wins over what its other words resemble (backticks.ts).
  const written = asWritten(lexicon, phrase, pattern);
  const listed = list === undefined ? written : withList(lexicon, written, list, rest);
  // "if any cast goes down with more than 2,000 metres of wire out": no act named ("goes down" half names
  // `stand_down`, which carries no length), the one its measure is of (carried.ts).
  const carrier =
    (listed === undefined ? undefined : withAmounts(lexicon, listed, amounts, rest)) === undefined && list === undefined
      ? carrierOf(lexicon, rest, amounts, options?.agentOnly === true)
      : undefined;
  const amounted =
    carrier !== undefined
      ? withAmounts(lexicon, carrier, amounts, rest)
      : listed === undefined
        ? undefined
        : withAmounts(lexicon, listed, amounts, rest);
  // "a hive inspected with more than 20 frames": a bound on the key its noun names (measured.ts).
  return amounted === undefined || options?.measured !== true ? amounted : withMeasures(lexicon, amounted, rest, amounts);
}

/**
 * The check tied by the key its quote asks to be the same on both events
 * ("the same order": keys.ts). Without a key for it on both sides the check
 * stays untied, with a note saying so: the person adds the key.
 */
export function correlated<A extends string, B extends string>(
  context: ClauseContext,
  check: Check,
  quote: string,
  sides: { [S in A | B]: Pattern },
  names: [A, B],
): ClauseOutcome {
  const correlation = correlationOf(context.lexicon, quote, sides, names);
  if (correlation === undefined) return { kind: "check", check };
  if ("unknown" in correlation) {
    const note = `no sample shows a metadata key for "the same ${correlation.unknown}" on both sides' events, so the check does not tie them: add on: metadata.<key> if the traces have one`;
    return { kind: "check", check, note };
  }
  return { kind: "check", check: { ...check, on: correlation.on } as Check };
}

/** The pattern of the sentence's leading condition, when it sets an "after" window. */
export function afterWindow(context: ClauseContext): Pattern | undefined | "unresolved" {
  const condition = context.shape.condition;
  if (condition === undefined || (condition.kind !== "after" && condition.kind !== "if")) return undefined;
  if (negatedCondition(condition.phrase)) return "unresolved";
  // "once picking has been started on a block": the act the verb names, not the one named after the thing (acted-on.ts).
  return actedOn(context.lexicon, condition.phrase, resolve, { measured: true }) ?? "unresolved";
}

export function withWindow<T extends Check>(check: T, window: Pattern | undefined): T {
  return window === undefined ? check : { ...check, after: window };
}

/** A required, forbidden or count check in its window, tied per key when the quote asks for the same thing in both. */
export function windowed(
  context: ClauseContext,
  check: Extract<Check, { type: "required" | "forbidden" | "count" }>,
  window: Pattern | undefined,
  quote: string,
): ClauseOutcome {
  if (window === undefined) return { kind: "check", check };
  return correlated(context, withWindow(check, window), quote, { after: window, match: check.match }, ["after", "match"]);
}

/** Verbs that only say an event takes place: they name no action of their own. */
export const OCCUR = /^(?:come|happen|occur|follow|appear|take place|be)$/i;
/** "once" that starts a clause ("once the checker has replied"), not a count ("once per session", "once a day"). */
export const ONCE_CLAUSE = /^(?!(?:per|a|an|every|each|in|during|more|again|only)\b)\S/i;

/**
 * "Y may only appear after X", "Y can only be banned once X", "Y is only submitted after X",
 * "Y only goes to a robot once X": the later event (subject and verb phrase) and the first one.
 */
export function laterEvent(clause: string): { later: string; first: string } | undefined {
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

export function orderingFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
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
  // "Every cancellation is preceded by the details of that same reservation": the agent of "by" comes first.
  const preceded =
    /^(?:each|every|any|all)?\s*(.+?)\s+(?:is|are|must be|has to be|have to be|should be|needs? to be)\s+(?:always\s+)?preceded\s+by\s+(.+)$/i.exec(
      clause,
    );
  // "Any wire above $10,000 needs a call-back first: …": the thing needed comes first.
  const needsFirst = /^(.+?)\s+(?:needs?|requires?)\s+(.+?)\s+first\b\s*(?::\s*(.*))?$/i.exec(clause);
  if (preceded !== null) [firstPhrase, beforePhrase] = [preceded[2]!, preceded[1]!];
  else if (needsFirst !== null) [firstPhrase, beforePhrase] = [needsFirst[2]!, needsFirst[1]!];
  else if (until !== null && NEGATION.test(until[1]!))
    [firstPhrase, beforePhrase] = [until[2]!, until[1]!.replace(/\b(?:must|may|can|should)?\s*(?:never|not|no)\b/gi, " ")];
  else if (inner !== null && (context.grammar.agentSubject.test(inner[1]!) || namesAgentAction(lexicon, inner[1]!)))
    [firstPhrase, beforePhrase] = [inner[1]!, inner[2]!];
  else if (mustFollow !== undefined) [firstPhrase, beforePhrase] = [mustFollow.first, mustFollow.later];
  else if (firstThen !== null) [firstPhrase, beforePhrase] = [firstThen[1]!, firstThen[2]!];
  else if (shape.condition?.kind === "before" && context.index === 0) [firstPhrase, beforePhrase] = [clause, shape.condition.phrase];
  if (firstPhrase === undefined || beforePhrase === undefined) return undefined;
  let before = resolve(lexicon, beforePhrase);
  let first = resolve(lexicon, firstPhrase.replace(COUNT, " "));
  // "…: Teller phones the customer and the customer confirms (`confirmed: yes`)": the outcome asked for.
  const elaboration = needsFirst?.[3];
  if (first !== undefined && elaboration !== undefined && namedPairs(elaboration).length > 0)
    first = applyOutcome(lexicon, first, elaboration) ?? first;
  // "runs a migration in dry-run mode before it applies it": the pronoun borrows the other side's action.
  const pronoun = /\b(?:it|them|this|that one)\b/i;
  if (before === undefined && first !== undefined && pronoun.test(beforePhrase))
    before = resolve(lexicon, `${beforePhrase} ${actionWords(first)}`);
  if (first === undefined && before !== undefined && pronoun.test(firstPhrase))
    first = resolve(lexicon, `${firstPhrase} ${actionWords(before)}`);
  if (before === undefined || first === undefined || samePattern(first, before)) {
    return semanticFor(quote, false, "the drafter could not tell which sample events each side of this ordering is");
  }
  const ordering = correlated(context, { type: "ordering", quote, first, before }, quote, { first, before }, ["first", "before"]);
  // "an approved screening for the adopter named on it": the earlier event is of the person the act names by a key
  // of another name (the screening's `applicant` is the adoption's `adopter`), the pair whose sample values meet.
  const named = NAMED_ON.exec(firstPhrase);
  if (ordering.kind !== "check" || ordering.check.type !== "ordering" || ordering.check.on !== undefined || named === null) return ordering;
  const acts = (p: Pattern) => p.flatMap((m) => (exactValue(m.action) === undefined ? [] : [exactValue(m.action)!]));
  const tie = crossTie(lexicon, acts(before), acts(first), named[0]);
  return tie === undefined ? ordering : { ...ordering, check: { ...ordering.check, on: { first: tie.latest, before: tie.each } } };
}

/** "for the adopter named on it", "of the driver given in the booking": a key of the later act, named by its words. */
const NAMED_ON = /\b(?:for|of)\s+(?:the|that|this)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:named|given|written|shown|listed|recorded)\s+(?:on|in)\b/i;

/** ", for the same plate,", "for that flight": the thing both sides are of. */
const SAME_THING = /,?\s*\b(?:for|of|on)\s+(?:the\s+same|that\s+same|that)\s+`?[A-Za-z_]+`?(?:'s\s+[a-z]+)?\s*,?/gi;

/** "Every grant and every refusal", "after each checkout and each renewal": either one is an event of its own. */
export function eitherOf(phrase: string): string {
  return phrase.replace(/\s+and\s+(?:each|every|any)\s+/gi, " or ");
}

export function pairingFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  const { lexicon, shape } = context;
  let eachPhrase: string | undefined;
  let followerPhrase: string | undefined;
  const each =
    /^(?:each|every|any)\s+(.+?)\s+(?:gets|receives|needs|requires|must get|must be followed by|is followed by|is answered by|must be answered by)\s+(.+)$/i.exec(
      clause,
    );
  // "… within 2 steps of the redemption", "… no later than the second step after the landing's recorded": a window counted
  // from the subject's own event says the order, as "later" does (a window from another event is anchoredPairing's).
  const fromSubject = (subject: string) => context.window !== undefined && countsFrom(lexicon, context.window.of, subject);
  // "Every email classified as urgent is forwarded to a human afterwards": the passive verb is the follower.
  // "Each lock has to be matched by an unlock later", "every answer is sent to the checker": any auxiliary.
  const passive = /\bpreceded\s+by\b/i.test(clause)
    ? null
    : // "is to be entered", and not the passive of a relative clause ("every agreement that is signed has to be filed").
      new RegExp(
        `^(?:each|every)\\s+(.+?)(?<!\\b(?:that|which|who))\\s+(?:${PASSIVE}|(?:is|are)\\s+to\\s+be)\\s+(${PARTICIPLE}\\b.*)$`,
        "i",
      ).exec(clause);
  let tentative = false;
  const afterEach = shape.condition?.kind === "after" && /^(?:each|every)\s+/i.test(shape.condition.phrase);
  if (shape.condition?.kind === "whenever" || afterEach) {
    eachPhrase = shape.condition!.phrase.replace(/^(?:each|every)\s+/i, "");
    followerPhrase = clause;
  } else if (each !== null && (/\b(?:later|afterwards|after|then|followed)\b/i.test(clause) || fromSubject(each[1]!))) {
    eachPhrase = each[1]!;
    const rest = each[2]!;
    followerPhrase = rest.includes(":") ? rest.slice(rest.indexOf(":") + 1) : rest;
  } else if (passive !== null) {
    [eachPhrase, followerPhrase] = [passive[1]!, passive[2]!];
    // Without "later" or "afterwards" the order is the samples' to say.
    tentative = !/\b(?:later|afterwards|then)\b/i.test(passive[2]!) && !fromSubject(passive[1]!);
  }
  if (eachPhrase === undefined || followerPhrase === undefined) return undefined;
  const first = resolve(lexicon, eitherOf(eachPhrase), { measured: true });
  // "…, for the same plate, …" says what ties the two (correlated reads it from the quote), not which act follows.
  const follower = resolve(lexicon, followerPhrase.replace(/\b(?:afterwards|later|then)\b/gi, " ").replace(SAME_THING, " "));
  if (
    tentative &&
    (first === undefined || follower === undefined || samePattern(first, follower) || !followsInSamples(lexicon, first, follower))
  )
    return undefined;
  if (first === undefined || follower === undefined || samePattern(first, follower)) {
    return semanticFor(quote, false, "the drafter could not tell which sample events are paired here");
  }
  const pairing: Check = { type: "pairing", quote, each: first, followedBy: follower };
  return correlated(context, pairing, quote, { each: first, followedBy: follower }, ["each", "followedBy"]);
}

/**
 * Whether a window's event ("of the redemption", "after the landing's recorded", none written) is the one the
 * subject names ("every redemption of more than $3,000.00", "Any landing over 500 kilos"): a word of the
 * subject's noun, or the same actions.
 */
function countsFrom(lexicon: Lexicon, of: string | undefined, subject: string): boolean {
  if (of === undefined) return true;
  const noun = stemSet(subject.split(/\s+(?:of|over|above|under|below|with|for|from|that|which|whose|more|less|at)\b|,/i)[0]!);
  if ([...stemSet(of)].some((w) => noun.has(w))) return true;
  const acts = (p: Pattern | undefined) => (p ?? []).map((m) => exactValue(m.action) ?? "");
  const from = acts(resolve(lexicon, of, { agentOnly: true }));
  const named = new Set(acts(resolve(lexicon, subject, { agentOnly: true })));
  return from.length > 0 && from.every((a) => a !== "" && named.has(a));
}

/** "that shipment must not be released", "the fridge may not be used for dispensing": a passive prohibition of an agent action. */
const PASSIVE_PROHIBITION = new RegExp(
  `\\b(?:must|may|should|shall|can)(?:\\s+not|n't|not)?\\s+(?:never\\s+)?be\\s+(${PARTICIPLE}\\b.*)$`,
  "i",
);
/** "afterwards", "from then on": pointing back at the sentence's condition, not a second event. */
const BACK_TO_CONDITION = /,?\s+\b(?:afterwards|after that|from then on|thereafter|from that point on|again)\b/gi;

/**
 * "No storage fee may be charged on a vehicle that has been held for fewer than 24 hours, as recorded in the
 * `hours_held` field of the charge": the relative clause is a bound on the act's own field, written in backticks,
 * which the act's matcher carries (`hours_held: {lt: 24}`): no second event is needed.
 */
function boundOnOwnField(pattern: Pattern | undefined, clause: string): boolean {
  return (pattern ?? []).some((m) =>
    Object.entries(m.metadata ?? {}).some(([k, v]) => typeof v === "object" && v !== null && clause.includes(`\`${k}\``)),
  );
}

export function forbiddenFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  if (!forbids(clause, context.grammar)) return undefined;
  if (context.shape.condition !== undefined) clause = clause.replace(BACK_TO_CONDITION, "");
  // Only what the agent does can be forbidden by one pattern; "X followed by Y is a violation" needs two.
  const passive = PASSIVE_PROHIBITION.exec(clause);
  // "that account is not scheduled for shutoff": the act a negated passive names, wherever its verb stands.
  const negated = passive === null ? NEGATED_PASSIVE.exec(clause) : null;
  const byAgent =
    agentActs(context, clause) ||
    (passive !== null &&
      resolvePattern(context.lexicon, `${clause.slice(0, passive.index)} ${passive[1]!}`, { agentOnly: true }) !== undefined) ||
    (negated !== null && resolvePattern(context.lexicon, clause.replace(/\b(?:not|never|no)\b/gi, " "), { agentOnly: true }) !== undefined);
  // "never archives an email it has not read": a condition on the object needs more than one pattern.
  const cue =
    PROHIBITION.exec(clause) ??
    NO_SUBJECT.exec(clause) ??
    context.grammar.agentDenial.exec(clause) ??
    context.grammar.verbNo.exec(clause) ??
    NEGATED_PASSIVE.exec(clause);
  // A parenthesis restates what is forbidden ("carry on with the lesson (no new problems)"): it adds no condition.
  const forbiddenPart = (cue === null ? clause : clause.slice(cue.index + cue[0].length)).replace(/\([^)]*\)/g, " ");
  const resolved = actedOn(context.lexicon, clause, resolve, { agentOnly: true });
  const conditional =
    NEGATION.test(forbiddenPart) ||
    (/\b(?:which|who|whose)\b|\bthat\s+(?:it|they|the agent|has|have|had|is|are|was|were)\b/i.test(forbiddenPart) &&
      !boundOnOwnField(resolved, clause));
  if (!byAgent || conditional || RELATIONAL.test(clause) || (context.shape.condition === undefined && unreadCondition(clause)))
    return semanticFor(quote, true, "the drafter could not tell which single agent action this forbids");
  // "never books another inspection except a `reinspection`": the exception is left out, never matched
  // (exceptions.ts). Its value still tells which action it is about: the one that carries it.
  const exception = exceptionOf(clause);
  const excepted = (pattern: Pattern | undefined) =>
    pattern === undefined || exception === undefined ? undefined : withException(context.lexicon, pattern, exception.exception);
  const match =
    exception === undefined ? resolved : (excepted(resolved) ?? excepted(resolve(context.lexicon, exception.rest, { agentOnly: true })));
  const window = afterWindow(context);
  if (match === undefined || window === "unresolved")
    return semanticFor(quote, true, "the drafter could not tell which sample events this forbids");
  return windowed(context, { type: "forbidden", quote, match }, window, quote);
}

/** "Every possession has …", "each adoption needs …": the thing a clause says each one has (not "is …-ed", a pairing's). */
const EVERY_SUBJECT = /^(?:every|each)\s+((?:[\w`'-]+\s+){0,2}?[\w`'-]+)\s+(?:has|have|gets?|needs?|requires?|carries|holds)\b/i;

export function requiredFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  const window = afterWindow(context);
  // "X's first job is to halt it": what the agent is to do is the infinitive, up to a colon that elaborates.
  const duty = DUTY.exec(clause);
  const demanded =
    /\b(?:always|must|every|each|shall|is required to|(?:has|have|needs?) to)\b/i.test(clause) ||
    duty !== null ||
    context.window !== undefined ||
    context.grammar.timeFrame.test(clause);
  if (!demanded && window === undefined) return undefined;
  if (!agentDoes(context, clause) && !/^(?:always|every|each)\b/i.test(clause)) return undefined;
  const match = resolve(context.lexicon, aboutDropped(duty?.[1]?.replace(/:.*$/, "") ?? clause), { agentOnly: true });
  // "Every possession has a person in charge": what is said of each X asks for no X to take place.
  const subject = EVERY_SUBJECT.exec(clause)?.[1];
  const itself = subject === undefined ? undefined : resolve(context.lexicon, subject, { agentOnly: true });
  if (window === undefined && match !== undefined && itself !== undefined && samePattern(match, itself))
    return semanticFor(quote, false, "the drafter read only the thing this is about, not what it asks of it");
  if (match === undefined || window === "unresolved")
    return semanticFor(quote, false, "the drafter could not tell which sample event shows this");
  return windowed(context, { type: "required", quote, match }, window, quote);
}

/**
 * "notifies them about its loved one's case": what a message is about is its topic, not the act (`notify_family`,
 * not `case_lookup`); the topic still ties the two sides where the words say so.
 */
function aboutDropped(clause: string): string {
  return clause.replace(
    /\b((?:notif|tell|told|inform|messag|remind|updat|email|text|writ|call)\w*\b(?:\s+[\w']+){0,3}?)\s+about\s+.*$/i,
    "$1",
  );
}

export function actionWords(pattern: Pattern): string {
  return pattern.map((m) => (exactValue(m.action) ?? "").replace(/[_-]+/g, " ")).join(" ");
}

export function samePattern(a: Pattern, b: Pattern): boolean {
  const key = (p: Pattern) =>
    p
      .map((m) => JSON.stringify(m))
      .sort()
      .join("|");
  return key(a) === key(b);
}
