/**
 * behavior-judge/guard: a compiled judge's monitor where agents run
 * (docs/GUARDS.md). Needs nothing but the judge.mjs it is given.
 */
export { SessionGuard, type Decision, type GuardJudge, type SessionGuardOptions } from "./session.js";
export { REFUSAL_MARK, describeViolation, feedbackMessage, refusalMessage } from "./refusal.js";
export { GuardRefusal, guardTools } from "./ai-sdk.js";
export { GUARDRAIL_NAME, guardAgent, toolGuardrails } from "./openai-agents.js";
export {
  answerClaudeCodeHook,
  claudeAgentHook,
  type ClaudeCodeHookInput,
  type HookAnswer,
  type HookCache,
  type HookOptions,
  type HookOutput,
} from "./claude-code.js";
