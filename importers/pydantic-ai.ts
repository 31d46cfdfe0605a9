/**
 * Pydantic AI message histories (IMPORTERS.md `pydantic-ai`): the JSON of
 * `ModelMessagesTypeAdapter` (`result.all_messages_json()`), a list of
 * `{kind: "request" | "response", parts: [{part_kind, …}]}`. Calls are
 * `tool-call` parts of a response, answered by `tool-return` (or, when the
 * tool asked the model to retry, `retry-prompt`) parts of the next request
 * on `tool_call_id`. The structured-output tool (`final_result`) is the
 * run's answer: it awaits no result of its own.
 */
import { FACT, ImportError, TrajectoryBuilder, checkNesting, guard, importEach, isRecord, traceId } from "./core.js";
import type { ImportOptions, ImportResult } from "./core.js";

const KINDS = new Set(["request", "response"]);

function isModelMessage(value: unknown): value is Record<string, unknown> {
  return (
    isRecord(value) &&
    typeof value.kind === "string" &&
    KINDS.has(value.kind) &&
    Array.isArray(value.parts) &&
    value.parts.every((p) => isRecord(p) && typeof p.part_kind === "string")
  );
}

function isHistory(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every(isModelMessage);
}

/** A cheap shape test: a history (a list of ModelMessages), a list of histories, or one ModelMessage. */
export function detectPydanticAI(input: unknown): boolean {
  if (isModelMessage(input) || isHistory(input)) return true;
  return Array.isArray(input) && input.length > 0 && input.every(isHistory);
}

/** The output tools Pydantic AI names itself: `final_result`, or `final_result_<Type>` for a union of output types. */
export function isOutputTool(name: string): boolean {
  return name === "final_result" || name.startsWith("final_result_");
}

/** Multi-modal content (`kind: image-url | binary | …`) as a placeholder; undefined for anything else. */
function mediaText(value: unknown): string | undefined {
  if (!isRecord(value) || typeof value.kind !== "string") return undefined;
  const media = typeof value.media_type === "string" ? value.media_type : "";
  switch (value.kind) {
    case "image-url":
      return "[image]";
    case "audio-url":
      return "[audio]";
    case "video-url":
      return "[video]";
    case "document-url":
      return "[file]";
    case "binary":
      return media.startsWith("image/")
        ? "[image]"
        : media.startsWith("audio/")
          ? "[audio]"
          : media.startsWith("video/")
            ? "[video]"
            : "[file]";
    case "cache-point":
      return "";
    default:
      return undefined;
  }
}

/** A user prompt's content: a string, or a list of strings and media (placeholders), joined by "\n". */
function promptText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return mediaText(content) ?? JSON.stringify(content) ?? "";
  return content
    .map((item) => (typeof item === "string" ? item : (mediaText(item) ?? JSON.stringify(item) ?? "")))
    .filter((text) => text !== "")
    .join("\n");
}

/**
 * A tool's return value as the model was sent it: a string as is, media as
 * a placeholder, a list item by item, anything else as JSON (which the
 * builder flattens when it is an object).
 */
function returnContent(content: unknown): string {
  if (typeof content === "string") return content;
  const media = mediaText(content);
  if (media !== undefined) return media;
  if (Array.isArray(content) && content.some((item) => mediaText(item) !== undefined))
    return content.map((item) => (typeof item === "string" ? item : (mediaText(item) ?? JSON.stringify(item) ?? ""))).join("\n");
  return JSON.stringify(content) ?? "null";
}

/** A retry prompt's text: its message, or the validation errors as JSON. */
function retryText(content: unknown): string {
  return typeof content === "string" ? content : (JSON.stringify(content) ?? "");
}

/** A call's arguments as JSON text: a string as the model wrote it, a dict as JSON; also the 0.0.x `{args_json}` / `{args_dict}`. */
function argsText(args: unknown): string {
  if (typeof args === "string") return args === "" ? "{}" : args;
  if (args === undefined || args === null) return "{}";
  if (isRecord(args) && Object.keys(args).length === 1) {
    if (typeof args.args_json === "string") return args.args_json;
    if (isRecord(args.args_dict)) return JSON.stringify(args.args_dict);
  }
  return JSON.stringify(args) ?? "{}";
}

function text(part: Record<string, unknown>, key: string): string {
  return typeof part[key] === "string" ? part[key] : "";
}

function requireName(part: Record<string, unknown>, path: string): string {
  const name = part.tool_name;
  if (typeof name === "string" && name !== "") return name;
  throw new ImportError(path, name === undefined || name === null ? "missing tool_name" : "tool_name must be a non-empty string");
}

function callId(part: Record<string, unknown>): string | undefined {
  return typeof part.tool_call_id === "string" && part.tool_call_id !== "" ? part.tool_call_id : undefined;
}

/**
 * A request's parts; returns whether it asks the model for more (a retry).
 * Tool returns only answer the calls of the response before, and a user's
 * last word after a finished answer ("thanks, bye") asks for nothing the
 * agent left undone (docs/IMPORTERS.md "What completes a trace"), so a run
 * that ended there still ended.
 */
