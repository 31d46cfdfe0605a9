/**
 * What a check looks for, in words rather than judge.yaml field names:
 * `get_order_result (actor tool, status "found") before the first
 * issue_refund or issue_store_credit`. Built into each judge's `rules` table
 * (as a string literal, through codegen's one safe path), and shown under a
 * false clause that has no explanation of its own, so a FAIL says what the
 * check expected (docs/FORMATS.md §5).
 */
import type { Check, Matcher, On, Pattern, ValueMatcher } from "./types.js";
import { describeValue, keyOf, sidesOf } from "./values.js";

/** One value: a plain string as itself, an operator in words. */
function shownValue(matcher: ValueMatcher): string {
  return typeof matcher === "string" ? JSON.stringify(matcher) : describeValue(matcher);
}

/** `issue_refund (actor agent, amount > 500)`; `any event (actor user, content matching /yes/i)`. */
export function describeMatcher(matcher: Matcher, anyAction = "any event"): string {
  const head = typeof matcher.action === "string" ? matcher.action : anyAction;
  const extras: string[] = [];
  if (matcher.action !== undefined && typeof matcher.action !== "string") extras.push(`action ${describeValue(matcher.action)}`);
  if (matcher.actor !== undefined) extras.push(`actor ${matcher.actor}`);
  if (matcher.contentIncludes !== undefined) extras.push(`content including ${JSON.stringify(matcher.contentIncludes)}`);
  if (matcher.content !== undefined) extras.push(`content ${shownValue(matcher.content)}`);
  for (const [key, value] of Object.entries(matcher.metadata ?? {})) extras.push(`${key} ${shownValue(value)}`);
  return extras.length === 0 ? head : `${head} (${extras.join(", ")})`;
}

/** Any of the matchers: `issue_refund or issue_store_credit`. */
export function describePattern(pattern: Pattern, anyAction?: string): string {
  return pattern.map((matcher) => describeMatcher(matcher, anyAction)).join(" or ");
}

function sameKey(key: string | undefined): string {
  return key === undefined ? "" : ` with the same ${key}`;
}

/** ` after the first escalate_to_supervisor` (per key value with `on`), or nothing without `after`. */
function windowOf(check: { after?: Pattern | undefined; on?: On<"after" | "match"> | undefined }): string {
  if (check.after === undefined) return "";
  const on = check.on === undefined ? undefined : sidesOf(check.on, "after", "match");
  return on === undefined
    ? ` after the first ${describePattern(check.after)}`
    : ` after the first ${describePattern(check.after)} of each ${on.after}, with the same ${on.match}`;
}

function bounds(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min}` : `between ${min} and ${max}`;
  return max !== undefined ? `at most ${max}` : `at least ${min}`;
}

/** The sentence for one check. */
export function describeCheck(check: Check): string {
  switch (check.type) {
    case "ordering": {
      const on = check.on === undefined ? undefined : sidesOf(check.on, "first", "before");
      if (check.fresh === true || on !== undefined) {
        const fresh = check.fresh === true ? "a fresh " : "";
        return `${fresh}${describePattern(check.first)}${sameKey(on?.first)} before every ${describePattern(check.before)}`;
      }
      return `${describePattern(check.first)} before the first ${describePattern(check.before)}`;
    }
    case "pairing": {
      const on = check.on === undefined ? undefined : sidesOf(check.on, "each", "followedBy");
      const when = check.within === undefined ? "later" : `within ${check.within} event${check.within === 1 ? "" : "s"}`;
      return `every ${describePattern(check.each)} followed ${when} by ${describePattern(check.followedBy)}${sameKey(on?.followedBy)}`;
    }
    case "required":
      return `${describePattern(check.match)}${windowOf(check)}`;
    case "forbidden":
      // "no event (actor agent)", not "no any event (…)".
      return `no ${describePattern(check.match, "event")}${windowOf(check)}`;
    case "count": {
      const distinct = check.distinctBy === undefined ? "" : `, counting distinct ${keyOf(check.distinctBy) ?? check.distinctBy}`;
      const per = check.per === undefined ? "" : `, per ${keyOf(check.per) ?? check.per}`;
      const what =
        check.sum === undefined
          ? `${bounds(check.min, check.max)} of ${describePattern(check.match)}`
          : `a total ${keyOf(check.sum) ?? check.sum} of ${bounds(check.min, check.max)} over ${describePattern(check.match)}`;
      return `${what}${distinct}${per}${windowOf(check)}`;
    }
    case "condition":
      return `for every ${describePattern(check.each)}: ${check.when}`;
  }
}
