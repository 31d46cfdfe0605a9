/**
 * Issue 25, no labels, round 10: a latest look-up whose values the sentence says in plain words,
 * with no backticked `key: value` (blind13's three specs, fuel-dock and key-control of blind12),
 * written here for a world of its own: a bike-share depot whose assistant, Spoke, inspects bikes,
 * checks docks and pumps tyres before it releases a bike to a rider (compiler/generate/offline/worded.ts).
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { draftOf, session } from "../support/offline-drafts.js";

const DESCRIPTION = "Depot rules for Spoke, the assistant that releases shared bikes to riders.";
const PREAMBLE =
  "Spoke can inspect a bike (`inspect_bike`, by `bike`), check a dock (`check_dock`, by `dock`), read a tyre gauge " +
  "(`read_gauge`, by `bike`) and release a bike (`release_bike`, with `bike`, `dock`, `zone`, `rider` and `staff`).";

const draft = (body: string, samples: Trajectory[]) => draftOf(PREAMBLE, body, samples, "bike-depot", DESCRIPTION);
const checksOf = (body: string, samples: Trajectory[]) => draft(body, samples).ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c);
const quotesOf = (body: string, samples: Trajectory[]) => draft(body, samples).ir.metaBehaviors[0]!.checks.map((c) => c.quote);

/** Three releases: one after a pass, one after a fail, one after a pass inspected by its own staff member. */
const samples = [
  session(
    ["agent", "inspect_bike", { bike: "B-11" }],
    ["tool", "inspect_bike_result", { bike: "B-11", result: "pass", inspector: "Kim" }],
    ["agent", "read_gauge", { bike: "B-11" }],
    ["tool", "read_gauge_result", { bike: "B-11", psi: "45" }],
    ["agent", "check_dock", { dock: "D-1" }],
    ["tool", "check_dock_result", { dock: "D-1", zone: "north", fault: "none" }],
    ["agent", "release_bike", { bike: "B-11", dock: "D-1", zone: "north", rider: "R-7", staff: "Lee" }],
  ),
  session(
    ["agent", "inspect_bike", { bike: "B-12" }],
    ["tool", "inspect_bike_result", { bike: "B-12", result: "fail", inspector: "Lee" }],
    ["agent", "read_gauge", { bike: "B-12" }],
    ["tool", "read_gauge_result", { bike: "B-12", psi: "31" }],
    ["agent", "check_dock", { dock: "D-2" }],
    ["tool", "check_dock_result", { dock: "D-2", zone: "south", fault: "open" }],
    ["agent", "release_bike", { bike: "B-12", dock: "D-2", zone: "north", rider: "R-8", staff: "Kim" }],
  ),
  session(
    ["agent", "inspect_bike", { bike: "B-13" }],
    ["tool", "inspect_bike_result", { bike: "B-13", result: "pass", inspector: "Kim" }],
    ["agent", "check_dock", { dock: "D-3" }],
    ["tool", "check_dock_result", { dock: "D-3", zone: "east", fault: "cleared" }],
    ["agent", "release_bike", { bike: "B-13", dock: "D-3", zone: "east", rider: "R-9", staff: "Kim" }],
  ),
];

