/**
 * Shared pieces of every importer (IMPORTERS.md). This folder is the library
 * entry `behavior-judge/importers`: it runs in Node, Deno, Bun, browsers and
 * edge runtimes, so it imports nothing but types (no packages, no `node:`).
 */
import type { Actor, Trajectory, TrajectoryEvent } from "../runtime/types.js";

export type { Actor, Trajectory, TrajectoryEvent };

/** A problem located in the input: `path` like `messages[7].tool_calls[0].function`; `trace` is the 0-based trace index in the input. */
export interface ImportIssue {
  path: string;
  message: string;
  trace?: number;
}

/** Bad input inside one trace; the importer records it with the trace index and goes on with the next trace. */
export class ImportError extends Error {
  readonly path: string;
  /** The message without the path. */
  readonly reason: string;
  constructor(path: string, message: string) {
    super(path === "" ? message : `${path}: ${message}`);
    this.name = "ImportError";
    this.path = path;
    this.reason = message;
  }
}

export interface ImportOptions {
  /** Trajectory id (default: the native id, else `defaultId`, else `trace-<n>`, 1-based); with several traces, `<id>-<n>`. */
  id?: string | undefined;
  /** The id of a trace without a native one (the CLI passes the file's name); with several traces, `<defaultId>-<n>`. */
  defaultId?: string | undefined;
  /** Overrides the detected completeness (`--complete true|false`). */
  complete?: boolean | undefined;
  /** Keep reasoning as `agent` / `reasoning` events (default: dropped). */
  reasoning?: boolean | undefined;
}

export interface ImportResult {
  trajectories: Trajectory[];
  errors: ImportIssue[];
  warnings: ImportIssue[];
}

/** Per-format entry points all have this shape. */
export type Importer = (input: unknown, options?: ImportOptions) => ImportResult;

/**
 * The importer's own facts use these reserved metadata keys. They start with
 * "@", and flattened fields that start with "@" are written "@@…", so a tool
 * argument can never overwrite a fact or pass for one.
 */
export const FACT = {
  /** 1-based number of the turn: a user message, or one model response with the results of its calls. */
  turn: "@turn",
  /** The native tool call id (`tool_call_id`, `call_id`, `tool_use_id`, `toolCallId`). */
  callId: "@call_id",
  /** The agent's name in a multi-agent trace. */
  agent: "@agent",
  spanId: "@span_id",
  traceId: "@trace_id",
  model: "@model",
  /** The native id of the message, item or step the event came from. */
  itemId: "@item_id",
  /** "true" on an agent message that is a refusal. */
  refusal: "@refusal",
  /** The server that ran a provider-side tool (an MCP server label, or "provider" for built-in tools such as web search). */
  server: "@server",
  /** "true" on the events of a message the store keeps in a redacted form too (a Strands session's `redact_message`); the events hold the original. */
  redacted: "@redacted",
  /** "true" on a message the agent framework sent the model to ask it to try again (Pydantic AI's retry-prompt with no tool). */
  retry: "@retry",
  /** The exit code a shell-like tool reported (codex: `metadata.exit_code`, `Exit code: N`, `Process exited with code N`). */
  exitCode: "@exit_code",
} as const;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets a key even when it is `__proto__`, which plain assignment would swallow. */
function setKey(target: Record<string, string>, key: string, value: string): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Two fields that flatten to the same metadata key (`{"a.b": 1, "a": {"b": 2}}`): the second is kept under `kept`. */
export interface FlattenCollision {
  /** The key both would have. */
  key: string;
  /** The key the later field is kept under: `<key>#2`, `#3`, …, the first free one. */
  kept: string;
  /** The field paths as segments (`["a.b"]`, `["a", "b"]`); the first is undefined when the key was in the target before. */
  first: readonly string[] | undefined;
  second: readonly string[];
}

/**
 * Flattens a JSON value into metadata string values: top-level fields by name,
 * nested ones by dot path with array indexes (`items.0.sku`), scalars with
 * String(v), null → "null", an empty object or array → "{}" / "[]" (so the key
 * is not lost). Keys starting with "@" are escaped as "@@…" so they never
 * collide with importer facts. A scalar with no prefix has no key and is skipped.
 *
 * Two fields whose paths write the same key (a field named `a.b` and a field
 * `b` inside `a`) both stay: the first under the key, the later one under
 * `<key>#2` (the first free `#n`), and `onCollision` hears of it so the
 * importer can warn. Iterative: any depth, no stack.
 */
