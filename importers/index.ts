/**
 * behavior-judge/importers: the traces agents produce, as trajectories
 * (IMPORTERS.md). The same code the CLI's `import` and `--from` run. It
 * imports nothing at run time (no packages, no `node:` modules), so it works
 * in Node, Deno, Bun, browsers and edge runtimes, next to a shipped judge.mjs:
 *
 *   import { importTrace } from "behavior-judge/importers";
 *   const { trajectories, errors } = importTrace(JSON.parse(text));        // format detected
 *   const chat = fromOpenAIChat(messages, { complete: true });            // or named
 */
export { FACT, ImportError, MAX_NESTING, TrajectoryBuilder, contentText, flattenInto, formatIssue } from "./core.js";
export type { Actor, ImportIssue, ImportOptions, ImportResult, Importer, Trajectory, TrajectoryEvent } from "./core.js";
export { FORMATS, detectFormat, detectionError, findFormat, formatHint, formatNames, importTrace, looksLikeTrajectory } from "./detect.js";
export type { Detection, Format, FormatSetting, ImportTraceOptions } from "./detect.js";
export { detectOpenAIChat, fromOpenAIChat } from "./openai-chat.js";
export { detectOpenAIResponses, fromOpenAIResponses } from "./openai-responses.js";
export { detectAnthropic, fromAnthropic } from "./anthropic.js";
export { detectVercelAI, fromVercelAI } from "./vercel-ai.js";
export { detectOpenAIAgents, fromOpenAIAgents } from "./openai-agents.js";
export { detectOtel, fromOtel } from "./otel.js";
export { detectLangChain, fromLangChain } from "./langchain.js";
export { detectBedrock, fromBedrock } from "./bedrock.js";
export { detectLangfuse, fromLangfuse } from "./langfuse.js";
export { detectPydanticAI, fromPydanticAI } from "./pydantic-ai.js";
export { CLAUDE_CODE_FACT, detectClaudeCode, fromClaudeCode, fromClaudeCodeHook } from "./claude-code.js";
export type { ClaudeCodeHookToolCall } from "./claude-code.js";
export { detectCodex, fromCodex } from "./codex.js";
export { detectAdk, fromAdk } from "./adk.js";
export { detectInspect, fromInspect } from "./inspect.js";
export { detectGeminiCli, fromGeminiCli } from "./gemini-cli.js";
export { detectSweAgent, fromSweAgent } from "./swe-agent.js";
