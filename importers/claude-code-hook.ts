/**
 * A Claude Code hook's tool call as an event (IMPORTERS.md `claude-code`):
 * what a `PreToolUse` guard pushes to a judge's monitor after the events it
 * imported from the session's transcript so far.
 */
import { FACT, ImportError, TrajectoryBuilder, checkNesting, isRecord, jsonText, requireString } from "./core.js";
import type { TrajectoryEvent } from "./core.js";
import { agentMeta } from "./claude-code-agents.js";

/** A tool call as a Claude Code hook sees it (`PreToolUse` and later hook input). */
export interface ClaudeCodeHookToolCall {
  tool_name: string;
  tool_input?: unknown;
  tool_use_id?: string | undefined;
  /** Set by Claude Code when the call comes from a sub-agent. */
  agent_id?: string | undefined;
  agent_type?: string | undefined;
}

/**
 * The event a hook's tool call is: the same `agent` / `<tool_name>` event,
 * content and metadata this importer gives the call's `tool_use` block in the
 * transcript (flattened arguments, `@call_id`, and `@agent` / `@agent_id` from
 * a sub-agent), so a guard can push it to a judge's monitor after the events
 * imported from the transcript so far. `id` and `turn` are the ones it would
 * get there (default `e1` and 1); `itemId` the `message.id` when known.
 */
export function fromClaudeCodeHook(
  payload: ClaudeCodeHookToolCall,
  options: { id?: string | undefined; turn?: number | undefined; itemId?: string | undefined } = {},
): TrajectoryEvent {
  if (!isRecord(payload)) throw new ImportError("", "hook input must be an object");
  const name = requireString(payload as unknown as Record<string, unknown>, "tool_name", "");
  const callId = typeof payload.tool_use_id === "string" && payload.tool_use_id !== "" ? payload.tool_use_id : undefined;
  checkNesting(payload.tool_input, "tool_input");
  const b = new TrajectoryBuilder("hook");
  const facts: Record<string, string> = {};
  if (options.itemId !== undefined) facts[FACT.itemId] = options.itemId;
  Object.assign(facts, agentMeta(payload.agent_type, payload.agent_id));
  b.call(name, jsonText(payload.tool_input ?? {}), callId, facts, "tool_input");
  const event = b.finish(false).events[0]!;
  const metadata = { ...event.metadata };
  metadata[FACT.turn] = String(options.turn ?? 1);
  return { ...event, id: options.id ?? event.id, metadata };
}
