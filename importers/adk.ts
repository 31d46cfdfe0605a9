/**
 * Google ADK sessions and events, and plain Gemini API `contents`
 * (IMPORTERS.md, `--from adk`).
 *
 * ADK (google/adk-python `src/google/adk/events/event.py`, `sessions/session.py`):
 * - a Session `{id, appName, userId, state, events, lastUpdateTime}` (the API
 *   server's JSON, camelCase) or `{id, app_name, user_id, …}` (Python's
 *   `model_dump`, what `adk run --save_session` writes), or a list of them;
 * - a list of Events (a session's `events`, or one Event per JSONL line).
 * An Event is `{invocationId, author, content: {role, parts}, actions,
 * partial, errorCode, errorMessage, finishReason, interrupted, id, timestamp}`,
 * in either spelling; the oldest sessions kept `partial` under `options`.
 * `author` is "user" or the agent that wrote the event (`@agent`). A model
 * event's parts are text, thoughts (reasoning), `functionCall`s (one event
 * holds a turn's parallel calls) and code it ran; a function response event
 * (`content.role: "user"`, authored by the agent) holds the results.
 * `actions.transferToAgent` is a hand-off after its event; an event by a
 * different agent with no transfer before it (a sequential pipeline) is a
 * hand-off too. `partial: true` events are streaming chunks the final event
 * repeats: they are skipped, and a warning says how many.
 *
 * Gemini (`Content` / `Part`): a `contents` list, a request `{contents, …}`,
 * `{request, response}`, a GenerateContentResponse `{candidates}`, or a list
 * of exchanges (one conversation when each request repeats the one before
 * plus its answer).
 *
 * Pairing: Gemini writes function calls without ids (ADK adds `adk-…` ids,
 * but strips them before sending, so logs hold both). A response with the id
 * of a call answers it; otherwise it answers the earliest open call of its
 * name, so several calls of one name are answered in order.
 *
 * complete: the last model response was a final answer (no call, not cut:
 * `finishReason` STOP, no `errorCode`, not `interrupted`) and no call is left
 * without a response. User messages after it do not change that.
 *
 * Facts in metadata: `@agent`, `@call_id`, `@item_id` (the event's id).
 */
import {
  FACT,
  ImportError,
  TrajectoryBuilder,
  checkNesting,
  failed,
  guard,
  importEach,
  isRecord,
  traceId,
  type ImportOptions,
  type ImportResult,
} from "./core.js";
import { partMessage, type Message } from "./payloads.js";

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

const SNAKE = new Map<string, string>();

/** A field in either spelling (`invocationId` / `invocation_id`). */
function field(record: Record<string, unknown>, camel: string): unknown {
  if (Object.hasOwn(record, camel)) return record[camel];
  let snake = SNAKE.get(camel);
  if (snake === undefined) SNAKE.set(camel, (snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
  return Object.hasOwn(record, snake) ? record[snake] : undefined;
}

const PART_KEYS = new Set([
  "text",
  "functionCall",
  "function_call",
  "functionResponse",
  "function_response",
  "inlineData",
  "inline_data",
  "fileData",
  "file_data",
  "executableCode",
  "executable_code",
  "codeExecutionResult",
  "code_execution_result",
  "thought",
  "thoughtSignature",
  "thought_signature",
]);

/** A Gemini `Content`: a role and parts keyed by what they hold (never by a `type`, which the GenAI conventions' parts have). */
function isContent(value: unknown): value is Record<string, unknown> {
  return (
    isRecord(value) &&
    typeof value.role === "string" &&
    Array.isArray(value.parts) &&
    value.parts.every((p) => isRecord(p) && p.type === undefined && Object.keys(p).some((k) => PART_KEYS.has(k)))
  );
}

function isEvent(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value) || typeof value.author !== "string") return false;
  return ["content", "actions", "invocationId", "invocation_id", "partial", "options", "errorCode", "error_code"].some((k) => k in value);
}

/** Mostly events: one bad record must not hide the others (it gets its own located error). */
function isEventList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every(isRecord) && value.filter(isEvent).length * 2 >= value.length;
}

