/**
 * The benchmark's "flagged" measure (test/support/flagged.ts): a draft's rule verdict that
 * disagrees with its hand label counts as flagged only when the preview warns about the rule,
 * or about a clause that decides that verdict on that sample.
 */
import { describe, expect, it } from "vitest";
import { previewJudge } from "../../compiler/generate/preview.js";
import { parseJudgeYaml } from "../../compiler/ir/parse.js";
import type { Trajectory } from "../../runtime/types.js";
import { agreeingRules, falseAlarms, flaggedDisagreements, type LabeledSample } from "../support/flagged.js";

function trajectory(id: string, events: (string | [string, Record<string, string>])[]): Trajectory {
  return {
    id,
    description: "",
    complete: true,
    events: events.map((e, i) => {
      const [head, metadata] = typeof e === "string" ? [e, undefined] : e;
      const [actor, action] = head.split(" ") as [Trajectory["events"][number]["actor"], string];
      return { id: `e${i + 1}`, actor, action, ...(metadata !== undefined ? { metadata } : {}) };
    }),
  };
}

const samples = [
  trajectory("ok", ["user message", "agent lookup", ["tool lookup_result", { status: "found" }], "agent refund", "agent reply"]),
  trajectory("no-lookup", ["user message", "agent refund", "agent reply"]),
  trajectory("chat", ["user message", "agent reply"]),
];

/** The preview of a one-rule judge named "R", from the YAML of its metaBehaviors entry. */
function preview(ruleYaml: string) {
  const indented = ruleYaml.replace(/^/gm, "    ").replace(/^ {4}/, "  - name: R\n    ");
  const parsed = parseJudgeYaml(`version: 1\nbehavior: b\nmetaBehaviors:\n${indented}\n`);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return previewJudge(parsed.ir, samples);
}

function labels(byId: Record<string, string>): LabeledSample[] {
  return Object.entries(byId).map(([id, label]) => ({ id, labels: { R: label } }));
}

const lookupFirst = `trigger: { description: A refund., match: { action: refund } }
checks:
  - { type: ordering, quote: q, first: { action: lookup_result }, before: { action: refund } }`;

describe("flaggedDisagreements", () => {
  it("lists only the verdicts that disagree; a missing label is a disagreement", () => {
    const p = preview(lookupFirst);
    expect(flaggedDisagreements(p, labels({ ok: "true", "no-lookup": "false", chat: "na" }))).toEqual([]);
    const [missing] = flaggedDisagreements(p, [{ id: "ok", labels: {} }]);
    expect(missing).toMatchObject({ sample: "ok", draft: "true", label: "missing" });
  });

  it("a failing check the preview says nothing about is a disagreement nobody is warned of", () => {
    const p = preview(lookupFirst);
    expect(p.rules[0]!.warnings).toEqual([]);
    const found = flaggedDisagreements(p, labels({ ok: "true", "no-lookup": "true", chat: "na" }));
    expect(found).toEqual([
      {
        rule: "R",
        sample: "no-lookup",
        draft: "false",
        label: "true",
        deciding: [{ kind: "check", index: 0 }],
        warnings: [],
        flagged: false,
      },
    ]);
  });

  it("a warning about the whole rule flags every disagreement of the rule", () => {
    const p = preview(`trigger: { description: The agent acts., match: { actor: agent } }
checks:
  - { type: forbidden, quote: q, match: { action: reply } }`);
    const found = flaggedDisagreements(p, labels({ ok: "true", "no-lookup": "false", chat: "true" }));
    expect(found.map((d) => [d.sample, d.flagged, d.warnings.map((w) => w.kind)])).toEqual([
      ["ok", true, ["fails-every-sample", "fails-every-sample"]],
      ["chat", true, ["fails-every-sample", "fails-every-sample"]],
    ]);
  });

  it("a rule that is n.a. everywhere because its trigger is semantic is flagged by never-judged", () => {
    const p = preview(`trigger: { description: A refund is discussed., semantic: true }
semanticChecks:
  - { quote: q, question: Was the order looked up first? }`);
    const found = flaggedDisagreements(p, labels({ ok: "true", "no-lookup": "false", chat: "na" }));
    expect(found.map((d) => [d.sample, d.draft, d.deciding, d.flagged, d.warnings.map((w) => w.kind)])).toEqual([
      ["ok", "na", [{ kind: "trigger" }], true, ["never-judged"]],
      ["no-lookup", "na", [{ kind: "trigger" }], true, ["never-judged"]],
    ]);
  });

  it("a warning about another check of the rule does not flag the check that decided", () => {
    const p = preview(`${lookupFirst}
  - { type: required, quote: q, match: { action: send_email }, after: { action: escalate } }`);
    const kinds = p.rules[0]!.warnings.map((w) => [w.kind, w.clause]);
    expect(kinds).toContainEqual(["window-never-opens", { kind: "check", index: 1 }]);
    expect(kinds.every(([, ref]) => JSON.stringify(ref) === JSON.stringify({ kind: "check", index: 1 }))).toBe(true);
    const [d] = flaggedDisagreements(p, labels({ ok: "true", "no-lookup": "true", chat: "na" }));
    expect(d).toMatchObject({ sample: "no-lookup", deciding: [{ kind: "check", index: 0 }], warnings: [], flagged: false });
  });

  it("a trigger warning flags a verdict where the rule should not apply, not one its checks got wrong", () => {
    const p = preview(`trigger: { description: A refund., match: [{ action: refund }, { action: refund_all }] }
checks:
  - { type: ordering, quote: q, first: { action: lookup_result }, before: { action: refund } }`);
    expect(p.rules[0]!.warnings.map((w) => [w.kind, w.clause.kind])).toEqual([["unused-action", "trigger"]]);
    const [shouldNotApply] = flaggedDisagreements(p, labels({ ok: "na" }));
    expect(shouldNotApply).toMatchObject({ draft: "true", deciding: [{ kind: "trigger" }, { kind: "check", index: 0 }], flagged: true });
    const [wrongCheck] = flaggedDisagreements(p, labels({ ok: "false" }));
    expect(wrongCheck).toMatchObject({ draft: "true", deciding: [{ kind: "check", index: 0 }], flagged: false });
  });

  it("where the trigger fired and every clause was n.a., each clause decides", () => {
    const p = preview(`trigger: { description: The agent acts., match: { actor: agent } }
checks:
  - { type: required, quote: q, match: { action: send_email }, after: { action: escalate } }`);
    const [d] = flaggedDisagreements(p, labels({ ok: "true" }));
    expect(d).toMatchObject({ draft: "na", deciding: [{ kind: "check", index: 0 }], flagged: true });
    expect(d!.warnings.map((w) => w.kind)).toContain("window-never-opens");
  });
});

