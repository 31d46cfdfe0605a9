/**
 * Anthropic Messages API logs (IMPORTERS.md `anthropic`): `tool_use` blocks in
 * assistant messages, answered by `tool_result` blocks in the next user
 * message on `tool_use_id`; server tools (`server_tool_use`, `mcp_tool_use`)
 * answered by their `*_tool_result` block in the same assistant message.
 */
import { FACT, ImportError, TrajectoryBuilder, contentText, isRecord, jsonText, requireString, traceId } from "./core.js";
import type { ImportOptions, ImportResult } from "./core.js";
import { allMessageLists, importConversations } from "./exchanges.js";
import type { Conversation, ShapeRules } from "./exchanges.js";

function isMessage(value: unknown): boolean {
  return (
    isRecord(value) &&
    (value.role === "user" || value.role === "assistant") &&
    (typeof value.content === "string" || Array.isArray(value.content))
  );
}

function isResponse(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && value.type === "message" && value.role === "assistant" && Array.isArray(value.content);
}

const rules: ShapeRules = {
  isMessage,
  isResponse,
  responseMessages: (response) => [{ role: "assistant", content: response.content }],
};

/** Block types only the Messages API writes. */
const OWN_BLOCKS = new Set([
  "tool_use",
  "tool_result",
  "server_tool_use",
  "mcp_tool_use",
  "mcp_tool_result",
  "thinking",
  "redacted_thinking",
  "web_search_tool_result",
  "web_fetch_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
  "tool_search_tool_result",
  "container_upload",
  "search_result",
]);

/** A cheap shape test: Messages API messages (only user/assistant roles, typed blocks of this API) or a Message response. */
export function detectAnthropic(input: unknown): boolean {
  const found = allMessageLists(input, isMessage);
  if (found === undefined) return false;
  if (!found.responses.every(isResponse)) return false;
  if (found.messages.length === 0) return found.responses.length > 0;
  let specific = found.responses.length > 0;
  for (const m of found.messages) {
    if (!isMessage(m)) return false;
    const content = (m as Record<string, unknown>).content;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (!isRecord(block) || typeof block.type !== "string") return false;
      if (OWN_BLOCKS.has(block.type) || (block.type === "image" && isRecord(block.source))) specific = true;
      else if (block.type !== "text" && block.type !== "image" && block.type !== "document") return false;
    }
  }
  return specific || found.messages.every((m) => typeof (m as Record<string, unknown>).content === "string");
}

/** Text of a server tool's result block: search hits as "title url", errors as their code. */
function serverResultText(content: unknown): string {
  if (Array.isArray(content)) {
    return content
      .map((hit) =>
        isRecord(hit) && hit.type === "web_search_result"
          ? [hit.title, hit.url].filter((s) => typeof s === "string").join(" ")
          : contentText([hit]),
      )
      .filter((s) => s !== "")
      .join("\n");
  }
  if (isRecord(content) && typeof content.error_code === "string") return `error: ${content.error_code}`;
  return contentText(content);
}

function isServerResultError(block: Record<string, unknown>): boolean {
  if (block.is_error === true) return true;
  const content = block.content;
  return isRecord(content) && typeof content.type === "string" && content.type.endsWith("_error");
}

function importConversation(conversation: Conversation, index: number, count: number, options: ImportOptions): TrajectoryBuilder {
  const b = new TrajectoryBuilder(traceId(options, conversation.nativeId, index, count), options);
  const all: { message: unknown; path: string; stop?: unknown }[] = conversation.messages.map((message, i) => ({
    message,
    path: `${conversation.path}[${i}]`,
  }));
  if (conversation.response !== undefined) {
    all.push({
      message: { role: "assistant", content: conversation.response.content },
      path: conversation.responsePath ?? "",
      stop: conversation.response.stop_reason,
    });
  }
  let endedNormally = false;
  for (const { message, path, stop } of all) {
    if (!isRecord(message)) throw new ImportError(path, "must be a message object");
    if (message.role !== "user" && message.role !== "assistant") {
      throw new ImportError(
        path,
        message.role === undefined
          ? "missing role"
          : `unknown role ${JSON.stringify(message.role)} (expected user or assistant; the system prompt is a request field)`,
      );
    }
    const content = message.content;
    if (typeof content !== "string" && !Array.isArray(content))
      throw new ImportError(path, content === undefined ? "missing content" : "content must be a string or an array of blocks");
    if (message.role === "user") {
      // Results reopen the agent's turn; a user's word after the last reply leaves nothing pending (docs/IMPORTERS.md "What completes a trace").
      if (user(b, content, path)) endedNormally = false;
    } else {
      endedNormally = assistant(b, content, path, stop);
    }
  }
  b.finish(endedNormally);
  return b;
}

