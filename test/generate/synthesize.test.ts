/**
 * Judges synthesized from labels (issue 25): draftOffline given rule verdicts for some samples
 * re-reads a rule whose phrase reading disagrees with them, by a bounded, deterministic search
 * over the samples' vocabulary; it says how the result agrees with the labels, and where the
 * readings that fit them disagree, the verdict question on that sample.
 */
import { describe, expect, it } from "vitest";
// The door assistant: "unlocked" read as lock_door by the phrase rules, its six samples and their true verdicts.
import { RULE, draft, labelsFor, samples, truth, verdicts } from "./verdict-fixture.js";

describe("synthesis from labels", () => {
  it("finds from labels a rule the phrase reading gets wrong, and agrees with the unlabeled samples too", () => {
    const plain = draft();
    // The phrase reading takes "unlocked" for lock_door: it judges the samples wrongly.
    expect(verdicts(plain.ir)).not.toEqual(truth);
    const given = ["verified-then-open", "open-unverified", "lock-only", "verified-no-open"];
    const labeled = draft(labelsFor(given));
    const rule = labeled.ir.metaBehaviors[0]!;
    expect(rule.checks).toEqual([
      expect.objectContaining({ type: "ordering", first: [{ action: "verify_identity" }], before: [{ action: "unlock_door" }] }),
    ]);
    expect(verdicts(labeled.ir)).toEqual(truth);
    expect(labeled.notes).toContainEqual(
      expect.objectContaining({
        rule: 0,
        kind: "labels",
        message: "re-read from the labels: agrees with 4 of the 4 labels given for this rule",
      }),
    );
  });

  it("leaves a rule that already agrees with its labels as drafted, and says so", () => {
    const labeled = draft(labelsFor(["lock-only"]));
    expect(labeled.ir).toEqual(draft().ir);
    expect(labeled.notes).toContainEqual(
      expect.objectContaining({ kind: "labels", message: "agrees with 1 of the 1 labels given for this rule" }),
    );
  });

  it("asks the verdict question on an unlabeled sample where the readings that fit every label disagree", () => {
    const labeled = draft(labelsFor(["verified-then-open", "open-unverified"]));
    const messages = labeled.notes.filter((n) => n.kind === "labels").map((n) => n.message);
    const fit = messages.find((m) => /readings fit every label; they disagree on /.test(m));
    expect(fit).toBeDefined();
    const sample = /they disagree on ([^,]+)/.exec(fit!)![1]!;
    expect(samples.map((s) => s.id)).toContain(sample);
    expect(["verified-then-open", "open-unverified"]).not.toContain(sample);
    expect(messages).toContain(`In ${sample}, did the agent follow "${RULE}"? y/n/n.a. (label it to settle the reading)`);
  });

  it("is deterministic: the same labels give byte-identical drafts", () => {
    const labels = labelsFor(["verified-then-open", "open-unverified", "lock-only"]);
    expect(JSON.stringify(draft(labels))).toBe(JSON.stringify(draft(labels)));
  });
});
