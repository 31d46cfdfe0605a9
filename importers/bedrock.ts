/**
 * AWS Bedrock Converse logs (IMPORTERS.md `bedrock`): `messages` whose
 * content blocks are keyed, not typed (`{text}`, `{toolUse}`, `{toolResult}`,
 * `{image}`, `{reasoningContent}`, …); calls in assistant messages answered
 * by `toolResult` blocks of the next user message on `toolUseId`; the
 * response's `output.message` and `stopReason`. Also Bedrock model
 * invocation log records (`inputBodyJson` / `outputBodyJson`) and Strands
 * Agents session messages (`{message, message_id, …}`), which store the same
 * messages.
 */
import { FACT, ImportError, TrajectoryBuilder, checkNesting, contentText, guard, importEach, isRecord, jsonText, traceId } from "./core.js";
import type { ImportOptions, ImportResult } from "./core.js";
import { allMessageLists, importConversations, join } from "./exchanges.js";
import type { Conversation, ShapeRules } from "./exchanges.js";
import { parsePythonDict } from "./python-literal.js";

/** The keys of a ContentBlock union (Converse API reference; strands/types/content.py). */
const BLOCK_KEYS = new Set([
  "text",
  "toolUse",
  "toolResult",
  "image",
  "document",
  "video",
  "audio",
  "reasoningContent",
  "cachePoint",
  "guardContent",
  "citationsContent",
  "searchResult",
]);

const PLACEHOLDERS = new Map<string, string>([
  ["image", "[image]"],
  ["document", "[file]"],
  ["video", "[video]"],
  ["audio", "[audio]"],
]);

/** The one key of a keyed block that this importer knows, or undefined. */
function blockKey(block: Record<string, unknown>): string | undefined {
  for (const key of Object.keys(block)) if (BLOCK_KEYS.has(key)) return key;
  return undefined;
}

function isBlock(value: unknown): boolean {
  return isRecord(value) && !("type" in value) && blockKey(value) !== undefined;
}

function isMessage(value: unknown): boolean {
  return isRecord(value) && (value.role === "user" || value.role === "assistant") && Array.isArray(value.content);
}

function isResponse(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && isRecord(value.output) && isMessage(value.output.message);
}

function isInvocationLog(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && value.schemaType === "ModelInvocationLog" && isRecord(value.input) && isRecord(value.output);
}

/** A Strands SessionMessage (strands/types/session.py): the message, its index, maybe its redacted form. */
function isSessionMessage(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && isRecord(value.message) && typeof value.message_id === "number";
}

/**
 * A model invocation log record as one exchange: `input.inputBodyJson` is
 * the request, `output.outputBodyJson` the response. A bad record comes back
 * as its error, so the other records of the log still import.
 */
function invocationLog(value: Record<string, unknown>, path: string): Conversation | ImportError | undefined {
  if (!isInvocationLog(value)) return undefined;
  const input = value.input as Record<string, unknown>;
  const output = value.output as Record<string, unknown>;
  const operation = typeof value.operation === "string" ? value.operation : "";
  if (operation !== "" && !operation.startsWith("Converse"))
    return new ImportError(
      join(path, "operation"),
      `${JSON.stringify(operation)} logs the model's own request format, not Converse messages (import the body with that model's format)`,
    );
  const body = input.inputBodyJson;
  if (!isRecord(body) || !Array.isArray(body.messages)) return new ImportError(join(path, "input.inputBodyJson"), "missing messages");
  const conversation: Conversation = {
    messages: body.messages,
    path: join(path, "input.inputBodyJson.messages"),
    nativeId: value.requestId,
    model: value.modelId,
  };
  const response = output.outputBodyJson;
  if (response === undefined || response === null) return conversation;
  if (!isResponse(response)) return new ImportError(join(path, "output.outputBodyJson"), "not a Converse response (no output.message)");
  return { ...conversation, response, responsePath: join(path, "output.outputBodyJson") };
}

