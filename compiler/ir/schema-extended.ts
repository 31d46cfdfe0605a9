/**
 * The schema of the extended rule language (docs/FORMATS.md §10): value
 * matchers, `metadata.<key>` references, `on:` correlations and a condition's
 * `with` bindings and `when` expression. Each check returns every problem it
 * finds, located by a path below the value, so one build reports them all.
 */
import * as z from "zod";
import { isObject } from "../../runtime/is-object.js";
import { closestMatch, didYouMean } from "./did-you-mean.js";
import {
  ON_OBJECTS,
  hintParams,
  mapping,
  rejectUnknownKeys,
  report,
  text,
  unlessMissing,
  type IssueParams,
  type Path,
  type SchemaVocabulary,
} from "./schema-kit.js";
import type { Binding, Pattern } from "./types.js";
import { METADATA_PREFIX, RANGE_OPERATORS, VALUE_OPERATORS } from "./values.js";
import { parseWhen } from "./when.js";
import { compileRegex } from "./regex-program.js";

/** Where a value matcher stands: `exists` means something only for metadata keys. */
export type ValueSite = "action" | "content" | "metadata";

export interface Problem {
  path: Path;
  message: string;
  params: IssueParams;
}

function problem(path: Path, message: string, hint?: string, atKey = false): Problem {
  return { path, message, params: { ...hintParams(hint), ...(atKey ? { atKey } : {}) } };
}

/** `not` may nest, but not without end: a value matcher is one test, not a program. */
const MAX_NOT_DEPTH = 8;

const LOWER_BOUNDS = ["gt", "gte"] as const;
const UPPER_BOUNDS = ["lt", "lte"] as const;