export function flattenInto(
  target: Record<string, string>,
  value: unknown,
  prefix = "",
  onCollision?: (collision: FlattenCollision) => void,
): void {
  const sources = new Map<string, readonly string[]>();
  const write = (segments: readonly string[], text: string): void => {
    const key = escapeKey(segments.join("."));
    if (!Object.hasOwn(target, key)) {
      setKey(target, key, text);
      sources.set(key, segments);
      return;
    }
    let n = 2;
    while (Object.hasOwn(target, `${key}#${n}`)) n++;
    const kept = `${key}#${n}`;
    setKey(target, kept, text);
    sources.set(kept, segments);
    onCollision?.({ key, kept, first: sources.get(key), second: segments });
  };
  // Depth first in entry order, as a recursive walk writes them; "leave" frames end a value's time as an ancestor (cycles of live objects).
  type Frame = { value: unknown; segments: string[]; unwrapped?: boolean } | { leave: object };
  const ancestors = new Set<object>();
  const stack: Frame[] = [{ value, segments: prefix === "" ? [] : [prefix] }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if ("leave" in frame) {
      ancestors.delete(frame.leave);
      continue;
    }
    const { value: v, segments } = frame;
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    if (typeof v !== "object" || v === null) {
      if (segments.length > 0) write(segments, v === null ? "null" : String(v));
      continue;
    }
    // Library callers may pass live objects: a Date (or anything with toJSON) is flattened as JSON would write it (toJSON once per value, as JSON does).
    const json = (v as { toJSON?: unknown }).toJSON;
    if (typeof json === "function" && frame.unwrapped !== true) {
      stack.push({ value: json.call(v) as unknown, segments, unwrapped: true });
      continue;
    }
    if (ancestors.has(v)) {
      if (segments.length > 0) write(segments, "[circular]");
      continue;
    }
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((child, i) => [String(i), child]) : Object.entries(v);
    if (entries.length === 0) {
      if (segments.length > 0) write(segments, Array.isArray(v) ? "[]" : "{}");
      continue;
    }
    ancestors.add(v);
    stack.push({ leave: v });
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], segments: [...segments, entries[i]![0]] });
  }
}

/** The warning for a collision: `fields "a.b" and "a" → "b" both flatten to metadata key "a.b"; the second is kept as "a.b#2"`. */
export function collisionWarning(c: FlattenCollision, what: string): string {
  const field = (segments: readonly string[]): string => segments.map((s) => JSON.stringify(s)).join(" → ");
  const first = c.first === undefined ? "a key already there" : `field ${field(c.first)}`;
  return `${what}: ${first} and field ${field(c.second)} both flatten to metadata key ${JSON.stringify(c.key)}; the second is kept as ${JSON.stringify(c.kept)}`;
}

function escapeKey(key: string): string {
  return key.startsWith("@") ? `@${key}` : key;
}

/**
 * How deep objects and lists may nest in a trace (the raw input, and JSON an
 * importer parses out of a string: arguments, results, OTel attributes).
 * Deeper is a located error, never a stack overflow: the importers' walks
 * are iterative or bounded by this, and JSON.stringify overflows somewhere
 * past 4,000 levels on a main thread's stack but later on a worker's, so
 * without one fixed limit the result would depend on the thread count.
 */
export const MAX_NESTING = 1000;

/**
 * The relative path (`.a[0].b`) of the first object or list nested more than
 * `limit` deep in `value`, or undefined. Iterative; a first pass without paths
 * keeps the common case cheap.
 */
export function tooDeep(value: unknown, limit = MAX_NESTING): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const values: unknown[] = [value];
  const depths: number[] = [1];
  let deepest = false;
  while (values.length > 0) {
    const v = values.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) {
      deepest = true;
      break;
    }
    for (const child of Array.isArray(v) ? v : Object.values(v as object))
      if (typeof child === "object" && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
  }
  return deepest ? deepPath(value, limit) : undefined;
}

