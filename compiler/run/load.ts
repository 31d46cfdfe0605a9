/**
 * Loads a judge for `judge` and `calibrate`: a built judge.mjs is imported as
 * is; for a judge.yaml, build/ compiles it in memory (or the build cache
 * holds it from an earlier run), so both paths run exactly the code `build`
 * ships. build/ is imported lazily: judging a judge.mjs must not pay for
 * ts-morph, prettier or esbuild, nor for reading a judge.yaml.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { JudgeModule as BuiltJudge } from "../../runtime/judge.js";
import { JudgeLoadError } from "../errors.js";

/** What every judge.mjs exports: the runtime's own type, which judge.d.mts is checked against. */
export type { BuiltJudge };

/**
 * What `judge`, `calibrate` and `baseline` use of a judge: part of the
 * runtime's type (the baseline, a judge without rules, has no monitor).
 */
export type JudgeModule = Pick<BuiltJudge, "version" | "behavior" | "irSha256" | "rules" | "judgeTrajectory">;

export function isJudgeModulePath(path: string): boolean {
  return /\.(mjs|js)$/i.test(path);
}

function isJudgeYamlPath(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}

function assertJudgeModule(mod: Record<string, unknown>, from: string): JudgeModule {
  if (typeof mod.judgeTrajectory !== "function" || typeof mod.behavior !== "string" || !Array.isArray(mod.rules)) {
    throw new JudgeLoadError(`${from} is not a judge built by behavior-judge (it lacks judgeTrajectory, behavior or rules)`);
  }
  return mod as unknown as JudgeModule;
}

/** Imports judge.mjs source from memory (it has no imports, so a data: URL suffices). */
export async function importJudgeSource(judgeMjs: string, from = "judge.mjs"): Promise<JudgeModule> {
  const url = `data:text/javascript;base64,${Buffer.from(judgeMjs, "utf8").toString("base64")}`;
  return assertJudgeModule(await import(url), from);
}

async function importJudgeFile(path: string): Promise<JudgeModule> {
  // A mistyped path is the user's error, not a loader crash: report it as the missing file it is.
  if (!existsSync(path)) throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: "ENOENT", path });
  return assertJudgeModule(await import(pathToFileURL(resolve(path)).href), path);
}

/**
 * Where a loaded judge's code is, for another thread to load the same judge:
 * a judge.mjs file, or the judge.mjs source compiled from a judge.yaml.
 */
export type JudgeCode = { path: string } | { source: string; from: string };

/**
 * Loads a judge from judge.mjs (imported) or judge.yaml (compiled, or taken
 * from the build cache when the same judge.yaml was compiled before).
 */
export async function loadJudge(path: string): Promise<JudgeModule> {
  return (await loadJudgeCode(path)).judge;
}

/** Loads a judge as loadJudge does, and says where its code is (the worker threads load it again from there). */
export async function loadJudgeCode(path: string): Promise<{ judge: JudgeModule; code: JudgeCode }> {
  if (isJudgeModulePath(path)) return { judge: await importJudgeFile(path), code: { path: resolve(path) } };
  const source = await compiledJudgeSource(path);
  return { judge: await importJudgeSource(source, path), code: { source, from: path } };
}

/** A judge in another thread, from what loadJudgeCode said. */
export async function importJudgeCode(code: JudgeCode): Promise<JudgeModule> {
  return "path" in code ? importJudgeFile(code.path) : importJudgeSource(code.source, code.from);
}

async function compiledJudgeSource(path: string): Promise<string> {
  if (!isJudgeYamlPath(path)) {
    throw new JudgeLoadError(`${path}: a judge is a built judge.mjs or a judge.yaml (to draft a judge.yaml from a spec, run generate)`);
  }
  const text = await (await import("../build/judge-yaml.js")).readJudgeYaml(path);
  const { buildCachePath, readBuild, storeBuild } = await import("../build/cache.js");
  const cachePath = buildCachePath(path, text);
  // Imported from the bytes that passed the check, not from the file, which could change in between.
  const cached = await readBuild(cachePath);
  if (cached !== undefined) return cached;
  const { compileJudgeYamlText } = await import("../build/compile.js");
  const { compiled } = await compileJudgeYamlText(text, path);
  await storeBuild(cachePath, compiled.judgeMjs);
  return compiled.judgeMjs;
}
