/**
 * Lowers matchers and patterns to boolean expressions over the loop's
 * current event `e`. User text enters only through `lit`.
 */
import type { Bound, Matcher, Pattern, RangeOperator, ValueMatcher } from "../ir/types.js";
import { compileRegex } from "../ir/regex-program.js";
import { valueTest } from "../ir/values.js";
import { toInstant } from "../../runtime/values.js";
import { code, join, lit, type Code } from "./code.js";
import type { Constants } from "./constants.js";
import { regexLiteral } from "./regex.js";
import type { RegexProgram } from "../../runtime/regex.js";

/** The schema refused every regex that does not compile, so a failure here is a bug. */
function compileRegexProgram(source: string, flags: string): RegexProgram {
  const compiled = compileRegex(source, flags);
  if (!compiled.ok) throw new Error(`internal: a regular expression the schema accepted does not compile: ${compiled.message}`);
  return compiled.program;
}

/** The event variable every generated loop binds. */
export const EVENT = code`e`;

/** Where a value comes from: action and content are always strings, a metadata value may be missing. */
type ValueSource = "string" | "metadata";

/** A bound as the judge compares it: a number, or a date's instant in epoch milliseconds. */
function boundValue(bound: Bound): number {
  if (typeof bound === "number") return bound;
  const instant = toInstant(bound);
  if (instant === undefined) throw new Error("internal: a range bound that is neither a number nor a date reached codegen");
  return instant;
}

function lowerRange(value: Code, range: RangeOperator, constants: Constants): Code {
  const bounds = [range.gt, range.gte, range.lt, range.lte].filter((b): b is Bound => b !== undefined);
  const read =
    typeof bounds[0] === "number"
      ? code`${constants.runtime("readDecimal")}(${value})`
      : code`${constants.runtime("readInstant")}(${value})`;
  const side = (strict: Bound | undefined, inclusive: Bound | undefined): [Code, boolean] => {
    const bound = strict ?? inclusive;
    return [bound === undefined ? code`undefined` : code`${boundValue(bound)}`, inclusive !== undefined];
  };
  const [lower, lowerInclusive] = side(range.gt, range.gte);
  const [upper, upperInclusive] = side(range.lt, range.lte);
  return code`${constants.runtime("inRange")}(${read}, ${lower}, ${lowerInclusive}, ${upper}, ${upperInclusive})`;
}

/**
 * A boolean expression: does `value` satisfy the matcher? Every positive test
 * fails on a missing metadata value (a string test, `in`, a regex, a range),
 * so `not` is plain negation and a missing key satisfies it (docs/FORMATS.md §10.1).
 */
export function lowerValue(value: Code, matcher: ValueMatcher, source: ValueSource, constants: Constants): Code {
  const test = valueTest(matcher);
  switch (test.op) {
    case "equals":
      // A call, not ===: see lowerMatcher on type-checking cost.
      return source === "metadata"
        ? code`${constants.runtime("metadataIs")}(${value}, ${lit(test.value)})`
        : code`${value} === ${lit(test.value)}`;
    case "in": {
      const set = constants.add("values", code`ReadonlySet<unknown>`, code`new Set([${join(test.values.map(lit))}])`);
      return code`${set}.has(${value})`;
    }
    case "not":
      return code`!(${lowerValue(value, test.inner, source, constants)})`;
    case "matches": {
      const program = compileRegexProgram(test.source, test.flags);
      const regex = constants.add("regex", constants.runtime("RegexProgram"), regexLiteral(program));
      const run = constants.runtime("regexTest");
      return source === "metadata" ? code`(typeof ${value} === "string" && ${run}(${regex}, ${value}))` : code`${run}(${regex}, ${value})`;
    }
    case "range":
      return lowerRange(value, test.range, constants);
    case "exists":
      return test.present ? code`typeof ${value} === "string"` : code`typeof ${value} !== "string"`;
  }
}

