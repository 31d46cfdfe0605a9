/**
 * The extended differential corpus: random judges in the extended rule
 * language (test/oracle/random-extended.ts) from a fixed seed, each written
 * as judge.yaml, parsed back (so every random judge is one the schema
 * accepts), compiled and loaded as the shipped judge.mjs, with random
 * trajectories each. test/differential-extended.test.ts holds the judge to
 * the oracle, and the monitor to both.
 */
import { isDeepStrictEqual } from "node:util";
import { compileIR } from "../../compiler/build/compile.js";
import { formatDiagnostic, parseJudgeYaml, serializeJudgeYaml } from "../../compiler/ir/index.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import type { BuiltJudge } from "../../compiler/run/load.js";
import type { Trajectory } from "../../runtime/types.js";
import { mulberry32, randomExtendedIr, randomExtendedTrajectory, type ExtendedTally } from "../oracle/random-extended.js";
import { importBundled } from "./judges.js";

export const EXTENDED_SEED = 20261202;

export interface ExtendedJudge {
  index: number;
  ir: JudgeIR;
  yaml: string;
  judge: BuiltJudge;
  trajectories: Trajectory[];
}

/** The IR as judge.yaml, parsed back: a generator bug or a schema refusal is an error here, not a silent skip. */
export function throughYaml(ir: JudgeIR): { ir: JudgeIR; yaml: string } {
  const yaml = serializeJudgeYaml(ir);
  const parsed = parseJudgeYaml(yaml, { file: "random.yaml" });
  if (!parsed.ok) throw new Error(`a random judge the schema refuses:\n${parsed.diagnostics.map(formatDiagnostic).join("\n")}\n${yaml}`);
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.ir)), JSON.parse(JSON.stringify(ir)))) {
    throw new Error(`judge.yaml does not read back as the random IR:\n${yaml}\n${JSON.stringify(parsed.ir)}`);
  }
  return { ir: parsed.ir, yaml };
}

export async function* extendedJudges(
  judges: number,
  trajectoriesPerJudge: number,
  options: { seed?: number; negativeAmounts?: boolean; tally?: ExtendedTally } = {},
): AsyncGenerator<ExtendedJudge> {
  const rng = mulberry32(options.seed ?? EXTENDED_SEED);
  for (let index = 0; index < judges; index++) {
    const { ir, yaml } = throughYaml(randomExtendedIr(rng, options.tally));
    const judge = await importBundled(await compileIR(ir, yaml, { typeCheck: false }));
    const trajectories = Array.from({ length: trajectoriesPerJudge }, (_, t) =>
      randomExtendedTrajectory(rng, `case-${index}-${t}`, options.negativeAmounts ?? true),
    );
    yield { index, ir, yaml, judge, trajectories };
  }
}
