/**
 * Differential test of the code generator: the compiled judge against the
 * independent oracle in test/oracle on 10,000 random (judge.yaml, trajectory)
 * pairs from a fixed seed. Verdicts, na reasons, triggered flags and cited
 * event ids must agree exactly.
 */
import { describe, expect, test } from "vitest";
import { compileIR } from "../compiler/build/compile.js";
import type { TrajectoryJudgment } from "../runtime/types.js";
import { oracleJudge } from "./oracle/evaluate.js";
import { mulberry32, randomCase } from "./oracle/random.js";
import { importBundled } from "./support/judges.js";

const SEED = 20261129;
const JUDGES = 250;
const TRAJECTORIES_PER_JUDGE = 40;

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

describe("compiled judge vs. oracle", () => {
  test(`${JUDGES * TRAJECTORIES_PER_JUDGE} random pairs agree`, async () => {
    const rng = mulberry32(SEED);
    let compared = 0;
    const verdicts = { true: 0, false: 0, na: 0 };
    for (let j = 0; j < JUDGES; j++) {
      const { ir } = randomCase(rng, j);
      // The type check is proven elsewhere (golden, examples); here it would only cost time.
      const compiled = await compileIR(ir, JSON.stringify(ir), { typeCheck: j < 5 });
      const judge = await importBundled(compiled);
      for (let t = 0; t < TRAJECTORIES_PER_JUDGE; t++) {
        // Every random trajectory uses the same small vocabulary, so it suits any random judge.
        const { trajectory } = randomCase(rng, j * TRAJECTORIES_PER_JUDGE + t);
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
    // The generator must reach every file verdict often, or the agreement says little.
    for (const count of Object.values(verdicts)) expect(count).toBeGreaterThan(1000);
  }, 600_000);
});
