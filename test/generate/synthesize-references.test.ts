/**
 * Numbers that name, not count (issue 25, synthesize-references.ts): a beekeeping co-operative's
 * by-laws number their clauses, cite each other and are dated; the label path reads the numbers a
 * rule writes as its thresholds and bounds, and a clause's, a version's or a date's number is none.
 */
import { describe, expect, it } from "vitest";
import { numbersIn } from "../../compiler/generate/offline/synthesize-keys.js";
import { withoutReferences } from "../../compiler/generate/offline/synthesize-references.js";
import { boundsIn } from "../../compiler/generate/offline/synthesize-vocab.js";

describe("the numbers a rule writes", () => {
  it("leave out a clause's, a paragraph's, a section's and a version's number", () => {
    expect(numbersIn("Notwithstanding Clause 7.3, no hive is moved more than 12 km in a day.")).toEqual([12]);
    expect(numbersIn("A swarm call does not satisfy paragraph 2.1 unless 3 members attend.")).toEqual([3]);
    expect(numbersIn("As sections 4 and 5 say, at most 40 frames per extractor run; see § 9.")).toEqual([40]);
    expect(numbersIn("From version 2.4 to 2.6 of the app, a jar holds 454 grams.")).toEqual([454]);
    // A grant's conditions, a master's orders and a flowchart's steps are numbered too: "Condition 4"
    // gave `amount > 4` and "Order 2" `wire_m > 2`.
    expect(numbersIn("Condition 4: Suppliers. No single payment exceeds 500 pounds.")).toEqual([500]);
    expect(numbersIn("Order 2: the wire on one winch is at most 6000 m, as Note 3 and Table 1 say.")).toEqual([6000]);
    expect(numbersIn("Is the jar over 454 g? If yes, go to step 5; if no, see Part 2, Stage 3.")).toEqual([454]);
  });

  it("leave out the number a heading or a paragraph opens with", () => {
    expect(numbersIn("3.2: smoker safety. A smoker is lit at most 2 times per inspection.")).toEqual([2]);
    expect(numbersIn("Queens. 4.1 The Co-operative shall not sell more than 6 queens to one member.")).toEqual([6]);
  });

  it("leave out dates", () => {
    expect(numbersIn("Dated 19 November 2026. Hives over 30 kg are lifted by two members.")).toEqual([30]);
    expect(numbersIn("Since March 3, 2027 and until 2027-09-30, at most 8 supers a hive.")).toEqual([8]);
    expect(numbersIn("Adopted in December 2026.")).toEqual([]);
  });

  it("leave out the time of day a message's header writes after its date", () => {
    // A thread of e-mails: "12:48" read as numbers gave thresholds of 12 and 48.
    expect(numbersIn("**Ann Price · Tue 9 Mar, 12:48**\nAt most 6 supers a hive.")).toEqual([6]);
    expect(numbersIn("Sent March 9 at 1:02 pm: no more than 40 frames a run.")).toEqual([40]);
    // A time with no date before it is left as written.
    expect(numbersIn("No smoker is lit after 18:30.")).toEqual([18, 30]);
  });

  it("keep quantities written next to words that only look like references", () => {
    // "3 May be" is no date; "4 items" counts items.
    expect(numbersIn("Up to 3 may be moved at once, and no member takes more than 4 items.")).toEqual([3, 4]);
    expect(numbersIn("A hive over 25.5 kg needs two lifters.")).toEqual([25.5]);
  });

  it("are the count bounds without them", () => {
    expect(boundsIn("Notwithstanding Clause 14.4, no member inspects more than ten hives.")).toEqual([0, 10]);
    expect(withoutReferences("Clause 14.4 applies")).toBe("Clause   .  applies");
  });
});
