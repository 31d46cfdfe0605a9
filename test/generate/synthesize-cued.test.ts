/**
 * The search from labels at a community darkroom (issue 25): forms the words ask for by name
 * (synthesize-cued.ts). "A print is released only by a technician other than the technician who
 * developed that roll" compares two people; six labels fit plain readings too (the one broken session
 * has two releases: at most one release fits them all), and the search stopped at the first plain one. Where the fit
 * uses fewer of the forms the words ask for ("other than": a comparison that two values differ;
 * "most recent": a condition on the latest; "no later than the second entry following": a window)
 * than they ask, the extended forms are searched for one that fits as well and uses more of them.
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import type { RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import { cuedUse, cuesGiven, type FormCues } from "../../compiler/generate/offline/synthesize-cued.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { Check, JudgeIR } from "../../compiler/ir/types.js";
import type { Trajectory, TrajectoryEvent } from "../../runtime/types.js";

const parsed = parseBehaviorMd(`---
name: darkroom
description: House rules for Fixer, the assistant at a community darkroom's front desk.
---
Fixer logs a roll as developed (\`develop_roll\`, with \`roll_id\` and \`developer\`, the technician at the tank), mixes chemistry (\`mix_chemistry\`, with \`batch\`) and hands prints back to members (\`release_print\`, with \`roll_id\` and \`released_by\`).

## Second pair of eyes

A print is released only by a technician other than the technician who developed that roll.
`);
if (!parsed.ok) throw new Error("spec");
const spec = parsed.spec;
const RULE = "Second pair of eyes";

type Step = ["develop", string, string] | ["release", string, string] | ["mix", string];
function session(id: string, ...steps: Step[]): Trajectory {
  const events: Omit<TrajectoryEvent, "id">[] = [{ actor: "user", action: "message", content: "Is my film ready?" }];
  for (const s of steps) {
    if (s[0] === "develop") events.push({ actor: "agent", action: "develop_roll", metadata: { roll_id: s[1], developer: s[2] } });
    else if (s[0] === "release") events.push({ actor: "agent", action: "release_print", metadata: { roll_id: s[1], released_by: s[2] } });
    else events.push({ actor: "agent", action: "mix_chemistry", metadata: { batch: s[1] } });
  }
  return { id, description: "", complete: true, events: events.map((e, i) => ({ ...e, id: `e${i}` })) as TrajectoryEvent[] };
}

type Verdict = "true" | "false" | "na";
const cases: [Trajectory, Verdict][] = [
  // Given as labels.
  [session("checked-by-another", ["develop", "R-11", "Ines"], ["release", "R-11", "Tomasz"]), "true"],
  [
    session("developer-hands-it-back", ["develop", "R-12", "Tomasz"], ["release", "R-12", "Tomasz"], ["release", "R-12", "Tomasz"]),
    "false",
  ],
  [session("chemistry-only", ["mix", "B-1"]), "na"],
  [session("two-rolls-two-checkers", ["develop", "R-13", "Ines"], ["develop", "R-14", "Tomasz"], ["release", "R-13", "Tomasz"]), "true"],
  [session("developed-not-yet-released", ["develop", "R-15", "Ines"], ["mix", "B-2"]), "na"],
  [session("ines-checks-tomasz", ["mix", "B-3"], ["develop", "R-16", "Tomasz"], ["release", "R-16", "Ines"]), "true"],
  // Held out.
  [session("ines-releases-her-own", ["develop", "R-17", "Ines"], ["release", "R-17", "Ines"]), "false"],
  [
    session(
      "two-releases-each-checked",
      ["develop", "R-18", "Ines"],
      ["release", "R-18", "Tomasz"],
      ["develop", "R-19", "Tomasz"],
      ["release", "R-19", "Ines"],
    ),
    "true",
  ],
  [
    session(
      "second-roll-self-released",
      ["develop", "R-20", "Tomasz"],
      ["release", "R-20", "Ines"],
      ["develop", "R-21", "Ines"],
      ["release", "R-21", "Ines"],
    ),
    "false",
  ],
  [session("mix-then-checked", ["develop", "R-22", "Ines"], ["mix", "B-4"], ["release", "R-22", "Tomasz"]), "true"],
];
const samples = cases.map(([t]) => t);
const vocabulary = buildVocabulary(samples);
const labels: RuleLabels = Object.fromEntries(cases.slice(0, 6).map(([t, v]) => [t.id, { [RULE]: v }]));
const verdictOn = (ir: JudgeIR, id: string): Verdict => {
  const rule = previewJudge(ir, samples).rules.find((r) => r.name === RULE)!.rule;
  return rule.pass.includes(id) ? "true" : rule.fail.includes(id) ? "false" : "na";
};

describe("the forms a rule's words ask for", () => {
  const cues: FormCues = { different: true, latest: true, within: [2] };
  const condition = (when: string): Check => ({
    type: "condition",
    quote: "",
    each: [{ action: "release_print" }],
    with: { r: { latest: [{ action: "develop_roll" }] } },
    when,
  });
  it("are counted, and so are those a reading uses", () => {
    expect(cuesGiven(cues)).toBe(3);
    expect(cuesGiven({ different: false, latest: false, within: [] })).toBe(0);
    // A comparison that two values differ is a condition too (the latest developed roll).
    expect(cuedUse([condition("r.developer != event.released_by")], cues)).toBe(2);
    expect(cuedUse([condition('r.developer == "Ines"')], cues)).toBe(1);
    expect(
      cuedUse(
        [{ type: "pairing", quote: "", each: [{ action: "develop_roll" }], followedBy: [{ action: "release_print" }], within: 2 }],
        cues,
      ),
    ).toBe(1);
    expect(cuedUse([{ type: "count", quote: "", match: [{ action: "release_print" }], max: 1 }], cues)).toBe(0);
  });
});

describe("a comparison of two people, searched with six labels", () => {
  it("is the latest development of that roll by someone other than the releaser, which judges every held-out session as the hand does", () => {
    const found = draftOffline({ spec, vocabulary, samples, labels });
    const rule = found.ir.metaBehaviors.find((r) => r.name === RULE)!;
    expect(rule.checks).toHaveLength(1);
    const check = rule.checks[0]!;
    expect(check.type).toBe("condition");
    if (check.type !== "condition") return;
    expect(check.when).toMatch(/!= event\.released_by/);
    for (const [t, v] of cases.slice(6)) expect([t.id, verdictOn(found.ir, t.id)]).toEqual([t.id, v]);
  });
});
