/**
 * The verdict preview (issue 14): its verdicts are the built judge's, and each
 * warning fires where it must and stays quiet where it must not.
 */
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { previewJudge, previewRule, type PreviewWarningKind, type RulePreview } from "../../compiler/generate/preview.js";
import { parseJudgeYaml } from "../../compiler/ir/parse.js";
import type { MetaBehavior } from "../../compiler/ir/types.js";
import { compileJudgeYamlText } from "../../compiler/build/compile.js";
import { importJudgeSource } from "../../compiler/run/load.js";
import type { Trajectory } from "../../runtime/types.js";
import { EXAMPLE_DIRS, HELD_OUT_2026_DIRS, loadReferenceCase } from "./drafting-fixtures.js";

/** A trajectory from compact events: "actor action" or ["actor action", {metadata}]. */
function trajectory(id: string, events: (string | [string, Record<string, string>])[], complete = true): Trajectory {
  return {
    id,
    description: "",
    complete,
    events: events.map((e, i) => {
      const [head, metadata] = typeof e === "string" ? [e, undefined] : e;
      const [actor, action] = head.split(" ") as [Trajectory["events"][number]["actor"], string];
      return { id: `e${i + 1}`, actor, action, ...(metadata !== undefined ? { metadata } : {}) };
    }),
  };
}

/** One rule from judge.yaml text of its metaBehaviors entry. */
function rule(yaml: string): MetaBehavior {
  const indented = yaml.replace(/^/gm, "    ").replace(/^ {4}/, "  - ");
  const parsed = parseJudgeYaml(`version: 1\nbehavior: b\nmetaBehaviors:\n${indented}\n`);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.ir.metaBehaviors[0]!;
}

function kinds(preview: RulePreview): PreviewWarningKind[] {
  return preview.warnings.map((w) => w.kind);
}

const samples = [
  trajectory("clean", [
    "user message",
    "agent lookup",
    ["tool lookup_result", { status: "found" }],
    "agent refund",
    "agent send_email",
    "agent reply",
  ]),
  trajectory("no-lookup", ["user message", "agent refund", "agent send_email", "agent reply"]),
  trajectory("no-email", ["user message", "agent lookup", ["tool lookup_result", { status: "missing" }], "agent refund", "agent reply"]),
  trajectory("chat-only", ["user message", "agent reply"]),
];

describe("preview verdicts are the built judge's", () => {
  for (const dir of [...EXAMPLE_DIRS, ...HELD_OUT_2026_DIRS]) {
    it(`${basename(dir)}: every rule and clause verdict on every sample`, async () => {
      const c = loadReferenceCase(dir);
      const { compiled } = await compileJudgeYamlText(readFileSync(join(dir, "judge.yaml"), "utf8"), "judge.yaml");
      const judge = await importJudgeSource(compiled.judgeMjs);
      const preview = previewJudge(c.reference, c.samples);
      for (const sample of c.samples) {
        const judgment = await judge.judgeTrajectory(sample, { verify: false });
        judgment.metaBehaviors.forEach((m, r) => {
          const rp = preview.rules[r]!;
          const where = (s: { pass: string[]; fail: string[]; na: string[] }) =>
            s.pass.includes(sample.id) ? "true" : s.fail.includes(sample.id) ? "false" : s.na.includes(sample.id) ? "na" : "missing";
          expect(`${sample.id} ${m.name}: ${where(rp.rule)}`).toBe(`${sample.id} ${m.name}: ${m.verdict}`);
          if (!m.triggered) return;
          const predicates = m.clauses.filter((x) => x.kind === "predicate");
          predicates.forEach((clause, k) =>
            expect(`${sample.id} ${m.name} checks[${k}]: ${where(rp.clauses[k]!.samples)}`).toBe(
              `${sample.id} ${m.name} checks[${k}]: ${clause.verdict}`,
            ),
          );
        });
      }
    }, 60_000);
  }
});

