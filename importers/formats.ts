/**
 * The formats' names and descriptions, in the order detection tries them
 * (more specific shapes first), and the trajectory shape test: what the CLI
 * needs to declare `--from` and to read a plain trajectory, without loading
 * a single importer (detect.ts pairs each format with its importer and shape
 * test; the CLI loads it only when an input is not a trajectory).
 */

export const FORMAT_LIST = [
  { name: "openai-responses", description: "OpenAI Responses API items / request-response pairs" },
  { name: "vercel-ai", description: "Vercel AI SDK steps or response messages" },
  { name: "openai-chat", description: "OpenAI Chat Completions messages (plus a response)" },
  { name: "anthropic", description: "Anthropic Messages API messages (plus a response)" },
  { name: "openai-agents", description: "OpenAI Agents SDK trace export (traces and spans)" },
  { name: "otel", description: "OTLP/JSON spans (GenAI conventions, OpenInference, AI SDK ai.*)" },
  { name: "langchain", description: "LangChain / LangGraph messages or LangSmith run trees" },
  { name: "bedrock", description: "AWS Bedrock Converse messages, invocation logs, Strands Agents sessions" },
  { name: "langfuse", description: "Langfuse trace export ({trace, observations}, GET /api/public/traces/{id})" },
  { name: "pydantic-ai", description: "Pydantic AI message histories (ModelMessagesTypeAdapter JSON)" },
  { name: "claude-code", description: "Claude Code session transcripts (~/.claude/projects/…/<session>.jsonl, sub-agents included)" },
  { name: "codex", description: "OpenAI Codex CLI session rollouts (rollout-*.jsonl)" },
  { name: "adk", description: "Google ADK sessions and events, Gemini API contents" },
  { name: "inspect", description: "Inspect AI eval logs (.json; samples[].messages)" },
  { name: "gemini-cli", description: "Gemini CLI chat sessions (session-*.json, session-*.jsonl)" },
  { name: "swe-agent", description: "SWE-agent .traj and mini-swe-agent .traj.json trajectories" },
] as const;

/** A `--from` value naming a format. */
export type FormatName = (typeof FORMAT_LIST)[number]["name"];

/** The `--from` values: every format, `auto`, and `trajectory` (the judge's own format, read as is). */
export function formatNames(): string[] {
  return FORMAT_LIST.map((f) => f.name);
}

/** core.ts's isRecord, which this module does not import: it loads before any importer. */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether a value is a trajectory of docs/FORMATS.md §2: an object whose
 * `events` are the judge's own events (one at least has an `actor` and an
 * `action`). Such a value is judged as is, and its mistakes reported by the
 * validator. Other formats have `events` too (a LangSmith run, an ADK
 * session, whose events have `author` and `actions`): those are traces.
 */
export function looksLikeTrajectory(value: unknown): boolean {
  if (!isObject(value) || !Array.isArray(value.events)) return false;
  if (value.events.length === 0) return "complete" in value || "id" in value;
  return value.events.some((e) => isObject(e) && "actor" in e && "action" in e);
}
