/**
 * What a model call was sent and what it returned, in whichever shape the
 * framework that logged it used. Observability tools (Langfuse, and span
 * attributes such as OpenInference's `input.value`) store a model call's
 * request and response as the framework handed them over: OpenAI chat
 * messages or a ChatCompletion, Responses items or a Response, Anthropic
 * messages with content blocks, LangChain messages (typed, `lc`-serialized,
 * or the `{role, content, tool_calls}` dicts Langfuse's LangChain handler
 * writes), the AI SDK's parts, the GenAI conventions' typed parts, or Gemini
 * `contents` (`parts` with `text`, `functionCall`, `functionResponse`).
 * readPayload turns any of them into the messages otel.ts reads (`Message`:
 * role, text, reasoning, calls, results), so one walk can place them.
 *
 * Typed item lists of a format an importer already reads (Responses items,
 * LangChain messages) go through that importer, and its events are read
 * back as messages: its mapping (built-in tools, stored and serialized
 * forms) is reused, not rewritten.
 */
import { contentText, isRecord, jsonText, parseJson, type Trajectory } from "./core.js";
import { detectLangChain, fromLangChain } from "./langchain.js";
import { detectOpenAIResponses, fromOpenAIResponses } from "./openai-responses.js";
import { chatMessage, genAiMessages, type Message, type Span } from "./otel.js";

export type { Message };

