/**
 * Focused regressions of the extended rule language found by the extended
 * differential tests (test/differential-extended.test.ts,
 * test/monitor-differential-extended.test.ts), each against the judge.mjs
 * users ship, the monitor and the oracle.
 */
import { describe, expect, test } from "vitest";
import { compileIR } from "../../compiler/build/compile.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import { oracleJudge } from "../oracle/evaluate.js";
import { throughYaml } from "../support/differential-extended.js";
import { importBundled } from "../support/judges.js";

async function build(ir: JudgeIR) {
  const { yaml } = throughYaml(ir);
  return importBundled(await compileIR(ir, yaml, { typeCheck: false }));
}

describe("count per: the group above max that the final clause cites", () => {
  test("is the group that went above max first (the one the monitor reported), not the first group in order", async () => {
    const ir: JudgeIR = {
      version: 1,
      behavior: "b",
      metaBehaviors: [
        {
          name: "One write per turn",
          trigger: { description: "a write", match: [{ action: "write" }] },
          checks: [{ type: "count", quote: "one write per turn", match: [{ action: "write" }], per: "metadata.turn", max: 1 }],
          semanticChecks: [],
        },
      ],
    };
    const judge = await build(ir);
    const write = (id: string, turn: string) => ({ id, actor: "agent" as const, action: "write", metadata: { turn } });
    // Turn 1 appears first, but turn 2 goes above max first (e2); turn 1 only at e3.
    const events = [write("e0", "1"), write("e1", "2"), write("e2", "2"), write("e3", "1"), write("e4", "2")];
    const monitor = judge.createMonitor({ id: "t" });
    const reported = events.map((e) => monitor.push(e).map((v) => v.eventIds));
    expect(reported).toEqual([[], [], [["e1", "e2"]], [], [["e1", "e2", "e4"]]]);
    const trajectory = { id: "t", description: "", complete: true, events };
    const judged = await judge.judgeTrajectory(trajectory);
    const clause = judged.metaBehaviors[0]!.clauses[0]!;
    expect([clause.verdict, clause.citations.map((c) => c.eventId)]).toEqual(["false", ["e1", "e2", "e4"]]);
    expect(clause.explanation).toMatch(/turn "2" has 3 matches, above the max of 1/);
    expect(oracleJudge(ir, trajectory).metaBehaviors[0]!.clauses[0]!.citations.map((c) => c.eventId)).toEqual(["e1", "e2", "e4"]);
    expect(JSON.stringify(await monitor.end({ complete: true }))).toBe(JSON.stringify(judged));
  });
});
