/** The run statistics of `calibrate --runs N` and `baseline`. */
import { describe, expect, it } from "vitest";
import { summarizeRuns, wilsonInterval, type VerdictSlot } from "../../compiler/analyses/repeated-runs.js";
import { renderSideBySide } from "../../compiler/report/runs.js";

describe("wilsonInterval", () => {
  it("matches the textbook values", () => {
    const close = (x: { low: number; high: number }, low: number, high: number) => {
      expect(x.low).toBeCloseTo(low, 4);
      expect(x.high).toBeCloseTo(high, 4);
    };
    close(wilsonInterval(10, 10), 0.7225, 1);
    close(wilsonInterval(0, 10), 0, 0.2775);
    close(wilsonInterval(5, 10), 0.2366, 0.7634);
    close(wilsonInterval(720, 720), 0.99469, 1);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe("summarizeRuns", () => {
  const slots: VerdictSlot[] = [
    { origin: "a: case 0", trajectoryId: "a", rule: "R1", expected: "true" },
    { origin: "a: case 0", trajectoryId: "a", rule: "R2", expected: "na" },
    { origin: "b: case 0", trajectoryId: "b", rule: "R1", expected: "false" },
    { origin: "b: case 0", trajectoryId: "b", rule: "R2", expected: null },
  ];

  it("counts agreement per run, pooled accuracy, perfect runs and unanimous slots", () => {
    const stats = summarizeRuns(slots.slice(0, 3), [
      { values: ["true", "na", "false"], errors: 0 },
      { values: ["true", "true", "false"], errors: 0 },
      { values: ["true", "na", "false"], errors: 0 },
    ]);
    expect(stats.perRun.map((r) => `${r.agree}/${r.total}`)).toEqual(["3/3", "2/3", "3/3"]);
    expect(stats.pooled).toMatchObject({ agree: 8, total: 9 });
    expect(stats.pooled.accuracy).toBeCloseTo(8 / 9);
    expect(stats.perfectRuns).toBe(2);
    expect(stats.unanimousSlots).toBe(2);
  });

  it("counts a case that could not be judged as a disagreement; a missing label is not compared (issue 24, partial labels)", () => {
    const stats = summarizeRuns(slots, [{ values: ["true", "na", "error", "error"], errors: 1 }]);
    expect(stats.perRun[0]).toEqual({ agree: 2, total: 3, errors: 1, clauseErrors: 0 });
    expect(stats.labeledSlots).toBe(3);
    expect(stats.perfectRuns).toBe(0);
  });

  it("a run that agrees on every labeled slot is perfect, whatever the unlabeled slot got (issue 24)", () => {
    const stats = summarizeRuns(slots, [
      { values: ["true", "na", "false", "true"], errors: 0 },
      { values: ["true", "na", "false", "false"], errors: 0 },
    ]);
    expect(stats.perRun.map((r) => `${r.agree}/${r.total}`)).toEqual(["3/3", "3/3"]);
    expect(stats.pooled).toMatchObject({ agree: 6, total: 6, accuracy: 1 });
    expect(stats.perfectRuns).toBe(2);
    expect(stats.slots).toBe(4);
  });

  it("unanimity is about the runs agreeing with each other, right or wrong", () => {
    const stats = summarizeRuns(slots.slice(0, 1), [
      { values: ["false"], errors: 0 },
      { values: ["false"], errors: 0 },
    ]);
    expect(stats.unanimousSlots).toBe(1);
    expect(stats.pooled.agree).toBe(0);
  });

  it("renders two judges side by side", () => {
    const a = summarizeRuns(slots.slice(0, 1), [{ values: ["true"], errors: 0 }]);
    const b = summarizeRuns(slots.slice(0, 1), [{ values: ["na"], errors: 0 }]);
    expect(
      renderSideBySide([
        { title: "judge", stats: a },
        { title: "baseline", stats: b },
      ]),
    ).toBe(
      [
        "                    judge                                  baseline",
        "run 1               1/1                                    0/1",
        "pooled accuracy     1/1 (100.0%; Wilson 95% 20.7%–100.0%)  0/1 (0.0%; Wilson 95% 0.0%–79.3%)",
        "perfect runs        1/1                                    0/1",
        "unanimous verdicts  1/1                                    1/1",
      ].join("\n"),
    );
  });
});
