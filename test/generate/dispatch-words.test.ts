/**
 * Issue 25, no labels, round 7: sentence forms the offline drafter misread on blind10 and the
 * development sets, each written here for a world of its own (a wine merchant's dispatch bench,
 * worked by an agent called Crate).
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "Crate is the assistant at a wine merchant's dispatch bench. It can ship a parcel (`ship_parcel`, with the " +
  "`parcel_id`, the `customer_id`, the number of `bottles` and its `kilos`), add bottles to an order " +
  "(`add_to_order`, with the `order_id` and the `bottles` added) and look up a customer (`get_customer`).";

const draftOf = (body: string, samples: Trajectory[]) => draftSpec(PREAMBLE, body, samples, "dispatch-bench");
const checksOf = (body: string, samples: Trajectory[]) =>
  draftOf(body, samples).ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c);

/** Two parcels to one customer (one of them heavy), two additions to one order; a small parcel to another. */
const samples = [
  session(
    ["agent", "get_customer", { customer_id: "C1" }],
    ["agent", "ship_parcel", { parcel_id: "P1", customer_id: "C1", bottles: "6", kilos: "9.5" }],
    ["agent", "ship_parcel", { parcel_id: "P2", customer_id: "C1", bottles: "3", kilos: "31" }],
    ["agent", "add_to_order", { order_id: "O1", bottles: "6" }],
    ["agent", "add_to_order", { order_id: "O1", bottles: "8" }],
  ),
  session(["agent", "ship_parcel", { parcel_id: "P3", customer_id: "C2", bottles: "2", kilos: "4" }]),
];

describe("a cap on each event's value, not a total", () => {
  it("'never ships a parcel packed with more than four bottles': a number word after 'with' bounds each parcel", () => {
    expect(checksOf("Crate never ships a parcel packed with more than four bottles.", samples)).toEqual([
      { type: "forbidden", match: [{ action: "ship_parcel", metadata: { bottles: { gt: 4 } } }] },
    ]);
  });

  it.each([
    ["Parcels are limited to 30 kilos per parcel.", { kilos: { gt: 30 } }],
    ["Shipments are capped at 12 bottles per parcel.", { bottles: { gt: 12 } }],
  ])("%s: 'per' the act's own noun is each event", (body, metadata) => {
    expect(checksOf(body, samples)).toEqual([{ type: "forbidden", match: [{ action: "ship_parcel", metadata }] }]);
  });

  it("'per order' over additions that share an order stays a total per order", () => {
    expect(checksOf("Additions to an order are capped at 12 bottles per order.", samples)).toEqual([
      { type: "count", match: [{ action: "add_to_order" }], sum: "metadata.bottles", max: 12, per: "metadata.order_id" },
    ]);
  });

  it("'twelve bottles a day to any one customer' stays a total per customer", () => {
    expect(checksOf("Crate ships no more than twelve bottles a day to any one customer.", samples)).toEqual([
      { type: "count", match: [{ action: "ship_parcel" }], sum: "metadata.bottles", max: 12, per: "metadata.customer_id" },
    ]);
  });
});

describe("a condition naming its event by a backticked value 'no'", () => {
  // A breakage nobody expected, then a claim; one that was expected.
  const breakages = [
    session(
      ["agent", "ship_parcel", { parcel_id: "P1" }],
      ["agent", "log_breakage", { parcel_id: "P1", expected: "no" }],
      ["agent", "file_claim", { parcel_id: "P1" }],
    ),
    session(["agent", "ship_parcel", { parcel_id: "P2" }], ["agent", "log_breakage", { parcel_id: "P2", expected: "yes" }]),
  ];
  const surprise = [{ action: "log_breakage", metadata: { expected: "no" } }];

  it.each([
    "If a `log_breakage` comes back with `expected: no`, Crate calls `file_claim` for that parcel within three steps.",
    // The parenthesis names the event: the words before it may say it with a negation.
    "If a bottle breaks when it shouldn't (`log_breakage` with `expected: no`), Crate files file_claim for that parcel within three steps.",
  ])("%s: the value is no negation, the condition is its event", (body) => {
    const rule = draftOf(body, breakages).ir.metaBehaviors[0]!;
    expect(rule.trigger.match).toEqual(surprise);
    expect(rule.checks.map(({ quote: _q, ...c }) => c)).toEqual([
      { type: "pairing", each: surprise, followedBy: [{ action: "file_claim" }], on: "metadata.parcel_id", within: 3 },
    ]);
  });
});

