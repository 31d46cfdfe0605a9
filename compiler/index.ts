/**
 * The library API of behavior-judge: everything the CLI does, as functions.
 * (The CLI imports the same modules lazily, so `judge judge.mjs` stays fast;
 * importing this index loads the whole compiler.)
 *
 *   parse / check   parseJudgeYaml, serializeJudgeYaml, formatDiagnostic
 *   compile / build compileIR, compileJudgeYamlFile, buildJudgeFile
 *   judge           loadJudge, importJudgeSource, readCases, judgeCases
 *   calibrate       calibrate, calibrationPassed, calibrateRuns
 *   model           createHostModel (OpenAI-compatible semantic-call adapter)
 *   spec            loadBehaviorSpec, parseBehaviorMd
 */
export { formatDiagnostic, parseJudgeYaml, serializeJudgeYaml } from "./ir/index.js";
export type { Diagnostic, IRPositions, ParseResult } from "./ir/index.js";
export type * from "./ir/types.js";

export { compileIR, sha256, type CompiledJudge, type CompileOptions } from "./build.js";
export { buildJudgeFile, declarationPath, defaultJudgePath } from "./commands/build.js";
export { compileJudgeYamlFile, importJudgeSource, JudgeYamlError, loadJudge, type JudgeModule } from "./load.js";

export { describeOrigin, readCases, type CaseOrigin, type Expected, type InputCase } from "./inputs.js";
export { judgeCases, judgeOne, type CaseResult } from "./run.js";
export {
  calibrate,
  calibrationPassed,
  type CalibrationResult,
  type CalibrationTotals,
  type CaseComparison,
} from "./calibrate.js";
export { calibrateRuns, summarizeRuns, wilsonInterval, type RunStatistics } from "./runs.js";

export { createHostModel, type HostModel, type HostModelOptions } from "./adapters/index.js";
export { loadBehaviorSpec, parseBehaviorMd, type BehaviorSpec, type SpecSection } from "./spec/load.js";

export type { JudgeOptions, RuleInfo } from "../runtime/judge.js";
export type { SemanticAdapter, ChatMessage } from "../runtime/semantic.js";
export type * from "../runtime/types.js";
export { VERSION } from "./version.js";
