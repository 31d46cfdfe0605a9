/**
 * OpenAI Chat Completions logs (IMPORTERS.md `openai-chat`): `messages` with
 * `assistant.tool_calls[]` answered by `role: "tool"` messages on
 * `tool_call_id`; also the legacy `function_call` / `role: "function"`
 * spelling (paired by name, no ids) and `custom` tool calls.
 */
import { FACT, ImportError, TrajectoryBuilder, contentText, isRecord, jsonText, requireString, traceId } from "./core.js";
import type { ImportOptions, ImportResult } from "./core.js";
import { allMessageLists, importConversations } from "./exchanges.js";
import type { Conversation, ShapeRules } from "./exchanges.js";

const ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

function isChatMessage(value: unknown): boolean {
  return isRecord(value) && typeof value.role === "string" && ROLES.has(value.role);
}

function isCompletion(value: unknown): value is Record<string, unknown> {
  return (
    isRecord(value) &&
    (value.object === "chat.completion" ||
      (Array.isArray(value.choices) && isRecord(value.choices[0]) && isRecord(value.choices[0].message)))
  );
}

function firstChoice(response: Record<string, unknown>): Record<string, unknown> | undefined {
  const choice = Array.isArray(response.choices) ? response.choices[0] : undefined;
  return isRecord(choice) ? choice : undefined;
}

const rules: ShapeRules = {
  isMessage: isChatMessage,
  isResponse: isCompletion,
  responseMessages: (response) => {
    const message = firstChoice(response)?.message;
    return message === undefined ? [] : [message];
  },
};

/** A message that only this format writes: tool calls with `function`, a `tool_call_id`, a legacy `function` role, or an `image_url` part. */
function chatSpecific(message: Record<string, unknown>): boolean {
  if (message.role === "function" || typeof message.tool_call_id === "string" || isRecord(message.function_call)) return true;
  if (Array.isArray(message.tool_calls) && message.tool_calls.some((c) => isRecord(c) && (isRecord(c.function) || isRecord(c.custom))))
    return true;
  return Array.isArray(message.content) && message.content.some((p) => isRecord(p) && (p.type === "image_url" || p.type === "input_audio"));
}

/**
 * A cheap shape test: chat messages (roles of this API, string or part
 * contents) or a ChatCompletion. Plain `{role, content: string}` lists also
 * pass for other chat formats; detection settles that (they import the same).
 */
export function detectOpenAIChat(input: unknown): boolean {
  const found = allMessageLists(input, isChatMessage);
  if (found === undefined) return false;
  if (!found.responses.every(isCompletion)) return false;
  if (found.messages.length === 0) return found.responses.length > 0;
  let specific = found.responses.length > 0;
  for (const m of found.messages) {
    if (!isChatMessage(m)) return false;
    const message = m as Record<string, unknown>;
    // Anthropic and AI SDK messages hold typed blocks this API never writes.
    if (
      Array.isArray(message.content) &&
      message.content.some((p) => !isRecord(p) || typeof p.type !== "string" || FOREIGN_PARTS.has(p.type))
    )
      return false;
    if (chatSpecific(message)) specific = true;
  }
  return specific || found.messages.every((m) => plainContent((m as Record<string, unknown>).content));
}

/**
 * Content every chat API writes alike: a string, null, or a list of text
 * parts (`[{type: "text", text}]`, which this API accepts for every role).
 * A list whose messages all have such content is a plain chat log; without
 * the parts form, one whose first message had parts was no format at all.
 */
function plainContent(content: unknown): boolean {
  if (typeof content === "string" || content === null) return true;
  return Array.isArray(content) && content.every((p) => isRecord(p) && p.type === "text" && typeof p.text === "string");
}

const FOREIGN_PARTS = new Set([
  "tool_use",
  "tool_result",
  "tool-call",
  "tool-result",
  "image",
  "thinking",
  "reasoning",
  "document",
  "server_tool_use",
]);