/** The path to the first spot past `limit`, written out only when there is one. */
function deepPath(value: unknown, limit: number): string {
  const stack: { v: unknown; depth: number; path: string }[] = [{ v: value, depth: 1, path: "" }];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    if (depth > limit) return path;
    if (Array.isArray(v))
      v.forEach(
        (child, i) => typeof child === "object" && child !== null && stack.push({ v: child, depth: depth + 1, path: `${path}[${i}]` }),
      );
    else
      for (const [key, child] of Object.entries(v as object))
        if (typeof child === "object" && child !== null) stack.push({ v: child, depth: depth + 1, path: `${path}.${key}` });
  }
  return "";
}

/** `path` followed by a relative path from tooDeep, shortened to its start when it is long (a 1,000-level path is unreadable). */
function deepAt(path: string, rest: string): string {
  const shown = rest.length > 80 ? `${rest.slice(0, 80)}…` : rest;
  const joined = `${path}${shown}`;
  return joined.startsWith(".") ? joined.slice(1) : joined;
}

/** Throws an ImportError located at the spot where `value` (found at `path`) nests more than MAX_NESTING deep. */
export function checkNesting(value: unknown, path: string, what = "nests objects and lists"): void {
  const rest = tooDeep(value);
  if (rest !== undefined) throw new ImportError(deepAt(path, rest), `${what} more than ${MAX_NESTING} levels deep (the importers' limit)`);
}

/** Throws an ImportError at `path` when JSON parsed out of a string there (`what`: "the arguments of lookup") nests more than MAX_NESTING deep. */
export function checkParsedNesting(value: unknown, path: string, what: string): void {
  const rest = tooDeep(value);
  if (rest !== undefined)
    throw new ImportError(
      path,
      `${what}: JSON nested more than ${MAX_NESTING} levels deep (at ${deepAt("", rest) || "the top"}; the importers' limit)`,
    );
}

/** JSON.stringify, or undefined for a value nested past MAX_NESTING (which would overflow the stack on some threads and not others). */
export function boundedJson(value: unknown): string | undefined {
  if (tooDeep(value) !== undefined) return undefined;
  return JSON.stringify(value);
}

/**
 * Runs an importer's whole input: whatever escapes it (a bug, a value no
 * check foresaw) becomes the result's one error instead of an exception that
 * would abort the caller's run. A stack overflow says what it was.
 */
export function guard(run: () => ImportResult): ImportResult {
  try {
    return run();
  } catch (error) {
    if (error instanceof ImportError) return failed(error.path, error.reason);
    return failed("", unexpected(error));
  }
}

/** The message of an exception that is not an ImportError. */
function unexpected(error: unknown): string {
  if (error instanceof RangeError && /call stack/i.test(error.message))
    return `the input nests too deeply: the stack overflowed (the importers read up to ${MAX_NESTING} levels)`;
  return error instanceof Error ? error.message : String(error);
}

/** The characters a JSON text's value can start with (after JSON whitespace). */
const JSON_STARTS = new Set([...'[{"-0123456789tfn']);

