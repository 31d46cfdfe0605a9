/**
 * The extended rule language, differentially: each random judge of
 * test/support/differential-extended.ts, compiled and loaded as the shipped
 * judge.mjs, against the independent oracle (test/oracle/evaluate.ts,
 * test/oracle/values.ts) on random trajectories. Verdicts, na reasons,
 * triggered flags, verification and cited event ids (in order) must agree
 * exactly.
 */
import { describe, expect, test } from "vitest";
import type { JudgeIR } from "../compiler/ir/types.js";
import type { Trajectory, TrajectoryJudgment } from "../runtime/types.js";
import { oracleJudge } from "./oracle/evaluate.js";
import { formsOf } from "./oracle/random-extended.js";
import { extendedJudges } from "./support/differential-extended.js";

const JUDGES = Number(process.env.BJ_EXTENDED_JUDGES ?? 200);
const TRAJECTORIES_PER_JUDGE = 40;

/** What the differential compares: everything but free-text descriptions, reasoning and explanations. */
export function essence(j: TrajectoryJudgment) {
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

/** The first clause that differs, its check and the trajectory in one line per event: enough to reproduce by hand. */
export function disagreement(ir: JudgeIR, trajectory: Trajectory, actual: Essence, expected: Essence, yaml: string): string {
  const lines = [`complete: ${trajectory.complete}`];
  for (const e of trajectory.events) lines.push(`  ${JSON.stringify(e)}`);
  for (const [r, rule] of expected.metaBehaviors.entries()) {
    const got = actual.metaBehaviors[r]!;
    if (JSON.stringify(got) === JSON.stringify(rule)) continue;
    const c = rule.clauses.findIndex((clause, i) => JSON.stringify(clause) !== JSON.stringify(got.clauses[i]));
    lines.unshift(
      `rule ${r} check ${c}: ${JSON.stringify(ir.metaBehaviors[r]!.checks[c])}`,
      `trigger: ${JSON.stringify(ir.metaBehaviors[r]!.trigger)}`,
      `judge:  ${JSON.stringify(got.clauses[c] ?? got)}`,
      `oracle: ${JSON.stringify(rule.clauses[c] ?? rule)}`,
    );
    break;
  }
  return `${lines.join("\n")}\n--- judge.yaml\n${yaml}`;
}

type Essence = ReturnType<typeof essence>;

describe("extended language: compiled judge vs. oracle", () => {
  test(`${JUDGES * TRAJECTORIES_PER_JUDGE} random pairs agree`, async () => {
    const started = Date.now();
    let compared = 0;
    const verdicts = { true: 0, false: 0, na: 0 };
    const clauseVerdicts: Record<string, Record<string, number>> = {};
    const tally = { rejected: 0 };
    const disagreements: string[] = [];
    for await (const { ir, yaml, judge, trajectories } of extendedJudges(JUDGES, TRAJECTORIES_PER_JUDGE, { tally })) {
      for (const trajectory of trajectories) {
        const actual = essence(await judge.judgeTrajectory(trajectory));
        const expected = essence(oracleJudge(ir, trajectory));
        if (JSON.stringify(actual) !== JSON.stringify(expected)) {
          disagreements.push(disagreement(ir, trajectory, actual, expected, yaml));
          if (!process.env.BJ_EXTENDED_ALL) throw new Error(disagreements[0]);
        }
        verdicts[actual.verdict]++;
        compared++;
        ir.metaBehaviors.forEach((rule, r) => {
          rule.checks.forEach((check, c) => {
            const clause = actual.metaBehaviors[r]!.clauses[c];
            if (clause === undefined) return;
            const outcome = clause.verdict === "na" ? `na:${clause.naReason}` : clause.verdict;
            for (const form of formsOf(check).length > 0 ? formsOf(check) : [`${check.type} (v1)`]) {
              const row = (clauseVerdicts[form] ??= {});
              row[outcome] = (row[outcome] ?? 0) + 1;
            }
          });
        });
      }
    }
    if (disagreements.length > 0) {
      console.log(disagreements.map((d) => d.split("\n--- judge.yaml")[0]!.split("\n").slice(0, 4).join("\n")).join("\n\n"));
      throw new Error(`${disagreements.length} disagreements; the first:\n${disagreements[0]}`);
    }
    expect(compared).toBe(JUDGES * TRAJECTORIES_PER_JUDGE);
    console.log(
      `${compared} pairs in ${((Date.now() - started) / 1000).toFixed(1)} s; verdicts ${JSON.stringify(verdicts)}; ` +
        `${tally.rejected} when texts redrawn; clause verdicts by form:\n` +
        Object.entries(clauseVerdicts)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([form, row]) => `  ${form}: ${JSON.stringify(row)}`)
          .join("\n"),
    );
    // Every form must reach true, false and na, or the agreement says little about it.
    for (const [form, row] of Object.entries(clauseVerdicts)) {
      for (const outcome of ["true", "false"]) expect(row[outcome] ?? 0, `${form} ${outcome}`).toBeGreaterThanOrEqual(8);
    }
    for (const count of Object.values(verdicts)) expect(count).toBeGreaterThan(JUDGES);
  }, 900_000);
});
