/**
 * Vercel AI SDK results (IMPORTERS.md `vercel-ai`): `generateText` /
 * `streamText` `steps` (v5 and later: `content` parts `tool-call`,
 * `tool-result`, `tool-error`; v4: `toolCalls` / `toolResults` with
 * `args` / `result`), and model message histories (`response.messages`,
 * `responseMessages`, or a persisted `ModelMessage[]` / v4 `CoreMessage[]`),
 * paired on `toolCallId`.
 */
import {
  FACT,
  ImportError,
  TrajectoryBuilder,
  checkNesting,
  contentText,
  guard,
  importEach,
  isRecord,
  jsonText,
  requireString,
  traceId,
} from "./core.js";
import type { ImportOptions, ImportResult } from "./core.js";

type Unit =
  | { kind: "steps"; steps: unknown[]; path: string; prompt?: { messages: unknown[]; path: string }; nativeId?: unknown }
  | { kind: "messages"; messages: unknown[]; path: string; nativeId?: unknown };

const PART_TYPES = new Set([
  "text",
  "reasoning",
  "redacted-reasoning",
  "tool-call",
  "tool-result",
  "tool-error",
  "tool-approval-request",
  "tool-approval-response",
  "file",
  "image",
  "source",
]);

function isStep(value: unknown): boolean {
  if (!isRecord(value)) return false;
  // v5+: content parts and a finish reason; v4: toolCalls / toolResults beside stepType.
  return (Array.isArray(value.content) && "finishReason" in value) || (Array.isArray(value.toolCalls) && Array.isArray(value.toolResults));
}

function isModelMessage(value: unknown): boolean {
  if (!isRecord(value) || typeof value.role !== "string") return false;
  if (!["system", "user", "assistant", "tool"].includes(value.role)) return false;
  if (typeof value.content === "string") return value.role !== "tool";
  return Array.isArray(value.content) && value.content.every((p) => isRecord(p) && typeof p.type === "string" && PART_TYPES.has(p.type));
}

/** A message with a part only this SDK writes (tool-call / tool-result with `toolCallId`, a `file` part with a media type). */
function sdkSpecific(value: unknown): boolean {
  return (
    isRecord(value) &&
    Array.isArray(value.content) &&
    value.content.some(
      (p) =>
        isRecord(p) &&
        (((p.type === "tool-call" || p.type === "tool-result") && typeof p.toolCallId === "string") ||
          (p.type === "file" && (typeof p.mediaType === "string" || typeof p.mimeType === "string")) ||
          (p.type === "image" && "image" in p)),
    )
  );
}

/** A cheap shape test: steps, `{steps}`, `{response: {messages}}`, or a model message list with SDK-only parts. */
export function detectVercelAI(input: unknown): boolean {
  const sample =
    Array.isArray(input) && Array.isArray(input[0])
      ? input[0]
      : Array.isArray(input) && isRecord(input[0]) && (isRecord(input[0].response) || Array.isArray(input[0].steps))
        ? input[0]
        : input;
  if (Array.isArray(sample)) {
    if (sample.length > 0 && sample.every(isStep)) return true;
    return sample.length > 0 && sample.every(isModelMessage) && sample.some(sdkSpecific);
  }
  if (!isRecord(sample)) return false;
  if (Array.isArray(sample.steps) && sample.steps.every(isStep)) return true;
  const messages = responseMessages(sample);
  return messages !== undefined && messages.every(isModelMessage) && messages.some(sdkSpecific);
}

function responseMessages(value: Record<string, unknown>): unknown[] | undefined {
  if (Array.isArray(value.responseMessages)) return value.responseMessages;
  if (isRecord(value.response) && Array.isArray(value.response.messages)) return value.response.messages;
  return undefined;
}

/** The units of an input: one result (steps or messages), or a list of them. */
function units(input: unknown): (Unit | ImportError)[] {
  const one = unit(input, "");
  if (one !== undefined) return [one];
  if (Array.isArray(input))
    return input.map(
      (value, i) =>
        unit(value, `[${i}]`) ??
        new ImportError(`[${i}]`, "not an AI SDK result: expected steps, {steps}, {response: {messages}} or a message list"),
    );
  throw new ImportError("", "not an AI SDK result: expected steps, {steps}, {response: {messages}} or a message list");
}

