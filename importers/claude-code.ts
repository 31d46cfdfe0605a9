/**
 * Claude Code session transcripts (IMPORTERS.md `claude-code`): the JSONL
 * Claude Code keeps under `~/.claude/projects/<dir>/<session>.jsonl`, one
 * record per line. There is no published schema; the shapes read here are
 * the ones public transcript tools and sample sessions show (docs/IMPORTERS.md
 * names them). What decides a judgment:
 *
 * - Claude Code writes one `assistant` record per content block of one API
 *   message, all with the same `message.id`, and the tool results of that
 *   message may arrive between them. The records of one message are one turn:
 *   its calls share `@turn` and `@item_id`, each result follows its own call.
 *   Events keep the order of the file, so a longer prefix of a transcript
 *   only ever appends events (what a hook or `watch` needs).
 * - `tool_result` blocks arrive in `user` records; `is_error` gives
 *   `status: "error"`; the record's `toolUseResult`, when it is an object, is
 *   the structured result and gives the metadata.
 * - A user record that holds only tool results is no user turn; injected
 *   context (`isMeta`, compaction summaries, local command output, task
 *   notifications) is dropped as system prompts are; whitespace-only text is
 *   no message; `thinking` is reasoning (dropped unless asked for).
 * - An interruption ("[Request interrupted by user]"), an API error or a
 *   cut-off reply at the end, a prompt never answered, a call without a
 *   result, or a record that had to be rejected make the trace incomplete.
 *
 * Sub-agent transcripts (`isSidechain` records) are placed under the call
 * that started them by claude-code-agents.ts.
 */
import {
  FACT,
  ImportError,
  TrajectoryBuilder,
  checkNesting,
  collisionWarning,
  contentText,
  flattenInto,
  guard,
  isRecord,
  jsonText,
  requireString,
  traceId,
} from "./core.js";
import type { ImportIssue, ImportOptions, ImportResult } from "./core.js";
import { type AgentPlan, CLAUDE_CODE_FACT, planAgents } from "./claude-code-agents.js";
import { COMMAND, CUT_OFF, QUIET_TYPES, classifyUserText, description, holdsCalls, sessionId } from "./claude-code-records.js";

export { CLAUDE_CODE_FACT };
export { detectClaudeCode } from "./claude-code-records.js";
export { fromClaudeCodeHook, type ClaudeCodeHookToolCall } from "./claude-code-hook.js";

/** One record to import: where it is in the input and what it holds. */
export interface SessionRecord {
  value: Record<string, unknown>;
  path: string;
  /** Its index in the input (errors are told in this order). */
  index: number;
}

/** Records already read, by uuid: a resumed session's file repeats the records it continues, and each is read once. */
interface Repeats {
  seen: Set<string>;
  count: number;
  first: string;
}

/** Per-trace state while records are read. */
interface Reading {
  b: TrajectoryBuilder;
  errors: (ImportIssue & { index: number })[];
  /** The `message.id` of the assistant message being written (its later blocks join its turn). */
  message: string | undefined;
  /** Tool use ids already seen in the open message (a block written twice is read once). */
  messageCalls: Set<string>;
  interrupted: boolean;
  /** A prompt or tool results wait for the model's reply. */
  awaiting: boolean;
  /** The last reply was an API error or cut off. */
  endedBadly: boolean;
  replied: boolean;
  rejected: boolean;
  /** Facts every event of this transcript carries (`@agent` in a sub-agent's). */
  facts: Record<string, string>;
  /** A sub-agent's transcript: its user texts are the prompts its caller wrote (the call's arguments), not a person's. */
  subagent: boolean;
  unknown: Map<string, { count: number; path: string; calls: number }>;
  plan: AgentPlan;
  repeats: Repeats;
}

function withFacts(reading: Reading, extra: Record<string, string> = {}): Record<string, string> {
  return { ...extra, ...reading.facts };
}

/** Text of a tool result's content: a string as it is, a list of parts flattened as a string would be (text parts joined by "\n"). */
export function resultText(content: unknown): string {
  return contentText(content);
}

/** The metadata of a structured `toolUseResult`: flattened as a JSON result is; undefined when it is no object. */
function structuredFields(value: unknown, path: string, what: string, b: TrajectoryBuilder): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const fields: Record<string, string> = {};
  flattenInto(fields, value, "", (c) => b.warn(path, collisionWarning(c, what)));
  return fields;
}

