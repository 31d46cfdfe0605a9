/**
 * More forms for the search from labels (issue 25), over the samples' vocabulary and the rule's
 * words: a list of values the sentence writes (`country: IR`, `KP`, `SY` or `CU`), as `{in}` and
 * `{not: {in}}` on each action carrying the key, alone or with a threshold the sentence writes on
 * another key of that action; a key that must be absent (`{exists: false}`) where the samples show
 * the action with and without it; one of two actions the words name (`{action: {in: [a, b]}}`);
 * and, in a condition, the bound event's value compared with the judged event's own (`r.approver_id
 * != event.user_id`, `r.max_days >= event.days`). Each is bounded (a few per rule) and comes in a
 * fixed order.
 */
import { comparableKeys } from "./units.js";
import { edgeRelevance, rateRelevance, scaledExpression, scaledHolds, type Scale } from "./synthesize-arithmetic.js";
import type { CompareOp } from "./rates.js";
import { toInstant, valueEquals, valueOrder } from "../../../runtime/values.js";
import type { Trajectory, TrajectoryEvent } from "../../../runtime/types.js";
import type { Matcher, RangeOperator, ValueMatcher } from "../../ir/types.js";
import { metadataString } from "../../ir/value-eval.js";
import { exactValue, valueTest } from "../../ir/values.js";
import type { Lexicon } from "./lexicon.js";
import { amountsIn } from "./amounts.js";
import { keyRef } from "./keys.js";
import { valueList } from "./lists.js";
import { canonical, nameStems, words } from "./words.js";

/** Lists the sentences write, per rule; keys a list may be combined with a threshold on, per list. */
const MAX_LISTS = 3;
/** A backticked `key: value` followed by more backticked values, joined by commas, "and" or "or". */
const BACKTICKED_LIST = /`([A-Za-z_][\w.-]*):\s*([^`\n]+)`((?:\s*(?:,\s*(?:(?:and|or)\s+)?|(?:and|or)\s+)`[^`\n:]+`)+)/g;
/** Keys per action tried as absent. */
const MAX_ABSENT = 3;
/** Actions the words name that may be joined two by two into one matcher. */
const MAX_UNION_ACTIONS = 6;
/** Key pairs compared per pair of actions in a condition. */
const MAX_CROSS_PAIRS = 2;

export type { CompareOp };

/** A condition's comparison of the bound event's `key` with the judged (`each`) event's `other`. */
export interface Cross {
  key: string;
  op: CompareOp;
  other: string;
  /** One side scaled by a rate the words write (synthesize-arithmetic.ts): `event.dose_ml <= r.kg / 5`. */
  scale?: Scale;
}

/** Whether the comparison holds, as the judge's code reads `r.key op event.other` (a missing key is null). */
export function crossHolds(bound: TrajectoryEvent, each: TrajectoryEvent, c: Cross): boolean {
  if (c.scale !== undefined) return scaledHolds(bound, each, { ...c, scale: c.scale });
  const a = metadataString(bound, c.key) ?? null;
  const b = metadataString(each, c.other) ?? null;
  if (c.op === "==") return valueEquals(a, b);
  if (c.op === "!=") return !valueEquals(a, b);
  const order = valueOrder(a, b);
  return c.op === "<" ? order < 0 : c.op === "<=" ? order <= 0 : c.op === ">" ? order > 0 : order >= 0;
}

/** The `when` text of the comparison, the bound event named `r`. */
export function crossExpression(c: Cross): string {
  if (c.scale !== undefined) return scaledExpression({ ...c, scale: c.scale });
  return `${keyRef("r", c.key)} ${c.op} ${keyRef("event", c.other)}`;
}

type Kind = "number" | "date" | "text";

interface KeyUse {
  kind: Kind;
  /** The key's values per sample (by index). */
  bySample: Map<number, Set<string>>;
}

/** Per action and key: what kind of values it holds, and which values in which sample. */
export type KeyUses = Map<string, Map<string, KeyUse>>;

const isDecimal = (v: string) => /^-?\d+(?:\.\d+)?$/.test(v.trim());

