/**
 * Issue 25: "someone other than the one who did an earlier act on the same thing", in each of the
 * constructions other-than.ts reads (passive or active, positive or negative, the person first or
 * as the subject, "a different … from the one who …"), with any noun phrase for the person and
 * the earlier act in any tense. Each becomes a condition on the act, with the latest earlier act
 * on the thing's key, that the two people differ. The sentences are written for these tests, in
 * three worlds of their own: a count of ballot boxes, a newsroom and a welding shop.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf, session } from "../support/offline-drafts.js";

/** The checks of the one rule drafted from `body`, without their quotes. */
function checksOf(preamble: string, body: string, samples: Trajectory[], name: string) {
  return draftOf(preamble, body, samples, name).ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c);
}

describe("a count of ballot boxes", () => {
  const PREAMBLE =
    "Tally supports the returning officer's count. It can assign staff to a box (`assign_station`, with the `box_id`, the " +
    "`staff_id` and the `duty`), record a count (`count_box`, with `box_id`, `ward_id` and the `teller`), record a recount " +
    "(`recount_box`, with `box_id`, `ward_id` and `recounted_by`), seal a box (`seal_box`, with `box_id` and `sealed_by`) " +
    "and certify it (`certify_box`, with `box_id` and `certified_by`).";
  const samples = [
    session(
      ["agent", "assign_station", { box_id: "B1", staff_id: "ines", duty: "presiding" }],
      ["agent", "assign_station", { box_id: "B1", staff_id: "omar", duty: "teller" }],
      ["agent", "count_box", { box_id: "B1", ward_id: "W1", teller: "omar" }],
      ["agent", "recount_box", { box_id: "B1", ward_id: "W1", recounted_by: "paz" }],
      ["agent", "seal_box", { box_id: "B1", sealed_by: "lin" }],
      ["agent", "certify_box", { box_id: "B1", certified_by: "paz" }],
    ),
    session(
      ["agent", "assign_station", { box_id: "B2", staff_id: "paz", duty: "presiding" }],
      ["agent", "count_box", { box_id: "B2", ward_id: "W1", teller: "paz" }],
      ["agent", "recount_box", { box_id: "B2", ward_id: "W1", recounted_by: "paz" }],
      ["agent", "seal_box", { box_id: "B2", sealed_by: "paz" }],
      ["agent", "certify_box", { box_id: "B2", certified_by: "paz" }],
    ),
    session(
      ["agent", "count_box", { box_id: "B3", ward_id: "W2", teller: "lin" }],
      ["agent", "count_box", { box_id: "B4", ward_id: "W2", teller: "omar" }],
      ["agent", "recount_box", { box_id: "B3", ward_id: "W2", recounted_by: "omar" }],
      ["agent", "seal_box", { box_id: "B3", sealed_by: "omar" }],
      ["agent", "assign_station", { box_id: "B3", staff_id: "lin", duty: "presiding" }],
      ["agent", "assign_station", { box_id: "B3", staff_id: "omar", duty: "presiding" }],
      ["agent", "certify_box", { box_id: "B3", certified_by: "lin" }],
    ),
  ];
  const read = (body: string) => checksOf(PREAMBLE, body, samples, "ballot-count");
  const latest = (action: string, metadata?: Record<string, string>) => ({
    latest: [{ action, ...(metadata === undefined ? {} : { metadata }) }],
    on: "metadata.box_id",
  });

  it("'by a member of the counting staff other than the teller who first counted that box': a long noun phrase, a verb with its particle", () => {
    const body = "Every recount shall be carried out by a member of the counting staff other than the teller who first counted that box.";
    expect(read(body)).toEqual([
      { type: "condition", each: [{ action: "recount_box" }], with: { r: latest("count_box") }, when: "r.teller != event.recounted_by" },
    ]);
  });

  it("'by a STAFF MEMBER other than the STAFF MEMBER most recently assigned as PRESIDING OFFICER of that BOX': the earlier act with its role value", () => {
    const body =
      "The certificate of each BOX shall be signed by a STAFF MEMBER other than the STAFF MEMBER most recently assigned as PRESIDING OFFICER of that BOX.";
    const checks = read(body);
    expect(checks).toEqual([
      {
        type: "condition",
        each: [{ action: "certify_box" }],
        with: { r: latest("assign_station", { duty: "presiding" }) },
        when: "r.staff_id != event.certified_by",
      },
    ]);
    // B1 certified by paz (presiding: ines) passes; B2's presiding officer certified it; B3's latest presiding officer is omar, lin certified.
    const draft = draftOf(PREAMBLE, body, samples, "ballot-count");
    expect(previewJudge(draft.ir, samples).rules[0]!.rule).toMatchObject({
      pass: [samples[0]!.id, samples[2]!.id],
      fail: [samples[1]!.id],
    });
  });

  it("'No box may be sealed except by a polling clerk other than the clerk who recounted it': a negative with an exception", () => {
    expect(read("No box may be sealed except by a polling clerk other than the clerk who recounted it.")).toEqual([
      { type: "condition", each: [{ action: "seal_box" }], with: { r: latest("recount_box") }, when: "r.recounted_by != event.sealed_by" },
    ]);
  });

  it.each([
    ["A box may not be certified by the teller who counted it.", "certify_box", "count_box", "r.teller != event.certified_by"],
    ["Nobody who counted a box may recount that box.", "recount_box", "count_box", "r.teller != event.recounted_by"],
    [
      "The person who seals a box must not be the same clerk who recounted that box.",
      "seal_box",
      "recount_box",
      "r.recounted_by != event.sealed_by",
    ],
    [
      "A box is to be sealed by a different clerk from the one who recounted it.",
      "seal_box",
      "recount_box",
      "r.recounted_by != event.sealed_by",
    ],
  ])("%j: the act's person differs from the earlier act's", (body, act, deed, when) => {
    expect(read(body)).toEqual([{ type: "condition", each: [{ action: act }], with: { r: latest(deed) }, when }]);
  });

  it("'must be sealed by the same clerk who recounted it': the same person", () => {
    expect(read("A box must be sealed by the same clerk who recounted it.")).toEqual([
      { type: "condition", each: [{ action: "seal_box" }], with: { r: latest("recount_box") }, when: "r.recounted_by == event.sealed_by" },
    ]);
  });

  it("'Last year, 5 boxes were sealed by the same clerk who recounted them': what happened, not what must, is no condition", () => {
    const body = "Last year, 5 boxes were sealed by the same clerk who recounted them.";
    expect(read(body).filter((c) => c.type === "condition")).toEqual([]);
  });

  it("'… other than the clerk who sealed it', when no seal precedes a count in any sample: no condition, not even one the samples then refute", () => {
    const draft = draftOf(PREAMBLE, "A box must be counted by a teller other than the clerk who sealed it.", samples, "ballot-count");
    expect(draft.ir.metaBehaviors[0]!.checks.filter((c) => c.type === "condition")).toEqual([]);
    expect(draft.notes.map((n) => n.message).filter((m) => /read as a condition check/.test(m))).toEqual([]);
  });
});

