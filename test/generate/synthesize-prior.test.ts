/**
 * Where half the labels leave several readings of a rule tied, the search keeps the one that
 * changes the phrase reading's verdicts on the unlabeled samples least (issue 25). Measured on
 * an in-sample spec (test/fixtures/blind3, a development set since it was measured blind).
 */
import { describe, expect, it } from "vitest";
import { heldOutAgreement } from "./drafting-fixtures.js";

describe("ties the labels leave, broken toward the phrase reading", () => {
  it("aircraft-release 'Deferrals stay inside the MEL', labels of the even cases: one label missed, the draft kept (5 of 6 held out; 6 when the pick was kept, 4 when the tie went to the words alone)", () => {
    expect(heldOutAgreement("blind3/aircraft-release", "Deferrals stay inside the MEL", 0)).toEqual({ agree: 5, total: 6 });
  });

  it("access-requests 'Approval for every grant', labels of the odd cases: 4 of 6 held-out verdicts right (2 of 6 when the tie went to the words alone)", () => {
    expect(heldOutAgreement("blind3/access-requests", "Approval for every grant", 1).agree).toBeGreaterThanOrEqual(4);
  });
});
