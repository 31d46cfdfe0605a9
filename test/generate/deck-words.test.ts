/**
 * Issue 25, no labels: sentence forms the offline drafter misread on held-out specs, each written
 * here for a world of its own (a ferry terminal's vehicle deck, worked by an agent called Ramp):
 * values written with their key in a list, values listed in backticks, "by a <role> other than
 * …", a fresh go-ahead said with "one … does not cover …", a pairing "as the very next step", and
 * an opening sentence about every act that the rule's condition spells out.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "Ramp loads vehicles onto a ferry's deck. It can inspect a vehicle (`inspect_vehicle`, whose result gives " +
  "the `inspection` and the `inspector_id`), load it (`load_vehicle`, with the `vehicle_id`, the `hazard` it " +
  "carries and the `marshal_id` of the deck marshal loading it), waive a deck fee (`waive_fee`, with a " +
  "`reason`), and chock a vehicle (`chock_vehicle`).";

const draftOf = (body: string, samples: Trajectory[]) => draftSpec(PREAMBLE, body, samples, "vehicle-deck");

/** A vehicle inspected (by `inspector`, with `outcome`) and loaded by marshal M1 with `hazard`. */
const loads = (hazard: string, outcome = "passed", inspector = "I1"): Trajectory =>
  session(
    ["agent", "inspect_vehicle", { vehicle_id: "V1" }],
    ["tool", "inspect_vehicle_result", { vehicle_id: "V1", inspection: outcome, inspector_id: inspector }],
    ["agent", "load_vehicle", { vehicle_id: "V1", hazard, marshal_id: "M1" }],
    ["agent", "waive_fee", { vehicle_id: "V1", reason: "crew" }],
  );

describe("values written with their key, in a list", () => {
  it("'`hazard: flammable` or `hazard: corrosive`' is the two values of the key, not the key as a third", () => {
    const samples = [loads("flammable"), loads("none"), loads("flammable", "failed")];
    const rule = draftOf(
      "For each load_vehicle with `hazard: flammable` or `hazard: corrosive`, the latest inspect_vehicle result for " +
        "that same vehicle must show `inspection: passed`.",
      samples,
    ).ir.metaBehaviors[0]!;
    expect(rule.trigger.match).toEqual([{ action: "load_vehicle", metadata: { hazard: { in: ["flammable", "corrosive"] } } }]);
  });
});

describe("values listed in backticks", () => {
  it("a snake_case item of a list of plain words is a value, not an action no sample shows", () => {
    const samples = [loads("none"), loads("flammable")];
    const draft = draftOf("A deck fee is waived only for one of three reasons, `crew`, `medical` or `disabled_access`.", samples);
    const json = JSON.stringify(draft.ir.metaBehaviors[0]!.checks);
    expect(json).not.toContain('"action":"disabled_access"');
    expect(draft.notes.filter((n) => n.kind === "not-in-samples")).toEqual([]);
  });
});

describe("by a <role> other than the person who acts", () => {
  // Inspected by I1 and loaded by marshal M1; inspected by the loading marshal; failed.
  const samples = [loads("flammable"), loads("flammable", "passed", "M1"), loads("flammable", "failed")];
  const CONDITION = "A vehicle is loaded only when the latest inspect_vehicle result for that vehicle came back `inspection: passed`";

  it.each([
    `${CONDITION} and was given by someone other than the marshal loading it.`,
    `${CONDITION}, from an inspector who is not the marshal loading it.`,
    `${CONDITION}, given by a deck officer other than the marshal loading it (\`marshal_id\`).`,
    `${CONDITION}. The inspection must have been made by a deck officer other than the marshal who loads the vehicle.`,
  ])("reads %j as the inspector differing from the loading marshal", (body) => {
    const draft = draftOf(body, samples);
    const rule = draft.ir.metaBehaviors[0]!;
    const differ = rule.checks.filter((c) => c.type === "condition" && c.when.includes("r.inspector_id != event.marshal_id"));
    expect(differ).toHaveLength(1);
    expect(rule.semanticChecks).toEqual([]);
    expect(previewJudge(draft.ir, samples).rules[0]!.rule.fail).toEqual([samples[1]!.id, samples[2]!.id]);
  });
});