/** A user message: its text (and images, documents) as one user event per run of such blocks; tool_result blocks as results. Returns whether it held a result. */
function user(b: TrajectoryBuilder, content: string | unknown[], path: string): boolean {
  if (typeof content === "string") {
    b.user(content);
    return false;
  }
  let results = false;
  let pending: unknown[] = [];
  const flush = (): void => {
    if (pending.length > 0) b.user(contentText(pending));
    pending = [];
  };
  content.forEach((block, k) => {
    const blockPath = `${path}.content[${k}]`;
    if (isRecord(block) && block.type === "tool_result") {
      flush();
      const id = requireString(block, "tool_use_id", blockPath);
      b.result(id, block.content, { error: block.is_error === true, path: blockPath });
      results = true;
    } else {
      pending.push(block);
    }
  });
  flush();
  return results;
}

/** An assistant message; returns whether it ended the conversation normally. */
function assistant(b: TrajectoryBuilder, content: string | unknown[], path: string, stop: unknown): boolean {
  b.turn();
  if (typeof content === "string") {
    if (content !== "") b.agentMessage(content);
    return stop === undefined || stop === "end_turn" || stop === "stop_sequence" || stop === "refusal";
  }
  let clientCalls = 0;
  content.forEach((block, k) => {
    const blockPath = `${path}.content[${k}]`;
    if (!isRecord(block)) throw new ImportError(blockPath, "must be a content block object");
    switch (block.type) {
      case "text":
        if (typeof block.text === "string" && block.text !== "") b.agentMessage(block.text);
        break;
      case "thinking":
        b.reasoning(typeof block.thinking === "string" ? block.thinking : "");
        break;
      case "redacted_thinking":
        b.reasoning("[redacted]");
        break;
      case "tool_use":
        b.call(
          requireString(block, "name", blockPath),
          jsonText(block.input ?? {}),
          requireString(block, "id", blockPath),
          undefined,
          `${blockPath}.input`,
        );
        clientCalls++;
        break;
      case "server_tool_use":
        b.call(
          requireString(block, "name", blockPath),
          jsonText(block.input ?? {}),
          requireString(block, "id", blockPath),
          { [FACT.server]: "provider" },
          `${blockPath}.input`,
        );
        break;
      case "mcp_tool_use": {
        const server = typeof block.server_name === "string" ? block.server_name : "mcp";
        b.call(
          requireString(block, "name", blockPath),
          jsonText(block.input ?? {}),
          requireString(block, "id", blockPath),
          { [FACT.server]: server },
          `${blockPath}.input`,
        );
        break;
      }
      default:
        if (typeof block.type === "string" && block.type.endsWith("_tool_result")) {
          const id = requireString(block, "tool_use_id", blockPath);
          const text = block.type === "mcp_tool_result" ? contentText(block.content) : serverResultText(block.content);
          // The result text stands for the block; a structured error (error_code) is kept as fields too.
          const structured = isRecord(block.content) && !Array.isArray(block.content) ? block.content : undefined;
          b.result(id, structured ?? text, { error: isServerResultError(block), path: blockPath, inline: true });
        } else if (block.type === "image" || block.type === "document") {
          b.agentMessage(contentText([block]));
        } else if (typeof block.type !== "string") {
          throw new ImportError(blockPath, "missing type");
        } else {
          b.warn(blockPath, `content block of type ${JSON.stringify(block.type)} is not imported`);
        }
    }
  });
  if (stop !== undefined && stop !== null)
    return (stop === "end_turn" || stop === "stop_sequence" || stop === "refusal") && clientCalls === 0;
  return clientCalls === 0;
}

/** Imports Anthropic Messages API logs: one trajectory per conversation. */
export function fromAnthropic(input: unknown, options: ImportOptions = {}): ImportResult {
  return importConversations(input, rules, "Anthropic Messages", (conversation, index, count) =>
    importConversation(conversation, index, count, options),
  );
}
