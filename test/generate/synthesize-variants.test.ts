/**
 * The search from labels tries the drafted checks with one event swapped (issue 25,
 * synthesize-variants.ts): the phrase reading has the form right (a condition on the reader's
 * latest record, two tests) and the action wrong (`renew_loan` for "a loan is made"); labels on
 * lending sessions move it to `check_out`, keeping the drafted `when` and `on`, with the trigger
 * on the new action. No candidate built from scratch has a `when` of two tests.
 */
import { describe, expect, it } from "vitest";
import { buildLexicon } from "../../compiler/generate/offline/lexicon.js";
import { synthesizeRule, type RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import { variantsOf } from "../../compiler/generate/offline/synthesize-variants.js";
import { previewRule } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { MetaBehavior } from "../../compiler/ir/types.js";
import type { Trajectory, TrajectoryEvent } from "../../runtime/types.js";

const RULE = "Lend only to readers in good standing";
const SECTION =
  "A loan is made only to a reader whose latest record, looked up in this session, shows `card_status: valid` and less than $10.00 in unpaid fines.";

const lookup = (patron: string, card: string, fines: string): TrajectoryEvent[] => [
  { id: "", actor: "agent", action: "lookup_patron", metadata: { patron_id: patron } },
  { id: "", actor: "tool", action: "lookup_patron_result", metadata: { patron_id: patron, card_status: card, fines } },
];
const act = (action: string, patron: string): TrajectoryEvent => ({ id: "", actor: "agent", action, metadata: { patron_id: patron } });
const session = (id: string, ...events: TrajectoryEvent[]): Trajectory => ({
  id,
  description: "",
  complete: true,
  events: [{ id: "", actor: "user" as const, action: "message" }, ...events].map((e, i) => ({ ...e, id: `e${i}` })),
});

// The verdict a hand judge gives each session: loans to readers in good standing pass, renewals are another rule's.
const cases: [Trajectory, "true" | "false" | "na"][] = [
  [session("good-loan", ...lookup("P1", "valid", "2"), act("check_out", "P1")), "true"],
  [session("expired-card-loan", ...lookup("P2", "expired", "0"), act("check_out", "P2")), "false"],
  [session("fined-loan", ...lookup("P3", "valid", "40"), act("check_out", "P3")), "false"],
  [session("good-renewal", ...lookup("P4", "valid", "0"), act("renew_loan", "P4")), "na"],
  [session("expired-card-renewal", ...lookup("P5", "expired", "0"), act("renew_loan", "P5")), "na"],
  [session("fined-loan-2", ...lookup("P6", "valid", "25"), act("check_out", "P6")), "false"],
  [session("good-loan-2", ...lookup("P7", "valid", "0"), act("check_out", "P7")), "true"],
  [session("suspended-loan", ...lookup("P8", "suspended", "0"), act("check_out", "P8")), "false"],
];
const samples = cases.map(([s]) => s);
const truth = Object.fromEntries(cases.map(([s, v]) => [s.id, v]));
const GIVEN = ["good-loan", "expired-card-loan", "fined-loan", "good-renewal", "expired-card-renewal"];
const labels: RuleLabels = Object.fromEntries(GIVEN.map((id) => [id, { [RULE]: truth[id]! }]));

// The phrase reading: the right condition on the wrong action.
const drafted: MetaBehavior = {
  name: RULE,
  trigger: { description: "Renews a loan.", match: [{ action: "renew_loan" }] },
  checks: [
    {
      type: "condition",
      quote: SECTION,
      each: [{ action: "renew_loan" }],
      with: { r: { latest: [{ action: "lookup_patron_result" }], on: "metadata.patron_id" } },
      when: 'r.card_status == "valid" && r.fines < 10',
    },
  ],
  semanticChecks: [],
};
const lexicon = buildLexicon(buildVocabulary(samples), samples);
const search = () => synthesizeRule(lexicon, drafted, SECTION, [SECTION], samples, labels);
const verdicts = (rule: MetaBehavior) => {
  const p = previewRule(rule, samples).rule;
  return Object.fromEntries(samples.map((s) => [s.id, p.pass.includes(s.id) ? "true" : p.fail.includes(s.id) ? "false" : "na"]));
};

describe("a drafted check with its action swapped", () => {
  it("moves the condition to the action the labels judge, keeping its when and on, with the trigger on it", () => {
    const found = search();
    expect(found.changed).toBe(true);
    expect(found.agree).toBe(found.total);
    expect(found.rule.trigger.match).toEqual([{ action: "check_out" }]);
    expect(found.rule.checks).toEqual([
      {
        ...drafted.checks[0],
        each: [{ action: "check_out" }],
      },
    ]);
    // It judges the sessions no label was given for as the hand judge does.
    expect(verdicts(found.rule)).toEqual(truth);
    expect(JSON.stringify(search())).toBe(JSON.stringify(found));
  });

  it("swaps each event of a check for the samples' actions the words name most, never the user's, in a fixed order", () => {
    const variants = variantsOf(drafted.checks, samples, { relevanceOf: () => 0 });
    const swappedIn = variants.map((v) => (v.check.type === "condition" ? v.check.each[0]!.action : undefined));
    expect(swappedIn).toEqual(["lookup_patron", "lookup_patron_result", "check_out"]);
    expect(variants.every((v) => v.subject !== undefined && v.drafted === 0)).toBe(true);
  });
});