/** A block list of a message: its content, a string being one text block. */
function blocks(message: Record<string, unknown>, path: string): unknown[] {
  const content = message.content;
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (Array.isArray(content)) return content;
  throw new ImportError(
    `${path}.message`,
    content === undefined || content === null ? "missing content" : "content must be a string or a list of blocks",
  );
}

type Op = () => void;

/** An assistant record: one or more blocks of one API message. */
function assistant(reading: Reading, record: SessionRecord): void {
  const { b } = reading;
  const message = record.value.message;
  if (!isRecord(message)) throw new ImportError(record.path, message === undefined ? "missing message" : "message must be an object");
  const list = blocks(message, record.path);
  // Claude Code's own notes in the model's place (an API error, "No response requested.") are not the model's words.
  if (message.model === "<synthetic>" || record.value.isApiErrorMessage === true) {
    if (record.value.isApiErrorMessage === true) reading.endedBadly = true;
    return;
  }
  const id = typeof message.id === "string" && message.id !== "" ? message.id : undefined;
  const ops: Op[] = [];
  const item = id === undefined ? {} : { [FACT.itemId]: id };
  const sameMessage = id !== undefined && id === reading.message;
  const calls = sameMessage ? reading.messageCalls : new Set<string>();
  list.forEach((block, k) => {
    const path = `${record.path}.message.content[${k}]`;
    if (!isRecord(block)) throw new ImportError(path, "must be a content block object");
    switch (block.type) {
      case "text": {
        const text = typeof block.text === "string" ? block.text : contentText(block.text);
        if (text.trim() !== "") ops.push(() => b.agentMessage(text, withFacts(reading, item)));
        break;
      }
      case "thinking":
        ops.push(() => b.reasoning(typeof block.thinking === "string" ? block.thinking : "", withFacts(reading, item)));
        break;
      case "redacted_thinking":
        ops.push(() => b.reasoning("[redacted]", withFacts(reading, item)));
        break;
      case "tool_use":
      case "server_tool_use":
      case "mcp_tool_use": {
        const name = requireString(block, "name", path);
        const callId = requireString(block, "id", path);
        if (calls.has(callId)) {
          ops.push(() => b.warn(path, `tool_use ${JSON.stringify(callId)} is written twice in message ${JSON.stringify(id)}; read once`));
          break;
        }
        calls.add(callId);
        const server =
          block.type === "server_tool_use"
            ? { [FACT.server]: "provider" }
            : block.type === "mcp_tool_use"
              ? { [FACT.server]: typeof block.server_name === "string" ? block.server_name : "mcp" }
              : {};
        const args = jsonText(block.input ?? {});
        ops.push(() => {
          b.call(name, args, callId, withFacts(reading, { ...item, ...server }), `${path}.input`);
          if (block.type === "tool_use") reading.plan.called(name, callId, block.input, path);
        });
        break;
      }
      case "image":
      case "document":
        ops.push(() => b.agentMessage(contentText([block]), withFacts(reading, item)));
        break;
      default:
        if (typeof block.type !== "string") throw new ImportError(path, "missing type");
        if (block.type.endsWith("_tool_result")) {
          // A provider-side tool's result, in the model's own message (web search, code execution).
          const callId = requireString(block, "tool_use_id", path);
          const error = block.is_error === true || (isRecord(block.content) && String(block.content.type).endsWith("_error"));
          const content = isRecord(block.content) ? block.content : resultText(block.content);
          ops.push(() => b.result(callId, content, { error, path, inline: true, meta: withFacts(reading) }));
        } else {
          const type = block.type;
          ops.push(() => b.warn(path, `content block of type ${JSON.stringify(type)} is not imported`));
        }
    }
  });
  // Checked whole before any event is written: a bad record leaves no half of itself behind.
  if (!sameMessage) {
    b.turn();
    reading.message = id;
    reading.messageCalls = calls;
  }
  for (const op of ops) op();
  reading.replied = true;
  reading.awaiting = false;
  const stop = message.stop_reason;
  reading.endedBadly = typeof stop === "string" && CUT_OFF.has(stop);
}

