/**
 * Lowers matchers and patterns to boolean expressions over the loop's
 * current event `e`. All user text goes through `quoteString`.
 */
import type { Matcher, Pattern } from "../ir/types.js";
import { quoteString } from "./quote.js";

/** The event variable every generated loop binds. */
export const EVENT = "e";

export function lowerMatcher(matcher: Matcher): string {
  const terms: string[] = [];
  if (matcher.action !== undefined) terms.push(`${EVENT}.action === ${quoteString(matcher.action)}`);
  if (matcher.actor !== undefined) terms.push(`${EVENT}.actor === ${quoteString(matcher.actor)}`);
  if (matcher.contentIncludes !== undefined) {
    // Absent content is "", which includes no (non-empty) fragment.
    terms.push(`${EVENT}.content?.includes(${quoteString(matcher.contentIncludes)}) === true`);
  }
  for (const [key, value] of Object.entries(matcher.metadata ?? {})) {
    terms.push(`${EVENT}.metadata?.[${quoteString(key)}] === ${quoteString(value)}`);
  }
  if (terms.length === 0) throw new Error("internal: a matcher with no fields reached codegen");
  return terms.join(" && ");
}

/** Any-of: a pattern matches when one of its matchers does. */
export function lowerPattern(pattern: Pattern): string {
  if (pattern.length === 0) throw new Error("internal: an empty pattern reached codegen");
  if (pattern.length === 1) return `(${lowerMatcher(pattern[0]!)})`;
  return `(${pattern.map((m) => `(${lowerMatcher(m)})`).join(" || ")})`;
}
