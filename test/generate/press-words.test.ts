/**
 * Issue 25, no labels, round 12: the clauses a draft lost or misread inside a rule (blind14's three
 * specs, grain-intake, prop-armory and adoption-desk of the earlier sets), written here for a world
 * of its own: a cider co-op's apple press, whose assistant, Press, checks growers, weighs their
 * deliveries onto batches and pays bonuses. Three classes: a latest look-up's further values said in
 * words (worded.ts), a rule's further sentence that states its own check (voice-asides.ts, keys.ts,
 * clauses.ts, lexicon.ts, trigger.ts), a bound on a total said in words (summed.ts, counts.ts, totals.ts).
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { draftOf, session } from "../support/offline-drafts.js";

const DESCRIPTION = "Press rules for Press, the assistant that weighs apple deliveries at a cider co-op.";
const PREAMBLE =
  "Press can check a grower (`check_grower`, by `grower`; the answer gives `status`, active or suspended, `banned`, yes or no, " +
  "and `allowance_kg`), weigh a delivery (`weigh_delivery`, with `delivery_id`, `grower`, `batch`, `variety`, `weight_kg`, `price` in dollars and `booked`), " +
  "pay a bonus (`pay_bonus`, with `grower` and `amount` in dollars) and, for the orchard inspector, quarantine a grower (`quarantine_grower`, with `grower` and `inspector`).";

const draft = (body: string, samples: Trajectory[]) => draftOf(PREAMBLE, body, samples, "cider-press", DESCRIPTION);
const checksOf = (body: string, samples: Trajectory[]) => draft(body, samples).ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c);
const quotesOf = (body: string, samples: Trajectory[]) => draft(body, samples).ir.metaBehaviors[0]!.checks.map((c) => c.quote);

/** Checks, deliveries, bonuses and a quarantine, with the keys and values each spec sentence below names. */
const samples = [
  session(
    ["agent", "check_grower", { grower: "G-1" }],
    ["tool", "check_grower_result", { grower: "G-1", status: "active", banned: "no", allowance_kg: "800" }],
    [
      "agent",
      "weigh_delivery",
      { delivery_id: "D-1", grower: "G-1", batch: "B-1", variety: "cider", weight_kg: "500", price: "120", booked: "yes" },
    ],
    [
      "agent",
      "weigh_delivery",
      { delivery_id: "D-2", grower: "G-1", batch: "B-1", variety: "dessert", weight_kg: "300", price: "90", booked: "no" },
    ],
    ["agent", "pay_bonus", { grower: "G-1", amount: "200" }],
  ),
  session(
    ["agent", "check_grower", { grower: "G-2" }],
    ["tool", "check_grower_result", { grower: "G-2", status: "suspended", banned: "yes", allowance_kg: "100" }],
    [
      "agent",
      "weigh_delivery",
      { delivery_id: "D-3", grower: "G-2", batch: "B-2", variety: "cider", weight_kg: "450", price: "100", booked: "yes" },
    ],
    ["agent", "quarantine_grower", { grower: "G-2", inspector: "Ruth" }],
    [
      "agent",
      "weigh_delivery",
      { delivery_id: "D-4", grower: "G-2", batch: "B-3", variety: "cider", weight_kg: "700", price: "150", booked: "yes" },
    ],
    ["agent", "pay_bonus", { grower: "G-2", amount: "350" }],
  ),
  session(
    ["agent", "check_grower", { grower: "G-3" }],
    ["tool", "check_grower_result", { grower: "G-3", status: "active", banned: "no", allowance_kg: "400" }],
    [
      "agent",
      "weigh_delivery",
      { delivery_id: "D-5", grower: "G-3", batch: "B-4", variety: "dessert", weight_kg: "380", price: "95", booked: "no" },
    ],
    ["agent", "pay_bonus", { grower: "G-3", amount: "150" }],
    ["agent", "pay_bonus", { grower: "G-3", amount: "400" }],
  ),
  session([
    "agent",
    "weigh_delivery",
    { delivery_id: "D-6", grower: "G-4", batch: "B-5", variety: "dessert", weight_kg: "200", price: "50", booked: "no" },
  ]),
];

describe("a latest look-up's further values, said in words", () => {
  it("'… as active and the grower as not banned': a yes-or-no key named by its word, 'not' before it its no", () => {
    const body =
      "Press weighs no delivery for a grower unless the most recent check of that same grower shows the grower as active and the grower as not banned.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: [{ action: "weigh_delivery" }],
        with: { r: { latest: [{ action: "check_grower_result" }], on: "metadata.grower" } },
        when: 'r.status == "active" && r.banned == "no"',
      },
    ]);
  });

  it("'… and shows at least as much allowance left as what goes on the scale for that delivery': the look-up's amount against the act's", () => {
    const body =
      "Press weighs no delivery for a grower unless the last check of that same grower says the grower is active and shows at least as much allowance left as what goes on the scale for that delivery.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: [{ action: "weigh_delivery" }],
        with: { r: { latest: [{ action: "check_grower_result" }], on: "metadata.grower" } },
        when: 'r.status == "active" && r.allowance_kg >= event.weight_kg',
      },
    ]);
    expect(quotesOf(body, samples)[0]).toMatch(/what goes on the scale for that delivery$/);
  });
});

