/**
 * OpenAI Codex CLI rollouts (IMPORTERS.md `codex`): the JSONL files Codex
 * writes under ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl, one line
 * `{timestamp, type, payload}` per persisted item (openai/codex
 * codex-rs/protocol `RolloutLine`, `RolloutItem`). The conversation is in the
 * `response_item` lines, which are Responses API items: the openai-responses
 * importer maps them, once the points peculiar to Codex are settled here
 * (injected context messages, items written without ids, shell exit codes).
 * The `event_msg` lines echo the conversation for the UI; only the turn
 * lifecycle and a few failure flags are read from them. The TypeScript CLI's
 * older `{session, items}` files are read too. One file is one session.
 */
import { FACT, ImportError, TrajectoryBuilder, contentText, guard, isRecord, jsonText, parseJson, requireString, traceId } from "./core.js";
import type { ImportIssue, ImportOptions, ImportResult } from "./core.js";
import { builtInArguments, builtInResult, responsesItem } from "./openai-responses.js";

/** The tags of RolloutItem: what a rollout line may be. */
const LINE_TYPES = new Set([
  "session_meta",
  "response_item",
  "event_msg",
  "turn_context",
  "compacted",
  "world_state",
  "inter_agent_communication",
  "inter_agent_communication_metadata",
]);

/**
 * The openings of the user-role messages Codex injects as context (AGENTS.md,
 * environment, skills, a `!cmd` the user ran, an abort notice, hook prompts):
 * codex-rs/core/src/context's contextual fragments, and `<user_instructions>`
 * of older versions. Codex itself treats a user message with any such part
 * as context, not as the user's turn; so does this importer.
 */
const CONTEXT_OPENINGS = [
  "# agents.md instructions for ",
  "<user_instructions>",
  "<agents_instructions>",
  "<environment_context>",
  "<context_update>",
  "<multiagent_context>",
  "<skill>",
  "<skills_instructions>",
  "<user_shell_command>",
  "<turn_aborted>",
  "<subagent_notification>",
  "<goal_context>",
  "<hook_prompt",
];

/** Tools whose text output starts with a header naming the exit code (codex-rs/core/src/tools: freeform exec output, unified exec). */
const EXEC_TOOLS = new Set(["shell", "container.exec", "shell_command", "exec_command", "write_stdin", "local_shell", "apply_patch"]);

/** Response items that are the harness's bookkeeping, not conduct (undo snapshots, compaction markers, tool lists). */
const BOOKKEEPING_ITEMS = new Set([
  "ghost_snapshot",
  "compaction",
  "compaction_summary",
  "context_compaction",
  "compaction_trigger",
  "additional_tools",
]);

/** At most this many bad lines are listed one by one; the rest are counted. */
const MAX_LISTED_ERRORS = 20;

function isRolloutLine(value: unknown): boolean {
  return isRecord(value) && typeof value.type === "string" && LINE_TYPES.has(value.type) && isRecord(value.payload);
}

/** The TypeScript CLI's `rollout-<date>-<id>.json`: `{session: {id, timestamp, instructions}, items: [Responses items]}`. */
function isLegacySession(value: unknown): value is { session: Record<string, unknown>; items: unknown[] } {
  return isRecord(value) && isRecord(value.session) && typeof value.session.id === "string" && Array.isArray(value.items);
}

