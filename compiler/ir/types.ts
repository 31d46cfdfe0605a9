/**
 * The judge.yaml intermediate representation, version 1 (docs/FORMATS.md §3),
 * after parsing and defaulting. These are plain data types; the zod schema in
 * `schema.ts` is the single source of validation. An optional field may also
 * be present as undefined, which means absent: the schema's output type
 * allows it, and so must every reader.
 */
import type { Actor, CheckType } from "../../runtime/types.js";

export type { Actor, CheckType };

/**
 * A bound of a comparison: a number (the event's value must be a decimal
 * number) or an ISO-8601 date or date-time string (compared as instants; no
 * zone means UTC). docs/FORMATS.md §10.1.
 */
export type Bound = number | string;

/** `{gt|gte: lower}` and/or `{lt|lte: upper}`: at most one lower and one upper bound, of one kind. */
export interface RangeOperator {
  gt?: Bound | undefined;
  gte?: Bound | undefined;
  lt?: Bound | undefined;
  lte?: Bound | undefined;
}

/** One operator object (docs/FORMATS.md §10.1); the IR keeps it as judge.yaml writes it. */
export type ValueOperator =
  | { equals: string }
  | { in: string[] }
  | { not: ValueMatcher }
  | { matches: string; flags?: "i" | undefined }
  | RangeOperator
  | { exists: boolean };

/** A string (exact, as in version 1 of the language) or one operator object. */
export type ValueMatcher = string | ValueOperator;

/** All given fields must hold; at least one field is present. */
export interface Matcher {
  action?: ValueMatcher | undefined;
  actor?: Actor | undefined;
  contentIncludes?: string | undefined;
  /** The event's content (\"\" when absent) against a value matcher. */
  content?: ValueMatcher | undefined;
  metadata?: Record<string, ValueMatcher> | undefined;
}

/** `metadata.<key>`, as written (the key is everything after the first dot). */
export type KeyRef = string;

/**
 * Correlation (`on:`): one key both sides share, or each side's key, named
 * by the side's field (`{first: metadata.a, before: metadata.b}`).
 */
export type On<Sides extends string> = KeyRef | { [Side in Sides]: KeyRef };

/** One matcher, or a non-empty any-of list (always a list after parsing). */
export type Pattern = Matcher[];

interface CheckBase {
  quote: string;
}

export interface OrderingCheck extends CheckBase {
  type: "ordering";
  first: Pattern;
  before: Pattern;
  /** Every `before` event needs an earlier `first` event with the same key value. */
  on?: On<"first" | "before"> | undefined;
  /** Every `before` event needs its own `first` event, after the previous `before` event (of its key, with `on`). */
  fresh?: boolean | undefined;
}

export interface PairingCheck extends CheckBase {
  type: "pairing";
  each: Pattern;
  followedBy: Pattern;
  /** The follower must share the `each` event's key value. */
  on?: On<"each" | "followedBy"> | undefined;
  /** The follower must be one of the next N events (a positive integer). */
  within?: number | undefined;
}

/** Correlation of a windowed check: the window is per key value; `on` needs `after`. */
type WindowOn = On<"after" | "match">;

export interface RequiredCheck extends CheckBase {
  type: "required";
  match: Pattern;
  after?: Pattern | undefined;
  on?: WindowOn | undefined;
}

export interface ForbiddenCheck extends CheckBase {
  type: "forbidden";
  match: Pattern;
  after?: Pattern | undefined;
  on?: WindowOn | undefined;
}

export interface CountCheck extends CheckBase {
  type: "count";
  match: Pattern;
  min?: number | undefined;
  max?: number | undefined;
  after?: Pattern | undefined;
  on?: WindowOn | undefined;
  /** "content" or "metadata.<key>". */
  distinctBy?: string | undefined;
  /** The bounds hold for each value of this key among the matches. */
  per?: KeyRef | undefined;
  /** The bounds hold for the sum of this key's numeric values over the matches (per group with `per`/`on`). */
  sum?: KeyRef | undefined;
}

/**
 * A name of a condition's `with`: the latest (or first) earlier event matching
 * the pattern, with `on` sharing the `each` event's value of a key (the
 * two-sided form names the sides `each` and `latest` / `first`).
 */
export type Binding =
  | { latest: Pattern; first?: undefined; on?: On<"each" | "latest"> | undefined }
  | { first: Pattern; latest?: undefined; on?: On<"each" | "first"> | undefined };

export interface ConditionCheck extends CheckBase {
  type: "condition";
  each: Pattern;
  /** Names bound for each `each` event, in judge.yaml order. */
  with?: Record<string, Binding> | undefined;
  /** The expression over the bound events' values (docs/FORMATS.md §10.4), as written. */
  when: string;
}

export type Check = OrderingCheck | PairingCheck | RequiredCheck | ForbiddenCheck | CountCheck | ConditionCheck;

export interface SemanticCheck {
  quote: string;
  question: string;
}

export type Trigger =
  { description: string; match: Pattern; semantic?: undefined } | { description: string; semantic: true; match?: undefined };

export interface MetaBehavior {
  name: string;
  trigger: Trigger;
  checks: Check[];
  semanticChecks: SemanticCheck[];
  source?: string | undefined;
}

export interface JudgeIR {
  version: 1;
  behavior: string;
  metaBehaviors: MetaBehavior[];
}
