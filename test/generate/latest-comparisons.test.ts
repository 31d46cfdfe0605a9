/**
 * A latest look-up's value compared with the act's own (issue 25, compiler/generate/offline/
 * compared.ts): "with an `inspection_due` date later than the hire's `return_by`", "the load
 * lifted may not exceed the `max_load_t` of that look-up", "the crane must be returned no later
 * than …", "(the same `site_id`)" are tests in the `when` of the condition on the latest look-up,
 * `r.key` against `event.key`, in the same clause, a later clause of the sentence, or a sentence
 * of its own. The sentences are about a crane hire yard, a domain none of the fixtures uses.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "The agent runs a crane hire yard. It can look up a crane (`get_crane`, by `crane_id`; the result gives its `status`, " +
  "the `max_load_t` it may lift and the date its next inspection is due, `inspection_due`) and hire one out " +
  "(`hire_crane`, with the `crane_id`, the `site_id`, the `load_t` to lift and the date it comes back, `return_by`).";
const draftOf = (body: string): Draft => draftSpec(PREAMBLE, body, samples, "cranes");

const lookUp = (
  crane: string,
  status: string,
  max: string,
  due: string,
  site: string,
): ["agent" | "tool", string, Record<string, string>][] => [
  ["agent", "get_crane", { crane_id: crane }],
  ["tool", "get_crane_result", { crane_id: crane, status, max_load_t: max, inspection_due: due, site_id: site }],
];
const samples: Trajectory[] = [
  // s1: within every limit.
  session(...lookUp("C1", "serviceable", "20", "2027-01-10", "Y1"), [
    "agent",
    "hire_crane",
    { crane_id: "C1", site_id: "Y1", load_t: "18", return_by: "2027-01-05" },
  ]),
  // s2: a load of exactly the limit, back on the very day the inspection is due.
  session(...lookUp("C2", "serviceable", "20", "2027-01-10", "Y2"), [
    "agent",
    "hire_crane",
    { crane_id: "C2", site_id: "Y2", load_t: "20", return_by: "2027-01-10" },
  ]),
  // s3: a load over the limit.
  session(...lookUp("C3", "serviceable", "10", "2027-02-01", "Y3"), [
    "agent",
    "hire_crane",
    { crane_id: "C3", site_id: "Y3", load_t: "12", return_by: "2027-01-20" },
  ]),
  // s4: hired to another site than the one the look-up shows.
  session(...lookUp("C4", "serviceable", "20", "2027-03-01", "Y4"), [
    "agent",
    "hire_crane",
    { crane_id: "C4", site_id: "Y9", load_t: "5", return_by: "2027-02-01" },
  ]),
];

const checksOf = (draft: Draft) => draft.ir.metaBehaviors[0]!.checks;
const verdicts = (draft: Draft) => {
  const rule = previewJudge(draft.ir, samples).rules[0]!.rule;
  return { pass: rule.pass, fail: rule.fail };
};
const LOOK_UP = { r: { latest: [{ action: "get_crane_result" }], on: "metadata.crane_id" } };

describe("a look-up's value compared with the act's", () => {
  it("reads '…, with an `inspection_due` date later than the hire's `return_by`' into the condition", () => {
    const draft = draftOf(
      "For every `hire_crane`, the latest crane look-up for that crane has to show `status: serviceable`, with an " +
        "`inspection_due` date later than the hire's `return_by`.",
    );
    expect(checksOf(draft)).toEqual([
      {
        type: "condition",
        quote:
          "For every `hire_crane`, the latest crane look-up for that crane has to show `status: serviceable`, with an " +
          "`inspection_due` date later than the hire's `return_by`",
        each: [{ action: "hire_crane" }],
        with: LOOK_UP,
        when: 'r.status == "serviceable" && r.inspection_due > event.return_by',
      },
    ]);
    // s2 comes back on the day the inspection is due: not later than it.
    expect(verdicts(draft)).toEqual({ pass: ["s1", "s3", "s4"], fail: ["s2"] });
    expect(draft.notes.filter((n) => n.kind === "uncovered-sentence")).toEqual([]);
  });

  it("reads a later clause, the act's key named by its words: 'the crane must be returned no later than …'", () => {
    const draft = draftOf(
      "For every `hire_crane`, the latest crane look-up for that crane has to show `status: serviceable`, and the crane " +
        "must be returned no later than that look-up's `inspection_due` date.",
    );
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({
        type: "condition",
        with: LOOK_UP,
        when: 'r.status == "serviceable" && event.return_by <= r.inspection_due',
      }),
    ]);
    // "No later than" allows the very day.
    expect(verdicts(draft)).toEqual({ pass: ["s1", "s2", "s3", "s4"], fail: [] });
  });

  it("reads a sentence of its own, turned round by 'may not exceed'", () => {
    const draft = draftOf(
      "For every `hire_crane`, the latest crane look-up for that crane has to show `status: serviceable`. The load " +
        "lifted may not exceed the `max_load_t` of that look-up.",
    );
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({ type: "condition", when: 'r.status == "serviceable"' }),
      {
        type: "condition",
        quote: "The load lifted may not exceed the `max_load_t` of that look-up",
        each: [{ action: "hire_crane" }],
        with: LOOK_UP,
        when: "event.load_t <= r.max_load_t",
      },
    ]);
    // s2 lifts exactly its limit; s3 over it.
    expect(verdicts(draft)).toEqual({ pass: ["s1", "s2", "s4"], fail: ["s3"] });
  });

  it("reads 'the same `site_id`' as the two events holding one value", () => {
    const draft = draftOf(
      "For every `hire_crane`, the latest crane look-up for that crane has to show `status: serviceable`, with the " +
        "same `site_id` as the hire.",
    );
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({ type: "condition", when: 'r.status == "serviceable" && r.site_id == event.site_id' }),
    ]);
    // s4 goes to another site than its look-up's.
    expect(verdicts(draft)).toEqual({ pass: ["s1", "s2", "s3"], fail: ["s4"] });
  });

  it("leaves a comparison with no key of either event a question", () => {
    const draft = draftOf(
      "For every `hire_crane`, the latest crane look-up for that crane has to show `status: serviceable`. The crane " +
        "may not be hired for longer than the customer's insurance allows.",
    );
    expect(checksOf(draft)).toEqual([expect.objectContaining({ type: "condition", when: 'r.status == "serviceable"' })]);
    expect(draft.ir.metaBehaviors[0]!.semanticChecks.map((s) => s.quote)).toEqual([
      "The crane may not be hired for longer than the customer's insurance allows",
    ]);
  });
});
