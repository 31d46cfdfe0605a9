/** `build`: judge.yaml → judge.mjs + judge.d.mts (+ judge.ts on request). */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Trajectory } from "../../runtime/types.js";
import { compareDiagnostics, type Diagnostic } from "../diagnostics.js";
import { judgeWarnings, vocabularyWarnings } from "../ir/warnings.js";
import { compileJudgeYamlText } from "../build/compile.js";
import { readJudgeYaml } from "../build/judge-yaml.js";
import { checkBuildArgument } from "../files/argument-kind.js";

/** `foo/judge.yaml` → `foo/judge.mjs`. */
export function defaultJudgePath(yamlPath: string): string {
  return yamlPath.replace(/\.ya?ml$/i, "") + ".mjs";
}

/** TypeScript resolves the types of `x.mjs` from `x.d.mts`, and of `x.js` from `x.d.ts`. */
export function declarationPath(judgePath: string): string {
  if (/\.js$/i.test(judgePath)) return judgePath.slice(0, -".js".length) + ".d.ts";
  return judgePath.replace(/\.mjs$/i, "") + ".d.mts";
}

async function writeText(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, "utf8");
}

/** Compiles `yamlPath` and writes the artifacts; returns the paths written. */
export async function buildJudgeFile(
  yamlPath: string,
  options: {
    out?: string;
    ts?: string;
    /** Sample trajectories: an action or metadata key none of them uses is a warning. */
    samples?: readonly Trajectory[];
    warn?: (warning: Diagnostic) => void;
  } = {},
): Promise<string[]> {
  // A spec, a built judge or trajectories in place of the judge.yaml: one line saying which file goes where.
  await checkBuildArgument(yamlPath);
  const text = await readJudgeYaml(yamlPath);
  const { ir, positions, compiled } = await compileJudgeYamlText(text, yamlPath);
  const warnings = [
    ...judgeWarnings(ir, positions, yamlPath),
    ...(options.samples !== undefined ? vocabularyWarnings(text, yamlPath, options.samples) : []),
  ].sort(compareDiagnostics);
  for (const warning of warnings) options.warn?.(warning);
  const out = options.out ?? defaultJudgePath(yamlPath);
  const written: string[] = [];
  await writeText(out, compiled.judgeMjs);
  written.push(out);
  await writeText(declarationPath(out), compiled.judgeDts);
  written.push(declarationPath(out));
  if (options.ts !== undefined) {
    await writeText(options.ts, compiled.judgeTs);
    written.push(options.ts);
  }
  return written;
}
