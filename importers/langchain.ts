/**
 * LangChain / LangGraph messages and LangSmith run trees (IMPORTERS.md,
 * `--from langchain`).
 *
 * Messages, in any of the forms LangChain writes them:
 * - stored: `mapChatMessagesToStoredMessages` / Python `messages_to_dict`:
 *   `{type: "human" | "ai" | "system" | "tool" | "function" | "chat", data: {content, tool_calls?, …}}`;
 *   older stored AI messages carry their calls only in
 *   `data.additional_kwargs.tool_calls` (OpenAI's shape);
 * - `lc`-serialized (`JSON.stringify(message)`, Python `dumpd`):
 *   `{lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs: {…}}`;
 * - plain dicts (`message.model_dump()`, the LangGraph API's thread state):
 *   `{type: "ai", content, tool_calls, …}`.
 * A file holds one conversation (a list of messages, or a graph state
 * `{messages}` / `{values: {messages}}`) or a list of conversations.
 * `ai` messages' `tool_calls` (`{name, args, id}`) and `invalid_tool_calls`
 * are paired with `tool` messages on `tool_call_id`; a tool message with
 * `status: "error"` is a failed call. When an `ai` message's `name` (the
 * agent that wrote it in a LangGraph multi-agent graph) differs from the
 * previous one, a `handoff` event comes first.
 *
 * Run trees: a LangSmith / LangChain `Run` (`{run_type, name, inputs,
 * outputs, error, start_time, end_time, child_runs}`), a list of root runs
 * (several traces), or a flat list of runs linked by `parent_run_id`. Runs are
 * walked depth-first, children by start time, ties by file order. `llm` runs
 * give the conversation (new user messages from `inputs.messages`, the reply
 * from `outputs.generations`); `tool` runs run the calls (arguments in
 * `inputs`, older `inputs.input`; result in `outputs.output`, a ToolMessage or
 * a value; `error` marks a failure). A tool run's result is placed once time
 * has passed its end, so parallel results follow in the order they finished.
 *
 * Facts in metadata: `@agent` (an `ai` message's `name`), `@call_id`,
 * `@item_id` (the message id), `@span_id` (the tool run's id), `@model`.
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
import { CallIndex, MinHeap, SeenTexts, cycleWarning, spanForest, timeOf, walkDepthFirst } from "./spans.js";

type Kind = "human" | "ai" | "system" | "tool" | "function" | "chat" | "remove";

interface Call {
  id: string | undefined;
  name: string;
  args: string;
}

interface Message {
  kind: Kind;
  text: string;
  calls: Call[];
  toolCallId: string | undefined;
  name: string | undefined;
  id: string | undefined;
  error: boolean;
  finish: string | undefined;
  model: string | undefined;
  role: string | undefined;
}

// Maps, not plain objects: a `type` or class name such as `constructor` or `toString` is no kind (issue 20 item 17).
const CLASS_KIND = new Map<string, Kind>([
  ["HumanMessage", "human"],
  ["HumanMessageChunk", "human"],
  ["AIMessage", "ai"],
  ["AIMessageChunk", "ai"],
  ["SystemMessage", "system"],
  ["SystemMessageChunk", "system"],
  ["ToolMessage", "tool"],
  ["ToolMessageChunk", "tool"],
  ["FunctionMessage", "function"],
  ["FunctionMessageChunk", "function"],
  ["ChatMessage", "chat"],
  ["ChatMessageChunk", "chat"],
  ["RemoveMessage", "remove"],
]);
const TYPE_KIND = new Map<string, Kind>([
  ["human", "human"],
  ["user", "human"],
  ["ai", "ai"],
  ["assistant", "ai"],
  ["AIMessageChunk", "ai"],
  ["system", "system"],
  ["developer", "system"],
  ["tool", "tool"],
  ["function", "function"],
  ["chat", "chat"],
  ["remove", "remove"],
]);

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The fields of a message in any of its forms, or undefined when it is not a LangChain message. */
function messageFields(value: unknown): { kind: Kind; fields: Record<string, unknown> } | undefined {
  if (!isRecord(value)) return undefined;
  if (value.lc === 1 && value.type === "constructor" && Array.isArray(value.id)) {
    const kind = CLASS_KIND.get(String(value.id[value.id.length - 1]));
    return kind === undefined ? undefined : { kind, fields: isRecord(value.kwargs) ? value.kwargs : {} };
  }
  const kind = typeof value.type === "string" ? TYPE_KIND.get(value.type) : undefined;
  if (kind !== undefined && isRecord(value.data)) return { kind, fields: value.data };
  if (kind !== undefined && "content" in value) return { kind, fields: value };
  return undefined;
}

