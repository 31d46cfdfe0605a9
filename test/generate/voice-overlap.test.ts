/**
 * Issue 25: where the voice layer and the words' readers both know a form, one of them reads it. "No
 * X gets more than N" is the count and sum readers' own (a subject of "no" forbids the total); the
 * voice layer's third round also rewrote it as "Each X gets at most N", and that rewrite reached the
 * reader of duties, which read a cap on one member's refunds as one required refund of at most $50. A
 * world of its own: a tool library's desk, whose assistant Spanner rents tools out and refunds
 * members.
 */
import { describe, expect, it } from "vitest";
import { voiced } from "../../compiler/generate/offline/voice.js";
import { drafter, sessions, type Step } from "./voice-fixture.js";

const PREAMBLE =
  "Spanner runs the tool library's desk. It rents a tool out (`rent_tool`, with the `member` and the `price` in dollars) " +
  "and refunds a member (`refund_member`, with the `member` and the `amount` in dollars).";
const SPEC = (body: string) =>
  `---\nname: tool-library\ndescription: Rules for Spanner, the tool library's desk assistant.\n---\n${PREAMBLE}\n\n## Refunds\n\n${body}\n`;

const session = sessions("t");
const rent = (member: string, price: string): Step => ["agent", "rent_tool", { member, price }];
const refund = (member: string, amount: string): Step => ["agent", "refund_member", { member, amount }];

const samples = [
  // Rentals dearer than $50 and $45 of refunds: the rule is kept.
  session(rent("M1", "80"), refund("M1", "25"), rent("M1", "90"), refund("M1", "20")),
  // $70 of refunds to one member: the rule is broken.
  session(rent("M2", "30"), refund("M2", "40"), rent("M2", "30"), refund("M2", "30")),
  session(rent("M3", "20"), refund("M3", "10")),
  session(rent("M4", "120"), refund("M4", "50"), rent("M5", "60"), refund("M5", "50")),
];

const { drafted, reading } = drafter(SPEC, samples);

describe("a form both the voice layer and the words' readers know is read once", () => {
  it("leaves 'No member gets more than $50' as written: the count and sum readers read a subject of 'no' themselves", () => {
    expect(voiced("No member gets more than $50 in refunds from us", "Spanner").text).toBe(
      "No member gets more than $50 in refunds from us",
    );
  });

  it("drafts no duty of one refund of at most $50 from a cap on a member's refunds all counted together", () => {
    const { rule, verdicts } = drafted(
      "No member gets more than $50 in refunds from us, all its rentals counted together (go by the `member` on the refund).",
    );
    // Rewritten "Each member gets at most $50 …", it was read as a required refund of at most $50, which the
    // second session (two refunds, $70 to one member) has: a pass for a session that breaks the rule. The
    // total's words ("all its rentals counted together") make it a sum of what "$50 in refunds" names (round 12).
    expect(rule.checks).toEqual([
      expect.objectContaining({ type: "count", match: [{ action: "refund_member" }], sum: "metadata.amount", max: 50 }),
    ]);
    expect(verdicts.pass).not.toContain("t2");
    expect(verdicts.fail).toContain("t2");
  });

  it("reads 'No member gets more than $50 in total' as a total of the refunds, at most 50", () => {
    expect(reading("No member gets more than $50 in refunds in total.")).toMatchObject({
      checks: [{ type: "count", match: [{ action: "refund_member" }], sum: "metadata.amount", max: 50 }],
      questions: 0,
    });
    expect(reading("No member gets more than $50 in refunds in total.").checks).toEqual(
      reading("Each member gets at most $50 in refunds in total.").checks,
    );
  });
});
