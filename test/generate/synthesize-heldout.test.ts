/**
 * Labels never move the draft by accident (issue 25, synthesize.ts heldOut): a reading other than
 * the phrase reading is kept only when, made with each label left out in turn, it predicts that
 * label more often than the phrase reading agrees with it. Here a hand label says a session broke
 * the rule for a reason no check sees, and a check on an unrelated action fits it by chance.
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import type { RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import type { Trajectory } from "../../runtime/types.js";

const parsed = parseBehaviorMd(`---
name: refunds
description: Rules for the refund desk.
---
The desk looks up orders (\`lookup_order\`), issues refunds (\`issue_refund\`) and sends receipts (\`send_receipt\`).

## Look up before refunding

The agent issues a refund only after it has looked up the order.
`);
if (!parsed.ok) throw new Error("spec");
const spec = parsed.spec;
const RULE = "Look up before refunding";

const session = (id: string, ...actions: string[]): Trajectory => ({
  id,
  description: "",
  complete: true,
  events: [
    { id: "e0", actor: "user", action: "message" },
    ...actions.map((action, i) => ({ id: `e${i + 1}`, actor: "agent" as const, action, metadata: { order_id: "O1" } })),
  ],
});
const samples = [
  session("looked-up-receipt", "lookup_order", "issue_refund", "send_receipt"),
  session("not-looked-up", "issue_refund", "send_receipt"),
  session("looked-up-receipt-2", "lookup_order", "issue_refund", "send_receipt"),
  // Labeled broken by hand: the refund went to the wrong card, which no event shows.
  session("wrong-card", "lookup_order", "issue_refund"),
  session("looked-up-no-receipt", "lookup_order", "issue_refund"),
  session("looked-up-late", "issue_refund", "lookup_order", "send_receipt"),
  session("looked-up-receipt-3", "lookup_order", "issue_refund", "send_receipt"),
  session("looked-up-no-receipt-2", "lookup_order", "issue_refund"),
];
const truth: Record<string, "true" | "false"> = {
  "looked-up-receipt": "true",
  "not-looked-up": "false",
  "looked-up-receipt-2": "true",
  "wrong-card": "false",
  "looked-up-no-receipt": "true",
  "looked-up-late": "false",
  "looked-up-receipt-3": "true",
  "looked-up-no-receipt-2": "true",
};
const GIVEN = ["looked-up-receipt", "not-looked-up", "looked-up-receipt-2", "wrong-card"];
const labels: RuleLabels = Object.fromEntries(GIVEN.map((id) => [id, { [RULE]: truth[id]! }]));
const vocabulary = buildVocabulary(samples);
const draft = (l?: RuleLabels) => draftOffline({ spec, vocabulary, samples, ...(l === undefined ? {} : { labels: l }) });
const verdicts = (ir: JudgeIR) => {
  const rule = previewJudge(ir, samples).rules[0]!.rule;
  return samples.map((s) => (rule.pass.includes(s.id) ? "true" : rule.fail.includes(s.id) ? "false" : "na"));
};

describe("a reading that fits the labeled half by accident", () => {
  it("keeps the phrase draft, which the unlabeled samples agree with, and says why", () => {
    const plain = draft();
    expect(plain.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({ type: "ordering", first: [{ action: "lookup_order" }], before: [{ action: "issue_refund" }] }),
    ]);
    const labeled = draft(labels);
    // The search finds a reading that fits all four labels (a receipt required); it predicts none
    // of them better than the draft once each is left out, so the draft stays, byte for byte.
    expect(labeled.ir).toEqual(plain.ir);
    const held = samples.flatMap((s, i) => (GIVEN.includes(s.id) ? [] : [verdicts(labeled.ir)[i] === truth[s.id]]));
    expect(held.every(Boolean)).toBe(true);
    const messages = labeled.notes.filter((n) => n.kind === "labels").map((n) => n.message);
    expect(messages).toContain("agrees with 3 of the 4 labels given for this rule");
    expect(messages.some((m) => m.startsWith("a reading that fits more labels was found but not kept"))).toBe(true);
    // The reading not kept is asked about: a label on a sample where the two disagree may settle it.
    expect(labeled.questions?.[0]).toMatchObject({ ruleName: RULE, readings: { draft: "true", other: "false" } });
    expect(JSON.stringify(draft(labels))).toBe(JSON.stringify(draft(labels)));
  });

  it("moves the draft when two labels agree on what it misses: each predicts the other", () => {
    // Two sessions without a receipt labeled broken: a receipt is what the labels ask for.
    const strict = { ...labels, "looked-up-no-receipt": { [RULE]: "false" as const } };
    const labeled = draft(strict);
    expect(labeled.ir).not.toEqual(draft().ir);
    expect(labeled.notes.map((n) => n.message)).toContain("re-read from the labels: agrees with 5 of the 5 labels given for this rule");
    expect(JSON.stringify(labeled.ir)).toContain('"send_receipt"');
  });
});
