/**
 * A condition on the latest look-up, however the sentence words it (issue 25): "X only …: the
 * latest check of that Y must show `key: value`", the same in a sentence of its own after the one
 * that makes X conditional, and "the approver is not the clerk who …" read into the same condition
 * from the keys the samples show holding the same people. The sentences are written for these
 * tests (a hotel front desk), not taken from a fixture.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "Desk answers the hotel's front-desk chat. It can check a guest's account (`check_guest`, whose result gives the " +
  "`standing` and the `unpaid_charges` in dollars), extend a stay (`extend_stay`, with the `guest_id`, the " +
  "`booking_id` and the `clerk_id` of the clerk who asked), ask the duty manager to approve an upgrade " +
  "(`request_upgrade`, whose result gives the `decision` and the `approver_id`), upgrade a room (`upgrade_room`, " +
  "with the `booking_id` and the `clerk_id`) and send the guest a note (`send_note`).";

const draftOf = (body: string, samples: Trajectory[]): Draft => draftSpec(PREAMBLE, body, samples, "front-desk");

const checkedThenExtended = (standing: string, charges: string, extendedFor = "G1"): Trajectory =>
  session(
    ["agent", "check_guest", { guest_id: "G1" }],
    ["tool", "check_guest_result", { guest_id: "G1", standing: "good", unpaid_charges: "0" }],
    ["agent", "check_guest", { guest_id: "G1" }],
    ["tool", "check_guest_result", { guest_id: "G1", standing, unpaid_charges: charges }],
    ["agent", "extend_stay", { guest_id: extendedFor, booking_id: "B1", clerk_id: "C1" }],
    ["agent", "send_note", { guest_id: extendedFor }],
  );

const upgrades = (approver: string, decision = "approved"): Trajectory =>
  session(
    ["agent", "request_upgrade", { booking_id: "B7" }],
    ["tool", "request_upgrade_result", { booking_id: "B7", decision, approver_id: approver }],
    ["agent", "upgrade_room", { booking_id: "B7", clerk_id: "C4" }],
  );

describe("a condition on the latest look-up", () => {
  const samples = [
    checkedThenExtended("good", "10"),
    checkedThenExtended("suspended", "0"),
    checkedThenExtended("good", "80"),
    upgrades("M2"),
    upgrades("C4"),
    upgrades("M2", "rejected"),
  ];

  it("reads 'X only …: the latest check of that Y must show `key: value`' as a condition on the latest result, tied by Y's id", () => {
    const draft = draftOf(
      "Desk extends a stay only for a guest it has checked: the latest check of that guest must show `standing: good`.",
      samples,
    );
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.checks).toEqual([
      expect.objectContaining({
        type: "condition",
        each: [{ action: "extend_stay" }],
        with: { r: { latest: [{ action: "check_guest_result" }], on: "metadata.guest_id" } },
        when: 'r.standing == "good"',
      }),
    ]);
    expect(rule.trigger.match).toEqual([{ action: "extend_stay" }]);
    // The earlier check showed `good`; only the latest counts.
    const preview = previewJudge(draft.ir, samples);
    expect(preview.rules[0]!.rule.fail).toEqual([samples[1]!.id]);
  });

  it("reads the latest check in a sentence of its own as a condition on the act the sentence before made conditional", () => {
    const draft = draftOf(
      "A stay is extended only for a guest whose account was checked in this session. The latest check of that " +
        "guest must have come back `standing: good` and less than $50 in unpaid charges.",
      samples,
    );
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.checks).toEqual([
      expect.objectContaining({
        type: "condition",
        each: [{ action: "extend_stay" }],
        with: { r: { latest: [{ action: "check_guest_result" }], on: "metadata.guest_id" } },
        when: 'r.standing == "good" && r.unpaid_charges < 50',
      }),
    ]);
    const preview = previewJudge(draft.ir, samples);
    expect(preview.rules[0]!.rule.fail).toEqual([samples[1]!.id, samples[2]!.id]);
  });

  it("quotes only what it read, so that a comparison it does not read is reported, not silently covered", () => {
    const draft = draftOf(
      "Desk extends a stay only for a guest it has checked: the latest check of that guest must show `standing: good` " +
        "and a balance no larger than the deposit.",
      samples,
    );
    const check = draft.ir.metaBehaviors[0]!.checks[0]!;
    expect(check.quote).toBe(
      "Desk extends a stay only for a guest it has checked: the latest check of that guest must show `standing: good`",
    );
  });
});

describe("someone other than", () => {
  const samples = [upgrades("M2"), upgrades("C4"), upgrades("M2", "rejected"), checkedThenExtended("good", "0")];

  it("reads 'the approver is not the clerk who asked' into the latest approval's condition, by the keys that hold the same people", () => {
    const draft = draftOf(
      "A room is upgraded only with the duty manager's approval of that booking: the latest upgrade request for it " +
        "came back `decision: approved`, and the approver is not the clerk who asked for the upgrade.",
      samples,
    );
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.checks).toEqual([
      expect.objectContaining({
        type: "condition",
        each: [{ action: "upgrade_room" }],
        with: { r: { latest: [{ action: "request_upgrade_result" }], on: "metadata.booking_id" } },
        when: 'r.decision == "approved" && r.approver_id != event.clerk_id',
      }),
    ]);
    // The clause is read, not dropped: the check's quote reaches over it.
    expect(rule.checks[0]!.quote).toMatch(/the approver is not the clerk who asked for the upgrade$/);
    expect(rule.semanticChecks).toEqual([]);
    const preview = previewJudge(draft.ir, samples);
    expect(preview.rules[0]!.rule.fail).toEqual([samples[1]!.id, samples[2]!.id]);
  });

  it("reads 'from someone other than the clerk' the same way", () => {
    const draft = draftOf(
      "A room is upgraded only with the duty manager's approval of that booking: the latest upgrade request for it " +
        "came back `decision: approved`, from someone other than the clerk who asked for it.",
      samples,
    );
    expect(draft.ir.metaBehaviors[0]!.checks[0]).toEqual(
      expect.objectContaining({ when: 'r.decision == "approved" && r.approver_id != event.clerk_id' }),
    );
  });

  it("leaves the clause reported as not covered when no two keys hold the same people", () => {
    const strangers = [upgrades("M2"), upgrades("M3", "rejected")];
    const draft = draftOf(
      "A room is upgraded only with the duty manager's approval of that booking: the latest upgrade request for it " +
        "came back `decision: approved`, and the approver is not the clerk who asked for the upgrade.",
      strangers,
    );
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.checks[0]).toEqual(expect.objectContaining({ when: 'r.decision == "approved"' }));
    // Not read, and not dropped silently either: a notice names it.
    const notes = draft.notes.filter((n) => n.kind === "uncovered-sentence").map((n) => n.message);
    expect(notes.some((m) => m.includes("the approver is not the clerk who asked for the upgrade"))).toBe(true);
  });
});
