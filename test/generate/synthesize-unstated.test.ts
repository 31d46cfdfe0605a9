/**
 * What the search from labels reads from the words and nothing else (issue 25):
 *
 * - a count the words ask at least of ("checked at least twice", "two or more", "no fewer than two
 *   times") is a count with a `min`, per window of the thing an earlier act opens ("once a tank has
 *   been filled, its level is checked at least twice": per `tank`, after its filling;
 *   synthesize-least.ts), not a pairing of other acts that happens to fit the labels.
 *
 * Worlds of our own: a brewery's tanks; plain prose,
 * capitals, minutes, "shall" conditions, a flowchart's questions.
 */
import { describe, expect, it } from "vitest";
import { leastCounts } from "../../compiler/generate/offline/synthesize-least.js";
import type { Trajectory } from "../../runtime/types.js";
import { deskSpec, draftWithLabels, trajectoriesOpening, type Event, type Verdict } from "../support/labeled-drafts.js";

const trajectory = trajectoriesOpening("Morning, here is today's list.");

describe("counts the words ask at least of", () => {
  it("reads 'at least twice', 'two or more', 'no fewer than 3', a bare 'twice'", () => {
    expect(leastCounts("its level is checked at least twice")).toEqual([2]);
    expect(leastCounts("two or more signatures per claim")).toEqual([2]);
    expect(leastCounts("no fewer than 3 readings per tank")).toEqual([3]);
    expect(leastCounts("Weigh it twice.")).toEqual([2]);
  });
  it("not a ceiling ('at most twice', 'never twice', 'more than three times') nor 'at least once'", () => {
    expect(leastCounts("a guest is admitted at most twice")).toEqual([]);
    expect(leastCounts("never refund twice; no more than three times a day")).toEqual([]);
    expect(leastCounts("checked at least once")).toEqual([]);
  });
});

/**
 * A brewery fills tanks (`fill_tank`: `tank`) and checks their gravity (`check_gravity`: `tank`,
 * `sg`). Once a tank is filled, its gravity is checked at least twice, on that tank. Another
 * tank's checks do not count, nor do checks of a tank never filled.
 */
function brewery(): [Trajectory, Verdict][] {
  const fill = (tank: string): Event => ({ actor: "agent", action: "fill_tank", metadata: { tank } });
  const check = (tank: string, sg = "1.050"): Event => ({ actor: "agent", action: "check_gravity", metadata: { tank, sg } });
  return [
    [trajectory("filled-checked-twice", [fill("T-1"), check("T-1"), check("T-1", "1.040")]), "true"],
    [trajectory("filled-checked-once", [fill("T-2"), check("T-2")]), "false"],
    [trajectory("other-tank-checked-twice", [fill("T-3"), check("T-4"), check("T-4")]), "false"],
    [trajectory("checks-only", [check("T-5"), check("T-5")]), "na"],
    [trajectory("two-tanks-twice-each", [fill("T-6"), fill("T-7"), check("T-6"), check("T-7"), check("T-6"), check("T-7")]), "true"],
    [trajectory("once-and-another-tank-once", [fill("T-8"), check("T-8"), check("T-9")]), "false"],
    // Held out: three checks, one tank short, a check of the wrong tank, an unfilled tank's check beside.
    [trajectory("three-checks", [fill("T-10"), check("T-10"), check("T-10"), check("T-10")]), "true"],
    [trajectory("second-tank-short", [fill("T-11"), check("T-11"), fill("T-12"), check("T-12"), check("T-12")]), "false"],
    [trajectory("wrong-tank-once", [fill("T-13"), check("T-14"), check("T-13")]), "false"],
    [trajectory("unfilled-tank-beside", [fill("T-15"), check("T-15"), check("T-15"), check("T-16")]), "true"],
  ];
}

const breweryIntro = "Tanks are filled with `fill_tank` (`tank`). Gravity is checked with `check_gravity` (`tank`, `sg`).";

describe("a count the words ask at least of, per thing", () => {
  const voices: [string, string, string][] = [
    [
      "plain prose",
      "Gravity checks",
      "Once a tank has been filled, its gravity is checked at least twice before the end of the brew day. Checking another tank doesn't count.",
    ],
    [
      "capitals",
      "CHECK IT TWICE",
      "Once a tank is filled, ITS gravity MUST be checked TWICE before the day ends. Another tank's checks do NOT count.",
    ],
    ["minutes", "Gravity", "Agreed: each filled tank gets two or more gravity checks of that tank before close."],
    ["shall conditions", "Gravity readings", "Where a tank has been filled, its gravity shall be checked no fewer than two times."],
  ];
  for (const [voice, heading, sentence] of voices)
    it(`is a count of at least two per tank, after its filling (${voice})`, () => {
      const { found, run, held, got } = draftWithLabels(deskSpec("brewery", breweryIntro, heading, sentence), heading, brewery());
      const rule = found.ir.metaBehaviors.find((r) => r.name === heading)!;
      expect(rule.checks).toContainEqual(
        expect.objectContaining({ type: "count", match: [{ action: "check_gravity" }], after: [{ action: "fill_tank" }], min: 2 }),
      );
      expect(got).toEqual(held);
      expect(JSON.stringify(run())).toBe(JSON.stringify(found));
    });
});
