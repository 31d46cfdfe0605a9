/**
 * Langfuse trace exports (IMPORTERS.md, `--from langfuse`).
 *
 * Input, as Langfuse writes it (langfuse/langfuse `fern/apis/server/definition/`
 * `trace.yml`, `commons.yml` TraceWithFullDetails / ObservationsView, and the
 * UI's download, `web/src/features/traces/`):
 * - the UI download `{trace, observations}`, or the newer server download
 *   `{observations, scores}` (no trace object);
 * - `GET /api/public/traces/{id}`: the trace with its `observations`;
 * - a list of any of these, or the API's `{data: [...]}` page of them;
 * - a flat list of observations (`GET /api/public/v2/observations`, bare or
 *   as `{data: [...]}`), one trajectory per `traceId`.
 * A page of `GET /api/public/traces` lists observation ids only: that is a
 * located error saying to fetch each trace.
 *
 * Observations are not stored in time order: they are linked by
 * `parentObservationId` and walked depth first, siblings by `startTime`,
 * ties by file order. Input, output and metadata may be JSON text (even
 * JSON text of JSON text); they are decoded.
 *
 * Two kinds of observation:
 * - OpenTelemetry spans Langfuse ingested (`metadata.scope.name` is an
 *   instrumentation scope other than Langfuse's own `langfuse-sdk`):
 *   `metadata.attributes` holds the span's attributes (Langfuse moves the
 *   message attributes into `input` / `output`), so otel.ts decides what the
 *   span is (agent, model call, tool), the agent's and tool's names, the call
 *   id, the model and the finish reason, exactly as for an OTLP export;
 * - observations of Langfuse's SDKs and integrations: GENERATION is a model
 *   call, TOOL a tool run, AGENT an agent, GUARDRAIL a guardrail; a SPAN whose
 *   output is a LangChain ToolMessage is a tool run (older LangChain
 *   handlers logged tools as spans).
 * A model call's input and output are read by payloads.ts (OpenAI chat and
 * Responses, Anthropic, LangChain, AI SDK, GenAI parts, Gemini contents). The
 * walk then follows otel.ts: new user messages from each call's input (not
 * inside a tool: an agent used as a tool is not talking to the user), the
 * reply and its calls from its output, a tool run's result placed once time
 * has passed its end, a call no tool run answered taking its result from a
 * later call's input, and a `handoff` when the agent in charge changes.
 *
 * complete: every observation ended (an `endTime`), no root observation and
 * not the last model call at level ERROR, the last finish reason not a cut
 * (`length`, `max_tokens`, …), and no call left without a result.
 *
 * Facts in metadata: `@agent`, `@model`, `@call_id`, `@span_id` (the tool
 * run's observation id).
 */
import {
  FACT,
  ImportError,
  TrajectoryBuilder,
  failed,
  guard,
  importEach,
  isRecord,
  traceId as trajectoryId,
  type ImportOptions,
  type ImportResult,
} from "./core.js";
import { readPayload } from "./payloads.js";
import { CUT_SHORT, agentName } from "./otel.js";
import { isOutputTool } from "./pydantic-ai.js";
import { CallIndex, MinHeap, SeenTexts, cycleWarning, spanForest, walkDepthFirst } from "./spans.js";
import { readModelCall, readObservation, readToolRun, roleOf, type Observation, type Tool } from "./langfuse-observations.js";

