/**
 * Clause builders for the extended forms of the rule language
 * (docs/FORMATS.md §10): ordering with `on`/`fresh`, pairing with `on`/`within`,
 * windows per key, counts per group or by sum, and the condition check. As in
 * checks.ts, a generated stepper keeps the state and these turn it into a
 * clause; called with `complete: false`, a builder gives `false` only when no
 * continuation can change it (the monitor's violations rest on that).
 *
 * A false clause also says, in `explanation`, what was expected and what was
 * found: the key and its value, the bound events and the values compared.
 */
import { absentReason } from "./fold.js";
import type { Keyed } from "./keyed.js";
import type { StepEvent } from "./stepper.js";
import type { CheckType, Citation, Clause, NaReason, Verdict } from "./types.js";

function cite(eventId: string, description: string): Citation {
  return { eventId, description };
}

function predicate(
  check: CheckType,
  quote: string,
  verdict: Verdict,
  naReason: NaReason | null,
  citations: Citation[],
  explanation?: string,
): Clause {
  const clause: Clause = { kind: "predicate", quote, verdict, naReason, citations, check };
  if (verdict === "false") {
    clause.verification = "unverified";
    if (explanation !== undefined) clause.explanation = explanation;
  }
  return clause;
}

/** Citations without repeats, the first occurrence kept. */
function unique(citations: Citation[]): Citation[] {
  const seen = new Set<string>();
  return citations.filter((c) => (seen.has(c.eventId) ? false : (seen.add(c.eventId), true)));
}

/** `order_id "A"`, or `no order_id` for an event without the key. */
function keyed(key: string, value: string | null | undefined): string {
  return value === null || value === undefined ? `no ${key}` : `${key} ${JSON.stringify(value)}`;
}

export interface KeyedOrderingState {
  readonly quote: string;
  readonly complete: boolean;
  /** Each `before` event that had its `first`, as `first, before` pairs, flat. */
  readonly pairs: readonly string[];
  /** The first `before` event without one. */
  readonly failed: string | undefined;
  /** Its value of the `before` side's key (null: it has none); only with `on`. */
  readonly failedKey?: string | null | undefined;
  /** The `before` side's key, with `on`. */
  readonly key?: string;
  readonly fresh: boolean;
}

/** Why a keyed or fresh ordering is false: its `before` event `failed` had no (fresh, same-key) `first`. */
export function orderingExplanation(failed: string, failedKey: string | null | undefined, key: string | undefined, fresh: boolean): string {
  const sameKey = key === undefined ? "" : ` with the same ${key}`;
  const own = key === undefined ? "" : ` (${keyed(key, failedKey)})`;
  const when = fresh ? `since the previous event matching \`before\`${key === undefined ? "" : ` of that ${key}`}` : "before it";
  return key !== undefined && (failedKey === null || failedKey === undefined)
    ? `${failed} matches \`before\` but has no ${key}, so no event matching \`first\` can share it`
    : `${failed} matches \`before\`${own}, and no event matching \`first\`${sameKey} came ${when}`;
}

/** Ordering with `on` and/or `fresh`: every `before` event needs its own earlier `first`. */
export function keyedOrderingClause(state: KeyedOrderingState): Clause {
  const { quote, complete, pairs, failed, key, fresh } = state;
  if (failed !== undefined) {
    const sameKey = key === undefined ? "" : ` with the same ${key}`;
    const own = key === undefined ? "" : ` (${keyed(key, state.failedKey)})`;
    const explanation = orderingExplanation(failed, state.failedKey, key, fresh);
    return predicate(
      "ordering",
      quote,
      "false",
      null,
      [cite(failed, `event matching \`before\`${own} with no ${fresh ? "fresh " : "earlier "}event matching \`first\`${sameKey}`)],
      explanation,
    );
  }
  if (pairs.length === 0) return predicate("ordering", quote, "na", absentReason(complete), []);
  const citations: Citation[] = [];
  for (let k = 0; k + 1 < pairs.length; k += 2) {
    citations.push(cite(pairs[k]!, "event matching `first`"), cite(pairs[k + 1]!, "event matching `before`"));
  }
  return predicate("ordering", quote, "true", null, unique(citations));
}

export interface ExtendedPairingState {
  readonly quote: string;
  readonly complete: boolean;
  /** The `each` events in order. */
  readonly each: readonly string[];
  /** For each served `each` event (its index), its first follower. */
  readonly servedIndex: readonly number[];
  readonly servedBy: readonly string[];
  /** Indexes of `each` events whose N following events held no follower (with `within`). */
  readonly failed: readonly number[];
  /** The events that came instead of a follower to the first of them, in words (eventsInstead). */
  readonly instead?: string;
  readonly within?: number;
  /** With `on`: each `each` event's key value (null: none), and the key. */
  readonly eachKeys?: readonly (string | null)[];
  readonly key?: string;
}

