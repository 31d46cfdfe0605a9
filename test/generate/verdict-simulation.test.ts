/**
 * The drafter bench's simulated interview (issue 25; bench/verdict-simulation.js): the verdict
 * questions a draft asks are answered from the hand labels through the library path the interview
 * front ends use (verdictAsking), at most k a rule, and agreement is then counted only on the
 * verdicts neither given nor asked. A pharmacy counter with two rules: the first's phrase reading
 * is read from labels, and the readings that fit two labels disagree on unlabeled samples (a
 * separating question exists); the second's draft fits every label, so it asks nothing.
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import type { RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import type { VerdictAskingOptions } from "../../compiler/generate/verdicts.js";
import { verdictAsking } from "../../compiler/generate/verdicts.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { Trajectory } from "../../runtime/types.js";
import { askFromLabels, pairKey, simulateInterview } from "../../bench/verdict-simulation.js";

const parsed = parseBehaviorMd(`---
name: counter
description: Rules for the pharmacy counter assistant.
---
The assistant serves the pharmacy counter.

## Confirm before handing over

Medicine is handed over only after the prescription has been confirmed.

## No refunds

The assistant never calls \`issue_refund\`.
`);
if (!parsed.ok) throw new Error("spec");
const spec = parsed.spec;
const CONFIRM = "Confirm before handing over";
const REFUNDS = "No refunds";

type Step = [Trajectory["events"][number]["actor"], string, Record<string, string>?];
const session = (id: string, ...steps: Step[]): Trajectory => ({
  id,
  description: "",
  complete: true,
  events: steps.map(([actor, action, metadata], i) => ({ id: `e${i + 1}`, actor, action, ...(metadata ? { metadata } : {}) })),
});
const msg: Step = ["user", "message"];
const checked = (status: string): Step[] => [
  ["agent", "check_script"],
  ["tool", "check_script_result", { status }],
];
const hand: Step = ["agent", "dispense"];
const refund: Step = ["agent", "issue_refund"];
const v = (confirm: string, refunds: string) => ({ [CONFIRM]: confirm, [REFUNDS]: refunds });
const cases = (
  [
    [session("checked-then-hand", msg, ...checked("valid"), hand), v("true", "true")],
    [session("hand-unchecked", msg, hand, ...checked("valid")), v("false", "true")],
    [session("refund-only", msg, refund), v("na", "false")],
    [session("hand-no-check", msg, hand), v("false", "true")],
    [session("checked-no-hand", msg, ...checked("valid")), v("na", "true")],
    [session("checked-hand-twice", msg, ...checked("valid"), hand, hand), v("true", "true")],
    [session("checked-hand-refund", msg, ...checked("valid"), hand, refund), v("true", "false")],
    // An expired prescription does not count: the labels given do not say so, the questions do.
    [session("invalid-then-hand", msg, ...checked("expired"), hand), v("false", "true")],
    [session("expired-then-hand-again", msg, ...checked("expired"), hand, hand), v("false", "true")],
    [session("invalid-no-hand", msg, ...checked("expired")), v("na", "true")],
  ] as [Trajectory, Record<string, string>][]
).map(([trajectory, metaBehaviorVerdicts]) => ({ trajectory, expected: { metaBehaviorVerdicts } }));
const samples = cases.map((c) => c.trajectory);
const vocabulary = buildVocabulary(samples);
const GIVEN = ["checked-then-hand", "refund-only"];
const labels: RuleLabels = Object.fromEntries(
  cases.filter((c) => GIVEN.includes(c.trajectory.id)).map((c) => [c.trajectory.id, c.expected.metaBehaviorVerdicts as RuleLabels[string]]),
);
const held = new Set(samples.map((s) => s.id).filter((id) => !GIVEN.includes(id)));

/** The library's own functions, counting the answers that went through verdictAsking. */
function library() {
  const calls = { answers: 0 };
  return {
    calls,
    verdictAsking(options: VerdictAskingOptions) {
      const asking = verdictAsking(options);
      if (asking === undefined) return undefined;
      return {
        ...asking,
        answer: (...args: Parameters<typeof asking.answer>) => {
          calls.answers++;
          return asking.answer(...args);
        },
      };
    },
    previewJudge,
  };
}

