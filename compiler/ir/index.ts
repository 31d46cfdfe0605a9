/** judge.yaml: types, schema, parse with located diagnostics, serialize. */
export type * from "./types.js";
export { compareDiagnostics, formatDiagnostic, type Diagnostic } from "../diagnostics.js";
export { closestMatch, didYouMean, editDistance } from "./did-you-mean.js";
export { formatPath, parseJudgeYaml, type IRPositions, type ParseOptions, type ParseResult } from "./parse.js";
export {
  ACTORS,
  CHECK_KEYS,
  CHECK_TYPES,
  MATCHER_KEYS,
  META_BEHAVIOR_KEYS,
  PATTERN_KEYS,
  SEMANTIC_CHECK_KEYS,
  TOP_LEVEL_KEYS,
  TRIGGER_KEYS,
  createJudgeSchema,
  judgeIRSchema,
  type IssueParams,
  type SchemaVocabulary,
} from "./schema.js";
export { serializeJudgeYaml } from "./serialize.js";
export {
  EACH_EVENT,
  MAX_DEPTH,
  MAX_WHEN_CHARACTERS,
  parseWhen,
  type ArithmeticOperator,
  type ComparisonOperator,
  type EventField,
  type WhenError,
  type WhenNode,
} from "./when.js";