/** How many of the events that came instead an explanation lists, at most: the first ones and the last. */
const INSTEAD_SHOWN = 6;

/**
 * The events at positions `from + 1 … to` (the `within` events after an
 * `each` event at `from`), from the last `within` events kept by position
 * modulo `within`: `e2 (ask, id "B"), e3 (other)`, each with its value of the
 * follower's key when the pairing has `on`. A long window shows its first and
 * last events and how many between.
 */
export function eventsInstead(recent: Keyed<StepEvent, number>, from: number, to: number, key: string | undefined): string {
  const within = to - from;
  const shown = (position: number): string => {
    const event = recent.get(position % within);
    if (event === undefined) return "?";
    const value: unknown = key === undefined ? undefined : event.metadata?.[key];
    return `${event.id} (${event.action}${typeof value === "string" ? `, ${keyed(key!, value)}` : ""})`;
  };
  const parts: string[] = [];
  if (within <= INSTEAD_SHOWN) for (let p = from + 1; p <= to; p++) parts.push(shown(p));
  else {
    const head = INSTEAD_SHOWN - 2;
    for (let p = from + 1; p <= from + head; p++) parts.push(shown(p));
    parts.push(`… ${within - INSTEAD_SHOWN} more …`);
    for (let p = to - 1; p <= to; p++) parts.push(shown(p));
  }
  return parts.join(", ");
}

/**
 * Why a pairing with `within` is false: `each`'s next `within` events (`instead`,
 * from eventsInstead) held no follower.
 */
export function withinExplanation(
  each: string,
  eachKey: string | null | undefined,
  key: string | undefined,
  within: number,
  instead: string,
): string {
  const sameKey = key === undefined ? "" : ` (${keyed(key, eachKey)})`;
  const follower = `\`followedBy\`${key === undefined ? "" : ` with the same ${key}`}`;
  return within === 1
    ? `${each}${sameKey} was followed by ${instead}, which does not match ${follower}`
    : `${each}${sameKey} was followed by ${within} events, ${instead}, and none of them matched ${follower}`;
}

/** Pairing with `on` and/or `within`: every `each` event needs its own (keyed, near) follower. */
export function extendedPairingClause(state: ExtendedPairingState): Clause {
  const { quote, complete, each, servedIndex, servedBy, failed, within, key } = state;
  if (each.length === 0) return predicate("pairing", quote, "na", absentReason(complete), []);
  const follower: (string | undefined)[] = new Array(each.length).fill(undefined);
  for (let k = 0; k < servedIndex.length; k++) follower[servedIndex[k]!] = servedBy[k];
  const failedSet = new Set(failed);
  const waiting: number[] = [];
  for (let i = 0; i < each.length; i++) if (follower[i] === undefined && !failedSet.has(i)) waiting.push(i);
  const sameKey = (i: number) => (key === undefined ? "" : ` (${keyed(key, state.eachKeys?.[i])})`);
  const near = within === undefined ? "later" : `within the next ${within} event${within === 1 ? "" : "s"}`;
  const unmatched = (i: number) =>
    cite(
      each[i]!,
      `event matching \`each\`${sameKey(i)} with no ${near} event matching \`followedBy\`${key === undefined ? "" : ` with the same ${key}`}`,
    );
  if (failed.length > 0 || (waiting.length > 0 && complete)) {
    const bad = complete ? [...failed, ...waiting].sort((a, b) => a - b) : [...failed];
    const first = bad[0]!;
    const explanation =
      within !== undefined && failedSet.has(first)
        ? withinExplanation(each[first]!, state.eachKeys?.[first], key, within, state.instead ?? "")
        : `${each[first]}${sameKey(first)} has no ${near} event matching \`followedBy\`${key === undefined ? "" : ` with the same ${key}`}`;
    return predicate("pairing", quote, "false", null, bad.map(unmatched), explanation);
  }
  if (waiting.length > 0) return predicate("pairing", quote, "na", "insufficient_evidence", []);
  const citations: Citation[] = [];
  for (let i = 0; i < each.length; i++) {
    citations.push(cite(each[i]!, "event matching `each`"), cite(follower[i]!, "first matching `followedBy`"));
  }
  return predicate("pairing", quote, "true", null, unique(citations));
}

