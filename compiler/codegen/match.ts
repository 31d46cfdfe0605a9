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
  if (matcher.actor !== undefined) terms.push(code`${EVENT}.actor === ${lit(matcher.actor)}`);
  if (matcher.contentIncludes !== undefined) {
    // Absent content is "", which includes no (non-empty) fragment.
    terms.push(code`${EVENT}.content?.includes(${lit(matcher.contentIncludes)}) === true`);
  }
  for (const [key, value] of Object.entries(matcher.metadata ?? {})) {
    terms.push(code`${EVENT}.metadata?.[${lit(key)}] === ${lit(value)}`);
  }
  if (terms.length === 0) throw new Error("internal: a matcher with no fields reached codegen");
  return join(terms, code` && `);
}

/** Any-of: a pattern matches when one of its matchers does. */
export function lowerPattern(pattern: Pattern): Code {
  if (pattern.length === 0) throw new Error("internal: an empty pattern reached codegen");
  if (pattern.length === 1) return code`(${lowerMatcher(pattern[0]!)})`;
  return code`(${join(
    pattern.map((m) => code`(${lowerMatcher(m)})`),
    code` || `,
  )})`;
}
