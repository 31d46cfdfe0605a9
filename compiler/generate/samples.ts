/**
 * Sample trajectories for `generate` and `lint --samples`: the same files
 * `judge` reads (docs/FORMATS.md §2), labeled or not. A bad sample is an error
 * naming file, case and field, and every bad sample is reported at once.
 * The same trajectory given twice (a sample and its labeled case in a labels
 * folder) is one sample with the labels of both.
 */
import { describeOrigin } from "../inputs/case.js";
import { readCases } from "../inputs/inputs.js";
import type { TraceReadOptions } from "../inputs/trace-inputs.js";
import { TrajectoryError, validateTrajectory } from "../../runtime/trajectory.js";
import type { Trajectory } from "../../runtime/types.js";
import { SamplesError } from "../errors.js";

/** Reads and validates every case of every file; throws SamplesError listing all problems. */
export async function loadSamples(files: readonly string[], read: TraceReadOptions = {}): Promise<Trajectory[]> {
  return (await loadLabeledSamples(files, read)).samples;
}

/** The samples, and the rule verdicts their labeled cases give (by sample id, then rule name). */
export async function loadLabeledSamples(
  files: readonly string[],
  read: TraceReadOptions = {},
): Promise<{ samples: Trajectory[]; labels: Record<string, Record<string, "true" | "false" | "na">> }> {
  const samples: Trajectory[] = [];
  const labels: Record<string, Record<string, "true" | "false" | "na">> = {};
  const problems: string[] = [];
  const seen = new Set<string>();
  for await (const item of readCases(files, read)) {
    if (item.error !== undefined) {
      problems.push(`${describeOrigin(item)}: ${item.error}`);
      continue;
    }
    try {
      const sample = validateTrajectory(item.trajectory);
      const verdicts = item.expected?.metaBehaviorVerdicts;
      // A labels folder (verdicts.ts) repeats samples given unlabeled too: the same trajectory is one sample, its labels added.
      const key = JSON.stringify(sample);
      if (!seen.has(key)) {
        seen.add(key);
        samples.push(sample);
      }
      if (verdicts !== undefined && Object.keys(verdicts).length > 0) labels[sample.id] = { ...labels[sample.id], ...verdicts };
    } catch (error) {
      const prefix = item.labeled === true && error instanceof TrajectoryError && error.field !== "" ? "trajectory." : "";
      problems.push(`${describeOrigin(item)}: ${prefix}${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (problems.length > 0) throw new SamplesError(problems);
  if (samples.length === 0) throw new SamplesError(["no sample trajectories: the files hold no cases"]);
  return { samples, labels };
}