export interface KeyedWindowState {
  readonly quote: string;
  readonly complete: boolean;
  /** The events that opened a window, one per key value, in order, and their key values. */
  readonly openers: readonly string[];
  readonly openerKeys: readonly string[];
  /** The `after` side's key. */
  readonly key: string;
}

export interface KeyedRequiredState extends KeyedWindowState {
  /** For each opener, the first match inside its window. */
  readonly firstMatches: readonly (string | undefined)[];
}

/** Required with `after` and `on`: every opened key's window needs a match with that key. */
export function keyedRequiredClause(state: KeyedRequiredState): Clause {
  const { quote, complete, openers, openerKeys, firstMatches, key } = state;
  if (openers.length === 0) return predicate("required", quote, "na", absentReason(complete), []);
  const missing: number[] = [];
  for (let k = 0; k < openers.length; k++) if (firstMatches[k] === undefined) missing.push(k);
  if (missing.length === 0)
    return predicate(
      "required",
      quote,
      "true",
      null,
      firstMatches.map((id, k) => cite(id!, `first match with ${keyed(key, openerKeys[k])}`)),
    );
  if (!complete) return predicate("required", quote, "na", "insufficient_evidence", []);
  const first = missing[0]!;
  return predicate(
    "required",
    quote,
    "false",
    null,
    missing.map((k) => cite(openers[k]!, `opened the window of ${keyed(key, openerKeys[k])}, which holds no match`)),
    `no match with ${keyed(key, openerKeys[first])} after ${openers[first]}, which opened its window`,
  );
}

export interface KeyedForbiddenState {
  readonly quote: string;
  readonly complete: boolean;
  readonly windowOpen: boolean;
  readonly matches: readonly string[];
  readonly matchKeys: readonly string[];
  /** The `match` side's key. */
  readonly key: string;
}

/** Forbidden with `after` and `on`: no match inside its own key's window. */
export function keyedForbiddenClause(state: KeyedForbiddenState): Clause {
  const { quote, complete, windowOpen, matches, matchKeys, key } = state;
  if (!windowOpen) return predicate("forbidden", quote, "na", absentReason(complete), []);
  if (matches.length === 0) return predicate("forbidden", quote, "true", null, []);
  return predicate(
    "forbidden",
    quote,
    "false",
    null,
    matches.map((id, k) => cite(id, `forbidden match inside the window of ${keyed(key, matchKeys[k])}`)),
    `${matches[0]} (${keyed(key, matchKeys[0])}) comes after the window of its ${key} opened`,
  );
}

/** How a grouped count names its groups and figures (the keys of per, on and sum). */
export interface GroupNames {
  readonly per?: string;
  readonly on?: string;
  readonly sum?: string;
}

export interface GroupedCountState {
  readonly quote: string;
  readonly complete: boolean;
  readonly windowOpen: boolean;
  /** The counted matches in order, each's group and (with sum) amount. */
  readonly counted: readonly string[];
  readonly countedGroups: readonly string[];
  readonly countedAmounts?: readonly number[];
  /** Groups that exist with no match: opened windows nothing was counted in. */
  readonly emptyGroups: readonly string[];
  readonly names: GroupNames;
  readonly min?: number;
  readonly max?: number;
}

