/**
 * What the queue streams hold. A trajectory entry carries the trajectory as
 * JSON text and where it came from (file, case, line), so a worker's error
 * names the original file and line. A result entry carries the judgment (or
 * the case error) under a key: the hash of the judge (its version and IR sha)
 * and of the trajectory's text, so a redelivered entry, or the same corpus
 * enqueued twice, yields the same key and `collect` keeps one.
 */
import { createHash } from "node:crypto";
import type { InputCase } from "../inputs/case.js";

export const TRAJECTORY_FIELD = "trajectory";

/** The fields of one trajectory entry, flattened for XADD. */
export function trajectoryEntryFields(input: InputCase): string[] {
  const fields = [TRAJECTORY_FIELD, JSON.stringify(input.trajectory), "file", input.file, "case", String(input.index)];
  if (input.line !== undefined) fields.push("line", String(input.line));
  if (input.labeled === true) fields.push("labeled", "1");
  return fields;
}

/** A trajectory entry back as an input case; an entry that is not one becomes a case error, never a crash. */
export function inputCaseOfEntry(id: string, fields: Map<string, string>): { input: InputCase; text: string } {
  const file = fields.get("file") ?? `stream entry ${id}`;
  const index = Number(fields.get("case") ?? 0);
  const lineText = fields.get("line");
  const origin = {
    file,
    index: Number.isInteger(index) ? index : 0,
    ...(lineText !== undefined && /^\d+$/.test(lineText) ? { line: Number(lineText) } : {}),
  };
  const text = fields.get(TRAJECTORY_FIELD);
  if (text === undefined) return { input: { ...origin, error: `stream entry ${id} has no ${TRAJECTORY_FIELD} field` }, text: "" };
  try {
    return {
      input: { ...origin, trajectory: JSON.parse(text) as unknown, ...(fields.get("labeled") === "1" ? { labeled: true } : {}) },
      text,
    };
  } catch {
    return { input: { ...origin, error: `stream entry ${id}: the ${TRAJECTORY_FIELD} field is not JSON` }, text };
  }
}

export interface JudgeIdentity {
  version: string;
  irSha256: string;
}

/** The judge's sha as results carry it: its IR and the compiler version that built it. */
export function judgeSha(judge: JudgeIdentity): string {
  return createHash("sha256").update(`${judge.version}\n${judge.irSha256}`).digest("hex");
}

/**
 * Which judge wrote a result, as every result entry carries it and the
 * results stream's registry (`judgesKey`) lists it: two builds of one
 * behavior share its name and differ here. `sha` is `judgeSha`.
 */
export interface ResultJudge {
  sha: string;
  behavior: string;
  /** sha256 of the judge.yaml text the judge was built from (judge.mjs's `judgeYamlSha256`, also exported as `irSha256`). */
  judgeYamlSha256: string;
  /** The behavior-judge version that built it. */
  version: string;
}

export function resultJudge(judge: JudgeIdentity & { behavior: string }): ResultJudge {
  return { sha: judgeSha(judge), behavior: judge.behavior, judgeYamlSha256: judge.irSha256, version: judge.version };
}

/**
 * The hash beside a results stream where each worker registers its judge
 * (sha → ResultJudge as JSON) before it writes a result, so `collect` knows
 * every judge of the stream before it writes a line.
 */
export function judgesKey(results: string): string {
  return `${results}:judges`;
}

/** A judge as messages name it. */
export function describeJudge(judge: Pick<ResultJudge, "behavior" | "judgeYamlSha256" | "version">): string {
  return `${judge.behavior}, judge.yaml sha256 ${judge.judgeYamlSha256} (behavior-judge ${judge.version})`;
}

/** The result key: one per (judge, trajectory text). */
export function resultKey(judgeShaHex: string, trajectoryText: string): string {
  return createHash("sha256").update(judgeShaHex).update("\n").update(trajectoryText).digest("hex");
}
