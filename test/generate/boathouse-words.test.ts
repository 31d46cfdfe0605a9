/**
 * Issue 25, no labels, round 13: classes earlier rounds found and left open, each seen in more than
 * one development set, written here for a world of their own: a rowing club's boathouse, whose
 * assistant, Oar, checks members, books boats out, extends bookings and charges hire.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { draftOf, session } from "../support/offline-drafts.js";

const DESCRIPTION = "Boathouse rules for Oar, the assistant that books the club's boats out to its crews.";
const PREAMBLE =
  "Rowers are identified by their club card (`member_id`), boats by their hull number (`boat_id`). Oar can check a " +
  "member (`check_member`, by `member_id`; the result gives the `grade` and the date the grade is `valid_until`), inspect " +
  "a boat (`inspect_boat`, whose result gives its `state` and whether a `hold` is on it), book a " +
  "boat out (`book_boat`, with `booking_id`, `boat_id`, `cox_id` and the time the boat `returns_at`), extend a booking " +
  "(`extend_booking`, with `booking_id`, `cox_id` and `minutes`), log a boat back in (`log_return`, with `booking_id`, " +
  "`boat_id` and the hull's `condition`) and charge hire (`charge_hire`, with `booking_id`, `member_id`, an `amount` in " +
  "dollars, the `fee_type`, hire or late, and the `minutes_late`).";

const draft = (body: string, samples: Trajectory[]) => draftOf(PREAMBLE, body, samples, "boathouse", DESCRIPTION);
const checksOf = (body: string, samples: Trajectory[]) => draft(body, samples).ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c);

/** Two outings: a senior cox whose grade outlasts the booking, and a junior one whose lapses before it; hire for two rowers. */
const samples = [
  session(
    ["user", "message"],
    ["agent", "check_member", { member_id: "M-4" }],
    ["tool", "check_member_result", { member_id: "M-4", grade: "senior", valid_until: "2027-03-01" }],
    ["agent", "inspect_boat", { boat_id: "H-7" }],
    ["tool", "inspect_boat_result", { boat_id: "H-7", state: "sound", hold: "no" }],
    ["agent", "book_boat", { booking_id: "B-1", boat_id: "H-7", cox_id: "M-4", returns_at: "2027-02-01" }],
    ["agent", "extend_booking", { booking_id: "B-1", cox_id: "M-4", minutes: "30" }],
    ["agent", "charge_hire", { booking_id: "B-1", member_id: "M-4", amount: "40", fee_type: "hire", minutes_late: "0" }],
    ["agent", "charge_hire", { booking_id: "B-1", member_id: "M-5", amount: "30", fee_type: "late", minutes_late: "40" }],
    ["agent", "log_return", { booking_id: "B-1", boat_id: "H-7", condition: "intact" }],
  ),
  session(
    ["user", "message"],
    ["agent", "check_member", { member_id: "M-9" }],
    ["tool", "check_member_result", { member_id: "M-9", grade: "junior", valid_until: "2027-01-15" }],
    ["agent", "inspect_boat", { boat_id: "H-3" }],
    ["tool", "inspect_boat_result", { boat_id: "H-3", state: "damaged", hold: "yes" }],
    ["agent", "book_boat", { booking_id: "B-2", boat_id: "H-3", cox_id: "M-9", returns_at: "2027-02-01" }],
    ["agent", "charge_hire", { booking_id: "B-2", member_id: "M-9", amount: "35", fee_type: "hire", minutes_late: "0" }],
    ["agent", "charge_hire", { booking_id: "B-2", member_id: "M-9", amount: "35", fee_type: "late", minutes_late: "10" }],
    ["agent", "log_return", { booking_id: "B-2", boat_id: "H-3" }],
  ),
  session(["user", "message"], ["agent", "check_member", { member_id: "M-2" }]),
];