/** Count with per, sum or keyed windows: the bounds hold for each group's figure. */
export function groupedCountClause(state: GroupedCountState): Clause {
  const { quote, complete, windowOpen, counted, countedGroups, countedAmounts, min, max, names } = state;
  const describeGroup = (group: string) => groupLabel(names, group);
  if (!windowOpen) return predicate("count", quote, "na", absentReason(complete), []);
  const figures = new Map<string, number>();
  for (let k = 0; k < counted.length; k++) {
    const group = countedGroups[k]!;
    figures.set(group, (figures.get(group) ?? 0) + (countedAmounts === undefined ? 1 : countedAmounts[k]!));
  }
  for (const group of state.emptyGroups) if (!figures.has(group)) figures.set(group, 0);
  // `@turn "3" has 2 matches`; `the sum of amount for order_id "B" is 600` (over all matches, without per or on).
  const figureText = (group: string, figure: number) =>
    names.sum === undefined
      ? `${describeGroup(group)} has ${figure} match${figure === 1 ? "" : "es"}`
      : `the sum of ${names.sum} ${names.per === undefined && names.on === undefined ? "over all matches" : `for ${describeGroup(group)}`} is ${figure}`;
  let above: string | undefined;
  let below: string | undefined;
  for (const [group, figure] of figures) {
    if (below === undefined && min !== undefined && figure < min) below = group;
  }
  // Above max: the group that went above it first, the one the monitor reported when it did
  // (MONITOR.md: the final clause cites at least the ids reported), not the first in order.
  if (max !== undefined) {
    const running = new Map<string, number>();
    for (let k = 0; k < counted.length && above === undefined; k++) {
      const group = countedGroups[k]!;
      const figure = (running.get(group) ?? 0) + (countedAmounts === undefined ? 1 : countedAmounts[k]!);
      running.set(group, figure);
      if (figure > max && figures.get(group)! > max) above = group;
    }
  }
  const groupCitations = (group: string) => {
    const citations: Citation[] = [];
    for (let k = 0; k < counted.length; k++)
      if (countedGroups[k] === group) citations.push(cite(counted[k]!, `counted match of ${describeGroup(group)}`));
    return citations;
  };
  if (above !== undefined) {
    return predicate(
      "count",
      quote,
      "false",
      null,
      groupCitations(above),
      `${figureText(above, figures.get(above)!)}, above the max of ${max}`,
    );
  }
  if (below !== undefined) {
    if (!complete) return predicate("count", quote, "na", "insufficient_evidence", []);
    return predicate(
      "count",
      quote,
      "false",
      null,
      groupCitations(below),
      `${figureText(below, figures.get(below)!)}, below the min of ${min}`,
    );
  }
  return predicate(
    "count",
    quote,
    "true",
    null,
    counted.map((id, k) => cite(id, `counted match of ${describeGroup(countedGroups[k]!)}`)),
  );
}

/**
 * A group key as a person reads it: `order_id "A"`, `@turn "3"`, both (a JSON
 * pair when the count has on and per; per null: a window nothing was counted
 * in), or "all matches" for the one group of a plain count.
 */
export function groupLabel(names: GroupNames, group: string): string {
  if (names.on !== undefined && names.per !== undefined) {
    const [windowKey, perValue] = JSON.parse(group) as [string, string | null];
    return perValue === null ? `${keyed(names.on, windowKey)} (no match)` : `${keyed(names.on, windowKey)}, ${keyed(names.per, perValue)}`;
  }
  if (names.on !== undefined) return keyed(names.on, group);
  if (names.per !== undefined) return keyed(names.per, group);
  return "all matches";
}

export interface ConditionState {
  readonly quote: string;
  readonly complete: boolean;
  /** Every `each` event, in order. */
  readonly eaches: readonly string[];
  /** The failed ones, each followed by the events it had bound, flat, with how many of each. */
  readonly failed: readonly string[];
  readonly failedCitations: readonly string[];
  readonly explanation: string | undefined;
}

/** Condition: for every `each` event, its names bind and `when` holds. */
export function conditionClause(state: ConditionState): Clause {
  const { quote, complete, eaches, failed, failedCitations } = state;
  if (failed.length > 0) {
    const failing = new Set(failed);
    const citations = failedCitations.map((id) =>
      cite(id, failing.has(id) ? "event matching `each` for which the condition does not hold" : "event bound by `with`"),
    );
    return predicate("condition", quote, "false", null, unique(citations), state.explanation);
  }
  if (eaches.length === 0) return predicate("condition", quote, "na", absentReason(complete), []);
  return predicate("condition", quote, "true", null, unique(eaches.map((id) => cite(id, "event matching `each`; the condition holds"))));
}

/** A value as the explanation shows it. */
function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : value === undefined ? "null" : String(value);
}

/**
 * The sentence of a failed condition: the expression, what each name bound
 * (or that nothing did), and the values the expression read.
 */
export function explainCondition(
  eventId: string,
  expression: string,
  bindings: readonly (readonly [name: string, bound: StepEvent | undefined])[],
  reads: readonly (readonly [label: string, value: unknown])[] | undefined,
): string {
  const bound = bindings.map(([name, event]) =>
    event === undefined ? `${name}: no earlier event matched` : `${name} = ${event.id} (${event.action})`,
  );
  const values = reads === undefined ? [] : reads.map(([label, value]) => `${label} = ${shown(value)}`);
  const because = reads === undefined ? "a name bound no event" : "it is false";
  return [`at ${eventId}, \`${expression}\` does not hold (${because})`, ...bound, ...values].join("; ");
}

/** The `each` events of a pairing that no follower served and that did not fail: what it still owes. */
export function waitingEach(each: readonly string[], servedIndex: readonly number[], failed: readonly number[]): string[] {
  const done = new Set<number>([...servedIndex, ...failed]);
  return each.filter((_, i) => !done.has(i));
}