function isSession(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value) || !Array.isArray(value.events)) return false;
  if (value.events.length > 0) return isEventList(value.events);
  return ("appName" in value || "app_name" in value) && ("userId" in value || "user_id" in value);
}

/** Mostly Gemini Contents (a bad item gets its own located error when the list is read). */
function isContents(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && value.filter(isContent).length * 2 >= value.length;
}

function isCandidates(value: unknown): boolean {
  return Array.isArray(value) && value.some((c) => isRecord(c) && isContent(c.content));
}

/** A Gemini request `{contents}`, `{request, response}`, or a GenerateContentResponse `{candidates}`. */
function isExchange(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  if (isContents(value.contents)) return true;
  if (isRecord(value.request) && isContents(value.request.contents)) return true;
  return isCandidates(value.candidates);
}

/** Cheap shape test for auto-detection. */
export function detectAdk(input: unknown): boolean {
  if (isSession(input) || isExchange(input)) return true;
  if (!Array.isArray(input) || input.length === 0) return false;
  if (isEventList(input)) return true;
  // A contents list: only Gemini writes the role "model" or keyed function parts.
  if (isContents(input))
    return input
      .filter(isContent)
      .some(
        (c) =>
          c.role === "model" || (c.parts as Record<string, unknown>[]).some((p) => Object.keys(p).some((k) => k.startsWith("function"))),
      );
  return isSession(input[0]) || isExchange(input[0]);
}

