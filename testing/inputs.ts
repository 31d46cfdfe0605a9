/**
 * What the helpers accept as "a trajectory": a trajectory object, a labeled
 * `{trajectory, expected}` case, a JSON string of either, or any agent trace
 * the importers read (OpenAI, Anthropic, AI SDK, OTel…), which may hold
 * several trajectories.
 */
import { importTrace, looksLikeTrajectory } from "../importers/detect.js";
import { formatIssue } from "../importers/core.js";
import type { TrajectoryJudgment } from "../runtime/types.js";
import type { JudgeOptions } from "../runtime/judge.js";
import { readExpected, type ExpectedLabels } from "./labels.js";

/** What every compiled judge.mjs exports (the parts the helpers use). */
export interface JudgeLike {
  behavior: string;
  judgeTrajectory(trajectory: unknown, options?: JudgeOptions): Promise<TrajectoryJudgment>;
}

export interface HelperCase {
  trajectory: unknown;
  expected?: ExpectedLabels;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A case's labels, read as calibrate reads them; labels calibrate would refuse are a TypeError. */
function caseLabels(value: unknown): ExpectedLabels | undefined {
  if (value === undefined) return undefined;
  const expected = readExpected(value);
  if (typeof expected === "string") throw new TypeError(`not a labeled case: ${expected}`);
  return expected;
}

/**
 * The cases in `input`; throws a TypeError naming the problem when nothing
 * in it is a trajectory, or when a labeled case's labels are invalid.
 */
export function readCases(input: unknown, options: { from?: string } = {}): HelperCase[] {
  const value = typeof input === "string" ? JSON.parse(input) : input;
  if (isRecord(value) && "trajectory" in value && (looksLikeTrajectory(value.trajectory) || isRecord(value.trajectory))) {
    const expected = caseLabels(value.expected);
    return [{ trajectory: value.trajectory, ...(expected !== undefined ? { expected } : {}) }];
  }
  if ((options.from ?? "auto") === "auto" && (looksLikeTrajectory(value) || (isRecord(value) && Array.isArray(value.events))))
    return [{ trajectory: value }];
  if (options.from === "trajectory") return [{ trajectory: value }];
  const imported = importTrace(value, options.from !== undefined ? { from: options.from } : {});
  if (imported.errors.length > 0) throw new TypeError(`not a trajectory: ${imported.errors.map(formatIssue).join("; ")}`);
  if (imported.trajectories.length === 0) throw new TypeError("not a trajectory: the trace holds no trajectory");
  return imported.trajectories.map((trajectory) => ({ trajectory }));
}