/** JSON.parse that returns undefined instead of throwing. */
export function parseJson(text: string): unknown {
  // Most tool output is plain text: a JSON value can only start with one of these, and a thrown SyntaxError costs
  // tens of microseconds (the bulk of importing 100,000 shell results).
  const first = /\S/.exec(text)?.[0];
  if (first === undefined || !JSON_STARTS.has(first)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Arguments as JSON text: a string is kept as the model wrote it; anything else (an SDK's parsed object) is serialized. */
export function jsonText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  return JSON.stringify(value) ?? "";
}

const TEXT_PARTS = new Set(["text", "input_text", "output_text", "summary_text", "reasoning_text"]);
/** Placeholders of non-text parts, in a Map: a part type such as `constructor` or `toString` is no placeholder (a plain object would hand back Object.prototype's function). */
const PLACEHOLDERS = new Map<string, string>([
  ["image", "[image]"],
  ["image_url", "[image]"],
  ["input_image", "[image]"],
  ["file", "[file]"],
  ["input_file", "[file]"],
  ["document", "[file]"],
  ["audio", "[audio]"],
  ["input_audio", "[audio]"],
]);

/** Placeholder of a non-text part: "[image]", "[file]", "[audio]", else "[<type>]". */
function partText(part: Record<string, unknown>): string {
  const type = typeof part.type === "string" ? part.type : "";
  if (TEXT_PARTS.has(type)) return typeof part.text === "string" ? part.text : contentText(part.text);
  if (type === "refusal" && typeof part.refusal === "string") return part.refusal;
  const placeholder = PLACEHOLDERS.get(type);
  if (placeholder !== undefined) return placeholder;
  if (type === "") return typeof part.text === "string" ? part.text : (JSON.stringify(part) ?? "");
  // A part type this importer does not know: its text when it has one, else a placeholder naming it.
  if (typeof part.text === "string") return part.text;
  return `[${type}]`;
}

/**
 * Text of a content value that may be a string, an array of parts, or an
 * object: text parts joined by "\n"; images, files and audio become "[image]",
 * "[file]", "[audio]"; any other object is written as JSON; never throws.
 */
export function contentText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) {
    const texts: string[] = [];
    for (const part of value) {
      const text = isRecord(part) && typeof part.type === "string" ? partText(part) : contentText(part);
      if (text !== "") texts.push(text);
    }
    return texts.join("\n");
  }
  if (isRecord(value)) {
    if (typeof value.type === "string" && (TEXT_PARTS.has(value.type) || PLACEHOLDERS.has(value.type) || value.type === "refusal"))
      return partText(value);
    try {
      return JSON.stringify(value) ?? "";
    } catch {
      return "[unserializable]";
    }
  }
  return String(value);
}

/**
 * The text of a result given as a list of text parts (`[{type: "text",
 * text}]`, `input_text`, `output_text`): the parts joined as contentText
 * joins them, so `[{type: "text", text: "{\"status\": \"found\"}"}]` is
 * read (and its JSON flattened) exactly as the string it holds; so is one
 * text part alone. Undefined for
 * anything else: a list with an image or a non-part element is no text.
 */
export function textPartsText(value: unknown): string | undefined {
  const isTextPart = (part: unknown): boolean => isRecord(part) && TEXT_PARTS.has(part.type as string) && typeof part.text === "string";
  if (isTextPart(value)) return (value as { text: string }).text;
  if (!Array.isArray(value) || value.length === 0 || !value.every(isTextPart)) return undefined;
  return contentText(value);
}

/** Items in arrival order under a key; `first` skips (and forgets) those no longer open, so each is passed over once. */
export class KeyedQueues<T> {
  private readonly queues = new Map<string, { items: T[]; head: number }>();

  add(key: string, item: T): void {
    const queue = this.queues.get(key);
    if (queue === undefined) this.queues.set(key, { items: [item], head: 0 });
    else queue.items.push(item);
  }

  /** The earliest item under `key` that `open` accepts. Items once refused must stay refused (closed calls never reopen). */
  first(key: string, open: (item: T) => boolean): T | undefined {
    const queue = this.queues.get(key);
    if (queue === undefined) return undefined;
    while (queue.head < queue.items.length && !open(queue.items[queue.head]!)) queue.head++;
    return queue.items[queue.head];
  }
}

interface OpenCall {
  name: string;
  callId: string | undefined;
  turn: number;
}

type Meta = Record<string, string> | undefined;

/**
 * Builds one trajectory. Event ids are e1, e2, … by position. Open calls are
 * tracked by native id, so a result gets its call's tool name and turn; results
 * are appended in the order they arrive (IMPORTERS.md "Order"), which is always
 * after their call. Completeness: a call left without a result makes the
 * trajectory incomplete.
 *
 * Turns: each user message opens a turn; an agent event opens a new turn when
 * the event before it was not the agent's (a user message, a tool result) or
 * when `turn()` was called; a result carries the turn of its call.
 */
