/** The one-call baseline's answer checks: every rule once, each entry as strict as a semantic answer. */
import { describe, expect, it } from "vitest";
import { baselineMessages, judgeBaseline, readBaselineAnswer } from "../../compiler/analyses/baseline.js";
import { parseBehaviorMd, type BehaviorSpec } from "../../compiler/behavior-md/load.js";
import { FENCE_CLOSE, FENCE_OPEN } from "../../runtime/semantic.js";
import { validateTrajectory } from "../../runtime/trajectory.js";

const parsed = parseBehaviorMd(
  "---\nname: demo\ndescription: A demo.\n---\nPreamble.\n\n## Verify first\n\nVerify before refunding.\n\n## Log every refund\n\nLog it.\n",
);
const spec = (parsed as { spec: BehaviorSpec }).spec;
const rules = ["Verify first", "Log every refund"];
const ids = new Set(["e1", "e2"]);
const entry = (name: string, verdict = "true", extra: Record<string, unknown> = {}) => ({
  name,
  verdict,
  na_reason: verdict === "na" ? "not_applicable" : null,
  reasoning: "Scripted.",
  citations: [{ event_id: "e1", description: "d" }],
  ...extra,
});

describe("readBaselineAnswer", () => {
  it("returns the verdicts in spec order", () => {
    const text = JSON.stringify({ metaBehaviors: [entry("Log every refund", "false"), entry("Verify first")] });
    expect(readBaselineAnswer(text, rules, ids)).toMatchObject([
      { name: "Verify first", verdict: "true" },
      { name: "Log every refund", verdict: "false" },
    ]);
  });

  it.each([
    ["a missing rule", { metaBehaviors: [entry("Verify first")] }, 'the rule "Log every refund" is missing'],
    [
      "a repeated rule",
      { metaBehaviors: [entry("Verify first"), entry("Verify first"), entry("Log every refund")] },
      'the rule "Verify first" is listed more than once',
    ],
    [
      "an unknown name",
      { metaBehaviors: [entry("Verify First"), entry("Log every refund")] },
      "metaBehaviors[0].name must be one of the rule headings, exactly",
    ],
    [
      "a bad entry",
      { metaBehaviors: [entry("Verify first"), entry("Log every refund", "na", { na_reason: null })] },
      'metaBehaviors[1] ("Log every refund"): with verdict "na", "na_reason" must be',
    ],
    ["no array", { verdicts: [] }, '"metaBehaviors" must be an array with one entry per rule'],
  ])("rejects %s", (_name, answer, problem) => {
    expect(readBaselineAnswer(JSON.stringify(answer), rules, ids)).toContain(problem);
  });

  it("allows an empty citation list only when there is no event to cite", () => {
    const text = JSON.stringify({ metaBehaviors: rules.map((r) => entry(r, "na", { na_reason: "insufficient_evidence", citations: [] })) });
    expect(typeof readBaselineAnswer(text, rules, new Set())).toBe("object");
    expect(readBaselineAnswer(text, rules, ids)).toContain('"citations" must name at least one event');
  });
});

describe("judgeBaseline", () => {
  const trajectory = {
    id: "t",
    complete: true,
    events: [
      { id: "e1", actor: "user", action: "message", content: "refund please" },
      { id: "e2", actor: "agent", action: "issue_refund" },
    ],
  };

  it("puts the whole spec and the fenced trajectory in one prompt", () => {
    const [system, user] = baselineMessages(spec, validateTrajectory(trajectory));
    expect(system!.content).toContain("untrusted data");
    expect(user!.content).toContain("## Verify first\n\nVerify before refunding.");
    expect(user!.content).toContain("Preamble.");
    expect(user!.content).toContain("BEGIN UNTRUSTED TRAJECTORY");
  });

  it("names the fence lines the runtime writes around the trajectory", () => {
    const [system, user] = baselineMessages(spec, validateTrajectory(trajectory));
    expect(system!.content).toContain(`between the lines ${FENCE_OPEN} and ${FENCE_CLOSE}:`);
    const lines = user!.content.split("\n");
    expect(lines.indexOf(FENCE_OPEN)).toBeGreaterThan(-1);
    expect(lines.indexOf(FENCE_CLOSE)).toBeGreaterThan(lines.indexOf(FENCE_OPEN));
  });

  it("retries once, then folds the verdicts", async () => {
    const replies = ["{}", JSON.stringify({ metaBehaviors: [entry("Verify first", "false"), entry("Log every refund")] })];
    let calls = 0;
    const judged = await judgeBaseline(spec, trajectory, async () => replies[calls++]!);
    expect(calls).toBe(2);
    expect(judged).toMatchObject({ trajectoryId: "t", verdict: "false" });
  });

  it("fails the case after two invalid answers", async () => {
    await expect(judgeBaseline(spec, trajectory, async () => "{}")).rejects.toThrow(
      /^the answer was invalid twice: "metaBehaviors" must be an array/,
    );
  });
});
