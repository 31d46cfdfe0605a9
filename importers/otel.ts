/**
 * OTLP/JSON trace exports (IMPORTERS.md, `--from otel`).
 *
 * Input: an OTLP/JSON ExportTraceServiceRequest (`{resourceSpans: [...]}`,
 * what an OTLP/HTTP exporter posts and the collector's file exporter writes),
 * or a list of them (one per line in a `.jsonl` file). Older producers wrote
 * `instrumentationLibrarySpans` for `scopeSpans`, ids in base64 (the protobuf
 * JSON mapping) rather than hex, and enum names (`SPAN_KIND_INTERNAL`,
 * `STATUS_CODE_ERROR`) rather than numbers; all are read. One trajectory per
 * trace id.
 *
 * Three vocabularies are understood, span by span:
 * - OpenTelemetry GenAI conventions: `gen_ai.operation.name` = `invoke_agent`
 *   (agent, `gen_ai.agent.name`), `chat` / `text_completion` /
 *   `generate_content` (a model call: `gen_ai.input.messages` and
 *   `gen_ai.output.messages` with typed parts, or the older flattened
 *   `gen_ai.prompt.N.*` / `gen_ai.completion.N.*`), `execute_tool` (a tool:
 *   `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.tool.call.arguments`,
 *   `gen_ai.tool.call.result`). `gen_ai.system` (before 1.37) and
 *   `gen_ai.provider.name` are both accepted where a provider is read.
 * - OpenInference: `openinference.span.kind` = `AGENT` (`agent.name`), `LLM`
 *   (flattened `llm.input_messages.N.message.*`, `llm.output_messages.N.*`),
 *   `TOOL` (`tool.name`, arguments in `input.value`, result in `output.value`).
 * - The Vercel AI SDK's own spans: `ai.generateText` / `ai.streamText`
 *   (agent, named by `ai.telemetry.functionId`), `ai.*.doGenerate` /
 *   `ai.*.doStream` (a model call: `ai.prompt.messages`, `ai.response.text`,
 *   `ai.response.toolCalls`), `ai.toolCall` (`ai.toolCall.name`, `.id`,
 *   `.args` / `.input`, `.result` / `.output`).
 *
 * Order: spans are walked depth-first, siblings by start time, ties by file
 * order. A model call's text and tool calls come at its start; a tool span's
 * call comes at its start unless the model already emitted it; its result is
 * placed once time has passed its end (before the first later span that
 * starts after it ended), so parallel calls come first and their results
 * follow in the order they finished. A call answered by no tool span takes
 * its result from the next model call's input messages, when that is there.
 * Gemini's calls carry no id (ADK's GenAI conventions fill in
 * `<name>_<index>`) while ADK's tool spans carry ids of its own: a span whose
 * id matches no call pairs by name with such a call, same arguments first.
 * Entering an agent whose name differs from the agent in charge adds a
 * `handoff` event (`from`, `to`). User messages are those of the
 * conversation's own model calls; an agent run inside a tool (an agent used
 * as a tool) gets its "user" text from the calling agent, so it is not shown
 * as the user's.
 *
 * Facts in metadata: `@agent`, `@span_id` (tool results), `@call_id`,
 * `@model` (assistant messages).
 */
import {
  FACT,
  ImportError,
  MAX_NESTING,
  TrajectoryBuilder,
  checkNesting,
  checkParsedNesting,
  contentText,
  failed,
  guard,
  importEach,
  isRecord,
  jsonText,
  parseJson,
  traceId as trajectoryId,
  type ImportIssue,
  type ImportOptions,
  type ImportResult,
} from "./core.js";
// payloads.ts imports this module's message readers too; both only call each other from functions, never at load.
import { roleMessage } from "./payloads.js";
import { isOutputTool } from "./pydantic-ai.js";
import { CallIndex, MinHeap, SeenTexts, cycleWarning, spanForest, walkDepthFirst } from "./spans.js";

type Attrs = Record<string, unknown>;

/** One span as the importer reads it (exported for langfuse, whose OTel-scope observations carry a span's attributes). */
export interface Span {
  traceId: string;
  spanId: string | undefined;
  parentId: string | undefined;
  name: string;
  start: bigint;
  end: bigint;
  error: boolean;
  errorMessage: string | undefined;
  attrs: Attrs;
  path: string;
  index: number;
  children: Span[];
}

const NEVER = BigInt("0x7fffffffffffffffffff");

/** Cheap shape test for auto-detection. */
export function detectOtel(input: unknown): boolean {
  if (Array.isArray(input)) return input.length > 0 && detectOtel(input[0]);
  return isRecord(input) && Array.isArray(input.resourceSpans);
}