describe("a newsroom", () => {
  const PREAMBLE =
    "Deskhand runs the newsroom's story board. It can put a journalist on a story (`assign_story`, with `story_id`, " +
    "`staff_id` and `role`), file a story (`file_story`, with `story_id` and `filed_by`), record a fact check " +
    "(`fact_check`, with `story_id` and `checker`) and publish a story (`publish_story`, with `story_id` and `approved_by`).";
  const samples = [
    session(
      ["agent", "assign_story", { story_id: "N1", staff_id: "ade", role: "reporter" }],
      ["agent", "assign_story", { story_id: "N1", staff_id: "bo", role: "editor" }],
      ["agent", "file_story", { story_id: "N1", filed_by: "ade" }],
      ["agent", "fact_check", { story_id: "N1", checker: "bo" }],
      ["agent", "publish_story", { story_id: "N1", approved_by: "cy" }],
    ),
    session(
      ["agent", "assign_story", { story_id: "N2", staff_id: "bo", role: "reporter" }],
      ["agent", "file_story", { story_id: "N2", filed_by: "bo" }],
      ["agent", "fact_check", { story_id: "N2", checker: "bo" }],
      ["agent", "publish_story", { story_id: "N2", approved_by: "bo" }],
    ),
    session(
      ["agent", "file_story", { story_id: "N3", filed_by: "cy" }],
      ["agent", "fact_check", { story_id: "N3", checker: "ade" }],
      ["agent", "fact_check", { story_id: "N3", checker: "cy" }],
      ["agent", "publish_story", { story_id: "N3", approved_by: "ade" }],
    ),
  ];
  const read = (body: string) => checksOf(PREAMBLE, body, samples, "newsroom");
  const latest = (action: string, metadata?: Record<string, string>) => ({
    latest: [{ action, ...(metadata === undefined ? {} : { metadata }) }],
    on: "metadata.story_id",
  });

  it("'shall not be published save on the authority of an editor other than the editor who last fact-checked that story'", () => {
    const body =
      "A story shall not be published save on the authority of an editor other than the editor who last fact-checked that story.";
    expect(read(body)).toEqual([
      { type: "condition", each: [{ action: "publish_story" }], with: { r: latest("fact_check") }, when: "r.checker != event.approved_by" },
    ]);
  });

  it.each([
    "Only a journalist other than the reporter who filed a story may fact-check that story.",
    "The reporter who filed a story must not fact-check it.",
    "Whoever fact-checks a story must be someone other than the reporter who filed it.",
  ])("%j: the person first, the act after", (body) => {
    expect(read(body)).toEqual([
      { type: "condition", each: [{ action: "fact_check" }], with: { r: latest("file_story") }, when: "r.filed_by != event.checker" },
    ]);
  });

  it("'… by a JOURNALIST other than the JOURNALIST most recently assigned as REPORTER of that STORY'", () => {
    const body =
      "The fact check of each STORY shall be done by a JOURNALIST other than the JOURNALIST most recently assigned as REPORTER of that STORY.";
    expect(read(body)).toEqual([
      {
        type: "condition",
        each: [{ action: "fact_check" }],
        with: { r: latest("assign_story", { role: "reporter" }) },
        when: "r.staff_id != event.checker",
      },
    ]);
  });
});

