/**
 * OpenAI Agents SDK trace exports (IMPORTERS.md, `--from openai-agents`).
 *
 * Input: what the SDK's OpenAITracingExporter posts (`{data: [trace,
 * trace.span, …]}`), a bare list of those items (a custom processor's dump, or
 * JSON lines), or a list of several such payloads. Items arrive in END order:
 * a span is exported when it ends, so children come before their parents and
 * the trace object comes first. One trajectory per `trace_id`.
 *
 * Span data (agents-core `tracing/spans.ts`, Python `tracing/span_data.py`):
 * `agent` {name, handoffs, tools}, `function` {name, input, output},
 * `generation` {input, output, model} (Chat Completions models: the messages
 * sent and the completion), `response` {response_id} (Responses models: no
 * message text is exported), `handoff` {from_agent, to_agent}, `guardrail`
 * {name, triggered}, `custom` (SDK 0.20+ writes its `task` and `turn` spans
 * this way), `mcp_tools`, `transcription`, `speech`. A span's `error`
 * ({message, data}) marks a failed tool.
 *
 * Order: spans are walked depth-first, siblings by `started_at`, ties by file
 * order. Each model response (a `generation` or `response` span) starts a
 * turn; the tool calls of that turn keep the order the model emitted them
 * (from the generation's output when it was exported, else start order), and
 * their results follow in the order the function spans ended.
 *
 * Facts in metadata: `@agent` (the agent whose span holds the event),
 * `@span_id`, `@call_id` (when the generation's output names it), `@model`.
 */
import {
  FACT,
  ImportError,
  TrajectoryBuilder,
  checkNesting,
  contentText,
  failed,
  guard,
  importEach,
  isRecord,
  jsonText,
  traceId,
  type ImportOptions,
  type ImportResult,
} from "./core.js";
import { SeenTexts, cycleWarning, sameJson, spanForest, timeOf, walkDepthFirst } from "./spans.js";

interface Item {
  value: Record<string, unknown>;
  path: string;
  /** Position in the file: breaks ties between spans that started at the same time. */
  index: number;
}

interface Span extends Item {
  id: string | undefined;
  parent: string | undefined;
  data: Record<string, unknown>;
  start: number;
  end: number;
  children: Span[];
}

interface TraceGroup {
  id: string;
  trace: Item | undefined;
  spans: Item[];
}

const SPAN = "trace.span";

/** True for a span or trace item of this SDK's export. */
function isAgentsItem(value: unknown): boolean {
  if (!isRecord(value)) return false;
  if (value.object === SPAN) return isRecord(value.span_data);
  return value.object === "trace" && typeof value.id === "string" && "workflow_name" in value;
}

/** Cheap shape test for auto-detection: an export payload or a list of its items. */
export function detectOpenAIAgents(input: unknown): boolean {
  if (isRecord(input)) return Array.isArray(input.data) && input.data.length > 0 && input.data.some(isAgentsItem);
  if (!Array.isArray(input) || input.length === 0) return false;
  const first = input[0];
  if (isRecord(first) && Array.isArray(first.data)) return detectOpenAIAgents(first);
  return input.some(isAgentsItem);
}