describe("a customer's own words before each act", () => {
  // A go-ahead, then two parcels; an address confirmation, a look-up and one parcel.
  const saying = (content: string, t: Trajectory): Trajectory => ({ ...t, events: [{ ...t.events[0]!, content }, ...t.events.slice(1)] });
  const chats = [
    saying(
      "hello, send it please",
      session(
        ["user", "message"],
        ["agent", "ship_parcel", { parcel_id: "P1", customer_id: "C1" }],
        ["agent", "ship_parcel", { parcel_id: "P2", customer_id: "C1" }],
      ),
    ),
    saying(
      "address confirmed, send it",
      session(
        ["user", "message"],
        ["agent", "get_customer", { customer_id: "C2" }],
        ["agent", "ship_parcel", { parcel_id: "P3", customer_id: "C2" }],
      ),
    ),
  ];
  const said = (words: string) => [{ actor: "user", content: { matches: words, flags: "i" } }];
  const ship = [{ action: "ship_parcel" }];

  it.each([
    // The act in the sentence's "before" frame, the words in its main clause.
    [
      'Before each `ship_parcel`, the customer says "send it" in the chat, and every parcel needs a go-ahead of its own.',
      "\\bsend\\s+it\\b",
    ],
    [
      'Before each parcel is shipped, the customer tells Crate in the chat that it may go ("send it"), and every parcel needs a go-ahead of its own; one go-ahead does not carry over to the next parcel.',
      "\\bsend\\s+it\\b",
    ],
    // The act in another clause ("for each parcel shipped"), and "a separate … for each", "not relied on for another" ask a fresh one.
    [
      'The customer must confirm in the chat that the address is right ("address confirmed"), and a separate confirmation is required for each parcel shipped: a confirmation given for one parcel must not be relied on for another.',
      "\\baddress\\s+confirmed\\b",
    ],
  ])("%s", (body, words) => {
    expect(checksOf(body, chats)).toEqual([{ type: "ordering", first: said(words), before: ship, fresh: true }]);
  });

  it("'before each ship_parcel they say …': 'they' is the customer the sentence opened with, not the agent", () => {
    expect(
      checksOf('The customer confirms every shipment themselves: before each ship_parcel they say "send it" to the address.', chats),
    ).toEqual([{ type: "ordering", first: said("\\bsend\\s+it\\b"), before: ship, fresh: true }]);
  });
});

describe("a condition on the act's own amount narrows the words asked before it", () => {
  it("'When the breakage on a parcel is more than 5 per cent, … (they answer \"accept\") before that parcel is shipped': only those parcels", () => {
    const risky = session(
      ["user", "message"],
      ["agent", "ship_parcel", { parcel_id: "P1", customer_id: "C1", breakage_pct: "7.5" }],
      ["agent", "ship_parcel", { parcel_id: "P2", customer_id: "C1", breakage_pct: "1.0" }],
    );
    const samples = [
      { ...risky, events: [{ ...risky.events[0]!, content: "ok I accept" }, ...risky.events.slice(1)] },
      session(["agent", "ship_parcel", { parcel_id: "P3", customer_id: "C2", breakage_pct: "2" }]),
    ];
    const preamble = PREAMBLE.replace("the `customer_id`,", "the `customer_id`, the `breakage_pct` expected on the route,");
    const draft = draftSpec(
      preamble,
      'When the breakage on a parcel is more than 5 per cent, the customer has to accept the risk in the chat (they answer "accept") before that parcel is shipped, and an accept is good for one such parcel only.',
      samples,
      "dispatch-bench",
    );
    expect(draft.ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c)).toEqual([
      {
        type: "ordering",
        first: [{ actor: "user", content: { matches: "\\baccept\\b", flags: "i" } }],
        before: [{ action: "ship_parcel", metadata: { breakage_pct: { gt: 5 } } }],
        fresh: true,
      },
    ]);
  });
});
