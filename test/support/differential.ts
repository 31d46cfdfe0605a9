/**
 * The differential corpus: 250 random judges from a fixed seed, each compiled
 * and loaded as the shipped judge.mjs, with 40 random trajectories each
 * (10,000 pairs). test/differential.test.ts holds the judge to the oracle;
 * test/monitor-differential.test.ts holds the monitor to the judge.
 */
import { compileIR } from "../../compiler/build/compile.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import type { BuiltJudge } from "../../compiler/run/load.js";
import type { Trajectory } from "../../runtime/types.js";
import { mulberry32, randomCase } from "../oracle/random.js";
import { importBundled } from "./judges.js";

export const SEED = 20261129;
export const JUDGES = 250;
export const TRAJECTORIES_PER_JUDGE = 40;

export interface RandomJudge {
  index: number;
  ir: JudgeIR;
  judge: BuiltJudge;
  trajectories: Trajectory[];
}

/**
 * Each random judge with its trajectories, drawn from one generator in a
 * fixed order, so every run (and both tests) see the same pairs. Not
 * type-checked here: one check per judge would cost minutes (the differential
 * test checks them all at once).
 */
export async function* randomJudges(): AsyncGenerator<RandomJudge> {
  const rng = mulberry32(SEED);
  for (let index = 0; index < JUDGES; index++) {
    const { ir } = randomCase(rng, index);
    const judge = await importBundled(await compileIR(ir, JSON.stringify(ir), { typeCheck: false }));
    // Every random trajectory uses the same small vocabulary, so it suits any random judge.
    const trajectories = Array.from(
      { length: TRAJECTORIES_PER_JUDGE },
      (_, t) => randomCase(rng, index * TRAJECTORIES_PER_JUDGE + t).trajectory,
    );
    yield { index, ir, judge, trajectories };
  }
}