describe("a rule's further sentence that states its own check", () => {
  it("'The co-op shall not weigh any single delivery in excess of 900 kg.': a subject no key or action names acts through the agent", () => {
    const body = "The co-op shall not weigh any single delivery in excess of 900 kg.";
    expect(checksOf(body, samples)).toEqual([
      { type: "forbidden", match: [{ action: "weigh_delivery", metadata: { weight_kg: { gt: 900 } } }] },
    ]);
  });

  it("a subject the samples know ('The grower') is no one acting through the agent", () => {
    const body = "The grower shall not weigh any single delivery in excess of 900 kg.";
    expect(checksOf(body, samples).some((c) => c.type === "forbidden")).toBe(false);
  });

  it("'no delivery from that same farm is to be recorded afterwards': a ban after the event, tied on the only key both carry", () => {
    const body =
      "Once `quarantine_grower` has gone in for a farm, no delivery from that same farm is to be weighed afterwards, whatever a later check says.";
    expect(checksOf(body, samples)).toEqual([
      { type: "forbidden", match: [{ action: "weigh_delivery" }], after: [{ action: "quarantine_grower" }], on: "metadata.grower" },
    ]);
  });

  it("an answer's remark before a colon and the condition after it: the rule is what follows the colon", () => {
    const body =
      "A: If the inspector's quarantined a grower, that's the end of it: once `quarantine_grower` has gone in for a grower, no delivery from that same grower is to be weighed afterwards.";
    expect(checksOf(body, samples)).toEqual([
      { type: "forbidden", match: [{ action: "weigh_delivery" }], after: [{ action: "quarantine_grower" }], on: "metadata.grower" },
    ]);
  });

  it("a second obligation after a condition check: two checks, the rule about the first one's act", () => {
    const body =
      "Press weighs no delivery for a grower unless the most recent check of that same grower shows the grower as active. " +
      "Once `quarantine_grower` has gone in for a grower, no delivery from that same grower is to be weighed afterwards.";
    const rule = draft(body, samples).ir.metaBehaviors[0]!;
    expect(rule.checks.map((c) => c.type)).toEqual(["condition", "forbidden"]);
    expect(rule.trigger.match).toEqual([{ action: "weigh_delivery" }]);
  });

  it("'We won't pay any bonus to a grower once a quarantine has been placed on that grower (for example …)': the condition put first, no example's value", () => {
    const body =
      "If a grower brings two batches, each batch is weighed on its own. " +
      "We won't pay any bonus to a grower once a quarantine has been placed on that grower (for example after a pest find), whatever is said afterwards.";
    expect(checksOf(body, samples)).toContainEqual({
      type: "forbidden",
      match: [{ action: "pay_bonus" }],
      after: [{ action: "quarantine_grower" }],
      on: "metadata.grower",
    });
  });

  it("'after an unbooked delivery, no bonus is paid to that grower again': 'un' before a yes-or-no key's word is its no", () => {
    const body = "Bonuses are for growers who book. After an unbooked delivery, no bonus is paid to that grower again.";
    expect(checksOf(body, samples)).toContainEqual({
      type: "forbidden",
      match: [{ action: "pay_bonus" }],
      after: [{ action: "weigh_delivery", metadata: { booked: "no" } }],
      on: "metadata.grower",
    });
  });
});

describe("a bound on a total, said in words", () => {
  it("'At most 900 kilos of cider apples per batch, and that's every delivery … added up': one sum over both clauses", () => {
    const body =
      "At most 900 kilos of cider per batch, and that's every cider delivery with the same batch number added up. 900 on the dot is fine. Two batches, two limits.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "count",
        match: [{ action: "weigh_delivery", metadata: { variety: "cider" } }],
        sum: "metadata.weight_kg",
        max: 900,
        per: "metadata.batch",
      },
    ]);
    expect(quotesOf(body, samples)).toEqual([
      "At most 900 kilos of cider per batch, and that's every cider delivery with the same batch number added up",
    ]);
  });

  it("'… more than $500.00 in bonuses for one grower, every bonus to that grower added together': a sum, not a ban of one bonus", () => {
    const body = "You will never be paid more than $500.00 in bonuses for one grower, every bonus to that grower added together.";
    expect(checksOf(body, samples)).toEqual([
      { type: "count", match: [{ action: "pay_bonus" }], sum: "metadata.amount", max: 500, per: "metadata.grower" },
    ]);
  });

  it("'$500.00 in bonuses from us, all its deliveries counted together': the noun after the amount names what is summed", () => {
    const body = "No grower gets more than $500.00 in bonuses from us, all its deliveries counted together.";
    expect(checksOf(body, samples)).toEqual([
      { type: "count", match: [{ action: "pay_bonus" }], sum: "metadata.amount", max: 500, per: "metadata.grower" },
    ]);
  });
});
