/**
 * Bounds and totals worded with the noun or the verb before the number (issue 25): "each load may
 * be 40 tonnes at most", "capped at 40 tonnes", "no supplier's loads may add up to more than 90
 * tonnes", "between 4 and 40 tonnes", "not above", "a maximum of". Every reader takes its words from
 * the one table (compiler/generate/offline/comparisons.ts); each sentence is judged here on samples
 * just below, at and just above its number. The sentences are about a timber yard's haulage desk,
 * a domain none of the fixtures uses.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { countWordsBefore, wordsAt } from "../../compiler/generate/offline/comparisons.js";
import { countBoundIn } from "../../compiler/generate/offline/shape.js";
import { draftOf } from "../support/offline-drafts.js";

const PREAMBLE =
  "The agent runs a timber yard's haulage desk. It can weigh a truck (`weigh_truck`), load a truck for a supplier " +
  "(`load_truck`) and book a crane (`book_crane`).";

type Load = [supplier: string, tonnes: number];
/** A session of loads, named by what it shows. */
function loads(id: string, ...items: Load[]): Trajectory {
  return {
    id,
    description: "",
    complete: true,
    events: [
      { id: "e0", actor: "user", action: "message", content: "load please" },
      ...items.map(([supplier, tonnes], i) => ({
        id: `e${i + 1}`,
        actor: "agent" as const,
        action: "load_truck",
        metadata: { truck_id: `T${i + 1}`, supplier_id: supplier, tonnes: String(tonnes) },
      })),
    ],
  };
}
function cranes(id: string, n: number): Trajectory {
  return {
    id,
    description: "",
    complete: true,
    events: [
      { id: "e0", actor: "user", action: "message", content: "cranes please" },
      ...Array.from({ length: n }, (_, i) => ({
        id: `e${i + 1}`,
        actor: "agent" as const,
        action: "book_crane",
        metadata: { crane_id: `C${i + 1}` },
      })),
    ],
  };
}

/** The rule's verdict on each sample, by id: "pass", "fail" or "n/a". */
function verdicts(sentence: string, samples: Trajectory[]): Record<string, string> {
  const draft = draftOf(PREAMBLE, sentence, samples, "timber");
  const rule = previewJudge(draft.ir, samples).rules[0]!.rule;
  return Object.fromEntries(samples.map((s) => [s.id, rule.pass.includes(s.id) ? "pass" : rule.fail.includes(s.id) ? "fail" : "n/a"]));
}

describe("a bound on each load, the words after the number or before it", () => {
  const each = [loads("below", ["P1", 39], ["P2", 12]), loads("at", ["P1", 40], ["P2", 12]), loads("above", ["P1", 41], ["P2", 12])];
  const atMost = { below: "pass", at: "pass", above: "fail" };
  it.each([
    "Each load may be 40 tonnes at most.",
    "Each load must be 40 tonnes or less.",
    "Each load must be 40 tonnes max.",
    "A load must not be above 40 tonnes.",
    "Loads are a maximum of 40 tonnes.",
    "A load is capped at 40 tonnes.",
    "A load must be no greater than 40 tonnes.",
    "Each load must be 40 tonnes and under.",
  ])("%s", (sentence) => {
    expect(verdicts(sentence, each)).toEqual(atMost);
  });

  // The other load is heavy here: a bound every sample breaks would be dropped as implausible (draft.ts).
  const heavy = [loads("below", ["P1", 39], ["P2", 52]), loads("at", ["P1", 40], ["P2", 52]), loads("above", ["P1", 41], ["P2", 52])];
  it.each([
    "Each load must be 40 tonnes or more.",
    "Each load must be 40 tonnes minimum.",
    "A load must be at least 40 tonnes.",
    "A load must be not under 40 tonnes.",
  ])("%s", (sentence) => {
    expect(verdicts(sentence, heavy)).toEqual({ below: "fail", at: "pass", above: "pass" });
  });

  it("'between 4 and 40 tonnes' includes both numbers (the table's RANGE_WORDS), and forbids either side", () => {
    const samples = [loads("under", ["P1", 3]), loads("low", ["P1", 4]), loads("high", ["P1", 40]), loads("over", ["P1", 41])];
    expect(verdicts("Loads must be between 4 and 40 tonnes.", samples)).toEqual({ under: "fail", low: "pass", high: "pass", over: "fail" });
    const draft = draftOf(PREAMBLE, "Loads must be between 4 and 40 tonnes.", samples, "timber");
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({
        type: "forbidden",
        match: [
          { action: "load_truck", metadata: { tonnes: { lt: 4 } } },
          { action: "load_truck", metadata: { tonnes: { gt: 40 } } },
        ],
      }),
    ]);
    // Said as a ban, the range itself is forbidden.
    expect(verdicts("No load is between 4 and 40 tonnes.", samples)).toEqual({ under: "pass", low: "fail", high: "fail", over: "pass" });
  });
});

