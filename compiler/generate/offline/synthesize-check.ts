/**
 * The check a candidate of the search from labels (issue 25) becomes: its matchers as patterns, its
 * key as a metadata reference, a condition's test and comparison as its `when` expression.
 */
import type { Check, Matcher, Pattern, ValueMatcher } from "../../ir/types.js";
import { exactValue, valueTest } from "../../ir/values.js";
import { keyRef } from "./keys.js";
import type { Candidate } from "./synthesize-eval.js";
import { crossExpression } from "./synthesize-forms.js";

const metadataRef = (key: string) => `metadata.${key}`;

/** The `when` expression that tests the bound event `r`'s key as the value matcher does. */
function whenOf(key: string, test: ValueMatcher): string {
  const ref = keyRef("r", key);
  const t = valueTest(test);
  if (t.op === "equals") return `${ref} == ${JSON.stringify(t.value)}`;
  if (t.op === "not") return `${ref} != ${JSON.stringify(exactValue(t.inner) ?? "")}`;
  if (t.op !== "range") throw new Error("internal: a condition tests equality or a range");
  const symbols = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
  return (Object.keys(symbols) as (keyof typeof symbols)[])
    .flatMap((op) => (t.range[op] === undefined ? [] : [`${ref} ${symbols[op]} ${String(t.range[op])}`]))
    .join(" && ");
}

export function toCheck(c: Candidate, matchers: Matcher[], quote: string): Check {
  const p = (i: number): Pattern => [matchers[i]!];
  const on = "on" in c && c.on !== undefined ? { on: metadataRef(c.on) } : {};
  switch (c.type) {
    case "ordering":
      return {
        type: "ordering",
        quote,
        first: p(c.first),
        before: p(c.before),
        // One thing under two names: the later event's own key for it.
        ...(c.on !== undefined && c.onLater !== undefined ? { on: { first: metadataRef(c.on), before: metadataRef(c.onLater) } } : on),
        ...(c.fresh ? { fresh: true } : {}),
      };
    case "pairing":
      return {
        type: "pairing",
        quote,
        each: p(c.each),
        followedBy: p(c.followedBy),
        // One thing under two names: the later event's own key for it.
        ...(c.on !== undefined && c.onLater !== undefined ? { on: { each: metadataRef(c.on), followedBy: metadataRef(c.onLater) } } : on),
        ...(c.within !== undefined ? { within: c.within } : {}),
      };
    case "count":
      return {
        type: "count",
        quote,
        match: p(c.match),
        ...(c.min !== undefined ? { min: c.min } : {}),
        ...(c.max !== undefined ? { max: c.max } : {}),
        ...(c.after !== undefined ? { after: p(c.after) } : {}),
        ...(c.per !== undefined ? { per: metadataRef(c.per) } : {}),
        ...(c.sum !== undefined ? { sum: metadataRef(c.sum) } : {}),
        ...on,
      };
    case "condition":
      return {
        type: "condition",
        quote,
        each: p(c.each),
        with: { r: { latest: p(c.bind), ...on } },
        when: [
          ...(c.test !== undefined ? [whenOf(c.key, c.test)] : []),
          ...(c.also !== undefined ? [whenOf(c.also.key, c.also.test)] : []),
          ...(c.cross !== undefined ? [crossExpression(c.cross)] : []),
        ].join(" && "),
      };
    default:
      return {
        type: c.type,
        quote,
        match: p(c.match),
        ...(c.after !== undefined ? { after: p(c.after) } : {}),
        // One thing under two names: the matched event's own key for it.
        ...(c.on !== undefined && c.onLater !== undefined ? { on: { after: metadataRef(c.on), match: metadataRef(c.onLater) } } : on),
      };
  }
}
