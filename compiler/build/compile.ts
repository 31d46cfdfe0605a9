/**
 * The compile pipeline: judge.yaml text → checked IR → judge.ts (generated,
 * formatted, type-checked) → judge.mjs (bundled) + judge.d.ts. Pure in
 * memory; the caller decides what to write.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { formatJudgeTs } from "../codegen/format.js";
import { generateJudgeModule } from "../codegen/emit.js";
import { typeCheckJudgeTs } from "../codegen/typecheck.js";
import { bundleJudge } from "./bundle.js";
import { readJudgeYaml } from "./judge-yaml.js";
import { JudgeYamlError } from "../diagnostics.js";
import { parseJudgeYaml, type IRPositions } from "../ir/parse.js";
import type { JudgeIR } from "../ir/types.js";
import { TEMPLATES_DIR } from "../paths.js";

export interface CompiledJudge {
  judgeTs: string;
  judgeMjs: string;
  judgeDts: string;
  /** sha256 (hex) of the judge.yaml text, as judge.mjs exports it. */
  judgeYamlSha256: string;
  /** The same hash under its first name (judge.mjs exports both). */
  irSha256: string;
}

export interface CompileOptions {
  /** The judge.yaml file name shown in generated comments (default "judge.yaml"). */
  file?: string;
  positions?: { metaBehaviors: { line: number; checks: number[] }[] };
  /** Skip the type check (tests of the type check itself only). */
  typeCheck?: boolean;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

let dtsTemplate: string | undefined;

/**
 * judge.d.ts is the same for every judge: the API does not depend on the rules.
 * scripts/judge-dts.js writes it from the runtime's own types at build time.
 */
export function judgeDts(): string {
  dtsTemplate ??= readFileSync(join(TEMPLATES_DIR, "judge.d.ts"), "utf8");
  return dtsTemplate;
}

/**
 * Compiles a checked IR. `yamlText` is the judge.yaml it came from, hashed
 * into the header so a shipped judge names its source.
 */
export async function compileIR(ir: JudgeIR, yamlText: string, options: CompileOptions = {}): Promise<CompiledJudge> {
  const judgeYamlSha256 = sha256(yamlText);
  const file = options.file ?? "judge.yaml";
  const generated = generateJudgeModule(ir, { judgeYamlSha256, file, ...(options.positions ? { positions: options.positions } : {}) });
  const banner = String(generated.banner);
  const judgeTs = `${banner}\n${await formatJudgeTs(String(generated.module))}`;
  if (options.typeCheck !== false) typeCheckJudgeTs(judgeTs);
  const judgeMjs = await bundleJudge(judgeTs, banner);
  return { judgeTs, judgeMjs, judgeDts: judgeDts(), judgeYamlSha256, irSha256: judgeYamlSha256 };
}

/** Parses, checks and compiles judge.yaml text; throws JudgeYamlError on invalid input. */
export async function compileJudgeYamlText(
  text: string,
  path: string,
): Promise<{ ir: JudgeIR; positions: IRPositions; compiled: CompiledJudge }> {
  const parsed = parseJudgeYaml(text, { file: path });
  if (!parsed.ok) throw new JudgeYamlError(parsed.diagnostics);
  const compiled = await compileIR(parsed.ir, text, { file: basename(path), positions: parsed.positions });
  return { ir: parsed.ir, positions: parsed.positions, compiled };
}

/** Parses, checks and compiles a judge.yaml file; throws JudgeYamlError on invalid input. */
export async function compileJudgeYamlFile(path: string): Promise<{ ir: JudgeIR; positions: IRPositions; compiled: CompiledJudge }> {
  return compileJudgeYamlText(await readJudgeYaml(path), path);
}
