/**
 * Where half the labels leave several readings of a rule tied, the search keeps the one that
 * changes the phrase reading's verdicts on the unlabeled samples least (issue 25). Measured on
 * an in-sample spec (test/fixtures/blind3, a development set since it was measured blind).
 */
import { describe, expect, it } from "vitest";
import { heldOutAgreement } from "./drafting-fixtures.js";

describe("ties the labels leave, broken toward the phrase reading", () => {
  it("aircraft-release 'Deferrals stay inside the MEL', labels of the even cases: at least the draft's 5 of 6 held out (4 when the tie went to the words alone; 6 since a draft that fits every label is tied on the MEL item its words name, synthesize-tied.ts)", () => {
    expect(heldOutAgreement("blind3/aircraft-release", "Deferrals stay inside the MEL", 0)).toEqual({ agree: 6, total: 6 });
  });

  it("access-requests 'Approval for every grant', labels of the odd cases: 4 of 6 held-out verdicts right (2 of 6 when the tie went to the words alone)", () => {
    expect(heldOutAgreement("blind3/access-requests", "Approval for every grant", 1).agree).toBeGreaterThanOrEqual(4);
  });
});