/**
 * The strict forms a bound may take (docs/FORMATS.md §10.1): a finite number, or an
 * ISO-8601 date or date-time. The same reading as the judge's (runtime/values.ts).
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function isIsoDate(text: string): boolean {
  const parts = ISO_DATE.exec(text);
  if (parts === null) return false;
  const [, y, mo, d, h, mi, s] = parts.map((p) => (p === undefined ? 0 : Number(p)));
  const date = new Date(Date.UTC(y!, mo! - 1, d!));
  return date.getUTCMonth() === mo! - 1 && date.getUTCDate() === d! && h! < 24 && mi! < 60 && s! < 60;
}

function boundKind(bound: unknown): "number" | "date" | undefined {
  if (typeof bound === "number" && Number.isFinite(bound)) return "number";
  if (typeof bound === "string" && isIsoDate(bound)) return "date";
  return undefined;
}

function describeBound(bound: unknown): string {
  if (typeof bound === "string") {
    return /^\s*[+-]?\d+(\.\d+)?\s*$/.test(bound)
      ? `${JSON.stringify(bound)} is a string: write the number without quotes`
      : `${JSON.stringify(bound)} is neither a number nor an ISO-8601 date (2024-05-14 or 2024-05-14T15:00:00Z)`;
  }
  return "must be a number or an ISO-8601 date string";
}

function checkRegex(source: unknown, flags: unknown, path: Path): Problem[] {
  const problems: Problem[] = [];
  if (typeof source !== "string" || source === "") return [problem([...path, "matches"], "must be a non-empty regular expression")];
  if (flags !== undefined && flags !== "i") problems.push(problem([...path, "flags"], 'must be "i" (case-insensitive) or absent'));
  // The judge's own linear-time engine decides what is a regex here: JavaScript's u-mode syntax, less what cannot run in linear time.
  const compiled = compileRegex(source, flags === "i" ? "i" : "");
  if (!compiled.ok) {
    problems.push({
      path: [...path, "matches"],
      message: `is not a regular expression the judge can run: ${compiled.message}`,
      params: compiled.offset === undefined ? {} : { offsetInValue: compiled.offset },
    });
  }
  return problems;
}

function checkRange(value: Record<string, unknown>, path: Path): Problem[] {
  const problems: Problem[] = [];
  const lower = LOWER_BOUNDS.filter((op) => value[op] !== undefined);
  const upper = UPPER_BOUNDS.filter((op) => value[op] !== undefined);
  if (lower.length > 1) problems.push(problem(path, `has both ${lower.join(" and ")}`, "a range has at most one lower bound"));
  if (upper.length > 1) problems.push(problem(path, `has both ${upper.join(" and ")}`, "a range has at most one upper bound"));
  const kinds = new Set<string>();
  for (const op of RANGE_OPERATORS) {
    if (value[op] === undefined) continue;
    const kind = boundKind(value[op]);
    if (kind === undefined) problems.push(problem([...path, op], describeBound(value[op])));
    else kinds.add(kind);
  }
  if (kinds.size > 1)
    problems.push(problem(path, "compares with a number and a date at once", "both bounds must be numbers, or both dates"));
  return problems;
}

/** Every problem of one value matcher (a string, or one operator object). */
export function checkValueMatcher(value: unknown, site: ValueSite, path: Path = [], depth = 0): Problem[] {
  if (typeof value === "string") return value === "" ? [problem(path, "must be a non-empty string")] : [];
  if (!isObject(value)) {
    const got = Array.isArray(value) ? "a list" : value === null ? "null" : `${typeof value} ${String(value)}`;
    return [
      problem(
        path,
        `must be a string or a value matcher such as {in: [...]} or {gt: 500}, got ${got}`,
        typeof value === "number" ? `quote it: "${String(value)}"` : undefined,
      ),
    ];
  }
  const problems: Problem[] = [];
  const keys = Object.keys(value);
  for (const key of keys) {
    if ((VALUE_OPERATORS as readonly string[]).includes(key)) continue;
    const suggestion = closestMatch(key, VALUE_OPERATORS);
    problems.push(
      problem(
        [...path, key],
        `unknown operator ${JSON.stringify(key)}`,
        suggestion === undefined
          ? `operators: ${VALUE_OPERATORS.filter((k) => k !== "flags").join(", ")}`
          : `did you mean ${JSON.stringify(suggestion)}?`,
        true,
      ),
    );
  }
  const ops = keys.filter((k) => (VALUE_OPERATORS as readonly string[]).includes(k) && k !== "flags");
  const ranged = ops.filter((k) => (RANGE_OPERATORS as readonly string[]).includes(k));
  const others = ops.filter((k) => !(RANGE_OPERATORS as readonly string[]).includes(k));
  if (ops.length === 0) {
    if (problems.length === 0)
      problems.push(problem(path, "needs one operator", `one of ${VALUE_OPERATORS.filter((k) => k !== "flags").join(", ")}`));
    return problems;
  }
  if (others.length > 1 || (others.length === 1 && ranged.length > 0)) {
    problems.push(
      problem(
        path,
        `has ${ops.length} operators (${ops.join(", ")}); one is allowed`,
        "only gt/gte with lt/lte combine, into a range; write two matchers in a list for any-of",
      ),
    );
    return problems;
  }
  if (value.flags !== undefined && others[0] !== "matches")
    problems.push(problem([...path, "flags"], "belongs to matches", undefined, true));
  if (ranged.length > 0) return [...problems, ...checkRange(value, path)];
  const op = others[0]!;
  const operand = value[op];
  switch (op) {
    case "equals":
      if (typeof operand !== "string" || operand === "") problems.push(problem([...path, op], "must be a non-empty string"));
      break;
    case "in":
      if (!Array.isArray(operand) || operand.length === 0) problems.push(problem([...path, op], "must be a non-empty list of strings"));
      else
        operand.forEach((item, i) => {
          if (typeof item !== "string" || item === "")
            problems.push(
              problem(
                [...path, op, i],
                typeof item === "number" ? `must be a string, got number ${item}` : "must be a non-empty string",
                typeof item === "number" ? `quote it: "${item}"` : undefined,
              ),
            );
        });
      break;
    case "not":
      if (depth >= MAX_NOT_DEPTH) problems.push(problem([...path, op], `nests not more than ${MAX_NOT_DEPTH} deep`));
      else problems.push(...checkValueMatcher(operand, site, [...path, op], depth + 1));
      break;
    case "matches":
      problems.push(...checkRegex(operand, value.flags, path));
      break;
    case "exists":
      if (site !== "metadata")
        problems.push(
          problem(
            [...path, op],
            `is for metadata keys only: an event always has ${site === "action" ? "an action" : 'content ("" when absent)'}`,
            undefined,
            true,
          ),
        );
      else if (typeof operand !== "boolean") problems.push(problem([...path, op], "must be true or false"));
      break;
  }
  return problems;
}

function checkKeyRef(value: string, vocabulary: SchemaVocabulary): { message: string; hint?: string } | undefined {
  if (!value.startsWith(METADATA_PREFIX) || value.length === METADATA_PREFIX.length) {
    const candidates = (vocabulary.metadataKeys ?? []).map((key) => `${METADATA_PREFIX}${key}`);
    return {
      message: 'must be "metadata.<key>"',
      ...hintParams(didYouMean(value, candidates) ?? (value.includes(".") ? undefined : `write "metadata.${value}"`)),
    };
  }
  const key = value.slice(METADATA_PREFIX.length);
  const known = vocabulary.metadataKeys;
  if (known !== undefined && !known.includes(key)) {
    const suggestion = closestMatch(key, known);
    return {
      message: `unknown metadata key ${JSON.stringify(key)}`,
      ...hintParams(suggestion === undefined ? undefined : `did you mean "metadata.${suggestion}"?`),
    };
  }
  return undefined;
}

