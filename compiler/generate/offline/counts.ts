/**
 * The offline drafter's count readers: "at most two refunds", "at least
 * three different orders", "no more than one tool call per turn" (`per:`
 * the turn key, keys.ts), "one refund per order", and sums of amounts,
 * "refunds to one customer total at most $800" (`sum:` the amount key,
 * amounts.ts).
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { CountCheck, Pattern, RangeOperator } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { boundFrom } from "./bounds.js";
import { amountKey, amountsIn, MEASURE_UNITS, withoutAmounts } from "./amounts.js";
import { afterWindow, resolve, semanticFor, windowed, type ClauseContext, type ClauseOutcome } from "./clauses.js";
import { groupingKey, groupingWords } from "./keys.js";
import { keyNamedBy } from "./lexicon.js";
import { countBoundIn, forbids, type CountBound } from "./shape.js";
import {
  agentActs,
  boundsTotalOverTime,
  countsLimits,
  SUM,
  summedByKeyWords,
  summedKey,
  TOTAL,
  UNSURE,
  withoutSummedNoun,
} from "./summed.js";
import { NEGATED_COMPARISON } from "./comparisons.js";
import { canonical, parseCount } from "./words.js";

/** The agent's tool calls in general: "at most one tool call per turn" counts every agent event of the turn. */
const TOOL_CALLS = /\b(?:tool[- ]?calls?|tool uses?|function calls?|tools?|actions?)\b/i;
/**
 * A number said without a bound word, in a count grouped by something: "one tool call per turn" is at most one. Not a
 * figure of money: the "1" of "MAX £1,500.00 OF KIT PER CUSTOMER" counts nothing; nor a figure's piece or a measure in words: the
 * "1" and "0" of "1.0 m", the "one" of "at least one metre" (a measure since metres are one, amounts.ts). A figure with its
 * unit stays one: "540 kg max per flight" bounds a total per flight (counts.ts sumFrom reads it as a rule clause).
 */
const BARE_NUMBER = new RegExp(
  String.raw`\b(?:only|just)?\s*(?<![$€£][\d,.]*)(?<!\d[.,]\d*)(\d+(?![.,]\d+\s?${MEASURE_UNITS})|(?:one|two|three|four|five|six|seven|eight|nine|ten|a single|single)\b(?!\s?${MEASURE_UNITS}))\b`,
  "i",
);
/** The counted events: the agent's events for "tool calls", else what the phrase names, amounts included. */
function countedPattern(context: ClauseContext, phrase: string, ignore?: string): Pattern | undefined {
  if (TOOL_CALLS.test(phrase) && resolve(context.lexicon, phrase, { agentOnly: true }) === undefined) return [{ actor: "agent" }];
  if (/\btool[- ]?calls?\b|\bfunction calls?\b/i.test(phrase)) return [{ actor: "agent" }];
  return resolve(context.lexicon, phrase, { agentOnly: true, ...(ignore !== undefined ? { ignore } : {}) });
}

function actionsOf(pattern: Pattern): string[] {
  return pattern.flatMap((m) => {
    const action = exactValue(m.action);
    return action === undefined ? [] : [action];
  });
}

/**
 * "No diver is logged in for more than three dives in a day", "one requester gets at most 60 g in
 * total", "a performer gets at most 12 blanks": a subject of "no", "each", "every", "one" (or "a"
 * before what they get) says whose count it is, after any words that only frame the clause.
 */
const SUBJECT =
  /^\W*(?:[^:;]*:\s*)?(?:(?:across|over|in|during)\s+[^,]+,\s*)?(?:(?:no|each|every|any(?:\s+(?:one|single))?|one)\s+([a-z]+)\s+(?=(?:is|are|may|can|must|shall|will|gets?|receives?|takes?)\b)|(?:a|an)\s+([a-z]+)\s+(?=(?:gets?|receives?|may\s+(?:get|receive|have))\b))/i;