const rules: ShapeRules = {
  isMessage,
  isResponse,
  responseMessages: (response) => [(response.output as Record<string, unknown>).message],
  unwrap: invocationLog,
};

/** Strands session messages: one SessionMessage, or a list of them (every message_<n>.json of an agent). */
function sessionMessages(input: unknown): Record<string, unknown>[] | undefined {
  if (isSessionMessage(input)) return [input];
  if (Array.isArray(input) && input.length > 0 && input.every(isSessionMessage)) return input;
  return undefined;
}

/**
 * A cheap shape test: Converse messages (only user/assistant roles, content
 * arrays of keyed blocks with no `type`), a Converse response, invocation
 * log records, or Strands session messages.
 */
export function detectBedrock(input: unknown): boolean {
  if (sessionMessages(input) !== undefined) return true;
  if (isInvocationLog(input)) return true;
  if (Array.isArray(input) && input.length > 0 && input.every(isInvocationLog)) return true;
  const found = allMessageLists(input, isMessage);
  if (found === undefined) return false;
  if (!found.responses.every(isResponse)) return false;
  if (found.messages.length === 0) return found.responses.length > 0;
  let blocks = found.responses.length > 0;
  for (const m of found.messages) {
    if (!isMessage(m)) return false;
    for (const block of (m as Record<string, unknown>).content as unknown[]) {
      if (!isBlock(block)) return false;
      blocks = true;
    }
  }
  return blocks;
}

/** One message to import, where it is, and for the response what ended it. */
interface Entry {
  message: unknown;
  path: string;
  stop?: unknown;
  /** Facts every event of the message carries (a redacted Strands message). */
  meta?: Record<string, string>;
}

/** Whether a stop reason ends the conversation normally: an answer, a stop sequence, or a guardrail's own answer. */
function normalStop(stop: unknown): boolean {
  return stop === "end_turn" || stop === "stop_sequence" || stop === "guardrail_intervened";
}

function importEntries(b: TrajectoryBuilder, entries: readonly Entry[]): TrajectoryBuilder {
  let endedNormally = false;
  for (const { message, path, stop, meta } of entries) {
    if (!isRecord(message)) throw new ImportError(path, "must be a message object");
    if (message.role !== "user" && message.role !== "assistant")
      throw new ImportError(
        path,
        message.role === undefined
          ? "missing role"
          : `unknown role ${JSON.stringify(message.role)} (expected user or assistant; the system prompt is a request field)`,
      );
    const content = message.content;
    if (!Array.isArray(content))
      throw new ImportError(path, content === undefined ? "missing content" : "content must be an array of content blocks");
    if (message.role === "user") {
      user(b, content, path, meta);
      // Results reopen the agent's turn; a user's word after the last reply leaves nothing pending (docs/IMPORTERS.md "What completes a trace").
      if (content.some((block) => isRecord(block) && "toolResult" in block)) endedNormally = false;
    } else {
      const calls = assistant(b, content, path, meta, stop === "guardrail_intervened");
      endedNormally = calls === 0 && (stop === undefined || stop === null || normalStop(stop));
    }
  }
  b.finish(endedNormally);
  return b;
}

/** Text of one non-tool block (text, media, guard content, citations); undefined for a block that carries nothing (a cache point). */
function blockText(key: string, value: unknown): string | undefined {
  if (key === "text") return typeof value === "string" ? value : contentText(value);
  if (key === "cachePoint") return undefined;
  const placeholder = PLACEHOLDERS.get(key);
  if (placeholder !== undefined) return placeholder;
  if (key === "guardContent" && isRecord(value)) return isRecord(value.text) ? contentText(value.text.text) : "[image]";
  if (key === "citationsContent" && isRecord(value) && Array.isArray(value.content))
    return value.content.map((part) => (isRecord(part) ? contentText(part.text) : "")).join("");
  if (key === "searchResult" && isRecord(value) && Array.isArray(value.content))
    return value.content.map((part) => (isRecord(part) ? contentText(part.text) : "")).join("\n");
  return `[${key}]`;
}