export class TrajectoryBuilder {
  readonly id: string;
  /** Free text for the trajectory's `description` (default ""). */
  description = "";
  private readonly options: ImportOptions;
  private readonly events: TrajectoryEvent[] = [];
  private readonly issues: ImportIssue[] = [];
  /**
   * Every open call in call order (a Set: a result closes its call in
   * constant time, however many are open), and indexes of them by native id
   * (a queue: a buggy producer may reuse an id) and by name (results that
   * carry no id: legacy `function` messages). The indexes skip closed calls.
   */
  private readonly open = new Set<OpenCall>();
  private readonly openById = new KeyedQueues<OpenCall>();
  private readonly openByName = new KeyedQueues<OpenCall>();
  /** Names of answered calls, so a second result for one still gets its action. */
  private readonly answered = new Map<string, OpenCall>();
  private currentTurn = 0;
  private last: "none" | "user" | "agent" | "tool" = "none";
  private newTurnPending = false;
  private built: Trajectory | undefined;

  constructor(id: string, options: ImportOptions = {}) {
    this.id = id;
    this.options = options;
  }

  /** Warnings so far (unknown result, duplicate result, …), without a trace index. */
  get warnings(): readonly ImportIssue[] {
    return this.issues;
  }

  /** The finished trajectory (after `finish`). */
  get trajectory(): Trajectory {
    if (this.built === undefined) throw new Error("TrajectoryBuilder: finish() was not called");
    return this.built;
  }

  /** Whether any call is still waiting for its result. */
  get hasOpenCalls(): boolean {
    return this.open.size > 0;
  }

  /** The next agent event starts a new turn even if the previous event was the agent's (a new model response). */
  turn(): void {
    this.newTurnPending = true;
  }

  private agentTurn(): number {
    if (this.newTurnPending || this.last !== "agent") this.currentTurn++;
    this.newTurnPending = false;
    this.last = "agent";
    return this.currentTurn;
  }

  private push(actor: Actor, action: string, content: string, metadata: Record<string, string>): void {
    const id = `e${this.events.length + 1}`;
    // Whole object literals, not a field added later: an event then has the shape (hidden class)
    // of a literal or JSON.parse'd event, which a judge's warm() prepares its code for.
    const event: TrajectoryEvent =
      Object.keys(metadata).length > 0 ? { id, actor, action, content, metadata } : { id, actor, action, content };
    this.events.push(event);
  }

  private static withFacts(base: Record<string, string>, meta: Meta, turn: number): Record<string, string> {
    if (meta !== undefined) for (const key of Object.keys(meta)) setKey(base, key, meta[key]!);
    setKey(base, FACT.turn, String(turn));
    return base;
  }

  user(text: string, meta?: Meta): void {
    this.userEvent("message", text, meta);
  }

  /** A user event other than a message (a command the user ran in the agent's own interface): `user` / `action`, in the user's turn. */
  userEvent(action: string, text: string, meta?: Meta): void {
    if (this.last !== "user") this.currentTurn++;
    this.last = "user";
    this.push("user", action, text, TrajectoryBuilder.withFacts({}, meta, this.currentTurn));
  }

  /**
   * An agent's text. Text that is only whitespace (the `"\n\n"` block Claude
   * models often emit before a tool call) says nothing and is no message
   * (docs/IMPORTERS.md "Shared conventions").
   */
  agentMessage(text: string, meta?: Meta): void {
    if (text.trim() === "") return;
    const turn = this.agentTurn();
    this.push("agent", "message", text, TrajectoryBuilder.withFacts({}, meta, turn));
  }

  /** Dropped unless `options.reasoning`; kept, it belongs to the turn of the response it came with. */
  reasoning(text: string, meta?: Meta): void {
    if (this.options.reasoning !== true) return;
    const turn = this.agentTurn();
    this.push("agent", "reasoning", text, TrajectoryBuilder.withFacts({}, meta, turn));
  }