/** "No boat takes …", "no supplier's loads …": a subject of "no" (not "no more than …"). */
const NO_SUBJECT = /^\W*no\s+(?!(?:more|fewer|less|greater|higher|lower|longer)\b)[a-z]+(?:'s)?\s+[a-z]+/i;

/** The key the clause's subject names on the counted events, unless it names the counted act itself ("no refund is …"). */
function subjectKey(context: ClauseContext, clause: string, match: Pattern): string | undefined {
  const subject = SUBJECT.exec(clause);
  if (subject === null) return undefined;
  const noun = canonical((subject[1] ?? subject[2]!).toLowerCase());
  const counted = actionsOf(match);
  const grouping = groupingKey(context.lexicon, { noun, phrase: subject[0] }, match);
  const per = "per" in grouping ? grouping.per : undefined;
  const namesAct = counted.some((a) => context.lexicon.actions.find((x) => x.name === a)?.stems.includes(noun) === true);
  // "No guest may be admitted more than twice" (`admit_guest`) names the act's object, as "no refund
  // is issued more than twice" does; the two differ in the samples: a guest is admitted again, a
  // refund is never issued again under its id. So a noun of the act's name keys the count only where
  // one sample has two counted events of one value of its key.
  if (namesAct && (per === undefined || !repeatedIn(context.lexicon.samples, counted, per))) return undefined;
  return per;
}

/** Whether some sample has two events of the actions with one value of the key (`metadata.x`). */
function repeatedIn(samples: readonly Trajectory[], actions: readonly string[], per: string): boolean {
  const key = per.replace(/^metadata\./, "");
  return samples.some((t) => {
    const seen = new Set<string>();
    return t.events.some((e) => {
      const value = e.action !== undefined && actions.includes(e.action) ? e.metadata?.[key] : undefined;
      if (value === undefined || value === null) return false;
      const id = JSON.stringify(value);
      return seen.has(id) || (seen.add(id), false);
    });
  });
}

/** The `per:` of a count, or a reason it has none it can take: the group's noun names no key of the counted events. */
function perOf(context: ClauseContext, clause: string, match: Pattern): { per?: string } | { unknown: string } {
  const words = groupingWords(clause);
  const subject = subjectKey(context, clause, match);
  if (words === undefined) return subject === undefined ? {} : { per: subject };
  const grouping = groupingKey(context.lexicon, words, match);
  // "… in a day": a group the events carry no key for, or the session, where the subject names one.
  if (subject !== undefined && ("unknown" in grouping || grouping.per === undefined)) return { per: subject };
  if ("unknown" in grouping) return grouping;
  return grouping.per === undefined ? {} : { per: grouping.per };
}

/** How a count's note that the samples show no key for its group starts (totals.ts finds it again). */
export const NO_GROUP_KEY = "no sample shows a metadata key for each";

/** The count check, in its window and grouped: or a semantic question when the group's key is not in the samples. */
function finish(context: ClauseContext, check: CountCheck, clause: string, quote: string): ClauseOutcome {
  const window = afterWindow(context);
  if (window === "unresolved") return semanticFor(quote, false, "the drafter could not tell which sample events are counted");
  const per = perOf(context, clause, check.match);
  if (!("unknown" in per)) return windowed(context, { ...check, ...per }, window, quote);
  // Counted over the whole session instead, and said: the person adds the key the samples did not show.
  const outcome = windowed(context, check, window, quote);
  const note = `${NO_GROUP_KEY} ${per.unknown} on the counted events, so the bounds are for the whole session: add per: metadata.<key> if the traces have one`;
  return outcome.kind === "check" ? { ...outcome, note } : outcome;
}

/** A bound's limits without the sides it leaves open. */
function countLimitsOf(count: CountBound): { min?: number; max?: number } {
  return { ...(count.min !== undefined ? { min: count.min } : {}), ...(count.max !== undefined ? { max: count.max } : {}) };
}

/** Whether a clause counts something per group with a bare number: "one tool call per turn". */
export function groupedCount(clause: string): boolean {
  // "Two permits in one lab are two caps": how many limits, no count (summed.ts).
  if (countsLimits(clause)) return false;
  const grouping = groupingWords(clause);
  return grouping !== undefined && BARE_NUMBER.test(clause.replace(grouping.phrase, " "));
}

export function countFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  // "a renewal adds no more than 14 days", "plans are limited to 12 installments": each event's value, not a count (bounds.ts).
  const perEvent = boundFrom(context, clause, quote);
  if (perEvent !== undefined) return perEvent;
  if (countsLimits(clause)) return { kind: "skip" };
  const grouping = groupingWords(clause);
  // "per order" names the group, not what is counted.
  const counted = grouping === undefined ? clause : clause.replace(grouping.phrase, " ");
  // "more than a 90-day supply" bounds an amount (amounts.ts), not how many.
  const howMany = withoutAmounts(counted, amountsIn(counted));
  const count = countBoundIn(howMany);
  const bare = count === undefined && grouping !== undefined ? BARE_NUMBER.exec(howMany) : null;
  if (count === undefined && bare === null) return repeatFrom(context, clause, quote);
  const n = count !== undefined ? count.n : /single/i.test(bare![1]!) ? 1 : parseCount(bare![1]!);
  if (n === undefined) return undefined;
  let limits = count !== undefined ? countLimitsOf(count) : { max: n };
  // "Removing more than three posts is not allowed": a forbidden range is the complement of the allowed one.
  // The whole clause: "No supplier's loads may …" says its "no" in the group's words (keys.ts).
  const rest = count === undefined ? clause : clause.replace(howMany.slice(count.index, count.end), " ");
  // "No boat takes more than 600 litres": a subject of "no" forbids what it has, whoever acts.
  const negated = (forbids(rest, context.grammar) || NO_SUBJECT.test(rest)) && !new RegExp(NEGATED_COMPARISON.source, "i").test(counted);
  if (negated && count !== undefined) {
    if (limits.min !== undefined && limits.max === undefined) limits = { max: limits.min - 1 };
    else if (limits.max !== undefined && limits.min === undefined) limits = { min: limits.max + 1 };
    else return undefined;
  }
  const distinct = /\b(?:different|distinct|unique|separate)\s+([\w-]+)/i.exec(counted);
  const match = countedPattern(context, counted, distinct?.[1]);
  if (match === undefined) return semanticFor(quote, false, "the drafter could not tell which sample events are counted");
  let distinctBy: string | undefined;
  if (distinct !== null) {
    const key = keyNamedBy(context.lexicon, actionsOf(match), distinct[1]!);
    distinctBy = key === undefined ? "content" : `metadata.${key}`;
  }
  // "at most 60 tablets in one session": a total of the events' `tablets`, not a number of events (summed.ts).
  // "The total number of Keys cut for any one Key System … must not exceed ten (10)": a bare number in a grouped count is a total too.
  const noun = count !== undefined ? count.noun : howMany.slice(bare!.index + bare![0].length);
  const total = distinct !== null ? undefined : summedKey(context.lexicon, quote, noun, match);
  if (total === UNSURE) return semanticFor(quote, negated, "the drafter could not tell which sample events' amounts are summed");
  const check: CountCheck =
    total !== undefined
      ? { type: "count", quote, match: withoutSummedNoun(total.match, total.key, quote), sum: `metadata.${total.key}`, ...limits }
      : { type: "count", quote, match, ...limits, ...(distinctBy !== undefined ? { distinctBy } : {}) };
  return finish(context, check, clause, quote);
}