export interface Payload {
  messages: Message[];
  /** The finish reason the response carried (`finish_reason`, `stop_reason`, `finishReason`, a Response's `status`). */
  finish?: string | undefined;
  /** Why the value was not read as messages (a shape no importer knows, or the reusing importer's error); undefined when it was. */
  problem?: string | undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * A value stored as JSON text, sometimes twice over (Langfuse's downloads
 * hold `"\"{\\\"messages\\\": …}\""`): parsed until it is no longer a JSON
 * string. Text that is not JSON stays as written.
 */
export function decodeJson(value: unknown): unknown {
  for (let i = 0; i < 4 && typeof value === "string"; i++) {
    const t = value.trimStart();
    if (!(t.startsWith("{") || t.startsWith("[") || t.startsWith('"'))) break;
    const parsed = parseJson(value);
    if (parsed === undefined) break;
    value = parsed;
  }
  return value;
}

const ROLE = new Map<string, string>([
  ["user", "user"],
  ["human", "user"],
  ["assistant", "assistant"],
  ["ai", "assistant"],
  ["model", "assistant"],
  ["tool", "tool"],
  ["function", "tool"],
  ["ipython", "tool"],
  ["system", "system"],
  ["developer", "system"],
]);

function emptyMessage(role: string): Message {
  return { role, text: "", reasoning: "", calls: [], results: [] };
}

/** A tool call in any of the spellings a message's `tool_calls` holds. */
function readCall(c: unknown): Message["calls"][number] | undefined {
  if (!isRecord(c)) return undefined;
  const call = isRecord(c.tool_call) ? c.tool_call : c; // OpenInference's {tool_call: {…}}
  if (isRecord(call.function)) {
    const name = str(call.function.name);
    return name === undefined ? undefined : { id: str(call.id), name, args: jsonText(call.function.arguments) };
  }
  if (isRecord(call.custom)) {
    const name = str(call.custom.name);
    return name === undefined ? undefined : { id: str(call.id), name, args: jsonText(call.custom.input) };
  }
  // LangChain `{name, args, id}`, the AI SDK's `{toolCallId, toolName, input | args}`.
  const name = str(call.name) ?? str(call.toolName);
  if (name === undefined) return undefined;
  return { id: str(call.id) ?? str(call.toolCallId), name, args: jsonText(call.args ?? call.input ?? call.arguments ?? {}) };
}

/** The AI SDK 5+ wraps a tool output as `{type: json | text | error-json | error-text, value}`. */
function unwrapOutput(output: unknown): { content: unknown; error: boolean } {
  if (isRecord(output) && typeof output.type === "string" && "value" in output)
    return { content: output.value, error: output.type.startsWith("error") };
  return { content: output, error: false };
}

/** Gemini's inline and file data: a placeholder by media type. */
function mediaPlaceholder(data: Record<string, unknown>): string {
  const mime = str(data.mimeType) ?? str(data.mime_type) ?? "";
  if (mime.startsWith("image/")) return "[image]";
  if (mime.startsWith("audio/")) return "[audio]";
  return "[file]";
}

/** One content part or Gemini part into `msg`; returns the text it adds, if any. */
function readPart(part: unknown, msg: Message, texts: string[]): void {
  if (!isRecord(part)) {
    const text = contentText(part);
    if (text !== "") texts.push(text);
    return;
  }
  const fnCall = part.functionCall ?? part.function_call;
  const fnResponse = part.functionResponse ?? part.function_response;
  if (isRecord(fnCall)) {
    const name = str(fnCall.name);
    if (name !== undefined) msg.calls.push({ id: str(fnCall.id), name, args: jsonText(fnCall.args ?? {}) });
    return;
  }
  if (isRecord(fnResponse)) {
    const response = fnResponse.response;
    const error = isRecord(response) && "error" in response && !("output" in response) && !("result" in response);
    msg.results.push({ id: str(fnResponse.id), name: str(fnResponse.name), content: response ?? "", error });
    return;
  }
  // Gemini's code execution: the code it ran is a call of `code_execution`, its outcome that call's result.
  const code = part.executableCode ?? part.executable_code;
  if (isRecord(code)) {
    msg.calls.push({ id: undefined, name: "code_execution", args: jsonText({ language: code.language, code: code.code }) });
    return;
  }
  const outcome = part.codeExecutionResult ?? part.code_execution_result;
  if (isRecord(outcome)) {
    const ok = outcome.outcome === undefined || outcome.outcome === "OUTCOME_OK";
    msg.results.push({ id: undefined, name: "code_execution", content: contentText(outcome.output), error: !ok });
    return;
  }
  const inline = part.inlineData ?? part.inline_data ?? part.fileData ?? part.file_data;
  if (isRecord(inline)) {
    texts.push(mediaPlaceholder(inline));
    return;
  }
  switch (part.type) {
    case "tool_use":
    case "server_tool_use":
    case "tool-call":
    case "tool_call": {
      const name = str(part.name) ?? str(part.toolName);
      const id = str(part.id) ?? str(part.toolCallId);
      if (name !== undefined) msg.calls.push({ id, name, args: jsonText(part.input ?? part.args ?? part.arguments ?? {}) });
      return;
    }
    case "tool_result": {
      msg.results.push({ id: str(part.tool_use_id), name: undefined, content: part.content ?? "", error: part.is_error === true });
      return;
    }
    case "tool-result": {
      const { content, error } = unwrapOutput(part.output ?? part.result);
      msg.results.push({ id: str(part.toolCallId), name: str(part.toolName), content, error: error || part.isError === true });
      return;
    }
    case "tool-error":
      msg.results.push({ id: str(part.toolCallId), name: str(part.toolName), content: contentText(part.error), error: true });
      return;
    case "tool_call_response":
      msg.results.push({ id: str(part.id), name: undefined, content: part.response ?? part.result ?? "", error: false });
      return;
    case "thinking":
      msg.reasoning += contentText(part.thinking);
      return;
    case "reasoning":
      msg.reasoning += contentText(part.text ?? part.content);
      return;
    case "redacted_thinking":
      return;
    default:
      break;
  }
  if (typeof part.type === "string" && part.type.endsWith("_tool_result")) {
    // Anthropic's server tools (`web_search_tool_result`, …): the provider's own result of a server_tool_use.
    msg.results.push({ id: str(part.tool_use_id), name: undefined, content: part.content ?? "", error: false });
    return;
  }
  if (part.thought === true && typeof part.text === "string") {
    msg.reasoning += part.text; // Gemini's thought summaries
    return;
  }
  if (part.type === undefined && typeof part.text === "string") {
    if (part.text !== "") texts.push(part.text); // a Gemini text part
    return;
  }
  // GenAI parts carry their text in `content`; everything else through contentText (text parts, placeholders).
  const text = part.type === "text" && typeof part.content === "string" && part.text === undefined ? part.content : contentText(part);
  if (text !== "") texts.push(text);
}

/** What one content part or Gemini part holds (its text, reasoning, call or result), as a message of `role`. */
export function partMessage(part: unknown, role: string): Message {
  const msg = emptyMessage(role);
  const texts: string[] = [];
  readPart(part, msg, texts);
  msg.text = texts.join("\n");
  return msg;
}

/** A message with a `role`, whatever API or framework wrote it (a Gemini `Content` too: `{role, parts}`). */
export function roleMessage(m: Record<string, unknown>): Message {
  const role = ROLE.get(String(m.role).toLowerCase()) ?? String(m.role);
  const msg = emptyMessage(role);
  const texts: string[] = [];
  const parts = Array.isArray(m.parts) ? m.parts : Array.isArray(m.content) ? m.content : undefined;
  if (parts !== undefined) for (const part of parts) readPart(part, msg, texts);
  else if (m.content !== undefined && m.content !== null) {
    const text = contentText(m.content);
    if (text !== "") texts.push(text);
  }
  if (typeof m.refusal === "string" && m.refusal !== "") texts.push(m.refusal);
  const reasoning = m.reasoning_content ?? m.reasoning;
  if (typeof reasoning === "string") msg.reasoning += reasoning;
  const kwargs = isRecord(m.additional_kwargs) ? m.additional_kwargs : {};
  const listed = Array.isArray(m.tool_calls) && m.tool_calls.length > 0 ? m.tool_calls : kwargs.tool_calls;
  for (const c of Array.isArray(listed) ? listed : []) {
    const call = readCall(c);
    if (call !== undefined) msg.calls.push(call);
  }
  for (const c of Array.isArray(m.invalid_tool_calls) ? m.invalid_tool_calls : []) {
    const call = readCall(c);
    if (call !== undefined) msg.calls.push(call);
  }
  const legacy = m.function_call ?? kwargs.function_call;
  if (isRecord(legacy) && str(legacy.name) !== undefined)
    msg.calls.push({ id: undefined, name: String(legacy.name), args: jsonText(legacy.arguments) });
  if (role === "tool" && parts === undefined) {
    // Logfire's `gen_ai.tool.message` events carry the call id as `id`.
    const id = str(m.tool_call_id) ?? str(m.toolCallId) ?? (m["event.name"] === "gen_ai.tool.message" ? str(m.id) : undefined);
    // Langfuse's LangChain handler lists the tool definitions as `{role: "tool", content: <definition>}`: no id, no name, no result.
    if (id !== undefined || str(m.name) !== undefined)
      msg.results.push({ id, name: str(m.name), content: m.content ?? "", error: m.status === "error" });
  } else msg.text = texts.join("\n");
  return msg;
}

/** Events an importer wrote, read back as messages (one per event, in order). */
function eventsAsMessages(t: Trajectory): Message[] {
  const out: Message[] = [];
  for (const e of t.events) {
    const meta = e.metadata ?? {};
    const content = e.content ?? "";
    const callId = meta["@call_id"];
    if (e.actor === "user" && e.action === "message") out.push({ ...emptyMessage("user"), text: content });
    else if (e.actor === "agent" && e.action === "message") out.push({ ...emptyMessage("assistant"), text: content });
    else if (e.actor === "agent" && e.action === "reasoning") out.push({ ...emptyMessage("assistant"), reasoning: content });
    else if (e.actor === "tool") {
      const name = e.action.endsWith("_result") ? e.action.slice(0, -"_result".length) : e.action;
      out.push({ ...emptyMessage("tool"), results: [{ id: callId, name, content, error: meta.status === "error" }] });
    } else if (e.actor === "agent" && e.action !== "handoff" && e.action !== "guardrail")
      out.push({ ...emptyMessage("assistant"), calls: [{ id: callId, name: e.action, args: content }] });
  }
  return out;
}

/** A list of typed items another importer reads, through that importer. */
function throughImporter(
  value: unknown,
  run: (v: unknown) => { trajectories: Trajectory[]; errors: { path: string; message: string }[] },
  what: string,
): Payload {
  const result = run(value);
  if (result.errors.length > 0) {
    const e = result.errors[0]!;
    return { messages: [], problem: `not read as ${what}: ${e.path === "" ? "" : `${e.path}: `}${e.message}` };
  }
  return { messages: result.trajectories.flatMap(eventsAsMessages) };
}

const NO_SPAN = { path: "" } as unknown as Span;

function isGenAiParts(m: unknown): boolean {
  return isRecord(m) && Array.isArray(m.parts) && m.parts.some((p) => isRecord(p) && typeof p.type === "string");
}

function readList(list: unknown[], side: "input" | "output"): Payload {
  if (list.length === 0) return { messages: [] };
  // LangChain chat models log `[[...messages]]`, one list per prompt.
  if (Array.isArray(list[0])) return readList(list[0] as unknown[], side);
  if (list.every(isGenAiParts)) return { messages: genAiMessages(list, { span: NO_SPAN, key: "" }) };
  if (list.every((m) => isRecord(m) && isRecord(m.message)))
    return { messages: list.map((m) => chatMessage((m as { message: Record<string, unknown> }).message)) };
  if (list.every((m) => isRecord(m) && typeof m.role === "string" && m.type === undefined))
    return { messages: list.map((m) => roleMessage(m as Record<string, unknown>)) };
  if (detectLangChain(list)) return throughImporter(list, (v) => fromLangChain(v, { reasoning: true }), "LangChain messages");
  if (detectOpenAIResponses(list) || list.every((m) => isRecord(m) && (m.type === "message" || typeof m.role === "string")))
    return throughImporter(list, (v) => fromOpenAIResponses(v, { reasoning: true }), "Responses API items");
  // The AI SDK's tool calls alone (a step that only called tools): `[{toolCallId, toolName, input}]`.
  if (list.every((c) => isRecord(c) && typeof c.toolName === "string")) {
    const msg = emptyMessage("assistant");
    for (const c of list) {
      const call = readCall(c);
      if (call !== undefined) msg.calls.push(call);
    }
    return { messages: [msg] };
  }
  if (list.every((m) => isRecord(m) && typeof m.role === "string"))
    return { messages: list.map((m) => roleMessage(m as Record<string, unknown>)) };
  if (list.every((t) => typeof t === "string"))
    return { messages: list.map((t) => ({ ...emptyMessage(side === "input" ? "user" : "assistant"), text: t as string })) };
  return { messages: [], problem: "a list that is no message list an importer knows" };
}

function withFinish(payload: Payload, finish: unknown): Payload {
  const reason = typeof finish === "string" ? finish : undefined;
  return reason === undefined ? payload : { ...payload, finish: reason };
}

function readObject(v: Record<string, unknown>, side: "input" | "output"): Payload {
  // Responses: a Response object, or Langfuse's `{input, tools}` / `{instructions, input}` wrapper of a request.
  if (Array.isArray(v.output) && (v.object === "response" || typeof v.status === "string")) {
    const payload = throughImporter(v.output, (x) => fromOpenAIResponses(x, { reasoning: true }), "Responses API items");
    return withFinish(payload, v.status === "completed" ? "stop" : v.status);
  }
  if (Array.isArray(v.messages)) return readList(v.messages, side); // a chat request body, a graph state
  if (Array.isArray(v.contents)) return readList(v.contents, side); // a Gemini request
  if (v.input !== undefined && v.role === undefined && (typeof v.input === "string" || Array.isArray(v.input)))
    return readPayload(v.input, side);
  if (Array.isArray(v.choices)) {
    const choice = v.choices[0];
    if (isRecord(choice) && isRecord(choice.message)) return withFinish({ messages: [roleMessage(choice.message)] }, choice.finish_reason);
    if (isRecord(choice) && typeof choice.text === "string") return withFinish(readPayload(choice.text, side), choice.finish_reason);
  }
  if (Array.isArray(v.candidates)) {
    const candidate = v.candidates[0];
    if (isRecord(candidate) && isRecord(candidate.content))
      return withFinish(
        { messages: [roleMessage({ role: "model", ...candidate.content })] },
        candidate.finishReason ?? candidate.finish_reason,
      );
  }
  // Gemini / ADK LlmResponse: `{content: {role, parts}, finish_reason}`.
  if (isRecord(v.content) && Array.isArray(v.content.parts))
    return withFinish({ messages: [roleMessage({ role: "model", ...v.content })] }, v.finish_reason ?? v.finishReason);
  if (typeof v.role === "string" && v.type === undefined) return { messages: [roleMessage(v)] };
  // A `gen_ai.choice` event as Logfire and Pydantic AI record it: `{index, message: {role, content, tool_calls}, finish_reason}`.
  if (isRecord(v.message) && typeof v.message.role === "string") return withFinish({ messages: [roleMessage(v.message)] }, v.finish_reason);
  if (v.type === "message" && typeof v.role === "string") return withFinish({ messages: [roleMessage(v)] }, v.stop_reason); // an Anthropic response
  if (detectLangChain([v])) return throughImporter([v], (x) => fromLangChain(x, { reasoning: true }), "a LangChain message");
  if (typeof v.prompt === "string") return readPayload(v.prompt, side); // the AI SDK's `{prompt}` / `{system, prompt}`
  // A Python function's call as Langfuse's @observe and OpenInference record it: `{args: [...], kwargs: {...}}`.
  if (Array.isArray(v.args) && Object.keys(v).every((k) => k === "args" || k === "kwargs")) return readList(v.args, side);
  if (typeof v.text === "string" && Object.keys(v).length <= 2) return readPayload(v.text, side);
  return { messages: [], problem: "an object that is no request, response or message an importer knows" };
}

/**
 * The messages of a model call's input or output (see the file comment). A
 * plain string is the user's text (input) or the model's (output); null or
 * missing is no message. Never throws for a shape it does not know: the
 * payload says so in `problem`.
 */
export function readPayload(value: unknown, side: "input" | "output"): Payload {
  const v = decodeJson(value);
  if (v === undefined || v === null || v === "") return { messages: [] };
  if (typeof v === "string") return { messages: [{ ...emptyMessage(side === "input" ? "user" : "assistant"), text: v }] };
  if (Array.isArray(v)) return readList(v, side);
  if (isRecord(v)) return readObject(v, side);
  return { messages: [{ ...emptyMessage(side === "input" ? "user" : "assistant"), text: String(v) }] };
}