function unit(value: unknown, path: string): Unit | undefined {
  const at = (key: string): string => (path === "" ? key : `${path}.${key}`);
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isStep)) return { kind: "steps", steps: value, path };
    if (value.length > 0 && isRecord(value[0]) && typeof value[0].role === "string") return { kind: "messages", messages: value, path };
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value.steps)) {
    // A result, or a `{messages|prompt, steps}` record of one call: the prompt's user turns come first.
    const prompt = Array.isArray(value.messages)
      ? { messages: value.messages, path: at("messages") }
      : typeof value.prompt === "string"
        ? { messages: [{ role: "user", content: value.prompt }], path: at("prompt") }
        : undefined;
    return { kind: "steps", steps: value.steps, path: at("steps"), ...(prompt ? { prompt } : {}), nativeId: value.id };
  }
  const messages = responseMessages(value);
  if (messages !== undefined)
    return {
      kind: "messages",
      messages,
      path: Array.isArray(value.responseMessages) ? at("responseMessages") : at("response.messages"),
      nativeId: isRecord(value.response) ? value.response.id : undefined,
    };
  if (Array.isArray(value.messages)) return { kind: "messages", messages: value.messages, path: at("messages"), nativeId: value.id };
  return undefined;
}

/** The text and fields of a tool output: v5+ wraps it (`{type: "json", value}`), v4 and steps hold the raw value. */
function toolOutput(part: Record<string, unknown>): { content: unknown; error: boolean } {
  const output = "output" in part ? part.output : part.result;
  const error = part.isError === true;
  if (isRecord(output) && typeof output.type === "string" && "value" in output) {
    switch (output.type) {
      case "text":
      case "json":
        return { content: output.value, error };
      case "error-text":
      case "error-json":
        return { content: output.value, error: true };
      case "content":
        // Parts go to the builder as parts: text parts alone are read (and flattened) as the text they join to.
        return { content: Array.isArray(output.value) ? output.value.map(mediaPart) : output.value, error };
      default:
        break;
    }
  }
  if (isRecord(output) && output.type === "execution-denied")
    return { content: `[execution denied]${typeof output.reason === "string" ? ` ${output.reason}` : ""}`, error: true };
  return { content: output, error };
}

/** AI SDK media parts (`image`, `file`, `media` with a media type) as the core part names contentText knows. */
function mediaPart(part: unknown): unknown {
  if (!isRecord(part)) return part;
  const media = typeof part.mediaType === "string" ? part.mediaType : typeof part.mimeType === "string" ? part.mimeType : undefined;
  if (part.type === "image" || part.type === "image-data" || part.type === "image-url") return { type: "image" };
  if (part.type === "file" || part.type === "media" || part.type === "file-data" || part.type === "file-url")
    return { type: media?.startsWith("image/") ? "image" : media?.startsWith("audio/") ? "audio" : "file" };
  return part;
}

/** A tool error part's text: `errorText` (UI), an Error's message, or the value; a serialized Error (`{}`) says only that it failed. */
function errorText(part: Record<string, unknown>): string {
  const error = part.error;
  if (typeof error === "string") return error;
  if (isRecord(error) && typeof error.message === "string") return error.message;
  const text = contentText(error);
  return text === "" || text === "{}" ? "[error]" : text;
}

function callArgs(part: Record<string, unknown>): string {
  return jsonText("input" in part ? part.input : (part.args ?? {}));
}

function meta(part: Record<string, unknown>): Record<string, string> | undefined {
  return part.providerExecuted === true ? { [FACT.server]: "provider" } : undefined;
}

/** One step's content (v5+). */
function stepContent(b: TrajectoryBuilder, content: unknown[], path: string): number {
  let calls = 0;
  content.forEach((value, k) => {
    const partPath = `${path}[${k}]`;
    if (!isRecord(value)) throw new ImportError(partPath, "must be a content part object");
    calls += part(b, value, partPath);
  });
  return calls;
}

/** Maps one part of a step or of an assistant / tool message; returns 1 for a call the client must answer. */
function part(b: TrajectoryBuilder, value: Record<string, unknown>, path: string): number {
  switch (value.type) {
    case "text":
      if (typeof value.text === "string" && value.text !== "") b.agentMessage(value.text);
      return 0;
    case "reasoning":
      b.reasoning(typeof value.text === "string" ? value.text : contentText(value.details ?? ""));
      return 0;
    case "redacted-reasoning":
      b.reasoning("[redacted]");
      return 0;
    case "tool-call":
      b.call(requireString(value, "toolName", path), callArgs(value), requireString(value, "toolCallId", path), meta(value), path);
      return value.providerExecuted === true ? 0 : 1;
    case "tool-result": {
      const { content, error } = toolOutput(value);
      b.result(requireString(value, "toolCallId", path), content, {
        name: typeof value.toolName === "string" ? value.toolName : undefined,
        error,
        path,
        inline: value.providerExecuted === true,
      });
      return 0;
    }
    case "tool-error":
      b.result(requireString(value, "toolCallId", path), errorText(value), {
        name: typeof value.toolName === "string" ? value.toolName : undefined,
        error: true,
        path,
      });
      return 0;
    case "file":
    case "image":
      b.agentMessage(contentText([mediaPart(value)]));
      return 0;
    case "source":
    case "tool-approval-request":
    case "tool-approval-response":
      return 0; // citations and approval bookkeeping: the call and its result carry the conduct
    default:
      if (typeof value.type !== "string") throw new ImportError(path, "missing type");
      b.warn(path, `part of type ${JSON.stringify(value.type)} is not imported`);
      return 0;
  }
}

