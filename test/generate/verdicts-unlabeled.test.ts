/**
 * Verdict questions with no labels (issue 25): with samples and no label, verdictAsking asks where
 * a reading the rule's words support judges a sample otherwise than the draft; the answer is saved
 * as a labeled case and the rule re-drafted with it. An answer that confirms the draft leaves it as
 * it was; at most three answers a rule. All fail before this change: with no labels nothing was asked.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { judged, keptReading } from "../../compiler/generate/verdict-readings.js";
import { labelFileName, MAX_VERDICT_QUESTIONS_PER_RULE, verdictAsking } from "../../compiler/generate/verdicts.js";
import type { MetaBehavior } from "../../compiler/ir/types.js";
import {
  FERRY_RULE,
  ferrySamples as samples,
  ferrySpec,
  ferryTruth as truth,
  ferryVerdicts as verdicts,
  ferryVocabulary as vocabulary,
  FLOWCHART,
  WORDINGS,
} from "./unlabeled-verdict-fixture.js";

const asking = (body: string, labelsDir?: string) => {
  const spec = ferrySpec(body);
  const draft = draftOffline({ spec, vocabulary, samples });
  return { draft, asking: verdictAsking({ spec, vocabulary, samples, labels: {}, draft, labelsDir }) };
};

describe("verdict questions from no labels", () => {
  for (const [voice, body] of Object.entries(WORDINGS)) {
    it(`asks where the words' readings disagree, and an answer that confirms the draft leaves it (${voice})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "bj-unlabeled-"));
      const { draft, asking: found } = asking(body, join(dir, "labels"));
      expect(found).toBeDefined();
      const question = found!.questions[0]!;
      // The draft and the reading it is weighed against judge the sample differently; the draft says what it says.
      expect(question).toMatchObject({ rule: 0, ruleName: FERRY_RULE, fromWords: true });
      expect(question.text).toBe(`In ${question.sample}, did the agent follow "${FERRY_RULE}"? y/n/n.a.`);
      expect(question.readings.draft).not.toBe(question.readings.other);
      expect(verdicts(draft.ir)[question.sample]).toBe(question.readings.draft);
      // A person who reads the rule as the draft does: the rule stays as drafted, and the answer is a saved label.
      expect(truth[question.sample]).toBe(question.readings.draft);
      const answered = await found!.answer(question, truth[question.sample]!);
      expect(answered.draft.ir.metaBehaviors[0]).toEqual(draft.ir.metaBehaviors[0]);
      expect(answered.savedTo).toBe(join(dir, "labels", labelFileName(question.sample)));
      expect(JSON.parse(readFileSync(answered.savedTo!, "utf8")).expected.metaBehaviorVerdicts).toEqual({
        [FERRY_RULE]: truth[question.sample],
      });
      expect(answered.draft.notes.filter((n) => n.kind === "labels").map((n) => n.message)).toContain(
        "agrees with 1 of the 1 labels given for this rule",
      );
    });
  }

  it("re-drafts a misread rule with the answer that contradicts it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-unlabeled-"));
    const { draft, asking: found } = asking(FLOWCHART, join(dir, "labels"));
    const question = found!.questions[0]!;
    // The draft misreads the flowchart; the person's answer is the other reading's.
    expect(truth[question.sample]).not.toBe(question.readings.draft);
    expect(truth[question.sample]).toBe(question.readings.other);
    const answered = await found!.answer(question, truth[question.sample]!);
    expect(answered.draft.ir.metaBehaviors[0]).not.toEqual(draft.ir.metaBehaviors[0]);
    expect(verdicts(answered.draft.ir)[question.sample]).toBe(truth[question.sample]);
    // Re-drafted with the one label, the rule now judges every sample as the person would but one
    // (two vehicles, one weighed: a reading by plate is for more labels to find).
    const wrong = Object.entries(verdicts(answered.draft.ir)).filter(([id, v]) => truth[id] !== v);
    expect(wrong.length).toBeLessThan(Object.entries(verdicts(draft.ir)).filter(([id, v]) => truth[id] !== v).length);
    expect(JSON.parse(readFileSync(answered.savedTo!, "utf8")).trajectory.id).toBe(question.sample);
  });

  it("asks at most three questions a rule, then none", async () => {
    const { asking: found } = asking(FLOWCHART);
    let open = found!.questions;
    let answers = 0;
    while (open.length > 0) {
      expect(answers).toBeLessThan(MAX_VERDICT_QUESTIONS_PER_RULE);
      open = (await found!.answer(open[0]!, truth[open[0]!.sample]!)).questions;
      answers++;
    }
    expect(answers).toBeGreaterThan(0);
  });

  it("asks nothing with fewer than three samples, nor of a rule that has labels", () => {
    const spec = ferrySpec(WORDINGS.prose);
    const two = samples.slice(0, 2);
    const few = draftOffline({ spec, vocabulary, samples: two });
    expect(verdictAsking({ spec, vocabulary, samples: two, labels: {}, draft: few })).toBeUndefined();
    // With every sample labeled, no sample is left to ask about.
    const labels = Object.fromEntries(samples.map((s) => [s.id, { [FERRY_RULE]: truth[s.id]! }]));
    const all = draftOffline({ spec, vocabulary, samples, labels });
    expect(verdictAsking({ spec, vocabulary, samples, labels, draft: all })).toBeUndefined();
  });

  it("is deterministic: the same question on every run", () => {
    const first = asking(WORDINGS.shall).asking!.questions;
    expect(asking(WORDINGS.shall).asking!.questions).toEqual(first);
  });
});

describe("the reading an answer keeps (verdict-readings.ts)", () => {
  const rule = draftOffline({ spec: ferrySpec(WORDINGS.prose), vocabulary, samples }).ir.metaBehaviors[0]!;
  const forbidding: MetaBehavior = {
    ...rule,
    trigger: { description: "A weigh_vehicle event occurs.", match: [{ action: "weigh_vehicle" }] },
    checks: [
      { type: "forbidden", quote: rule.checks[0]!.quote, match: [{ action: "board_vehicle" }], after: [{ action: "weigh_vehicle" }] },
    ],
  };
  it("keeps the previous reading where it fits the labels as well as the re-draft", () => {
    // The answer confirms the previous reading; a re-draft that fits it too but reads otherwise does not replace it.
    const labels = { "weighed-then-boarded": { [FERRY_RULE]: "true" as const } };
    const previous = judged(rule, samples);
    const other = judged(
      { ...rule, checks: [{ ...rule.checks[0]!, type: "required", match: [{ action: "weigh_vehicle" }] } as never] },
      samples,
    );
    expect(other.verdicts.get("weighed-then-boarded")).toBe("true");
    const { kept, rivals } = keptReading([previous, other], labels, FERRY_RULE);
    expect(kept).toBe(previous);
    expect(rivals).toEqual([other]);
  });
  it("takes the re-draft where it fits more labels, and a plausible rival over an implausible re-draft with few labels", () => {
    const labels = { "boarded-unweighed": { [FERRY_RULE]: "false" as const } };
    const previous = judged(forbidding, samples);
    const again = judged(rule, samples);
    expect(keptReading([previous, again], labels, FERRY_RULE).kept).toBe(again);
    // A re-draft that fails every sample it applies to fits the label but is no reading of a rule samples mostly keep.
    const failsAll: MetaBehavior = {
      ...rule,
      trigger: { description: "An event occurs.", match: [{ actor: "user" }] },
      checks: [{ type: "forbidden", quote: rule.checks[0]!.quote, match: [{ actor: "user" }] }],
    };
    const implausible = judged(failsAll, samples);
    expect(keptReading([previous, implausible, again], labels, FERRY_RULE).kept).toBe(again);
  });
});