/** A cheap shape test: the lines of a rollout (the first one a `{type, payload}` line of a known type), or a TypeScript CLI session. */
export function detectCodex(input: unknown): boolean {
  if (isLegacySession(input)) return true;
  return Array.isArray(input) && input.length > 0 && isRolloutLine(input[0]);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function isContextText(text: string): boolean {
  const start = text.trimStart().slice(0, 32).toLowerCase();
  return CONTEXT_OPENINGS.some((opening) => start.startsWith(opening));
}

/** Whether a user message is context Codex injected: one of its text parts opens with a context marker. */
function isContextual(content: unknown): boolean {
  if (typeof content === "string") return isContextText(content);
  return Array.isArray(content) && content.some((part) => isRecord(part) && typeof part.text === "string" && isContextText(part.text));
}

/**
 * The exit code a tool output reports: the JSON form `{output, metadata:
 * {exit_code}}` (any tool), or, for the exec tools, the text header before
 * `Output:` (`Exit code: 1`, `Process exited with code 1`).
 */
export function exitCode(output: unknown, tool: string | undefined): number | undefined {
  if (typeof output !== "string") return undefined;
  if (output.startsWith("{")) {
    const parsed = parseJson(output);
    if (isRecord(parsed) && isRecord(parsed.metadata) && typeof parsed.metadata.exit_code === "number") return parsed.metadata.exit_code;
    return undefined;
  }
  if (tool === undefined || !EXEC_TOOLS.has(tool)) return undefined;
  const end = output.slice(0, 2000).search(/^Output:$/m);
  if (end < 0) return undefined;
  const header = /^(?:Exit code: |Process exited with code )(-?\d+)$/m.exec(output.slice(0, end));
  return header === null ? undefined : Number(header[1]);
}

/** Calls the event lines say failed although their output does not (a rejected patch, an MCP error result, a failed command). */
function failedCalls(lines: readonly { value: unknown }[]): Set<string> {
  const failed = new Set<string>();
  for (const { value } of lines) {
    if (!isRecord(value) || value.type !== "event_msg" || !isRecord(value.payload)) continue;
    const event = value.payload;
    const callId = str(event.call_id);
    if (callId === undefined) continue;
    const result = event.result;
    const ok = isRecord(result) && isRecord(result.Ok) ? result.Ok : undefined;
    if (
      (event.type === "patch_apply_end" && event.success === false) ||
      (event.type === "exec_command_end" && typeof event.exit_code === "number" && event.exit_code !== 0) ||
      (event.type === "mcp_tool_call_end" &&
        isRecord(result) &&
        (result.Err !== undefined || ok?.isError === true || ok?.is_error === true))
    )
      failed.add(callId);
  }
  return failed;
}

/** How the session's last turn ended, from the lifecycle events and, where a version wrote none, from the last item. */
type Ending = "running" | "complete" | "aborted";

/** One rollout being imported. */
class Rollout {
  readonly b: TrajectoryBuilder;
  /** Tool name of each call, by call id (an output names only the call id). */
  private readonly names = new Map<string, string>();
  private ending: Ending = "running";
  /** Whether the file has turn lifecycle events (task_started, task_complete); older versions (0.46, October 2025) wrote none. */
  private lifecycle = false;
  /** Whether the last conversation item is an assistant message. */
  private lastIsAnswer = false;

  constructor(
    b: TrajectoryBuilder,
    private readonly failed: ReadonlySet<string>,
  ) {
    this.b = b;
  }

  /** One line: its envelope, then its payload. */
  line(value: unknown, path: string): void {
    if (!isRecord(value)) throw new ImportError(path, "must be a rollout line object ({timestamp, type, payload})");
    const type = value.type;
    if (typeof type !== "string" || type === "") throw new ImportError(path, "missing type");
    // A line type this importer does not know may carry calls a later Codex writes: say it is left out.
    if (!LINE_TYPES.has(type)) return this.b.warn(path, `line of type ${JSON.stringify(type)} is not imported`);
    if (!isRecord(value.payload))
      throw new ImportError(path, value.payload === undefined ? "missing payload" : "payload must be an object");
    if (type === "response_item") return this.item(value.payload, `${path}.payload`);
    if (type === "event_msg") return this.event(value.payload);
    // session_meta (read before), turn_context, compacted (a summary; its replacement history repeats earlier items),
    // world_state, inter-agent communication (the message is also a response item): context and bookkeeping.
  }

  /** A Responses item, after the Codex-specific cases. */
  item(value: Record<string, unknown>, path: string): void {
    const type = value.type;
    if (typeof type === "string" && BOOKKEEPING_ITEMS.has(type)) return;
    if (type === "message" || (type === undefined && typeof value.role === "string")) {
      if (value.role === "user" && isContextual(value.content)) return;
      responsesItem(this.b, value, path);
      if (value.role === "user") this.ending = "running";
      if (value.role === "user" || value.role === "assistant") this.lastIsAnswer = value.role === "assistant";
      return;
    }
    this.lastIsAnswer = false;
    switch (type) {
      case "function_call_output":
      case "custom_tool_call_output":
        return this.output(value, path);
      case "function_call":
      case "custom_tool_call":
        if (typeof value.call_id === "string" && typeof value.name === "string") this.names.set(value.call_id, value.name);
        return responsesItem(this.b, value, path);
      case "local_shell_call": {
        // `call_id` is set with the Responses API; the chat completions path leaves only `id`.
        const callId = str(value.call_id) ?? str(value.id);
        if (callId !== undefined) this.names.set(callId, "local_shell");
        return responsesItem(this.b, callId === undefined ? value : { ...value, call_id: callId }, path);
      }
      case "web_search_call":
        return str(value.id) !== undefined ? responsesItem(this.b, value, path) : this.webSearch(value, path);
      case "tool_search_call":
        return this.b.call(
          "tool_search",
          jsonText(value.arguments ?? {}),
          str(value.call_id) ?? str(value.id),
          { [FACT.server]: value.execution === "server" ? "provider" : "client" },
          `${path}.arguments`,
        );
      case "tool_search_output":
        return this.b.result(str(value.call_id), jsonText(value.tools ?? []), {
          name: "tool_search",
          error: value.status === "failed",
          path,
        });
      case "agent_message": {
        // A message another agent of a multi-agent run sent into this thread.
        const author = str(value.author);
        return this.b.agentMessage(contentText(value.content), author === undefined ? undefined : { [FACT.agent]: author });
      }
      default:
        return responsesItem(this.b, value, path);
    }
  }

  /** A tool output: a failure is a non-zero exit code, or a failure the event lines report for the call. */
  private output(value: Record<string, unknown>, path: string): void {
    const callId = requireString(value, "call_id", path);
    // Early Rust versions wrote a failed output as {content, success: false}.
    const old = isRecord(value.output) && typeof value.output.content === "string" ? value.output : undefined;
    const output = old !== undefined ? old.content : value.output;
    const code = exitCode(output, this.names.get(callId));
    const error = (code !== undefined && code !== 0) || this.failed.has(callId) || old?.success === false || value.status === "failed";
    this.b.result(callId, output, { error, path, meta: code === undefined ? undefined : { [FACT.exitCode]: String(code) } });
  }

  /** A web search as Codex records it: without an id, its outcome in the item itself. */
  private webSearch(value: Record<string, unknown>, path: string): void {
    this.b.call("web_search", jsonText(builtInArguments(value)), undefined, { [FACT.server]: "provider" });
    const status = value.status;
    if (status === undefined || status === "completed" || status === "failed")
      this.b.result(undefined, builtInResult(value), { name: "web_search", error: status === "failed", path, inline: true });
  }

  /** The turn lifecycle; every other event echoes a response item or is the UI's. */
  private event(payload: Record<string, unknown>): void {
    switch (payload.type) {
      case "task_started":
      case "turn_started":
        this.lifecycle = true;
        this.ending = "running";
        return;
      case "task_complete":
      case "turn_complete":
        this.lifecycle = true;
        this.ending = "complete";
        return;
      case "turn_aborted":
      case "error":
        this.ending = "aborted";
        return;
      default:
        return;
    }
  }

  /** Whether the session ended normally: its last turn completed (or, without lifecycle events, ended on an answer and was not aborted). */
  get endedNormally(): boolean {
    return this.lifecycle ? this.ending === "complete" : this.ending !== "aborted" && this.lastIsAnswer;
  }
}

/** The lines of the input with their paths, or undefined when it is not a rollout at all. */
function rolloutLines(input: unknown): { value: unknown; path: string }[] | undefined {
  if (isLegacySession(input))
    return input.items.map((item, i) => ({ value: { type: "response_item", payload: item }, path: `items[${i}]` }));
  if (Array.isArray(input)) return input.map((value, i) => ({ value, path: `[${i}]` }));
  return undefined;
}

/** The session id and working directory: the first session_meta line's (a fork repeats its parent's after its own). */
function sessionFacts(input: unknown, lines: readonly { value: unknown }[]): { id?: string; cwd?: string } {
  if (isLegacySession(input)) return { id: input.session.id as string };
  for (const { value } of lines) {
    if (!isRecord(value) || value.type !== "session_meta" || !isRecord(value.payload)) continue;
    const id = str(value.payload.id) ?? str(value.payload.session_id);
    const cwd = str(value.payload.cwd);
    return { ...(id === undefined ? {} : { id }), ...(cwd === undefined ? {} : { cwd }) };
  }
  return {};
}

/** Imports a Codex rollout: one trajectory per file; every bad line is a located error (and the session is not imported). */
export function fromCodex(input: unknown, options: ImportOptions = {}): ImportResult {
  return guard(() => importRollout(input, options));
}

function importRollout(input: unknown, options: ImportOptions): ImportResult {
  const lines = rolloutLines(input);
  if (lines === undefined)
    return {
      trajectories: [],
      errors: [
        {
          path: "",
          message:
            "not a Codex rollout: expected the lines of a rollout-*.jsonl file ({timestamp, type, payload}) or a {session, items} file",
        },
      ],
      warnings: [],
    };
  const facts = sessionFacts(input, lines);
  const b = new TrajectoryBuilder(traceId(options, facts.id, 0, 1), options);
  if (facts.cwd !== undefined) b.description = facts.cwd;
  const rollout = new Rollout(b, failedCalls(lines));
  const errors: ImportIssue[] = [];
  let unlisted = 0;
  for (const { value, path } of lines) {
    try {
      rollout.line(value, path);
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      if (errors.length < MAX_LISTED_ERRORS) errors.push({ path: error.path, message: error.reason, trace: 0 });
      else unlisted++;
    }
  }
  if (unlisted > 0) errors.push({ path: "", message: `${unlisted} more bad lines (the first ${MAX_LISTED_ERRORS} are listed)`, trace: 0 });
  const warnings = b.warnings.map((w) => ({ ...w, trace: 0 }));
  if (errors.length > 0) return { trajectories: [], errors, warnings };
  b.finish(rollout.endedNormally);
  return { trajectories: [b.trajectory], errors: [], warnings };
}