const NORMAL_FINISH = new Set(["stop"]);

function importSteps(b: TrajectoryBuilder, u: Extract<Unit, { kind: "steps" }>): boolean {
  if (u.prompt !== undefined) messages(b, u.prompt.messages, u.prompt.path);
  let endedNormally = false;
  u.steps.forEach((step, i) => {
    const path = `${u.path === "" ? "" : u.path}[${i}]`;
    if (!isRecord(step)) throw new ImportError(path, "must be a step object");
    b.turn();
    let calls = 0;
    if (Array.isArray(step.content)) {
      calls = stepContent(b, step.content, `${path}.content`);
    } else {
      // v4: reasoning, text, then calls and results, each in its own list.
      if (typeof step.reasoning === "string" && step.reasoning !== "") b.reasoning(step.reasoning);
      if (typeof step.text === "string" && step.text !== "") b.agentMessage(step.text);
      if (!Array.isArray(step.toolCalls)) throw new ImportError(path, "missing content (v5+) or toolCalls (v4)");
      step.toolCalls.forEach((call, k) => {
        if (!isRecord(call)) throw new ImportError(`${path}.toolCalls[${k}]`, "must be an object");
        calls += part(b, { ...call, type: "tool-call" }, `${path}.toolCalls[${k}]`);
      });
      (Array.isArray(step.toolResults) ? step.toolResults : []).forEach((result, k) => {
        if (!isRecord(result)) throw new ImportError(`${path}.toolResults[${k}]`, "must be an object");
        part(b, { ...result, type: "tool-result" }, `${path}.toolResults[${k}]`);
      });
    }
    void calls;
    endedNormally = NORMAL_FINISH.has(String(step.finishReason));
  });
  return endedNormally;
}

/** A model message history; returns whether it ended on an answer. */
function messages(b: TrajectoryBuilder, list: unknown[], basePath: string): boolean {
  let endedNormally = false;
  list.forEach((message, i) => {
    const path = `${basePath}[${i}]`;
    if (!isRecord(message)) throw new ImportError(path, "must be a message object");
    const content = message.content;
    switch (message.role) {
      case "system":
        return;
      case "user":
        // A user's word after the last reply leaves nothing pending (docs/IMPORTERS.md "What completes a trace").
        b.user(typeof content === "string" ? content : Array.isArray(content) ? contentText(content.map(mediaPart)) : contentText(content));
        return;
      case "assistant": {
        b.turn();
        if (typeof content === "string") {
          if (content !== "") b.agentMessage(content);
          endedNormally = true;
          return;
        }
        if (!Array.isArray(content)) throw new ImportError(path, "content must be a string or an array of parts");
        const calls = stepContent(b, content, `${path}.content`);
        endedNormally = calls === 0;
        return;
      }
      case "tool":
        if (!Array.isArray(content)) throw new ImportError(path, "content must be an array of tool-result parts");
        stepContent(b, content, `${path}.content`);
        endedNormally = false;
        return;
      default:
        throw new ImportError(
          path,
          message.role === undefined
            ? "missing role"
            : `unknown role ${JSON.stringify(message.role)} (expected system, user, assistant or tool)`,
        );
    }
  });
  return endedNormally;
}

/** Imports AI SDK steps or message histories: one trajectory per result or history. */
export function fromVercelAI(input: unknown, options: ImportOptions = {}): ImportResult {
  return guard(() => {
    const list = units(input);
    return importEach(list, (u, i) => {
      if (u instanceof ImportError) throw u;
      checkNesting(u.kind === "steps" ? u.steps : u.messages, u.path);
      if (u.kind === "steps" && u.prompt !== undefined) checkNesting(u.prompt.messages, u.prompt.path);
      const b = new TrajectoryBuilder(traceId(options, u.nativeId, i, list.length), options);
      const endedNormally = u.kind === "steps" ? importSteps(b, u) : messages(b, u.messages, u.path);
      b.finish(endedNormally);
      return b;
    });
  });
}
