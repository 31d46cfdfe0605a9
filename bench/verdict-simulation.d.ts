// Types of bench/verdict-simulation.js, for test/generate/verdict-simulation.test.ts (the bench is
// plain JavaScript run on dist/; the test runs it on the sources).
import type { BehaviorSpec } from "../compiler/behavior-md/load.js";
import type { RuleLabels } from "../compiler/generate/offline/synthesize.js";
import type { previewJudge } from "../compiler/generate/preview.js";
import type { Draft, LabelVerdict, VerdictAsking, VerdictQuestion, Vocabulary } from "../compiler/generate/types.js";
import type { VerdictAskingOptions } from "../compiler/generate/verdicts.js";
import type { JudgeIR } from "../compiler/ir/types.js";
import type { Trajectory } from "../runtime/types.js";

/** The library functions the simulation runs on: the front ends' verdictAsking, and previewJudge. */
export interface SimulationLibrary {
  verdictAsking(options: VerdictAskingOptions): VerdictAsking | undefined;
  previewJudge: typeof previewJudge;
}

/** A labeled case as the bench reads it. */
export interface LabeledCase {
  trajectory: Trajectory;
  expected: { metaBehaviorVerdicts: Record<string, string> };
}

export interface AskedQuestion {
  sample: string;
  rule: string;
  answer: LabelVerdict;
  readings: VerdictQuestion["readings"];
  /** Set by simulateInterview: the draft's reading was the answer; the last draft says the answer. */
  draftRight?: boolean;
  finalRight?: boolean;
}

export interface Agreement {
  agree: number;
  total: number;
  /** The (sample, rule) pairs counted, as pairKey. */
  pairs: string[];
}

export const DEFAULT_QUESTIONS_PER_RULE: number;
export function pairKey(sample: string, rule: string): string;
export function askFromLabels(
  lib: SimulationLibrary,
  input: {
    spec: BehaviorSpec;
    vocabulary: Vocabulary;
    samples: readonly Trajectory[];
    labels: RuleLabels;
    draft: Draft;
    oracle: (sample: string, rule: string) => LabelVerdict | undefined;
    k?: number;
  },
): Promise<{ draft: Draft; asked: AskedQuestion[] }>;
export function agreementOn(
  lib: SimulationLibrary,
  ir: JudgeIR,
  samples: readonly Trajectory[],
  cases: readonly LabeledCase[],
  scored: ReadonlySet<string>,
  left?: ReadonlySet<string>,
): Agreement;
export function simulateInterview(
  lib: SimulationLibrary,
  input: {
    spec: BehaviorSpec;
    vocabulary: Vocabulary;
    samples: readonly Trajectory[];
    cases: readonly LabeledCase[];
    labels: RuleLabels;
    draft: Draft;
    scored: ReadonlySet<string>;
    k: number;
  },
): Promise<{
  asked: Required<AskedQuestion>[];
  before: Agreement;
  after: Agreement;
  rules: { name: string; questions: number; fitsEvery: boolean; wrong: number }[];
  draft: Draft;
}>;
