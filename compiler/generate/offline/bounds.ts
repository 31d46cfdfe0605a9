/**
 * Bounds on each event's own value (docs/FORMATS.md §10.1): "a renewal adds no more than 14
 * days", "plans are limited to 12 installments", "a single transfer never moves more than 400
 * amps", "no loan runs more than 21 days". The bound is the clause's predicate, said of every
 * matching event, so it becomes a forbidden check on the events outside it (`days: {gt: 14}`),
 * never a count of events nor a sum over the session ("… at most $25 in a session, all waivers
 * together" is a sum: counts.ts). A number whose noun names a numeric key of the events ("12
 * installments") is a value of that key, not a number of events.
 */
import type { Pattern, RangeOperator } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { amountsIn, withAmounts, withoutAmounts, type Amount } from "./amounts.js";
import { alternation, comparisonOf, RANGE_WORDS, SCOPE, wordsAt } from "./comparisons.js";
import { afterWindow, resolve, semanticFor, windowed, type ClauseContext, type ClauseOutcome } from "./clauses.js";
import { CONCESSION, forbids } from "./shape.js";
import { canonical, nameStems, parseCount } from "./words.js";

/**
 * A number as a bound writes it: digits, or a word from two to twelve ("more than six blanks"). "One",
 * "a", "no" are left out: "more than one parcel" and "no more than a day" count or date, they bound
 * no key's value.
 */
const NUMBER = `\\d[\\d,]*(?:\\.\\d+)?|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve`;
/** A number and the noun after it, with the comparison words before it (comparisons.ts): "no more than 12 installments", "over 400 amps". */
const KEYED_NUMBER = new RegExp(`\\b(${alternation(wordsAt("before"))})\\s+(${NUMBER})\\s+([A-Za-z][\\w-]*)`, "gi");
/** The same with the words after the noun (comparisons.ts): "40 tonnes at most", "14 days or less". */
const KEYED_AFTER = new RegExp(`(?<![$€£\\d.,])\\b(${NUMBER})\\s+([A-Za-z][\\w-]*)\\s+(${alternation(wordsAt("after"))})\\b`, "gi");
/** Two numbers and the noun after them, both included (comparisons.ts RANGE_WORDS): "between 4 and 40 tonnes", "from 2 to 6 installments". */
const KEYED_RANGE = new RegExp(
  `\\b(?:${alternation(RANGE_WORDS.open)})\\s+(\\d[\\d,]*(?:\\.\\d+)?)\\s+(?:${alternation(RANGE_WORDS.close)})\\s+(\\d[\\d,]*(?:\\.\\d+)?)\\s+([A-Za-z][\\w-]*)`,
  "gi",
);
/** What may follow the bound in the clause: nothing that is a verb of its own ("… over $500 must be approved"). */
const VERB_AFTER =
  /\b(?:must|should|shall|may|can|cannot|needs?|requires?|is|are|be|been|has|have|had|gets?|goes|go|without|unless|until|before|after|only|and|or|if|when|while|then)\b/i;
/**
 * The bound is the predicate: a verb (or "is", "are") stands right before its words, or "with" after
 * what the act hands over ("never hands over a weapon loaded with more than six blanks").
 */
const VERB_BEFORE = /\b(?:is|are|be|[a-z]{2,}s|[a-z]{2,}ed|run|move|add|last|take|cover|get|with)\s+(?:(?:never|not|only|ever)\s+)?$/i;

/** The other side of each operator's cut: "at most 14" (`lte`) leaves `gt` outside. */
const COMPLEMENT: Record<keyof RangeOperator, keyof RangeOperator> = { lte: "gt", lt: "gte", gte: "lt", gt: "lte" };

const NUMERIC = /^-?\d+(?:\.\d+)?$/;

/** "is from 5 to 25 g", "are between 2 and 6 installments": a predicate stating the range each event's value is in (a rule clause). */
export const RANGE_STATED =
  /\b(?:is|are|must be|has to be)\s+(?:(?:always|only)\s+)?(?:from|between)\s+\d[\d,.]*\s+(?:to|and)\s+\d[\d,.]*\s*[A-Za-z%°]/i;

/** Units written short, by the word a key may spell out: "from 5 to 25 g" bounds `grams`. */
const SHORT_UNITS: Record<string, string> = { g: "gram", kg: "kilo", t: "tonne", lb: "pound", km: "kilometre" };