/**
 * Written after the preview's warnings were designed, and not looked at while designing them:
 * what the preview says about their hand-written judges is an out-of-sample measurement, which
 * bench/offline-drafter.js prints (5 warnings on 4 of their 10 rules when first measured: a
 * zone no sample uses, two rules only a model can judge, two clauses that agree on every
 * sample). Pinning it here would make the next change fit them.
 */
const PREVIEW_OUT_OF_SAMPLE = new Set(["greenhouse-irrigation", "kyc-onboarding"]);

describe("no false alarms on judges known to be right", () => {
  it("the hand-written held-out-2026 judges the warnings were designed with, which agree with every label, draw no warning on their samples", () => {
    const warned = HELD_OUT_2026_DIRS.filter((dir) => !PREVIEW_OUT_OF_SAMPLE.has(basename(dir))).flatMap((dir) => {
      const c = loadReferenceCase(dir);
      return previewJudge(c.reference, c.samples).rules.flatMap((r) => r.warnings.map((w) => `${basename(dir)} · ${r.name}: ${w.kind}`));
    });
    expect(warned).toEqual([]);
  });
});

describe("preview counts", () => {
  it("names the samples each clause passes, fails and is n.a. on; an untriggered sample is n.a.", () => {
    const p = previewRule(
      rule(`name: Look up first
trigger: { description: A refund., match: { action: refund } }
checks:
  - { type: ordering, quote: q, first: { action: lookup }, before: { action: refund } }
semanticChecks:
  - { quote: q2, question: Was it polite? }`),
      samples,
    );
    expect(p.triggered).toEqual(["clean", "no-lookup", "no-email"]);
    expect(p.clauses[0]!.samples).toEqual({ pass: ["clean", "no-email"], fail: ["no-lookup"], na: ["chat-only"] });
    expect(p.clauses[1]!.samples).toEqual({ pass: [], fail: [], na: ["clean", "no-lookup", "no-email", "chat-only"] });
    expect(p.rule).toEqual({ pass: ["clean", "no-email"], fail: ["no-lookup"], na: ["chat-only"] });
    expect(p.warnings).toEqual([]);
  });
});

