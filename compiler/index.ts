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
 *   spec            loadBehaviorSpec, parseBehaviorMd, lintSpec
 *   generate        generateJudgeYaml, buildVocabulary, draftOffline, proposeDraft, planUpdate, runInterview
 */
export { parseJudgeYaml, serializeJudgeYaml } from "./ir/index.js";
export type { IRPositions, ParseResult } from "./ir/index.js";
export { formatDiagnostic, JudgeYamlError, SpecError, type Diagnostic, type Severity } from "./diagnostics.js";
export {
  EXIT_INVALID,
  EXIT_USAGE,
  InterviewCancelledError,
  JudgeLoadError,
  ModelCallError,
  SamplesError,
  UsageError,
  UserError,
  type ExitCode,
} from "./errors.js";
export type * from "./ir/types.js";

export { buildJudgeFile, declarationPath, defaultJudgePath } from "./commands/build.js";
export { compileIR, compileJudgeYamlFile, compileJudgeYamlText, sha256, type CompiledJudge, type CompileOptions } from "./build/compile.js";
export { importJudgeSource, loadJudge, type JudgeModule } from "./run/load.js";

export { describeOrigin, type CaseOrigin, type Expected, type InputCase } from "./inputs/case.js";
export { readCases } from "./inputs/inputs.js";
export {
  judgeCases,
  judgeOne,
  locatedMessage,
  type CaseResult,
  type FailedCase,
  type JudgedCase,
  type RunOptions,
} from "./run/judge-cases.js";
export { Tally, type RunTotals, type RuleSummaryRow, type VerifyCounts } from "./analyses/tally.js";
export { calibrate, calibrationPassed, type CalibrationResult, type CalibrationTotals, type CaseComparison } from "./analyses/calibrate.js";
export { calibrateRuns, summarizeRuns, wilsonInterval, type RunStatistics } from "./analyses/repeated-runs.js";

export { createHostModel, type HostModel, type HostModelOptions } from "./model/index.js";
export { loadBehaviorSpec, parseBehaviorMd, type BehaviorSpec, type SpecSection } from "./behavior-md/load.js";
export { lintSpec, type LintResult } from "./behavior-md/lint.js";

export { generateJudgeYaml, type GenerateOptions, type GenerateResult } from "./generate/pipeline.js";
export { buildVocabulary } from "./generate/vocabulary.js";
export { draftOffline } from "./generate/offline/draft.js";
export { saveLabel, verdictAsking, withAnswer } from "./generate/verdicts.js";
export { proposeDraft } from "./generate/propose.js";
export { planUpdate, type UpdatePlan } from "./generate/update.js";
export { runInterview } from "./interview/index.js";
export type * from "./generate/types.js";

export type { JudgeOptions, RuleInfo } from "../runtime/judge.js";
export type { SemanticAdapter, ChatMessage } from "../runtime/semantic.js";
export type * from "../runtime/types.js";
export { VERSION } from "./version.js";
