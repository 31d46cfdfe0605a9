/**
 * Issue 25, no labels, round 8: sentence forms the offline drafter misread on blind11 and the
 * development sets, each written here for a world of its own (a community tool library's lending
 * shed, worked by an agent called Spanner).
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "Spanner lends tools at a community tool library. It can look a tool up (`check_tool`, by `tool_id`: gives its " +
  "`status`, shelved or lent, and its `charge_pct`, the battery charge in per cent), check a member's card " +
  "(`verify_member`, by `card_ref`: gives the card's `standing` and the `member_id` it belongs to), confirm a " +
  "booking (`confirm_booking`, by `booking_no`: gives a `decision`, lend or hold, and the `tool_id` booked) and " +
  "lend a tool (`lend_tool`, with `tool_id`, `member_id`, `card_ref`, `booking_no` and `hours`).";

const draftOf = (body: string, samples: Trajectory[]) => draftSpec(PREAMBLE, body, samples, "tool-shed");
const checksOf = (body: string, samples: Trajectory[]) =>
  draftOf(body, samples).ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c);

/** A drill looked up, a card checked, a booking confirmed, then the loan; a saw lent on another's card and booking. */
const samples = [
  session(
    ["agent", "check_tool", { tool_id: "T1" }],
    ["tool", "check_tool_result", { tool_id: "T1", status: "shelved", charge_pct: "80" }],
    ["agent", "verify_member", { card_ref: "K1" }],
    ["tool", "verify_member_result", { card_ref: "K1", standing: "good", member_id: "M1" }],
    ["agent", "confirm_booking", { booking_no: "B1" }],
    ["tool", "confirm_booking_result", { booking_no: "B1", decision: "lend", tool_id: "T1" }],
    ["agent", "lend_tool", { tool_id: "T1", member_id: "M1", card_ref: "K1", booking_no: "B1", hours: "4" }],
  ),
  session(
    ["agent", "check_tool", { tool_id: "T2" }],
    ["tool", "check_tool_result", { tool_id: "T2", status: "lent", charge_pct: "30" }],
    ["agent", "verify_member", { card_ref: "K2" }],
    ["tool", "verify_member_result", { card_ref: "K2", standing: "lapsed", member_id: "M3" }],
    ["agent", "confirm_booking", { booking_no: "B2" }],
    ["tool", "confirm_booking_result", { booking_no: "B2", decision: "hold", tool_id: "T9" }],
    ["agent", "lend_tool", { tool_id: "T2", member_id: "M2", card_ref: "K2", booking_no: "B2", hours: "2" }],
  ),
];

const lend = [{ action: "lend_tool" }];

describe("a latest look-up whose act is named only in the look-up's own words", () => {
  it("'the latest check of the tool being lent must show … 40% or higher': each loan, the latest check of that tool", () => {
    const body = "The latest `check_tool` result for the tool being lent must show `status: shelved` and a `charge_pct` of 40% or higher.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: lend,
        with: { r: { latest: [{ action: "check_tool_result" }], on: "metadata.tool_id" } },
        when: 'r.status == "shelved" && r.charge_pct >= 40',
      },
    ]);
  });

  it("'No tool is lent unless the latest … for the card_ref … says …, and carries the same member_id as the loan'", () => {
    const body =
      "No tool is lent unless the latest `verify_member` result for the card_ref quoted on the loan says `standing: good` and carries the same member_id as the loan.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: lend,
        with: { r: { latest: [{ action: "verify_member_result" }], on: "metadata.card_ref" } },
        when: 'r.standing == "good" && r.member_id == event.member_id',
      },
    ]);
  });

  it("'… unless the most recent booking confirmed under the booking number … directs `decision: lend` of that tool'", () => {
    const body =
      "No tool may be lent unless the most recent booking confirmed under the booking number written on the loan directs `decision: lend` of that tool.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: lend,
        with: { r: { latest: [{ action: "confirm_booking_result" }], on: "metadata.booking_no" } },
        when: 'r.decision == "lend" && r.tool_id == event.tool_id',
      },
    ]);
  });
});