export function lowerMatcher(matcher: Matcher, constants: Constants): Code {
  const terms: Code[] = [];
  if (matcher.action !== undefined) terms.push(lowerValue(code`${EVENT}.action`, matcher.action, "string", constants));
  // Steppers read `e.actor` as a string (StepEvent): a union-typed actor would be narrowed
  // across `||`, and a later `e.actor === "agent"` rejected (TS2367).
  if (matcher.actor !== undefined) terms.push(code`${EVENT}.actor === ${lit(matcher.actor)}`);
  if (matcher.contentIncludes !== undefined) {
    // Absent content is "", which includes no (non-empty) fragment.
    terms.push(code`${EVENT}.content?.includes(${lit(matcher.contentIncludes)}) === true`);
  }
  if (matcher.content !== undefined) terms.push(lowerValue(code`(${EVENT}.content ?? "")`, matcher.content, "string", constants));
  for (const [key, value] of Object.entries(matcher.metadata ?? {})) {
    if (typeof value !== "string") {
      terms.push(lowerValue(code`${EVENT}.metadata?.[${lit(key)}]`, value, "metadata", constants));
      continue;
    }
    // Not `===`: TypeScript narrows `e.metadata?.["k"]` at each `=== "v"` and re-examines every
    // earlier one for each later reference, so a pattern of 64 metadata matchers on one key took
    // 0.4 s to type-check (a 1 MB judge.yaml of them, 8 minutes). A call is not narrowed:
    // `metadataIs` is `===` (runtime/matchers.ts), which V8 inlines; `Object.is`, used before,
    // V8 ran as a call to its SameValue builtin.
    terms.push(code`${constants.runtime("metadataIs")}(${EVENT}.metadata?.[${lit(key)}], ${lit(value)})`);
  }
  if (terms.length === 0) throw new Error("internal: a matcher with no fields reached codegen");
  return join(terms, code` && `);
}

/**
 * The conditions a matcher tests, one string each; a matcher is their conjunction.
 * JSON keeps the parts apart whatever the user's text holds.
 */
function conditions(matcher: Matcher): Set<string> {
  const set = new Set<string>();
  if (matcher.action !== undefined) set.add(JSON.stringify(["action", matcher.action]));
  if (matcher.content !== undefined) set.add(JSON.stringify(["content=", matcher.content]));
  if (matcher.actor !== undefined) set.add(JSON.stringify(["actor", matcher.actor]));
  if (matcher.contentIncludes !== undefined) set.add(JSON.stringify(["content", matcher.contentIncludes]));
  for (const [key, value] of Object.entries(matcher.metadata ?? {})) set.add(JSON.stringify(["metadata", key, value]));
  return set;
}

function isSubset(small: Set<string>, large: Set<string>): boolean {
  if (small.size > large.size) return false;
  for (const item of small) if (!large.has(item)) return false;
  return true;
}

/**
 * The pattern without matchers that another of its matchers implies: when A's
 * conditions are a subset of B's, every event B matches A matches too, so
 * `A || B` is `A`. Of equal matchers the first stays; the order is kept. The
 * verdict cannot change (a pattern only says whether an event matches), and
 * the code is shorter: `[{actor: agent}, {actor: agent, action: b}]` is one test.
 */
export function withoutRedundantMatchers(pattern: Pattern): Pattern {
  const sets = pattern.map(conditions);
  return pattern.filter((_, i) => {
    const own = sets[i]!;
    return !sets.some((other, j) => j !== i && isSubset(other, own) && (other.size < own.size || j < i));
  });
}

/**
 * Any-of: a pattern matches when one of its matchers does. Parenthesized; a
 * test a rule's step makes more than once is a local computed once per event
 * (Constants.patternTest).
 */
export function lowerPattern(pattern: Pattern, constants: Constants): Code {
  if (pattern.length === 0) throw new Error("internal: an empty pattern reached codegen");
  const matchers = withoutRedundantMatchers(pattern);
  if (matchers.length === 1) return constants.patternTest(code`(${lowerMatcher(matchers[0]!, constants)})`);
  return constants.patternTest(
    code`(${join(
      matchers.map((m) => code`(${lowerMatcher(m, constants)})`),
      code` || `,
    )})`,
  );
}
