/**
 * The search from labels over the extended rule language (issue 25, docs/FORMATS.md §10): on a
 * labeled fixture whose rules need a threshold and a correlation, half the labels find the
 * readings no phrase rule maps right; the threshold the sentence writes wins over a cut between
 * sample values that fits the labels as well; the search is deterministic and stays within its
 * budget (counted in candidates and readings); and its own evaluation of every candidate form
 * gives the verdicts of the judge's generated code.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { buildLexicon } from "../../compiler/generate/offline/lexicon.js";
import {
  candidateVerdicts,
  roundestIn,
  synthesizeRule,
  type RuleLabels,
  type Verdict,
} from "../../compiler/generate/offline/synthesize.js";
import { checkClauses } from "../../compiler/generate/preview-eval.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import type { MetaBehavior } from "../../compiler/ir/types.js";
import { withEdgeCopies } from "./drafting-fixtures.js";

const dir = new URL("../fixtures/synthesis-extended/", import.meta.url);
const behavior = readFileSync(new URL("BEHAVIOR.md", dir), "utf8");
const cases = JSON.parse(readFileSync(new URL("trajectories/cases.json", dir), "utf8")) as {
  trajectory: unknown;
  expected: { metaBehaviorVerdicts: Record<string, Verdict> };
}[];
const samples = cases.map((c) => validateTrajectory(c.trajectory));
const truth = (id: string) => cases[samples.findIndex((s) => s.id === id)]!.expected.metaBehaviorVerdicts;
const REFUNDS = "Large refunds need a supervisor";
const CANCELS = "Cancel only what was looked up";

function specOf(text: string) {
  const parsed = parseBehaviorMd(text);
  if (!parsed.ok) throw new Error("spec");
  return parsed.spec;
}
const spec = specOf(behavior);
/** The labels of the cases at even positions: half of them. */
const half: RuleLabels = Object.fromEntries(
  cases.filter((_, i) => i % 2 === 0).map((c, i) => [samples[2 * i]!.id, c.expected.metaBehaviorVerdicts]),
);
const draft = (labels?: RuleLabels, s = spec) =>
  draftOffline({ spec: s, vocabulary: buildVocabulary(samples), samples, ...(labels !== undefined ? { labels } : {}) });
const verdictsOf = (ir: ReturnType<typeof draft>["ir"], name: string) => {
  const rule = previewJudge(ir, samples).rules.find((r) => r.name === name)!;
  return Object.fromEntries(
    samples.map((s) => [s.id, rule.rule.pass.includes(s.id) ? "true" : rule.rule.fail.includes(s.id) ? "false" : "na"]),
  );
};
const truthOf = (name: string) => Object.fromEntries(samples.map((s) => [s.id, truth(s.id)[name]!]));
const ruleNamed = (ir: ReturnType<typeof draft>["ir"], name: string) => ir.metaBehaviors.find((r) => r.name === name)!;

describe("the search from labels tries the extended forms", () => {
  it("finds a refund over the sentence's 500 and the same reservation from half the labels, where the phrase reading is wrong", () => {
    const plain = draft();
    expect(verdictsOf(plain.ir, REFUNDS)).not.toEqual(truthOf(REFUNDS));
    expect(verdictsOf(plain.ir, CANCELS)).not.toEqual(truthOf(CANCELS));
    const labeled = draft(half);
    expect(ruleNamed(labeled.ir, REFUNDS).checks).toEqual([
      expect.objectContaining({
        type: "ordering",
        first: [{ action: expect.stringMatching(/^ask_supervisor/) }],
        // 500 as the sentence writes it, not the cut at 480 the samples allow as well.
        before: [{ action: "issue_refund", metadata: { amount: { gt: 500 } } }],
      }),
    ]);
    expect(ruleNamed(labeled.ir, CANCELS).checks).toEqual([
      expect.objectContaining({
        type: "ordering",
        first: [{ action: expect.stringMatching(/^lookup_reservation/) }],
        before: [{ action: "cancel_reservation" }],
        on: "metadata.reservation_id",
      }),
    ]);
    // Right on the cases whose labels were not given, too.
    expect(verdictsOf(labeled.ir, REFUNDS)).toEqual(truthOf(REFUNDS));
    expect(verdictsOf(labeled.ir, CANCELS)).toEqual(truthOf(CANCELS));
  });

  it("takes a threshold from the samples' values when the sentence writes none", () => {
    const wordless = specOf(behavior.replace("A refund bigger than 500", "A big refund"));
    const labeled = draft(half, wordless);
    const check = ruleNamed(labeled.ir, REFUNDS).checks[0]!;
    expect(check).toMatchObject({ type: "ordering", before: [{ action: "issue_refund" }] });
    const amount = (check.type === "ordering" ? check.before[0]!.metadata?.amount : undefined) as Record<string, number>;
    // A cut between the values the samples show (480 below, 520 above), not the sentence's number.
    expect(Object.keys(amount)).toHaveLength(1);
    const [op, bound] = Object.entries(amount)[0]!;
    expect(op === "gt" ? bound >= 480 && bound < 520 : op === "gte" && bound > 480 && bound <= 520).toBe(true);
    expect(verdictsOf(labeled.ir, REFUNDS)).toEqual(truthOf(REFUNDS));
  });

  it("takes no cut between sample values where the words speak of no size and name no such key", () => {
    // The same labels, for a rule that says nothing of how big a refund is: no threshold from the samples.
    const sizeless = specOf(
      behavior
        .replace("## Large refunds need a supervisor", "## Refunds need a supervisor")
        .replace("A refund bigger than 500", "A refund"),
    );
    const renamed: RuleLabels = Object.fromEntries(
      Object.entries(half).map(([id, v]) => [id, { ...v, "Refunds need a supervisor": v[REFUNDS]! }]),
    );
    const rule = ruleNamed(draft(renamed, sizeless).ir, "Refunds need a supervisor");
    expect(JSON.stringify(rule.checks)).not.toContain('"amount"');
  });

  it("reads 'that booking' as the same key rather than a fresh lookup when the labels fit both", () => {
    // Labels that no plain reading fits and that do not tell `on:` from `fresh` apart.
    const odd: RuleLabels = Object.fromEntries(
      ["cancel-looked-up", "cancel-unlooked", "two-cancels-one-looked", "cancel-looked-up-twice", "cancel-no-refund"].map((id) => [
        id,
        truth(id),
      ]),
    );
    const labeled = draft(odd);
    expect(ruleNamed(labeled.ir, CANCELS).checks).toEqual([
      expect.objectContaining({ type: "ordering", before: [{ action: "cancel_reservation" }], on: "metadata.reservation_id" }),
    ]);
    expect(labeled.notes).toContainEqual(
      expect.objectContaining({
        kind: "labels",
        message: expect.stringMatching(/readings fit every label; they disagree on .*cancel-other/),
      }),
    );
  });

  it("is deterministic: two runs give byte-identical drafts", () => {
    expect(JSON.stringify(draft(half))).toBe(JSON.stringify(draft(half)));
  });
});

