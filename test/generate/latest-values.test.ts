/**
 * What a latest look-up is said to show, and the act it is about (issue 25,
 * compiler/generate/offline/shown.ts and latest.ts): besides `key: value` pairs, a comparison of a
 * backticked key ("`wind_knots` under 15", "fewer than 3 `open_incidents`", "`wave_m` of 2 or
 * below", "an `age` from 16 to 70") is a test on the look-up's key, with the boundary as the words
 * say it; the act is the one a "For every `launch_boat`, …" or "At the moment of …" frame names,
 * or the one of a sentence opening with "Only … is …:". The sentences are about a kayak rental
 * desk, a domain none of the fixtures uses.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "The agent runs a kayak rental desk. It can read the weather at a launch site (`get_weather`), look up a renter " +
  "(`get_renter`), rent out a kayak (`rent_kayak`) and launch a guided boat (`launch_boat`).";
const draftOf = (body: string, samples: Trajectory[]): Draft => draftSpec(PREAMBLE, body, samples, "kayaks");

const samples = [
  // s1: calm water, an adult renter with a signed waiver and no incidents.
  session(
    ["agent", "get_weather", { site_id: "B1" }],
    ["tool", "get_weather_result", { site_id: "B1", wind_knots: "14", wave_m: "2" }],
    ["agent", "launch_boat", { site_id: "B1", boat_id: "K7" }],
    ["agent", "get_renter", { renter_id: "R1" }],
    ["tool", "get_renter_result", { renter_id: "R1", waiver: "signed", age: "70", open_incidents: "2" }],
    ["agent", "rent_kayak", { renter_id: "R1" }],
  ),
  // s2: wind at exactly 15 knots, waves of 2.5 m; a renter of 15 with 3 open incidents.
  session(
    ["agent", "get_weather", { site_id: "B2" }],
    ["tool", "get_weather_result", { site_id: "B2", wind_knots: "15", wave_m: "2.5" }],
    ["agent", "launch_boat", { site_id: "B2", boat_id: "K8" }],
    ["agent", "get_renter", { renter_id: "R2" }],
    ["tool", "get_renter_result", { renter_id: "R2", waiver: "signed", age: "15", open_incidents: "3" }],
    ["agent", "rent_kayak", { renter_id: "R2" }],
  ),
  // s3: a second site read calm, but the boat launched from the windy one; a renter of 16 without a waiver.
  session(
    ["agent", "get_weather", { site_id: "B3" }],
    ["tool", "get_weather_result", { site_id: "B3", wind_knots: "20", wave_m: "1" }],
    ["agent", "get_weather", { site_id: "B4" }],
    ["tool", "get_weather_result", { site_id: "B4", wind_knots: "5", wave_m: "1" }],
    ["agent", "launch_boat", { site_id: "B3", boat_id: "K9" }],
    ["agent", "get_renter", { renter_id: "R3" }],
    ["tool", "get_renter_result", { renter_id: "R3", waiver: "missing", age: "16", open_incidents: "0" }],
    ["agent", "rent_kayak", { renter_id: "R3" }],
  ),
];

const checksOf = (draft: Draft) => draft.ir.metaBehaviors[0]!.checks;
const verdicts = (draft: Draft) => {
  const rule = previewJudge(draft.ir, samples).rules[0]!.rule;
  return { pass: rule.pass, fail: rule.fail };
};

describe("a latest look-up's values and its act", () => {
  it("reads 'For every `launch_boat`, the latest … for that site has to show `wind_knots` under 15'", () => {
    const draft = draftOf("For every `launch_boat`, the latest weather reading for that site has to show `wind_knots` under 15.", samples);
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({
        type: "condition",
        each: [{ action: "launch_boat" }],
        with: { r: { latest: [{ action: "get_weather_result" }], on: "metadata.site_id" } },
        when: "r.wind_knots < 15",
      }),
    ]);
    // 14 knots is under 15; exactly 15 is not; s3 launched from the windy site, whatever the other read.
    expect(verdicts(draft)).toEqual({ pass: ["s1"], fail: ["s2", "s3"] });
  });

  it("reads 'At the moment of …, … must show `wave_m` of 2 or below' with 2 allowed", () => {
    const draft = draftOf(
      "At the moment of `launch_boat`, the latest weather reading of that site must show `wave_m` of 2 or below.",
      samples,
    );
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({ type: "condition", each: [{ action: "launch_boat" }], when: "r.wave_m <= 2" }),
    ]);
    expect(verdicts(draft)).toEqual({ pass: ["s1", "s3"], fail: ["s2"] });
  });

  it("reads pairs and a range 'from 16 to 70' together, both ends included", () => {
    const draft = draftOf(
      "A kayak is rented only to a renter whose latest look-up shows `waiver: signed` and an `age` from 16 to 70, both included.",
      samples,
    );
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({
        type: "condition",
        each: [{ action: "rent_kayak" }],
        when: 'r.waiver == "signed" && r.age >= 16 && r.age <= 70',
      }),
    ]);
    expect(verdicts(draft)).toEqual({ pass: ["s1"], fail: ["s2", "s3"] });
  });

  it("takes the act of 'Only … is …:' and reads 'fewer than 3 `open_incidents`' with 3 excluded", () => {
    const draft = draftOf(
      "Only a renter in good standing is rented a kayak: the latest look-up of the renter must show fewer than 3 `open_incidents`.",
      samples,
    );
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({ type: "condition", each: [{ action: "rent_kayak" }], when: "r.open_incidents < 3" }),
    ]);
    expect(verdicts(draft)).toEqual({ pass: ["s1", "s3"], fail: ["s2"] });
  });

  it("stops where it can no longer read, so the rest of the clause is not silently taken as read", () => {
    const draft = draftOf(
      "A kayak is rented only to a renter whose latest look-up shows `waiver: signed` and a deposit the renter is happy with.",
      samples,
    );
    const condition = checksOf(draft).find((c) => c.type === "condition");
    expect(condition).toMatchObject({ when: 'r.waiver == "signed"' });
    expect(condition!.quote).not.toContain("deposit");
  });
});
