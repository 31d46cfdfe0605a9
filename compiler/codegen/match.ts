/**
 * Lowers matchers and patterns to boolean expressions over the loop's
 * current event `e`. User text enters only through `lit`.
 */
import type { Matcher, Pattern } from "../ir/types.js";
import { code, join, lit, type Code } from "./code.js";

/** The event variable every generated loop binds. */
export const EVENT = code`e`;

export function lowerMatcher(matcher: Matcher): Code {
  const terms: Code[] = [];
  if (matcher.action !== undefined) terms.push(code`${EVENT}.action === ${lit(matcher.action)}`);
  // Steppers read `e.actor` as a string (StepEvent): a union-typed actor would be narrowed
  // across `||`, and a later `e.actor === "agent"` rejected (TS2367).
  if (matcher.actor !== undefined) terms.push(code`${EVENT}.actor === ${lit(matcher.actor)}`);
  if (matcher.contentIncludes !== undefined) {
    // Absent content is "", which includes no (non-empty) fragment.
    terms.push(code`${EVENT}.content?.includes(${lit(matcher.contentIncludes)}) === true`);
  }
  for (const [key, value] of Object.entries(matcher.metadata ?? {})) {
    // Not `===`: TypeScript narrows `e.metadata?.["k"]` at each `=== "v"` and re-examines every
    // earlier one for each later reference, so a pattern of 64 metadata matchers on one key took
    // 0.4 s to type-check (a 1 MB judge.yaml of them, 8 minutes). A call is not narrowed; for a
    // string against a string (or undefined) Object.is is `===`, and V8 compiles it as such.
    terms.push(code`Object.is(${EVENT}.metadata?.[${lit(key)}], ${lit(value)})`);
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

/** Any-of: a pattern matches when one of its matchers does. */
export function lowerPattern(pattern: Pattern): Code {
  if (pattern.length === 0) throw new Error("internal: an empty pattern reached codegen");
  const matchers = withoutRedundantMatchers(pattern);
  if (matchers.length === 1) return code`(${lowerMatcher(matchers[0]!)})`;
  return code`(${join(
    matchers.map((m) => code`(${lowerMatcher(m)})`),
    code` || `,
  )})`;
}
