/**
 * Forms a rule sentence combines with the basic checks (docs/FORMATS.md §10): a window of N events
 * on a pairing ("within the next two events"), a fresh confirmation on an ordering ("the reading
 * has to be a fresh one", "one yes covers one change"), and a condition read off the latest
 * earlier event's value ("may be filed only if the importer's most recent lookup shows the bond as
 * active"). clauses.ts reads the basic shapes; draft.ts applies these on top.
 */
import type { Voiced } from "./voice-spans.js";
import type { Check, ConditionCheck, Pattern, ValueMatcher } from "../../ir/types.js";
import { exactValue, valueTest } from "../../ir/values.js";
import { resolve, semanticFor, type ClauseContext, type ClauseOutcome } from "./clauses.js";
import { correlationOf, keyRef } from "./keys.js";
import { namedPairs } from "./backticks.js";
import { actionKeys, type Lexicon } from "./lexicon.js";
import { nameStems, parseCount, stemSet } from "./words.js";
import { STEP_NOUNS } from "./voice-words.js";
import { negatedCondition } from "./shape.js";
import { continuedSituation } from "./continued.js";

/** "within the next two events", "within three events of the booking", "within 2 steps". */
const WITHIN = new RegExp(`,?\\s*\\bwithin\\s+(?:the\\s+(?:next|following)\\s+)?(\\w+)\\s+${STEP_NOUNS}(?:\\s+of\\s+([^,;:]+))?`, "i");

/** "as the very next step", "at the very next step", "by the next line": the event right after. */
const NEXT_STEP = /,?\s*\b(?:as|at|on|in|by)\s+(?:the\s+)?(?:very\s+)?next\s+(?:step|event|action|move|line)\b/i;

/** The window a clause writes, the event it counts from ("of reverse_adjustment"), and the clause without it. */
export function withinOf(clause: string): { within: number; rest: string; of?: string } | undefined {
  // "as the very next step": a window of one event.
  const next = NEXT_STEP.exec(clause);
  if (next !== null) return { within: 1, rest: `${clause.slice(0, next.index)}${clause.slice(next.index + next[0].length)}`.trim() };
  const m = WITHIN.exec(clause);
  const n = m === null ? undefined : m[1] === "one" || m[1] === "a" ? 1 : parseCount(m[1]!);
  if (m === null || n === undefined || n < 1) return undefined;
  const rest = `${clause.slice(0, m.index)}${clause.slice(m.index + m[0].length)}`.trim();
  return { within: n, rest, ...(m[2] !== undefined ? { of: m[2].trim() } : {}) };
}

/** Words that point back at the clause's own event: "within two steps of it". */
const BACK = /^(?:it|them|this|that|each|either|each one|that one)$/i;

/**
 * "The member hears about every cancellation: Desk calls `send_notice` for that booking within
 * two steps of cancel_booking": each event the window counts from is followed by the one the
 * clause requires, within N events, tied by "that X" when both carry its key. Undefined when the
 * window counts from the clause's own event ("of it"), the clause forbids, or either side is not
 * in the samples' words.
 */
export function anchoredPairing(
  context: ClauseContext,
  rest: string,
  anchor: string,
  within: number,
  outcome: ClauseOutcome,
  quote: string,
): ClauseOutcome | undefined {
  if (BACK.test(anchor) || (outcome.kind === "check" && outcome.check.type !== "required")) return undefined;
  if (outcome.kind === "check" && outcome.check.type === "required" && outcome.check.after !== undefined) return undefined;
  if (outcome.kind === "semantic" && /avoid what this forbids/.test(outcome.semantic.question)) return undefined;
  const each = situated(context, resolve(context.lexicon, anchor, { agentOnly: true }));
  if (each === undefined) return undefined;
  // What follows: the required check's event, else what the words after the last colon name.
  const said = rest.slice(rest.lastIndexOf(":") + 1);
  const followedBy =
    outcome.kind === "check" && outcome.check.type === "required"
      ? outcome.check.match
      : resolve(context.lexicon, said, { agentOnly: true });
  if (followedBy === undefined || JSON.stringify(each) === JSON.stringify(followedBy)) return undefined;
  const tie = correlationOf(context.lexicon, said, { each, followedBy }, ["each", "followedBy"]);
  const on = tie !== undefined && "on" in tie ? { on: tie.on } : {};
  // "The call is to be logged … no later than the second step after the deployment": the deployment an earlier sentence bounded (continued.ts).
  const from = context.shape.condition === undefined ? (continuedSituation(context.drafted, anchor, each, followedBy) ?? each) : each;
  return { kind: "check", check: { type: "pairing", quote, each: from, followedBy, ...on, within } as Check };
}