/**
 * An OTLP AnyValue as a plain JSON value. int64 may arrive as a decimal
 * string (the protobuf JSON mapping); a number that is neither a number nor
 * a string is a located error, not a conversion that throws. Nested arrays
 * and kvlists count against MAX_NESTING.
 */
function anyValue(value: unknown, path: string, depth: number): unknown {
  if (!isRecord(value)) return undefined;
  if (depth > MAX_NESTING)
    throw new ImportError(path, `nests arrayValue and kvlistValue more than ${MAX_NESTING} levels deep (the importers' limit)`);
  if ("stringValue" in value) return value.stringValue;
  if ("boolValue" in value) return value.boolValue;
  if ("intValue" in value) return numberValue(value.intValue, `${path}.intValue`);
  if ("doubleValue" in value) return numberValue(value.doubleValue, `${path}.doubleValue`);
  if ("bytesValue" in value) return value.bytesValue;
  if (isRecord(value.arrayValue)) {
    const values = value.arrayValue.values;
    return Array.isArray(values) ? values.map((v, i) => anyValue(v, `${path}.arrayValue.values[${i}]`, depth + 1)) : [];
  }
  if (isRecord(value.kvlistValue)) return attributes(value.kvlistValue.values, `${path}.kvlistValue.values`, depth + 1);
  return undefined;
}

/** A number, or a decimal string as its number (a string that is no number is kept as written). */
function numberValue(value: unknown, path: string): number | string {
  if (typeof value === "number") return value;
  if (typeof value === "string") {
    const n = Number(value);
    return value.trim() === "" || Number.isNaN(n) ? value : n;
  }
  throw new ImportError(
    path,
    `must be a number or a decimal string, not ${value === null ? "null" : Array.isArray(value) ? "a list" : typeof value === "object" ? "an object" : typeof value}`,
  );
}

/** Attributes by key, in a null-prototype object: a key such as `__proto__` or `constructor` is a key like any other. */
function attributes(list: unknown, path: string, depth = 1): Attrs {
  const out: Attrs = Object.create(null) as Attrs;
  if (!Array.isArray(list)) return out;
  list.forEach((kv, i) => {
    if (isRecord(kv) && typeof kv.key === "string") out[kv.key] = anyValue(kv.value, `${path}[${i}].value`, depth);
  });
  return out;
}

/**
 * A trace or span id as lowercase hex. OTLP/JSON writes hex; the protobuf
 * JSON mapping (older exporters, some collectors) writes the bytes in base64.
 */
function normalizeId(value: unknown, hexLength: number): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  if (value.length === hexLength && /^[0-9a-fA-F]+$/.test(value)) return value.toLowerCase();
  try {
    const binary = atob(value);
    let hex = "";
    for (let i = 0; i < binary.length; i++) hex += binary.charCodeAt(i).toString(16).padStart(2, "0");
    return hex;
  } catch {
    return value;
  }
}

function nanos(value: unknown): bigint {
  if (typeof value === "number" && Number.isFinite(value)) return BigInt(Math.trunc(value));
  if (typeof value === "string" && /^\d+$/.test(value)) return BigInt(value);
  return NEVER;
}

