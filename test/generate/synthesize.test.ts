/**
 * Judges synthesized from labels (issue 25): draftOffline given rule verdicts for some samples
 * re-reads a rule whose phrase reading disagrees with them, by a bounded, deterministic search
 * over the samples' vocabulary; it says how the result agrees with the labels, and where the
 * readings that fit them disagree, the verdict question on that sample.
 */
import { describe, expect, it } from "vitest";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import type { Trajectory } from "../../runtime/types.js";
import type { RuleLabels } from "../../compiler/generate/offline/synthesize.js";

const parsed = parseBehaviorMd(`---
name: doors
description: Rules for the door assistant.
---
The assistant answers the doorbell.

## Verify before opening

Visitors are let in only after they have been checked.
`);
if (!parsed.ok) throw new Error("spec");
const spec = parsed.spec;
const RULE = "Verify before opening";

type Step = [Trajectory["events"][number]["actor"], string, Record<string, string>?];
function session(id: string, ...steps: Step[]): Trajectory {
  return {
    id,
    description: "",
    complete: true,
    events: steps.map(([actor, action, metadata], i) => ({ id: `e${i + 1}`, actor, action, ...(metadata ? { metadata } : {}) })),
  };
}
const verify: Step[] = [
  ["agent", "verify_identity"],
  ["tool", "verify_identity_result", { status: "verified" }],
];
const unlock: Step = ["agent", "unlock_door", { door: "front" }];
const lock: Step = ["agent", "lock_door", { door: "front" }];
const samples = [
  session("verified-then-open", ["user", "message"], ...verify, unlock, lock),
  session("open-unverified", ["user", "message"], unlock, ...verify, lock),
  session("lock-only", ["user", "message"], lock),
  session("open-no-check", ["user", "message"], unlock, lock),
  session("verified-no-open", ["user", "message"], ...verify, lock),
  session("verified-open-twice", ["user", "message"], ...verify, unlock, lock, unlock, lock),
];
const truth: Record<string, "true" | "false" | "na"> = {
  "verified-then-open": "true",
  "open-unverified": "false",
  "lock-only": "na",
  "open-no-check": "false",
  "verified-no-open": "na",
  "verified-open-twice": "true",
};
const labelsFor = (ids: string[]): RuleLabels => Object.fromEntries(ids.map((id) => [id, { [RULE]: truth[id]! }]));
const draft = (labels?: RuleLabels) =>
  draftOffline({ spec, vocabulary: buildVocabulary(samples), samples, ...(labels !== undefined ? { labels } : {}) });
const verdicts = (ir: ReturnType<typeof draft>["ir"]) => {
  const rule = previewJudge(ir, samples).rules[0]!;
  return Object.fromEntries(
    samples.map((s) => [s.id, rule.rule.pass.includes(s.id) ? "true" : rule.rule.fail.includes(s.id) ? "false" : "na"]),
  );
};

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