/**
 * "When a session that ran from 3 to 8 hours ends, the aftercare text … within 2 steps of the session is ended": the
 * window's event points back at the sentence's condition, whose bound ("from 3 to 8 hours") says which of those events
 * the duty follows. The condition's pattern when it names the same acts and the window's words bound none of their own.
 */
function situated(context: ClauseContext, each: Pattern | undefined): Pattern | undefined {
  const condition = context.shape.condition;
  if (each === undefined || condition === undefined || (condition.kind !== "if" && condition.kind !== "after")) return each;
  if (negatedCondition(condition.phrase)) return each;
  if (each.some((m) => m.metadata !== undefined)) return each;
  const situation = resolve(context.lexicon, condition.phrase, { agentOnly: true, measured: true });
  const acts = (p: Pattern) => JSON.stringify(p.map((m) => exactValue(m.action) ?? "").sort());
  return situation !== undefined && acts(situation) === acts(each) ? situation : each;
}

/**
 * The outcome with the window: a pairing takes it; a required check in the window of the sentence's
 * condition ("When a booking runs for more than 30 days, a deposit must be charged within three
 * events of the booking") is a pairing of the condition's event with the required one.
 */
export function withWithin(outcome: ClauseOutcome, within: number): ClauseOutcome {
  if (outcome.kind !== "check") return outcome;
  const check = outcome.check;
  if (check.type === "pairing") return { ...outcome, check: { ...check, within } };
  if (check.type === "required" && check.after !== undefined) {
    const on =
      check.on === undefined
        ? {}
        : { on: typeof check.on === "string" ? check.on : { each: check.on.after!, followedBy: check.on.match! } };
    return {
      ...outcome,
      check: { type: "pairing", quote: check.quote, each: check.after, followedBy: check.match, ...on, within } as Check,
    };
  }
  return outcome;
}

/** Words that ask for a confirmation of its own before each event: `fresh: true`. */
const FRESH =
  /\b(?:fresh|its own|their own|a new one|since the (?:last|previous|most recent)|covers? (?:only )?one|(?:does not|doesn't|cannot|can't) (?:count|serve) for (?:the next|another|a second)|for each one|(?:not|never|doesn't|don't|won't|can't)\s+(?:be\s+)?carr(?:y|ies|ied)\s+over|(?:does not|doesn't|do not|don't|cannot|can't|will not|won't)\s+extend\s+to\s+(?:the next|another|a second)|(?:is|are)\s+spent\s+by\s+the|(?:not|never)\s+(?:be\s+)?relied\s+(?:on|upon)\s+for\s+(?:another|the next|a second)|a\s+separate\s+[\w-]+\s+(?:is|are)\s+(?:needed|required)\s+for\s+(?:each|every)|(?:is|are)\s+good\s+for\s+(?:one|a single)|one\s+[\w-]+\s+\w+\s+only\s+one|a\s+second\s+\w+\s+needs?\s+a\s+second|(?:does not|doesn't|do not|don't|cannot|can't|will not|won't)\s+cover\s+(?:the next|another|a second|two|both|more than one)|a\s+new\s+(?:"[^"]*"|[\w-]+(?:\s+[\w-]+)?)\s+(?:is|are)\s+(?:needed|required)\s+for\s+(?:each|every)|one\s+(?:"[^"]*"|[\w-]+)(?:\s+for\s+(?:a|an|the|one)\s+[\w-]+(?:\s+[\w-]+)?)?\s+(?:is not|isn't)\s+enough|(?<!\b(?:most|than|only|least|exactly)\s)one\s+(?:[a-z-]+\s+)?per\s+[a-z-]+|^one\s+[a-z-]+\s*,\s*one\s+[a-z-]+|[a-z]+(?:'|\u2019)s\s+own\s+(?:agreement|consent|confirmation|approval|go-ahead|authori[sz]ation|request|declaration|say-so))\b/i;

export function asksFresh(text: string): boolean {
  return FRESH.test(text);
}

/**
 * "A shipment may be released only after its logger has been read, and the reading has to be a
 * fresh one: …": a clause that only asks for freshness makes the ordering before it fresh, ties it
 * when it says "that same X", and the ordering's quote reaches over both.
 */