describe("a go-ahead of its own for each act", () => {
  /** The user says "ramp clear" (or not) before each of the loads. */
  let n = 0;
  const said = (...clear: boolean[]): Trajectory => ({
    id: `clear-${++n}`,
    description: "",
    complete: true,
    events: clear.flatMap((ok, i) => [
      { id: `u${i}`, actor: "user" as const, action: "message", content: ok ? "Ramp clear." : "Next one." },
      { id: `a${i}`, actor: "agent" as const, action: "load_vehicle", metadata: { vehicle_id: `V${i}`, hazard: "none", marshal_id: "M1" } },
    ]),
  });
  const samples = [said(true, true), said(true, false)];

  it.each([
    'The marshal says "ramp clear" before every load_vehicle, and one "ramp clear" does not cover the next vehicle.',
    'The marshal says "ramp clear" before every load_vehicle, and a new "ramp clear" is needed for each vehicle.',
    'The marshal says "ramp clear" before every load_vehicle; one "ramp clear" for a convoy is not enough.',
  ])("reads %j as a fresh ordering", (body) => {
    const draft = draftOf(body, samples);
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({ type: "ordering", before: [{ action: "load_vehicle" }], fresh: true }),
    ]);
    expect(previewJudge(draft.ir, samples).rules[0]!.rule.fail).toEqual([samples[1]!.id]);
  });
});

describe("what follows each act, for the same vehicle", () => {
  type Step = [Trajectory["events"][number]["actor"], string, Record<string, string>?];
  const inspected = (outcome: string, vehicle = "V1"): Step[] => [
    ["agent", "inspect_vehicle", { vehicle_id: vehicle }],
    ["tool", "inspect_vehicle_result", { vehicle_id: vehicle, inspection: outcome, inspector_id: "I1" }],
  ];
  const loaded = (vehicle: string): Step => ["agent", "load_vehicle", { vehicle_id: vehicle, hazard: "none", marshal_id: "M1" }];
  const chocked = (vehicle: string): Step => ["agent", "chock_vehicle", { vehicle_id: vehicle }];
  const held = (vehicle: string): Step => ["agent", "hold_vehicle", { vehicle_id: vehicle }];

  it("'as the very next step' is a pairing within one event, tied by 'for that vehicle'", () => {
    const samples = [
      session(...inspected("failed"), held("V1")),
      session(...inspected("failed"), ["agent", "waive_fee", { vehicle_id: "V1", reason: "crew" }], held("V1")),
      session(...inspected("passed"), loaded("V1"), chocked("V1")),
    ];
    const draft = draftOf(
      "When an inspect_vehicle result comes back `inspection: failed`, the vehicle is held with `hold_vehicle` for that vehicle as the very next step.",
      samples,
    );
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({
        type: "pairing",
        each: [{ action: "inspect_vehicle_result", metadata: { inspection: "failed" } }],
        followedBy: [{ action: "hold_vehicle" }],
        on: "metadata.vehicle_id",
        within: 1,
      }),
    ]);
    expect(previewJudge(draft.ir, samples).rules[0]!.rule.fail).toEqual([samples[1]!.id]);
  });

  it.each([
    "Every vehicle loaded is to be chocked with `chock_vehicle` for that same vehicle.",
    "Every vehicle that is loaded has to be chocked with `chock_vehicle` for that same vehicle.",
  ])("reads %j as each load followed by a chock of the same vehicle, not one chock somewhere", (body) => {
    const samples = [
      session(...inspected("passed"), loaded("V1"), chocked("V1")),
      session(...inspected("passed"), loaded("V1"), loaded("V2"), chocked("V2")),
      session(...inspected("passed"), loaded("V1"), chocked("V1"), loaded("V2"), chocked("V2")),
    ];
    const draft = draftOf(body, samples);
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({
        type: "pairing",
        each: [{ action: "load_vehicle" }],
        followedBy: [{ action: "chock_vehicle" }],
        on: "metadata.vehicle_id",
      }),
    ]);
    expect(previewJudge(draft.ir, samples).rules[0]!.rule.fail).toEqual([samples[1]!.id]);
  });
});

describe("an opening sentence about every act that the condition spells out", () => {
  it("'Every load needs a second pair of eyes' is no requirement that a load occurs: the rule applies to the loads", () => {
    const samples = [loads("none"), loads("none", "failed"), session(["agent", "inspect_vehicle", { vehicle_id: "V9" }])];
    const draft = draftOf(
      "Every vehicle loaded needs a second pair of eyes. A load_vehicle is only done when the latest inspect_vehicle " +
        "result for that vehicle came back `inspection: passed`.",
      samples,
    );
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.checks.map((c) => c.type)).toEqual(["condition"]);
    expect(rule.trigger.match).toEqual([{ action: "load_vehicle" }]);
    expect(rule.semanticChecks.map((s) => s.quote)).toEqual(["Every vehicle loaded needs a second pair of eyes"]);
    const verdicts = previewJudge(draft.ir, samples).rules[0]!.rule;
    expect([verdicts.pass, verdicts.fail]).toEqual([[samples[0]!.id], [samples[1]!.id]]);
  });
});

