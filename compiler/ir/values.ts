/**
 * Reading the extended forms of judge.yaml (docs/FORMATS.md §10): value
 * matchers, `metadata.<key>` references and `on:` correlations, for every
 * consumer that is not the code generator (the drafter, the preview, the
 * interview, the warnings) and for codegen itself. The IR keeps each form as
 * judge.yaml writes it; these say what it means.
 */
import type { Bound, KeyRef, RangeOperator, ValueMatcher, ValueOperator } from "./types.js";

/** The operators of a value matcher, in the order the serializer writes them. */
export const VALUE_OPERATORS = ["equals", "in", "not", "matches", "flags", "gt", "gte", "lt", "lte", "exists"] as const;
export const RANGE_OPERATORS = ["gt", "gte", "lt", "lte"] as const;

/** A value matcher classified: which operator it is, with its operand. */
export type ValueTest =
  | { op: "equals"; value: string }
  | { op: "in"; values: readonly string[] }
  | { op: "not"; inner: ValueMatcher }
  | { op: "matches"; source: string; flags: string }
  | { op: "range"; range: RangeOperator }
  | { op: "exists"; present: boolean };

/** What a (valid) value matcher tests. */
export function valueTest(matcher: ValueMatcher): ValueTest {
  if (typeof matcher === "string") return { op: "equals", value: matcher };
  const m = matcher as Record<string, unknown>;
  if (typeof m.equals === "string") return { op: "equals", value: m.equals };
  if (Array.isArray(m.in)) return { op: "in", values: m.in as string[] };
  if (m.not !== undefined) return { op: "not", inner: m.not as ValueMatcher };
  if (typeof m.matches === "string") return { op: "matches", source: m.matches, flags: typeof m.flags === "string" ? m.flags : "" };
  if (typeof m.exists === "boolean") return { op: "exists", present: m.exists };
  return { op: "range", range: matcher as RangeOperator };
}

/** The exact string a matcher asks for (a plain string or `{equals}`), else undefined. */
export function exactValue(matcher: ValueMatcher | undefined): string | undefined {
  if (matcher === undefined) return undefined;
  const test = valueTest(matcher);
  return test.op === "equals" ? test.value : undefined;
}

/** True for anything beyond version 1's exact string. */
export function isOperator(matcher: ValueMatcher): matcher is ValueOperator {
  return typeof matcher !== "string";
}

function boundText(bound: Bound): string {
  return typeof bound === "number" ? String(bound) : JSON.stringify(bound);
}

const RANGE_SYMBOLS: Record<(typeof RANGE_OPERATORS)[number], string> = { gt: ">", gte: "≥", lt: "<", lte: "≤" };

/** A matcher as a person reads it: `"refund"`, `> 500`, `one of "a", "b"`, `matching /^R/i`, `present`. */
export function describeValue(matcher: ValueMatcher): string {
  const test = valueTest(matcher);
  switch (test.op) {
    case "equals":
      return JSON.stringify(test.value);
    case "in":
      return `one of ${test.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "not":
      return `not ${describeValue(test.inner)}`;
    case "matches":
      return `matching /${test.source}/${test.flags}`;
    case "exists":
      return test.present ? "present" : "absent";
    case "range":
      return RANGE_OPERATORS.flatMap((op) =>
        test.range[op] === undefined ? [] : [`${RANGE_SYMBOLS[op]} ${boundText(test.range[op])}`],
      ).join(" and ");
  }
}

export const METADATA_PREFIX = "metadata.";

/** `metadata.order_id` → `order_id`; undefined for anything else. */
export function keyOf(ref: KeyRef | undefined): string | undefined {
  return ref !== undefined && ref.startsWith(METADATA_PREFIX) && ref.length > METADATA_PREFIX.length
    ? ref.slice(METADATA_PREFIX.length)
    : undefined;
}

/** Each side's metadata key of an `on:` (the one-key form gives both sides the same key). */
export function sidesOf<A extends string, B extends string>(
  on: KeyRef | Readonly<Record<string, KeyRef>>,
  a: A,
  b: B,
): { [S in A | B]: string } {
  if (typeof on === "string") {
    const key = keyOf(on) ?? "";
    return { [a]: key, [b]: key } as { [S in A | B]: string };
  }
  const sides = on as Record<string, KeyRef>;
  return { [a]: keyOf(sides[a]) ?? "", [b]: keyOf(sides[b]) ?? "" } as { [S in A | B]: string };
}