function importConversation(conversation: Conversation, index: number, count: number, options: ImportOptions): TrajectoryBuilder {
  const b = new TrajectoryBuilder(traceId(options, conversation.nativeId, index, count), options);
  const all: { message: unknown; path: string; finish?: unknown }[] = conversation.messages.map((message, i) => ({
    message,
    path: `${conversation.path}[${i}]`,
  }));
  if (conversation.response !== undefined) {
    const choice = firstChoice(conversation.response);
    const path = `${conversation.responsePath === "" ? "" : `${conversation.responsePath}.`}choices[0]`;
    if (choice === undefined || !isRecord(choice.message))
      throw new ImportError(conversation.responsePath ?? "", "missing choices[0].message");
    all.push({ message: choice.message, path: `${path}.message`, finish: choice.finish_reason });
  }
  let endedNormally = false;
  for (const { message, path, finish } of all) {
    if (!isRecord(message)) throw new ImportError(path, "must be a message object");
    const role = message.role;
    if (typeof role !== "string" || !ROLES.has(role)) {
      throw new ImportError(
        path,
        role === undefined
          ? "missing role"
          : `unknown role ${JSON.stringify(role)} (expected system, developer, user, assistant, tool or function)`,
      );
    }
    switch (role) {
      case "system":
      case "developer":
        continue; // instructions, not conduct (IMPORTERS.md: dropped)
      case "user":
        // A user's word after the last reply ("thanks, bye") leaves nothing pending (docs/IMPORTERS.md "What completes a trace").
        b.user(contentText(message.content));
        break;
      case "assistant":
        endedNormally = assistant(b, message, path, finish);
        break;
      case "tool":
        b.result(requireString(message, "tool_call_id", path), message.content, { path });
        endedNormally = false;
        break;
      case "function":
        // Legacy results name their function and carry no id: paired with the earliest open call of that name.
        b.result(undefined, message.content, { name: requireString(message, "name", path), path });
        endedNormally = false;
        break;
    }
  }
  return finishWith(b, endedNormally);
}

function finishWith(b: TrajectoryBuilder, endedNormally: boolean): TrajectoryBuilder {
  b.finish(endedNormally);
  return b;
}

/** Maps one assistant message; returns whether it ended the conversation normally. */
function assistant(b: TrajectoryBuilder, message: Record<string, unknown>, path: string, finish: unknown): boolean {
  b.turn();
  // Some compatible servers (DeepSeek, vLLM, OpenRouter) return the model's reasoning beside the content.
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (typeof reasoning === "string" && reasoning !== "") b.reasoning(reasoning);
  const text = contentText(message.content);
  if (text !== "") b.agentMessage(text);
  if (typeof message.refusal === "string" && message.refusal !== "") b.agentMessage(message.refusal, { [FACT.refusal]: "true" });
  let calls = 0;
  if (message.tool_calls !== undefined && message.tool_calls !== null) {
    if (!Array.isArray(message.tool_calls)) throw new ImportError(`${path}.tool_calls`, "must be an array");
    message.tool_calls.forEach((call, k) => {
      const callPath = `${path}.tool_calls[${k}]`;
      if (!isRecord(call)) throw new ImportError(callPath, "must be an object");
      const id = typeof call.id === "string" && call.id !== "" ? call.id : undefined;
      if (isRecord(call.custom) && call.type === "custom") {
        b.call(
          requireString(call.custom, "name", `${callPath}.custom`),
          jsonText(call.custom.input),
          id,
          undefined,
          `${callPath}.custom.input`,
        );
      } else {
        if (!isRecord(call.function)) throw new ImportError(callPath, "missing function");
        b.call(
          requireString(call.function, "name", `${callPath}.function`),
          jsonText(call.function.arguments),
          id,
          undefined,
          `${callPath}.function.arguments`,
        );
      }
      calls++;
    });
  }
  if (isRecord(message.function_call)) {
    const fn = message.function_call;
    b.call(
      requireString(fn, "name", `${path}.function_call`),
      jsonText(fn.arguments),
      undefined,
      undefined,
      `${path}.function_call.arguments`,
    );
    calls++;
  }
  // A logged response says how the turn ended; a bare message list ends normally on an answer without calls.
  if (finish !== undefined && finish !== null) return finish === "stop" && calls === 0;
  return calls === 0;
}

/** Imports Chat Completions logs: one trajectory per conversation. */
export function fromOpenAIChat(input: unknown, options: ImportOptions = {}): ImportResult {
  return importConversations(input, rules, "Chat Completions", (conversation, index, count) =>
    importConversation(conversation, index, count, options),
  );
}