/** A user record: the user's words (one event per run of text and images), an interruption, or tool results. */
function user(reading: Reading, record: SessionRecord): void {
  const { b } = reading;
  const { value } = record;
  const message = value.message;
  if (!isRecord(message)) throw new ImportError(record.path, message === undefined ? "missing message" : "message must be an object");
  const list = blocks(message, record.path);
  // Context Claude Code adds (skill and slash-command expansions, caveats, compaction summaries): dropped, as system prompts are.
  const context = value.isMeta === true || value.isCompactSummary === true || value.isVisibleInTranscriptOnly === true;
  const results = list.filter((block) => isRecord(block) && block.type === "tool_result").length;
  const ops: Op[] = [];
  let pending: unknown[] = [];
  let pendingKind: "prompt" | "command" = "prompt";
  const uuid = typeof value.uuid === "string" ? { [FACT.itemId]: value.uuid } : {};
  const flush = (): void => {
    if (pending.length === 0) return;
    const parts = pending;
    const kind = pendingKind;
    pending = [];
    pendingKind = "prompt";
    const text = contentText(parts);
    ops.push(() => {
      if (kind === "prompt") {
        b.user(text, withFacts(reading, uuid));
        reading.awaiting = true;
      } else {
        // A slash command or `!` shell command runs in Claude Code itself; a reply is not owed to it.
        const command = COMMAND.exec(text)?.[1] ?? "!";
        b.userEvent("command", text, withFacts(reading, { ...uuid, [CLAUDE_CODE_FACT.command]: command }));
      }
      reading.message = undefined;
    });
  };
  list.forEach((block, k) => {
    const path = `${record.path}.message.content[${k}]`;
    if (!isRecord(block)) throw new ImportError(path, "must be a content block object");
    if (block.type === "tool_result") {
      flush();
      const callId = requireString(block, "tool_use_id", path);
      const text = resultText(block.content);
      const error = block.is_error === true;
      // The structured result belongs to the record's one tool result; with several it names none of them.
      const structured = results === 1 ? value.toolUseResult : undefined;
      ops.push(() => {
        const fields = structuredFields(structured, `${record.path}.toolUseResult`, "toolUseResult", b);
        b.result(callId, text, { error, path, inline: true, meta: withFacts(reading, fields) });
        reading.plan.answered(callId);
        reading.awaiting = true;
      });
      return;
    }
    if (context) return;
    if (block.type === "text") {
      const text = typeof block.text === "string" ? block.text : contentText(block.text);
      const kind = classifyUserText(text);
      if (kind === "none" || kind === "injected") return;
      if (kind === "interruption") {
        flush();
        ops.push(() => {
          b.user(text.trim(), withFacts(reading, { ...uuid, [CLAUDE_CODE_FACT.interrupted]: "true" }));
          reading.interrupted = true;
          reading.awaiting = false;
          reading.message = undefined;
        });
        return;
      }
      if (reading.subagent) return;
      if (kind === "command") pendingKind = pending.length === 0 ? "command" : pendingKind;
      else pendingKind = "prompt";
      pending.push(block);
      return;
    }
    if (typeof block.type !== "string") throw new ImportError(path, "missing type");
    if (!reading.subagent) pending.push(block);
  });
  if (results > 1 && isRecord(value.toolUseResult))
    ops.push(() =>
      b.warn(
        `${record.path}.toolUseResult`,
        `the record holds ${results} tool results; its toolUseResult belongs to none of them and is not read`,
      ),
    );
  flush();
  for (const op of ops) op();
}

/** An `attachment` record: a prompt the user typed while the agent worked (`queued_command`) is a user message; other attachments are context. */
function attachment(reading: Reading, record: SessionRecord): void {
  const a = record.value.attachment;
  if (!isRecord(a) || a.type !== "queued_command") return;
  if (a.commandMode !== undefined && a.commandMode !== "prompt") return;
  if (isRecord(a.origin) && a.origin.kind !== undefined && a.origin.kind !== "human") return;
  const text = contentText(a.prompt);
  if (text.trim() === "") return;
  reading.b.user(text, withFacts(reading, typeof record.value.uuid === "string" ? { [FACT.itemId]: record.value.uuid } : {}));
  reading.message = undefined;
  reading.awaiting = true;
}