/** The numeric key of an action that a noun names ("installments" → `installments`, "g" → `grams`). */
function keyNamed(context: ClauseContext, noun: string): string | undefined {
  const written = noun.toLowerCase();
  const stem =
    written in SHORT_UNITS && !context.lexicon.actions.some((a) => a.metadata.some((m) => nameStems(m.key).includes(written)))
      ? canonical(SHORT_UNITS[written]!)
      : canonical(written);
  for (const action of context.lexicon.actions)
    for (const meta of action.metadata)
      if (
        meta.values.length > 0 &&
        meta.values.every((v) => NUMERIC.test(v.value.trim())) &&
        nameStems(meta.key).some((s) => s === stem || (s.length >= 4 && stem.startsWith(s)))
      )
        return meta.key;
  return undefined;
}

interface Bound {
  range: RangeOperator;
  start: number;
  end: number;
  /** The key a keyed number names; undefined for an amount with a unit (amounts.ts picks its key). */
  key?: string;
  amount?: Amount;
}

const numberOf = (written: string): number => parseCount(written) ?? Number(written.replace(/,/g, ""));

/** The clause's one bound on a value, amount or keyed number; undefined when it has none or several. */
function boundIn(context: ClauseContext, clause: string): Bound | undefined {
  const amounts = amountsIn(clause);
  const keyed = (re: RegExp, read: (m: RegExpMatchArray) => { noun: string; range: RangeOperator } | undefined): Bound[] =>
    [...clause.matchAll(re)].flatMap((m) => {
      const found = read(m);
      const key = found === undefined ? undefined : keyNamed(context, found.noun);
      return key === undefined ? [] : [{ range: found!.range, start: m.index!, end: m.index! + m[0].length, key }];
    });
  const op = (words: string, position: "before" | "after") => comparisonOf(words, position)?.op;
  const bounds: Bound[] = [
    ...amounts.map((a) => ({ range: a.range, start: a.start, end: a.end, amount: a })),
    // A range first: its "… and 40 tonnes" is no bound of its own.
    ...keyed(KEYED_RANGE, (m) => {
      const [low, high] = [numberOf(m[1]!), numberOf(m[2]!)].sort((a, b) => a - b) as [number, number];
      return { noun: m[3]!, range: { gte: low, lte: high } };
    }),
    ...keyed(KEYED_NUMBER, (m) => {
      const o = op(m[1]!, "before");
      return o === undefined ? undefined : { noun: m[3]!, range: { [o]: numberOf(m[2]!) } };
    }),
    ...keyed(KEYED_AFTER, (m) => {
      const o = op(m[3]!, "after");
      return o === undefined ? undefined : { noun: m[2]!, range: { [o]: numberOf(m[1]!) } };
    }),
  ];
  const distinct = bounds.filter((b, i) => bounds.findIndex((o) => o.start < b.end && b.start < o.end) === i);
  return distinct.length === 1 ? distinct[0] : undefined;
}

/** "per load", "per parcel", "for each crate": the group words of a clause (the noun in group 1). */
const PER_NOUN = /\b(?:per|for\s+each|for\s+every)\s+(?:(?:a|an|one|single)\s+)?([A-Za-z][\w-]*)/gi;

/**
 * The clause without a "per X" that names each event itself: "capped at 40 tonnes per load" bounds
 * every `dump_load`'s tonnes, not the loads' total, when X names an action (its name or the spec's
 * word for it) and no key of X holds one value on two of that action's events (a `load_id` seen on
 * two dumps would make "per load" a group, as "90 minutes per possession" over its extensions is).
 */
function withoutPerEvent(context: ClauseContext, text: string, key: string | undefined): { text: string; act?: string } {
  // The act must carry what is bounded: the keyed number's key, or for an amount some numeric key ("per customer" names `get_customer`, which carries no weight).
  const carries = (a: (typeof context.lexicon.actions)[number]) =>
    a.metadata.some((m) =>
      key === undefined ? m.values.length > 0 && m.values.every((v) => NUMERIC.test(v.value.trim())) : m.key === key,
    );
  let act: string | undefined;
  const rest = text.replace(PER_NOUN, (phrase, noun: string) => {
    const stem = canonical(noun.toLowerCase());
    const acts = context.lexicon.actions.filter(
      (a) => !a.isResult && carries(a) && (a.stems.includes(stem) || a.gloss?.includes(stem) === true),
    );
    if (acts.length === 0) return phrase;
    const grouped = acts.some((a) => a.metadata.some((m) => nameStems(m.key).includes(stem) && m.distinct < m.count));
    if (grouped) return phrase;
    if (acts.length === 1) act = acts[0]!.name;
    return " ";
  });
  return act === undefined ? { text: rest } : { text: rest, act };
}

