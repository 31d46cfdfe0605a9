/**
 * What a check looks for, in words (compiler/ir/describe-check.ts): shown
 * under a false clause that has no explanation of its own (issue 24: "every
 * failed clause says what the check looked for ... rendered readably, not as
 * judge.yaml field names").
 */
import { expect, test } from "vitest";
import { describeCheck, describeMatcher } from "../../compiler/ir/describe-check.js";

test("a matcher: the action first, the other fields in parentheses, operators in words", () => {
  expect(describeMatcher({ actor: "tool", action: "verify_identity_result", metadata: { status: "verified" } })).toBe(
    'verify_identity_result (actor tool, status "verified")',
  );
  expect(describeMatcher({ action: { in: ["a", "b"] }, metadata: { amount: { gt: 500 }, reason: { exists: false } } })).toBe(
    'any event (action one of "a", "b", amount > 500, reason absent)',
  );
  expect(describeMatcher({ actor: "user", content: { matches: "^yes", flags: "i" } })).toBe(
    "any event (actor user, content matching /^yes/i)",
  );
  expect(describeMatcher({ contentIncludes: "refund" })).toBe('any event (content including "refund")');
});

test("each check type reads as a sentence", () => {
  expect(
    describeCheck({ type: "ordering", quote: "q", first: [{ action: "lookup" }], before: [{ action: "pay" }, { action: "credit" }] }),
  ).toBe("lookup before the first pay or credit");
  expect(
    describeCheck({
      type: "ordering",
      quote: "q",
      first: [{ action: "lookup" }],
      before: [{ action: "cancel" }],
      on: "metadata.id",
      fresh: true,
    }),
  ).toBe("a fresh lookup with the same id before every cancel");
  expect(describeCheck({ type: "pairing", quote: "q", each: [{ action: "ask" }], followedBy: [{ action: "answer" }], within: 1 })).toBe(
    "every ask followed within 1 event by answer",
  );
  expect(describeCheck({ type: "required", quote: "q", match: [{ action: "note" }], after: [{ action: "escalate" }] })).toBe(
    "note after the first escalate",
  );
  expect(
    describeCheck({
      type: "forbidden",
      quote: "q",
      match: [{ action: "charge" }],
      after: [{ action: "close" }],
      on: { after: "metadata.order_id", match: "metadata.order" },
    }),
  ).toBe("no charge after the first close of each order_id, with the same order");
  expect(describeCheck({ type: "forbidden", quote: "q", match: [{ actor: "agent", metadata: { amount: { gt: 500 } } }] })).toBe(
    "no event (actor agent, amount > 500)",
  );
  expect(describeCheck({ type: "count", quote: "q", match: [{ action: "refund" }], max: 3, distinctBy: "metadata.order_id" })).toBe(
    "at most 3 of refund, counting distinct order_id",
  );
  expect(describeCheck({ type: "count", quote: "q", match: [{ action: "refund" }], min: 1, max: 1, per: "metadata.@turn" })).toBe(
    "exactly 1 of refund, per @turn",
  );
  expect(
    describeCheck({
      type: "count",
      quote: "q",
      match: [{ action: "refund" }],
      max: 1000,
      sum: "metadata.amount",
      per: "metadata.customer",
    }),
  ).toBe("a total amount of at most 1000 over refund, per customer");
  expect(describeCheck({ type: "condition", quote: "q", each: [{ action: "cancel" }], with: {}, when: 'r.cabin == "business"' })).toBe(
    'for every cancel: r.cabin == "business"',
  );
});
