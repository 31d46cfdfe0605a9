/**
 * Auto-detection over every format (IMPORTERS.md `--from auto`): each
 * format's cheap shape test, then, when several match, a check that they
 * import the input the same way (a plain `{role, content}` chat is the same
 * conversation in every chat format); if they do not, the shape is ambiguous
 * and the error names the candidates.
 */
import { ImportError, isRecord } from "./core.js";
import type { ImportOptions, ImportResult, Importer } from "./core.js";
import { detectAnthropic, fromAnthropic } from "./anthropic.js";
import { detectOpenAIChat, fromOpenAIChat } from "./openai-chat.js";
import { detectOpenAIResponses, fromOpenAIResponses } from "./openai-responses.js";
import { detectVercelAI, fromVercelAI } from "./vercel-ai.js";
import { detectOpenAIAgents, fromOpenAIAgents } from "./openai-agents.js";
import { detectOtel, fromOtel } from "./otel.js";
import { detectLangChain, fromLangChain } from "./langchain.js";
import { detectBedrock, fromBedrock } from "./bedrock.js";
import { detectLangfuse, fromLangfuse } from "./langfuse.js";
import { detectPydanticAI, fromPydanticAI } from "./pydantic-ai.js";
import { detectClaudeCode, fromClaudeCode } from "./claude-code.js";
import { detectCodex, fromCodex } from "./codex.js";
import { detectAdk, fromAdk } from "./adk.js";
import { detectInspect, fromInspect } from "./inspect.js";
import { detectGeminiCli, fromGeminiCli } from "./gemini-cli.js";
import { detectSweAgent, fromSweAgent } from "./swe-agent.js";

export interface Format {
  /** The `--from` value. */
  name: string;
  /** What the user has, in a few words (for help and error messages). */
  description: string;
  importer: Importer;
  detect: (input: unknown) => boolean;
}

/** Every format, in the order detection tries them (more specific shapes first). */
export const FORMATS: readonly Format[] = [
  {
    name: "openai-responses",
    description: "OpenAI Responses API items / request-response pairs",
    importer: fromOpenAIResponses,
    detect: detectOpenAIResponses,
  },
  { name: "vercel-ai", description: "Vercel AI SDK steps or response messages", importer: fromVercelAI, detect: detectVercelAI },
  {
    name: "openai-chat",
    description: "OpenAI Chat Completions messages (plus a response)",
    importer: fromOpenAIChat,
    detect: detectOpenAIChat,
  },
  { name: "anthropic", description: "Anthropic Messages API messages (plus a response)", importer: fromAnthropic, detect: detectAnthropic },
  {
    name: "openai-agents",
    description: "OpenAI Agents SDK trace export (traces and spans)",
    importer: fromOpenAIAgents,
    detect: detectOpenAIAgents,
  },
  { name: "otel", description: "OTLP/JSON spans (GenAI conventions, OpenInference, AI SDK ai.*)", importer: fromOtel, detect: detectOtel },
  {
    name: "langchain",
    description: "LangChain / LangGraph messages or LangSmith run trees",
    importer: fromLangChain,
    detect: detectLangChain,
  },
  {
    name: "bedrock",
    description: "AWS Bedrock Converse messages, invocation logs, Strands Agents sessions",
    importer: fromBedrock,
    detect: detectBedrock,
  },
  {
    name: "langfuse",
    description: "Langfuse trace export ({trace, observations}, GET /api/public/traces/{id})",
    importer: fromLangfuse,
    detect: detectLangfuse,
  },
  {
    name: "pydantic-ai",
    description: "Pydantic AI message histories (ModelMessagesTypeAdapter JSON)",
    importer: fromPydanticAI,
    detect: detectPydanticAI,
  },
  {
    name: "claude-code",
    description: "Claude Code session transcripts (~/.claude/projects/…/<session>.jsonl, sub-agents included)",
    importer: fromClaudeCode,
    detect: detectClaudeCode,
  },
  { name: "codex", description: "OpenAI Codex CLI session rollouts (rollout-*.jsonl)", importer: fromCodex, detect: detectCodex },
  {
    name: "adk",
    description: "Google ADK sessions and events, Gemini API contents",
    importer: fromAdk,
    detect: detectAdk,
  },
  { name: "inspect", description: "Inspect AI eval logs (.json; samples[].messages)", importer: fromInspect, detect: detectInspect },
  {
    name: "gemini-cli",
    description: "Gemini CLI chat sessions (session-*.json, session-*.jsonl)",
    importer: fromGeminiCli,
    detect: detectGeminiCli,
  },
  {
    name: "swe-agent",
    description: "SWE-agent .traj and mini-swe-agent .traj.json trajectories",
    importer: fromSweAgent,
    detect: detectSweAgent,
  },
];

