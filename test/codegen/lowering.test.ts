/**
 * Generated code type-checks for every valid IR, whatever its patterns and
 * sizes (issue 8, defects 1 and 4), because of how it is lowered: steppers
 * read `actor` as a plain string, and a rule's per-check code is split into
 * methods of CHECKS_PER_METHOD checks.
 */
import { describe, expect, test } from "vitest";
import { compileIR } from "../../compiler/build/compile.js";
import { CHECKS_PER_METHOD } from "../../compiler/codegen/lower.js";
import type { Check, JudgeIR, Pattern } from "../../compiler/ir/types.js";
import { importBundled } from "../support/judges.js";

function judge(trigger: Pattern, checks: Check[]): JudgeIR {
  return { version: 1, behavior: "b", metaBehaviors: [{ name: "r", trigger: { description: "d", match: trigger }, checks, semanticChecks: [] }] };
}

describe("any-of patterns that repeat an actor (TS2367 when the actor was narrowed across ||)", () => {
  const patterns: Pattern[] = [
    [{ actor: "agent" }, { actor: "agent", action: "b" }],
    [{ actor: "agent" }, { actor: "user" }, { actor: "tool" }, { action: "z" }],
    [{ actor: "tool", action: "a" }, { actor: "tool" }],
  ];
  test.each(patterns.map((p) => [JSON.stringify(p), p] as const))("%s builds and matches", async (_, pattern) => {
    const ir = judge(pattern, [
      { type: "required", quote: "q", match: pattern, after: pattern },
      { type: "ordering", quote: "o", first: pattern, before: [{ action: "never" }] },
    ]);
    const compiled = await compileIR(ir, "x");
    const module = await importBundled(compiled);
    const judgment = await module.judgeTrajectory({ id: "t", complete: true, events: [{ id: "e1", actor: "agent", action: "b" }, { id: "e2", actor: "tool", action: "z" }] });
    expect(judgment.metaBehaviors[0]!.triggered).toBe(true);
  });
});

describe("a rule with many checks (TS2563 when one body held them all)", () => {
  test(`${3 * CHECKS_PER_METHOD + 7} checks in one rule build and judge`, async () => {
    const n = 3 * CHECKS_PER_METHOD + 7;
    const checks: Check[] = Array.from({ length: n }, (_, j) =>
      j % 2 === 0
        ? { type: "forbidden", quote: `f${j}`, match: [{ action: `a${j}` }], after: [{ actor: "user" }] }
        : { type: "count", quote: `c${j}`, match: [{ action: `a${j}` }], max: 0, distinctBy: "content" },
    );
    const compiled = await compileIR(judge([{ actor: "user" }], checks), "x");
    expect(compiled.judgeTs).toMatch(/stepPart3\(e: StepEvent\)/);
    const module = await importBundled(compiled);
    // The last check of the last part: a count (odd index) with max 0.
    const last = n % 2 === 0 ? n - 1 : n - 2;
    const events = [{ id: "e1", actor: "user", action: "hi" }, { id: "e2", actor: "agent", action: `a${last}` }, { id: "e3", actor: "agent", action: "a0" }];
    const judgment = await module.judgeTrajectory({ id: "t", complete: true, events });
    const clauses = judgment.metaBehaviors[0]!.clauses;
    expect(clauses).toHaveLength(n);
    expect(clauses.filter((c) => c.verdict === "false").map((c) => c.quote)).toEqual(["f0", `c${last}`]);
    // The monitor runs the split methods too.
    const monitor = module.createMonitor({ id: "t" });
    expect(monitor.push(events[0]).length + monitor.push(events[1]).length).toBe(1);
    expect(monitor.check(events[2]).map((v) => v.quote)).toEqual(["f0"]);
  }, 300_000);
});
