/**
 * Common policy English the offline drafter reads without labels (issue 25): what a sum adds up,
 * the words the preamble calls a tool by, and the other shapes of test/generate/spec-words.
 * Each fixture is a small spec of its own, with samples that tell the right reading from the
 * wrong one.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const draftOf = (preamble: string, body: string, samples: Trajectory[]): Draft => draftSpec(preamble, body, samples, "desk");

describe("sums", () => {
  // A refund carries the amount; a ticket names whose it is.
  const samples = [
    session(
      ["agent", "close_ticket", { ticket_id: "T1", member_id: "M1" }],
      ["agent", "issue_refund", { ticket_id: "T1", member_id: "M1", amount: "300" }],
      ["agent", "send_notice", { member_id: "M1", kind: "refund made" }],
    ),
    session(
      ["agent", "issue_refund", { ticket_id: "T2", member_id: "M2", amount: "700" }],
      ["agent", "issue_refund", { ticket_id: "T3", member_id: "M2", amount: "600" }],
      ["agent", "close_ticket", { ticket_id: "T3", member_id: "M2" }],
    ),
  ];

  it("adds up what carries the amount, not another thing the words name: 'across all their tickets'", () => {
    const draft = draftOf(
      "The agent can refund (`issue_refund`), close a ticket (`close_ticket`) and notify the member (`send_notice`).",
      "Refunds to any one member add up to at most $1,000 in a session, across all their tickets.",
      samples,
    );
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({
        type: "count",
        match: [{ action: "issue_refund" }],
        sum: "metadata.amount",
        max: 1000,
        per: "metadata.member_id",
      }),
    ]);
  });

  it("does not take the preamble's word for whom an action is done as that action's name", () => {
    // "notify the member (`send_notice`)": "member" is the `member_id` key, which every action here carries.
    const notices = [
      session(
        ["agent", "close_ticket", { ticket_id: "T1", member_id: "M1" }],
        ["agent", "issue_refund", { ticket_id: "T1", member_id: "M1", amount: "300" }],
        ["agent", "send_notice", { member_id: "M1", kind: "refund made" }],
      ),
      session(
        ["agent", "issue_refund", { ticket_id: "T2", member_id: "M2", amount: "700" }],
        ["agent", "send_notice", { member_id: "M2", kind: "ticket closed" }],
      ),
    ];
    const draft = draftOf(
      "The agent can refund money (`issue_refund`), close a ticket (`close_ticket`) and notify the member (`send_notice`).",
      "The agent refunds a member only after closing their ticket.",
      notices,
    );
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({ type: "ordering", first: [{ action: "close_ticket" }], before: [{ action: "issue_refund" }] }),
    ]);
  });
});

describe("the preamble's one word for a tool", () => {
  it("reads the verb the preamble calls a tool by before an object another tool's name shares: 'pays a ticket'", () => {
    const samples = [
      session(["agent", "lookup_plan", { member_id: "M1" }], ["agent", "issue_payment", { ticket_id: "T1", amount: "20" }]),
      session(["agent", "issue_payment", { ticket_id: "T2", amount: "40" }], ["agent", "reject_ticket", { ticket_id: "T3" }]),
    ];
    const draft = draftOf(
      "The agent can look up the member's plan (`lookup_plan`), pay (`issue_payment`) and reject (`reject_ticket`).",
      "The agent pays a ticket only after looking up the member's plan.",
      samples,
    );
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({ type: "ordering", first: [{ action: "lookup_plan" }], before: [{ action: "issue_payment" }] }),
    ]);
  });
});

describe("each … followed by", () => {
  const samples = [
    session(
      ["agent", "hold_parcel", { parcel_id: "P1" }],
      ["agent", "alert_supervisor", { parcel_id: "P1" }],
      ["agent", "ship_parcel", { parcel_id: "P2" }],
    ),
    session(
      ["agent", "hold_parcel", { parcel_id: "P3" }],
      ["agent", "ship_parcel", { parcel_id: "P4" }],
      ["agent", "return_parcel", { parcel_id: "P4" }],
      ["agent", "alert_supervisor", { parcel_id: "P3" }],
    ),
  ];

  it("reads 'every X is followed by Y within N events, before the agent moves on' as a pairing, not Y anywhere", () => {
    const draft = draftOf(
      "The agent can hold a parcel (`hold_parcel`), ship it (`ship_parcel`) or send it back (`return_parcel`).",
      "Every hold is followed by an `alert_supervisor` call for that same parcel within the next two events, before the agent moves on to anything else.",
      samples,
    );
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({
        type: "pairing",
        each: [{ action: "hold_parcel" }],
        followedBy: [{ action: "alert_supervisor" }],
        on: "metadata.parcel_id",
        within: 2,
      }),
    ]);
  });

  it("pairs every one of 'every X and every Y (`name`)', not only the one written in backticks", () => {
    const draft = draftOf(
      "The agent can hold a parcel (`hold_parcel`), ship it (`ship_parcel`) or send it back.",
      "Every hold and every return (`return_parcel`) is reported: the agent calls `alert_supervisor` for that parcel within three steps of it.",
      samples,
    );
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({
        type: "pairing",
        each: [{ action: "hold_parcel" }, { action: "return_parcel" }],
        followedBy: [{ action: "alert_supervisor" }],
      }),
    ]);
  });
});

describe("a leading condition without a comma", () => {
  it("reads 'Before each X the agent does Y' as an ordering, the condition ending where the agent starts the main clause", () => {
    const samples = [
      session(["agent", "weigh_parcel", { parcel_id: "P1" }], ["agent", "ship_parcel", { parcel_id: "P1" }]),
      session(["agent", "ship_parcel", { parcel_id: "P2" }], ["agent", "weigh_parcel", { parcel_id: "P2" }]),
    ];
    const draft = draftOf(
      "The agent can weigh a parcel (`weigh_parcel`) and ship it (`ship_parcel`).",
      "Before each shipping the agent weighs the parcel.",
      samples,
    );
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({ type: "ordering", first: [{ action: "weigh_parcel" }], before: [{ action: "ship_parcel" }] }),
    ]);
  });
});

describe("X needs Y first", () => {
  it("reads 'any X above $N needs a Y first: … (`key: value`)' as an ordering on Y's outcome before the large X", () => {
    const samples = [
      session(
        ["agent", "ask_manager", { order_id: "O1" }],
        ["tool", "ask_manager_result", { order_id: "O1", approved: "yes" }],
        ["agent", "issue_refund", { order_id: "O1", amount: "450" }],
      ),
      session(
        ["agent", "issue_refund", { order_id: "O2", amount: "80" }],
        ["agent", "ask_manager", { order_id: "O3" }],
        ["tool", "ask_manager_result", { order_id: "O3", approved: "no" }],
      ),
    ];
    const draft = draftOf(
      "The agent can refund an order (`issue_refund`) and ask the manager (`ask_manager`).",
      "Any refund above $200 needs a manager sign-off first: the agent asks the manager and the manager agrees (`approved: yes`).",
      samples,
    );
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({
        type: "ordering",
        first: [{ action: "ask_manager_result", metadata: { approved: "yes" } }],
        before: [{ action: "issue_refund", metadata: { amount: { gt: 200 } } }],
      }),
    ]);
  });
});

describe("amounts written as a hyphenated measure", () => {
  it("reads 'never dispenses more than a 90-day supply' as a forbidden amount, not a count of one", () => {
    const samples = [
      session(["agent", "dispense", { rx_id: "R1", days_supply: "30" }], ["agent", "dispense", { rx_id: "R2", days_supply: "30" }]),
      session(["agent", "dispense", { rx_id: "R3", days_supply: "120" }]),
    ];
    const draft = draftOf("The agent fills prescriptions (`dispense`).", "The agent never dispenses more than a 90-day supply.", samples);
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({ type: "forbidden", match: [{ action: "dispense", metadata: { days_supply: { gt: 90 } } }] }),
    ]);
  });
});

describe("a list of values written in backticks", () => {
  // Every sample ships, to one of the listed countries or not: a forbidden check without the list
  // fails them all, and must not be "repaired" into a required one (the "never" would be lost).
  const samples = [
    session(
      ["agent", "lookup_customer", { customer_id: "C1", country: "BY" }],
      ["agent", "ship_order", { customer_id: "C1", country: "BY" }],
    ),
    session(
      ["agent", "lookup_customer", { customer_id: "C2", country: "FR" }],
      ["agent", "ship_order", { customer_id: "C2", country: "FR" }],
    ),
    session(["agent", "ship_order", { customer_id: "C3", country: "KP" }]),
    session(["agent", "ship_order", { customer_id: "C4", country: "IR" }]),
  ];
  const preamble = "The agent can look up a customer (`lookup_customer`) and ship an order (`ship_order`).";

  it.each([
    "The agent never ships an order to `IR`, `BY` or `KP`.",
    "Never ship an order to a customer in `IR`, `BY` or `KP`.",
    "The agent never ships an order to IR, BY or KP.",
  ])("reads '%s' as forbidden on those values, `BY` included", (body) => {
    const draft = draftOf(preamble, body, samples);
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({
        type: "forbidden",
        match: [{ action: "ship_order", metadata: { country: { in: ["IR", "BY", "KP"] } } }],
      }),
    ]);
  });
});