/** `metadata.<key>` (per, sum, one-key on). */
export function keyRefSchema(vocabulary: SchemaVocabulary) {
  return text().superRefine((value, ctx) => {
    if (value === "") return;
    const found = checkKeyRef(value, vocabulary);
    if (found !== undefined) report(ctx, [], found.message, hintParams(found.hint));
  });
}

function onProblems(value: unknown, sides: readonly string[], vocabulary: SchemaVocabulary): Problem[] {
  const keyProblem = (ref: unknown, path: Path): Problem[] => {
    if (typeof ref !== "string" || ref === "") return [problem(path, 'must be "metadata.<key>"')];
    const found = checkKeyRef(ref, vocabulary);
    return found === undefined ? [] : [problem(path, found.message, found.hint)];
  };
  if (typeof value === "string") return keyProblem(value, []);
  if (!isObject(value)) return [problem([], `must be "metadata.<key>", or a mapping of ${sides.join(" and ")} to their keys`)];
  const problems: Problem[] = [];
  for (const key of Object.keys(value)) {
    if (!sides.includes(key)) {
      const suggestion = closestMatch(key, sides);
      problems.push(
        problem(
          [key],
          `unknown side ${JSON.stringify(key)}`,
          suggestion === undefined ? `the sides are ${sides.join(" and ")}` : `did you mean ${JSON.stringify(suggestion)}?`,
          true,
        ),
      );
    }
  }
  for (const side of sides) {
    if (value[side] === undefined)
      problems.push(problem([], `needs ${side}`, `give each side's key: {${sides.map((s) => `${s}: metadata.<key>`).join(", ")}}`));
    else problems.push(...keyProblem(value[side], [side]));
  }
  return problems;
}

/** `on:` of a check whose two pattern fields are `a` and `b`: one key both share, or each side's key. */
export function onSchema<A extends string, B extends string>(vocabulary: SchemaVocabulary, a: A, b: B) {
  return z
    .custom<string | { [S in A | B]: string }>((value) => value !== undefined, { error: unlessMissing(() => "is required") })
    .superRefine((value, ctx) => {
      for (const p of onProblems(value, [a, b], vocabulary)) report(ctx, p.path, p.message, p.params);
    });
}

/** Names `when` reads its values by: an identifier, not a word of the expression language. */
const RESERVED_NAMES = ["event", "in", "matches", "count", "true", "false", "null"];

function bindingSchema(pattern: z.ZodType<Pattern>, vocabulary: SchemaVocabulary) {
  return mapping(
    { latest: pattern.optional(), first: pattern.optional(), on: z.unknown().optional() },
    "a mapping with latest or first (a pattern), and optionally on",
  )
    .superRefine(rejectUnknownKeys(["latest", "first", "on"]), ON_OBJECTS)
    .superRefine((value, ctx) => {
      const chosen = ["latest", "first"].filter((key) => value[key] !== undefined);
      if (chosen.length === 0)
        report(ctx, [], "needs latest or first", {
          satisfiableBy: ["latest", "first"],
          hint: "latest: the most recent earlier match; first: the earliest",
        });
      if (chosen.length > 1) report(ctx, [], "has both latest and first", { hint: "give one" });
      if (value.on !== undefined)
        for (const p of onProblems(value.on, ["each", chosen[0] ?? "latest"], vocabulary))
          report(ctx, ["on", ...p.path], p.message, p.params);
    }, ON_OBJECTS)
    .transform((value) => value as unknown as Binding);
}

/** A condition's `with`: names to bindings. */
export function bindingsSchema(pattern: z.ZodType<Pattern>, vocabulary: SchemaVocabulary) {
  return z
    .record(z.string(), bindingSchema(pattern, vocabulary), {
      error: unlessMissing(() => "must be a mapping of names to {latest: <pattern>} or {first: <pattern>}"),
    })
    .superRefine((value, ctx) => {
      const names = Object.keys(value);
      if (names.length === 0) report(ctx, [], "must be a non-empty mapping", { hint: "remove with when the expression reads only event" });
      for (const name of names) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
          report(ctx, [name], `${JSON.stringify(name)} is not a name (letters, digits and _, not starting with a digit)`, { atKey: true });
        else if (RESERVED_NAMES.includes(name))
          report(ctx, [name], `${JSON.stringify(name)} is a word of the expression language`, { atKey: true, hint: "choose another name" });
      }
    }, ON_OBJECTS);
}

/**
 * The `when` expression of a condition, parsed and type-checked against its
 * `with` names; each problem is located at its character in the expression.
 */
export function checkWhenExpression(value: Record<string, unknown>): Problem[] {
  if (typeof value.when !== "string" || value.when === "") return [];
  const names = isObject(value.with) ? Object.keys(value.with) : [];
  const parsed = parseWhen(value.when, names);
  if (parsed.ok) return [];
  return parsed.errors.map((error) => ({
    path: ["when"],
    message: error.message,
    params: { ...hintParams(error.hint), offsetInValue: error.offset },
  }));
}