describe("a latest look-up's values said in words", () => {
  it("'only releases a bike if the most recent inspection of that bike came back as a pass': a state value the samples show", () => {
    const body = "Spoke only releases a bike if the most recent inspection of that bike came back as a pass.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: [{ action: "release_bike" }],
        with: { r: { latest: [{ action: "inspect_bike_result" }], on: "metadata.bike" } },
        when: 'r.result == "pass"',
      },
    ]);
  });

  it("'… came back as a pass and was done by somebody other than the staff member releasing it': the people compared after the value", () => {
    const body =
      "Spoke only releases a bike if the most recent inspection of that bike came back as a pass and was done by somebody other than the staff member releasing it.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: [{ action: "release_bike" }],
        with: { r: { latest: [{ action: "inspect_bike_result" }], on: "metadata.bike" } },
        when: 'r.result == "pass" && r.inspector != event.staff',
      },
    ]);
  });

  it("'has the pressure at 40 psi or more': a number in a unit no table knows, on the look-up's one numeric key", () => {
    const body = "Spoke never releases a bike unless the latest gauge reading for that same bike has the pressure at 40 psi or more.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: [{ action: "release_bike" }],
        with: { r: { latest: [{ action: "read_gauge_result" }], on: "metadata.bike" } },
        when: "r.psi >= 40",
      },
    ]);
  });

  it("'places it in the zone named on the release and shows no fault open': a key of the act, and a value said not to be there", () => {
    const body =
      "No bike is released unless the most recent dock check on that bike's dock places it in the zone named on the release and shows no fault open on that dock.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: [{ action: "release_bike" }],
        with: { r: { latest: [{ action: "check_dock_result" }], on: "metadata.dock" } },
        when: 'r.zone == event.zone && r.fault != "open"',
      },
    ]);
    expect(quotesOf(body, samples)).toEqual([
      "No bike is released unless the most recent dock check on that bike's dock places it in the zone named on the release and shows no fault open on that dock",
    ]);
  });

  it("two values said apart ('as none or cleared') are no single value: the reading leaves them to another reader", () => {
    const body = "No bike is released unless the most recent dock check on that bike's dock shows the fault as none or cleared.";
    const checks = checksOf(body, samples);
    expect(checks.some((c) => c.type === "condition" && /r\.fault (?:==|!=)/.test(c.when))).toBe(false);
  });
});

describe("a pairing whose follower is named beside the thing that ties it", () => {
  /** A release reported for its bike, and one reported for another bike after a second inspection. */
  const reported = [
    session(
      ["agent", "inspect_bike", { bike: "B-1" }],
      ["tool", "inspect_bike_result", { bike: "B-1", fault: "none" }],
      ["agent", "release_bike", { bike: "B-1" }],
      ["agent", "file_report", { bike: "B-1" }],
    ),
    session(
      ["agent", "inspect_bike", { bike: "B-2" }],
      ["tool", "inspect_bike_result", { bike: "B-2", fault: "open" }],
      ["agent", "release_bike", { bike: "B-2" }],
      ["agent", "inspect_bike", { bike: "B-2" }],
      ["agent", "file_report", { bike: "B-3" }],
    ),
  ];
  const preamble =
    "Spoke can inspect a bike (`inspect_bike`, by `bike`), release a bike (`release_bike`) and file the city usage report (`file_report`, by `bike`).";

  it("', for the same bike,' ties the two and names no act: the follower is the report the words name", () => {
    const body =
      "Each release shall be reported to the city non-emergency line through the usage report, for the same bike, within 2 events of the release.";
    const drafted = draftOf(preamble, body, reported, "bike-depot", DESCRIPTION);
    expect(drafted.ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c)).toEqual([
      { type: "pairing", each: [{ action: "release_bike" }], followedBy: [{ action: "file_report" }], on: "metadata.bike", within: 2 },
    ]);
  });
});

describe("a person's words good for one act only", () => {
  /** The events of a session, with the words of its user turns, in order. */
  const saying = (t: Trajectory, ...words: string[]): Trajectory => {
    let k = 0;
    return { ...t, events: t.events.map((e) => (e.actor === "user" ? { ...e, content: words[k++]! } : e)) };
  };
  /** One rider's words before each release, and one set of words for two releases. */
  const typed = [
    saying(
      session(
        ["user", "message"],
        ["agent", "release_bike", { bike: "B-1", dock: "D-1", zone: "north", rider: "R-1", staff: "Kim" }],
        ["user", "message"],
        ["agent", "release_bike", { bike: "B-2", dock: "D-1", zone: "north", rider: "R-2", staff: "Kim" }],
      ),
      "I accept the deposit, bike B-1 please",
      "I accept the deposit for B-2 as well",
    ),
    saying(
      session(
        ["user", "message"],
        ["agent", "release_bike", { bike: "B-3", dock: "D-2", zone: "south", rider: "R-3", staff: "Lee" }],
        ["agent", "release_bike", { bike: "B-4", dock: "D-2", zone: "south", rider: "R-4", staff: "Lee" }],
      ),
      "I accept the deposit, both of us",
    ),
  ];
  const user = { actor: "user", content: { matches: "\\bI\\s+accept\\s+the\\s+deposit\\b", flags: "i" } };

  it("'…, one per bike': the words before each act are its own (`fresh`)", () => {
    const body = 'Before each bike is released, "I accept the deposit" has to come in on the chat, one per bike.';
    expect(checksOf(body, typed)).toEqual([{ type: "ordering", first: [user], before: [{ action: "release_bike" }], fresh: true }]);
  });

  it("'is good for one release only and may not be carried over to a second bike': freshness, not a ban of what 'carried over' sounds like", () => {
    const body =
      'Prior to each release, the rider must have typed the words "I accept the deposit". A confirmation is good for one release only and may not be carried over to a second bike.';
    expect(checksOf(body, typed)).toEqual([{ type: "ordering", first: [user], before: [{ action: "release_bike" }], fresh: true }]);
  });

  it("'at most one per rider' is a count, not a fresh confirmation", () => {
    // Without "before each", which asks the words again for each act (round 11).
    const body = 'A bike is released only after "I accept the deposit" has come in on the chat; at most one bike per rider.';
    expect(checksOf(body, typed).some((c) => c.type === "ordering" && c.fresh === true)).toBe(false);
  });
});

