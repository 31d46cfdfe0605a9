/**
 * Bounds on each event's own value (issue 25, compiler/generate/offline/bounds.ts): "an extension
 * adds no more than 7 days" is a forbidden check on the extensions of more than 7 days, not a count
 * of extensions, a sum over the session, or a question; a bound that qualifies the subject of
 * another demand ("a refund over $200 must be approved") is not one. The sentences are about a
 * tool-hire shop, a domain none of the fixtures uses.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "The agent can look up a customer (`check_customer`), hire out tools (`rent_tool`, with the `days` and the " +
  "number of `items`), extend a booking (`extend_booking`, with the `days` added) and refund a deposit (`refund_deposit`, " +
  "with an `amount`).";
const draftOf = (body: string, samples: Trajectory[]): Draft => draftSpec(PREAMBLE, body, samples, "hire");

const samples = [
  session(
    ["agent", "check_customer", { customer_id: "C1" }],
    ["agent", "rent_tool", { customer_id: "C1", days: "5", items: "2" }],
    ["agent", "extend_booking", { customer_id: "C1", days: "7" }],
    ["agent", "extend_booking", { customer_id: "C1", days: "3" }],
  ),
  session(
    ["agent", "rent_tool", { customer_id: "C2", days: "40", items: "4" }],
    ["agent", "extend_booking", { customer_id: "C2", days: "10" }],
    ["agent", "refund_deposit", { customer_id: "C2", amount: "250" }],
  ),
  session(
    ["agent", "rent_tool", { customer_id: "C3", days: "12", items: "1" }],
    ["agent", "refund_deposit", { customer_id: "C3", amount: "80" }],
  ),
];

const checksOf = (draft: Draft) => draft.ir.metaBehaviors[0]!.checks;

describe("a bound on each event's value", () => {
  it("forbids the values beyond 'adds no more than N days', on the key the unit names", () => {
    const draft = draftOf("Extending a booking adds no more than 7 days.", samples);
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({ type: "forbidden", match: [{ action: "extend_booking", metadata: { days: { gt: 7 } } }] }),
    ]);
    // Session 1 extends by 7 and 3 days (kept), session 2 by 10 (broken).
    const preview = previewJudge(draft.ir, samples).rules[0]!;
    expect(preview.rule).toMatchObject({ pass: ["s1"], fail: ["s2"] });
  });

  it("reads 'limited to 3 items' as a value of the `items` key, not as a count of three hires", () => {
    const draft = draftOf("Rentals are limited to 3 items.", samples);
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({ type: "forbidden", match: [{ action: "rent_tool", metadata: { items: { gt: 3 } } }] }),
    ]);
  });

  it("reads 'no rental runs more than 30 days' as a prohibition of more than 30, not of 30 itself", () => {
    const draft = draftOf("No rental runs more than 30 days.", samples);
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({ type: "forbidden", match: [{ action: "rent_tool", metadata: { days: { gt: 30 } } }] }),
    ]);
  });

  it("leaves a bound that qualifies the subject of another demand, and a session's total, to the other readers", () => {
    const qualified = draftOf("A deposit refund over $200 must be preceded by a customer check.", samples);
    expect(checksOf(qualified)).not.toContainEqual(expect.objectContaining({ type: "forbidden" }));
    const total = draftOf("Deposit refunds to one customer come to at most $300 in a session.", samples);
    expect(checksOf(total)).toEqual([
      expect.objectContaining({ type: "count", match: [{ action: "refund_deposit" }], sum: "metadata.amount", max: 300 }),
    ]);
  });
});