function isErrorStatus(status: unknown): boolean {
  if (!isRecord(status)) return false;
  return status.code === 2 || status.code === "STATUS_CODE_ERROR" || status.code === "ERROR";
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function fromOtel(input: unknown, options: ImportOptions = {}): ImportResult {
  return guard(() => importExport(input, options));
}

function importExport(input: unknown, options: ImportOptions): ImportResult {
  const requests: { value: unknown; path: string }[] = Array.isArray(input)
    ? input.map((value, i) => ({ value, path: `[${i}]` }))
    : [{ value: input, path: "" }];
  const loose: ImportIssue[] = [];
  const groups: { id: string; spans: Span[]; error?: unknown }[] = [];
  const byTrace = new Map<string, (typeof groups)[number]>();
  let index = 0;
  for (const request of requests) {
    const at = (rest: string): string => (request.path === "" ? rest : `${request.path}.${rest}`);
    if (!isRecord(request.value) || !Array.isArray(request.value.resourceSpans)) {
      if (requests.length === 1 && request.path === "") return failed("", "expected an OTLP/JSON trace export: {resourceSpans: [...]}");
      loose.push({ path: request.path, message: "expected an OTLP/JSON trace export: {resourceSpans: [...]}" });
      continue;
    }
    request.value.resourceSpans.forEach((rs, r) => {
      const rsPath = at(`resourceSpans[${r}]`);
      if (!isRecord(rs)) return loose.push({ path: rsPath, message: "must be an object" });
      const scopesKey = Array.isArray(rs.scopeSpans) ? "scopeSpans" : "instrumentationLibrarySpans";
      const scopes = rs[scopesKey];
      if (scopes === undefined) return;
      if (!Array.isArray(scopes)) return loose.push({ path: `${rsPath}.${scopesKey}`, message: "must be a list" });
      scopes.forEach((ss, s) => {
        const ssPath = `${rsPath}.${scopesKey}[${s}]`;
        if (!isRecord(ss)) return loose.push({ path: ssPath, message: "must be an object" });
        if (ss.spans === undefined) return;
        if (!Array.isArray(ss.spans)) return loose.push({ path: `${ssPath}.spans`, message: "must be a list" });
        ss.spans.forEach((raw, k) => {
          const path = `${ssPath}.spans[${k}]`;
          if (!isRecord(raw)) return loose.push({ path, message: "must be an object" });
          const traceId = normalizeId(raw.traceId, 32);
          if (traceId === undefined) return loose.push({ path, message: "missing traceId" });
          let group = byTrace.get(traceId);
          if (group === undefined) {
            group = { id: traceId, spans: [] };
            byTrace.set(traceId, group);
            groups.push(group);
          }
          // A span that cannot be read fails its own trace (never silently left out of it); the other traces still import.
          try {
            group.spans.push(readSpan(raw, traceId, path, index));
            index++;
          } catch (error) {
            group.error ??= error;
          }
        });
      });
    });
  }
  if (groups.length === 0 && loose.length === 0) return failed("", "the export holds no spans");
  const result = importEach(groups, (g, i) => {
    if (g.error !== undefined) throw g.error;
    return importTrace(g.id, g.spans, options, i, groups.length);
  });
  result.errors.unshift(...loose);
  return result;
}

/** One span as the importer reads it (its raw value already checked to be an object with a trace id). */
function readSpan(raw: Record<string, unknown>, traceId: string, path: string, index: number): Span {
  checkNesting(raw, path);
  const events = Array.isArray(raw.events) ? raw.events : [];
  const exception = events
    .map((e, j) =>
      isRecord(e) && e.name === "exception" ? attributes(e.attributes, `${path}.events[${j}].attributes`)["exception.message"] : undefined,
    )
    .find((m) => typeof m === "string");
  const status = raw.status;
  const attrs = attributes(raw.attributes, `${path}.attributes`);
  // GenAI conventions before 1.28 put the prompt and completion on span events; read them as the attributes they carried.
  events.forEach((e, j) => {
    if (!isRecord(e) || (e.name !== "gen_ai.content.prompt" && e.name !== "gen_ai.content.completion")) return;
    const carried = attributes(e.attributes, `${path}.events[${j}].attributes`);
    for (const key of ["gen_ai.prompt", "gen_ai.completion"])
      if (attrs[key] === undefined && carried[key] !== undefined) attrs[key] = carried[key];
  });
  const span: Span = {
    traceId,
    spanId: normalizeId(raw.spanId, 16),
    parentId: normalizeId(raw.parentSpanId, 16),
    name: typeof raw.name === "string" ? raw.name : "",
    start: nanos(raw.startTimeUnixNano),
    end: nanos(raw.endTimeUnixNano),
    error: isErrorStatus(status),
    errorMessage: (isRecord(status) ? str(status.message) : undefined) ?? (exception as string | undefined),
    attrs,
    path,
    index,
    children: [],
  };
  return span;
}

export type Kind = "agent" | "model" | "tool" | "other";

const MODEL_OPERATIONS = new Set(["chat", "text_completion", "generate_content", "responses"]);

export function kindOf(span: Span): Kind {
  const a = span.attrs;
  const op = a["gen_ai.operation.name"];
  const oi = typeof a["openinference.span.kind"] === "string" ? (a["openinference.span.kind"] as string).toUpperCase() : undefined;
  const aiOp = typeof a["ai.operationId"] === "string" ? (a["ai.operationId"] as string) : span.name;
  if (op === "execute_tool" || oi === "TOOL" || aiOp === "ai.toolCall") return "tool";
  if ((typeof op === "string" && MODEL_OPERATIONS.has(op)) || oi === "LLM" || /^ai\.\w+\.do(Generate|Stream)$/.test(aiOp)) return "model";
  if (op === "invoke_agent" || oi === "AGENT" || aiOp === "ai.generateText" || aiOp === "ai.streamText") return "agent";
  // No operation named: Pydantic AI's `running tool` spans name their tool, its `<agent> run` spans their agent.
  if (op === undefined && oi === undefined) {
    if (adkPayload(a[ADK_REQUEST]) !== undefined) return "model";
    if (str(a["gen_ai.tool.name"]) !== undefined) return "tool";
    if (str(a["gen_ai.agent.name"]) !== undefined || str(a["agent_name"]) !== undefined) return "agent";
  }
  return "other";
}

/**
 * The agent's name: its attribute (`gen_ai.agent.name`, OpenInference's
 * `agent.name`, Pydantic AI's `agent_name`, the AI SDK's function id), else
 * what the span name holds besides the operation: `invoke_agent <name>`, and
 * `agent_run [<name>]` of the OpenInference ADK instrumentation. An
 * OpenInference agent span is otherwise named after its agent.
 */
export function agentName(span: Span): string | undefined {
  const a = span.attrs;
  const named = str(a["gen_ai.agent.name"]) ?? str(a["agent.name"]) ?? str(a["agent_name"]) ?? str(a["ai.telemetry.functionId"]);
  if (named !== undefined) return named;
  const bracketed = /^agent_run \[(.+)\]$/.exec(span.name) ?? /^invoke_agent (.+)$/.exec(span.name);
  if (bracketed !== null) return bracketed[1];
  return a["openinference.span.kind"] === "AGENT" ? str(span.name) : undefined;
}

/** One message of a model call, whatever vocabulary it came in. */
export interface Message {
  role: string;
  text: string;
  reasoning: string;
  calls: { id: string | undefined; name: string; args: string }[];
  results: { id: string | undefined; name: string | undefined; content: unknown; error: boolean }[];
}

/** Attribute value that may be a JSON text or already a structure; JSON parsed here counts against MAX_NESTING (`where`: the attribute). */
function structured(value: unknown, where: Where): unknown {
  if (typeof value !== "string") return value;
  const parsed = parseJson(value);
  checkParsedNesting(parsed, `${where.span.path}.attributes`, `attribute ${where.key}`);
  return parsed;
}

/** The span and attribute key a JSON text came from, for its errors. */
export interface Where {
  span: Span;
  key: string;
}

/** A JSON text that holds a plain string is that string (the AI SDK serializes a string result as `"…"`). */
function resultValue(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const parsed = parseJson(value);
  return typeof parsed === "string" ? parsed : value;
}

/**
 * Rebuilds a nested value from flattened attributes under `prefix`
 * (`llm.input_messages.0.message.role` → `[{message: {role}}]`): numeric
 * segments become list indexes.
 */
function unflatten(span: Span, prefix: string): unknown {
  const attrs = span.attrs;
  // Null-prototype nodes: a segment such as `__proto__` or `constructor` is a key, never Object.prototype.
  const root: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let found = false;
  for (const key of Object.keys(attrs)) {
    if (!key.startsWith(`${prefix}.`)) continue;
    found = true;
    const parts = key.slice(prefix.length + 1).split(".");
    if (parts.length > MAX_NESTING)
      throw new ImportError(
        `${span.path}.attributes`,
        `attribute ${key.slice(0, 80)}… has more than ${MAX_NESTING} dotted levels (the importers' limit)`,
      );
    let node = root;
    for (let i = 0; i < parts.length - 1; i++) {
      const next = Object.hasOwn(node, parts[i]!) ? node[parts[i]!] : undefined;
      if (isRecord(next)) node = next;
      else node = node[parts[i]!] = Object.create(null) as Record<string, unknown>;
    }
    node[parts[parts.length - 1]!] = attrs[key];
  }
  return found ? toLists(root) : undefined;
}

function toLists(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((x, y) => Number(x) - Number(y)).map((k) => toLists(value[k]));
  }
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const k of keys) out[k] = toLists(value[k]);
  return out;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function placeholder(part: Record<string, unknown>): string {
  const modality = str(part.modality) ?? str(part.mime_type)?.split("/")[0] ?? str(part.mediaType)?.split("/")[0];
  if (modality === "image" || modality === "audio") return `[${modality}]`;
  return "[file]";
}