export function withFreshness(lexicon: Lexicon, sentence: string, clauses: readonly string[], outcomes: ClauseOutcome[]): ClauseOutcome[] {
  const out = outcomes.slice();
  clauses.forEach((clause, i) => {
    if (!asksFresh(clause)) return;
    // The ordering of this clause, or of the nearest clause before it.
    let k = i;
    while (k >= 0 && !(out[k]!.kind === "check" && (out[k] as { check: Check }).check.type === "ordering")) k--;
    if (k < 0) return;
    const found = out[k] as Extract<ClauseOutcome, { kind: "check" }>;
    const check = found.check as Extract<Check, { type: "ordering" }>;
    let quote = check.quote;
    if (k !== i) {
      const start = sentence.indexOf(check.quote);
      const end = sentence.indexOf(clause, Math.max(start, 0));
      if (start < 0 || end < 0) return;
      quote = sentence.slice(start, end + clause.length);
      out[i] = { kind: "skip" };
    }
    const tie =
      check.on === undefined ? correlationOf(lexicon, quote, { first: check.first, before: check.before }, ["first", "before"]) : undefined;
    const on = tie !== undefined && "on" in tie ? { on: tie.on } : {};
    out[k] = { ...found, check: { ...check, quote, ...on, fresh: true } };
  });
  return out;
}

/** The checks words asking for freshness are misread as: "carried over" is no act, "one … covers one" no count. */
const MISREAD = new Set<Check["type"]>(["forbidden", "required", "count"]);

/** ": the applicant who was screened has to be the adopter": who the earlier event is of, said after the colon. */
const SAME_PERSON = /:\s*the\s+[a-z]+\b[^:;]*?\s(?:has to be|must be|is to be|should be|needs to be)\s+the\s+[a-z]+\s*[.!]?$/i;

/**
 * "Get the master's "DG cleared" in the chat for each DG vehicle, every time. One clearance covers
 * one vehicle.": a sentence that only asks for freshness, and drafted nothing of its own, makes the
 * rule's last ordering so far fresh. `checks` are the rule's checks so far (the one changed in
 * place); its quote reaches over the sentence when the section writes the two one after the other.
 * The sentence's outcomes are returned, its questions dropped once the ordering carries it.
 */
export function freshAcross(body: string, voiced: Voiced, checks: Check[], outcomes: ClauseOutcome[]): ClauseOutcome[] {
  // Asked in the readers' voice ("One sign-off opens one batch" is "… covers one batch", voice.ts); quoted in the spec's words.
  const sentence = voiced.original;
  // "A partner's approval doesn't carry over: the applicant who was screened has to be the adopter": it does not carry
  // over to another person, which the tie says; the act's own go-ahead is not asked for again.
  if (!asksFresh(voiced.text) || SAME_PERSON.test(voiced.text)) return outcomes;
  // "An authorization is good for one dispatch only and may not be carried over to a second vehicle": a ban (or a
  // count, "One approval covers one grant") read from words that only ask for freshness is that misreading, not a
  // rule of its own (a condition's "may not clear their own loan" compares people, deeds.ts, and stays).
  outcomes = outcomes.map((o) => (o.kind === "check" && MISREAD.has(o.check.type) && asksFresh(o.check.quote) ? { kind: "skip" } : o));
  if (outcomes.some((o) => o.kind === "check")) return outcomes;
  const k = checks.map((c) => c.type).lastIndexOf("ordering");
  if (k < 0) return outcomes;
  const check = checks[k] as Extract<Check, { type: "ordering" }>;
  const start = body.indexOf(check.quote);
  const at = start < 0 ? -1 : body.indexOf(sentence, start + check.quote.length);
  const joined = at >= 0 && /^[.;,!?]?\s{1,3}$/.test(body.slice(start + check.quote.length, at));
  checks[k] = { ...check, ...(joined ? { quote: body.slice(start, at + sentence.length) } : {}), fresh: true };
  return outcomes.map((o) => (o.kind === "semantic" ? { kind: "skip" } : o));
}

/** "X may be filed only if Y shows Z", "X is allowed only when Y": the later event and the condition. */
const ONLY_IF = /^(.*?)\s+only\s+(?:if|when|where|provided that)\s+(.+)$/i;
const MODAL_TAIL = /\s+(?:may|can|must|should|is allowed to|are allowed to)?\s*(?:be\s+)?(?:allowed|permitted|made|done|taken|given)?\s*$/i;