/** The ranges outside a bound: what a forbidden check matches ("between 4 and 40" has one on each side). */
function outside(range: RangeOperator): RangeOperator[] {
  return (Object.entries(range) as [keyof RangeOperator, number][]).map(([op, value]) => ({ [COMPLEMENT[op]]: value }));
}

/**
 * A bound on each matching event's value, as a forbidden check on the values outside it; or
 * undefined when the clause does not state one as its predicate (then other readers try it).
 */
export function boundFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  const written = clause.replace(CONCESSION, "");
  const asWritten = boundIn(context, written);
  if (asWritten === undefined) return undefined;
  const { text, act } = withoutPerEvent(context, written, asWritten.key);
  if (SCOPE.test(text)) return undefined;
  const bound = boundIn(context, text);
  if (bound === undefined) return undefined;
  const head = text.slice(0, bound.start);
  const tail = text.slice(bound.end);
  if (!VERB_BEFORE.test(head) || VERB_AFTER.test(tail)) return undefined;
  // "No loan runs more than 21 days", "never moves more than 400 amps": the bound as written is what is forbidden.
  const forbidding = /^\s*no\s/i.test(head) || forbids(head, context.grammar);
  const ranges = forbidding ? [bound.range] : outside(bound.range);
  const rest = withoutAmounts(text, [{ ...bound, range: bound.range, unit: bound.amount?.unit ?? "money" }]).replace(
    /\b(?:no|not|never)\b/gi,
    " ",
  );
  const resolved = resolve(context.lexicon, rest, { agentOnly: true });
  const found = resolved?.every((m) => exactValue(m.action) !== undefined) === true ? resolved : undefined;
  // One pattern per range outside the bound, together one forbidden check: "between 4 and 40 tonnes" forbids either side.
  const each = (range: RangeOperator): Pattern | undefined => {
    if (bound.key === undefined)
      return found === undefined ? undefined : withAmounts(context.lexicon, found, [{ ...bound.amount!, range }], rest);
    // "Plans are limited to 12 installments": the one agent action that carries the key, when the words name no other.
    // Or the act "per parcel" named, when it is the one.
    const carriers = context.lexicon.actions.filter(
      (a) => a.actors.includes("agent") && a.metadata.some((m) => m.key === bound.key) && (act === undefined || a.name === act),
    );
    return (
      (found === undefined ? undefined : onKey(context, found, bound.key, range)) ??
      (carriers.length === 1 ? onKey(context, [{ action: carriers[0]!.name }], bound.key, range) : undefined)
    );
  };
  const patterns = ranges.map(each);
  if (patterns.some((p) => p === undefined)) return undefined;
  const match = patterns.flatMap((p) => p!);
  const window = afterWindow(context);
  if (window === "unresolved") return semanticFor(quote, true, "the drafter could not tell which sample events this bounds");
  return windowed(context, { type: "forbidden", quote, match }, window, quote);
}

/** The pattern with the range on the key, on each matcher's action or its result, whichever carries it. */
function onKey(context: ClauseContext, pattern: Pattern, key: string, range: RangeOperator): Pattern | undefined {
  const carries = (action: string) => context.lexicon.actions.some((a) => a.name === action && a.metadata.some((m) => m.key === key));
  const out = pattern.map((m) => {
    const action = exactValue(m.action)!;
    const on = carries(action) ? action : carries(`${action}_result`) ? `${action}_result` : undefined;
    if (on === undefined) return undefined;
    // A result is the tool's event: the call's actor does not carry over.
    const { actor: _actor, ...rest } = m;
    return { ...(on === action ? m : rest), action: on, metadata: { ...m.metadata, [key]: range } };
  });
  return out.every((m) => m !== undefined) ? out : undefined;
}
