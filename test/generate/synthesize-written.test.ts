/**
 * The search from labels at a food bank's pantry (issue 25): a number the rule writes is part of
 * what it says (synthesize-written.ts). "At most 40 kilos of rice per visit, … added up" is a total
 * of at most 40 per visit; labels that are all "followed" fit plain readings that use no number
 * (a ban on beans after rice, at most one rice handout), and the search stopped at those before it
 * tried the sums. Where the fit uses no number the words write, the extended forms are searched for
 * one that fits as well and uses one, a total bounded by the written number scoring as a threshold
 * the words write does.
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import type { RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import { numbersOf, writtenUse } from "../../compiler/generate/offline/synthesize-written.js";
import { writtenCuts } from "../../compiler/generate/offline/synthesize-numbers.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { Check, JudgeIR } from "../../compiler/ir/types.js";
import type { Trajectory, TrajectoryEvent } from "../../runtime/types.js";

const parsed = parseBehaviorMd(`---
name: pantry
description: Rules for Larder, the assistant at a food bank's pantry counter.
---
Larder checks a household in (\`check_in\`, with \`household\` and \`visit_id\`) and hands out food (\`hand_out\`, with \`visit_id\`, \`item\` and \`weight_kg\`). Every call gets a \`_result\` back.

## Rice

Rice is short this winter. At most 40 kilos of rice per visit, and that's every rice handout with the same visit number added up. Forty on the dot is fine.
`);
if (!parsed.ok) throw new Error("spec");
const spec = parsed.spec;
const RULE = "Rice";

/** A visit: its check-in, then handouts of [item, kilos]. */
function visit(visitId: string, household: string, ...handouts: [string, number][]): TrajectoryEvent[] {
  const events: Omit<TrajectoryEvent, "id">[] = [
    { actor: "agent", action: "check_in", metadata: { household, visit_id: visitId } },
    { actor: "tool", action: "check_in_result", metadata: { visit_id: visitId, status: "ok" } },
  ];
  for (const [item, kg] of handouts) {
    events.push({ actor: "agent", action: "hand_out", metadata: { visit_id: visitId, item, weight_kg: String(kg) } });
    events.push({ actor: "tool", action: "hand_out_result", metadata: { visit_id: visitId, status: "done" } });
  }
  return events as TrajectoryEvent[];
}
function session(id: string, ...visits: TrajectoryEvent[][]): Trajectory {
  const events = [{ actor: "user", action: "message", content: "Next, please" }, ...visits.flat()].map((e, i) => ({ ...e, id: `e${i}` }));
  return { id, description: "", complete: true, events: events as TrajectoryEvent[] };
}

type Verdict = "true" | "false" | "na";
const cases: [Trajectory, Verdict][] = [
  // Given as labels: none of them broken.
  [session("forty-exactly", visit("V-1", "Okafor", ["rice", 20], ["rice", 20])), "true"],
  [session("rice-then-beans", visit("V-2", "Lindqvist", ["rice", 15], ["beans", 10])), "true"],
  [session("beans-only", visit("V-3", "Moreau", ["beans", 30], ["oil", 5])), "na"],
  [session("two-visits-two-limits", visit("V-4", "Okafor", ["rice", 30]), visit("V-5", "Okafor", ["rice", 30])), "true"],
  [session("one-small-bag", visit("V-6", "Haddad", ["oil", 5], ["rice", 10])), "true"],
  [session("nothing-handed-out", visit("V-7", "Moreau")), "na"],
  // Held out.
  [session("three-bags-of-fifteen", visit("V-8", "Haddad", ["rice", 15], ["rice", 15], ["rice", 15])), "false"],
  [session("one-sack-of-forty-five", visit("V-9", "Lindqvist", ["rice", 45])), "false"],
  [session("rice-beans-rice", visit("V-10", "Okafor", ["rice", 25], ["beans", 10], ["rice", 20])), "false"],
  [session("two-households-thirty-each", visit("V-11", "Moreau", ["rice", 30]), visit("V-12", "Haddad", ["rice", 30])), "true"],
  [session("oil-then-rice", visit("V-13", "Haddad", ["oil", 5], ["rice", 35])), "true"],
  [session("beans-after-rice", visit("V-14", "Lindqvist", ["rice", 10], ["beans", 50])), "true"],
];
const samples = cases.map(([t]) => t);
const vocabulary = buildVocabulary(samples);
const labels: RuleLabels = Object.fromEntries(cases.slice(0, 6).map(([t, v]) => [t.id, { [RULE]: v }]));
const verdictOn = (ir: JudgeIR, id: string): Verdict => {
  const rule = previewJudge(ir, samples).rules.find((r) => r.name === RULE)!.rule;
  return rule.pass.includes(id) ? "true" : rule.fail.includes(id) ? "false" : "na";
};
const bare = ({ quote: _, ...c }: Check) => c;

describe("the numbers a check uses", () => {
  it("are its thresholds, bounds, window and condition's numbers, each with how it is used", () => {
    expect(numbersOf({ type: "forbidden", quote: "", match: [{ action: "hand_out", metadata: { weight_kg: { gt: 40 } } }] })).toEqual([
      { n: 40, op: "gt", sum: false },
    ]);
    expect(
      numbersOf({
        type: "count",
        quote: "",
        match: [{ action: "hand_out" }],
        sum: "metadata.weight_kg",
        per: "metadata.visit_id",
        max: 40,
      }),
    ).toEqual([{ n: 40, op: "max", sum: true }]);
    expect(
      numbersOf({
        type: "condition",
        quote: "",
        each: [{ action: "hand_out" }],
        with: { r: { latest: [{ action: "check_in" }] } },
        when: 'r.size >= 4 && r.zone == "B2"',
      }),
    ).toEqual([{ n: 4, op: "gte", sum: false }]);
  });

  it("use a written number on the side the words cut it, otherwise, or not at all", () => {
    const text = "At most 40 kilos of rice per visit";
    const [said, cuts] = [[40], writtenCuts(text)];
    const total = (max: number): Check => ({ type: "count", quote: "", match: [{ action: "hand_out" }], sum: "metadata.weight_kg", max });
    const atLeast: Check = { type: "forbidden", quote: "", match: [{ action: "hand_out", metadata: { weight_kg: { gte: 40 } } }] };
    expect(writtenUse([total(40)], said, cuts)).toBe(2);
    expect(writtenUse([atLeast], said, cuts)).toBe(1);
    expect(writtenUse([total(1)], said, cuts)).toBe(0);
    // Words that write no number leave nothing out.
    expect(writtenUse([total(1)], [], [])).toBe(2);
  });
});

describe("a number the rule writes, searched with labels that are all followed", () => {
  it("is a total of rice per visit of at most 40, which judges every held-out visit as the hand does", () => {
    const found = draftOffline({ spec, vocabulary, samples, labels });
    const rule = found.ir.metaBehaviors.find((r) => r.name === RULE)!;
    expect(rule.checks.map(bare)).toEqual([
      {
        type: "count",
        match: [{ action: "hand_out", metadata: { item: "rice" } }],
        max: 40,
        per: "metadata.visit_id",
        sum: "metadata.weight_kg",
      },
    ]);
    for (const [t, v] of cases.slice(6)) expect(verdictOn(found.ir, t.id), t.id).toBe(v);
  });
});
