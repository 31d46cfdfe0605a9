/**
 * A ban the rule's condition spells out (issue 25, compiler/generate/offline/restated.ts): "A
 * crane is never hired on a lapsed inspection. For every `hire_crane`, the latest crane look-up …
 * must show `status: serviceable`" opens with the rule in the domain's words, and its qualifier
 * ("on a lapsed inspection") is what a plain ban of `hire_crane` drops: read alone it fails every
 * hire, which the condition allows. It becomes a question with a note naming the condition; a ban
 * narrowed by a value (`site_id: Y9`) stays a check. "Whenever the agent calls `hire_crane`, the
 * latest … must show …" frames the act as "For every" does (latest.ts). "A crane whose latest
 * look-up shows `status: inspection_lapsed` is never hired" bans the act for those values: a
 * condition whose `when` is the values' negation (latest.ts). The sentences are about a crane hire
 * yard, a domain none of the fixtures uses.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "The agent runs a crane hire yard. It can look up a crane (`get_crane`, by `crane_id`; the result gives its `status`) " +
  "and hire one out (`hire_crane`, with the `crane_id` and the `site_id`).";
const draftOf = (body: string): Draft => draftSpec(PREAMBLE, body, samples, "cranes");

const samples: Trajectory[] = [
  // s1: a serviceable crane hired.
  session(
    ["agent", "get_crane", { crane_id: "C1" }],
    ["tool", "get_crane_result", { crane_id: "C1", status: "serviceable" }],
    ["agent", "hire_crane", { crane_id: "C1", site_id: "Y1" }],
  ),
  // s2: hired while its inspection has lapsed.
  session(
    ["agent", "get_crane", { crane_id: "C2" }],
    ["tool", "get_crane_result", { crane_id: "C2", status: "inspection_lapsed" }],
    ["agent", "hire_crane", { crane_id: "C2", site_id: "Y2" }],
  ),
  // s3: a serviceable crane hired to the one site no crane goes to.
  session(
    ["agent", "get_crane", { crane_id: "C3" }],
    ["tool", "get_crane_result", { crane_id: "C3", status: "serviceable" }],
    ["agent", "hire_crane", { crane_id: "C3", site_id: "Y9" }],
  ),
];

const rule = (draft: Draft) => draft.ir.metaBehaviors[0]!;
const verdicts = (draft: Draft) => {
  const preview = previewJudge(draft.ir, samples).rules[0]!.rule;
  return { pass: preview.pass, fail: preview.fail };
};
const CONDITION = {
  type: "condition",
  each: [{ action: "hire_crane" }],
  with: { r: { latest: [{ action: "get_crane_result" }], on: "metadata.crane_id" } },
  when: 'r.status == "serviceable"',
};

describe("a ban the rule's condition spells out", () => {
  it("asks about 'A crane is never hired on a lapsed inspection' rather than banning every hire", () => {
    const draft = draftOf(
      "A crane is never hired on a lapsed inspection. For every `hire_crane`, the latest crane look-up for that crane " +
        "must show `status: serviceable`.",
    );
    expect(rule(draft).checks).toEqual([expect.objectContaining(CONDITION)]);
    expect(rule(draft).semanticChecks.map((s) => s.quote)).toEqual(["A crane is never hired on a lapsed inspection"]);
    expect(rule(draft).trigger.match).toEqual([{ action: "hire_crane" }]);
    expect(draft.notes.map((n) => n.message)).toContainEqual(expect.stringContaining("read as a ban, it would forbid what the condition"));
    expect(verdicts(draft)).toEqual({ pass: ["s1", "s3"], fail: ["s2"] });
  });

  it("reads 'Whenever the agent calls `hire_crane`, the latest …' as the condition's act", () => {
    const draft = draftOf(
      "Whenever the agent calls `hire_crane`, the latest crane look-up for that crane must show `status: serviceable`.",
    );
    expect(rule(draft).checks).toEqual([expect.objectContaining(CONDITION)]);
    expect(verdicts(draft)).toEqual({ pass: ["s1", "s3"], fail: ["s2"] });
  });

  it("keeps a ban narrowed by a value beside the condition", () => {
    const draft = draftOf(
      "For every `hire_crane`, the latest crane look-up for that crane must show `status: serviceable`. No crane is " +
        "hired to `site_id: Y9`.",
    );
    expect(rule(draft).checks).toEqual([
      expect.objectContaining(CONDITION),
      expect.objectContaining({ type: "forbidden", match: [{ action: "hire_crane", metadata: { site_id: "Y9" } }] }),
    ]);
    expect(rule(draft).semanticChecks).toEqual([]);
    expect(verdicts(draft)).toEqual({ pass: ["s1"], fail: ["s2", "s3"] });
  });
});

describe("a ban on the values of the latest look-up", () => {
  it("reads 'A crane whose latest look-up shows `status: inspection_lapsed` is never hired' as a negated condition", () => {
    const draft = draftOf("A crane whose latest look-up shows `status: inspection_lapsed` is never hired.");
    expect(rule(draft).checks).toEqual([
      {
        type: "condition",
        quote: "A crane whose latest look-up shows `status: inspection_lapsed` is never hired",
        each: [{ action: "hire_crane" }],
        with: { r: { latest: [{ action: "get_crane_result" }], on: "metadata.crane_id" } },
        when: 'r.status != "inspection_lapsed"',
      },
    ]);
    expect(verdicts(draft)).toEqual({ pass: ["s1", "s3"], fail: ["s2"] });
  });

  it("reads 'may not be hired' alike", () => {
    const draft = draftOf("A crane whose latest look-up shows `status: inspection_lapsed` may not be hired.");
    expect(rule(draft).checks).toEqual([expect.objectContaining({ type: "condition", when: 'r.status != "inspection_lapsed"' })]);
  });
});
