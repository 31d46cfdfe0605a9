/**
 * The pick among readings the search from labels judged (issue 25, synthesize-rank.ts): labels
 * refine the phrase reading rather than replace it. What a reading changes from the phrase reading
 * is counted in fields, the words' grounding taking some of it off; a phrase reading that fits all
 * labels but a tolerated few anchors the pick. Measured on development sets only
 * (test/fixtures/blind2, blind3, spec/held-out-2026-12; never blind4 or blind5).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { editCost, editCounter, editDistance, tolerated, type Words } from "../../compiler/generate/offline/synthesize-rank.js";
import type { RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import type { Check, Matcher } from "../../compiler/ir/types.js";
import { ROOT } from "../support/cli.js";
import { heldOutAgreement, loadReferenceCase, trajectoryFiles, type Labeled } from "./drafting-fixtures.js";

// The words of "Sign off only after the inspection of that same task came back accepted".
const named: Record<string, number> = { sign_off_task: 3, request_inspection_result: 2.5, log_hours: 0 };
const words: Words = {
  relevanceOf: (m: Matcher) => named[typeof m.action === "string" ? m.action : ""] ?? 0,
  cues: { same: true, fresh: false, within: [], per: false, sum: false },
  words: new Set(["sign", "task", "inspect"]),
};
const inspected: Check = {
  type: "ordering",
  quote: "q",
  first: [{ action: "request_inspection_result" }],
  before: [{ action: "sign_off_task" }],
};

describe("what a reading changes from the phrase reading", () => {
  it("counts nothing for the same check, whatever its quote", () => {
    expect(editDistance(inspected, { ...inspected, quote: "other" }, words)).toEqual({ fields: 0, grounded: 0 });
  });

  it("counts a check that turns its two events around as both events and the reversal, with no credit for words it already had", () => {
    const reversed: Check = { ...inspected, first: inspected.before, before: inspected.first };
    expect(editDistance(inspected, reversed, words)).toEqual({ fields: 3, grounded: 0 });
  });

  it("credits a change to what the words name and an `on:` they hint at ('that same task'), not an unnamed event", () => {
    const same = editDistance(inspected, { ...inspected, on: "metadata.task_id" }, words);
    expect(same).toEqual({ fields: 1, grounded: 1 });
    const unnamed = editDistance(inspected, { ...inspected, first: [{ action: "log_hours" }] }, words);
    expect(unnamed).toEqual({ fields: 1, grounded: 0 });
    expect(editCost(same)).toBeLessThan(editCost(unnamed));
  });

  it("credits nothing for a value the words do not write, on an event they name (a sample's constant only fits)", () => {
    const valued = editDistance(
      inspected,
      { ...inspected, first: [{ action: "request_inspection_result", metadata: { temp_c: "4.5" } }] },
      words,
    );
    expect(valued).toEqual({ fields: 1, grounded: 0 });
  });

  it("counts a dropped check as one field, an added one as all of its fields, a new trigger as one", () => {
    const count = editCounter([inspected, { type: "forbidden", quote: "q", match: [{ action: "log_hours" }] }], [{ action: "x" }], words);
    expect(count([0], [], undefined)).toEqual({ fields: 1, grounded: 0 });
    const added: Check = { type: "required", quote: "q", match: [{ action: "log_hours" }], after: [{ action: "sign_off_task" }] };
    expect(count([0, 1], [added], [{ action: "y" }])).toEqual({ fields: 3 + 1, grounded: 1 });
  });

  it("counts nothing for a list of values written in another order, in a check or in the trigger", () => {
    const listed: Check = {
      type: "forbidden",
      quote: "q",
      match: [{ action: "lookup", metadata: { status: { in: ["expired", "suspended"] } } }],
    };
    const reordered: Check = { ...listed, match: [{ action: "lookup", metadata: { status: { in: ["suspended", "expired"] } } }] };
    expect(editDistance(listed, reordered, words)).toEqual({ fields: 0, grounded: 0 });
    const count = editCounter([listed], listed.match, words);
    expect(count([0], [], reordered.match)).toEqual({ fields: 0, grounded: 0 });
    expect(count([0], [], [{ action: "lookup", metadata: { status: { in: ["expired"] } } }])).toEqual({ fields: 1, grounded: 0 });
  });

  it("tolerates one label in six, at least one", () => {
    expect([1, 5, 6, 12, 25].map(tolerated)).toEqual([1, 1, 1, 2, 4]);
  });
});

describe("labels refine a phrase reading that fits all but one of them", () => {
  it("claims-desk 'Field inspection for large losses', even labels: the ordering keeps its shape and waits for the inspection's result (6 of 6 held out; 5 when the best-worded fit replaced it)", () => {
    expect(heldOutAgreement("blind3/claims-desk", "Field inspection for large losses", 0).agree).toBe(6);
  });

  // One label the phrase reading misses does not move it alone (synthesize.ts heldOut): left out,
  // the phrase reading fits the rest, so the rank's pick predicts none of the labels better. These
  // two picks fit the held-out half better (6 of 6); three others fit it worse (grid-switching
  // 'Prove dead before grounding' 6 -> 4, berth-allocation 'Extensions' 6 -> 4, payroll-corrections
  // 'Hours corrections' 6 -> 4): the draft stays, and the pick is the question asked.
  for (const [folder, rule, half] of [["blind2/wire-desk", "Only wire to a verified beneficiary", 0]] as const)
    it(`${folder} '${rule}', ${half === 0 ? "even" : "odd"} labels: one label missed, the draft kept (5 of 6 held out, as with no labels)`, () => {
      expect(heldOutAgreement(folder, rule, half).agree).toBe(5);
    });

  // Its phrase reading missed one label here (a ban on `inspect_vehicle`) until "book any vehicle" was read as
  // `reserve_vehicle` (words.ts, round 11): the draft, kept, now agrees with all six.
  it("spec/held-out-2026-12/fleet-rental 'Suspended and expired licences', odd labels: the draft kept (6 of 6 held out, as with no labels)", () => {
    expect(heldOutAgreement("spec/held-out-2026-12/fleet-rental", "Suspended and expired licences", 1).agree).toBe(6);
  });

  // Its phrase reading missed one label here until the words' comparison of the deferral's `days`
  // with the look-up's `max_days` was read (compared.ts): the draft, kept, now agrees with all six.
  it("blind3/aircraft-release 'Deferrals stay inside the MEL', odd labels: the draft kept (6 of 6 held out, as with no labels)", () => {
    expect(heldOutAgreement("blind3/aircraft-release", "Deferrals stay inside the MEL", 1).agree).toBe(6);
  });

  it("the same labels give the same draft, byte for byte", () => {
    const dir = join(ROOT, "test", "fixtures", "blind3", "claims-desk");
    const c = loadReferenceCase(dir);
    const cases = trajectoryFiles(dir).flatMap((f) => JSON.parse(readFileSync(f, "utf8")) as Labeled[]);
    const labels: RuleLabels = Object.fromEntries(
      cases.filter((_, i) => i % 2 === 0).map((x) => [x.trajectory.id, x.expected.metaBehaviorVerdicts]),
    );
    const run = () => JSON.stringify(draftOffline({ spec: c.spec, vocabulary: c.vocabulary, samples: c.samples, labels }));
    expect(run()).toBe(run());
  });
});