describe("a total, the number before its bound or with no noun", () => {
  const total = [loads("below", ["P1", 44], ["P2", 45]), loads("at", ["P1", 45], ["P2", 45]), loads("above", ["P1", 45], ["P2", 46])];
  it.each([
    "The loads of a session may total 90 tonnes at most.",
    "Loads in a session must total 90 at most.",
    "Loads must add up to no more than 90 tonnes in a session.",
    "Loads must total 90 tonnes or less in a session.",
  ])("%s sums the `tonnes` of the loads", (sentence) => {
    expect(verdicts(sentence, total)).toEqual({ below: "pass", at: "pass", above: "fail" });
    const check = draftOf(PREAMBLE, sentence, total, "timber").ir.metaBehaviors[0]!.checks[0]!;
    expect(check).toEqual(expect.objectContaining({ type: "count", sum: "metadata.tonnes", max: 90 }));
  });

  // Per supplier: P1 is the supplier over, at or under; P2's loads alone stay small.
  const bySupplier = [
    loads("below", ["P1", 40], ["P2", 30], ["P1", 49]),
    loads("at", ["P1", 40], ["P2", 30], ["P1", 50]),
    loads("above", ["P1", 40], ["P2", 30], ["P1", 51]),
  ];
  it.each([
    "No supplier's loads may add up to more than 90 tonnes.",
    "A supplier's loads must add up to no more than 90 tonnes.",
    "The loads for one supplier must not add up to more than 90 tonnes.",
    "The `tonnes` loaded for a single supplier may add up to at most 90 tonnes.",
  ])("%s sums per supplier", (sentence) => {
    expect(verdicts(sentence, bySupplier)).toEqual({ below: "pass", at: "pass", above: "fail" });
    const check = draftOf(PREAMBLE, sentence, bySupplier, "timber").ir.metaBehaviors[0]!.checks[0]!;
    expect(check).toEqual(expect.objectContaining({ type: "count", sum: "metadata.tonnes", max: 90, per: "metadata.supplier_id" }));
  });
});

describe("a count of events takes the table's words", () => {
  const samples = [cranes("one", 1), cranes("two", 2), cranes("three", 3)];
  it.each([
    "The agent books at most two cranes in a session.",
    "The agent books a maximum of two cranes in a session.",
    "The agent books two cranes or fewer in a session.",
    "The agent books no more than 2 cranes in a session.",
    "The agent books 2 cranes at most in a session.",
  ])("%s", (sentence) => {
    expect(verdicts(sentence, samples)).toEqual({ one: "pass", two: "pass", three: "fail" });
  });

  it("a subject of 'no' names whose count it is: 'No supplier is sent more than two loads in a day' is per supplier", () => {
    // Four loads in each session; per supplier, two and two, or three and one.
    const split = [
      loads("two-each", ["P1", 5], ["P2", 5], ["P1", 5], ["P2", 5]),
      loads("three-for-one", ["P1", 5], ["P1", 5], ["P2", 5], ["P1", 5]),
    ];
    const sentence = "No supplier is sent more than two loads in a day.";
    expect(verdicts(sentence, split)).toEqual({ "two-each": "pass", "three-for-one": "fail" });
    const check = draftOf(PREAMBLE, sentence, split, "timber").ir.metaBehaviors[0]!.checks[0]!;
    expect(check).toEqual(expect.objectContaining({ type: "count", max: 2, per: "metadata.supplier_id" }));
  });

  it("reads its words from the table, and a bound's own 'no' is no number", () => {
    // Every inclusive word before a number bounds a count; of the exclusive ones, only comparatives of quantity.
    expect(countWordsBefore()).toEqual(expect.arrayContaining(["more than", "fewer than", "at most", "a maximum of", "not above"]));
    expect(countWordsBefore()).not.toContain("over");
    expect(wordsAt("after")).toEqual(expect.arrayContaining(["at most", "or fewer", "max"]));
    expect(countBoundIn("they add up to no more than 40 in a day")).toEqual(
      expect.objectContaining({ words: "no more than", n: 40, max: 40 }),
    );
    expect(countBoundIn("90 tonnes at most")).toEqual(expect.objectContaining({ words: "at most", n: 90, max: 90, noun: " tonnes" }));
    expect(countBoundIn("at most one more canary deploy")).toEqual(expect.objectContaining({ n: 1, max: 1 }));
    expect(countBoundIn("refunds of $500 or more")).toBeUndefined();
  });
});