describe("preview warnings", () => {
  it("a check that fails every sample it applies to, and the rule with it", () => {
    const p = previewRule(
      rule(`name: r
trigger: { description: d, match: { action: message } }
checks:
  - { type: forbidden, quote: q, match: { action: reply } }`),
      samples,
    );
    expect(kinds(p)).toEqual(["fails-every-sample", "fails-every-sample"]);
    expect(p.warnings[0]!.clause).toEqual({ kind: "rule" });
    expect(p.warnings[1]!.clause).toEqual({ kind: "check", index: 0 });
    expect(p.warnings[1]!.message).toContain("clean, no-lookup, no-email, chat-only");
  });

  it("a check that passes no sample: fails some, n.a. on the rest", () => {
    const p = previewRule(
      rule(`name: r
trigger: { description: d, match: { action: message } }
checks:
  - { type: ordering, quote: q, first: { action: send_email }, before: { action: refund } }`),
      samples,
    );
    expect(kinds(p)).toEqual(["passes-no-sample", "passes-no-sample"]);
    expect(p.clauses[0]!.samples).toEqual({ pass: [], fail: ["clean", "no-lookup", "no-email"], na: ["chat-only"] });
    expect(p.warnings[1]!.message).toBe("checks[0] passes no sample: it fails clean, no-lookup, no-email and is n.a. on the rest");
  });

  it("a check that passes one sample and fails the others passes some: it fails most samples, not every one", () => {
    const p = previewRule(
      rule(`name: r
trigger: { description: d, match: { action: message } }
checks:
  - { type: required, quote: q, match: { action: lookup_result, metadata: { status: found } } }`),
      samples,
    );
    expect(p.clauses[0]!.samples.pass).toEqual(["clean"]);
    expect(kinds(p)).toEqual(["fails-most-samples"]);
    expect(p.warnings[0]).toMatchObject({ clause: { kind: "check", index: 0 } });
    expect(p.warnings[0]!.message).toBe(
      "checks[0] fails 3 of the 4 samples it judges (no-lookup, no-email, chat-only): if most of these sessions went right, the check asks for more than the rule does",
    );
  });

  it("not for a check that fails half the samples it judges, or fewer", () => {
    const half = previewRule(
      rule(`name: r
trigger: { description: d, match: { action: message } }
checks:
  - { type: required, quote: q, match: { action: lookup_result } }`),
      samples,
    );
    expect(half.clauses[0]!.samples).toEqual({ pass: ["clean", "no-email"], fail: ["no-lookup", "chat-only"], na: [] });
    expect(kinds(half)).toEqual([]);
    // Most samples are n.a. here, and the one judged passes.
    const fewer = previewRule(
      rule(`name: r
trigger: { description: d, match: { action: lookup } }
checks:
  - { type: required, quote: q, match: { action: refund } }`),
      [...samples, trajectory("lookup-only", ["agent lookup", "agent reply"])],
    );
    expect(fewer.clauses[0]!.samples).toMatchObject({ pass: ["clean", "no-email"], fail: ["lookup-only"] });
    expect(kinds(fewer)).toEqual([]);
  });

  it("a trigger that never fires where the check's events appear, and not when it fires on one of them", () => {
    const yaml = (trigger: string) => `name: r
trigger: { description: d, match: ${trigger} }
checks:
  - { type: pairing, quote: q, each: { action: refund }, followedBy: { action: send_email } }`;
    const missed = previewRule(rule(yaml("{ action: lookup_result, metadata: { status: denied } }")), [
      ...samples,
      trajectory("denied", ["agent lookup", ["tool lookup_result", { status: "denied" }]]),
    ]);
    // It fires only on "denied", where the check has nothing to judge.
    expect(kinds(missed)).toEqual(["passes-no-sample", "trigger-misses-check-events"]);
    expect(missed.warnings[0]!.message).toBe("checks[0] passes no sample: it is n.a. on every sample");
    expect(missed.warnings[1]!.message).toContain("(clean, no-lookup, no-email)");
    expect(missed.warnings[1]!.other).toEqual({ kind: "check", index: 0 });
    // The widening the front ends offer: the trigger, or the events the check judges.
    expect(missed.widenedTrigger).toEqual([{ action: "lookup_result", metadata: { status: "denied" } }, { action: "refund" }]);
    const widened = previewRule(rule(yaml("[{ action: lookup_result, metadata: { status: denied } }, { action: refund }]")), [
      ...samples,
      trajectory("denied", ["agent lookup", ["tool lookup_result", { status: "denied" }]]),
    ]);
    expect(kinds(widened)).toEqual([]);
    expect(widened.widenedTrigger).toBeUndefined();
    const fires = previewRule(rule(yaml("{ action: lookup_result, metadata: { status: found } }")), samples);
    expect(kinds(fires)).toEqual([]);
    expect(fires.widenedTrigger).toBeUndefined();
  });

  it("a window that never opens, and not one that opens", () => {
    const yaml = (status: string) => `name: r
trigger: { description: d, match: { action: message } }
checks:
  - { type: forbidden, quote: q, match: { action: refund }, after: { action: lookup_result, metadata: { status: ${status} } } }`;
    const closed = previewRule(rule(yaml("denied")), [
      ...samples,
      trajectory("denied-elsewhere", ["agent lookup", ["tool lookup", { status: "denied" }]]),
    ]);
    expect(kinds(closed)).toEqual(["passes-no-sample", "window-never-opens", "unused-metadata-value"]);
    const open = previewRule(rule(yaml("missing")), samples);
    // It opens on no-email, where the check fails: the rule and the check pass no sample, but the window is fine.
    expect(kinds(open)).toEqual(["passes-no-sample", "passes-no-sample"]);
    expect(open.clauses[0]!.samples.fail).toEqual(["no-email"]);
  });

  it("an action or metadata value no sample uses, in the trigger or a check; not a value another action carries", () => {
    const p = previewRule(
      rule(`name: r
trigger: { description: d, match: { action: issue_refund } }
checks:
  - { type: ordering, quote: q, first: { action: lookup_result, metadata: { status: ok } }, before: [{ action: refund }, { action: issue_refund }] }`),
      samples,
    );
    expect(kinds(p)).toEqual(["unused-action", "trigger-misses-check-events", "unused-metadata-value", "unused-action"]);
    expect(p.warnings.filter((w) => w.kind !== "trigger-misses-check-events").map((w) => w.message)).toEqual([
      'the trigger: no sample has an event with action "issue_refund"',
      'checks[0]: no sample "lookup_result" event has metadata status: ok',
      'checks[0]: no sample has an event with action "issue_refund"',
    ]);
    const quiet = previewRule(
      rule(`name: r
trigger: { description: d, match: { action: lookup } }
checks:
  - { type: required, quote: q, match: { metadata: { status: found } } }`),
      samples,
    );
    expect(kinds(quiet)).toEqual([]);
  });

  it("two checks that give the same verdict on every sample, and not two that differ on one", () => {
    const yaml = (second: string) => `name: r
trigger: { description: d, match: { action: refund } }
checks:
  - { type: ordering, quote: q, first: { action: lookup }, before: { action: refund } }
  - ${second}`;
    const same = previewRule(
      rule(yaml("{ type: ordering, quote: q2, first: { action: lookup_result }, before: { action: refund } }")),
      samples,
    );
    expect(kinds(same)).toEqual(["clauses-always-agree"]);
    expect(same.warnings[0]).toMatchObject({ clause: { kind: "check", index: 0 }, other: { kind: "check", index: 1 } });
    const differ = previewRule(
      rule(yaml("{ type: pairing, quote: q2, each: { action: refund }, followedBy: { action: send_email } }")),
      samples,
    );
    expect(kinds(differ)).toEqual([]);
  });

  it("not two checks that agree on only two judged samples: that is chance, not redundancy", () => {
    const p = previewRule(
      rule(`name: r
trigger: { description: d, match: { action: lookup } }
checks:
  - { type: required, quote: q, match: { action: refund } }
  - { type: required, quote: q2, match: { action: reply } }`),
      samples,
    );
    expect(p.clauses.map((c) => c.samples.pass)).toEqual([
      ["clean", "no-email"],
      ["clean", "no-email"],
    ]);
    expect(kinds(p)).toEqual([]);
  });

  it("a trigger that fires on no sample, said once; not when another warning already names the trigger, nor when it fires", () => {
    const yaml = (trigger: string) => `name: r
trigger: { description: d, match: ${trigger} }
checks:
  - { type: forbidden, quote: q, match: { action: reply, contentIncludes: sorry } }`;
    // Both words occur in the samples, never together.
    const never = previewRule(rule(yaml("{ action: refund, actor: user }")), samples);
    expect(kinds(never)).toEqual(["trigger-never-fires"]);
    // Where the check's events do appear, the warning that offers the widening says it instead.
    const misses = previewRule(
      rule(`name: r
trigger: { description: d, match: { action: refund, actor: user } }
checks:
  - { type: required, quote: q, match: { action: send_email } }`),
      samples,
    );
    expect(kinds(misses)).toEqual(["trigger-misses-check-events"]);
    expect(never.rule).toEqual({ pass: [], fail: [], na: ["clean", "no-lookup", "no-email", "chat-only"] });
    expect(kinds(previewRule(rule(yaml("{ action: issue_refund }")), samples))).toEqual(["unused-action"]);
    expect(kinds(previewRule(rule(yaml("{ action: refund, actor: agent }")), samples))).toEqual([]);
    // A semantic trigger is for a model: the preview cannot say where it fires (never-judged says what that means).
    const semantic = rule(`name: r
trigger: { description: d, semantic: true }
checks:
  - { type: required, quote: q, match: { action: send_email } }`);
    expect(kinds(previewRule(semantic, samples))).toEqual(["never-judged"]);
  });

  it("a rule whose trigger is a question for a model is never judged on the samples; not one with an event trigger", () => {
    const yaml = (trigger: string) => `name: r
trigger: { description: A refund is discussed., ${trigger} }
semanticChecks:
  - { quote: q, question: Was the order looked up first? }`;
    const semantic = previewRule(rule(yaml("semantic: true")), samples);
    expect(semantic.rule).toEqual({ pass: [], fail: [], na: ["clean", "no-lookup", "no-email", "chat-only"] });
    expect(kinds(semantic)).toEqual(["never-judged"]);
    expect(semantic.warnings[0]).toMatchObject({ clause: { kind: "rule" } });
    expect(semantic.warnings[0]!.message).toBe(
      "the rule is n.a. on every sample: its trigger is a question for a model, so the preview cannot show how the rule judges them; if an event marks the situation, make the trigger match it",
    );
    // With an event trigger, no-event-check says why the rule decides nothing; never-judged is not said too.
    expect(kinds(previewRule(rule(yaml("match: { action: refund }")), samples))).toEqual(["no-event-check"]);
    // Without samples there is nothing to preview.
    expect(kinds(previewRule(rule(yaml("semantic: true")), []))).toEqual([]);
  });

  it("a rule with only questions for a model, where its trigger fires; not one with an event check, nor one whose trigger fires nowhere", () => {
    const onlyQuestions = previewRule(
      rule(`name: r
trigger: { description: d, match: { action: lookup } }
semanticChecks:
  - { quote: q, question: Was the lookup right? }`),
      samples,
    );
    expect(kinds(onlyQuestions)).toEqual(["no-event-check"]);
    expect(onlyQuestions.warnings[0]!.message).toBe(
      "the rule has no event check: without a model it is n.a. on every sample it applies to (clean, no-email); if the samples show what the quote asks for, make the question an event check",
    );
    const withCheck = previewRule(
      rule(`name: r
trigger: { description: d, match: { action: lookup } }
checks:
  - { type: required, quote: q, match: { action: lookup_result } }
semanticChecks:
  - { quote: q, question: Was the lookup right? }`),
      samples,
    );
    expect(kinds(withCheck)).toEqual([]);
    const nowhere = previewRule(
      rule(`name: r
trigger: { description: d, match: { action: lookup, actor: user } }
semanticChecks:
  - { quote: q, question: Was the lookup right? }`),
      samples,
    );
    expect(kinds(nowhere)).toEqual(["trigger-never-fires"]);
  });

  it("a trigger that matches any event of an actor; not one that names an action, content or metadata", () => {
    const yaml = (trigger: string) => `name: r
trigger: { description: d, match: ${trigger} }
checks:
  - { type: pairing, quote: q, each: { action: refund }, followedBy: { action: send_email } }`;
    const any = previewRule(rule(yaml("{ actor: agent }")), samples);
    expect(kinds(any)).toEqual(["trigger-matches-any-event"]);
    expect(any.warnings[0]!.message).toBe(
      "the trigger matches any agent event, so the rule applies to 4 of the 4 samples whatever happens in them; if the rule is about a situation (a request, a result, a deploy), make the trigger match that event",
    );
    expect(kinds(previewRule(rule(yaml("[{ action: refund }, { actor: user }]")), samples))).toEqual(["trigger-matches-any-event"]);
    // A check that asks for something (a count with a minimum) under "any event" is warned about too.
    const atLeastOne = `name: r
trigger: { description: d, match: { actor: agent } }
checks:
  - { type: count, quote: q, match: { action: reply }, min: 1, max: 1 }`;
    expect(kinds(previewRule(rule(atLeastOne), samples))).toEqual(["trigger-matches-any-event"]);
    expect(kinds(previewRule(rule(yaml("{ actor: agent, action: refund }")), samples))).toEqual([]);
    // A prohibition holds in every session: "any event" is the trigger it needs.
    const prohibitions = `name: r
trigger: { description: d, match: { actor: agent } }
checks:
  - { type: forbidden, quote: q, match: { action: send_email } }
  - { type: count, quote: q2, match: { action: reply }, max: 1 }`;
    expect(kinds(previewRule(rule(prohibitions), samples))).toEqual([]);
    expect(kinds(previewRule(rule(yaml("{ actor: agent, metadata: { status: found } }")), samples))).toEqual([
      "trigger-misses-check-events",
    ]);
  });
});

