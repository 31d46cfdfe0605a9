/**
 * A draft that fits every label given may still leave untied a check its words tie (issue 25,
 * synthesize-tied.ts). At a bicycle workshop's counter, "the most recent `test_brakes` response
 * for the frame number of the bike handed back" is read from the words alone as the latest brake
 * test of any bike; six labels, each on a session with one bike, fit that reading and the tied one
 * alike. The tied one, on the key the words name, is kept when it fits every label and judges an
 * unlabeled session otherwise: a bike handed back on another bike's passed test.
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import type { RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import type { Trajectory, TrajectoryEvent } from "../../runtime/types.js";

const parsed = parseBehaviorMd(`---
name: bike-workshop
description: Rules for a bicycle repair workshop's counter.
---
The workshop tests brakes (\`test_brakes\`) and hands repaired bikes back to their owners (\`hand_back\`).

## Brakes tested

Before a bike is handed back, the most recent \`test_brakes\` response for the frame number of the bike handed back must return \`brakes: ok\`.
`);
if (!parsed.ok) throw new Error("spec");
const spec = parsed.spec;
const RULE = "Brakes tested";

type Step = [action: "test_brakes" | "hand_back", frame: string, brakes?: "ok" | "worn"];
/** A session of steps on frames; a brake test comes back with its finding. */
function session(id: string, ...steps: Step[]): Trajectory {
  const events: TrajectoryEvent[] = [{ id: "e0", actor: "user", action: "message", content: "I'm here to pick up my bike" }];
  for (const [action, frame, brakes] of steps) {
    events.push({ id: `e${events.length}`, actor: "agent", action, metadata: { frame } });
    if (brakes !== undefined)
      events.push({ id: `e${events.length}`, actor: "tool", action: "test_brakes_result", metadata: { frame, brakes } });
  }
  return { id, description: "", complete: true, events };
}

type Verdict = "true" | "false" | "na";
const cases: [Trajectory, Verdict][] = [
  [session("ok", ["test_brakes", "F1", "ok"], ["hand_back", "F1"]), "true"],
  [session("worn", ["test_brakes", "F2", "worn"], ["hand_back", "F2"]), "false"],
  [session("untested", ["hand_back", "F3"]), "false"],
  [session("ok-2", ["test_brakes", "F4", "ok"], ["hand_back", "F4"]), "true"],
  [session("no-hand-back", ["test_brakes", "F5", "worn"]), "na"],
  [session("ok-3", ["test_brakes", "F6", "ok"], ["hand_back", "F6"]), "true"],
  // Never given as labels: the bike handed back failed its test; another bike's passed later.
  [session("other-bike", ["test_brakes", "F7", "worn"], ["test_brakes", "F8", "ok"], ["hand_back", "F7"]), "false"],
  [session("held-ok", ["test_brakes", "F9", "ok"], ["hand_back", "F9"]), "true"],
  [session("another-bike", ["test_brakes", "F10", "worn"], ["test_brakes", "F11", "ok"], ["hand_back", "F10"]), "false"],
];
const samples = cases.map(([t]) => t);
const vocabulary = buildVocabulary(samples);
const labelsOf = (given: typeof cases): RuleLabels => Object.fromEntries(given.map(([t, v]) => [t.id, { [RULE]: v }]));
const draft = (labels?: RuleLabels) => draftOffline({ spec, vocabulary, samples, ...(labels === undefined ? {} : { labels }) });
const verdictOn = (ir: JudgeIR, id: string): Verdict => {
  const rule = previewJudge(ir, samples).rules[0]!.rule;
  return rule.pass.includes(id) ? "true" : rule.fail.includes(id) ? "false" : "na";
};
const binding = (ir: JudgeIR) => {
  const check = ir.metaBehaviors[0]!.checks[0]!;
  return check.type === "condition" ? check.with?.r : undefined;
};

describe("a draft that fits every label, with a check its words tie", () => {
  it("reads the look-up of any bike from the words alone, so a bike handed back on another's test passes", () => {
    const plain = draft();
    expect(binding(plain.ir)).toEqual({ latest: [{ action: "test_brakes_result" }] });
    expect(verdictOn(plain.ir, "other-bike")).toBe("true");
  });

  it("is tied on the key the words name when the tie fits every label and judges an unlabeled session otherwise", () => {
    const found = draft(labelsOf(cases.slice(0, 6)));
    expect(binding(found.ir)).toEqual({ latest: [{ action: "test_brakes_result" }], on: "metadata.frame" });
    expect(found.ir.metaBehaviors[0]!.checks[0]!.quote).toContain("for the frame number of the bike handed back");
    for (const [t, v] of cases) expect(verdictOn(found.ir, t.id), t.id).toBe(v);
    expect(found.notes.map((n) => n.message)).toContain("re-read from the labels: agrees with 6 of the 6 labels given for this rule");
  });

  it("stays untied when a label says the untied reading is right", () => {
    // Labeled followed (a hand label may say so): the tie no longer fits every label.
    const given: typeof cases = [...cases.slice(0, 6), [cases[6]![0], "true"]];
    const found = draft(labelsOf(given));
    expect(binding(found.ir)).toEqual({ latest: [{ action: "test_brakes_result" }] });
    expect(verdictOn(found.ir, "another-bike")).toBe("true");
    expect(found.notes.map((n) => n.message)).toContain("agrees with 7 of the 7 labels given for this rule");
  });
});