/** "twice", "more than once", "a second time": a prohibition of these allows one. */
const REPEAT = /\b(?:twice|more\s+than\s+once|a\s+second\s+time)\b/i;

/**
 * "No participant is randomized twice", "Wren never refunds an order more than once": at most one
 * of the act, per the thing its words name that the events carry a key for (the first such noun).
 */
function repeatFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  if (!REPEAT.test(clause) || !forbids(clause, context.grammar) || /\b(?:twice|once)\s+(?:a|an|per|in|each|every)\b/i.test(clause))
    return undefined;
  const rest = clause.replace(REPEAT, " ").replace(/\b(?:no|not|never)\b/gi, " ");
  const match = countedPattern(context, rest);
  if (match === undefined) return undefined;
  const per = rest
    .split(/[^A-Za-z]+/)
    .filter((w) => w.length >= 3)
    .map((w) => groupingKey(context.lexicon, { noun: canonical(w.toLowerCase()), phrase: w }, match))
    .find((g): g is { per: string } => "per" in g && g.per !== undefined);
  const window = afterWindow(context);
  if (window === "unresolved") return semanticFor(quote, true, "the drafter could not tell which sample events are counted");
  const check: CountCheck = { type: "count", quote, match, max: 1, ...(per !== undefined ? { per: per.per } : {}) };
  return windowed(context, check, window, quote);
}

/**
 * The bounds on a sum an amount's words set. A sum's bounds are inclusive
 * integers: "at most $800" is max 800, and, where the sentence forbids it,
 * "more than $800" is max 800 too. Undefined for what they cannot say
 * exactly ("more than $800" allowed, "$99.50").
 */