export function keyUses(samples: readonly Trajectory[]): KeyUses {
  const values = new Map<string, Map<string, Map<number, Set<string>>>>();
  samples.forEach((t, i) => {
    for (const e of t.events)
      for (const [key, value] of Object.entries(e.metadata ?? {})) {
        if (typeof value !== "string" || key.startsWith("@")) continue;
        let keys = values.get(e.action);
        if (keys === undefined) values.set(e.action, (keys = new Map()));
        let bySample = keys.get(key);
        if (bySample === undefined) keys.set(key, (bySample = new Map()));
        let set = bySample.get(i);
        if (set === undefined) bySample.set(i, (set = new Set()));
        set.add(value);
      }
  });
  const out: KeyUses = new Map();
  for (const [action, keys] of values) {
    const uses = new Map<string, KeyUse>();
    for (const [key, bySample] of [...keys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const all = [...bySample.values()].flatMap((s) => [...s]);
      const kind: Kind = all.every(isDecimal) ? "number" : all.every((v) => toInstant(v) !== undefined) ? "date" : "text";
      uses.set(key, { kind, bySample });
    }
    out.set(action, uses);
  }
  return out;
}

/**
 * The comparisons worth trying between a key of the bound action and a key of the judged one:
 * both numbers or both dates (ordered), or text the samples show equal in one session (an approver
 * who is the requester); at least one key named by the rule's words, those naming both first.
 */
export function crossesOf(
  uses: KeyUses,
  each: string,
  bind: string,
  on: string | undefined,
  named: (key: string) => boolean,
  /**
   * The words say two values differ ("an agent other than the agent who took control"): two people's
   * keys are compared where some session shows them alike, named or not (an `agent`, an
   * `authorised_by` the words call "the authority of an enforcement agent").
   */
  different = false,
): Cross[] {
  const mine = uses.get(bind);
  const theirs = uses.get(each);
  if (mine === undefined || theirs === undefined) return [];
  const pairs: { key: string; other: string; kind: Kind | "same"; names: number }[] = [];
  for (const [key, a] of mine)
    for (const [other, b] of theirs) {
      if (a.kind !== b.kind || key === on || other === on) continue;
      // Hours are never compared with millilitres (`hours_out`, `ml`): keys whose names carry two units (units.ts).
      if (a.kind === "number" && !comparableKeys(key, other)) continue;
      const names = (named(key) ? 1 : 0) + (named(other) ? 1 : 0);
      if (names === 0 && !(different && a.kind === "text")) continue;
      const together = [...a.bySample.keys()].filter((i) => b.bySample.has(i));
      if (together.length === 0) continue;
      if (a.kind === "text") {
        if (key === other) continue;
        // Text compares only as equal or not: worth it where some session shows the two alike.
        if (!together.some((i) => [...a.bySample.get(i)!].some((v) => b.bySample.get(i)!.has(v)))) continue;
      }
      pairs.push({ key, other, kind: a.kind, names });
    }
  // "Recovered by a winch driver other than the one who deployed it": one key on both events, the
  // two values to differ. Equal values of one key are what `on:` ties; different ones only the words
  // that say so ask for, and only as `!=`.
  if (different)
    for (const [key, a] of mine) {
      const b = theirs.get(key);
      if (b === undefined || a.kind !== "text" || b.kind !== "text" || key === on) continue;
      const together = [...a.bySample.keys()].filter((i) => b.bySample.has(i));
      if (!together.some((i) => [...a.bySample.get(i)!].some((v) => b.bySample.get(i)!.has(v)))) continue;
      pairs.push({ key, other: key, kind: "same", names: named(key) ? 2 : 0 });
    }
  pairs.sort((x, y) => y.names - x.names);
  return pairs
    .slice(0, MAX_CROSS_PAIRS)
    .flatMap((p) =>
      (p.kind === "same" ? (["!="] as const) : p.kind === "text" ? (["!=", "=="] as const) : (["<=", ">=", "<", ">"] as const)).map(
        (op) => ({ key: p.key, op, other: p.other }),
      ),
    );
}

/** Key pairs tried per pair of actions as one thing under two names. */
const MAX_SPLITS = 2;

/**
 * Keys that name one thing under two names, one on each action: a bottle issued for `baby_id`,
 * its feed charted for `patient_id`. Neither action carries the other's key (else the same key
 * ties them), both hold text, and the samples show them sharing a value in at least two sessions
 * (at least half of those that hold both): the same baby under the chart's name for it.
 * Identifiers first.
 */
export function splitKeysOf(uses: KeyUses, earlier: string, later: string): [string, string][] {
  const mine = uses.get(earlier);
  const theirs = uses.get(later);
  if (mine === undefined || theirs === undefined || earlier === later) return [];
  const out: { pair: [string, string]; ids: number }[] = [];
  for (const [key, a] of mine) {
    if (a.kind !== "text" || theirs.has(key)) continue;
    for (const [other, b] of theirs) {
      if (b.kind !== "text" || mine.has(other)) continue;
      const together = [...a.bySample.keys()].filter((i) => b.bySample.has(i));
      const alike = together.filter((i) => [...a.bySample.get(i)!].some((v) => b.bySample.get(i)!.has(v))).length;
      if (alike < 2 || alike * 2 < together.length) continue;
      const ids = [key, other].filter((k) => nameStems(k).includes("id")).length;
      out.push({ pair: [key, other], ids });
    }
  }
  return out
    .sort((x, y) => y.ids - x.ids)
    .slice(0, MAX_SPLITS)
    .map((x) => x.pair);
}

/**
 * Value lists the rule's sentences write, backticks read as plain words, each once: those with two
 * values the samples show on the key, or whose every value the sentence writes in backticks
 * (`country: IR`, `KP`, `SY` or `CU`).
 */
export function listsIn(lexicon: Lexicon, text: string): WrittenList[] {
  const written = new Set([...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim()));
  const shown = (key: string) =>
    new Set(lexicon.actions.flatMap((a) => a.metadata.filter((m) => m.key === key).flatMap((m) => m.values.map((v) => v.value))));
  const out: WrittenList[] = [];
  const add = (list: WrittenList) => {
    // A list the backticks gave already, read again from the prose (a value may be lost there: `BY`).
    if (out.length < MAX_LISTS && !out.some((l) => l.key === list.key && list.values.every((v) => l.values.includes(v)))) out.push(list);
  };
  for (const sentence of text.split(/(?<=[.!?;])\s+/)) {
    // `key: a`, `b` or `c`: every value as written, the key the first one names.
    for (const m of sentence.matchAll(BACKTICKED_LIST)) {
      const values = [m[2]!.trim(), ...[...m[3]!.matchAll(/`([^`\n]+)`/g)].map((v) => v[1]!.trim())];
      if (shown(m[1]!).size > 0) add({ key: m[1]!, values: [...new Set(values)], sentence });
    }
    let rest = sentence.replace(/`([^`\n]+)`/g, "$1");
    for (let tries = 0; tries < MAX_LISTS; tries++) {
      const list = valueList(lexicon, rest);
      if (list === undefined) break;
      rest = rest.slice(list.end);
      const values = shown(list.key);
      const known = list.values.filter((v) => values.has(v)).length;
      const quoted = list.values.every((v) => written.has(v) || written.has(`${list.key}: ${v}`));
      if (known >= 2 || quoted) add({ key: list.key, values: list.values, sentence });
    }
  }
  return out;
}

/** A list of values a sentence writes, and the sentence. */
export interface WrittenList {
  key: string;
  values: string[];
  sentence: string;
}

/** The threshold a sentence states on an amount ("8 hours at most"), and its complement (what a forbidden check matches). */
export function statedThresholds(sentence: string): RangeOperator[] {
  const out: RangeOperator[] = [];
  const complement = { gt: "lte", gte: "lt", lt: "gte", lte: "gt" } as const;
  for (const a of amountsIn(sentence)) {
    const bounds = Object.entries(a.range).filter(([, b]) => b !== undefined) as [keyof typeof complement, number][];
    if (bounds.length !== 1) continue;
    const [op, bound] = bounds[0]!;
    for (const range of [{ [op]: bound }, { [complement[op]]: bound }])
      if (!out.some((r) => JSON.stringify(r) === JSON.stringify(range))) out.push(range);
  }
  return out;
}

/** The keys the samples show on one action, as the candidates know them. */
export interface ActionKey {
  key: string;
  values: string[];
  numeric: boolean;
}

/**
 * Matchers of the written lists, on each action carrying the key: `{in}`, `{not: {in}}`, and each
 * `{in}` with one of the given thresholds (those of the list's own sentence) on another numeric key
 * of that action.
 */
export function listMatchers(
  lists: readonly WrittenList[],
  keys: ReadonlyMap<string, readonly ActionKey[]>,
  thresholds: (action: string, key: ActionKey, list: WrittenList) => RangeOperator[],
): Matcher[] {
  const out: Matcher[] = [];
  for (const list of lists)
    for (const [action, facts] of keys) {
      if (!facts.some((k) => k.key === list.key)) continue;
      const inList: ValueMatcher = { in: list.values };
      out.push({ action, metadata: { [list.key]: inList } }, { action, metadata: { [list.key]: { not: inList } } });
      for (const k of facts)
        if (k.key !== list.key && k.numeric && !k.key.startsWith("@"))
          for (const range of thresholds(action, k, list)) out.push({ action, metadata: { [list.key]: inList, [k.key]: range } });
    }
  return out;
}

/** `{exists: false}` on keys the words name that the samples show on some events of an action and not on others. */
export function absentMatchers(samples: readonly Trajectory[], named: (key: string) => boolean): Matcher[] {
  const seen = new Map<string, { events: number; keys: Map<string, number> }>();
  for (const t of samples)
    for (const e of t.events) {
      if (e.action === "message") continue;
      let facts = seen.get(e.action);
      if (facts === undefined) seen.set(e.action, (facts = { events: 0, keys: new Map() }));
      facts.events++;
      for (const key of Object.keys(e.metadata ?? {})) if (!key.startsWith("@")) facts.keys.set(key, (facts.keys.get(key) ?? 0) + 1);
    }
  const out: Matcher[] = [];
  for (const [action, facts] of [...seen].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const sometimes = [...facts.keys]
      .filter(([key, n]) => n < facts.events && named(key))
      .map(([key]) => key)
      .sort();
    for (const key of sometimes.slice(0, MAX_ABSENT)) out.push({ action, metadata: { [key]: { exists: false } } });
  }
  return out;
}

/** How near two names' words must stand, "and" or "or" between them, to be one list ("every grant and every refusal"). */
const JOINED_WITHIN = 5;

/**
 * `{action: {in: [a, b]}}` for two actions (not results) the words name (half their name or more) and join with
 * "and" or "or" ("paid or denied", "parts or sign-offs").
 */
export function unionMatchers(plain: readonly { m: Matcher; r: number }[], text: string): Matcher[] {
  const named = plain
    .filter((x) => x.m.metadata === undefined && x.r >= 0.5 && !/_result$/.test(exactValue(x.m.action) ?? "_result"))
    .slice(0, MAX_UNION_ACTIONS)
    .map((x) => exactValue(x.m.action)!);
  // Prose words one by one; a name in backticks is one token, itself (`deny_request` says no "request").
  const tokens: { word: string; name?: string }[] = text
    .split(/(`[^`\n]+`)/)
    .flatMap((part) =>
      part.startsWith("`") ? [{ word: "", name: part.slice(1, -1).trim() }] : words(part).map((w) => ({ word: w.toLowerCase() })),
    );
  const stems = tokens.map((t) => (t.name === undefined ? canonical(t.word) : ""));
  // Where the words name an action: its name in backticks, or a word the other's name lacks ("deny" of deny_request).
  const at = (action: string, other: string) => {
    const theirs = new Set(nameStems(other));
    const own = new Set(nameStems(action).filter((s) => s !== "result" && !theirs.has(s)));
    return stems.flatMap((s, i) => (tokens[i]!.name === action || own.has(s) ? [i] : []));
  };
  const joined = (a: string, b: string) =>
    at(a, b).some((i) =>
      at(b, a).some((j) => {
        const [lo, hi] = i < j ? [i, j] : [j, i];
        return hi - lo <= JOINED_WITHIN && tokens.slice(lo + 1, hi).some((t) => t.word === "and" || t.word === "or");
      }),
    );
  const out: Matcher[] = [];
  for (let i = 0; i < named.length; i++)
    for (let j = i + 1; j < named.length; j++) if (joined(named[i]!, named[j]!)) out.push({ action: { in: [named[i]!, named[j]!] } });
  return out;
}

/** The actions a matcher's action names: one, or an `{in}` list. */
export function actionsOf(m: Matcher): string[] {
  if (m.action === undefined) return [];
  const t = valueTest(m.action);
  return t.op === "equals" ? [t.value] : t.op === "in" ? [...t.values] : [];
}

/** Whether a key's name is one of the rule's words. */
export const namedBy = (words: ReadonlySet<string>) => (key: string) => nameStems(key).some((s) => s !== "id" && words.has(s));

/** Words that say two values differ ("someone other than the requester"). */
export const DIFFERENT = /\b(?:other than|someone else|somebody else|different|differs?|not the same|never the same|independent)\b/i;
/** Words that compare two amounts or dates ("may not exceed the lookup's `max_days`", "on or after the date of loss"). */
const ORDERED =
  /\b(?:exceeds?|exceeding|more than the|less than the|fewer than the|at most the|at least the|up to the|on or after|on or before|no later than|no earlier than|later than|earlier than|beyond the)\b/i;

/** How much the rule's words speak of a comparison: its two keys named, and a word that compares as it does. */
export function crossRelevance(c: Cross, words: ReadonlySet<string>, text: string): number {
  const named = namedBy(words);
  const named2 = (named(c.key) ? 0.25 : 0) + (named(c.other) ? 0.25 : 0);
  // A rate the words write is its own cue (synthesize-arithmetic.ts).
  if (c.scale !== undefined) return named2 + rateRelevance({ ...c, scale: c.scale }, text);
  const cue = c.op === "!=" ? DIFFERENT.test(text) : c.op !== "==" && ORDERED.test(text);
  return named2 + (cue ? 0.3 : 0) + edgeRelevance(c, text);
}