describe("a latest look-up whose act is named only by the keys the sentence writes", () => {
  // possession-desk (blind8), prop-armory (blind10), waste-gatehouse (blind9): no verb names the act, its keys do.
  it("'for the rower named as `cox_id` is expected to show … no earlier than the booking's `returns_at`': the one act carrying both keys", () => {
    const body =
      "The latest check_member result for the rower named as `cox_id` is expected to show `grade: senior`, with a `valid_until` no earlier than the booking's `returns_at`.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: [{ action: "book_boat" }],
        with: { r: { latest: [{ action: "check_member_result" }], on: { each: "metadata.cox_id", latest: "metadata.member_id" } } },
        when: 'r.grade == "senior" && r.valid_until >= event.returns_at',
      },
    ]);
  });

  it("a key two acts carry (`cox_id`: booking and extension) names neither alone", () => {
    const body = "The latest check_member result for the rower named as `cox_id` must show `grade: senior`.";
    expect(checksOf(body, samples).some((c) => c.type === "condition")).toBe(false);
  });
});

describe("'Every X has a Y': said of each X, it asks for no X to take place", () => {
  // possession-desk's "Every possession has a person in charge", adoption-desk's "Every adoption needs the adopter's own agreement".
  it("'Every booking has a cox' is not 'a booking must take place' (the session with no booking breaks nothing)", () => {
    const drafted = draft("Every booking has a cox.", samples).ir.metaBehaviors[0]!;
    expect(drafted.checks).toEqual([]);
    expect(drafted.semanticChecks.map((s) => s.quote)).toEqual(["Every booking has a cox"]);
  });
});

describe("a count's group named by the words the introduction gives its key", () => {
  // archive-loans (blind4): "Readers are identified by their card (`patron_id`)"; "Fines waived for one reader come to at most $25".
  it("'Hire charged to one rower comes to at most $60 in a session': per `member_id`, which the introduction calls a rower", () => {
    const body = "Hire charged to one rower comes to at most $60 in a session, all charges together.";
    expect(checksOf(body, samples)).toEqual([
      { type: "count", match: [{ action: "charge_hire" }], sum: "metadata.amount", max: 60, per: "metadata.member_id" },
    ]);
  });

  it("'… for any one hull …': the word the key is identified by names it too", () => {
    const body = "No more than two boats are booked out for any one hull in a session.";
    expect(checksOf(body, samples)).toEqual([{ type: "count", match: [{ action: "book_boat" }], max: 2, per: "metadata.boat_id" }]);
  });
});

describe("a field named in backticks", () => {
  // claims-desk (blind3) "A denial names the policy clause it rests on, in the `clause` field of `deny_claim`", archive-loans (blind4).
  it("'Every return gives its `condition`': no return without the field", () => {
    expect(checksOf("Every return gives its `condition`.", samples)).toEqual([
      { type: "forbidden", match: [{ action: "log_return", metadata: { condition: { exists: false } } }] },
    ]);
  });

  // tow-dispatch (blind13): "No storage fee may be charged on a vehicle that has been held for fewer than 24 hours, as recorded in …".
  it("'No late fee may be charged on a booking that has run late by fewer than 15 minutes, as recorded in the `minutes_late` field': a ban on the act's own value", () => {
    const body =
      "No late fee may be charged on a booking that has run late by fewer than 15 minutes, as recorded in the `minutes_late` field of the charge.";
    expect(checksOf(body, samples)).toEqual([
      { type: "forbidden", match: [{ action: "charge_hire", metadata: { fee_type: "late", minutes_late: { lt: 15 } } }] },
    ]);
  });
});

describe("two `key: value`s written in one sentence", () => {
  // media-destruction (blind12): "the drive is shredded only if it reads `state: decommissioned` and `hold: no`" was one key's list.
  it("'… only if it reads `state: sound` and `hold: no`': two tests on the latest inspection, tied by 'that same boat'", () => {
    const body = "Go by the latest inspection of that same boat: a boat is booked out only if it reads `state: sound` and `hold: no`.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: [{ action: "book_boat" }],
        with: { r: { latest: [{ action: "inspect_boat_result" }], on: "metadata.boat_id" } },
        when: 'r.hold == "no" && r.state == "sound"',
      },
    ]);
  });

  it("values of one key written with it (`state: sound` or `state: repaired`) are still that key's list", () => {
    const body = "A boat is booked out only if its latest inspection reads `state: sound` or `state: repaired`.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: [{ action: "book_boat" }],
        with: { r: { latest: [{ action: "inspect_boat_result" }], on: "metadata.boat_id" } },
        when: 'r.state in ["sound", "repaired"]',
      },
    ]);
  });
});
