/**
 * A corpus is a folder with judge.yaml and trajectories/ of labeled cases (the
 * project's examples, or the reference corpus when it is present). These
 * helpers judge every case with both loadings of the compiled judge.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { JudgeIR } from "../../compiler/ir/types.js";
import type { JudgeModule } from "../../compiler/run/load.js";
import type { TrajectoryJudgment, Verdict } from "../../runtime/types.js";
import { compileYaml, importBundled, importGeneratedTs } from "./judges.js";

export interface LabeledCase {
  file: string;
  trajectory: { id: string } & Record<string, unknown>;
  expected: { verdict: Verdict; metaBehaviorVerdicts: Record<string, Verdict> };
}

export function readLabeledCases(dir: string): LabeledCase[] {
  const folder = join(dir, "trajectories");
  return readdirSync(folder)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => ({ file, ...JSON.parse(readFileSync(join(folder, file), "utf8")) }));
}

export interface LoadedCorpus {
  ir: JudgeIR;
  judges: { name: string; judge: JudgeModule }[];
  cases: LabeledCase[];
  judgeMjs: string;
}

export async function loadCorpus(dir: string): Promise<LoadedCorpus> {
  const { ir, compiled } = await compileYaml(readFileSync(join(dir, "judge.yaml"), "utf8"));
  return {
    ir,
    judges: [
      { name: "in-process judge.ts", judge: await importGeneratedTs(compiled) },
      { name: "bundled judge.mjs", judge: await importBundled(compiled) },
    ],
    cases: readLabeledCases(dir),
    judgeMjs: compiled.judgeMjs,
  };
}

/** A rule whose verdict no model can change offline: match trigger, no semantic checks. */
export function isDeterministicRule(ir: JudgeIR, name: string): boolean {
  const rule = ir.metaBehaviors.find((m) => m.name === name);
  return rule !== undefined && rule.trigger.match !== undefined && rule.semanticChecks.length === 0;
}

/** Label vs. judgment, for the rules selected; file verdict only when every rule is selected. */
export function disagreements(c: LabeledCase, judgment: TrajectoryJudgment, select: (rule: string) => boolean): string[] {
  const out: string[] = [];
  let all = true;
  for (const meta of judgment.metaBehaviors) {
    if (!select(meta.name)) {
      all = false;
      continue;
    }
    const expected = c.expected.metaBehaviorVerdicts[meta.name];
    if (expected !== meta.verdict) out.push(`${c.file}: ${meta.name}: expected ${expected}, got ${meta.verdict}`);
  }
  if (all && judgment.verdict !== c.expected.verdict)
    out.push(`${c.file}: file verdict: expected ${c.expected.verdict}, got ${judgment.verdict}`);
  return out;
}
