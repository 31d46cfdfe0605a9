/**
 * More forms for the search from labels (issue 25, compiler/generate/offline/synthesize-forms.ts):
 * on a labeled fixture (test/fixtures/synthesis-forms) whose rules need a list of three values the
 * sentence writes, a comparison of the bound event's value with the judged event's own
 * (`r.amount >= event.amount`) and a key that must be absent (`{exists: false}`), half
 * the labels find the readings no phrase rule maps right; each form is tried only from the rule's
 * words and the samples, a bounded few per rule; and the search's own evaluation of each new form
 * gives the verdicts of the judge's generated code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { buildLexicon } from "../../compiler/generate/offline/lexicon.js";
import { candidateVerdicts, type RuleLabels, type Verdict } from "../../compiler/generate/offline/synthesize.js";
import { crossesOf, keyUses, listsIn, statedThresholds, unionMatchers } from "../../compiler/generate/offline/synthesize-forms.js";
import { checkClauses } from "../../compiler/generate/preview-eval.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import { ROOT } from "../support/cli.js";
import { loadReferenceCase, withEdgeCopies } from "./drafting-fixtures.js";

const dir = new URL("../fixtures/synthesis-forms/", import.meta.url);
const behavior = readFileSync(new URL("BEHAVIOR.md", dir), "utf8");
const cases = JSON.parse(readFileSync(new URL("trajectories/cases.json", dir), "utf8")) as {
  trajectory: unknown;
  expected: { metaBehaviorVerdicts: Record<string, Verdict> };
}[];
const samples = cases.map((c) => validateTrajectory(c.trajectory));
const AMOUNT = "Pay no more than claimed";
const BLOCKED = "No transfers to blocked countries";
const RECEIPTS = "Receipts on every claim";

const parsed = parseBehaviorMd(behavior);
if (!parsed.ok) throw new Error("spec");
const spec = parsed.spec;
/** The labels of the cases at odd positions: half of them. */
const half: RuleLabels = Object.fromEntries(
  cases.flatMap((c, i) => (i % 2 === 1 ? [[samples[i]!.id, c.expected.metaBehaviorVerdicts]] : [])),
);
const draft = (labels?: RuleLabels) =>
  draftOffline({ spec, vocabulary: buildVocabulary(samples), samples, ...(labels !== undefined ? { labels } : {}) });
const verdictsOf = (ir: ReturnType<typeof draft>["ir"], name: string) => {
  const rule = previewJudge(ir, samples).rules.find((r) => r.name === name)!;
  return Object.fromEntries(
    samples.map((s) => [s.id, rule.rule.pass.includes(s.id) ? "true" : rule.rule.fail.includes(s.id) ? "false" : "na"]),
  );
};
const truthOf = (name: string) => Object.fromEntries(samples.map((s, i) => [s.id, cases[i]!.expected.metaBehaviorVerdicts[name]!]));
const ruleNamed = (ir: ReturnType<typeof draft>["ir"], name: string) => ir.metaBehaviors.find((r) => r.name === name)!;

describe("the search from labels tries lists, comparisons across events and absent keys", () => {
  const plain = draft();
  const labeled = draft(half);

  it("finds the three countries the sentence lists in backticks, where the phrase reading loses `BY`", () => {
    expect(verdictsOf(plain.ir, BLOCKED)).not.toEqual(truthOf(BLOCKED));
    expect(JSON.stringify(ruleNamed(labeled.ir, BLOCKED).checks)).toContain('"country":{"in":["RU","BY","KP"]}');
    expect(verdictsOf(labeled.ir, BLOCKED)).toEqual(truthOf(BLOCKED));
  });

  it("finds a payment no larger than the claim's lookup shows: the lookup's value compared with the payment's", () => {
    expect(verdictsOf(plain.ir, AMOUNT)).not.toEqual(truthOf(AMOUNT));
    expect(ruleNamed(labeled.ir, AMOUNT).checks).toEqual([
      expect.objectContaining({
        type: "condition",
        each: [{ action: "pay_claim" }],
        with: { r: { latest: [{ action: "lookup_claim_result" }], on: "metadata.claim_id" } },
        when: "r.amount >= event.amount",
      }),
    ]);
    // Right on the cases whose labels were not given, too.
    expect(verdictsOf(labeled.ir, AMOUNT)).toEqual(truthOf(AMOUNT));
  });

  it("finds a payment without its `receipt` key", () => {
    // The words alone read it too since round 13 ("names the receipt …, in the `receipt` field of `pay_claim`": fields.ts);
    // the labels keep that reading.
    expect(verdictsOf(plain.ir, RECEIPTS)).toEqual(truthOf(RECEIPTS));
    expect(JSON.stringify(ruleNamed(labeled.ir, RECEIPTS).checks)).toContain(
      '{"action":"pay_claim","metadata":{"receipt":{"exists":false}}}',
    );
    expect(verdictsOf(labeled.ir, RECEIPTS)).toEqual(truthOf(RECEIPTS));
  });

  it("is deterministic: two runs give byte-identical drafts", () => {
    expect(JSON.stringify(draft(half))).toBe(JSON.stringify(labeled));
  });
});

