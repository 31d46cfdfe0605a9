/**
 * What generated value matchers call (docs/FORMATS.md §10.1). A metadata
 * value is read as `e.metadata?.[key]`, which for a JSON-parsed object may be
 * an inherited member (`toString`): every helper takes `unknown` and treats
 * anything but a string as missing. Bounds arrive already read by the
 * compiler (a number, or an instant in epoch milliseconds).
 */
import { toInstant, toNumber } from "./values.js";

/**
 * A metadata value equal to the string a pattern states. A call, not `===` in the generated
 * code: TypeScript narrows `e.metadata?.["k"]` at each `=== "v"` and re-examines every earlier
 * one for each later reference (a pattern of 64 such tests on one key took 19 s to type-check
 * against 6 s with a call). Not `Object.is` either, which V8 runs as a call to its `SameValue`
 * builtin where this, inlined, is one comparison: the refund judge stepped 5% fewer
 * instructions per event (docs/SPEED.md, round 16). For a string, the two agree.
 */
export function metadataIs(value: unknown, expected: string): boolean {
  return value === expected;
}

/** The decimal number a metadata value or content spells, else undefined. */
export function readDecimal(value: unknown): number | undefined {
  return typeof value === "string" ? toNumber(value) : undefined;
}

/** The instant (epoch ms) an ISO-8601 value spells, else undefined. */
export function readInstant(value: unknown): number | undefined {
  return typeof value === "string" ? toInstant(value) : undefined;
}

/**
 * `x` within the bounds: each bound is absent (undefined) or a number, strict
 * or inclusive. An absent `x` (not a number or date) is outside every range.
 */
export function inRange(
  x: number | undefined,
  lower: number | undefined,
  lowerInclusive: boolean,
  upper: number | undefined,
  upperInclusive: boolean,
): boolean {
  if (x === undefined) return false;
  if (lower !== undefined && (lowerInclusive ? x < lower : x <= lower)) return false;
  if (upper !== undefined && (upperInclusive ? x > upper : x >= upper)) return false;
  return true;
}
