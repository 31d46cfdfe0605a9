/**
 * A bound on a total said as a number of things (issue 25, compiler/generate/offline/summed.ts):
 * "at most 10 loaves in one session" sums the `loaves` of the sales, not the number of sales; "at
 * most 30 crates in one session, however many shipments that takes" sums the one amount of the act
 * that ships crates; "at most two crates are packed" counts the packing events, whose name is the
 * noun. The sentences are about a bakery's wholesale desk, a domain none of the fixtures uses.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "The agent runs a bakery's wholesale desk. It can look up a store (`get_store`), sell loaves over the counter " +
  "(`sell_loaves`), pack a crate for a store (`pack_crate`) and ship crates to a store (`ship_crates`).";
const draftOf = (body: string, samples: Trajectory[]): Draft => draftSpec(PREAMBLE, body, samples, "bakery");

const samples = [
  // s1: 4 + 6 loaves, one shipment of 30 crates, one crate packed.
  session(
    ["agent", "sell_loaves", { customer_id: "C1", loaves: "4" }],
    ["agent", "sell_loaves", { customer_id: "C1", loaves: "6" }],
    ["agent", "get_store", { store_id: "S1" }],
    ["agent", "pack_crate", { store_id: "S1", crate_id: "K1" }],
    ["agent", "ship_crates", { store_id: "S1", quantity: "30" }],
  ),
  // s2: a single sale of 12 loaves; two shipments of 20 crates; three crates packed.
  session(
    ["agent", "sell_loaves", { customer_id: "C2", loaves: "12" }],
    ["agent", "pack_crate", { store_id: "S2", crate_id: "K2" }],
    ["agent", "pack_crate", { store_id: "S2", crate_id: "K3" }],
    ["agent", "pack_crate", { store_id: "S2", crate_id: "K4" }],
    ["agent", "ship_crates", { store_id: "S2", quantity: "20" }],
    ["agent", "ship_crates", { store_id: "S2", quantity: "20" }],
  ),
  // s3: three small sales, 9 loaves in all.
  session(
    ["agent", "sell_loaves", { customer_id: "C3", loaves: "3" }],
    ["agent", "sell_loaves", { customer_id: "C3", loaves: "3" }],
    ["agent", "sell_loaves", { customer_id: "C3", loaves: "3" }],
  ),
];

const checksOf = (draft: Draft) => draft.ir.metaBehaviors[0]!.checks;
const verdicts = (draft: Draft) => {
  const rule = previewJudge(draft.ir, samples).rules[0]!.rule;
  return { pass: rule.pass, fail: rule.fail };
};

describe("a bound on a total said as a number of things", () => {
  it("sums the key the noun names: 'at most 10 loaves in one session'", () => {
    const draft = draftOf("A customer is sold at most 10 loaves in one session.", samples);
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({ type: "count", match: [{ action: "sell_loaves" }], sum: "metadata.loaves", max: 10 }),
    ]);
    // Three sales of 3 are 9 loaves: kept, though a count of sales would say nothing against it either.
    expect(verdicts(draft)).toEqual({ pass: ["s1", "s3"], fail: ["s2"] });
  });

  it("sums the one amount of the act the noun names when the words say the number of events does not matter", () => {
    const draft = draftOf("A store receives at most 30 crates in one session, however many shipments that takes.", samples);
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({ type: "count", match: [{ action: "ship_crates" }], sum: "metadata.quantity", max: 30 }),
    ]);
    expect(verdicts(draft)).toEqual({ pass: ["s1"], fail: ["s2"] });
  });

  it("counts events when the noun names them: 'at most two crates are packed'", () => {
    const draft = draftOf("At most two crates are packed in one session.", samples);
    const [check] = checksOf(draft);
    expect(check).toMatchObject({ type: "count", match: [{ action: "pack_crate" }], max: 2 });
    expect(check).not.toHaveProperty("sum");
  });
});
