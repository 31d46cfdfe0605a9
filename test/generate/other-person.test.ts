/**
 * "Someone other than the requester" as a clause of its own (issue 25): in a sentence that stands
 * alone after the one that makes the act conditional on the latest approval ("The clearance must
 * come from someone other than the archivist who asked for it", "may not clear their own loan"),
 * or following the condition in the same sentence with other words ("the person who cleared it is
 * someone other than the archivist lending it (`archivist_id`)"). Each is read as two keys of the
 * latest look-up and of the act that must differ. The sentences are written for these tests (a
 * film archive's loan desk), not taken from a fixture.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "Reel works a film archive's loan desk. It can ask a curator to clear a loan (`request_clearance`, with the " +
  "`reel_id`; its result gives the `verdict` and the `cleared_by`), lend a reel (`lend_reel`, with the `reel_id` " +
  "and the `archivist_id` of the archivist lending it) and log a note (`log_note`).";

const draftOf = (body: string, samples: Trajectory[]): Draft => draftSpec(PREAMBLE, body, samples, "loan-desk");

const lends = (clearedBy: string, verdict = "cleared"): Trajectory =>
  session(
    ["agent", "request_clearance", { reel_id: "R3" }],
    ["tool", "request_clearance_result", { reel_id: "R3", verdict, cleared_by: clearedBy }],
    ["agent", "lend_reel", { reel_id: "R3", archivist_id: "A5" }],
    ["agent", "log_note", { reel_id: "R3" }],
  );

const samples = [lends("K1"), lends("A5"), lends("K1", "refused"), lends("K2")];
const CONDITION =
  "A reel is lent only once a curator has cleared it: the latest clearance request for that reel came back `verdict: cleared`.";

/** The rule's checks that compare people, and the samples the rule fails. */
function read(body: string) {
  const draft = draftOf(body, samples);
  const rule = draft.ir.metaBehaviors[0]!;
  const differ = rule.checks.filter((c) => c.type === "condition" && / != event\.archivist_id/.test(c.when));
  const fails = previewJudge(draft.ir, samples).rules[0]!.rule.fail;
  return { draft, rule, differ, fails };
}

describe("someone other than the requester, in a sentence of its own", () => {
  it.each([
    "The clearance must come from someone other than the archivist who asked for it.",
    "The person who cleared it must be someone other than the archivist lending the reel.",
    "The curator who clears a loan cannot be the archivist who lends the reel.",
    "An archivist may not clear their own loan.",
  ])("reads %j as the latest clearance's clearer differing from the act's archivist", (second) => {
    const { rule, differ, fails, draft } = read(`${CONDITION} ${second}`);
    expect(differ).toEqual([
      expect.objectContaining({
        type: "condition",
        each: [{ action: "lend_reel" }],
        with: { r: { latest: [{ action: "request_clearance_result" }], on: "metadata.reel_id" } },
        when: expect.stringContaining("r.cleared_by != event.archivist_id"),
      }),
    ]);
    // The sentence is read, not dropped or asked of a model.
    expect(rule.semanticChecks).toEqual([]);
    expect(draft.notes.filter((n) => n.kind === "uncovered-sentence")).toEqual([]);
    expect(differ[0]!.quote).toBe(second.replace(/\.$/, ""));
    // Cleared by the archivist who lends (s2) and refused (s3) fail; cleared by another curator passes.
    expect(fails).toEqual([samples[1]!.id, samples[2]!.id]);
  });

  it("leaves the sentence alone when no two keys hold the same people", () => {
    const strangers = [lends("K1"), lends("K2", "refused")];
    const draft = draftOf(`${CONDITION} The clearance must come from someone other than the archivist who asked for it.`, strangers);
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.checks.some((c) => c.type === "condition" && c.when.includes("!="))).toBe(false);
  });
});

describe("someone other than the requester, after the condition in the same sentence", () => {
  it("reads 'the person who cleared it is someone other than the archivist lending it (`archivist_id`)' into the condition", () => {
    const { rule, fails } = read(
      "A reel is lent only once a curator has cleared it: the latest clearance request for that reel came back " +
        "`verdict: cleared`, and the person who " +
        "cleared it is someone other than the archivist lending it (`archivist_id`).",
    );
    expect(rule.checks).toEqual([
      expect.objectContaining({
        type: "condition",
        each: [{ action: "lend_reel" }],
        with: { r: { latest: [{ action: "request_clearance_result" }], on: "metadata.reel_id" } },
        when: 'r.verdict == "cleared" && r.cleared_by != event.archivist_id',
      }),
    ]);
    expect(rule.checks[0]!.quote).toMatch(/someone other than the archivist lending it \(`archivist_id`\)$/);
    expect(fails).toEqual([samples[1]!.id, samples[2]!.id]);
  });
});

describe("someone other than the person another look-up names", () => {
  it("compares with the key of the latest other look-up of the same thing when the words write it in backticks", () => {
    const preamble = `${PREAMBLE} It can also look a reel up (\`look_up_reel\`, whose result gives the \`catalogued_by\`).`;
    const lent = (clearedBy: string, cataloguedBy: string): Trajectory =>
      session(
        ["agent", "look_up_reel", { reel_id: "R8" }],
        ["tool", "look_up_reel_result", { reel_id: "R8", catalogued_by: cataloguedBy }],
        ["agent", "request_clearance", { reel_id: "R8" }],
        ["tool", "request_clearance_result", { reel_id: "R8", verdict: "cleared", cleared_by: clearedBy }],
        ["agent", "lend_reel", { reel_id: "R8", archivist_id: "A5" }],
      );
    const mine = [lent("K1", "K2"), lent("K1", "K1"), lent("K3", "K2")];
    const draft = draftSpec(
      preamble,
      "A reel is lent only once a curator has cleared it: the latest clearance request for that reel came back " +
        "`verdict: cleared`, and the curator is not the archivist who catalogued the reel (the `catalogued_by` in the " +
        "latest look-up of the reel).",
      mine,
      "loan-desk",
    );
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({
        type: "condition",
        with: {
          r: { latest: [{ action: "request_clearance_result" }], on: "metadata.reel_id" },
          a: { latest: [{ action: "look_up_reel_result" }], on: "metadata.reel_id" },
        },
        when: 'r.verdict == "cleared" && r.cleared_by != a.catalogued_by',
      }),
    ]);
    expect(previewJudge(draft.ir, mine).rules[0]!.rule.fail).toEqual([mine[1]!.id]);
  });
});