function sumLimits(range: RangeOperator, negated: boolean): { min?: number; max?: number } | undefined {
  const [op, value] = Object.entries(range)[0] as [keyof RangeOperator, number];
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) return undefined;
  if (!negated) return op === "lte" ? { max: value } : op === "gte" ? { min: value } : undefined;
  return op === "gt" ? { max: value } : op === "lt" ? { min: value } : undefined;
}

/** "$450.00 in extras", "$100 in waivers": what an amount is of, right after it. */
const IN_NOUN = /^\s*in\s+((?:[a-z-]+\s+)?[a-z-]+)\b/i;

/** "Refunds to one customer total at most $800": a count of the refunds' amounts, per customer. */
export function sumFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  const amounts = amountsIn(clause);
  // The words of a total may be in the concession the clause was read without (", however many of their reservations …").
  if (amounts.length !== 1 || !(SUM.test(clause) || TOTAL.test(clause) || TOTAL.test(quote) || boundsTotalOverTime(clause)))
    return undefined;
  const amount = amounts[0]!;
  const grouping = groupingWords(clause);
  // "all galvanised sales taken together": what is summed keeps its words ("galvanised sales").
  const together = (words: string) =>
    /together$/i.test(words) ? words.replace(/\b(?:all|of|its|their|his|her|taken|together)\b/gi, " ") : " ";
  let rest = withoutAmounts(clause, amounts).replace(SUM, " ").replace(TOTAL, together);
  // Its commas were the phrase's own, no list's.
  if (/\btogether\b/i.test(TOTAL.exec(clause)?.[0] ?? "")) rest = rest.replace(/,/g, " ");
  // "…, and that's every cod landing … added up": a restatement, not a list's next item (totals.ts).
  rest = rest.replace(/,\s+(?:and\s+)?(?:that's|that is|i\.e\.|meaning|which is)\s/gi, " ");
  if (grouping !== undefined) rest = rest.replace(grouping.phrase, " ");
  // "Payments to one claimant add up to at most $100,000, across all their claims": what is summed
  // carries an amount; the other things the words name ("claims") only say whose.
  const carries = (action: string) => amountKey(context.lexicon, action, amount.unit, clause) !== undefined;
  // "more than $100.00 in waivers, all its adoptions counted together": the noun after "in" names what is summed.
  const named = IN_NOUN.exec(clause.slice(amount.end))?.[1];
  // "The total insured value lent to any one venue …": else the one agent act carrying the key the words name (summed.ts).
  const byKey = summedByKeyWords(context.lexicon, rest);
  // "One guest gets at most £300 in a session, however many of their reservations are moved": no act named that carries
  // the amount, the one agent act that carries an amount of its kind (and a key for the guest the total is of) is summed.
  const carriers = agentActs(context.lexicon).filter(
    (a) => carries(a) && (grouping === undefined || "per" in groupingKey(context.lexicon, grouping, [{ action: a }])),
  );
  const match =
    (named === undefined ? undefined : resolve(context.lexicon, named, { agentOnly: true, only: carries })) ??
    resolve(context.lexicon, rest, { agentOnly: true, only: carries }) ??
    byKey?.match ??
    (carriers.length === 1 ? [{ action: carriers[0]! }] : undefined) ??
    resolve(context.lexicon, rest, { agentOnly: true });
  if (match === undefined) return semanticFor(quote, false, "the drafter could not tell which sample events are summed");
  const keys =
    byKey !== undefined && match === byKey.match
      ? [byKey.key]
      : [...new Set(actionsOf(match).map((action) => amountKey(context.lexicon, action, amount.unit, clause)))];
  const key = keys.length === 1 ? keys[0] : undefined;
  if (key === undefined || actionsOf(match).length !== match.length)
    return semanticFor(quote, false, "the drafter could not tell which metadata key holds the amount summed");
  // "No requester gets more than 60 g in total": a subject of "no" forbids the total, as it does a count (countFrom).
  const without = withoutAmounts(clause, amounts);
  const limits = sumLimits(amount.range, forbids(without, context.grammar) || NO_SUBJECT.test(without));
  if (limits === undefined) return semanticFor(quote, false, "the drafter cannot bound a sum exactly as this says");
  const check: CountCheck = { type: "count", quote, match: withoutSummedNoun(match, key, clause), sum: `metadata.${key}`, ...limits };
  return finish(context, check, clause, quote);
}
