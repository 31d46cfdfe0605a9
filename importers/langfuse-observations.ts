/**
 * One Langfuse observation as the langfuse importer reads it: its own
 * fields decoded (input, output and metadata may be JSON text), the span it
 * was when Langfuse ingested it from OpenTelemetry, what it is (agent, model
 * call, tool run, guardrail), and what a model call or a tool run holds.
 */
import { ImportError, checkNesting, checkParsedNesting, isRecord, jsonText } from "./core.js";
import { decodeJson, readPayload, type Message, type Payload } from "./payloads.js";
import { kindOf, readModel, readTool, type Kind, type Span } from "./otel.js";
import { timeOf } from "./spans.js";

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function join(prefix: string, key: string): string {
  return prefix === "" ? key : `${prefix}.${key}`;
}

export interface Observation {
  id: string;
  parentId: string | undefined;
  type: string;
  name: string | undefined;
  start: number;
  end: number;
  ended: boolean;
  error: boolean;
  /** DEFAULT, DEBUG, WARNING or ERROR. */
  level: string | undefined;
  statusMessage: string | undefined;
  model: string | undefined;
  input: unknown;
  output: unknown;
  /** Whether the export carried `input` / `output` at all (Langfuse leaves them out of downloads of very large traces). */
  hasIO: boolean;
  /** The span an OTel-scope observation was, for otel.ts's readers; undefined for the SDKs' own observations. */
  span: Span | undefined;
  path: string;
  index: number;
  children: Observation[];
}

/** A record of metadata, decoded from JSON text if need be. */
function metadataOf(value: unknown): Record<string, unknown> | undefined {
  const decoded = decodeJson(value);
  return isRecord(decoded) ? decoded : undefined;
}

/** Langfuse's own SDKs report under scope `langfuse-sdk`; any other scope name is an OpenTelemetry instrumentation whose attributes were kept. */
function otelSpan(metadata: Record<string, unknown> | undefined, o: Record<string, unknown>, path: string): Span | undefined {
  const scope = metadata !== undefined && isRecord(metadata.scope) ? str(metadata.scope.name) : undefined;
  if (scope === undefined || scope.startsWith("langfuse-sdk")) return undefined;
  const raw = decodeJson(metadata!.attributes);
  const attrs: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (isRecord(raw))
    for (const [key, value] of Object.entries(raw)) {
      // Langfuse writes every non-string attribute as JSON text; the finish reasons are a list otel.ts reads as one.
      attrs[key] = key.endsWith("finish_reasons") ? decodeJson(value) : value;
    }
  return {
    traceId: "",
    spanId: str(o.id),
    parentId: undefined,
    name: typeof o.name === "string" ? o.name : "",
    start: 0n,
    end: 0n,
    error: o.level === "ERROR",
    errorMessage: str(o.statusMessage),
    attrs,
    path: join(path, "metadata"),
    index: 0,
    children: [],
  };
}

export function readObservation(value: unknown, path: string, index: number): Observation {
  if (!isRecord(value)) throw new ImportError(path, "must be an observation object");
  checkNesting(value, path);
  const id = str(value.id);
  if (id === undefined) throw new ImportError(path, value.id === undefined ? "missing id" : "id must be a non-empty string");
  const type = str(value.type);
  if (type === undefined) throw new ImportError(path, value.type === undefined ? "missing type" : "type must be a non-empty string");
  const start = timeOf(value.startTime);
  if (!Number.isFinite(start))
    throw new ImportError(
      path,
      value.startTime === undefined ? "missing startTime" : `startTime ${JSON.stringify(value.startTime)} is not a time`,
    );
  const end = timeOf(value.endTime);
  const decoded = (key: string): unknown => {
    const v = decodeJson(value[key]);
    if (typeof value[key] === "string") checkParsedNesting(v, join(path, key), key);
    return v;
  };
  const metadata = metadataOf(value.metadata);
  if (typeof value.metadata === "string") checkParsedNesting(metadata, join(path, "metadata"), "metadata");
  return {
    id,
    parentId: str(value.parentObservationId),
    type,
    name: str(value.name),
    start,
    end,
    ended: Number.isFinite(end),
    error: value.level === "ERROR",
    level: str(value.level),
    statusMessage: str(value.statusMessage),
    model: str(value.model),
    input: decoded("input"),
    output: decoded("output"),
    hasIO: "input" in value || "output" in value,
    span: otelSpan(metadata, value, path),
    path,
    index,
    children: [],
  };
}

