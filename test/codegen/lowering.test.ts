/**
 * A rule too large for one method (issue 8, defect 4) is split into
 * `<method>Part<k>` helpers: every method a monitor uses is split the same
 * way, and the parts keep each check's state and order.
 */
import { describe, expect, test } from "vitest";
import { compileIR } from "../../compiler/build/compile.js";
import { STEP_CONDITIONS } from "../../compiler/codegen/lower.js";
import type { Check, JudgeIR } from "../../compiler/ir/types.js";
import { importBundled } from "../support/judges.js";

describe("a rule split into parts", () => {
  test("judges, reports violations and checks as one would", async () => {
    // Each check has 4 conditions (3 of its own and one action): about STEP_CONDITIONS / 4 per part.
    const n = STEP_CONDITIONS + 3;
    const checks: Check[] = Array.from({ length: n }, (_, j) =>
      j % 2 === 0
        ? { type: "forbidden", quote: `f${j}`, match: [{ action: `a${j}` }] }
        : { type: "count", quote: `c${j}`, match: [{ action: `a${j}` }], max: 0 },
    );
    const ir: JudgeIR = {
      version: 1,
      behavior: "b",
      metaBehaviors: [{ name: "r", trigger: { description: "d", match: [{ actor: "user" }] }, checks, semanticChecks: [] }],
    };
    const compiled = await compileIR(ir, "x");
    for (const part of ["stepPart3", "violationsPart3", "checkPart3"]) expect(compiled.judgeTs).toContain(`${part}(`);
    const judge = await importBundled(compiled);
    // The last check is in the last part: a count (odd index) with max 0.
    const last = n % 2 === 0 ? n - 1 : n - 2;
    const events = [
      { id: "e1", actor: "agent", action: `a${last}` },
      { id: "e2", actor: "user", action: "hi" },
      { id: "e3", actor: "agent", action: "a0" },
    ];
    const judgment = await judge.judgeTrajectory({ id: "t", complete: true, events });
    const clauses = judgment.metaBehaviors[0]!.clauses;
    expect(clauses).toHaveLength(n);
    expect(clauses.filter((c) => c.verdict === "false").map((c) => c.quote)).toEqual(["f0", `c${last}`]);

    const monitor = judge.createMonitor({ id: "t" });
    expect(monitor.push(events[0])).toEqual([]);
    // The trigger fires at e2: the count that was false since e1 is reported then.
    expect(monitor.push(events[1]).map((v) => v.quote)).toEqual([`c${last}`]);
    expect(monitor.check(events[2]).map((v) => v.quote)).toEqual(["f0"]);
    expect(monitor.check(events[2]).map((v) => v.quote)).toEqual(["f0"]);
    expect(monitor.push(events[2]).map((v) => v.quote)).toEqual(["f0"]);
    expect(JSON.stringify(await monitor.end({ complete: true }))).toBe(JSON.stringify(judgment));
  }, 300_000);
});

describe("a pattern the step tests more than once", () => {
  test("is tested once per event, in a local at the top of step, and judges as before", async () => {
    const pay = [{ action: "pay" }, { action: "credit" }];
    const ir: JudgeIR = {
      version: 1,
      behavior: "b",
      metaBehaviors: [
        {
          name: "r",
          trigger: { description: "d", match: pay },
          checks: [
            { type: "forbidden", quote: "f", match: pay, after: [{ action: "escalate" }] },
            { type: "count", quote: "c", match: pay, max: 1 },
            { type: "required", quote: "q", match: [{ action: "note" }], after: [{ action: "escalate" }] },
          ],
          semanticChecks: [],
        },
      ],
    };
    const compiled = await compileIR(ir, "x");
    const step = compiled.judgeTs.slice(compiled.judgeTs.indexOf("step(e: StepEvent)"));
    expect(step).toMatch(/const pattern0 = e\.action === "pay" \|\| e\.action === "credit";/);
    expect(step).toMatch(/const pattern1 = e\.action === "escalate";/);
    // Each test is written once: in its local, nowhere else.
    expect(step.slice(0, step.indexOf("finish(")).match(/e\.action === "pay"/g)).toHaveLength(1);
    expect(step).toContain("if (!this.triggered && pattern0) this.triggered = true;");
    const judge = await importBundled(compiled);
    const events = [
      { id: "e1", actor: "agent", action: "pay" },
      { id: "e2", actor: "agent", action: "escalate" },
      { id: "e3", actor: "agent", action: "credit" },
      { id: "e4", actor: "agent", action: "note" },
    ];
    const judgment = await judge.judgeTrajectory({ id: "t", complete: true, events });
    expect(judgment.metaBehaviors[0]!.clauses.map((c) => [c.quote, c.verdict, c.citations.map((x) => x.eventId)])).toEqual([
      ["f", "false", ["e3"]],
      ["c", "false", ["e1", "e3"]],
      ["q", "true", ["e4"]],
    ]);
  });
});