interface Unit {
  nativeId: unknown;
  name: string | undefined;
  trace: Record<string, unknown> | undefined;
  observations: { value: unknown; path: string }[];
  /** An error that fails this trace (bad observations list). */
  error?: ImportError;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function join(prefix: string, key: string): string {
  return prefix === "" ? key : `${prefix}.${key}`;
}

/** An observation as Langfuse writes it: an id, an upper-case type, a start time. */
function isObservation(value: unknown): value is Record<string, unknown> {
  return (
    isRecord(value) &&
    typeof value.id === "string" &&
    typeof value.type === "string" &&
    /^[A-Z_]+$/.test(value.type) &&
    "startTime" in value
  );
}

/** A trace export: `{trace, observations}`, `{observations, scores}`, or a trace with its observations. */
function isTraceExport(value: unknown): boolean {
  if (!isRecord(value) || !Array.isArray(value.observations)) return false;
  if (isRecord(value.trace)) return true;
  if (typeof value.id === "string" && ("timestamp" in value || "htmlPath" in value || "projectId" in value)) return true;
  return value.observations.length > 0 && value.observations.every(isObservation);
}

/** Cheap shape test for auto-detection. */
export function detectLangfuse(input: unknown): boolean {
  const list = Array.isArray(input) ? input : isRecord(input) && Array.isArray(input.data) && !("object" in input) ? input.data : undefined;
  const sample = list === undefined ? input : list[0];
  return isTraceExport(sample) || (list !== undefined && isObservation(sample));
}

/** The traces of one export value found at `path`. */
function unitsOf(value: unknown, path: string): Unit[] {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isObservation)) return byTraceId(value, path);
    return value.flatMap((v, i) => unitsOf(v, `${path}[${i}]`));
  }
  if (isRecord(value) && Array.isArray(value.data) && !isTraceExport(value)) return unitsOf(value.data, join(path, "data"));
  if (!isRecord(value) || !Array.isArray(value.observations)) {
    const error = new ImportError(
      path,
      "not a Langfuse trace export: expected {trace, observations}, a trace with its observations, or a list of them",
    );
    return [{ nativeId: undefined, name: undefined, trace: undefined, observations: [], error }];
  }
  const trace = isRecord(value.trace) ? value.trace : "id" in value ? value : undefined;
  const list = value.observations;
  const unit: Unit = {
    nativeId: trace?.id ?? (isRecord(list[0]) ? list[0].traceId : undefined),
    name: str(trace?.name),
    trace,
    observations: list.map((v, i) => ({ value: v, path: join(path, `observations[${i}]`) })),
  };
  if (list.length > 0 && list.every((o) => typeof o === "string"))
    unit.error = new ImportError(
      join(path, "observations"),
      "holds observation ids only (a page of GET /api/public/traces): fetch each trace with GET /api/public/traces/{id}, or download it from the Langfuse UI",
    );
  return [unit];
}

/** Observations of several traces in one list (the v2 observations API): grouped by traceId, in order of first appearance. */
function byTraceId(list: unknown[], path: string): Unit[] {
  const units = new Map<string, Unit>();
  list.forEach((o, i) => {
    const id = isRecord(o) && typeof o.traceId === "string" ? o.traceId : "";
    let unit = units.get(id);
    if (unit === undefined) {
      unit = { nativeId: id === "" ? undefined : id, name: undefined, trace: undefined, observations: [] };
      units.set(id, unit);
    }
    unit.observations.push({ value: o, path: `${path}[${i}]` });
  });
  return [...units.values()];
}

const byStart = (x: Observation, y: Observation): number => x.start - y.start || x.index - y.index;

function cutShort(finish: string | undefined): boolean {
  return (
    finish !== undefined &&
    (CUT_SHORT.has(finish) || ["max_tokens", "safety", "recitation", "incomplete", "failed"].includes(finish.toLowerCase()))
  );
}