export type Role = Kind | "guardrail";

const TYPE_ROLE = new Map<string, Role>([
  ["GENERATION", "model"],
  ["TOOL", "tool"],
  ["AGENT", "agent"],
  ["GUARDRAIL", "guardrail"],
]);

/** A LangChain ToolMessage as Langfuse serializes it (`{type: "tool", content, tool_call_id, status}`), or undefined. */
function toolMessage(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const fields = value.lc === 1 && isRecord(value.kwargs) ? value.kwargs : value;
  const isTool = value.type === "tool" || (Array.isArray(value.id) && value.id[value.id.length - 1] === "ToolMessage");
  return isTool && "content" in fields ? fields : undefined;
}

export function roleOf(o: Observation): Role {
  if (o.span !== undefined) {
    const kind = kindOf(o.span);
    if (kind !== "other") return kind;
  }
  const role = TYPE_ROLE.get(o.type);
  if (role !== undefined) return role;
  if (o.type === "SPAN" && toolMessage(o.output) !== undefined) return "tool";
  return "other";
}

/** Arguments as the tool received them: text as written, anything else as JSON. */
export function argsText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return jsonText(value);
}

export interface Tool {
  name: string;
  callId: string | undefined;
  args: string;
  content: unknown;
  error: boolean;
}

/** A tool run: names and call id from the span's attributes when it was one (otel.ts), else the observation's own fields. */
export function readToolRun(o: Observation): Tool {
  let fromSpan: ReturnType<typeof readTool> | undefined;
  if (o.span !== undefined) {
    try {
      fromSpan = readTool(o.span);
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
    }
  }
  const name = fromSpan?.name ?? o.name;
  if (name === undefined) throw new ImportError(o.path, "a tool observation with no name");
  const message = toolMessage(o.output);
  const output = message !== undefined ? message.content : o.output;
  const callId = fromSpan?.callId ?? str(message?.tool_call_id);
  const args = fromSpan !== undefined && fromSpan.args !== "" ? fromSpan.args : argsText(o.input);
  // A result of text parts (MCP's form) is read by the builder as the text they hold.
  let content = fromSpan?.result ?? output;
  const error = o.error || message?.status === "error";
  if ((content === undefined || content === null || content === "") && error) content = o.statusMessage ?? "";
  return { name, callId, args, content: content ?? "", error };
}

export interface ModelRead {
  input: Message[];
  output: Message[];
  finish: string | undefined;
  model: string | undefined;
}

/** A model call: the span's message attributes when the export kept them (otel.ts), else the observation's input and output. */
export function readModelCall(o: Observation, warn: (path: string, message: string) => void): ModelRead {
  const fromSpan = o.span === undefined ? undefined : readModel(o.span);
  const side = (which: "input" | "output", kept: Message[] | undefined): { messages: Message[]; payload?: Payload } => {
    if (kept !== undefined && kept.length > 0) return { messages: kept };
    const payload = readPayload(o[which], which);
    if (payload.problem !== undefined) warn(join(o.path, which), `${payload.problem}; no messages are imported from it`);
    return { messages: payload.messages, payload };
  };
  const input = side("input", fromSpan?.input);
  const output = side("output", fromSpan?.output);
  return {
    input: input.messages,
    output: output.messages,
    finish: fromSpan?.finish ?? output.payload?.finish,
    model: o.model ?? fromSpan?.model,
  };
}
