/**
 * The judge.yaml intermediate representation, version 1 (docs/FORMATS.md §3),
 * after parsing and defaulting. These are plain data types; the zod schema in
 * `schema.ts` is the single source of validation. An optional field may also
 * be present as undefined, which means absent: the schema's output type
 * allows it, and so must every reader.
 */
import type { Actor, CheckType } from "../../runtime/types.js";

export type { Actor, CheckType };

/** All given fields must hold; at least one field is present. */
export interface Matcher {
  action?: string | undefined;
  actor?: Actor | undefined;
  contentIncludes?: string | undefined;
  metadata?: Record<string, string> | undefined;
}

/** One matcher, or a non-empty any-of list (always a list after parsing). */
export type Pattern = Matcher[];

interface CheckBase {
  quote: string;
}

export interface OrderingCheck extends CheckBase {
  type: "ordering";
  first: Pattern;
  before: Pattern;
}

export interface PairingCheck extends CheckBase {
  type: "pairing";
  each: Pattern;
  followedBy: Pattern;
}

export interface RequiredCheck extends CheckBase {
  type: "required";
  match: Pattern;
  after?: Pattern | undefined;
}

export interface ForbiddenCheck extends CheckBase {
  type: "forbidden";
  match: Pattern;
  after?: Pattern | undefined;
}

export interface CountCheck extends CheckBase {
  type: "count";
  match: Pattern;
  min?: number | undefined;
  max?: number | undefined;
  after?: Pattern | undefined;
  /** "content" or "metadata.<key>". */
  distinctBy?: string | undefined;
}

export type Check = OrderingCheck | PairingCheck | RequiredCheck | ForbiddenCheck | CountCheck;

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