function request(b: TrajectoryBuilder, parts: unknown[], path: string): boolean {
  let asks = false;
  parts.forEach((raw, k) => {
    const part = raw as Record<string, unknown>;
    const at = `${path}.parts[${k}]`;
    switch (part.part_kind) {
      case "system-prompt":
        return; // instructions, not conduct
      case "user-prompt":
        b.user(promptText(part.content));
        break;
      case "tool-return":
        b.result(callId(part), returnContent(part.content), { name: requireName(part, at), path: at });
        break;
      case "retry-prompt":
        if (typeof part.tool_name === "string" && part.tool_name !== "")
          b.result(callId(part), retryText(part.content), { name: part.tool_name, error: true, path: at });
        // No tool: Pydantic AI tells the model its text answer failed validation.
        else b.user(retryText(part.content), { [FACT.retry]: "true" });
        asks = true;
        break;
      default:
        b.warn(at, `part of kind ${JSON.stringify(part.part_kind)} is not imported`);
    }
  });
  return asks;
}

/**
 * A response's parts; returns whether it ended the run normally: it called
 * the output tool (the run's answer), or it finished without calling a tool.
 */
function response(b: TrajectoryBuilder, message: Record<string, unknown>, parts: unknown[], path: string, outputs: Set<string>): boolean {
  b.turn();
  let awaiting = false;
  let output = false;
  parts.forEach((raw, k) => {
    const part = raw as Record<string, unknown>;
    const at = `${path}.parts[${k}]`;
    switch (part.part_kind) {
      case "text":
        // Whitespace between parts is no message.
        if (text(part, "content").trim() !== "") b.agentMessage(text(part, "content"));
        break;
      case "thinking":
        b.reasoning(text(part, "content"));
        break;
      case "tool-call": {
        const name = requireName(part, at);
        b.call(name, argsText(part.args), callId(part), undefined, `${at}.args`);
        if (isOutputTool(name)) {
          output = true;
          outputs.add(name);
        } else awaiting = true;
        break;
      }
      case "builtin-tool-call": {
        const server = typeof part.provider_name === "string" && part.provider_name !== "" ? part.provider_name : "provider";
        b.call(requireName(part, at), argsText(part.args), callId(part), { [FACT.server]: server }, `${at}.args`);
        break;
      }
      case "builtin-tool-return":
        b.result(callId(part), returnContent(part.content), { name: requireName(part, at), path: at, inline: true });
        break;
      case "file":
        b.agentMessage(mediaText(part.content) ?? "[file]");
        break;
      default:
        b.warn(at, `part of kind ${JSON.stringify(part.part_kind)} is not imported`);
    }
  });
  const finish = message.finish_reason;
  if (finish === "length" || finish === "content_filter" || finish === "error") return false;
  return output || !awaiting;
}

/** The run a history belongs to: the last message's `run_id` (a continued conversation's history is its last run's). */
function runId(history: readonly unknown[]): unknown {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (isRecord(message) && typeof message.run_id === "string" && message.run_id !== "") return message.run_id;
  }
  return undefined;
}

function importHistory(
  history: readonly unknown[],
  prefix: string,
  index: number,
  count: number,
  options: ImportOptions,
): TrajectoryBuilder {
  checkNesting(history, prefix);
  const b = new TrajectoryBuilder(traceId(options, runId(history), index, count), options);
  let endedNormally = false;
  const outputs = new Set<string>();
  history.forEach((message, i) => {
    const path = `${prefix}[${i}]`;
    if (!isRecord(message)) throw new ImportError(path, "must be a message object");
    if (!Array.isArray(message.parts))
      throw new ImportError(path, message.parts === undefined ? "missing parts" : "parts must be an array");
    message.parts.forEach((part, k) => {
      if (!isRecord(part)) throw new ImportError(`${path}.parts[${k}]`, "must be a part object");
      if (typeof part.part_kind !== "string") throw new ImportError(`${path}.parts[${k}]`, "missing part_kind");
    });
    if (message.kind === "request") {
      if (request(b, message.parts, path)) endedNormally = false;
    } else if (message.kind === "response") {
      endedNormally = response(b, message, message.parts, path, outputs);
    } else {
      throw new ImportError(
        path,
        message.kind === undefined ? "missing kind" : `unknown kind ${JSON.stringify(message.kind)} (expected request or response)`,
      );
    }
  });
  // The output tool's call is the run's answer, not a call left waiting.
  b.closeWithoutResult((name) => outputs.has(name));
  b.finish(endedNormally);
  return b;
}

/** Imports Pydantic AI message histories: one trajectory per history (a list of histories gives several). */
export function fromPydanticAI(input: unknown, options: ImportOptions = {}): ImportResult {
  return guard(() => {
    if (isModelMessage(input)) return importEach([input], (message) => importHistory([message], "", 0, 1, options));
    if (!Array.isArray(input)) throw new ImportError("", "not a Pydantic AI message history: expected a list of {kind, parts} messages");
    // A list of lists is several histories (a JSON Lines log of all_messages_json()); else one history.
    const several = input.length > 0 && input.every(Array.isArray);
    const histories: unknown[][] = several ? (input as unknown[][]) : [input];
    return importEach(histories, (history, i) => importHistory(history, several ? `[${i}]` : "", i, histories.length, options));
  });
}