describe("an earlier event of the person the act names by a key of another name", () => {
  /** A rider briefed before her bike, and a friend briefed before another rider's bike. */
  const briefed = [
    session(
      ["agent", "brief_rider", { trainee: "Noor" }],
      ["tool", "brief_rider_result", { trainee: "Noor", outcome: "passed" }],
      ["agent", "release_bike", { bike: "B-1", rider: "Noor" }],
      ["agent", "release_bike", { bike: "B-2", rider: "Noor" }],
    ),
    session(
      ["agent", "brief_rider", { trainee: "Sam" }],
      ["tool", "brief_rider_result", { trainee: "Sam", outcome: "passed" }],
      ["agent", "release_bike", { bike: "B-3", rider: "Ola" }],
    ),
    session(["agent", "brief_rider", { trainee: "Ola" }], ["tool", "brief_rider_result", { trainee: "Ola", outcome: "failed" }]),
  ];
  const body =
    "Before a bike is released, there must be a passed briefing for the rider named on it, earlier in the same conversation. A friend's briefing doesn't carry over: the trainee who was briefed has to be the rider.";

  it("'for the rider named on it' ties the briefing's `trainee` to the release's `rider`; 'doesn't carry over: … has to be the rider' asks no fresh one", () => {
    expect(checksOf(body, briefed)).toEqual([
      {
        type: "ordering",
        first: [{ action: "brief_rider_result", metadata: { outcome: "passed" } }],
        before: [{ action: "release_bike" }],
        on: { first: "metadata.trainee", before: "metadata.rider" },
      },
    ]);
  });
});

describe("a bare look-up, and a value of the act the look-up names as its own", () => {
  /** A member paying for her own bike, and a lapsed member whose bike a friend pays for. */
  const members = [
    session(
      ["agent", "find_rider", { rider: "R-1" }],
      ["tool", "find_rider_result", { rider: "R-1", membership: "active", card_holder: "Noor" }],
      ["agent", "release_bike", { bike: "B-1", rider: "R-1", paid_by: "Noor" }],
    ),
    session(
      ["agent", "find_rider", { rider: "R-2" }],
      ["tool", "find_rider_result", { rider: "R-2", membership: "lapsed", card_holder: "Sam" }],
      ["agent", "release_bike", { bike: "B-2", rider: "R-2", paid_by: "Ola" }],
    ),
  ];

  it("'the most recent lookup of that same rider shows … and names the person paying as its card holder'", () => {
    const body =
      "Spoke never releases a bike unless the most recent lookup of that same rider shows the membership active and names the person paying as its card holder.";
    expect(checksOf(body, members)).toEqual([
      {
        type: "condition",
        each: [{ action: "release_bike" }],
        with: { r: { latest: [{ action: "find_rider_result" }], on: "metadata.rider" } },
        when: 'r.membership == "active" && r.card_holder == event.paid_by',
      },
    ]);
  });
});