const simulate = (k: number, given: RuleLabels = labels, scored = held) => {
  const lib = library();
  const draft = draftOffline({ spec, vocabulary, samples, ...(Object.keys(given).length > 0 ? { labels: given } : {}) });
  return simulateInterview(lib, { spec, vocabulary, samples, cases, labels: given, draft, scored, k }).then((r) => ({ ...r, lib }));
};

describe("the bench's simulated interview", () => {
  it("answers the questions the draft asks from the hand labels, at most k a rule, through verdictAsking", async () => {
    const two = await simulate(2);
    expect(two.asked.map((q) => [q.rule, q.sample])).toEqual([
      [CONFIRM, "hand-no-check"],
      [CONFIRM, "invalid-then-hand"],
    ]);
    expect(two.lib.calls.answers).toBe(2);
    // The answers are the hand labels; the second corrects the draft, and the re-draft says it.
    expect(two.asked.map((q) => [q.answer, q.draftRight, q.finalRight])).toEqual([
      ["false", true, true],
      ["false", false, true],
    ]);
    // The rule whose draft fits every label given asks nothing; the other asked k.
    expect(two.rules).toEqual([
      { name: CONFIRM, questions: 2, fitsEvery: true, wrong: 1 },
      { name: REFUNDS, questions: 0, fitsEvery: true, wrong: 0 },
    ]);
    expect((await simulate(1)).asked).toHaveLength(1);
    expect((await simulate(0)).asked).toHaveLength(0);
  });

  it("scores no verdict that was given or asked, and every other verdict of the samples scored", async () => {
    const two = await simulate(2);
    const left = new Set([
      ...GIVEN.flatMap((id) => [pairKey(id, CONFIRM), pairKey(id, REFUNDS)]),
      ...two.asked.map((q) => pairKey(q.sample, q.rule)),
    ]);
    const expected = [...held].flatMap((id) => [pairKey(id, CONFIRM), pairKey(id, REFUNDS)]).filter((p) => !left.has(p));
    // Scored on every sample, given ones too: the labels given are still left out.
    const everywhere = await simulate(2, labels, new Set(samples.map((s) => s.id)));
    for (const result of [two, everywhere]) {
      expect(result.before.pairs).toEqual(expected);
      expect(result.after.pairs).toEqual(expected);
    }
    // The answer about invalid-then-hand moves the rule on the expired sample nobody was asked about.
    expect([two.before.agree, two.after.agree, two.after.total]).toEqual([13, 14, 14]);
    // With one question, invalid-then-hand is not asked, so it is scored (and the draft is wrong there).
    const one = await simulate(1);
    expect(one.after.pairs).toContain(pairKey("invalid-then-hand", CONFIRM));
    expect([one.before.agree, one.after.agree, one.after.total]).toEqual([13, 13, 15]);
  });

  it("asks nothing from no labels (the draft has no question) and skips a question the oracle cannot answer", async () => {
    const none = await simulate(2, {}, new Set(samples.map((s) => s.id)));
    expect(none.asked).toEqual([]);
    expect(none.lib.calls.answers).toBe(0);
    expect(none.before).toEqual(none.after);
    expect(none.after.total).toBe(samples.length * 2);
    const lib = library();
    const draft = draftOffline({ spec, vocabulary, samples, labels });
    const skipped = await askFromLabels(lib, { spec, vocabulary, samples, labels, draft, oracle: () => undefined, k: 2 });
    expect(skipped.asked).toEqual([]);
    expect(skipped.draft).toBe(draft);
    expect(lib.calls.answers).toBe(0);
  });
});