const CUT = new Set(["MAX_TOKENS", "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "MALFORMED_FUNCTION_CALL", "OTHER"]);

/** Writes the results of a function response into the trajectory: by call id when a call had that id, else by name. */
class Calls {
  private readonly ids = new Set<string>();

  call(b: TrajectoryBuilder, c: Message["calls"][number], meta: Record<string, string>, path: string): void {
    b.call(c.name, c.args, c.id, meta, path);
    if (c.id !== undefined) this.ids.add(c.id);
  }

  result(b: TrajectoryBuilder, r: Message["results"][number], meta: Record<string, string>, path: string, inline = false): void {
    const byId = r.id !== undefined && this.ids.has(r.id);
    const facts = { ...meta };
    // The call had no id (Gemini's), the response has one (ADK's): paired by name, the response's id kept.
    if (!byId && r.id !== undefined) facts[FACT.callId] = r.id;
    b.result(byId ? r.id : undefined, r.content, { name: r.name, error: r.error, meta: facts, path, inline });
  }
}

interface Ending {
  /** Whether the last model response was a final answer, not cut short. */
  final: boolean;
}

/**
 * One model response or user turn (a Gemini Content), part by part so the
 * order holds: text around the code the model ran stays before and after it.
 * Each part is read by payloads.ts; consecutive text parts are one message.
 */
function addContent(
  b: TrajectoryBuilder,
  calls: Calls,
  content: Record<string, unknown>,
  path: string,
  meta: () => Record<string, string>,
  ending: Ending,
  cut: boolean,
): void {
  const model = content.role === "model";
  const parts: unknown[] = Array.isArray(content.parts) ? content.parts : [];
  if (model) b.turn();
  let texts: string[] = [];
  const flush = (): void => {
    const text = texts.join("\n");
    texts = [];
    if (text === "") return;
    if (model) b.agentMessage(text, meta());
    else b.user(text, meta());
  };
  let open = 0;
  parts.forEach((part, k) => {
    const msg = partMessage(part, model ? "assistant" : "user");
    if (msg.text !== "") {
      texts.push(msg.text);
      return;
    }
    flush();
    if (msg.reasoning !== "" && model) b.reasoning(msg.reasoning, meta());
    for (const c of msg.calls) {
      calls.call(b, c, meta(), `${path}.parts[${k}]`);
      open++;
    }
    for (const r of msg.results) {
      // A result inside the model's own response answers code it ran there: the response's turn goes on.
      calls.result(b, r, meta(), `${path}.parts[${k}]`, model);
      if (model) open--;
    }
  });
  flush();
  if (model) ending.final = open <= 0 && !cut;
}

function importEvents(
  events: { value: unknown; path: string }[],
  nativeId: unknown,
  description: string | undefined,
  options: ImportOptions,
  index: number,
  count: number,
): TrajectoryBuilder {
  const b = new TrajectoryBuilder(traceId(options, nativeId, index, count), options);
  if (description !== undefined) b.description = description;
  const calls = new Calls();
  const ending: Ending = { final: false };
  let agent: string | undefined;
  let partial = 0;
  for (const { value, path } of events) {
    if (!isRecord(value)) throw new ImportError(path, "must be an event object");
    checkNesting(value, path);
    const options = isRecord(value.options) ? value.options : {};
    if (value.partial === true || options.partial === true) {
      partial++;
      continue;
    }
    const author = str(value.author);
    if (author === undefined)
      throw new ImportError(path, value.author === undefined ? "missing author" : "author must be a non-empty string");
    const content = value.content;
    if (content !== undefined && content !== null && !isRecord(content)) throw new ImportError(`${path}.content`, "must be an object");
    const id = str(value.id);
    if (author !== "user" && agent !== undefined && author !== agent) b.handoff(agent, author, { [FACT.agent]: agent });
    if (author !== "user") agent = author;
    const meta = (): Record<string, string> => {
      const m: Record<string, string> = id === undefined ? {} : { [FACT.itemId]: id };
      if (author !== "user") m[FACT.agent] = author;
      return m;
    };
    const finish = str(field(value, "finishReason"));
    const cut =
      str(field(value, "errorCode")) !== undefined || field(value, "interrupted") === true || (finish !== undefined && CUT.has(finish));
    if (isRecord(content)) {
      // An agent's event with role "model" is its response; with role "user" it carries the tools' responses.
      const asModel = author !== "user" && content.role !== "user";
      addContent(b, calls, { ...content, role: asModel ? "model" : "user" }, `${path}.content`, meta, ending, cut);
    } else if (author !== "user" && cut) ending.final = false;
    const actions = isRecord(value.actions) ? value.actions : {};
    const target = str(field(actions, "transferToAgent"));
    if (target !== undefined && target !== author) {
      b.handoff(author, target, { [FACT.agent]: author });
      agent = target;
    }
  }
  if (partial > 0)
    b.warn(
      "",
      `${partial} partial event${partial === 1 ? "" : "s"} (streaming chunks) skipped: the final event of each response repeats their text`,
    );
  b.finish(ending.final);
  return b;
}

interface Exchange {
  contents: { value: unknown; path: string }[];
  response: Record<string, unknown> | undefined;
  responsePath: string;
  path: string;
}

function join(prefix: string, key: string): string {
  return prefix === "" ? key : `${prefix}.${key}`;
}

function exchangeOf(value: unknown, path: string): Exchange {
  if (Array.isArray(value))
    return { contents: value.map((v, i) => ({ value: v, path: `${path}[${i}]` })), response: undefined, responsePath: "", path };
  if (!isRecord(value))
    throw new ImportError(path, "not a Gemini exchange: expected contents, {contents}, {request, response} or {candidates}");
  const request = isRecord(value.request) ? value.request : value;
  const requestPath = isRecord(value.request) ? join(path, "request") : path;
  const list = Array.isArray(request.contents) ? request.contents : [];
  const response = isRecord(value.response) ? value.response : Array.isArray(value.candidates) ? value : undefined;
  return {
    contents: list.map((v, i) => ({ value: v, path: `${join(requestPath, "contents")}[${i}]` })),
    response,
    responsePath: isRecord(value.response) ? join(path, "response") : path,
    path,
  };
}

/** Exchanges of one loop (each request repeats the conversation so far, plus the last answer) chain into one conversation. */
function chains(exchanges: Exchange[]): Exchange[][] {
  const out: Exchange[][] = [];
  let seen: string[] = [];
  for (const ex of exchanges) {
    const texts = ex.contents.map((c) => JSON.stringify(c.value));
    const continues = out.length > 0 && seen.length > 0 && texts.length > seen.length && seen.every((t, i) => t === texts[i]);
    if (continues) out[out.length - 1]!.push(ex);
    else out.push([ex]);
    seen = [...texts, ...candidateOf(ex).map((c) => JSON.stringify(c.content))];
  }
  return out;
}

function candidateOf(ex: Exchange): { content: Record<string, unknown>; finish: string | undefined; path: string }[] {
  const candidates = ex.response !== undefined && Array.isArray(ex.response.candidates) ? ex.response.candidates : [];
  const first = candidates[0];
  if (!isRecord(first) || !isRecord(first.content)) return [];
  return [{ content: first.content, finish: str(field(first, "finishReason")), path: `${join(ex.responsePath, "candidates")}[0].content` }];
}

function importChain(chain: Exchange[], options: ImportOptions, index: number, count: number): TrajectoryBuilder {
  // Named by the last response's id, as the last call of a loop is the one that holds the whole conversation.
  const last = chain[chain.length - 1]!.response;
  const b = new TrajectoryBuilder(traceId(options, last === undefined ? undefined : field(last, "responseId"), index, count), options);
  const calls = new Calls();
  const ending: Ending = { final: false };
  let taken = 0;
  for (const ex of chain) {
    // A chained request repeats what came before: only its new contents are read.
    for (const c of ex.contents.slice(taken)) {
      if (!isContent(c.value) && !(isRecord(c.value) && typeof c.value.role === "string"))
        throw new ImportError(c.path, "not a Gemini Content (expected {role, parts})");
      checkNesting(c.value, c.path);
      addContent(b, calls, c.value as Record<string, unknown>, c.path, () => ({}), ending, false);
    }
    const answer = candidateOf(ex);
    for (const a of answer) {
      const cut = a.finish !== undefined && CUT.has(a.finish);
      addContent(b, calls, { ...a.content, role: "model" }, a.path, () => ({}), ending, cut);
    }
    taken = ex.contents.length + answer.length;
  }
  b.finish(ending.final);
  return b;
}

export function fromAdk(input: unknown, options: ImportOptions = {}): ImportResult {
  return guard(() => importAdk(input, options));
}

function eventsOf(session: Record<string, unknown>, path: string): { value: unknown; path: string }[] {
  return (session.events as unknown[]).map((value, i) => ({ value, path: `${join(path, "events")}[${i}]` }));
}

function importAdk(input: unknown, options: ImportOptions): ImportResult {
  if (isSession(input)) {
    const events = eventsOf(input, "");
    return importEach([input], (s, i) => importEvents(events, s.id, str(field(s, "appName")), options, i, 1));
  }
  if (isEventList(input)) {
    const events = input.map((value, i) => ({ value, path: `[${i}]` }));
    // Events without their session: the first invocation's id names the trace.
    const invocation = field(input.find(isEvent)!, "invocationId");
    return importEach([events], (e, i) => importEvents(e, invocation, undefined, options, i, 1));
  }
  if (Array.isArray(input) && input.length > 0 && isSession(input[0])) {
    const sessions = input.map((s, i) => ({ s, path: `[${i}]` }));
    return importEach(sessions, ({ s, path }, i) => {
      if (!isSession(s)) throw new ImportError(path, "not an ADK session (expected {id, events: [...]})");
      return importEvents(eventsOf(s, path), s.id, str(field(s, "appName")), options, i, sessions.length);
    });
  }
  let exchanges: Exchange[];
  try {
    if (isExchange(input) || isContents(input)) exchanges = [exchangeOf(input, "")];
    else if (Array.isArray(input) && input.length > 0 && (isExchange(input[0]) || isContents(input[0])))
      exchanges = input.map((v, i) => exchangeOf(v, `[${i}]`));
    else
      return failed(
        "",
        "expected an ADK session ({id, events}), a list of ADK events, or Gemini contents ([{role, parts}], {contents}, {request, response})",
      );
  } catch (error) {
    if (error instanceof ImportError) return failed(error.path, error.reason);
    throw error;
  }
  const list = chains(exchanges);
  return importEach(list, (chain, i) => importChain(chain, options, i, list.length));
}