/** Reads one record into the trajectory; a bad record is a located error and the others still count. */
function readRecord(reading: Reading, record: SessionRecord): void {
  try {
    checkNesting(record.value, record.path);
    const type = record.value.type;
    if (type === "assistant") assistant(reading, record);
    else if (type === "user") user(reading, record);
    else if (type === "attachment") attachment(reading, record);
    else if (type === "result") {
      // The last record of `claude -p --output-format stream-json`: how the run ended.
      if (record.value.is_error === true || (typeof record.value.subtype === "string" && record.value.subtype.startsWith("error")))
        reading.endedBadly = true;
    } else if (typeof type !== "string") throw new ImportError(record.path, type === undefined ? "missing type" : "type must be a string");
    else if (!QUIET_TYPES.has(type)) {
      const seen = reading.unknown.get(type) ?? { count: 0, path: record.path, calls: 0 };
      seen.count++;
      if (holdsCalls(record.value)) seen.calls++;
      reading.unknown.set(type, seen);
    }
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    reading.errors.push({ path: error.path, message: error.reason, index: record.index });
    reading.rejected = true;
    return;
  }
  // Only a record that was read counts as seen: a broken copy does not hide a good one with its uuid.
  if (typeof record.value.uuid === "string") reading.repeats.seen.add(record.value.uuid);
}

/** The one warning per unknown record type: how many were skipped, where the first is, and whether they held calls. */
function unknownWarnings(reading: Reading): void {
  for (const [type, seen] of reading.unknown) {
    const held = seen.calls === 0 ? "" : `; ${seen.calls} of them hold tool_use or tool_result blocks, which the trace lacks`;
    reading.b.warn(seen.path, `skipped ${seen.count} record${seen.count === 1 ? "" : "s"} of unknown type ${JSON.stringify(type)}${held}`);
  }
}

/** Reads a transcript's records into `reading`; a sub-agent's transcript is read into the same builder where its call says. */
function readTranscript(reading: Reading, records: readonly SessionRecord[]): void {
  const { repeats } = reading;
  for (const record of records) {
    const uuid = record.value.uuid;
    if (typeof uuid === "string" && repeats.seen.has(uuid)) {
      if (repeats.count++ === 0) repeats.first = record.path;
      continue;
    }
    reading.plan.before(record, reading);
    readRecord(reading, record);
  }
}

/** Imports a Claude Code session (its records in file order; a sub-agent's records may be among them): one trajectory. */
export function fromClaudeCode(input: unknown, options: ImportOptions = {}): ImportResult {
  return guard(() => {
    const list = Array.isArray(input) ? input : [input];
    const all: SessionRecord[] = [];
    const errors: (ImportIssue & { index: number })[] = [];
    list.forEach((value, i) => {
      const path = Array.isArray(input) ? `[${i}]` : "";
      if (isRecord(value)) all.push({ value, path, index: i });
      else errors.push({ path, message: "must be a transcript record (an object)", index: i });
    });
    const plan = planAgents(all, (records, facts, parent) => {
      const sub = newReading(parent.b, parent.plan, facts, parent.repeats);
      sub.subagent = true;
      readTranscript(sub, records);
      return sub;
    });
    const main = plan.main;
    const b = new TrajectoryBuilder(traceId(options, sessionId(main), 0, 1), options);
    b.description = description(main);
    const reading: Reading = newReading(b, plan, {}, { seen: new Set(), count: 0, first: "" });
    readTranscript(reading, main);
    plan.finish(reading);
    unknownWarnings(reading);
    const { repeats } = reading;
    if (repeats.count > 0)
      b.warn(
        repeats.first,
        `${repeats.count} record${repeats.count === 1 ? " repeats" : "s repeat"} the uuid of an earlier record (a resumed session's copy); each uuid is read once`,
      );
    const ended =
      reading.replied && !reading.awaiting && !reading.endedBadly && !reading.interrupted && !reading.rejected && errors.length === 0;
    const trajectory = b.finish(ended);
    // Errors in the order of the input, as a reader of the file meets them.
    const located = [...errors, ...reading.errors].sort((x, y) => x.index - y.index);
    return {
      trajectories: [trajectory],
      errors: located.map(({ path, message }) => ({ path, message, trace: 0 })),
      warnings: b.warnings.map((w) => ({ ...w, trace: 0 })),
    };
  });
}

/** A fresh reading state over a builder (a sub-agent's transcript gets one of its own, sharing the builder). */
function newReading(b: TrajectoryBuilder, plan: AgentPlan, facts: Record<string, string>, repeats: Repeats): Reading {
  return {
    b,
    errors: [],
    message: undefined,
    messageCalls: new Set(),
    interrupted: false,
    awaiting: false,
    endedBadly: false,
    replied: false,
    rejected: false,
    facts,
    subagent: false,
    unknown: new Map(),
    plan,
    repeats,
  };
}

export type { Reading };
