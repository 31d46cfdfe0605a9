/**
 * Repeated runs over labeled cases (`calibrate --runs N`, `baseline`): the
 * figures of the seed's head-to-head. A verdict slot is one rule of one case;
 * each run fills every slot with a verdict (or "error" when the case could
 * not be judged), and the figures compare the runs with the labels and with
 * each other.
 */
import type { SemanticUsage } from "../../runtime/semantic.js";
import type { MetaBehaviorJudgment, Verdict } from "../../runtime/types.js";
import { describeOrigin, type InputCase } from "../inputs/case.js";
import { readCases } from "../inputs/inputs.js";
import type { TraceReadOptions } from "../inputs/trace-inputs.js";
import type { JudgeModule } from "../run/load.js";
import { judgeCases, type RunOptions } from "../run/judge-cases.js";
import { Tally, type VerifyCounts } from "./tally.js";

export type SlotValue = Verdict | "error";

export interface VerdictSlot {
  /** `file: case N` of the case the slot belongs to. */
  origin: string;
  trajectoryId: string;
  rule: string;
  /** The label, or null when the case has none for this rule: not compared, as in calibrate (partial labels). */
  expected: Verdict | null;
}

export interface RunAgreement {
  agree: number;
  total: number;
  /** Cases the run could not judge. */
  errors: number;
  /** Rule verdicts that rest on a clause the model gave no valid answer for (slot value "error"). */
  clauseErrors: number;
}

export interface RunStatistics {
  runs: number;
  slots: number;
  /** Slots with a label: the only ones compared (a run's `total`). */
  labeledSlots: number;
  perRun: RunAgreement[];
  pooled: { agree: number; total: number; accuracy: number; low: number; high: number };
  /** Runs in which every slot agreed with its label. */
  perfectRuns: number;
  /** Slots that got the same value in every run (right or wrong). */
  unanimousSlots: number;
}

/** One run: a value per slot, in slot order, and the number of cases it could not judge. */
export interface RunResult {
  values: SlotValue[];
  errors: number;
  /** Slots of judged cases that came out "error" because a clause got no valid model answer. */
  clauseErrors?: number;
}

const Z95 = 1.959963984540054;

/**
 * The Wilson score interval for k successes in n trials: unlike the normal
 * approximation it stays inside [0, 1] and is honest at 100%.
 */
export function wilsonInterval(k: number, n: number, z = Z95): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const center = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

export function summarizeRuns(slots: readonly VerdictSlot[], runs: readonly RunResult[]): RunStatistics {
  // A slot without a label is not compared: neither an agreement nor a disagreement (calibrate's partial labels).
  const labeledSlots = slots.filter((slot) => slot.expected !== null).length;
  const perRun = runs.map((run) => {
    let agree = 0;
    slots.forEach((slot, i) => {
      if (slot.expected !== null && run.values[i] === slot.expected) agree++;
    });
    return { agree, total: labeledSlots, errors: run.errors, clauseErrors: run.clauseErrors ?? 0 };
  });
  const agree = perRun.reduce((sum, r) => sum + r.agree, 0);
  const total = perRun.reduce((sum, r) => sum + r.total, 0);
  const unanimousSlots = slots.filter((_, i) => runs.every((run) => run.values[i] === runs[0]?.values[i])).length;
  return {
    runs: runs.length,
    slots: slots.length,
    labeledSlots,
    perRun,
    pooled: { agree, total, accuracy: total === 0 ? 0 : agree / total, ...wilsonInterval(agree, total) },
    perfectRuns: perRun.filter((r) => r.agree === r.total && r.errors === 0 && r.clauseErrors === 0).length,
    unanimousSlots: runs.length === 0 ? 0 : unanimousSlots,
  };
}

/** Every run perfect: what a passing `calibrate --runs N` means. */
export function allRunsPerfect(stats: RunStatistics): boolean {
  return stats.runs > 0 && stats.perfectRuns === stats.runs;
}

/** The slots of one case: one per rule, labeled from `expected`. */
export function caseSlots(input: InputCase, trajectoryId: string, rules: readonly string[]): VerdictSlot[] {
  const labels = input.expected?.metaBehaviorVerdicts ?? {};
  const origin = describeOrigin(input);
  return rules.map((rule) => ({ origin, trajectoryId, rule, expected: Object.hasOwn(labels, rule) ? labels[rule]! : null }));
}

/** A trajectory id for slot bookkeeping, even when the case is malformed. */
export function idOf(input: InputCase): string {
  const t = input.trajectory as { id?: unknown } | undefined;
  return typeof t?.id === "string" ? t.id : describeOrigin(input);
}

/**
 * Runs `judgeRun` N times over the same cases and lines the results up by
 * slot. `judgeRun` yields, per case in input order, the verdict of each rule
 * (by name) or undefined when the case could not be judged.
 */
export async function collectRuns(
  runs: number,
  rules: readonly string[],
  judgeRun: (run: number) => AsyncIterable<{ input: InputCase; verdicts: ReadonlyMap<string, SlotValue> | undefined }>,
): Promise<{ slots: VerdictSlot[]; results: RunResult[] }> {
  let slots: VerdictSlot[] | undefined;
  const results: RunResult[] = [];
  for (let run = 0; run < runs; run++) {
    const runSlots: VerdictSlot[] = [];
    const values: SlotValue[] = [];
    let errors = 0;
    let clauseErrors = 0;
    for await (const { input, verdicts } of judgeRun(run)) {
      if (verdicts === undefined || input.expected === undefined) errors++;
      runSlots.push(...caseSlots(input, idOf(input), rules));
      for (const rule of rules) {
        const value = verdicts?.get(rule);
        if (value === "error") clauseErrors++;
        values.push(value ?? "error");
      }
    }
    slots ??= runSlots;
    results.push({ values, errors, clauseErrors });
  }
  return { slots: slots ?? [], results };
}

/**
 * A rule's verdict, or "error" when it carries the error marker (a clause got
 * no valid model answer): its na, or a false beside a failed verify call, may
 * still equal the label, and counting it as agreement would make a model
 * failure a silent pass, as plain `calibrate` never does.
 */
function slotValue(meta: MetaBehaviorJudgment): SlotValue {
  return meta.error === true ? "error" : meta.verdict;
}

/** `calibrate --runs N`: the compiled judge N times over the labeled files. */
export async function calibrateRuns(
  judge: JudgeModule,
  files: readonly string[],
  runs: number,
  options: RunOptions & { read?: TraceReadOptions } = {},
): Promise<{ slots: VerdictSlot[]; results: RunResult[]; statistics: RunStatistics; usage: SemanticUsage; verifications: VerifyCounts }> {
  const { read, ...runOptions } = options;
  const rules = judge.rules.map((r) => r.name);
  // Over all runs: what verify-on-false did and what the calls cost.
  const tally = new Tally(rules);
  const { slots, results } = await collectRuns(runs, rules, async function* () {
    for await (const result of judgeCases(judge, readCases(files, read), runOptions)) {
      tally.add(result);
      const verdicts = result.kind === "judged" ? new Map(result.judgment.metaBehaviors.map((m) => [m.name, slotValue(m)])) : undefined;
      yield { input: result.input, verdicts };
    }
  });
  return { slots, results, statistics: summarizeRuns(slots, results), usage: tally.usage, verifications: tally.verifications };
}
