/**
 * Builds judges for tests from judge.yaml text, and loads them the two ways
 * a user does: the generated judge.ts imported unbundled (in-process), and the
 * bundled judge.mjs copied to a temporary folder with no node_modules.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compileIR, type CompiledJudge } from "../../compiler/build/compile.js";
import { parseJudgeYaml, formatDiagnostic } from "../../compiler/ir/index.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import type { BuiltJudge as JudgeModule } from "../../compiler/run/load.js";

export function parseOrThrow(text: string, file = "judge.yaml") {
  const parsed = parseJudgeYaml(text, { file });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join("\n"));
  return parsed;
}

export async function compileYaml(text: string, file = "judge.yaml"): Promise<{ ir: JudgeIR; compiled: CompiledJudge }> {
  const parsed = parseOrThrow(text, file);
  const compiled = await compileIR(parsed.ir, text, { file, positions: parsed.positions });
  return { ir: parsed.ir, compiled };
}

let counter = 0;

/** A fresh folder under the OS temp dir: no package.json, no node_modules above it. */
export function isolatedDir(): string {
  return mkdtempSync(join(tmpdir(), "bj-judge-"));
}

/** The shipped artifact: judge.mjs written alone to a temp folder and imported from there. */
export async function importBundled(compiled: CompiledJudge): Promise<JudgeModule> {
  const file = join(isolatedDir(), `judge-${counter++}.mjs`);
  writeFileSync(file, compiled.judgeMjs);
  return (await import(pathToFileURL(file).href)) as JudgeModule;
}

/** The unbundled generated module, its runtime import resolved to the sources (vitest alias). */
export async function importGeneratedTs(compiled: CompiledJudge): Promise<JudgeModule> {
  const file = join(isolatedDir(), `judge-${counter++}.ts`);
  writeFileSync(file, compiled.judgeTs);
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as JudgeModule;
}

/** The smallest useful judge.yaml: one ordering rule over `run_tests` and `deploy`. */
export const SMALL_JUDGE = `version: 1
behavior: small
metaBehaviors:
  - name: Tests before deploy
    trigger:
      description: The agent deploys.
      match:
        action: deploy
    checks:
      - type: ordering
        quote: tests run before the deploy
        first:
          action: run_tests
        before:
          action: deploy
`;
