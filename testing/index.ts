/**
 * behavior-judge/testing: compiled judges in a test suite (vitest, node:test,
 * jest…). Imports nothing at run time and never loads the compiler:
 *
 *   import * as judge from "./.agents/behaviors/x/judge.mjs";
 *   import { assertBehavior } from "behavior-judge/testing";
 *   await assertBehavior(judge, trajectory);            // throws AssertionError naming each failing rule
 *   await assertBehavior(judge, trace, { expected });   // any trace the importers read; labels as calibrate compares them
 */
export { AssertionError, assertBehavior, type AssertBehaviorOptions, type AssertBehaviorResult, type ModelFailure } from "./assert.js";
export { compareLabels, labelsAgree, readExpected, type ExpectedLabels, type LabelComparison, type VerdictComparison } from "./labels.js";
export { readCases, type HelperCase, type JudgeLike } from "./inputs.js";
export { formatJudgment, undecidedClauses, undecidedReason, type FormatJudgmentOptions } from "../runtime/format-judgment.js";