function isMessage(value: unknown): boolean {
  return messageFields(value) !== undefined;
}

function isRun(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && typeof value.run_type === "string" && ("inputs" in value || "child_runs" in value);
}

/** Cheap shape test for auto-detection. */
export function detectLangChain(input: unknown): boolean {
  if (isRun(input)) return true;
  if (isRecord(input)) {
    // A Gemini CLI session record is {sessionId, projectHash, messages}; its user-only messages look like {type, content}.
    if (typeof input.sessionId === "string" && typeof input.projectHash === "string") return false;
    const messages = isRecord(input.values) ? input.values.messages : input.messages;
    return Array.isArray(messages) && messages.length > 0 && messages.every(isMessage);
  }
  if (!Array.isArray(input) || input.length === 0) return false;
  const first = input[0];
  if (Array.isArray(first) || (isRecord(first) && "messages" in first)) return detectLangChain(first);
  return isRun(first) || input.every(isMessage);
}

function readMessage(value: unknown, path: string): Message {
  checkNesting(value, path);
  const found = messageFields(value);
  if (found === undefined) {
    throw new ImportError(
      path,
      isRecord(value)
        ? "not a LangChain message (expected {type, data}, an lc-serialized message, or {type, content})"
        : "must be an object",
    );
  }
  const f = found.fields;
  const meta = isRecord(f.response_metadata) ? f.response_metadata : {};
  const kwargsCalls = isRecord(f.additional_kwargs) && Array.isArray(f.additional_kwargs.tool_calls) ? f.additional_kwargs.tool_calls : [];
  // The arguments exactly as the model wrote them, when the provider kept them (OpenAI's additional_kwargs).
  const written = new Map<string, string>();
  for (const c of kwargsCalls)
    if (isRecord(c) && typeof c.id === "string" && isRecord(c.function) && typeof c.function.arguments === "string")
      written.set(c.id, c.function.arguments);
  const calls: Call[] = [];
  if (found.kind === "ai") {
    const listed = Array.isArray(f.tool_calls) ? f.tool_calls : undefined;
    if (f.tool_calls !== undefined && f.tool_calls !== null && listed === undefined)
      throw new ImportError(`${path}.tool_calls`, "must be a list");
    if (listed !== undefined) {
      listed.forEach((c, i) => {
        if (!isRecord(c)) throw new ImportError(`${path}.tool_calls[${i}]`, "must be an object");
        const name = str(c.name);
        if (name === undefined) throw new ImportError(`${path}.tool_calls[${i}]`, "missing name");
        const id = str(c.id);
        calls.push({ id, name, args: (id !== undefined ? written.get(id) : undefined) ?? jsonText(c.args ?? {}) });
      });
    } else {
      // Older stored messages: the calls only in OpenAI's shape.
      kwargsCalls.forEach((c, i) => {
        const fn = isRecord(c) ? c.function : undefined;
        if (!isRecord(fn)) throw new ImportError(`${path}.additional_kwargs.tool_calls[${i}]`, "missing function");
        const name = str(fn.name);
        if (name === undefined) throw new ImportError(`${path}.additional_kwargs.tool_calls[${i}].function`, "missing name");
        calls.push({ id: isRecord(c) ? str(c.id) : undefined, name, args: jsonText(fn.arguments) });
      });
    }
    // Calls the model wrote but the parser could not read still happened: their text is kept as written.
    if (Array.isArray(f.invalid_tool_calls)) {
      for (const c of f.invalid_tool_calls)
        if (isRecord(c) && str(c.name) !== undefined) calls.push({ id: str(c.id), name: str(c.name)!, args: jsonText(c.args) });
    }
  }
  return {
    kind: found.kind,
    text: contentText(f.content),
    calls,
    toolCallId: str(f.tool_call_id),
    name: str(f.name),
    id: str(f.id),
    error: f.status === "error",
    finish: str(meta.finish_reason) ?? str(meta.stop_reason),
    model: str(meta.model_name) ?? str(meta.model),
    role: str(f.role),
  };
}

