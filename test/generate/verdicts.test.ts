/**
 * Verdict questions from the library (issue 25): draftOffline with labels returns the question
 * that separates the readings fitting every label; the answer, added to the labels, re-chooses
 * the draft among the readings that agree with it, and verdictAsking saves it as a labeled case
 * that the next run reads back.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadLabeledSamples } from "../../compiler/generate/samples.js";
import { labelFileName, readVerdictAnswer, saveLabel, verdictAsking, withAnswer } from "../../compiler/generate/verdicts.js";
import { parseBehaviorMd, type SpecSection } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { draftUpdate, planUpdate } from "../../compiler/generate/update.js";
import {
  DOORS_SPEC,
  draft,
  labelsFor,
  RULE,
  samples,
  spec,
  truth,
  truthfulQuestions,
  TWO_LABELED,
  verdicts,
  vocabulary,
} from "./verdict-fixture.js";

describe("verdict questions from draftOffline", () => {
  it("returns the question on an unlabeled sample where the readings that fit every label disagree", () => {
    expect(draft().questions).toBeUndefined();
    const labeled = draft(labelsFor(TWO_LABELED));
    expect(labeled.questions).toHaveLength(1);
    const question = labeled.questions![0]!;
    expect(question).toMatchObject({ rule: 0, ruleName: RULE });
    expect(TWO_LABELED).not.toContain(question.sample);
    expect(question.text).toBe(`In ${question.sample}, did the agent follow "${RULE}"? y/n/n.a.`);
    // The two readings judge the sample differently, and the draft says what its reading says.
    expect(question.readings.draft).not.toBe(question.readings.other);
    expect(verdicts(labeled.ir)[question.sample]).toBe(question.readings.draft);
  });

  it("re-chooses the draft among the readings that agree with the answer", () => {
    const labels = labelsFor(TWO_LABELED);
    const question = draft(labels).questions![0]!;
    // The runner-up's verdict as the answer: the draft now says it, and still fits the labels given.
    const other = draft(withAnswer(labels, question, question.readings.other));
    expect(verdicts(other.ir)[question.sample]).toBe(question.readings.other);
    for (const id of TWO_LABELED) expect(verdicts(other.ir)[id]).toBe(truth[id]);
    // The true answer: the draft agrees with it; a question that follows is about another sample.
    const settled = draft(withAnswer(labels, question, truth[question.sample]!));
    expect(verdicts(settled.ir)[question.sample]).toBe(truth[question.sample]);
    expect(settled.notes.filter((n) => n.kind === "labels").map((n) => n.message)).toContain(
      "re-read from the labels: agrees with 3 of the 3 labels given for this rule",
    );
    for (const next of settled.questions ?? []) expect([...TWO_LABELED, question.sample]).not.toContain(next.sample);
  });

  it("answered truly until no question is left, the rule judges every sample as the person would", () => {
    const asked = truthfulQuestions(TWO_LABELED);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.length).toBeLessThanOrEqual(3);
    const labels = asked.reduce((l, q) => withAnswer(l, q, truth[q.sample]!), labelsFor(TWO_LABELED));
    expect(draft(labels).questions).toBeUndefined();
    expect(verdicts(draft(labels).ir)).toEqual(truth);
  });

  it("reads y / n / n.a. answers", () => {
    expect(["y", "Yes", "n", "no", "n.a.", "na", "n/a", "skip", ""].map(readVerdictAnswer)).toEqual([
      "true",
      "true",
      "false",
      "false",
      "na",
      "na",
      "na",
      undefined,
      undefined,
    ]);
  });
});

describe("verdict questions under generate --update", () => {
  it("a rule the update drafts whole carries its question, at its index in the whole judge, and answering it re-drafts that rule", async () => {
    // The spec gains the doors rule after one the previous judge.yaml already had.
    const parsedSpec = parseBehaviorMd(
      DOORS_SPEC.replace("## Verify before opening", "## Lock up\n\nThe assistant locks the front door.\n\n## Verify before opening"),
    );
    if (!parsedSpec.ok) throw new Error("spec");
    const updatedSpec = parsedSpec.spec;
    const lockUp = draftOffline({ spec: updatedSpec, vocabulary, samples }, [updatedSpec.sections[0]!]).ir.metaBehaviors[0]!;
    const plan = planUpdate(updatedSpec, { version: 1, behavior: "doors", metaBehaviors: [lockUp] });
    expect(plan.sections.map((s) => s.kind)).toEqual(["unchanged", "added"]);
    const labels = labelsFor(TWO_LABELED);
    const drafter = async (sections: readonly SpecSection[]) => ({
      draft: draftOffline({ spec: updatedSpec, vocabulary, samples, labels }, sections),
      calls: 0,
    });
    const updated = await draftUpdate(updatedSpec, plan, drafter);
    const alone = draft(labels).questions![0]!;
    expect(updated.draft.questions).toEqual([{ ...alone, rule: 1 }]);
    // The interview asks it for the rule the update asks about, and an answer changes that rule only.
    const asking = verdictAsking({ spec: updatedSpec, vocabulary, samples, labels, draft: updated.draft, ask: updated.ask });
    expect(asking?.questions).toEqual([{ ...alone, rule: 1 }]);
    const answered = await asking!.answer(asking!.questions[0]!, alone.readings.other);
    expect(answered.draft.ir.metaBehaviors[0]).toEqual(lockUp);
    expect(verdicts({ ...answered.draft.ir, metaBehaviors: [answered.draft.ir.metaBehaviors[1]!] })[alone.sample]).toBe(
      alone.readings.other,
    );
  });
});

describe("answers kept as labeled cases", () => {
  it("saves the answer in the labels folder, re-drafts the rule, and the next run reads the label back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-verdicts-"));
    const labels = labelsFor(TWO_LABELED);
    const first = draft(labels);
    const seen: string[] = [];
    const asking = verdictAsking({
      spec,
      vocabulary,
      samples,
      labels,
      draft: first,
      labelsDir: join(dir, "labels"),
      onDraft: (d) => seen.push(JSON.stringify(verdicts(d.ir))),
    })!;
    expect(asking.questions).toEqual(first.questions);
    const question = asking.questions[0]!;
    const answered = await asking.answer(question, truth[question.sample]!);
    expect(answered.savedTo).toBe(join(dir, "labels", labelFileName(question.sample)));
    expect(verdicts(answered.draft.ir)[question.sample]).toBe(truth[question.sample]);
    expect(answered.questions).toEqual(draft(withAnswer(labels, question, truth[question.sample]!)).questions ?? []);
    expect(answered.draft.notes.filter((n) => n.kind === "labels").map((n) => n.message)[0]).toBe(
      "re-read from the labels: agrees with 3 of the 3 labels given for this rule",
    );
    expect(seen).toEqual([JSON.stringify(verdicts(answered.draft.ir))]);
    const saved = JSON.parse(readFileSync(answered.savedTo!, "utf8"));
    expect(saved.expected).toEqual({ verdict: truth[question.sample], metaBehaviorVerdicts: { [RULE]: truth[question.sample] } });
    expect(saved.trajectory.id).toBe(question.sample);
    // The samples given again with the labels folder: one sample each, the answer a label.
    const all = join(dir, "samples.json");
    writeFileSync(all, JSON.stringify(samples));
    const loaded = await loadLabeledSamples([all, answered.savedTo!]);
    expect(loaded.samples.map((s) => s.id)).toEqual(samples.map((s) => s.id));
    expect(loaded.labels).toEqual({ [question.sample]: { [RULE]: truth[question.sample] } });
  });

  it("adds to a sample's labeled case instead of replacing it, and never overwrites another file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-verdicts-"));
    const sample = samples[0]!;
    const path = await saveLabel(dir, sample, "One rule", "true");
    expect(await saveLabel(dir, sample, "Another rule", "na")).toBe(path);
    expect(JSON.parse(readFileSync(path, "utf8")).expected).toEqual({
      verdict: "true",
      metaBehaviorVerdicts: { "One rule": "true", "Another rule": "na" },
    });
    writeFileSync(path, "not json");
    const next = await saveLabel(dir, sample, "One rule", "false");
    expect(next).not.toBe(path);
    expect(readFileSync(path, "utf8")).toBe("not json");
    expect(labelFileName("a/../b c")).toMatch(/^a_\.\._b_c-[0-9a-f]{8}\.json$/);
  });
});
