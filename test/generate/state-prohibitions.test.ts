/**
 * Prohibitions that hold from some event on, and the exceptions they make (issue 25): "once X,
 * Y is never done", "a Y that has been X-ed is never Z-ed", "no Y is done twice", "… except a
 * `z`". Each is read as a prohibition (never a requirement), the exception left out of what is
 * forbidden (never put in its place), and what the drafter cannot read stays reported. The
 * sentences are about a bike-share desk, a domain none of the fixtures uses.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { statesObligation } from "../../compiler/generate/coverage.js";
import { DEFAULT_GRAMMAR, forbids } from "../../compiler/generate/offline/shape.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "The agent can look up a member (`lookup_member`), suspend a member (`suspend_member`), unlock a bike " +
  "(`unlock_bike`, with a `purpose`), extend a ride (`extend_ride`), charge a ride (`charge_ride`), refund a " +
  "ride (`refund_ride`) and close a dock (`close_dock`).";
const draftOf = (body: string, samples: Trajectory[]): Draft => draftSpec(PREAMBLE, body, samples, "bikes");

const samples = [
  session(
    ["agent", "lookup_member", { member_id: "M1" }],
    ["agent", "unlock_bike", { member_id: "M1", dock_id: "D1", ride_id: "R1", purpose: "rental" }],
    ["agent", "extend_ride", { member_id: "M1", ride_id: "R1" }],
    ["agent", "charge_ride", { member_id: "M1", ride_id: "R1" }],
  ),
  session(
    ["agent", "suspend_member", { member_id: "M2" }],
    ["agent", "extend_ride", { member_id: "M2", ride_id: "R2" }],
    ["agent", "unlock_bike", { member_id: "M2", dock_id: "D2", ride_id: "R3", purpose: "rental" }],
  ),
  session(
    ["agent", "refund_ride", { member_id: "M3", ride_id: "R4" }],
    ["agent", "charge_ride", { member_id: "M3", ride_id: "R4" }],
    ["agent", "refund_ride", { member_id: "M3", ride_id: "R4" }],
  ),
  session(
    ["agent", "close_dock", { dock_id: "D3" }],
    ["agent", "unlock_bike", { member_id: "M4", dock_id: "D3", ride_id: "R5", purpose: "service" }],
    ["agent", "unlock_bike", { member_id: "M5", dock_id: "D3", ride_id: "R6", purpose: "rental" }],
  ),
  session(
    ["agent", "suspend_member", { member_id: "M6" }],
    ["agent", "charge_ride", { member_id: "M7", ride_id: "R7" }],
    ["agent", "refund_ride", { member_id: "M7", ride_id: "R7" }],
  ),
];

const checksOf = (draft: Draft) => draft.ir.metaBehaviors[0]!.checks;

describe("once something has happened, an act is not done", () => {
  it("reads each of two negated passives joined by 'and' as its own prohibition after the event", () => {
    const draft = draftOf("Once a member is suspended, a ride is never extended and no bike is unlocked for them.", samples);
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({ type: "forbidden", match: [{ action: "extend_ride" }], after: [{ action: "suspend_member" }] }),
      expect.objectContaining({
        type: "forbidden",
        quote: "no bike is unlocked for them",
        match: [{ action: "unlock_bike" }],
        after: [{ action: "suspend_member" }],
      }),
    ]);
    expect(draft.ir.metaBehaviors[0]!.semanticChecks).toEqual([]);
  });

  it("reads 'is not … again' as a prohibition, tied by 'that member' past 'the same session'", () => {
    const draft = draftOf("Once a member has been suspended, that member is not charged for a ride again in the same session.", samples);
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({
        type: "forbidden",
        match: [{ action: "charge_ride" }],
        after: [{ action: "suspend_member" }],
        on: "metadata.member_id",
      }),
    ]);
    // Session 5 charges another member after a suspension: tied by the member, it keeps the rule.
    const preview = previewJudge(draft.ir, samples).rules[0]!;
    expect(preview.rule.pass).toContain("s5");
  });

  it("reads a subject whose relative clause names the event as the window: 'a ride that has been refunded'", () => {
    const draft = draftOf("A ride that has been refunded is never charged afterwards.", samples);
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({ type: "forbidden", match: [{ action: "charge_ride" }], after: [{ action: "refund_ride" }] }),
    ]);
    expect(draft.ir.metaBehaviors[0]!.trigger.match).toEqual([{ action: "refund_ride" }]);
  });

  it("counts 'no ride is refunded twice' as at most one per ride, not as no refund at all", () => {
    const draft = draftOf("No ride is refunded twice.", samples);
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({ type: "count", match: [{ action: "refund_ride" }], max: 1, per: "metadata.ride_id" }),
    ]);
    const preview = previewJudge(draft.ir, samples).rules[0]!;
    expect(preview.rule.fail).toEqual(["s3"]);
    expect(preview.rule.pass).toContain("s5");
  });

  it("keeps the rule's trigger on an opening count when a later sentence is windowed", () => {
    const draft = draftOf(
      "A ride can be extended at most twice. Once a member is suspended, the agent never extends a ride for them.",
      samples,
    );
    expect(draft.ir.metaBehaviors[0]!.trigger.match).toEqual([{ action: "extend_ride" }]);
    // Session 1 extends a ride with no suspension in sight: the count applies and holds.
    expect(previewJudge(draft.ir, samples).rules[0]!.rule.pass).toContain("s1");
  });
  it("keeps an opening prohibition of the whole session in force outside a later sentence's window", () => {
    const draft = draftOf(
      "The agent never charges a ride twice. Once a member is suspended, the agent never extends a ride for them.",
      samples,
    );
    expect(checksOf(draft).map((c) => c.type)).toEqual(["count", "forbidden"]);
    const withValue = draftOf(
      "The agent never unlocks a bike with `purpose: service`. Once a member is suspended, the agent never extends a ride for them.",
      samples,
    );
    expect(checksOf(withValue)[0]).toMatchObject({
      type: "forbidden",
      match: [{ action: "unlock_bike", metadata: { purpose: "service" } }],
    });
    // Session 4 unlocks a bike for service with no suspension in sight: the opening prohibition still judges it.
    expect(previewJudge(withValue.ir, samples).rules[0]!.rule.fail).toContain("s4");
  });
});

describe("exceptions", () => {
  it("leaves what 'except' names out of the prohibition, never matching it instead", () => {
    const draft = draftOf("Once a dock is closed, the agent never unlocks another bike at that dock except a `service` unlock.", samples);
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({
        type: "forbidden",
        match: [{ action: "unlock_bike", metadata: { purpose: { not: "service" } } }],
        after: [{ action: "close_dock" }],
        on: "metadata.dock_id",
      }),
    ]);
    expect(previewJudge(draft.ir, samples).rules[0]!.rule.fail).toEqual(["s4"]);
  });

  it("keeps a prohibition whose exception names nothing the events carry as a question", () => {
    const draft = draftOf("Once a dock is closed, the agent never unlocks a bike there except for the mayor.", samples);
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.checks).toEqual([]);
    expect(rule.semanticChecks[0]!.question).toContain("avoid what this forbids");
  });
});

describe("what a negated passive is", () => {
  it("forbids with the clause's own verb, not with a relative clause's or a need waived", () => {
    expect(forbids("the ride is not charged again", DEFAULT_GRAMMAR)).toBe(true);
    expect(forbids("no bike is unlocked for them", DEFAULT_GRAMMAR)).toBe(true);
    expect(forbids("a ride that is not finished stays open", DEFAULT_GRAMMAR)).toBe(false);
    expect(forbids("a second lookup is not required", DEFAULT_GRAMMAR)).toBe(false);
    expect(forbids("the dock is not open", DEFAULT_GRAMMAR)).toBe(false);
  });

  it("counts a sentence that forbids by a negated passive as an obligation, so it is never dropped silently", () => {
    expect(statesObligation("Once a dock is closed, the bike is not unlocked again")).toBe(true);
  });
});