function importUnit(unit: Unit, options: ImportOptions, index: number, count: number): TrajectoryBuilder {
  if (unit.error !== undefined) throw unit.error;
  const b = new TrajectoryBuilder(trajectoryId(options, unit.nativeId, index, count), options);
  if (unit.name !== undefined) b.description = unit.name;
  const observations = unit.observations.map((o, i) => readObservation(o.value, o.path, i));
  const roots = spanForest(
    observations,
    (o) => o.id,
    (o) => o.parentId,
    byStart,
    ({ spans: cycle, cut }) => {
      b.warn(
        join(cut.path, "parentObservationId"),
        cycleWarning(
          cycle.map((o) => o.id),
          "as a root",
        ),
      );
      return undefined;
    },
  );
  if (unit.name === undefined && roots[0]?.name !== undefined) b.description = roots[0].name;

  const deferred = new MinHeap<{
    tool: Tool;
    callId: string | undefined;
    meta: Record<string, string>;
    end: number;
    index: number;
    path: string;
  }>((x, y) => x.end < y.end || (x.end === y.end && x.index < y.index));
  type Call = { id: string | undefined; name: string; args: string; covered: boolean; answered: boolean };
  const open = (c: Call): boolean => !c.covered && !c.answered;
  const calls = new CallIndex<Call>(open);
  // Gemini's calls often carry no id while its tool runs do: such a run pairs by name with a call that had none.
  const idless = new CallIndex<Call>(open);
  const users = new SeenTexts();
  let finish: string | undefined;
  let lastModelFailed = false;
  let lastAgent: string | undefined;
  let missingIO = 0;

  const flushUntil = (time: number): void => {
    while (deferred.size > 0 && deferred.peek()!.end <= time) {
      const p = deferred.pop()!;
      b.result(p.callId, p.tool.content, { name: p.tool.name, error: p.tool.error, meta: p.meta, path: p.path });
    }
  };
  const meta = (agent: string | undefined, extra: Record<string, string> = {}): Record<string, string> => {
    if (agent !== undefined) extra[FACT.agent] = agent;
    return extra;
  };

  const model = (o: Observation, agent: string | undefined, nested: boolean): void => {
    lastModelFailed = o.error;
    const m = readModelCall(o, (path, message) => b.warn(path, message));
    b.turn();
    for (const msg of m.input)
      for (const r of msg.results) {
        // A result the model was sent, for a call no tool run answered: it had arrived by now.
        const call = r.id !== undefined ? calls.byId(r.id) : r.name !== undefined ? idless.byName(r.name, "") : undefined;
        if (call === undefined) continue;
        call.answered = true;
        b.result(call.id, r.content, { name: call.name, error: r.error, meta: meta(agent), path: join(o.path, "input") });
      }
    if (!nested)
      for (const text of users.fresh(m.input.filter((msg) => msg.role === "user").map((msg) => msg.text))) if (text !== "") b.user(text);
    const facts = meta(agent, m.model === undefined ? {} : { [FACT.model]: m.model });
    for (const out of m.output) {
      if (out.reasoning !== "") b.reasoning(out.reasoning, { ...facts });
      if (out.text !== "") b.agentMessage(out.text, { ...facts });
      for (const c of out.calls) {
        b.call(c.name, c.args, c.id, meta(agent), join(o.path, "output"));
        const call: Call = { ...c, covered: false, answered: false };
        calls.add(call);
        if (c.id === undefined) idless.add(call);
      }
      // A provider-side tool's result comes in the same response (Responses' web search, Anthropic's server tools).
      for (const r of out.results)
        b.result(r.id, r.content, { name: r.name, error: r.error, meta: meta(agent), path: join(o.path, "output"), inline: true });
    }
    if (m.finish !== undefined) finish = m.finish;
  };

  const tool = (o: Observation, agent: string | undefined): void => {
    const t = readToolRun(o);
    // The model's call this run answered: same call id (else an id-less call of that name), else same name and arguments, else same name.
    const call = t.callId !== undefined ? (calls.byId(t.callId) ?? idless.byName(t.name, t.args)) : calls.byName(t.name, t.args);
    if (call !== undefined) call.covered = true;
    else b.call(t.name, t.args, t.callId, meta(agent), join(o.path, "input"));
    // A run still going when the trace was exported (no endTime, nothing out yet) has no result: its call stays open.
    if (!o.ended && !t.error && (t.content === "" || t.content === null)) return;
    // Paired by name with a call that had no id: the builder pairs it the same way, and the run's own id is kept as a fact.
    const byName = call !== undefined && call.id === undefined;
    const facts = meta(agent, { [FACT.spanId]: o.id });
    if (byName && t.callId !== undefined) facts[FACT.callId] = t.callId;
    deferred.push({
      tool: t,
      callId: byName ? undefined : (call?.id ?? t.callId),
      meta: facts,
      end: o.end,
      index: o.index,
      path: o.path,
    });
  };

  type Context = { agent: string | undefined; nested: boolean; inModel: boolean };
  const visit = (o: Observation, { agent, nested, inModel }: Context): Context => {
    flushUntil(o.start);
    const role = roleOf(o);
    // Two instrumentations of one call (an OpenInference span with the Langfuse OpenAI wrapper's generation inside): the outer one speaks for both.
    if (role === "model" && inModel) return { agent, nested, inModel };
    if (!o.hasIO && (role === "model" || role === "tool")) missingIO++;
    switch (role) {
      case "agent": {
        const name = o.span !== undefined ? agentName(o.span) : o.name;
        const from = agent ?? lastAgent;
        if (name !== undefined && from !== undefined && name !== from) b.handoff(from, name, meta(from, { [FACT.spanId]: o.id }));
        if (name !== undefined) {
          agent = name;
          if (!nested) lastAgent = name;
        }
        break;
      }
      case "model":
        model(o, agent, nested);
        inModel = true;
        break;
      case "tool":
        tool(o, agent);
        nested = true;
        break;
      case "guardrail":
        // Langfuse has no field for a guardrail's verdict; the level is what the integrations set when one trips.
        b.guardrail(o.name ?? "guardrail", o.level === "ERROR" || o.level === "WARNING", meta(agent, { [FACT.spanId]: o.id }));
        break;
      default:
        break;
    }
    return { agent, nested, inModel };
  };

  const trace = unit.trace;
  const noModel = observations.every((o) => roleOf(o) !== "model");
  if (noModel && trace !== undefined) {
    // No model call was exported: the trace's own input is what the user asked.
    for (const msg of readPayload(trace.input, "input").messages) if (msg.role === "user" && msg.text !== "") b.user(msg.text);
  }
  walkDepthFirst(roots, { agent: undefined, nested: false, inModel: false } as Context, visit);
  flushUntil(Number.POSITIVE_INFINITY);
  if (noModel && trace !== undefined)
    for (const msg of readPayload(trace.output, "output").messages) if (msg.text !== "") b.agentMessage(msg.text);
  if (missingIO > 0)
    b.warn(
      "observations",
      `${missingIO} model and tool observation${missingIO === 1 ? " has" : "s have"} no input or output in this export (Langfuse leaves them out of downloads of very large traces): their messages, arguments and results are missing`,
    );
  const endedNormally =
    (observations.length > 0 || trace?.output !== undefined) &&
    observations.every((o) => o.ended) &&
    roots.every((r) => !r.error) &&
    !lastModelFailed &&
    !cutShort(finish);
  // Pydantic AI answers through its output tool: the final_result call is the answer, and no tool run follows it.
  b.closeWithoutResult(isOutputTool);
  b.finish(endedNormally);
  return b;
}

export function fromLangfuse(input: unknown, options: ImportOptions = {}): ImportResult {
  return guard(() => importExport(input, options));
}

function importExport(input: unknown, options: ImportOptions): ImportResult {
  if (!detectLangfuse(input) && !(isRecord(input) && Array.isArray(input.observations)))
    return failed(
      "",
      "expected a Langfuse trace export: {trace, observations}, a trace with its observations (GET /api/public/traces/{id}), or a list of them",
    );
  const units = unitsOf(input, "");
  return importEach(units, (u, i) => importUnit(u, options, i, units.length));
}