describe("totals per the sentence's subject, and bounds written with a short unit", () => {
  const NAILS =
    "Rivet serves the bulk counter of a hardware shop. It can look a customer up (`get_customer`, by `customer_id`) and " +
    "sell nails by weight (`sell_nails`, with `sale_id`, `customer_id`, the `kind` of nail, plain or galvanised, the " +
    "`grams` weighed out, the number of `boxes` and the `price` in dollars).";
  const sale = (sale_id: string, customer_id: string, kind: string, grams: string, boxes: string, price: string) =>
    ["agent", "sell_nails", { sale_id, customer_id, kind, grams, boxes, price }] as ["agent", string, Record<string, string>];
  /** One customer buying twice (a sale over 900 g), two customers once each, a sale under 50 g. */
  const sales = [
    session(
      ["agent", "get_customer", { customer_id: "C1" }],
      sale("S1", "C1", "plain", "800", "4", "60.00"),
      sale("S2", "C1", "galvanised", "1300", "9", "95.50"),
    ),
    session(
      ["agent", "get_customer", { customer_id: "C2" }],
      sale("S3", "C2", "galvanised", "60", "1", "12.00"),
      sale("S4", "C3", "plain", "500", "2", "30.00"),
    ),
    session(sale("S5", "C4", "plain", "40", "1", "4.00")),
  ];
  const nailChecks = (body: string) =>
    draftSpec(NAILS, body, sales, "nail-counter").ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c);
  const sell = [{ action: "sell_nails" }];

  it("'one customer gets at most 2000 g in total': a sum of the grams, per customer", () => {
    expect(nailChecks("Across all of the nails they buy, one customer gets at most 2000 g in total.")).toEqual([
      { type: "count", match: sell, sum: "metadata.grams", max: 2000, per: "metadata.customer_id" },
    ]);
  });

  it("'a customer gets at most 12 boxes over the day': per the subject, after a lead-in with a colon", () => {
    expect(
      nailChecks("Keep count of the boxes: a customer gets at most 12 boxes over the day, counted across every sale they make."),
    ).toEqual([{ type: "count", match: sell, sum: "metadata.boxes", max: 12, per: "metadata.customer_id" }]);
  });

  it("'… all galvanised sales taken together, may not exceed USD 150.00': a sum of the price, per customer", () => {
    expect(nailChecks("Nails sold to any one customer, all galvanised sales taken together, may not exceed USD 150.00.")).toEqual([
      {
        type: "count",
        match: [{ action: "sell_nails", metadata: { kind: "galvanised" } }],
        sum: "metadata.price",
        max: 150,
        per: "metadata.customer_id",
      },
    ]);
  });

  it("'A single sale is from 50 to 900 g, both ends included': each sale's grams, either side forbidden", () => {
    expect(nailChecks("A single sale is from 50 to 900 g, both ends included.")).toEqual([
      {
        type: "forbidden",
        match: [
          { action: "sell_nails", metadata: { grams: { lt: 50 } } },
          { action: "sell_nails", metadata: { grams: { gt: 900 } } },
        ],
      },
    ]);
  });
});