  /**
   * A tool call: content is `args` as the model wrote it (JSON text); when it
   * parses as a JSON object its fields are flattened into metadata.
   */
  call(name: string, args: string, callId: string | undefined, meta?: Meta, path = ""): void {
    const turn = this.agentTurn();
    const metadata: Record<string, string> = {};
    const parsed = args === "" ? undefined : parseJson(args);
    if (isRecord(parsed)) {
      checkParsedNesting(parsed, path, `arguments of ${name}`);
      flattenInto(metadata, parsed, "", (c) => this.warn(path, collisionWarning(c, `arguments of ${name}`)));
    }
    if (callId !== undefined) setKey(metadata, FACT.callId, callId);
    this.push("agent", name, args, TrajectoryBuilder.withFacts(metadata, meta, turn));
    const call: OpenCall = { name, callId, turn };
    this.open.add(call);
    this.openByName.add(name, call);
    if (callId !== undefined) this.openById.add(callId, call);
  }

  private takeOpen(callId: string | undefined, name: string | undefined): OpenCall | undefined {
    const isOpen = (c: OpenCall): boolean => this.open.has(c);
    let call: OpenCall | undefined;
    if (callId !== undefined) call = this.openById.first(callId, isOpen);
    // No id (legacy function messages): the earliest open call of that name, or with no name the earliest open call.
    else if (name !== undefined) call = this.openByName.first(name, isOpen);
    else call = this.open.values().next().value;
    if (call !== undefined) this.open.delete(call);
    return call;
  }

  /**
   * A tool result: action `<call's name>_result`; content as text
   * (contentText); a JSON object result (or a string that parses as one) is
   * flattened into metadata. `error` sets `metadata.status: "error"` unless the
   * result has its own `status`. A result whose call is unknown gets its action
   * from `opts.name` (else `unknown_result`) and a warning. `inline` marks a
   * result the provider ran inside the same response (a server-side web
   * search): the agent's next event then stays in the same turn. `fields`
   * are flattened instead of what `content` parses to, for a result whose
   * text is no JSON but whose structure the importer knows (a Python repr).
   */
  result(
    callId: string | undefined,
    content: unknown,
    opts: {
      name?: string | undefined;
      error?: boolean | undefined;
      meta?: Meta | undefined;
      path?: string | undefined;
      inline?: boolean | undefined;
      fields?: Record<string, unknown> | undefined;
    } = {},
  ): void {
    const call = this.takeOpen(callId, opts.name);
    let name: string;
    let turn: number;
    if (call !== undefined) {
      name = call.name;
      turn = call.turn;
      if (callId !== undefined) this.answered.set(callId, call);
    } else {
      const earlier = callId === undefined ? undefined : this.answered.get(callId);
      name = earlier?.name ?? opts.name ?? "unknown";
      turn = earlier?.turn ?? Math.max(this.currentTurn, 1);
      const which =
        callId === undefined
          ? opts.name === undefined
            ? "a result with no call id"
            : `a result for ${opts.name} with no call id`
          : `call id ${JSON.stringify(callId)}`;
      this.warn(opts.path ?? "", earlier !== undefined ? `second result for ${which}` : `${which} answers no earlier call`);
    }
    if (opts.inline !== true) this.last = "tool";
    const metadata: Record<string, string> = {};
    // A result given as text parts (MCP, Claude Agent SDK, every chat API allows it) is read as the text they join to.
    const partsText = textPartsText(content);
    const asText = typeof content === "string" ? content : partsText;
    const structured = opts.fields ?? (asText !== undefined ? parseJson(asText) : content);
    if (opts.fields !== undefined) checkNesting(opts.fields, opts.path ?? "");
    else if (asText !== undefined) checkParsedNesting(structured, opts.path ?? "", `result of ${name}`);
    else checkNesting(content, opts.path ?? "");
    if (isRecord(structured) && !isContentPart(structured))
      flattenInto(metadata, structured, "", (c) => this.warn(opts.path ?? "", collisionWarning(c, `result of ${name}`)));
    const text = contentText(content);
    if (opts.error === true && !("status" in metadata)) metadata.status = "error";
    if (callId !== undefined) setKey(metadata, FACT.callId, callId);
    this.push("tool", `${name}_result`, text, TrajectoryBuilder.withFacts(metadata, opts.meta, turn));
  }

  /** A hand-off between agents: `agent` / `handoff`, metadata `from`, `to`. */
  handoff(from: string, to: string, meta?: Meta): void {
    const turn = this.agentTurn();
    this.push("agent", "handoff", "", TrajectoryBuilder.withFacts({ from, to }, meta, turn));
  }