describe("the search's budget", () => {
  const vocabulary = buildVocabulary(samples);
  const lexicon = buildLexicon(vocabulary, samples);
  const plain = draft();
  const rule = ruleNamed(plain.ir, CANCELS);
  const section = spec.sections.find((s) => s.heading === CANCELS)!.body;
  const search = (budget?: { candidates: number; readings: number }) =>
    synthesizeRule(lexicon, rule, section, [section], samples, half, budget);

  it("counts what it tried and never goes past the budget", () => {
    const full = search();
    expect(full.agree).toBe(full.total);
    expect(full.searched.candidates).toBeGreaterThan(0);
    expect(full.searched.candidates).toBeLessThanOrEqual(4000);
    expect(full.searched.readings).toBeLessThanOrEqual(60000);
    for (const budget of [
      { candidates: 40, readings: 100000 },
      { candidates: 4000, readings: 150 },
    ]) {
      const cut = search(budget);
      expect(cut.searched.candidates).toBeLessThanOrEqual(budget.candidates);
      expect(cut.searched.readings).toBeLessThanOrEqual(budget.readings);
    }
  });

  it("does not reach the correlated reading within a budget too small for it", () => {
    const cut = search({ candidates: 4000, readings: 20 });
    expect(cut.searched.readings).toBe(20);
    expect(JSON.stringify(cut.rule.checks)).not.toContain("reservation_id");
  });
});

describe("the search's evaluation of each form agrees with the judge's generated code", () => {
  // Incomplete copies, and copies without their ids, for the na and missing-key cases.
  const all = withEdgeCopies(samples, ["reservation_id"]);
  const lexicon = buildLexicon(buildVocabulary(all), all);
  const plain = draft();

  it.each([REFUNDS, CANCELS])("on every kind of candidate of %s", (name) => {
    const rule: MetaBehavior = ruleNamed(plain.ir, name);
    const section = spec.sections.find((s) => s.heading === name)!.body;
    const found = candidateVerdicts(lexicon, rule, section, all);
    // A few of each form (type and extensions), in the search's order.
    const kinds = new Map<string, number>();
    const picked = found.filter(({ check }) => {
      const c = check as unknown as Record<string, unknown>;
      const values =
        JSON.stringify(check)
          .match(/"(gt|gte|lt|lte|in|not)"/g)
          ?.join() ?? "";
      const kind = [check.type, ...["on", "fresh", "within", "per", "sum", "after", "max"].filter((k) => c[k] !== undefined), values].join(
        " ",
      );
      const n = kinds.get(kind) ?? 0;
      kinds.set(kind, n + 1);
      return n < 4;
    });
    const forms = new Set([...kinds.keys()].map((k) => k.split(" ").slice(0, 2).join(" ")));
    for (const form of [
      "ordering on",
      "ordering fresh",
      "pairing on",
      "pairing within",
      "required on",
      "forbidden on",
      "count per",
      // A condition tests a category of the bound event: the bookings of "Cancel only what was
      // looked up" carry only ids, which the search does not test values of.
      ...(name === REFUNDS ? ["condition"] : []),
    ])
      expect([...forms].some((f) => f.startsWith(form))).toBe(true);
    // The combined forms: a fresh confirmation of the same thing, a prompt follower of the same thing, totals.
    for (const combined of ["ordering on fresh", "pairing on within", "count sum"])
      expect([...kinds.keys()].some((k) => k.startsWith(combined)) || name !== REFUNDS).toBe(true);
    for (const { check, verdicts } of picked) {
      const code = all.map((s) => checkClauses([check], s)[0]!.verdict);
      expect({ check, verdicts }).toEqual({ check, verdicts: code });
    }
  });
});

describe("cuts between sample values", () => {
  it("fall on the roundest number of their gap", () => {
    expect(roundestIn(480, 520)).toBe(500);
    expect(roundestIn(480, 650)).toBe(500);
    expect(roundestIn(120, 200)).toBe(150);
    expect(roundestIn(3, 4)).toBe(3);
    expect(roundestIn(0.31, 0.4)).toBe(0.35);
  });
});