/** GenAI conventions (1.37+): `[{role, parts: [{type: text|tool_call|tool_call_response|reasoning|blob|uri|file, …}]}]`. */
export function genAiMessages(value: unknown, where: Where): Message[] {
  return list(structured(value, where))
    .filter(isRecord)
    .map((m) => {
      const msg: Message = { role: String(m.role ?? ""), text: "", reasoning: "", calls: [], results: [] };
      const texts: string[] = [];
      for (const part of list(m.parts)) {
        if (!isRecord(part)) continue;
        if (part.type === "text") texts.push(contentText(part.content));
        else if (part.type === "reasoning") msg.reasoning += contentText(part.content);
        else if (part.type === "tool_call")
          msg.calls.push({ id: str(part.id), name: String(part.name ?? ""), args: jsonText(part.arguments) });
        else if (part.type === "tool_call_response")
          msg.results.push({ id: str(part.id), name: undefined, content: part.response ?? part.result, error: false });
        else if (part.type === "blob" || part.type === "uri" || part.type === "file") texts.push(placeholder(part));
      }
      msg.text = texts.filter((t) => t !== "").join("\n");
      return msg;
    });
}

/** Chat-style messages (`{role, content, tool_calls, tool_call_id}`), as the older flattened GenAI and OpenInference attributes hold them. */
export function chatMessage(m: Record<string, unknown>): Message {
  const msg: Message = { role: String(m.role ?? ""), text: "", reasoning: "", calls: [], results: [] };
  const contents = list(m.contents).map((c) => (isRecord(c) && isRecord(c.message_content) ? c.message_content : c));
  // A content without a type but with text (OpenInference's Vertex AI and Gemini instrumentations) is a text part.
  const part = (c: Record<string, unknown>): Record<string, unknown> =>
    c.type === "image" ? { type: "image" } : c.type === undefined && typeof c.text === "string" ? { type: "text", text: c.text } : c;
  const parts = contents.length > 0 ? contents.filter(isRecord).map(part) : m.content;
  const text = contentText(parts);
  for (const c of list(m.tool_calls)) {
    const call = isRecord(c) && isRecord(c.tool_call) ? c.tool_call : c;
    if (!isRecord(call)) continue;
    const fn = isRecord(call.function) ? call.function : call;
    msg.calls.push({ id: str(call.id), name: String(fn.name ?? ""), args: jsonText(fn.arguments) });
  }
  if (msg.role === "tool") msg.results.push({ id: str(m.tool_call_id), name: str(m.name), content: text, error: false });
  else msg.text = text;
  return msg;
}

