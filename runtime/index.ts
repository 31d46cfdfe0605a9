/**
 * The runtime every compiled judge.mjs carries. It imports nothing outside
 * this folder and no `node:` module, so a judge runs anywhere ES2022 runs.
 */
export { createJudge, type JudgeDefinition, type JudgeModule } from "./judge.js";
export type { JudgeOptions } from "./judgment.js";
export type { Found, RuleStepper, StepEvent, Steppers } from "./stepper.js";
export type { WarmSample } from "./warm.js";
export { eventFacts } from "./evidence.js";
export {
  CitationList,
  countClause,
  forbiddenClause,
  orderingClause,
  pairedEach,
  pairedFollower,
  pairingClause,
  reportEventId,
  reportId,
  reportIds,
  reportIdsAnd,
  requiredClause,
  waitingIds,
} from "./checks.js";
export { TrajectoryError, validateTrajectory } from "./trajectory.js";
export {
  countIndexed,
  instantOf,
  metadataValue,
  numberOf,
  toInstant,
  toNumber,
  valueAdd,
  valueDivide,
  valueEquals,
  valueIn,
  valueMultiply,
  valueNegate,
  valueOrder,
  valueSubtract,
  type WhenValue,
} from "./values.js";
export { foldVerdicts } from "./fold.js";
export { regexTest, type RegexProgram } from "./regex.js";
export type { AdapterReply, AdapterUsage, ChatMessage, SemanticAdapter, SemanticUsage } from "./semantic.js";
export type * from "./types.js";
export { formatJudgment, undecidedClauses, undecidedReason, type FormatJudgmentOptions } from "./format-judgment.js";
export {
  conditionClause,
  eventsInstead,
  explainCondition,
  extendedPairingClause,
  groupLabel,
  groupedCountClause,
  keyedForbiddenClause,
  keyedOrderingClause,
  keyedRequiredClause,
  orderingExplanation,
  waitingEach,
  withinExplanation,
} from "./checks-extended.js";
export { Keyed } from "./keyed.js";
export { inRange, metadataIs, readDecimal, readInstant } from "./matchers.js";