const CUT_SHORT = new Set(["length", "max_tokens", "content_filter"]);

/** Writes one message into the trajectory; `state` carries the agent in charge across messages. */
function addMessage(b: TrajectoryBuilder, m: Message, state: { agent: string | undefined }, path: string): void {
  const facts = (): Record<string, string> => (m.id === undefined ? {} : { [FACT.itemId]: m.id });
  switch (m.kind) {
    case "human":
      b.user(m.text, facts());
      return;
    case "chat":
      if (m.role === "user" || m.role === "human") b.user(m.text, facts());
      else if (m.role === "assistant" || m.role === "ai") b.agentMessage(m.text, facts());
      return;
    case "ai": {
      if (m.name !== undefined && state.agent !== undefined && m.name !== state.agent)
        b.handoff(state.agent, m.name, { [FACT.agent]: state.agent });
      if (m.name !== undefined) state.agent = m.name;
      b.turn();
      const extra = (): Record<string, string> => {
        const out = facts();
        if (m.name !== undefined) out[FACT.agent] = m.name;
        if (m.model !== undefined) out[FACT.model] = m.model;
        return out;
      };
      if (m.text !== "") b.agentMessage(m.text, extra());
      for (const c of m.calls) {
        const meta = extra();
        delete meta[FACT.model];
        b.call(c.name, c.args, c.id, meta, path);
      }
      return;
    }
    case "tool":
      b.result(m.toolCallId, m.text, { name: m.name, error: m.error, meta: facts(), path });
      return;
    case "function":
      // Legacy OpenAI function calling: no call id; the result names its function.
      b.result(undefined, m.text, { name: m.name, meta: facts(), path });
      return;
    default:
      // system prompts and RemoveMessage markers are not conversation events.
      return;
  }
}

function isUserMessage(m: Message): boolean {
  return m.kind === "human" || (m.kind === "chat" && (m.role === "user" || m.role === "human"));
}

function importMessages(list: unknown[], basePath: string, options: ImportOptions, index: number, count: number): TrajectoryBuilder {
  const b = new TrajectoryBuilder(traceId(options, undefined, index, count), options);
  const state = { agent: undefined as string | undefined };
  let last: Message | undefined;
  list.forEach((value, i) => {
    const path = `${basePath}[${i}]`;
    const m = readMessage(value, path);
    addMessage(b, m, state, path);
    if (m.kind !== "system" && m.kind !== "remove" && !isUserMessage(m)) last = m;
  });
  // Ended normally: the agent spoke last (a user's word after it leaves nothing pending), and its reply was not cut short.
  b.finish(last !== undefined && last.kind === "ai" && (last.finish === undefined || !CUT_SHORT.has(last.finish)));
  return b;
}

interface Run {
  value: Record<string, unknown>;
  id: string | undefined;
  path: string;
  index: number;
  start: number;
  end: number;
  children: Run[];
}

/**
 * A run and its nested `child_runs`, numbered depth first in file order.
 * Iterative, so a tree nested 5,000 deep reads the same on any thread's
 * stack; a run object met twice (a live tree that contains itself) is an
 * error, not an endless walk.
 */