describe("flaggedDisagreements with a check counting the wrong action", () => {
  const sessions = [
    trajectory("first-try", ["agent verify_identity", "agent open_account"]),
    trajectory("eligibility", ["agent verify_identity", "agent check_eligibility", "agent open_account"]),
  ];
  const judge = (action: string) => {
    const parsed = parseJudgeYaml(`version: 1
behavior: b
metaBehaviors:
  - name: R
    trigger: { description: d, match: { action: ${action} } }
    checks:
      - { type: count, quote: "the identity check is not run more than three times", match: { action: ${action} }, max: 3 }
`);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
    return parsed.ir;
  };

  it("where the trigger matches the counted action, the warning flags the samples the rule should have judged", () => {
    const found = flaggedDisagreements(
      previewJudge(judge("check_eligibility"), sessions),
      labels({ "first-try": "true", eligibility: "true" }),
    );
    expect(found.map((d) => [d.sample, d.draft, d.deciding, d.flagged, d.warnings.map((w) => w.kind)])).toEqual([
      ["first-try", "na", [{ kind: "trigger" }], true, ["quote-names-other-action"]],
    ]);
  });

  it("the same rule on the action the quote names draws no warning", () => {
    expect(previewJudge(judge("verify_identity"), sessions).rules[0]!.warnings).toEqual([]);
  });
});

describe("falseAlarms", () => {
  const forbidReply = `trigger: { description: The agent acts., match: { actor: agent } }
checks:
  - { type: forbidden, quote: q, match: { action: reply } }`;

  it("is a rule with a warning whose verdicts agree with every label", () => {
    const p = preview(forbidReply);
    expect(p.rules[0]!.warnings.length).toBeGreaterThan(0);
    const agree = labels({ ok: "false", "no-lookup": "false", chat: "false" });
    expect(falseAlarms(p, agree).map((a) => a.rule)).toEqual(["R"]);
    expect(agreeingRules(p, agree).map((r) => r.name)).toEqual(["R"]);
  });

  it("is not a rule that disagrees somewhere, nor one without a warning", () => {
    expect(falseAlarms(preview(forbidReply), labels({ ok: "true", "no-lookup": "false", chat: "false" }))).toEqual([]);
    const quiet = preview(lookupFirst);
    expect(quiet.rules[0]!.warnings).toEqual([]);
    expect(falseAlarms(quiet, labels({ ok: "true", "no-lookup": "false", chat: "na" }))).toEqual([]);
  });
});