/** The AI SDK's prompt messages: `{role, content: string | [{type: text|file|image|tool-call|tool-result|reasoning}]}`. */
export function aiSdkMessages(value: unknown, where: Where): Message[] {
  return list(structured(value, where))
    .filter(isRecord)
    .map((m) => {
      const msg: Message = { role: String(m.role ?? ""), text: "", reasoning: "", calls: [], results: [] };
      if (typeof m.content === "string") {
        msg.text = m.content;
        return msg;
      }
      const texts: string[] = [];
      for (const part of list(m.content)) {
        if (!isRecord(part)) continue;
        if (part.type === "text") texts.push(contentText(part.text));
        else if (part.type === "reasoning") msg.reasoning += contentText(part.text);
        else if (part.type === "image" || part.type === "file")
          texts.push(placeholder({ mediaType: part.mediaType ?? part.mimeType ?? (part.type === "image" ? "image/" : "") }));
        else if (part.type === "tool-call")
          msg.calls.push({ id: str(part.toolCallId), name: String(part.toolName ?? ""), args: jsonText(part.input ?? part.args) });
        else if (part.type === "tool-result") {
          // AI SDK 5+ wraps the output: {type: "json" | "text" | "error-json" | "error-text", value}.
          const output = part.output ?? part.result;
          const wrapped = isRecord(output) && typeof output.type === "string" && "value" in output;
          const error = wrapped && String(output.type).startsWith("error");
          msg.results.push({ id: str(part.toolCallId), name: str(part.toolName), content: wrapped ? output.value : output, error });
        }
      }
      msg.text = texts.filter((t) => t !== "").join("\n");
      return msg;
    });
}

export interface ModelCall {
  input: Message[];
  output: Message[];
  finish: string | undefined;
  model: string | undefined;
  /** Attributes that held the call's messages but could not be read (ADK writes `<not serializable>`): warned, never dropped silently. */
  unreadable?: string[];
}

/** Google ADK's own model-call attributes (its `call_llm` span): the request and the response as JSON texts. */
const ADK_REQUEST = "gcp.vertex.agent.llm_request";
const ADK_RESPONSE = "gcp.vertex.agent.llm_response";

/** An ADK payload attribute that holds something: ADK writes `{}` on its tool spans (its web UI expects the key). */
function adkPayload(value: unknown): unknown {
  return value === undefined || value === "{}" || value === "" ? undefined : value;
}

/**
 * ADK's `call_llm` span: `gcp.vertex.agent.llm_request` is `{model, config, contents}` (the whole conversation so far)
 * and `gcp.vertex.agent.llm_response` an LlmResponse (`{content, finish_reason, usage_metadata, …}`; some exporters
 * write a GenerateContentResponse's `{candidates: [{content, finish_reason}]}` instead). Either may be ADK's
 * `<not serializable>` stand-in: it is named in `unreadable`.
 */