/** A user message: runs of text and media as one user event each; toolResult blocks as results. */
function user(b: TrajectoryBuilder, content: unknown[], path: string, meta: Record<string, string> | undefined): void {
  let pending: string[] = [];
  const flush = (): void => {
    if (pending.length > 0) b.user(pending.join("\n"), meta);
    pending = [];
  };
  content.forEach((block, k) => {
    const blockPath = `${path}.content[${k}]`;
    if (!isRecord(block)) throw new ImportError(blockPath, "must be a content block object");
    const key = blockKey(block);
    if (key === "toolResult") {
      flush();
      toolResult(b, block.toolResult, `${blockPath}.toolResult`, false, meta);
    } else if (key === undefined) {
      b.warn(blockPath, `content block with keys ${JSON.stringify(Object.keys(block))} is not imported`);
    } else if (key !== "reasoningContent") {
      const text = blockText(key, block[key]);
      if (text !== undefined && text !== "") pending.push(text);
    }
  });
  flush();
}

/**
 * An assistant message; returns how many client-side calls it made (each
 * waits for a result). A response a guardrail stopped starts with the
 * guardrail event; its text is the guardrail's own answer.
 */
function assistant(
  b: TrajectoryBuilder,
  content: unknown[],
  path: string,
  meta: Record<string, string> | undefined,
  guardrail: boolean,
): number {
  b.turn();
  if (guardrail) b.guardrail("bedrock", true, meta);
  let calls = 0;
  content.forEach((block, k) => {
    const blockPath = `${path}.content[${k}]`;
    if (!isRecord(block)) throw new ImportError(blockPath, "must be a content block object");
    const key = blockKey(block);
    const value = key === undefined ? undefined : block[key];
    switch (key) {
      case "toolUse": {
        const use = requireBlock(value, `${blockPath}.toolUse`);
        const name = requireText(use, "name", `${blockPath}.toolUse`);
        const id = requireText(use, "toolUseId", `${blockPath}.toolUse`);
        // A tool Bedrock ran itself (a server tool) is answered in the same message.
        const server = use.type === "server_tool_use" ? { ...meta, [FACT.server]: "provider" } : meta;
        b.call(name, jsonText(use.input ?? {}), id, server, `${blockPath}.toolUse.input`);
        if (use.type !== "server_tool_use") calls++;
        break;
      }
      case "toolResult":
        toolResult(b, value, `${blockPath}.toolResult`, true, meta);
        break;
      case "reasoningContent":
        b.reasoning(reasoningText(value), meta);
        break;
      case undefined:
        b.warn(blockPath, `content block with keys ${JSON.stringify(Object.keys(block))} is not imported`);
        break;
      default: {
        const text = blockText(key, value);
        // Whitespace between blocks ("\n\n" before a tool call) is no message.
        if (text !== undefined && text.trim() !== "") b.agentMessage(text, meta);
      }
    }
  });
  return calls;
}

function reasoningText(value: unknown): string {
  if (!isRecord(value)) return "";
  if (isRecord(value.reasoningText)) return typeof value.reasoningText.text === "string" ? value.reasoningText.text : "";
  return value.redactedContent !== undefined ? "[redacted]" : "";
}

function requireBlock(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) throw new ImportError(path, "must be an object");
  return value;
}

function requireText(parent: Record<string, unknown>, key: string, path: string): string {
  const value = parent[key];
  if (typeof value === "string" && value !== "") return value;
  throw new ImportError(path, value === undefined || value === null ? `missing ${key}` : `${key} must be a non-empty string`);
}

/**
 * A toolResult: its content blocks as text (text parts joined by "\n", a
 * json block as its JSON, media as placeholders); the fields of a JSON
 * object result (one json block, a text that is JSON, or a Python dict repr
 * as Strands writes a dict) flattened; `status: "error"` marks a failure.
 */
