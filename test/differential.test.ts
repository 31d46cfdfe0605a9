/**
 * Differential test of the code generator: the compiled judge against the
 * independent oracle in test/oracle on 10,000 random (judge.yaml, trajectory)
 * pairs from a fixed seed. Verdicts, na reasons, triggered flags and cited
 * event ids must agree exactly, and the code generated for every one of the
 * random judges must type-check.
 */
import { describe, expect, test } from "vitest";
import { generateJudgeModule } from "../compiler/codegen/emit.js";
import { typeCheckJudgeTs } from "../compiler/codegen/typecheck.js";
import type { JudgeIR, MetaBehavior, Pattern } from "../compiler/ir/types.js";
import type { TrajectoryJudgment } from "../runtime/types.js";
import { oracleJudge } from "./oracle/evaluate.js";
import { JUDGES, randomJudges, TRAJECTORIES_PER_JUDGE } from "./support/differential.js";

/** What the differential compares: everything but free-text descriptions and reasoning. */
function essence(j: TrajectoryJudgment) {
  return {
    trajectoryId: j.trajectoryId,
    verdict: j.verdict,
    metaBehaviors: j.metaBehaviors.map((m) => ({
      name: m.name,
      verdict: m.verdict,
      naReason: m.naReason,
      triggered: m.triggered,
      clauses: m.clauses.map((c) => ({
        kind: c.kind,
        quote: c.quote,
        verdict: c.verdict,
        naReason: c.naReason,
        verification: c.verification,
        citations: c.citations.map((x) => x.eventId),
      })),
    })),
  };
}

/** Every pattern of a rule: its trigger's and its checks'. */
function patternsOf(rule: MetaBehavior): Pattern[] {
  const patterns: Pattern[] = rule.trigger.match === undefined ? [] : [rule.trigger.match];
  for (const check of rule.checks) {
    for (const value of Object.values(check)) if (Array.isArray(value)) patterns.push(value as Pattern);
  }
  return patterns;
}

/** An actor named again after a matcher that names only that actor (issue 8, defect 1). */
function repeatsAnActor(pattern: Pattern): boolean {
  return pattern.some((m, i) => Object.keys(m).join() === "actor" && pattern.slice(i + 1).some((later) => later.actor === m.actor));
}

/** All three actors as matchers of their own, next to a matcher with an action (issue 8, defect 1). */
function namesEveryActor(pattern: Pattern): boolean {
  const alone = new Set(pattern.filter((m) => Object.keys(m).join() === "actor").map((m) => m.actor));
  return alone.size === 3 && pattern.some((m) => m.action !== undefined);
}

describe("compiled judge vs. oracle", () => {
  test(`${JUDGES * TRAJECTORIES_PER_JUDGE} random pairs agree, and every random judge type-checks`, async () => {
    let compared = 0;
    const verdicts = { true: 0, false: 0, na: 0 };
    const rules: MetaBehavior[] = [];
    for await (const { index, ir, judge, trajectories } of randomJudges()) {
      // Rule names repeat across judges; the prefix keeps them unique in the combined judge below.
      rules.push(...ir.metaBehaviors.map((rule) => ({ ...rule, name: `judge ${index}: ${rule.name}` })));
      for (const trajectory of trajectories) {
        const actual = await judge.judgeTrajectory(trajectory);
        const expected = oracleJudge(ir, trajectory);
        const a = essence(actual);
        const e = essence(expected);
        if (JSON.stringify(a) !== JSON.stringify(e)) {
          expect({ ir, trajectory, actual: a }).toEqual({ ir, trajectory, actual: e });
        }
        verdicts[actual.verdict]++;
        compared++;
      }
    }
    expect(compared).toBe(10_000);
    // Each rule becomes a class of its own, so checking them in one module checks each judge.
    const patterns = rules.flatMap(patternsOf);
    expect(patterns.filter(repeatsAnActor).length).toBeGreaterThan(20);
    expect(patterns.filter(namesEveryActor).length).toBeGreaterThan(20);
    const combined: JudgeIR = { version: 1, behavior: "every random judge", metaBehaviors: rules };
    expect(() =>
      typeCheckJudgeTs(String(generateJudgeModule(combined, { judgeYamlSha256: "0".repeat(64), file: "random.yaml" }).module)),
    ).not.toThrow();
    // The generator must reach every file verdict often, or the agreement says little.
    for (const count of Object.values(verdicts)) expect(count).toBeGreaterThan(1000);
  }, 600_000);
});
