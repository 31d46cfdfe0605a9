/**
 * Shared checks for importers whose fixtures were recorded from the real SDKs
 * (scripts/record-fixtures/): golden trajectories byte for byte (refresh with
 * `UPDATE_GOLDEN=1 npx vitest run test/importers`), identical bytes on a
 * second import, valid trajectories, and a round trip through a judge built
 * from the format's small judge.yaml.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { validateTrajectory } from "../../runtime/trajectory.js";
import type { ImportOptions, ImportResult } from "../../importers/core.js";
import type { Trajectory, TrajectoryJudgment } from "../../runtime/types.js";
import { compileYaml, importBundled } from "../support/judges.js";

const ROOT = join(import.meta.dirname, "..", "..");
export const fixtureDir = (format: string): string => join(ROOT, "test", "fixtures", "importers", format);
const goldenDir = (format: string): string => join(ROOT, "test", "golden", "importers", format);

export function readFixture(format: string, file: string): unknown {
  return JSON.parse(readFileSync(join(fixtureDir(format), file), "utf8"));
}

/** Trajectories as JSON lines, the way `import -o out.jsonl` writes them. */
export function toJsonl(trajectories: readonly Trajectory[]): string {
  return trajectories.map((t) => JSON.stringify(t)).join("\n") + "\n";
}

/** Imports a fixture twice (fresh parses), checks both give the same bytes, every trajectory validates, and the golden matches. */
export function checkGolden(format: string, file: string, importer: (input: unknown, options?: ImportOptions) => ImportResult): ImportResult {
  const first = importer(readFixture(format, file));
  const second = importer(readFixture(format, file));
  expect(first.errors).toEqual([]);
  const bytes = toJsonl(first.trajectories);
  expect(toJsonl(second.trajectories)).toBe(bytes);
  for (const t of first.trajectories) expect(validateTrajectory(JSON.parse(JSON.stringify(t)))).toBeTruthy();
  const golden = join(goldenDir(format), file.replace(/\.json$/, ".jsonl"));
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(golden)) {
    if (process.env.UPDATE_GOLDEN !== "1") throw new Error(`missing golden ${golden}: run UPDATE_GOLDEN=1 npx vitest run test/importers`);
    mkdirSync(dirname(golden), { recursive: true });
    writeFileSync(golden, bytes);
  }
  expect(bytes).toBe(readFileSync(golden, "utf8"));
  return first;
}

/** Builds the format's judge.yaml into the shipped judge.mjs and judges each trajectory with it. */
export async function judgeAll(format: string, trajectories: readonly Trajectory[]): Promise<TrajectoryJudgment[]> {
  const { compiled } = await compileYaml(readFileSync(join(fixtureDir(format), "judge.yaml"), "utf8"));
  const judge = await importBundled(compiled);
  const out: TrajectoryJudgment[] = [];
  for (const t of trajectories) out.push(await judge.judgeTrajectory(JSON.parse(JSON.stringify(t))));
  return out;
}

/** `{file verdict, each meta-behavior's verdict (with its na reason)}` for compact expectations. */
export function verdicts(j: TrajectoryJudgment): { verdict: string; metas: Record<string, string> } {
  const metas: Record<string, string> = {};
  for (const m of j.metaBehaviors) metas[m.name] = m.verdict === "na" ? `na:${m.naReason}` : m.verdict;
  return { verdict: j.verdict, metas };
}
