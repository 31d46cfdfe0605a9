/**
 * Issue 25: a rule written as a release note ("New in 3.1: the assistant now refuses to start a hire for a
 * rider unless …", "Fixed: …") reads as the ban with its exception it states, so a draft checks it
 * rather than asking a model the whole rule. A world of its own: a bike-hire kiosk whose assistant
 * checks a rider (`check_rider`, whose result gives `waiver_valid` and `age`) and starts hires (`start_hire`).
 */
import { describe, expect, it } from "vitest";
import { voiced } from "../../compiler/generate/offline/voice.js";
import type { Trajectory } from "../../runtime/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "The kiosk assistant hires out bikes. It can check a rider (`check_rider`, by `rider_id`; the result gives " +
  "`waiver_valid`, yes or no, and the rider's `age`) and start a hire (`start_hire`, with the `rider_id` and the `bike_id`).";

const checkedThenRented = (latest: string, rentedTo = "R1"): Trajectory =>
  session(
    ["agent", "check_rider", { rider_id: "R1" }],
    ["tool", "check_rider_result", { rider_id: "R1", waiver_valid: "yes", age: "30" }],
    ["agent", "check_rider", { rider_id: "R1" }],
    ["tool", "check_rider_result", { rider_id: "R1", waiver_valid: latest, age: "20" }],
    ["agent", "start_hire", { rider_id: rentedTo, bike_id: "B9" }],
  );

const samples = [checkedThenRented("yes"), checkedThenRented("no"), checkedThenRented("yes", "R2")];
const draftOf = (body: string) => draftSpec(PREAMBLE, body, samples, "bike-hire");

describe("a release note's ban with its exception", () => {
  const canonical =
    "The assistant never starts a hire for a rider unless the latest check of that same rider shows a valid waiver and an age of 16 or over.";
  const note =
    "New in 3.1: the assistant now refuses to start a hire for a rider unless the latest check of that same rider shows a valid waiver and an age of 16 or over.";

  it("drafts the note as it drafts the plain ban: checks, no model question, the same verdicts", () => {
    const plain = draftOf(canonical);
    const noted = draftOf(note);
    const rule = (d: typeof plain) => d.ir.metaBehaviors[0]!;
    expect(rule(plain).checks.length).toBeGreaterThan(0);
    expect(rule(noted).semanticChecks).toEqual([]);
    expect(rule(noted).checks.map(({ quote: _, ...c }) => c)).toEqual(rule(plain).checks.map(({ quote: _, ...c }) => c));
    const verdicts = (d: typeof plain) => previewJudge(d.ir, samples).rules[0]!.rule;
    expect(verdicts(noted)).toEqual(verdicts(plain));
    // The quotes are the note's own words.
    for (const check of rule(noted).checks) expect(note).toContain(check.quote);
  });

  it.each([
    [
      "New in 3.1: the assistant now refuses to rent a bike unless the rider has signed",
      "the assistant rents a bike only if the rider has signed",
    ],
    [
      "Also new in 3.1: the assistant declines to rent a bike unless the rider has signed",
      "the assistant rents a bike only if the rider has signed",
    ],
    ["Fixed: the assistant could rent a bike twice", "the assistant could rent a bike twice"],
    ["Changed: the assistant rents one bike at a time", "the assistant rents one bike at a time"],
    // No exception: a refusal may be what the assistant says to the rider, left as written.
    ["The assistant refuses to rent a bike to a rider under 16", "The assistant refuses to rent a bike to a rider under 16"],
  ])("%j reads as %j", (sentence, expected) => {
    expect(voiced(sentence, "the assistant").text).toBe(expected);
  });
});

describe("an order binding a party's agents", () => {
  const after = "Once a recall of a rider has been recorded, the Operator's staff shall not start a hire for that rider.";

  it("reads the party's agents as the agent, wherever they stand in the sentence", () => {
    expect(voiced("The Operator's staff shall not start a hire for a rider under 16.", "the agent").text).toBe(
      "The agent must not start a hire for a rider under 16.",
    );
    expect(voiced(after, "the agent").text).toBe(
      "Once a recall of a rider has been recorded, the agent must not start a hire for that rider.",
    );
    // Only as the subject of a modal: "the Operator's staff handbook says …" names no duty.
    expect(voiced("The Operator's staff handbook says more.", "the agent").text).toBe("The Operator's staff handbook says more.");
  });
});