/** The items of the input with their paths, or an error message when it is not an export at all. */
function itemsOf(input: unknown): { items: { value: unknown; path: string }[] } | { error: string } {
  const items: { value: unknown; path: string }[] = [];
  if (isRecord(input)) {
    if (!Array.isArray(input.data)) return { error: "expected an Agents SDK trace export: {data: [trace, span, …]} or a list of spans" };
    input.data.forEach((value, i) => items.push({ value, path: `data[${i}]` }));
    return { items };
  }
  if (!Array.isArray(input)) return { error: "expected an Agents SDK trace export: {data: [trace, span, …]} or a list of spans" };
  input.forEach((value, i) => {
    // A list of several export payloads (one per exporter call).
    if (isRecord(value) && Array.isArray(value.data) && value.object === undefined) {
      value.data.forEach((inner, j) => items.push({ value: inner, path: `[${i}].data[${j}]` }));
    } else items.push({ value, path: `[${i}]` });
  });
  return { items };
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function fromOpenAIAgents(input: unknown, options: ImportOptions = {}): ImportResult {
  return guard(() => importAgents(input, options));
}

function importAgents(input: unknown, options: ImportOptions): ImportResult {
  const listed = itemsOf(input);
  if ("error" in listed) return failed("", listed.error);
  const groups: TraceGroup[] = [];
  const byId = new Map<string, TraceGroup>();
  const loose: ImportResult["errors"] = [];
  const group = (id: string): TraceGroup => {
    let found = byId.get(id);
    if (found === undefined) {
      found = { id, trace: undefined, spans: [] };
      byId.set(id, found);
      groups.push(found);
    }
    return found;
  };
  listed.items.forEach(({ value, path }, index) => {
    // An item that cannot be placed in a trace is reported on its own; the traces still import.
    if (!isRecord(value)) return loose.push({ path, message: "must be an object (a trace or a trace.span)" });
    if (value.object === "trace") {
      const id = str(value.id);
      if (id === undefined) return loose.push({ path, message: "missing id" });
      group(id).trace = { value, path, index };
      return;
    }
    if (value.object !== SPAN && !("span_data" in value))
      return loose.push({ path, message: `unknown object ${JSON.stringify(value.object ?? null)} (expected "trace" or "trace.span")` });
    const id = str(value.trace_id);
    if (id === undefined) return loose.push({ path, message: "missing trace_id" });
    group(id).spans.push({ value, path, index });
  });
  if (groups.length === 0 && loose.length === 0) return failed("", "the export holds no traces");
  const result = importEach(groups, (g, i) => importTrace(g, options, i, groups.length));
  result.errors.unshift(...loose);
  return result;
}

function toSpan(item: Item): Span {
  checkNesting(item.value, item.path);
  const data = item.value.span_data;
  if (!isRecord(data)) throw new ImportError(item.path, data === undefined ? "missing span_data" : "span_data must be an object");
  if (typeof data.type !== "string") throw new ImportError(`${item.path}.span_data`, "missing type");
  return {
    ...item,
    id: str(item.value.id),
    parent: str(item.value.parent_id),
    data,
    start: timeOf(item.value.started_at),
    end: timeOf(item.value.ended_at),
    children: [],
  };
}

const byStart = (a: Span, b: Span): number => a.start - b.start || a.index - b.index;
const byEnd = (a: Span, b: Span): number => a.end - b.end || a.index - b.index;

/** A tool call the model emitted in a generation's output. */
interface ModelCall {
  id: string | undefined;
  name: string;
  args: string;
  path: string;
}

/** What one model response led to: its calls, the function spans that ran them, its hand-offs. */
interface Turn {
  agent: string | undefined;
  modelCalls: ModelCall[];
  functions: { span: Span; agent: string | undefined }[];
  handoffs: { span: Span; agent: string | undefined }[];
  /** The agent span's declared tools, to tell a hand-off tool call from a function call. */
  tools: readonly string[] | undefined;
}

function importTrace(g: TraceGroup, options: ImportOptions, index: number, count: number): TrajectoryBuilder {
  const b = new TrajectoryBuilder(traceId(options, g.id, index, count), options);
  if (g.trace !== undefined && typeof g.trace.value.workflow_name === "string") b.description = g.trace.value.workflow_name;
  const spans = g.spans.map(toSpan);
  const roots = spanForest(
    spans,
    (s) => s.id,
    (s) => s.parent,
    byStart,
    ({ spans: cycle, cut }) => {
      b.warn(
        `${cut.path}.parent_id`,
        cycleWarning(
          cycle.map((s) => s.id!),
          "as a root",
        ),
      );
      return undefined;
    },
  );

  const state = { users: new SeenTexts(), finish: undefined as string | undefined, turn: undefined as Turn | undefined };
  const meta = (agent: string | undefined, extra: Record<string, string> = {}): Record<string, string> => {
    if (agent !== undefined) extra[FACT.agent] = agent;
    return extra;
  };

  const flush = (): void => {
    const turn = state.turn;
    state.turn = undefined;
    if (turn === undefined) return;
    // Pair each function span with the model's call: same name and same arguments first, then same name.
    const callOf = new Map<Span, ModelCall>();
    const free = [...turn.functions];
    const take = (call: ModelCall, sameArgs: boolean): void => {
      const at = free.findIndex(
        ({ span }) => span.data.name === call.name && (!sameArgs || sameJson(jsonText(span.data.input), call.args)),
      );
      if (at >= 0) callOf.set(free.splice(at, 1)[0]!.span, call);
    };
    const unpaired = turn.modelCalls.filter((call) => {
      take(call, true);
      return ![...callOf.values()].includes(call);
    });
    for (const call of unpaired) take(call, false);
    let handoffCalls = turn.handoffs.length;
    const answered = new Set(callOf.values());
    for (const call of turn.modelCalls) {
      // A hand-off is a tool call to the model; its handoff span stands for it.
      if (!answered.has(call) && handoffCalls > 0 && !(turn.tools ?? []).includes(call.name)) {
        handoffCalls--;
        continue;
      }
      b.call(call.name, call.args, call.id, meta(turn.agent), call.path);
    }
    for (const { span, agent } of free) {
      const name = functionName(span);
      b.call(
        name,
        jsonText(span.data.input),
        undefined,
        meta(agent, span.id === undefined ? {} : { [FACT.spanId]: span.id }),
        `${span.path}.span_data.input`,
      );
    }
    for (const { span, agent } of [...turn.functions].sort((x, y) => byEnd(x.span, y.span))) {
      const call = callOf.get(span);
      const extra: Record<string, string> = span.id === undefined ? {} : { [FACT.spanId]: span.id };
      b.result(call?.id, span.data.output ?? "", {
        name: functionName(span),
        error: isRecord(span.value.error),
        meta: meta(agent, extra),
        path: span.path,
      });
    }
    for (const { span, agent } of turn.handoffs) {
      b.handoff(
        str(span.data.from_agent) ?? agent ?? "",
        str(span.data.to_agent) ?? "",
        meta(agent, span.id === undefined ? {} : { [FACT.spanId]: span.id }),
      );
    }
  };

  const currentTurn = (agent: string | undefined, tools: readonly string[] | undefined): Turn => {
    state.turn ??= { agent, modelCalls: [], functions: [], handoffs: [], tools };
    return state.turn;
  };

  interface Context {
    agent: string | undefined;
    tools: readonly string[] | undefined;
  }
  /** One span; returns the agent in charge and its tools, for its children. */
  const visit = (span: Span, agent: string | undefined, tools: readonly string[] | undefined): Context => {
    const data = span.data;
    const spanMeta = (): Record<string, string> => meta(agent, span.id === undefined ? {} : { [FACT.spanId]: span.id });
    switch (data.type) {
      case "agent":
        agent = str(data.name) ?? agent;
        tools = Array.isArray(data.tools) ? data.tools.filter((t): t is string => typeof t === "string") : undefined;
        break;
      case "custom":
        if (isRecord(data.data) && data.data.sdk_span_type === "turn") agent = str(data.data.agent_name) ?? agent;
        break;
      case "generation":
      case "response":
        flush();
        b.turn();
        readGeneration(span, agent, tools);
        break;
      case "function":
        functionName(span);
        currentTurn(agent, tools).functions.push({ span, agent });
        break;
      case "handoff":
        currentTurn(agent, tools).handoffs.push({ span, agent });
        break;
      case "guardrail": {
        const name = str(data.name);
        if (name === undefined) throw new ImportError(`${span.path}.span_data`, "missing name");
        b.guardrail(name, data.triggered === true, spanMeta());
        break;
      }
      default:
        // mcp_tools, transcription, speech, other custom spans: no conversation event.
        break;
    }
    return { agent, tools };
  };

  const readGeneration = (span: Span, agent: string | undefined, tools: readonly string[] | undefined): void => {
    const data = span.data;
    const model = str(data.model);
    const extra = (): Record<string, string> => meta(agent, model === undefined ? {} : { [FACT.model]: model });
    // Each generation is sent the whole conversation so far: only user messages not seen before are new.
    if (Array.isArray(data.input)) {
      const users = data.input.filter((m) => isRecord(m) && m.role === "user") as Record<string, unknown>[];
      for (const text of state.users.fresh(users.map((m) => contentText(m.content)))) b.user(text);
    }
    const turn = currentTurn(agent, tools);
    if (data.output === undefined || data.output === null) return;
    if (!Array.isArray(data.output)) throw new ImportError(`${span.path}.span_data.output`, "must be a list");
    data.output.forEach((out, i) => {
      const path = `${span.path}.span_data.output[${i}]`;
      if (!isRecord(out)) throw new ImportError(path, "must be an object");
      if (Array.isArray(out.choices)) {
        // A Chat Completions response object (the JS SDK exports the whole completion).
        const choice = out.choices[0];
        if (!isRecord(choice)) return;
        if (typeof choice.finish_reason === "string") state.finish = choice.finish_reason;
        if (isRecord(choice.message)) readMessage(choice.message, `${path}.choices[0].message`, turn, extra);
      } else if (out.type === "function_call") {
        turn.modelCalls.push({ id: str(out.call_id), name: requireName(out.name, path), args: jsonText(out.arguments), path });
      } else if (out.type === "reasoning") {
        b.reasoning(contentText(out.summary ?? out.content), extra());
      } else if (out.role === "assistant" || out.type === "message") {
        // The Python SDK exports the assistant message itself; Responses-style items have type "message".
        readMessage(out, path, turn, extra);
      }
    });
  };

  const readMessage = (m: Record<string, unknown>, path: string, turn: Turn, extra: () => Record<string, string>): void => {
    const text = contentText(m.content);
    if (text !== "") b.agentMessage(text, extra());
    else if (typeof m.refusal === "string" && m.refusal !== "") b.agentMessage(m.refusal, extra());
    if (m.tool_calls === undefined || m.tool_calls === null) return;
    if (!Array.isArray(m.tool_calls)) throw new ImportError(`${path}.tool_calls`, "must be a list");
    m.tool_calls.forEach((call, j) => {
      const at = `${path}.tool_calls[${j}]`;
      if (!isRecord(call)) throw new ImportError(at, "must be an object");
      const fn = call.function;
      if (!isRecord(fn)) throw new ImportError(at, "missing function");
      turn.modelCalls.push({ id: str(call.id), name: requireName(fn.name, `${at}.function`), args: jsonText(fn.arguments), path: at });
    });
  };

  walkDepthFirst(roots, { agent: undefined, tools: undefined } as Context, (span, c) => visit(span, c.agent, c.tools));
  flush();

  // Ended normally: every root span ended without error, and the last model response was not cut short.
  const endedNormally =
    roots.length > 0 &&
    roots.every((r) => Number.isFinite(r.end) && !isRecord(r.value.error)) &&
    (state.finish === undefined || state.finish === "stop" || state.finish === "tool_calls");
  b.finish(endedNormally);
  return b;
}

function requireName(value: unknown, path: string): string {
  if (typeof value === "string" && value !== "") return value;
  throw new ImportError(path, value === undefined || value === null ? "missing name" : "name must be a non-empty string");
}

function functionName(span: Span): string {
  return requireName(span.data.name, `${span.path}.span_data`);
}