  /** A guardrail check: `agent` / `guardrail`, metadata `name`, `triggered`. */
  guardrail(name: string, triggered: boolean, meta?: Meta): void {
    const turn = this.agentTurn();
    this.push("agent", "guardrail", "", TrajectoryBuilder.withFacts({ name, triggered: String(triggered) }, meta, turn));
  }

  warn(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  /**
   * Closes the open calls named `name` (or whose name it accepts) without a result event: a tool whose
   * call is itself the answer (Pydantic AI's structured-output `final_result`)
   * never gets a result, and is not a call left waiting. Returns how many.
   */
  closeWithoutResult(name: string | ((name: string) => boolean)): number {
    let closed = 0;
    const matches = typeof name === "string" ? (n: string) => n === name : name;
    for (const call of [...this.open])
      if (matches(call.name)) {
        this.open.delete(call);
        closed++;
      }
    return closed;
  }

  /** complete = options.complete ?? (endedNormally && no call left open). */
  finish(endedNormally: boolean): Trajectory {
    const complete = this.options.complete ?? (endedNormally && this.open.size === 0);
    this.built = { id: this.id, description: this.description, complete, events: this.events };
    return this.built;
  }
}

function isContentPart(value: Record<string, unknown>): boolean {
  return typeof value.type === "string" && (TEXT_PARTS.has(value.type) || PLACEHOLDERS.has(value.type));
}

/**
 * The id of trace `index` of `count`: options.id (suffixed `-<n>` when there
 * are several), else the native id, else options.defaultId (the file's name,
 * suffixed likewise), else `trace-<n>`.
 */
export function traceId(options: ImportOptions, nativeId: unknown, index: number, count: number): string {
  const named = (id: string): string => (count === 1 ? id : `${id}-${index + 1}`);
  if (options.id !== undefined && options.id !== "") return named(options.id);
  if (typeof nativeId === "string" && nativeId !== "") return nativeId;
  if (typeof nativeId === "number") return String(nativeId);
  if (options.defaultId !== undefined && options.defaultId !== "") return named(options.defaultId);
  return `trace-${index + 1}`;
}

/**
 * Runs `importOne` on each trace; an ImportError (or any other exception) in
 * one trace becomes an error with that trace's index and the others still
 * import. `importOne` returns the finished builder.
 */
export function importEach<T>(units: readonly T[], importOne: (unit: T, index: number) => TrajectoryBuilder): ImportResult {
  const result: ImportResult = { trajectories: [], errors: [], warnings: [] };
  for (let i = 0; i < units.length; i++) {
    try {
      const builder = importOne(units[i]!, i);
      result.trajectories.push(builder.trajectory);
      for (const w of builder.warnings) result.warnings.push({ ...w, trace: i });
    } catch (error) {
      if (error instanceof ImportError) result.errors.push({ path: error.path, message: error.reason, trace: i });
      else result.errors.push({ path: "", message: unexpected(error), trace: i });
    }
  }
  return result;
}

/** A result with a single error for input that is not this format at all. */
export function failed(path: string, message: string): ImportResult {
  return { trajectories: [], errors: [{ path, message }], warnings: [] };
}

/**
 * `parent[key]` as a string, or an ImportError located at the parent:
 * `messages[7].tool_calls[0].function: missing name`.
 */
export function requireString(parent: Record<string, unknown>, key: string, parentPath: string): string {
  const value = parent[key];
  if (typeof value === "string" && value !== "") return value;
  throw new ImportError(parentPath, value === undefined || value === null ? `missing ${key}` : `${key} must be a non-empty string`);
}

/** `value` as an object, or an ImportError naming `path`. */
export function requireRecord(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) throw new ImportError(path, value === undefined ? "missing" : "must be an object");
  return value;
}

/** Formats an issue as one line: `trace 2: messages[7].tool_calls[0].function: missing name`. */
export function formatIssue(issue: ImportIssue): string {
  const where = issue.trace === undefined ? "" : `trace ${issue.trace}: `;
  return `${where}${issue.path === "" ? "" : `${issue.path}: `}${issue.message}`;
}