function readAdkModel(span: Span, model: string | undefined, finish: string | undefined): ModelCall {
  const a = span.attrs;
  const unreadable: string[] = [];
  const payload = (key: string): Record<string, unknown> | undefined => {
    const value = adkPayload(a[key]);
    if (value === undefined) return undefined;
    const parsed = structured(value, { span, key });
    if (!isRecord(parsed)) unreadable.push(key);
    return isRecord(parsed) ? parsed : undefined;
  };
  const request = payload(ADK_REQUEST);
  const response = payload(ADK_RESPONSE);
  const candidate = response === undefined ? undefined : list(response.candidates).find(isRecord);
  const answer = response === undefined ? undefined : (response.content ?? candidate?.content);
  const reason = response === undefined ? undefined : (response.finish_reason ?? response.finishReason ?? candidate?.finish_reason);
  // Gemini Contents, read part by part as every importer reads them (payloads.ts: text, thoughts, calls, results, code, files).
  return {
    input: list(request?.contents).filter(isRecord).map(roleMessage),
    output: isRecord(answer) ? [roleMessage(answer)] : [],
    finish: finish ?? str(reason)?.toLowerCase(),
    model: model ?? str(request?.model),
    ...(unreadable.length > 0 ? { unreadable } : {}),
  };
}

export function readModel(span: Span): ModelCall {
  const a = span.attrs;
  const model = str(a["gen_ai.response.model"]) ?? str(a["gen_ai.request.model"]) ?? str(a["llm.model_name"]) ?? str(a["ai.model.id"]);
  const reasons = a["gen_ai.response.finish_reasons"];
  let finish = Array.isArray(reasons) ? str(reasons[reasons.length - 1]) : str(reasons);
  finish ??= str(a["llm.finish_reason"]) ?? str(a["ai.response.finishReason"]);
  if (a["gen_ai.input.messages"] !== undefined || a["gen_ai.output.messages"] !== undefined) {
    return {
      input: genAiMessages(a["gen_ai.input.messages"], { span, key: "gen_ai.input.messages" }),
      output: genAiMessages(a["gen_ai.output.messages"], { span, key: "gen_ai.output.messages" }),
      finish,
      model,
    };
  }
  if (a["ai.prompt.messages"] !== undefined || a["ai.response.text"] !== undefined || a["ai.response.toolCalls"] !== undefined) {
    const out: Message = {
      role: "assistant",
      text: contentText(a["ai.response.text"]),
      reasoning: contentText(a["ai.response.reasoning"]),
      calls: [],
      results: [],
    };
    for (const c of list(structured(a["ai.response.toolCalls"], { span, key: "ai.response.toolCalls" }))) {
      if (isRecord(c)) out.calls.push({ id: str(c.toolCallId), name: String(c.toolName ?? ""), args: jsonText(c.input ?? c.args) });
    }
    return { input: aiSdkMessages(a["ai.prompt.messages"], { span, key: "ai.prompt.messages" }), output: [out], finish, model };
  }
  if (adkPayload(a[ADK_REQUEST]) !== undefined || adkPayload(a[ADK_RESPONSE]) !== undefined) return readAdkModel(span, model, finish);
  // OpenInference (`llm.input_messages`) or the older GenAI attributes (`gen_ai.prompt.N`, `gen_ai.completion.N`).
  const messages = (prefix: string, inner: boolean): Message[] =>
    list(unflatten(span, prefix))
      .filter(isRecord)
      .map((m) => chatMessage(inner && isRecord(m.message) ? m.message : m));
  const oiInput = messages("llm.input_messages", true);
  const oiOutput = messages("llm.output_messages", true);
  if (oiInput.length > 0 || oiOutput.length > 0) return { input: oiInput, output: oiOutput, finish, model };
  if (a["gen_ai.prompt"] !== undefined || a["gen_ai.completion"] !== undefined) {
    const completion = olderPayload(a["gen_ai.completion"], { span, key: "gen_ai.completion" }, "assistant");
    finish ??= completion.finish;
    return {
      input: olderPayload(a["gen_ai.prompt"], { span, key: "gen_ai.prompt" }, "user").messages,
      output: completion.messages,
      finish,
      model,
    };
  }
  const completion = list(unflatten(span, "gen_ai.completion")).filter(isRecord);
  finish ??= completion.map((c) => str(c.finish_reason)).find((r) => r !== undefined);
  return { input: messages("gen_ai.prompt", false), output: completion.map(chatMessage), finish, model };
}

/**
 * The GenAI conventions' payloads before 1.28: `gen_ai.prompt` and
 * `gen_ai.completion` hold JSON chat messages (`[{role, content,
 * tool_calls}]`, roles in any case), typed-part messages, or plain text
 * (the `role` given).
 */
