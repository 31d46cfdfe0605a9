/**
 * Issue 25: "by someone other than the one who did the earlier act on the same thing", and "an act
 * needs that earlier act at all", in any voice. The same rule written as plain prose, as a laminated
 * card in capitals with arrows and "≠", as minutes ("Agreed (proposed …, seconded …): … is to be …"),
 * as an e-mail with a header line and a correction, and as a passive duty, drafts the same checks: a
 * condition on the act with the latest earlier act on the thing's key, the two people differing, and
 * an ordering of the two acts on that key. The sentences and samples are written for these tests, in
 * worlds of their own: a brewery's cask cellar, a courier depot and a museum's loan crates.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { draftOf, session } from "../support/offline-drafts.js";

/** The checks of the one rule drafted from `body`, without their quotes. */
function checksOf(preamble: string, body: string, samples: Trajectory[], name: string) {
  return draftOf(preamble, body, samples, name).ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c);
}

describe("a brewery's cask cellar: the act's person in a `_by` key on both acts", () => {
  const PREAMBLE =
    "Cellarman keeps the cellar book. It can fill a cask (`fill_cask`, with `cask_id`, `beer` and `filled_by`), seal it " +
    "(`seal_cask`, with `cask_id` and `sealed_by`) and send it out (`ship_cask`, with `cask_id` and `pub`).";
  const samples = [
    session(
      ["agent", "fill_cask", { cask_id: "K1", beer: "bitter", filled_by: "ros" }],
      ["agent", "seal_cask", { cask_id: "K1", sealed_by: "dev" }],
      ["agent", "ship_cask", { cask_id: "K1", pub: "the-anchor" }],
    ),
    session(
      ["agent", "fill_cask", { cask_id: "K2", beer: "stout", filled_by: "dev" }],
      ["agent", "seal_cask", { cask_id: "K2", sealed_by: "dev" }],
    ),
    session(
      ["agent", "fill_cask", { cask_id: "K3", beer: "mild", filled_by: "ros" }],
      ["agent", "fill_cask", { cask_id: "K3", beer: "mild", filled_by: "dev" }],
      ["agent", "seal_cask", { cask_id: "K4", sealed_by: "ros" }],
      ["agent", "seal_cask", { cask_id: "K3", sealed_by: "ros" }],
    ),
  ];
  const expected = [
    {
      type: "condition",
      each: [{ action: "seal_cask" }],
      with: { r: { latest: [{ action: "fill_cask" }], on: "metadata.cask_id" } },
      when: "r.filled_by != event.sealed_by",
    },
    { type: "ordering", first: [{ action: "fill_cask" }], before: [{ action: "seal_cask" }], on: "metadata.cask_id" },
  ];

  it.each([
    [
      "plain prose",
      "Every cask must be sealed by a cellar hand other than the one who filled that cask. A cask that has not been filled cannot be sealed.",
    ],
    [
      "a card in capitals, with an arrow and ≠",
      "1. SEAL CASK → BY STAFF ≠ THE ONE WHO FILLED THAT SAME CASK (ITS LATEST FILL).\n2. NO SEAL ON A CASK NOT FILLED FIRST.",
    ],
    [
      "a card in capitals, with an arrow and OTHER THAN",
      "1. SEALING → BY CELLAR STAFF OTHER THAN THE ONE WHO FILLED THAT CASK.\n2. NO SEALING OF A CASK NOT FILLED FIRST.",
    ],
    [
      "minutes, with 'is to be' and a rider on which fill counts",
      "Agreed (proposed R.O., seconded J.K.): every cask is to be sealed by a member of the cellar team other than the person who filled it, the cask's most recent fill being the one that counts. A cask that nobody has filled is not to be sealed.",
    ],
    [
      "an e-mail with a header line and a correction",
      "**R. Okafor · Thu 4 Mar, 16:20**\nCorrection to my note of Monday: a cask is sealed by a cellar hand other than the one who filled that same cask, and a cask that nobody has filled is not sealed at all.",
    ],
    [
      "a passive duty, the earlier act 'last', the second sentence with 'no … may'",
      "Each cask shall be sealed by a different cellar hand from the one who last filled it. No cask that has not been filled may be sealed.",
    ],
  ])("%s", (_voice, body) => {
    expect(checksOf(PREAMBLE, body, samples, "cask-cellar")).toEqual(expected);
  });
});

describe("a sentence of that kind the drafter cannot map", () => {
  const PREAMBLE =
    "Cellarman keeps the cellar book. It can fill a cask (`fill_cask`, with `cask_id` and `filled_by`) and seal it " +
    "(`seal_cask`, with `cask_id` and `sealed_by`).";
  // No sample shows a fill before a seal, so no ordering of the two is read.
  const samples = [
    session(["agent", "seal_cask", { cask_id: "K1", sealed_by: "dev" }], ["agent", "fill_cask", { cask_id: "K1", filled_by: "ros" }]),
    session(["agent", "seal_cask", { cask_id: "K2", sealed_by: "ros" }]),
    session(["agent", "fill_cask", { cask_id: "K3", filled_by: "dev" }]),
  ];

  it("'A cask that has not been filled cannot be sealed': a question, never a ban on the act or on the earlier act", () => {
    const rule = draftOf(PREAMBLE, "A cask that has not been filled cannot be sealed.", samples, "cask-cellar").ir.metaBehaviors[0]!;
    expect(rule.checks.filter((c) => c.type === "forbidden")).toEqual([]);
    expect(rule.semanticChecks.map((q) => q.quote)).toContain("A cask that has not been filled cannot be sealed");
  });
});