/** The `when` expression testing `r`'s key as a value matcher does. */
function test(key: string, value: ValueMatcher): string | undefined {
  const ref = keyRef("r", key);
  const t = valueTest(value);
  if (t.op === "equals") return `${ref} == ${JSON.stringify(t.value)}`;
  if (t.op === "in") return `${ref} in [${t.values.map((v) => JSON.stringify(v)).join(", ")}]`;
  if (t.op !== "range") return undefined;
  const symbols = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
  const parts = (Object.keys(symbols) as (keyof typeof symbols)[]).flatMap((op) =>
    t.range[op] === undefined ? [] : [`${ref} ${symbols[op]} ${String(t.range[op])}`],
  );
  return parts.length === 0 ? undefined : parts.join(" && ");
}

/**
 * "it reads `state: decommissioned` and `hold: no`": two keys written, and no event named that carries both (a value of
 * either may be another event's too): the one event that carries every key written, a result first.
 */
function pairsCarrier(lexicon: Lexicon, phrase: string, resolved: Pattern | undefined): Pattern | undefined {
  const pairs = namedPairs(phrase);
  if (pairs.length < 2) return undefined;
  const holds = (action: string | undefined) =>
    pairs.every(([k]) => lexicon.actions.some((a) => a.name === action && a.metadata.some((md) => md.key === k)));
  if (resolved?.length === 1 && holds(exactValue(resolved[0]!.action))) return undefined;
  const carriers = lexicon.actions.filter((a) => holds(a.name));
  const results = carriers.filter((a) => a.isResult);
  const pool = results.length > 0 ? results : carriers;
  return pool.length === 1 ? [{ action: pool[0]!.name, metadata: Object.fromEntries(pairs) }] : undefined;
}

/** The identifier key both actions carry, the one the sentence names first ("the importer's" → `importer_id`). */
function sharedId(lexicon: Lexicon, a: string, b: string, sentence: string): string | undefined {
  const theirs = new Set(actionKeys(lexicon, b));
  const shared = actionKeys(lexicon, a).filter((k) => theirs.has(k) && nameStems(k).includes("id"));
  const said = stemSet(sentence);
  return shared.find((k) => nameStems(k).some((s) => s !== "id" && said.has(s))) ?? (shared.length === 1 ? shared[0] : undefined);
}

/**
 * "An entry may be filed only if the importer's most recent lookup shows the bond as active": for
 * each filing, the latest lookup (of the same importer, when both carry its id) must have the
 * value. Undefined when the condition names no value of an earlier event (an ordering reads it).
 */
export function conditionFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  const m = ONLY_IF.exec(clause);
  if (m === null) return undefined;
  const laterPhrase = m[1]!.replace(MODAL_TAIL, "");
  const resolved = resolve(context.lexicon, m[2]!);
  const cond = pairsCarrier(context.lexicon, m[2]!, resolved) ?? resolved;
  const bound = cond?.length === 1 ? cond[0]! : undefined;
  const action = bound === undefined ? undefined : exactValue(bound.action);
  const entries = Object.entries(bound?.metadata ?? {});
  if (action === undefined || entries.length === 0 || bound?.contentIncludes !== undefined) return undefined;
  const each = resolve(context.lexicon, laterPhrase, { agentOnly: true });
  if (each === undefined) return semanticFor(quote, false, "the drafter could not tell which sample events this condition is about");
  const tests = entries.map(([k, v]) => test(k, v));
  if (tests.some((t) => t === undefined)) return undefined;
  const eachAction = each.length === 1 ? exactValue(each[0]!.action) : undefined;
  const on = eachAction === undefined ? undefined : sharedId(context.lexicon, eachAction, action, clause);
  const latest: Pattern = [{ action }];
  // "Go by the latest scan of that same serial: …": the same thing said before the condition, on a key of another name than `…_id`.
  const same = on === undefined ? correlationOf(context.lexicon, quote, { each, latest }, ["each", "latest"]) : undefined;
  const tie = on !== undefined ? { on: `metadata.${on}` } : same !== undefined && "on" in same ? { on: same.on } : {};
  const check: ConditionCheck = {
    type: "condition",
    quote,
    each,
    with: { r: { latest, ...tie } },
    when: tests.join(" && "),
  };
  return { kind: "check", check };
}