function olderPayload(value: unknown, where: Where, role: string): { messages: Message[]; finish: string | undefined } {
  if (value === undefined) return { messages: [], finish: undefined };
  const parsed = structured(value, where);
  if (typeof value === "string" && parsed === undefined)
    return { messages: [{ ...chatMessage({ role, content: value }) }], finish: undefined };
  const items = Array.isArray(parsed) ? parsed : [parsed];
  if (items.some((m) => isRecord(m) && Array.isArray(m.parts))) return { messages: genAiMessages(items, where), finish: undefined };
  let finish: string | undefined;
  const messages: Message[] = [];
  for (const m of items) {
    if (typeof m === "string") messages.push(chatMessage({ role, content: m }));
    if (!isRecord(m)) continue;
    const message = isRecord(m.message) ? m.message : m; // a choice: {message, finish_reason}
    finish = str(m.finish_reason)?.toLowerCase() ?? finish;
    messages.push(chatMessage({ ...message, role: String(message.role ?? role).toLowerCase() }));
  }
  return { messages, finish };
}

export interface ToolRun {
  name: string;
  callId: string | undefined;
  args: string;
  result: unknown;
}

export function readTool(span: Span): ToolRun {
  const a = span.attrs;
  // Without a name attribute, the span name says it: `execute_tool <name>` in the GenAI conventions.
  const name =
    str(a["gen_ai.tool.name"]) ??
    str(a["tool.name"]) ??
    str(a["ai.toolCall.name"]) ??
    str(span.name.replace(/^(execute_tool|running tool:?)\s+/, ""));
  if (name === undefined)
    throw new ImportError(
      `${span.path}.attributes`,
      "missing the tool's name (gen_ai.tool.name, tool.name, ai.toolCall.name or the span name)",
    );
  // ADK writes `<not specified>` when it has no id.
  const callId = [a["gen_ai.tool.call.id"], a["tool_call.id"], a["ai.toolCall.id"]]
    .map(str)
    .find((id) => id !== undefined && id !== "<not specified>");
  const args =
    a["gen_ai.tool.call.arguments"] ??
    a["ai.toolCall.args"] ??
    a["ai.toolCall.input"] ??
    a["tool_arguments"] ??
    a["gcp.vertex.agent.tool_call_args"] ??
    a["input.value"];
  const result =
    a["gen_ai.tool.call.result"] ??
    a["ai.toolCall.result"] ??
    a["ai.toolCall.output"] ??
    a["tool_response"] ??
    a["gcp.vertex.agent.tool_response"] ??
    a["output.value"];
  return { name, callId, args: jsonText(args), result: resultValue(result) };
}

/** ADK's id for a Gemini call that had none: `<name>_<index of the part>` (its experimental GenAI conventions). */
function isStandInId(id: string, name: string): boolean {
  return id.startsWith(`${name}_`) && /^\d+$/.test(id.slice(name.length + 1));
}

const byStart = (x: Span, y: Span): number => (x.start < y.start ? -1 : x.start > y.start ? 1 : x.index - y.index);
export const CUT_SHORT = new Set(["length", "max_tokens", "content_filter", "content-filter", "error"]);