describe("a look-up and an act that name the same thing by keys of different names", () => {
  type Step = [Trajectory["events"][number]["actor"], string, Record<string, string>?];
  const licence = (person: string, status: string): Step[] => [
    ["agent", "check_licence", { person_id: person }],
    ["tool", "check_licence_result", { person_id: person, licence: status }],
  ];
  const drives = (driver: string, deck = "D1"): Step[] => [
    ["agent", "load_vehicle", { vehicle_id: "V1", driver_id: driver, parked_deck: deck, hazard: "none", marshal_id: "M1" }],
    ["agent", "log_vehicle", { vehicle_id: "V1" }],
  ];

  it("'for the driver named as `driver_id`' ties the look-up's `person_id` to the act's `driver_id`, on the act that carries it", () => {
    // P1 valid and drives; P2 checked valid but P3 drives; P1 expired and drives.
    const samples = [
      session(...licence("P1", "valid"), ...drives("P1")),
      session(...licence("P2", "valid"), ...licence("P3", "expired"), ...licence("P2", "valid"), ...drives("P3")),
      session(...licence("P1", "expired"), ...drives("P1")),
    ];
    const draft = draftOf(
      "For every vehicle, the latest check_licence result for the driver named as `driver_id` has to show `licence: valid`.",
      samples,
    );
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({
        type: "condition",
        each: [{ action: "load_vehicle" }],
        with: { r: { latest: [{ action: "check_licence_result" }], on: { each: "metadata.driver_id", latest: "metadata.person_id" } } },
        when: 'r.licence == "valid"',
      }),
    ]);
    expect(previewJudge(draft.ir, samples).rules[0]!.rule.fail).toEqual([samples[1]!.id, samples[2]!.id]);
  });

  it("'the latest survey of the deck it is parked on' ties the survey's `deck_id` to the act's `parked_deck` by the words", () => {
    const survey = (deck: string, status: string): Step[] => [
      ["agent", "survey_deck", { deck_id: deck }],
      ["tool", "survey_deck_result", { deck_id: deck, deck_status: status }],
    ];
    const samples = [
      session(...survey("D1", "clear"), ...drives("P1", "D1")),
      session(...survey("D2", "blocked"), ...survey("D1", "clear"), ...drives("P1", "D2")),
    ];
    const draft = draftOf(
      "A vehicle is loaded only when the latest survey of the deck it is parked on shows `deck_status: clear`.",
      samples,
    );
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({
        type: "condition",
        with: { r: { latest: [{ action: "survey_deck_result" }], on: { each: "metadata.parked_deck", latest: "metadata.deck_id" } } },
      }),
    ]);
    expect(previewJudge(draft.ir, samples).rules[0]!.rule.fail).toEqual([samples[1]!.id]);
  });
});

describe("a later sentence about 'that X', in the window of the condition before it", () => {
  it("'That vehicle is not loaded again' after 'When … comes back `inspection: failed`, …' forbids loading it from the failure on", () => {
    type Step = [Trajectory["events"][number]["actor"], string, Record<string, string>?];
    const failed = (vehicle: string): Step[] => [
      ["agent", "inspect_vehicle", { vehicle_id: vehicle }],
      ["tool", "inspect_vehicle_result", { vehicle_id: vehicle, inspection: "failed", inspector_id: "I1" }],
      ["agent", "hold_vehicle", { vehicle_id: vehicle }],
    ];
    const load = (vehicle: string): Step => ["agent", "load_vehicle", { vehicle_id: vehicle, hazard: "none", marshal_id: "M1" }];
    const samples = [session(...failed("V1"), load("V2")), session(...failed("V1"), load("V1")), session(load("V1"), ...failed("V1"))];
    const draft = draftOf(
      "When an inspect_vehicle result comes back `inspection: failed`, the vehicle is held with `hold_vehicle` for that vehicle. " +
        "That vehicle is not loaded again for the rest of the sailing, whatever a later inspection shows.",
      samples,
    );
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.checks).toContainEqual(
      expect.objectContaining({
        type: "forbidden",
        match: [{ action: "load_vehicle" }],
        after: [{ action: "inspect_vehicle_result", metadata: { inspection: "failed" } }],
        on: "metadata.vehicle_id",
      }),
    );
    expect(rule.semanticChecks).toEqual([]);
    expect(previewJudge(draft.ir, samples).rules[0]!.rule.fail).toEqual([samples[1]!.id]);
  });
});