describe("preview warnings that compare a rule with the others (previewJudge)", () => {
  const judge = (...rules: string[]) => {
    const body = rules.map((r) => r.replace(/^/gm, "    ").replace(/^ {4}/, "  - ")).join("\n");
    const parsed = parseJudgeYaml(`version: 1\nbehavior: b\nmetaBehaviors:\n${body}\n`);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
    return parsed.ir;
  };
  // Passes on the three samples it applies to.
  const lenient = `name: lenient
trigger: { description: d, match: { action: refund } }
checks:
  - { type: count, quote: q, match: { action: refund }, max: 2 }`;
  // Each fails one sample.
  const lookupFirst = `name: lookup first
trigger: { description: d, match: { action: refund } }
checks:
  - { type: ordering, quote: q, first: { action: lookup }, before: { action: refund } }`;
  const emailAfter = `name: email after
trigger: { description: d, match: { action: refund } }
checks:
  - { type: pairing, quote: q, each: { action: refund }, followedBy: { action: send_email } }`;
  const replies = `name: replies
trigger: { description: d, match: { action: message } }
checks:
  - { type: required, quote: q, match: { action: reply } }`;

  it("a rule that applies to most samples and fails none, where the samples break most other rules", () => {
    const p = previewJudge(judge(lenient, lookupFirst, emailAfter), samples);
    expect(p.rules.map((r) => r.rule.fail)).toEqual([[], ["no-lookup"], ["no-email"]]);
    expect(kinds(p.rules[0]!)).toEqual(["fails-no-sample"]);
    expect(p.rules[0]!.warnings[0]).toMatchObject({ clause: { kind: "rule" } });
    expect(p.rules[0]!.warnings[0]!.message).toBe(
      "the rule applies to 3 of the 4 samples and fails none, though 2 of the 2 other rules that judge them fail some: if one of these samples breaks this rule too, its checks are too lenient",
    );
    expect(kinds(p.rules[1]!)).toEqual([]);
  });

  it("not where most other rules pass every sample too (samples of sessions that went right), nor for a rule that applies to half of them or fewer", () => {
    const mostPass = previewJudge(judge(lenient, lookupFirst, replies), samples);
    expect(mostPass.rules.map((r) => r.rule.fail.length)).toEqual([0, 1, 0]);
    expect(mostPass.rules.flatMap(kinds)).toEqual([]);
    const narrow = `name: narrow
trigger: { description: d, match: { action: lookup_result, metadata: { status: found } } }
checks:
  - { type: required, quote: q, match: { action: refund } }`;
    const p = previewJudge(judge(narrow, lookupFirst, emailAfter), samples);
    expect(p.rules[0]!.rule).toMatchObject({ pass: ["clean"], fail: [] });
    expect(kinds(p.rules[0]!)).toEqual([]);
    // Alone, a rule has no others to compare with: previewRule never says it.
    expect(kinds(previewRule(rule(lenient), samples))).toEqual([]);
  });
});