describe("one go-ahead for one act, said in a clause or a sentence of its own", () => {
  const LADDERS =
    "Spanner lends tools at a community tool library. It can lend a tool (`lend_tool`, with `tool_id`, `member_id`, " +
    "the `kind` of tool, ladder or drill, and the `hours` of the loan). The chat is the volunteer on shift.";
  const loan = (tool_id: string, kind: string, hours: string) =>
    ["agent", "lend_tool", { tool_id, member_id: "M1", kind, hours }] as ["agent", string, Record<string, string>];
  const saying = (content: string, t: Trajectory): Trajectory => ({ ...t, events: [{ ...t.events[0]!, content }, ...t.events.slice(1)] });
  /** One "ladder ok, long loan ok" before two ladders on long loans; a drill lent for an hour; a long ladder loan after its own words. */
  const shifts = [
    saying("ladder ok, long loan ok", session(["user", "message"], loan("T1", "ladder", "72"), loan("T2", "ladder", "60"))),
    session(loan("T3", "drill", "1")),
    saying("ladder ok and long loan ok", session(["user", "message"], loan("T4", "ladder", "50"))),
  ];
  const draftOf = (body: string) => draftSpec(LADDERS, body, shifts, "ladder-loans").ir.metaBehaviors[0]!;
  const said = (words: string) => [{ actor: "user", content: { matches: words, flags: "i" } }];
  const ladders = [{ action: "lend_tool", metadata: { kind: "ladder" } }];

  it("'One sign-off covers one ladder.' after the sentence that asks for it makes that ordering fresh, its quote over both", () => {
    const rule = draftOf(
      'The volunteer says "ladder ok" in the chat before each ladder is lent, every time. One sign-off covers one ladder.',
    );
    expect(rule.checks).toEqual([
      {
        type: "ordering",
        quote: 'The volunteer says "ladder ok" in the chat before each ladder is lent, every time. One sign-off covers one ladder',
        first: said("\\bladder\\s+ok\\b"),
        before: ladders,
        fresh: true,
      },
    ]);
  });

  it("'… is spent by the loan it precedes and does not extend to a second ladder': fresh", () => {
    const rule = draftOf(
      'Each loan of a tool of `kind: ladder` requires the volunteer to write "ladder ok" in the chat beforehand; the sign-off is spent by the loan it precedes and does not extend to a second ladder.',
    );
    expect(rule.checks.map(({ quote: _q, ...c }) => c)).toEqual([
      { type: "ordering", first: said("\\bladder\\s+ok\\b"), before: ladders, fresh: true },
    ]);
  });

  it("'Whenever a tool is lent for more than 48 hours.' alone is the situation: the words before each such loan, one OK per loan", () => {
    const rule = draftOf(
      'Whenever a tool is lent for more than 48 hours. The volunteer writes "long loan ok" in the chat before each such tool is lent; an OK given for one of them doesn\'t carry over to the next one.',
    );
    const long = [{ action: "lend_tool", metadata: { hours: { gt: 48 } } }];
    expect(rule.trigger.match).toEqual(long);
    expect(rule.checks.map(({ quote: _q, ...c }) => c)).toEqual([
      { type: "ordering", first: said("\\blong\\s+loan\\s+ok\\b"), before: long, fresh: true },
    ]);
  });
});

describe("a look-up's value compared with the act's, in the words of the one table", () => {
  const HIRE =
    "Spanner lends tools at a community tool library. It can look a tool up (`check_tool`, by `tool_id`: gives its " +
    "`status` and the `max_hours` it may be out) and lend it (`lend_tool`, with `tool_id`, `member_id` and `hours`).";
  const hire = (max: string, hours: string) =>
    session(
      ["agent", "check_tool", { tool_id: "T1" }],
      ["tool", "check_tool_result", { tool_id: "T1", status: "shelved", max_hours: max }],
      ["agent", "lend_tool", { tool_id: "T1", member_id: "M1", hours }],
    );
  it("'the `hours` lent may be up to the `max_hours` it gives': `up to` is the table's, event.hours <= r.max_hours", () => {
    const body =
      "For every `lend_tool`, the latest `check_tool` result for that tool must show `status: shelved`, and the `hours` lent may be up to the `max_hours` it gives.";
    const checks = draftSpec(HIRE, body, [hire("48", "24"), hire("24", "48")], "tool-hire").ir.metaBehaviors[0]!.checks;
    expect(checks.map(({ quote: _q, ...c }) => c)).toEqual([
      {
        type: "condition",
        each: [{ action: "lend_tool" }],
        with: { r: { latest: [{ action: "check_tool_result" }], on: "metadata.tool_id" } },
        when: 'r.status == "shelved" && event.hours <= r.max_hours',
      },
    ]);
  });
});
