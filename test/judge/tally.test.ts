/** One Tally keeps a run's totals for every command: each result is added once, and every count comes from it. */
import { describe, expect, it } from "vitest";
import { emptyUsage } from "../../runtime/semantic.js";
import type { Clause, MetaBehaviorJudgment, TrajectoryJudgment, Verdict } from "../../runtime/types.js";
import type { CaseResult } from "../../compiler/run/judge-cases.js";
import { Tally } from "../../compiler/analyses/tally.js";

const input = { file: "t.jsonl", index: 0 };

function clause(verdict: Verdict, extra: Partial<Clause> = {}): Clause {
  return { kind: "predicate", quote: "q", verdict, naReason: verdict === "na" ? "insufficient_evidence" : null, citations: [], ...extra };
}

function meta(name: string, verdict: Verdict, clauses: Clause[] = [], extra: Partial<MetaBehaviorJudgment> = {}): MetaBehaviorJudgment {
  return { name, verdict, naReason: verdict === "na" ? "not_applicable" : null, triggered: verdict !== "na", clauses, ...extra };
}

function judged(verdict: Verdict, metas: MetaBehaviorJudgment[], extra: Partial<TrajectoryJudgment> = {}, calls = 0): CaseResult {
  const judgment: TrajectoryJudgment = { behavior: "b", trajectoryId: "t", verdict, metaBehaviors: metas, ...extra };
  return {
    kind: "judged",
    input,
    judgment,
    ...(calls > 0 ? { usage: { ...emptyUsage(), calls, requests: calls, inputTokens: 10 * calls } } : {}),
  };
}

describe("Tally", () => {
  it("counts each rule in its own row, whatever order a judgment lists its rules in", () => {
    const tally = new Tally(["A", "B"]);
    tally.add(judged("false", [meta("A", "true"), meta("B", "false")]));
    tally.add(judged("false", [meta("B", "true"), meta("C", "false"), meta("A", "false")]));
    tally.add(judged("true", [meta("C", "true"), meta("A", "true")]));
    const rows = tally.ruleRows().map((r) => [r.name, r.passed, r.failed]);
    expect(rows).toEqual([
      ["A", 2, 1],
      ["B", 1, 1],
      ["C", 1, 1],
    ]);
  });

  it("counts verdicts, failed cases, clause errors, verify-on-false, usage and per-rule rows from the same results", () => {
    const tally = new Tally(["Never", "A", "B"]);
    tally.add(judged("true", [meta("A", "true", [clause("true")]), meta("B", "na")], {}, 2));
    tally.add(
      judged(
        "false",
        [
          meta("A", "false", [clause("false", { verification: "confirmed" })]),
          meta("B", "true", [clause("true", { verification: "overturned" })]),
        ],
        {},
        1,
      ),
    );
    // A failed model call: na with the marker is ERROR, not na; a false beside it stays a failure.
    const errored = clause("na", { kind: "semantic", error: "the answer was invalid twice" });
    tally.add(
      judged("na", [meta("A", "na", [errored], { error: true, naReason: "insufficient_evidence" }), meta("B", "true")], { error: true }),
    );
    tally.add(judged("false", [meta("A", "false", [clause("false"), errored], { error: true }), meta("B", "na")], { error: true }));
    // A failed case keeps what its calls cost.
    tally.add({ kind: "failed", input, message: "not JSON", usage: { ...emptyUsage(), calls: 1, failedCalls: 1, requests: 3 } });

    expect(tally.totals).toEqual({ judged: 4, true: 1, false: 2, na: 0, modelErrors: 1, errors: 1 });
    expect(tally.cases).toBe(5);
    expect(tally.clauseErrors).toBe(2);
    expect(tally.verifications).toEqual({ confirmed: 1, overturned: 1 });
    expect(tally.usage).toEqual({ calls: 4, cachedCalls: 0, failedCalls: 1, requests: 6, inputTokens: 30, outputTokens: 0 });
    expect(tally.ruleRows()).toEqual([
      { name: "Never", passed: 0, failed: 0, notApplicable: 0, noVerdict: 0, modelErrors: 0 },
      { name: "A", passed: 1, failed: 2, notApplicable: 0, noVerdict: 0, modelErrors: 1 },
      { name: "B", passed: 2, failed: 0, notApplicable: 2, noVerdict: 0, modelErrors: 0 },
    ]);
  });

  it("starts empty, with zero usage rather than none", () => {
    const tally = new Tally();
    expect(tally.totals).toEqual({ judged: 0, true: 0, false: 0, na: 0, modelErrors: 0, errors: 0 });
    expect(tally.usage).toEqual(emptyUsage());
    expect(tally.ruleRows()).toEqual([]);
  });
});
