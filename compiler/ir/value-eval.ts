/**
 * Value matchers and patterns evaluated at build time, on sample events (the
 * preview, the interview's evidence, `--samples` warnings). Built from the
 * runtime's own readers (numbers, instants, ranges, the linear-time regex
 * engine), so a sample is judged by the same primitives as in judge.mjs; the
 * differential tests hold the generated code to the same semantics.
 */
import { regexTest, type RegexProgram } from "../../runtime/regex.js";
import { inRange, readDecimal, readInstant } from "../../runtime/matchers.js";
import { toInstant } from "../../runtime/values.js";
import type { TrajectoryEvent } from "../../runtime/types.js";
import { compileRegex } from "./regex-program.js";
import type { Bound, Matcher, Pattern, RangeOperator, ValueMatcher } from "./types.js";
import { valueTest } from "./values.js";

const programs = new Map<string, RegexProgram | undefined>();

/** The compiled program of a (valid) regex, kept: a preview asks the same few many times. */
function program(source: string, flags: string): RegexProgram | undefined {
  const key = `${flags}/${source}`;
  if (!programs.has(key)) {
    const compiled = compileRegex(source, flags);
    programs.set(key, compiled.ok ? compiled.program : undefined);
  }
  return programs.get(key);
}

function boundValue(bound: Bound | undefined): number | undefined {
  if (bound === undefined) return undefined;
  return typeof bound === "number" ? bound : toInstant(bound);
}

/** Whether a range's bounds are dates (else numbers). */
export function rangeIsDates(range: RangeOperator): boolean {
  return [range.gt, range.gte, range.lt, range.lte].some((b) => typeof b === "string");
}

function rangeHolds(value: string | undefined, range: RangeOperator): boolean {
  const x = rangeIsDates(range) ? readInstant(value) : readDecimal(value);
  return inRange(x, boundValue(range.gt ?? range.gte), range.gte !== undefined, boundValue(range.lt ?? range.lte), range.lte !== undefined);
}

/** Does `value` (undefined: a missing metadata key) satisfy the matcher? docs/FORMATS.md §10.1. */
export function valueHolds(value: string | undefined, matcher: ValueMatcher): boolean {
  const test = valueTest(matcher);
  switch (test.op) {
    case "equals":
      return value === test.value;
    case "in":
      return value !== undefined && test.values.includes(value);
    case "not":
      return !valueHolds(value, test.inner);
    case "matches": {
      const compiled = program(test.source, test.flags);
      return value !== undefined && compiled !== undefined && regexTest(compiled, value);
    }
    case "range":
      return rangeHolds(value, test.range);
    case "exists":
      return (value !== undefined) === test.present;
  }
}

/** The event's own string value of a metadata key (an inherited member is no value). */
export function metadataString(event: TrajectoryEvent, key: string): string | undefined {
  const metadata = event.metadata;
  return metadata !== undefined && Object.hasOwn(metadata, key) && typeof metadata[key] === "string" ? metadata[key] : undefined;
}

/** True when every field the matcher gives holds for the event, as in the compiled judge. */
export function matcherHolds(event: TrajectoryEvent, matcher: Matcher): boolean {
  if (matcher.action !== undefined && !valueHolds(event.action, matcher.action)) return false;
  if (matcher.actor !== undefined && event.actor !== matcher.actor) return false;
  if (matcher.contentIncludes !== undefined && !(event.content ?? "").includes(matcher.contentIncludes)) return false;
  if (matcher.content !== undefined && !valueHolds(event.content ?? "", matcher.content)) return false;
  for (const [key, value] of Object.entries(matcher.metadata ?? {})) {
    if (!valueHolds(metadataString(event, key), value)) return false;
  }
  return true;
}

/** Any-of: a pattern holds when one of its matchers does. */
export function patternHolds(event: TrajectoryEvent, pattern: Pattern): boolean {
  return pattern.some((matcher) => matcherHolds(event, matcher));
}