function importTrace(id: string, spans: Span[], options: ImportOptions, index: number, count: number): TrajectoryBuilder {
  const b = new TrajectoryBuilder(trajectoryId(options, id, index, count), options);
  const roots = spanForest(
    spans,
    (s) => s.spanId,
    (s) => s.parentId,
    byStart,
    ({ spans: cycle, cut }) => {
      b.warn(
        `${cut.path}.parentSpanId`,
        cycleWarning(
          cycle.map((s) => s.spanId!),
          "as a root",
        ),
      );
      return undefined;
    },
  );
  if (roots[0] !== undefined) b.description = roots[0].name;

  interface Pending {
    callId: string | undefined;
    name: string;
    content: unknown;
    error: boolean;
    meta: Record<string, string>;
    end: bigint;
    index: number;
    path: string;
  }
  // Results wait for their span's end in a heap, taken in (end, file order): linear in the spans however many overlap.
  const deferred = new MinHeap<Pending>((x, y) => x.end < y.end || (x.end === y.end && x.index < y.index));
  /** Calls the model emitted, by id and name; `covered` once a tool span ran them, `answered` once a result was written. */
  type Call = { id: string | undefined; name: string; args: string; covered: boolean; answered: boolean };
  const open = (c: Call): boolean => !c.covered && !c.answered;
  const calls = new CallIndex<Call>(open);
  // Gemini's calls often carry no id (or ADK's stand-in `<name>_<index>`) while the tool spans carry the framework's own: such a span pairs by name.
  const idless = new CallIndex<Call>(open);
  const users = new SeenTexts();
  let finish: string | undefined;
  let lastAgent: string | undefined;

  const flushUntil = (time: bigint): void => {
    while (deferred.size > 0 && deferred.peek()!.end <= time) {
      const p = deferred.pop()!;
      b.result(p.callId, p.content, { name: p.name, error: p.error, meta: p.meta, path: p.path });
    }
  };
  const meta = (agent: string | undefined, extra: Record<string, string> = {}): Record<string, string> => {
    if (agent !== undefined) extra[FACT.agent] = agent;
    return extra;
  };

  /** One span; returns the agent in charge and whether we are inside a tool, for its children. */
  const visit = (span: Span, agent: string | undefined, nested: boolean): { agent: string | undefined; nested: boolean } => {
    flushUntil(span.start);
    switch (kindOf(span)) {
      case "agent": {
        const name = agentName(span);
        const from = agent ?? lastAgent;
        if (name !== undefined && from !== undefined && name !== from)
          b.handoff(from, name, meta(from, span.spanId === undefined ? {} : { [FACT.spanId]: span.spanId }));
        if (name !== undefined) {
          agent = name;
          if (!nested) lastAgent = name;
        }
        break;
      }
      case "model": {
        const m = readModel(span);
        for (const key of m.unreadable ?? [])
          b.warn(
            `${span.path}.attributes`,
            `attribute ${key} holds no JSON (${JSON.stringify(String(span.attrs[key]).slice(0, 40))}): this model call's messages are missing`,
          );
        b.turn();
        for (const msg of m.input) {
          for (const r of msg.results) {
            // A result the model was sent, for a call no tool span ran: it arrived by now.
            const call = r.id !== undefined ? calls.byId(r.id) : r.name !== undefined ? idless.byName(r.name, "") : undefined;
            if (call === undefined) continue;
            call.answered = true;
            b.result(call.id, resultValue(r.content), {
              name: call.name,
              error: r.error,
              meta: meta(agent),
              path: `${span.path}.attributes`,
            });
          }
        }
        // A user message of tool responses only (Gemini's role for them) has no text of the user's.
        if (!nested)
          for (const text of users.fresh(m.input.filter((msg) => msg.role === "user").map((msg) => msg.text)))
            if (text !== "") b.user(text);
        const facts = meta(agent, m.model === undefined ? {} : { [FACT.model]: m.model });
        for (const out of m.output) {
          if (out.reasoning !== "") b.reasoning(out.reasoning, { ...facts });
          if (out.text !== "") b.agentMessage(out.text, { ...facts });
          for (const c of out.calls) {
            if (c.name === "") throw new ImportError(`${span.path}.attributes`, "a tool call in the model's output has no name");
            b.call(c.name, c.args, c.id, meta(agent), `${span.path}.attributes`);
            const call: Call = { ...c, covered: false, answered: false };
            calls.add(call);
            if (c.id === undefined || isStandInId(c.id, c.name)) idless.add(call);
          }
        }
        if (m.finish !== undefined) finish = m.finish;
        break;
      }
      case "tool": {
        const t = readTool(span);
        // The model's call this span ran: same call id (else an id-less call of that name), else same name and arguments, else same name.
        const call = t.callId !== undefined ? (calls.byId(t.callId) ?? idless.byName(t.name, t.args)) : calls.byName(t.name, t.args);
        if (call !== undefined) call.covered = true;
        else b.call(t.name, t.args, t.callId, meta(agent), `${span.path}.attributes`);
        // Paired by name with a call that had no id: the builder pairs it the same way, and the span's own id is kept as a fact.
        const byName = call !== undefined && call.id === undefined;
        const facts = meta(agent, span.spanId === undefined ? {} : { [FACT.spanId]: span.spanId });
        if (byName && t.callId !== undefined) facts[FACT.callId] = t.callId;
        const content = t.result ?? (span.error ? (span.errorMessage ?? "") : "");
        deferred.push({
          callId: byName ? undefined : (call?.id ?? t.callId),
          name: call?.name ?? t.name,
          content,
          error: span.error,
          meta: facts,
          end: span.end,
          index: span.index,
          path: span.path,
        });
        nested = true;
        break;
      }
      default:
        break;
    }
    return { agent, nested };
  };
  walkDepthFirst(roots, { agent: undefined as string | undefined, nested: false }, (span, c) => visit(span, c.agent, c.nested));
  flushUntil(NEVER);
  const endedNormally = roots.length > 0 && roots.every((r) => !r.error) && (finish === undefined || !CUT_SHORT.has(finish));
  // Pydantic AI answers through its output tool: the final_result call is the answer, and no tool span follows it.
  b.closeWithoutResult(isOutputTool);
  b.finish(endedNormally);
  return b;
}
