/**
 * A rule no phrase rule maps is read from its words over the samples without labels (issue 25):
 * the best-scoring candidate whose matchers share the rule's words and that is plausible on the
 * samples (applies to some, passes as many as it fails, fails one). A rule that speaks of no
 * event (no backticks, names or amounts: how the agent writes) stays a question for the model.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { ROOT } from "../support/cli.js";
import { loadReferenceCase, trajectoryFiles } from "./drafting-fixtures.js";

type Labeled = { trajectory: { id: string }; expected: { metaBehaviorVerdicts: Record<string, string> } };

function noLabels(dir: string, rule: string) {
  const c = loadReferenceCase(dir);
  const draft = draftOffline({ spec: c.spec, vocabulary: c.vocabulary, samples: c.samples });
  const index = draft.ir.metaBehaviors.findIndex((r) => r.name === rule);
  const found = previewJudge(draft.ir, c.samples).rules[index]!.rule;
  const cases = trajectoryFiles(dir).flatMap((f) => JSON.parse(readFileSync(f, "utf8")) as Labeled[]);
  const verdict = (id: string) => (found.pass.includes(id) ? "true" : found.fail.includes(id) ? "false" : "na");
  const agree = cases.filter((x) => x.expected.metaBehaviorVerdicts[rule] === verdict(x.trajectory.id)).length;
  return { rule: draft.ir.metaBehaviors[index]!, notes: draft.notes.filter((n) => n.rule === index), agree, total: cases.length };
}

describe("a rule no phrase rule maps, read from its words", () => {
  it("wire-desk (in-sample) 'Only wire to a verified beneficiary': a deterministic reading that agrees on 10 of 12 cases (1 of 12 left to the model), with a note to check it", () => {
    const found = noLabels(join(ROOT, "test", "fixtures", "blind2", "wire-desk"), "Only wire to a verified beneficiary");
    expect(found.rule.checks.length).toBe(1);
    expect(found.agree).toBeGreaterThanOrEqual(10);
    expect(found.notes.map((n) => n.message)).toContainEqual(expect.stringMatching(/read from its words over the samples/));
  });

  it("kyc-onboarding 'Bad news, kindly put' (how the agent writes, no event named) stays a question for the model", () => {
    const found = noLabels(join(ROOT, "test", "fixtures", "spec", "held-out-2026", "kyc-onboarding"), "Bad news, kindly put");
    expect(found.rule.checks).toEqual([]);
  });
});
