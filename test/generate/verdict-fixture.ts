/**
 * A one-rule spec whose phrase reading is wrong and whose labels leave two readings: the door
 * assistant (the fixture of synthesize.test.ts), shared by the verdict-question tests (issue 25).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import type { RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import type { VerdictQuestion } from "../../compiler/generate/types.js";
import { withAnswer } from "../../compiler/generate/verdicts.js";
import type { Trajectory } from "../../runtime/types.js";

export const DOORS_SPEC = `---
name: doors
description: Rules for the door assistant.
---
The assistant answers the doorbell.

## Verify before opening

Visitors are let in only after they have been checked.
`;
const parsed = parseBehaviorMd(DOORS_SPEC);
if (!parsed.ok) throw new Error("spec");
export const spec = parsed.spec;
export const RULE = "Verify before opening";

/** One step of a sample: who acts, the action, its metadata. */
export type Step = [Trajectory["events"][number]["actor"], string, Record<string, string>?];
/** A complete sample of these steps, its events numbered e1, e2, … */
export function session(id: string, ...steps: Step[]): Trajectory {
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
export const samples = [
  session("verified-then-open", ["user", "message"], ...verify, unlock, lock),
  session("open-unverified", ["user", "message"], unlock, ...verify, lock),
  session("lock-only", ["user", "message"], lock),
  session("open-no-check", ["user", "message"], unlock, lock),
  session("verified-no-open", ["user", "message"], ...verify, lock),
  session("verified-open-twice", ["user", "message"], ...verify, unlock, lock, unlock, lock),
];
export const truth: Record<string, "true" | "false" | "na"> = {
  "verified-then-open": "true",
  "open-unverified": "false",
  "lock-only": "na",
  "open-no-check": "false",
  "verified-no-open": "na",
  "verified-open-twice": "true",
};
/** Two labels: the readings that fit them disagree on an unlabeled sample. */
export const TWO_LABELED = ["verified-then-open", "open-unverified"];
export const labelsFor = (ids: string[]): RuleLabels => Object.fromEntries(ids.map((id) => [id, { [RULE]: truth[id]! }]));
export const vocabulary = buildVocabulary(samples);
export const draft = (labels?: RuleLabels) => draftOffline({ spec, vocabulary, samples, ...(labels !== undefined ? { labels } : {}) });
/** The rule's verdict on each sample, by the judge's code. */
export function verdicts(ir: JudgeIR): Record<string, string> {
  const rule = previewJudge(ir, samples).rules[0]!;
  return Object.fromEntries(
    samples.map((s) => [s.id, rule.rule.pass.includes(s.id) ? "true" : rule.rule.fail.includes(s.id) ? "false" : "na"]),
  );
}

/** A folder with the spec and the samples, the two of TWO_LABELED as labeled cases. */
export function doorsProject(): { dir: string; spec: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "bj-ask-"));
  const spec = join(dir, "BEHAVIOR.md");
  writeFileSync(spec, DOORS_SPEC);
  const cases = samples.map((s) =>
    TWO_LABELED.includes(s.id) ? { trajectory: s, expected: { verdict: truth[s.id], metaBehaviorVerdicts: { [RULE]: truth[s.id] } } } : s,
  );
  const file = join(dir, "samples.json");
  writeFileSync(file, JSON.stringify(cases));
  return { dir, spec, files: [file] };
}

/**
 * The verdict questions asked, in order, when every one is answered truly (as verdictAsking asks:
 * at most three a rule), starting from the labels of `ids`.
 */
export function truthfulQuestions(ids: string[]): VerdictQuestion[] {
  let labels = labelsFor(ids);
  const asked: VerdictQuestion[] = [];
  for (let q = draft(labels).questions?.[0]; q !== undefined && asked.length < 3; q = draft(labels).questions?.[0]) {
    asked.push(q);
    labels = withAnswer(labels, q, truth[q.sample]!);
  }
  return asked;
}