function toolResult(b: TrajectoryBuilder, value: unknown, path: string, inline: boolean, meta: Record<string, string> | undefined): void {
  const result = requireBlock(value, path);
  const id = requireText(result, "toolUseId", path);
  const blocks = result.content;
  const texts: string[] = [];
  const objects: Record<string, unknown>[] = [];
  if (Array.isArray(blocks)) {
    blocks.forEach((part, k) => {
      if (!isRecord(part)) throw new ImportError(`${path}.content[${k}]`, "must be a content block object");
      if ("json" in part) {
        if (isRecord(part.json)) objects.push(part.json);
        texts.push(JSON.stringify(part.json) ?? "null");
        return;
      }
      const key = blockKey(part);
      const text = key === undefined ? `[${Object.keys(part).join(",")}]` : blockText(key, part[key]);
      if (text !== undefined && text !== "") texts.push(text);
    });
  } else if (blocks !== undefined && blocks !== null) {
    texts.push(contentText(blocks));
  }
  const text = texts.join("\n");
  // One JSON object among the parts is the result's structure; a Python dict repr is read as one too.
  const fields = objects.length === 1 ? objects[0] : texts.length === 1 && objects.length === 0 ? parsePythonDict(text) : undefined;
  b.result(id, text, { error: result.status === "error", path, inline, meta, fields });
}

/** The entries of one logged conversation (its messages and, if logged, the response). */
function conversationEntries(conversation: Conversation): Entry[] {
  const entries: Entry[] = conversation.messages.map((message, i) => ({ message, path: `${conversation.path}[${i}]` }));
  const response = conversation.response;
  if (response !== undefined) {
    const at = conversation.responsePath ?? "";
    entries.push({
      message: (response.output as Record<string, unknown>).message,
      path: join(at, "output.message"),
      stop: response.stopReason,
    });
  }
  return entries;
}

/** A boto3 response dict keeps the service's request id; invocation logs name it too. */
function nativeId(conversation: Conversation): unknown {
  if (conversation.nativeId !== undefined) return conversation.nativeId;
  const metadata = conversation.response?.ResponseMetadata;
  return isRecord(metadata) ? metadata.RequestId : undefined;
}

/**
 * Strands session messages in conversation order (by message_id: file
 * listings put message_10 before message_2), each the message as it was
 * exchanged; a redacted one keeps its original content, marked `@redacted`.
 */
function sessionEntries(records: readonly Record<string, unknown>[], single: boolean, b: TrajectoryBuilder): Entry[] {
  const order = records
    .map((record, i) => ({ record, i }))
    .sort((x, y) => (x.record.message_id as number) - (y.record.message_id as number));
  const entries: Entry[] = [];
  let previous: number | undefined;
  for (const { record, i } of order) {
    const path = single ? "message" : `[${i}].message`;
    const id = record.message_id as number;
    if (previous === id) b.warn(single ? "message_id" : `[${i}].message_id`, `a second message with message_id ${id}`);
    previous = id;
    const redacted = record.redact_message !== undefined && record.redact_message !== null;
    entries.push(redacted ? { message: record.message, path, meta: { [FACT.redacted]: "true" } } : { message: record.message, path });
  }
  return entries;
}

/** Imports Bedrock Converse logs, invocation log records or Strands session messages: one trajectory per conversation. */
export function fromBedrock(input: unknown, options: ImportOptions = {}): ImportResult {
  const session = sessionMessages(input);
  if (session !== undefined)
    return guard(() =>
      importEach([session], (records) => {
        checkNesting(records, "");
        const b = new TrajectoryBuilder(traceId(options, undefined, 0, 1), options);
        return importEntries(b, sessionEntries(records, !Array.isArray(input), b));
      }),
    );
  return importConversations(input, rules, "Bedrock Converse", (conversation, index, count) =>
    importEntries(
      new TrajectoryBuilder(traceId(options, nativeId(conversation), index, count), options),
      conversationEntries(conversation),
    ),
  );
}