describe("a welding shop, two ids on both acts", () => {
  const PREAMBLE =
    "Arc keeps the fabrication log. It can record a weld (`weld_joint`, with `girder_id`, `joint_id` and the `welder`) and " +
    "pass a joint after inspection (`pass_joint`, with `girder_id`, `joint_id` and `passed_by`).";
  const samples = [
    session(
      ["agent", "weld_joint", { girder_id: "G1", joint_id: "J1", welder: "dee" }],
      ["agent", "weld_joint", { girder_id: "G1", joint_id: "J2", welder: "eli" }],
      ["agent", "pass_joint", { girder_id: "G1", joint_id: "J1", passed_by: "eli" }],
      ["agent", "pass_joint", { girder_id: "G1", joint_id: "J2", passed_by: "dee" }],
    ),
    session(
      ["agent", "weld_joint", { girder_id: "G2", joint_id: "J3", welder: "fay" }],
      ["agent", "weld_joint", { girder_id: "G2", joint_id: "J4", welder: "dee" }],
      ["agent", "pass_joint", { girder_id: "G2", joint_id: "J3", passed_by: "dee" }],
      ["agent", "pass_joint", { girder_id: "G2", joint_id: "J4", passed_by: "dee" }],
    ),
  ];

  it("'other than the welder who welded those seams': the thing is the id no two welds share (`joint_id`, not `girder_id`)", () => {
    const body = "No seam shall be passed except on the authority of an inspector other than the welder who welded those seams.";
    const checks = checksOf(PREAMBLE, body, samples, "weld-shop");
    expect(checks).toEqual([
      {
        type: "condition",
        each: [{ action: "pass_joint" }],
        with: { r: { latest: [{ action: "weld_joint" }], on: "metadata.joint_id" } },
        when: "r.welder != event.passed_by",
      },
    ]);
    // Tied by the girder, J1's pass would be judged against J2's welder; by the joint, only s2's J4 (dee passing dee's weld) fails.
    const draft = draftOf(PREAMBLE, body, samples, "weld-shop");
    expect(previewJudge(draft.ir, samples).rules[0]!.rule).toMatchObject({ pass: [samples[0]!.id], fail: [samples[1]!.id] });
  });
});