function toRun(value: Record<string, unknown>, path: string, counter: { n: number }): Run {
  const seen = new Set<Record<string, unknown>>();
  let root: Run | undefined;
  // Each frame is made when popped, so indexes follow depth-first order and children keep list order.
  const stack: { value: Record<string, unknown>; path: string; parent: Run | undefined }[] = [{ value, path, parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (seen.has(frame.value)) throw new ImportError(frame.path, "is a run that contains itself (a cycle of child_runs)");
    seen.add(frame.value);
    const v = frame.value;
    const run: Run = {
      value: v,
      id: str(v.id),
      path: frame.path,
      index: counter.n++,
      start: timeOf(v.start_time),
      end: timeOf(v.end_time),
      children: [],
    };
    if (frame.parent === undefined) root = run;
    else frame.parent.children.push(run);
    if (v.child_runs === undefined || v.child_runs === null) continue;
    if (!Array.isArray(v.child_runs)) throw new ImportError(`${frame.path}.child_runs`, "must be a list");
    for (let i = v.child_runs.length - 1; i >= 0; i--) {
      const child: unknown = v.child_runs[i];
      const at = `${frame.path}.child_runs[${i}]`;
      if (!isRecord(child)) throw new ImportError(at, "must be an object");
      stack.push({ value: child, path: at, parent: run });
    }
  }
  return root!;
}

const byStart = (x: Run, y: Run): number => x.start - y.start || x.index - y.index;

/** The messages of an llm run's input: chat models get `[[...messages]]`, a graph node `{messages}`. */
function runInputMessages(inputs: unknown): unknown[] {
  if (!isRecord(inputs)) return [];
  const messages = inputs.messages;
  if (Array.isArray(messages)) return Array.isArray(messages[0]) ? (messages[0] as unknown[]) : messages;
  return [];
}

function importRunTree(root: Run, options: ImportOptions, index: number, count: number): TrajectoryBuilder {
  const b = new TrajectoryBuilder(traceId(options, root.value.trace_id ?? root.id, index, count), options);
  b.description = str(root.value.name) ?? "";
  const users = new SeenTexts();
  const state = { agent: undefined as string | undefined };
  // Indexed calls and a heap of waiting results keep a tree of 100,000 overlapping tool runs linear.
  const calls = new CallIndex<{ id: string | undefined; name: string; args: string; covered: boolean }>((c) => !c.covered);
  const deferred = new MinHeap<{
    callId: string | undefined;
    name: string;
    content: unknown;
    error: boolean;
    meta: Record<string, string>;
    end: number;
    index: number;
    path: string;
  }>((x, y) => x.end < y.end || (x.end === y.end && x.index < y.index));
  let finish: string | undefined;

  const flushUntil = (time: number): void => {
    while (deferred.size > 0 && deferred.peek()!.end <= time) {
      const p = deferred.pop()!;
      b.result(p.callId, p.content, { name: p.name, error: p.error, meta: p.meta, path: p.path });
    }
  };

  const visit = (run: Run): void => {
    flushUntil(run.start);
    const v = run.value;
    // Each run's own fields count against the nesting limit; its child_runs are a tree walked without recursion.
    for (const [key, field] of Object.entries(v)) if (key !== "child_runs") checkNesting(field, `${run.path}.${key}`);
    if (v.run_type === "llm") {
      const inputs = runInputMessages(v.inputs);
      const human = inputs.map((m, i) => ({
        m: messageFields(m) === undefined ? undefined : readMessage(m, `${run.path}.inputs.messages[${i}]`),
      }));
      for (const text of users.fresh(human.filter((h) => h.m?.kind === "human").map((h) => h.m!.text))) b.user(text);
      const outputs = isRecord(v.outputs) ? v.outputs : {};
      const generations = Array.isArray(outputs.generations) ? outputs.generations : [];
      const first = Array.isArray(generations[0]) ? generations[0][0] : generations[0];
      if (isRecord(first)) {
        const path = `${run.path}.outputs.generations[0][0]`;
        const reply = first.message !== undefined ? readMessage(first.message, `${path}.message`) : undefined;
        if (reply !== undefined) {
          addMessage(b, reply, state, `${path}.message`);
          for (const c of reply.calls) calls.add({ ...c, covered: false });
          finish = reply.finish ?? finish;
        } else if (typeof first.text === "string" && first.text !== "") {
          b.turn();
          b.agentMessage(first.text);
        }
        const info = isRecord(first.generation_info) ? first.generation_info : {};
        finish = str(info.finish_reason) ?? finish;
      }
    } else if (v.run_type === "tool") {
      const name = str(v.name);
      if (name === undefined) throw new ImportError(run.path, "missing name");
      const inputs = v.inputs;
      const args =
        isRecord(inputs) && typeof inputs.input === "string" && Object.keys(inputs).length === 1 ? inputs.input : jsonText(inputs ?? {});
      const outputs = isRecord(v.outputs) ? v.outputs : undefined;
      const output = outputs !== undefined && "output" in outputs ? outputs.output : outputs;
      const toolMessage = messageFields(output)?.kind === "tool" ? readMessage(output, `${run.path}.outputs.output`) : undefined;
      const callId =
        toolMessage?.toolCallId ?? (isRecord(v.extra) && isRecord(v.extra.metadata) ? str(v.extra.metadata.tool_call_id) : undefined);
      const call = callId !== undefined ? calls.byId(callId) : calls.byName(name, args);
      if (call !== undefined) call.covered = true;
      else b.call(name, args, callId, state.agent === undefined ? {} : { [FACT.agent]: state.agent }, `${run.path}.inputs`);
      const failedRun = typeof v.error === "string" && v.error !== "";
      // LangSmith writes a failed run's error as the message, a blank line, then the stack: keep the message.
      const content =
        toolMessage !== undefined ? toolMessage.text : output !== undefined ? output : failedRun ? String(v.error).split("\n\n")[0] : "";
      const meta: Record<string, string> = run.id === undefined ? {} : { [FACT.spanId]: run.id };
      if (state.agent !== undefined) meta[FACT.agent] = state.agent;
      deferred.push({
        callId: call?.id ?? callId,
        name,
        content,
        error: failedRun || toolMessage?.error === true,
        meta,
        end: run.end,
        index: run.index,
        path: run.path,
      });
      // What a tool runs inside (a nested agent) is still walked, but its llm runs are not the user's conversation.
    }
  };
  walkDepthFirst([root], undefined, (run) => visit(run));
  flushUntil(Number.POSITIVE_INFINITY);
  const endedNormally =
    Number.isFinite(root.end) &&
    !(typeof root.value.error === "string" && root.value.error !== "") &&
    (finish === undefined || !CUT_SHORT.has(finish));
  b.finish(endedNormally);
  return b;
}

/**
 * Root runs of a list: nested trees as they are, or a flat list rebuilt from
 * `parent_run_id` (spanForest: parent cycles are broken, never dropped; a run
 * cut from a cycle goes under the root of its `trace_id` when the list has
 * it, else it is a root of its own). Roots keep file order.
 */
function rootRuns(
  values: unknown[],
  basePath: string,
): { roots: Run[]; errors: ImportResult["errors"]; warnings: ImportResult["warnings"] } {
  const errors: ImportResult["errors"] = [];
  const counter = { n: 0 };
  const runs: Run[] = [];
  values.forEach((value, i) => {
    const path = `${basePath}[${i}]`;
    if (!isRun(value)) return errors.push({ path, message: "not a run (expected {run_type, inputs, …})" });
    try {
      runs.push(toRun(value, path, counter));
    } catch (error) {
      if (error instanceof ImportError) errors.push({ path: error.path, message: error.reason, trace: runs.length });
      else throw error;
    }
  });
  const ids = new Set(runs.map((r) => r.id));
  const rootOfTrace = new Map<string, Run>();
  for (const r of runs) {
    const parent = str(r.value.parent_run_id);
    const traceId = str(r.value.trace_id);
    if (traceId !== undefined && (parent === undefined || parent === r.id || !ids.has(parent)) && !rootOfTrace.has(traceId))
      rootOfTrace.set(traceId, r);
  }
  const cycles: { root: Run; path: string; message: string }[] = [];
  const roots = spanForest(
    runs,
    (r) => r.id,
    (r) => str(r.value.parent_run_id),
    byStart,
    ({ spans: cycle, cut }) => {
      const traceId = str(cut.value.trace_id);
      const host = traceId === undefined ? undefined : rootOfTrace.get(traceId);
      const where = host === undefined ? "as a root (a trace of its own)" : `under the root run of its trace_id, ${host.id ?? host.path}`;
      cycles.push({
        root: host ?? cut,
        path: `${cut.path}.parent_run_id`,
        message: cycleWarning(
          cycle.map((r) => r.id!),
          where,
        ),
      });
      return host;
    },
  ).sort((x, y) => x.index - y.index);
  sortTrees(roots);
  const warnings = cycles.map((c) => ({ path: c.path, message: c.message, trace: roots.indexOf(c.root) }));
  return { roots, errors, warnings };
}

/** Sorts the children of every run under `roots` by start time (iterative: trees may be deep). */
function sortTrees(roots: readonly Run[]): void {
  const stack = [...roots];
  while (stack.length > 0) {
    const run = stack.pop()!;
    run.children.sort(byStart);
    for (const child of run.children) stack.push(child);
  }
}

export function fromLangChain(input: unknown, options: ImportOptions = {}): ImportResult {
  return guard(() => importLangChain(input, options));
}

function importLangChain(input: unknown, options: ImportOptions): ImportResult {
  // A run tree, or a list of runs.
  if (isRun(input) || (Array.isArray(input) && input.length > 0 && isRun(input[0]))) {
    const { roots, errors, warnings } = rootRuns(Array.isArray(input) ? input : [input], "");
    const fixedPaths = Array.isArray(input) ? errors : errors.map((e) => ({ ...e, path: e.path.replace(/^\[0\]\.?/, "") }));
    const result = importEach(roots, (root, i) => importRunTree(root, options, i, roots.length));
    if (!Array.isArray(input)) for (const e of result.errors) e.path = e.path.replace(/^\[0\]\.?/, "");
    result.errors.unshift(...fixedPaths);
    result.warnings.unshift(...warnings);
    return result;
  }
  // One conversation or several.
  const conversation = (value: unknown): unknown[] | undefined => {
    if (Array.isArray(value)) return value;
    if (isRecord(value) && isRecord(value.values) && Array.isArray(value.values.messages)) return value.values.messages;
    if (isRecord(value) && Array.isArray(value.messages)) return value.messages;
    return undefined;
  };
  const pathOf = (value: unknown, base: string): string => {
    if (Array.isArray(value)) return base;
    const inner = isRecord(value) && isRecord(value.values) ? "values.messages" : "messages";
    return base === "" ? inner : `${base}.${inner}`;
  };
  const single = conversation(input);
  if (single === undefined)
    return failed("", "expected LangChain messages (a list, or {messages}), a list of conversations, or a LangSmith run tree");
  const several = Array.isArray(input) && input.length > 0 && input.every((c) => conversation(c) !== undefined && !isMessage(c));
  const units = several
    ? (input as unknown[]).map((c, i) => ({ list: conversation(c)!, path: pathOf(c, `[${i}]`) }))
    : [{ list: single, path: pathOf(input, "") }];
  return importEach(units, (u, i) => importMessages(u.list, u.path, options, i, units.length));
}
