import { describe, expect, it } from "vitest";
import { summarizeByRule } from "../../compiler/analyses/tally.js";
import { renderSummaryTable, verdictLabel } from "../../compiler/report/summary.js";
import type { MetaBehaviorJudgment, TrajectoryJudgment, Verdict, NaReason } from "../../runtime/types.js";

function meta(name: string, verdict: Verdict, naReason: NaReason | null = null): MetaBehaviorJudgment {
  return { name, verdict, naReason, triggered: verdict !== "na", clauses: [] };
}

function judgment(trajectoryId: string, metas: MetaBehaviorJudgment[]): TrajectoryJudgment {
  return { behavior: "staged-rollout", trajectoryId, verdict: "true", metaBehaviors: metas };
}

const judgments = [
  judgment("t1", [meta("Test first", "true"), meta("Canary", "false")]),
  judgment("t2", [meta("Test first", "false"), meta("Canary", "na", "not_applicable")]),
  judgment("t3", [meta("Test first", "true"), meta("Canary", "na", "insufficient_evidence")]),
];

describe("summarizeByRule", () => {
  it("counts each verdict per rule, telling the two na reasons apart", () => {
    expect(summarizeByRule(judgments)).toEqual([
      { name: "Test first", passed: 2, failed: 1, notApplicable: 0, noVerdict: 0, modelErrors: 0 },
      { name: "Canary", passed: 0, failed: 1, notApplicable: 1, noVerdict: 1, modelErrors: 0 },
    ]);
  });

  it("follows the given rule order and keeps rules that no judgment mentions", () => {
    const rows = summarizeByRule(judgments, ["Never force-push", "Canary"]);
    expect(rows.map((r) => r.name)).toEqual(["Never force-push", "Canary", "Test first"]);
    expect(rows[0]).toEqual({ name: "Never force-push", passed: 0, failed: 0, notApplicable: 0, noVerdict: 0, modelErrors: 0 });
  });

  it("counts a rule resting on a failed model call as a model error unless it failed, and only then adds the column", () => {
    const errored = (verdict: Verdict, naReason: NaReason | null): MetaBehaviorJudgment => ({
      ...meta("R", verdict, naReason),
      error: true,
    });
    const rows = summarizeByRule([judgment("t1", [errored("na", "insufficient_evidence")]), judgment("t2", [errored("false", null)])]);
    expect(rows).toEqual([{ name: "R", passed: 0, failed: 1, notApplicable: 0, noVerdict: 0, modelErrors: 1 }]);
    expect(renderSummaryTable(rows).split("\n")[0]).toBe("Rule  Passed  Failed  Didn't apply  No verdict  Model error");
    expect(renderSummaryTable(summarizeByRule(judgments)).split("\n")[0]).toBe("Rule        Passed  Failed  Didn't apply  No verdict");
  });

  it("counts an na without a reason as no verdict", () => {
    const rows = summarizeByRule([judgment("t", [meta("R", "na", null)])]);
    expect(rows[0]?.noVerdict).toBe(1);
  });
});

describe("renderSummaryTable", () => {
  it("prints an aligned table with a header", () => {
    expect(renderSummaryTable(summarizeByRule(judgments))).toBe(
      [
        "Rule        Passed  Failed  Didn't apply  No verdict",
        "----------  ------  ------  ------------  ----------",
        "Test first       2       1             0           0",
        "Canary           0       1             1           1",
        "",
      ].join("\n"),
    );
  });

  it("keeps terminal control sequences and line breaks in rule names out of the output", () => {
    const table = renderSummaryTable([
      { name: "evil\u001b[2J\nname\u2028x", passed: 1, failed: 0, notApplicable: 0, noVerdict: 0, modelErrors: 0 },
    ]);
    expect(table).not.toContain("\u001b");
    expect(table).not.toContain("\u2028");
    expect(table.split("\n")).toHaveLength(4);
    expect(table).toContain("evil\\u001b[2J\\nname\\u2028x");
  });

  it("widens columns for large numbers and truncates very long names", () => {
    const table = renderSummaryTable([
      { name: "x".repeat(100), passed: 1234567, failed: 0, notApplicable: 0, noVerdict: 0, modelErrors: 0 },
    ]);
    const [header, , row] = table.split("\n");
    expect(row).toContain("x".repeat(59) + "…");
    expect(row).not.toContain("x".repeat(60));
    expect(row!.indexOf("1234567") + "1234567".length).toBe(header!.indexOf("Passed") + "Passed".length);
  });

  it("says so when there is nothing to show", () => {
    expect(renderSummaryTable([])).toBe("No rules were judged.\n");
  });
});

describe("verdictLabel", () => {
  it("names every verdict the way the report shows it", () => {
    expect(verdictLabel("true", null)).toBe("Pass");
    expect(verdictLabel("false", null)).toBe("Fail");
    expect(verdictLabel("na", "not_applicable")).toBe("Didn't apply");
    expect(verdictLabel("na", "insufficient_evidence")).toBe("No verdict — insufficient evidence");
    expect(verdictLabel("na", "insufficient_evidence", true)).toBe("Error — no valid model answer");
    // A failure stands beside a failed call (docs/FORMATS.md §4).
    expect(verdictLabel("false", null, true)).toBe("Fail");
  });
});