/** The `--from` values: every format, `auto`, and `trajectory` (the judge's own format, read as is). */
export function formatNames(): string[] {
  return FORMATS.map((f) => f.name);
}

export function findFormat(name: string): Format | undefined {
  return FORMATS.find((f) => f.name === name);
}

/**
 * Whether a value is a trajectory of docs/FORMATS.md §2: an object whose
 * `events` are the judge's own events (one at least has an `actor` and an
 * `action`). Such a value is judged as is, and its mistakes reported by the
 * validator. Other formats have `events` too (a LangSmith run, an ADK
 * session, whose events have `author` and `actions`): those are traces.
 */
export function looksLikeTrajectory(value: unknown): boolean {
  if (!isRecord(value) || !Array.isArray(value.events)) return false;
  if (value.events.length === 0) return "complete" in value || "id" in value;
  return value.events.some((e) => isRecord(e) && "actor" in e && "action" in e);
}

export interface Detection {
  /** The format to use, when exactly one fits (or all that fit import the input alike). */
  format?: string;
  /** The formats whose shape test passed. */
  candidates: string[];
}

/** Which format an input is. Never throws. */
export function detectFormat(input: unknown, options: ImportOptions = {}): Detection {
  const candidates = FORMATS.filter((f) => {
    try {
      return f.detect(input);
    } catch {
      return false;
    }
  });
  const names = candidates.map((f) => f.name);
  if (candidates.length === 1) return { format: names[0]!, candidates: names };
  if (candidates.length === 0) return { candidates: names };
  // Several shape tests pass: fine when they all read the input the same way.
  const first = JSON.stringify(candidates[0]!.importer(input, options));
  if (candidates.every((f, i) => i === 0 || JSON.stringify(f.importer(input, options)) === first))
    return { format: names[0]!, candidates: names };
  return { candidates: names };
}

/**
 * How a message names the setting that picks the format: the library's
 * `from` option (importTrace, assertBehavior, readCaseFiles…), or the CLI's
 * `--from` flag.
 */
export type FormatSetting = "from" | "--from";

/** The hint that ends a message about the format: which setting to give, and its values. */
export function formatHint(setting: FormatSetting = "from"): string {
  const names = `${formatNames().join(", ")} (or trajectory)`;
  return setting === "--from" ? `pass --from with one of: ${names}` : `set the from option to one of: ${names}`;
}

/** The error text for an input no format (or more than one) fits; `setting` is how the hint names the format setting (default: the library's `from` option). */
export function detectionError(detection: Detection, setting: FormatSetting = "from"): string {
  const from = formatHint(setting);
  if (detection.candidates.length > 1) return `ambiguous trace format: it could be ${detection.candidates.join(" or ")}; ${from}`;
  return `unknown trace format: not a trajectory (docs/FORMATS.md §2: id, complete, events with actor and action) and not a shape any importer knows; ${from}`;
}

export interface ImportTraceOptions extends ImportOptions {
  /** A format name, or "auto" (the default). */
  from?: string | undefined;
  /** How an unknown or ambiguous format's error names the setting: the `from` option (default), or the CLI's `--from`. */
  formatSetting?: FormatSetting | undefined;
}

/** Imports `input` in the given format, or the detected one; an unknown or ambiguous shape is one error naming the candidates. */
export function importTrace(input: unknown, options: ImportTraceOptions = {}): ImportResult & { format?: string } {
  const { from = "auto", formatSetting, ...rest } = options;
  if (from !== "auto") {
    const format = findFormat(from);
    if (format === undefined)
      throw new ImportError("", `unknown format ${JSON.stringify(from)}: expected auto or one of ${formatNames().join(", ")}`);
    return { ...format.importer(input, rest), format: format.name };
  }
  const detection = detectFormat(input, rest);
  if (detection.format === undefined)
    return { trajectories: [], errors: [{ path: "", message: detectionError(detection, formatSetting) }], warnings: [] };
  return { ...findFormat(detection.format)!.importer(input, rest), format: detection.format };
}