describe("a check on one action whose quote names another action (quote-names-other-action)", () => {
  // Two identity checks and one eligibility check: hold and decline both act on an application.
  const kyc = [
    trajectory("retried", [
      "agent verify_identity",
      ["tool verify_identity_result", { status: "fail" }],
      "agent verify_identity",
      ["tool verify_identity_result", { status: "pass" }],
      "agent open_account",
    ]),
    trajectory("eligibility", ["agent verify_identity", "agent check_eligibility", "agent decline_application"]),
    trajectory("held", ["agent verify_identity", "agent hold_application"]),
  ];
  const counted = (action: string, quote: string, trigger = action) =>
    rule(`name: r
trigger: { description: d, match: { action: ${trigger} } }
checks:
  - { type: count, quote: "${quote}", match: { action: ${action} }, max: 3 }`);
  const identityQuote = "the identity check should not be run more than three times";

  it("a count whose action shares only its verb with the quote, while the quote names another action's object; with the trigger when it matches the same action", () => {
    const p = previewRule(counted("check_eligibility", identityQuote), kyc);
    expect(kinds(p)).toEqual(["quote-names-other-action"]);
    expect(p.warnings[0]).toMatchObject({ clause: { kind: "check", index: 0 }, other: { kind: "trigger" } });
    expect(p.warnings[0]!.message).toBe(
      'checks[0] matches check_eligibility, which shares only "check" with its quote, while the quote names the "identity" of verify_identity, which the check does not match: if the quote is about verify_identity, match it instead (the trigger matches check_eligibility too, so the rule applies only where it occurs)',
    );
    const otherTrigger = previewRule(counted("check_eligibility", identityQuote, "open_account"), kyc);
    expect(otherTrigger.warnings.filter((w) => w.kind === "quote-names-other-action")).toEqual([
      expect.not.objectContaining({ other: expect.anything() }),
    ]);
    // A forbidden or required check on one action is about that action as much as a count is.
    const forbidden = rule(`name: r
trigger: { description: d, match: { action: verify_identity } }
checks:
  - { type: forbidden, quote: "never check the identity twice", match: { action: check_eligibility } }`);
    expect(kinds(previewRule(forbidden, kyc))).toContain("quote-names-other-action");
  });

  it("not when the check matches the action the quote names, even though the quote's noun is another action's verb", () => {
    expect(kinds(previewRule(counted("verify_identity", identityQuote), kyc))).toEqual([]);
  });

  it("not when the matched action's own object is in the quote too", () => {
    const both = "the eligibility check should not be run on an identity more than three times";
    expect(kinds(previewRule(counted("check_eligibility", both), kyc))).toEqual([]);
  });

  it("not for a word several actions' names share: it names none of them", () => {
    // "application" is in hold_application and decline_application.
    expect(kinds(previewRule(counted("check_eligibility", "check no application more than three times"), kyc))).toEqual([]);
  });

  it("not when a matcher accounts for the word (a metadata value, content)", () => {
    const valued = rule(`name: r
trigger: { description: d, match: { action: verify_identity } }
checks:
  - { type: count, quote: "${identityQuote}", match: { action: check_eligibility, metadata: { scope: identity } }, max: 3 }`);
    expect(kinds(previewRule(valued, kyc)).filter((k) => k === "quote-names-other-action")).toEqual([]);
  });

  it("not for checks that already name two actions: orderings, pairings and windowed checks mention others in passing", () => {
    const two = rule(`name: r
trigger: { description: d, match: { action: verify_identity } }
checks:
  - { type: pairing, quote: "each check is followed by an identity record", each: { action: check_eligibility }, followedBy: { action: decline_application } }
  - { type: ordering, quote: "check before the identity", first: { action: check_eligibility }, before: { action: decline_application } }
  - { type: required, quote: "${identityQuote}", match: { action: check_eligibility }, after: { action: hold_application } }`);
    expect(kinds(previewRule(two, kyc)).filter((k) => k === "quote-names-other-action")).toEqual([]);
  });
});