describe("the new forms come from the words and the samples, a few per rule", () => {
  const lexicon = buildLexicon(buildVocabulary(samples), samples);
  const named =
    (...keys: string[]) =>
    (key: string) =>
      keys.includes(key);

  it("reads a list whose every value the sentence writes in backticks, and not one it only mentions", () => {
    const sentence = "Never to a blocked country (`country: RU`, `BY` or `KP`).";
    expect(listsIn(lexicon, `Transfers are checked first. ${sentence}`)).toEqual([
      { key: "country", values: ["RU", "BY", "KP"], sentence },
    ]);
    // One value the samples show, the others in plain prose: no list to read.
    expect(listsIn(lexicon, "Never to a blocked country (`country: RU`, Narnia or Oz).")).toEqual([]);
  });

  it("combines a list with the threshold its own sentence states, and its complement", () => {
    expect(statedThresholds("The privileged roles (`Owner` and `Admin`) are granted for 8 hours at most.")).toEqual([
      { lte: 8 },
      { gt: 8 },
    ]);
    expect(statedThresholds("No role is granted for long.")).toEqual([]);
  });

  it("compares keys the words name, text only where some session shows the two alike", () => {
    const uses = keyUses(samples);
    // Numbers compare as ordered values.
    expect(crossesOf(uses, "pay_claim", "lookup_claim_result", "claim_id", named("amount"))).toEqual(
      (["<=", ">=", "<", ">"] as const).map((op) => ({ key: "amount", op, other: "amount" })),
    );
    // No key named, nothing compared; approvers are never the employees paid here: no text to compare.
    expect(crossesOf(uses, "pay_claim", "lookup_claim_result", "claim_id", named())).toEqual([]);
    expect(crossesOf(uses, "pay_claim", "request_approval_result", "claim_id", named("approver_id"))).toEqual([]);
    const selfApproved = validateTrajectory({
      id: "self-approved",
      complete: true,
      events: [
        { id: "e1", actor: "tool", action: "request_approval_result", metadata: { claim_id: "C-1", approver_id: "E-1" } },
        { id: "e2", actor: "agent", action: "pay_claim", metadata: { claim_id: "C-1", employee_id: "E-1" } },
      ],
    });
    expect(
      crossesOf(keyUses([...samples, selfApproved]), "pay_claim", "request_approval_result", "claim_id", named("approver_id")),
    ).toEqual([
      { key: "approver_id", op: "!=", other: "employee_id" },
      { key: "approver_id", op: "==", other: "employee_id" },
    ]);
  });

  it("joins two actions into one matcher only where the words join them with and/or", () => {
    const plain = ["pay_claim", "send_transfer", "notify_employee"].map((a) => ({ m: { action: a }, r: 1 }));
    expect(unionMatchers(plain, "Every claim and every transfer is followed by a note to the employee.")).toEqual([
      { action: { in: ["pay_claim", "send_transfer"] } },
    ]);
    expect(unionMatchers(plain, "Every claim is followed by a note. A transfer needs none.")).toEqual([]);
    // A word both names share ("request") joins neither: "deny" names deny_request, nothing here names the approval.
    const requests = ["grant_access", "deny_request", "request_approval"].map((a) => ({ m: { action: a }, r: 0.5 }));
    expect(unionMatchers(requests, "Every grant and every refusal (`deny_request`) is answered for that request.")).toEqual([
      { action: { in: ["grant_access", "deny_request"] } },
    ]);
  });
});

describe("the search's evaluation of each new form agrees with the judge's generated code", () => {
  // Incomplete copies, and copies without some keys, for the na and missing-key cases.
  const all = withEdgeCopies(samples, ["employee_id", "approver_id"]);
  const lexicon = buildLexicon(buildVocabulary(all), all);
  const plain = draft();

  it.each([AMOUNT, BLOCKED, RECEIPTS])("on every new form among the candidates of %s", (name) => {
    const rule = ruleNamed(plain.ir, name);
    const section = spec.sections.find((s) => s.heading === name)!.body;
    const found = candidateVerdicts(lexicon, rule, section, all).filter(({ check }) =>
      /event\.|"exists"|"in":\[("[^"]+",){2,}/.test(JSON.stringify(check)),
    );
    expect(found.length).toBeGreaterThan(0);
    for (const { check, verdicts } of found.slice(0, 60)) {
      const code = all.map((s) => checkClauses([check], s)[0]!.verdict);
      expect({ check, verdicts }).toEqual({ check, verdicts: code });
    }
  });
});

describe("a comparison across events between events of one thing", () => {
  it("aircraft-release 'Deferrals stay inside the MEL' ('that same MEL item'): every comparison of the MEL lookup's value with the deferral's binds on the MEL item", () => {
    const c = loadReferenceCase(join(ROOT, "test", "fixtures", "blind3", "aircraft-release"));
    const name = "Deferrals stay inside the MEL";
    const rule = draftOffline({ spec: c.spec, vocabulary: c.vocabulary, samples: c.samples }).ir.metaBehaviors.find(
      (r) => r.name === name,
    )!;
    const section = c.spec.sections.find((s) => s.heading === name)!.body;
    const crosses = candidateVerdicts(buildLexicon(c.vocabulary, c.samples), rule, section, c.samples)
      .map(({ check }) => check)
      .filter((check) => check.type === "condition" && /event\./.test(check.when))
      .filter((check) =>
        /"each":\[\{"action":"defer_defect"\}\].*"latest":\[\{"action":"check_mel_result"\}\]/.test(JSON.stringify(check)),
      );
    expect(crosses.length).toBeGreaterThan(0);
    for (const check of crosses)
      expect(check.type === "condition" && Object.values(check.with ?? {}).map((b) => b.on)).toEqual(["metadata.mel_item"]);
  });
});