describe("a courier depot: the people in keys of their own names (`loader`, `dispatcher`)", () => {
  const PREAMBLE =
    "Depot runs the loading bay. It can load a van (`load_van`, with `van_id`, `round` and `loader`), dispatch it " +
    "(`dispatch_van`, with `van_id` and `dispatcher`) and log a delay (`log_delay`, with `van_id`).";
  const samples = [
    session(
      ["agent", "load_van", { van_id: "V1", round: "north", loader: "amir" }],
      ["agent", "dispatch_van", { van_id: "V1", dispatcher: "bea" }],
    ),
    session(
      ["agent", "load_van", { van_id: "V2", round: "south", loader: "bea" }],
      ["agent", "log_delay", { van_id: "V2" }],
      ["agent", "dispatch_van", { van_id: "V2", dispatcher: "bea" }],
    ),
    session(
      ["agent", "dispatch_van", { van_id: "V3", dispatcher: "amir" }],
      ["agent", "load_van", { van_id: "V4", round: "east", loader: "cho" }],
      ["agent", "dispatch_van", { van_id: "V4", dispatcher: "amir" }],
    ),
  ];
  const expected = [
    {
      type: "condition",
      each: [{ action: "dispatch_van" }],
      with: { r: { latest: [{ action: "load_van" }], on: "metadata.van_id" } },
      when: "r.loader != event.dispatcher",
    },
    { type: "ordering", first: [{ action: "load_van" }], before: [{ action: "dispatch_van" }], on: "metadata.van_id" },
  ];

  it.each([
    [
      "plain prose",
      "A van may only be dispatched by someone other than the loader who loaded that van. A van that has not been loaded cannot be dispatched.",
    ],
    ["a card in capitals", "DISPATCH → BY STAFF OTHER THAN THE ONE WHO LOADED THAT SAME VAN.\nNO DISPATCH OF A VAN NOT LOADED FIRST."],
    [
      "minutes",
      "Agreed (proposed Bea, seconded Amir): each van is to be dispatched by a member of the bay crew other than the person who loaded it. A van that nobody has loaded cannot be dispatched.",
    ],
    [
      "an e-mail with a header line",
      "**Amir Haddad · Fri 5 Mar, 07:12**\nFrom Monday: a van is dispatched by a depot hand other than the one who loaded that van, and a van that nobody has loaded is not dispatched at all.",
    ],
    ["the act's person first", "The agent never dispatches a van that has not been loaded. Nobody who loaded a van may dispatch that van."],
  ])("%s", (_voice, body) => {
    const checks = checksOf(PREAMBLE, body, samples, "courier-depot");
    // The person-first form states the ordering first; the checks are the same either way.
    expect([...checks].sort((a, b) => (a.type < b.type ? -1 : 1))).toEqual(expected);
  });
});

describe("a museum's loan crates: the act a noun phrase, no sentence on the earlier act at all", () => {
  const PREAMBLE =
    "Registrar tracks outgoing loans. It can pack a crate (`pack_crate`, with `crate_id`, `loan_id` and `packed_by`) and " +
    "write a condition report on it (`condition_report`, with `crate_id`, `loan_id` and `examiner`).";
  const samples = [
    session(
      ["agent", "pack_crate", { crate_id: "C1", loan_id: "L1", packed_by: "ines" }],
      ["agent", "pack_crate", { crate_id: "C2", loan_id: "L1", packed_by: "olu" }],
      ["agent", "condition_report", { crate_id: "C1", loan_id: "L1", examiner: "olu" }],
      ["agent", "condition_report", { crate_id: "C2", loan_id: "L1", examiner: "ines" }],
    ),
    session(
      ["agent", "pack_crate", { crate_id: "C3", loan_id: "L2", packed_by: "ines" }],
      ["agent", "condition_report", { crate_id: "C3", loan_id: "L2", examiner: "ines" }],
    ),
  ];
  const expected = [
    {
      type: "condition",
      each: [{ action: "condition_report" }],
      with: { r: { latest: [{ action: "pack_crate" }], on: "metadata.crate_id" } },
      when: "r.packed_by != event.examiner",
    },
  ];

  it.each([
    ["plain prose", "A condition report on each crate must be written by a registrar other than the one who packed that crate."],
    ["a card in capitals", "CONDITION REPORT → BY STAFF OTHER THAN THE ONE WHO PACKED THAT SAME CRATE (ITS LATEST PACKING)."],
    [
      "minutes",
      "Agreed (proposed Ines, seconded Olu): the condition report on each crate is to be written by a member of the registry other than the person who packed it, the crate's most recent packing being the one that counts.",
    ],
    [
      "an e-mail with a header line and a correction",
      "**Olu Bankole · Wed 3 Mar, 11:05**\nCorrection to yesterday's note: a condition report is written by a registrar other than the one who packed that same crate.",
    ],
  ])("%s", (_voice, body) => {
    expect(checksOf(PREAMBLE, body, samples, "loan-crates")).toEqual(expected);
  });
});
