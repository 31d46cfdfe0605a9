/**
 * The pieces every part of the judge.yaml schema is built from (schema.ts for
 * version 1's forms, schema-extended.ts for the extended language): located
 * custom issues, non-empty text, mappings that report unknown keys one by one.
 */
import * as z from "zod";
import { isObject } from "../../runtime/is-object.js";
import { closestMatch } from "./did-you-mean.js";

/**
 * The sizes judge.yaml accepts, each far above any real spec (a few rules of a
 * few checks, patterns of a few fields, quotes of a sentence) and low enough
 * that the costliest file accepted builds in a minute or so, in under a
 * gigabyte: the time and memory of a build grow with the text. `fileCharacters` is
 * checked before the YAML is parsed (parse.ts); `textCharacters` bounds the
 * strings once aliases are expanded; `patternFields` counts action, actor,
 * contentIncludes and each metadata entry over a pattern's matchers (one
 * pattern is one boolean expression in judge.ts, and the type checker's cost
 * grows with its square).
 */
export const LIMITS = {
  fileCharacters: 1_000_000,
  textCharacters: 1_000_000,
  stringCharacters: 10_000,
  metaBehaviors: 1_000,
  checks: 1_000,
  semanticChecks: 1_000,
  patternFields: 64,
} as const;

/** 12345 → "12,345", the same on every machine. */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** Names the generator's sample vocabulary knows; unknown ones are reported only when given. */
export interface SchemaVocabulary {
  actions?: readonly string[] | undefined;
  metadataKeys?: readonly string[] | undefined;
}

/**
 * Extra facts our custom issues carry for `parse.ts`, which turns issues into
 * located diagnostics.
 */
export interface IssueParams {
  hint?: string;
  /** The problem is the mapping key itself (unknown, empty), not its value. */
  atKey?: boolean;
  /** For an unknown key: the valid key it is probably a misspelling of. */
  suggestion?: string;
  /** Keys whose presence would resolve this issue; lets a misspelled key explain it. */
  satisfiableBy?: readonly string[];
  /** For a duplicate: index of the first occurrence among the same list's items. */
  firstIndex?: number;
  /** The problem is at this character of the string value (a `when` expression): the location points there. */
  offsetInValue?: number;
}

export type Path = (string | number)[];

/* Refinements must see partly invalid values (to report everything), but only of the right shape. */
export const ON_OBJECTS = { when: (payload: { value: unknown }) => isObject(payload.value) };
export const ON_ARRAYS = { when: (payload: { value: unknown }) => Array.isArray(payload.value) };

export function report(ctx: z.RefinementCtx, path: Path, message: string, params: IssueParams = {}): void {
  ctx.addIssue({ code: "custom", message, path, params });
}

/** Zod calls error maps both for a missing key (input undefined) and for a wrong value. */
export function unlessMissing(describe: (input: unknown) => string) {
  return (issue: { input?: unknown }): string => (issue.input === undefined ? "is required" : describe(issue.input));
}

export function describeNonString(input: unknown): string {
  if (typeof input === "number" || typeof input === "boolean") {
    return `must be a string, got ${typeof input} ${String(input)}`;
  }
  if (Array.isArray(input)) return "must be a string, got a list";
  if (isObject(input)) return "must be a string, got a mapping";
  return "must be a non-empty string";
}

export function tooLongMessage(length: number, what = "is"): string {
  return `${what} ${formatCount(length)} characters long; at most ${formatCount(LIMITS.stringCharacters)} are accepted`;
}

/** Empty strings are errors everywhere in judge.yaml, and so are strings past LIMITS.stringCharacters. */
export function text() {
  return z
    .string({ error: unlessMissing(describeNonString) })
    .min(1, "must be a non-empty string")
    .max(LIMITS.stringCharacters, {
      error: (issue) => tooLongMessage(typeof issue.input === "string" ? issue.input.length : LIMITS.stringCharacters + 1),
    });
}

export function mapping<Shape extends z.ZodRawShape>(shape: Shape, what = "a mapping") {
  return z.looseObject(shape, { error: unlessMissing(() => `must be ${what}`) });
}

export function list<Item extends z.ZodType>(item: Item, what = "a list", max?: number) {
  const array = z.array(item, { error: unlessMissing(() => `must be ${what}`) });
  if (max === undefined) return array;
  return array.max(max, {
    error: (issue) =>
      `holds ${formatCount(Array.isArray(issue.input) ? issue.input.length : max + 1)} items; at most ${formatCount(max)} are accepted`,
  });
}

/**
 * Reports every key not in `allowed`, at the key. `explain` may give a more
 * specific message than "unknown key" (e.g. a key that belongs to another
 * check type).
 */
export function rejectUnknownKeys(allowed: readonly string[], explain?: (key: string) => { message: string; hint?: string } | undefined) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    for (const key of Object.keys(value)) {
      if (allowed.includes(key)) continue;
      const specific = explain?.(key);
      if (specific !== undefined) {
        report(ctx, [key], specific.message, { atKey: true, ...hintParams(specific.hint) });
        continue;
      }
      const suggestion = closestMatch(key, allowed);
      report(ctx, [key], `unknown key ${JSON.stringify(key)}`, {
        atKey: true,
        ...(suggestion === undefined ? {} : { suggestion, hint: `did you mean ${JSON.stringify(suggestion)}?` }),
      });
    }
  };
}

export function hintParams(hint: string | undefined): IssueParams {
  return hint === undefined ? {} : { hint };
}

/** "needs at least one of …", placed at the mapping that lacks them. */
export function requireOneOf(keys: readonly string[], message: string) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    if (keys.some((key) => value[key] !== undefined)) return;
    report(ctx, [], message, { satisfiableBy: keys });
  };
}
