/**
 * Inspect AI eval logs (IMPORTERS.md `inspect`): the `.json` log format
 * (`EvalLog`: `eval`, `samples[]`), one trajectory per sample and epoch, from
 * the sample's `messages` (ChatMessage: system, user, assistant with
 * `tool_calls`, tool with `tool_call_id`, `function`, `error`). Also one
 * `EvalSample`, or a list of them. Strings stored as `attachment://<hash>`
 * are read from the sample's `attachments`.
 */
import { FACT, ImportError, TrajectoryBuilder, checkNesting, contentText, guard, importEach, isRecord, traceId } from "./core.js";
import type { ImportOptions, ImportResult } from "./core.js";

const ATTACHMENT = "attachment://";
const ROLES = new Set(["system", "user", "assistant", "tool"]);

function isEvalLog(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && isRecord(value.eval) && typeof value.eval.task === "string" && ("samples" in value || "status" in value);
}

function isSample(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && "epoch" in value && "id" in value && Array.isArray(value.messages) && "input" in value;
}

/** A cheap shape test: an eval log, a sample, or a list of samples. */
export function detectInspect(input: unknown): boolean {
  if (isEvalLog(input) || isSample(input)) return true;
  return Array.isArray(input) && input.length > 0 && input.every(isSample);
}

/** Reads `attachment://` references from a sample's attachments; a missing one stays as written, with a warning. */
class Attachments {
  constructor(
    private readonly store: Record<string, unknown>,
    private readonly b: TrajectoryBuilder,
  ) {}

  text(value: string, path: string): string {
    if (!value.startsWith(ATTACHMENT)) return value;
    const hash = value.slice(ATTACHMENT.length);
    const found = Object.hasOwn(this.store, hash) ? this.store[hash] : undefined;
    if (typeof found === "string") return found;
    this.b.warn(path, `attachment ${JSON.stringify(hash)} is not in the sample's attachments`);
    return value;
  }

  /** A JSON value with every attachment string read (tool call arguments). Iterative: any depth. */
  deep(value: unknown, path: string): unknown {
    if (typeof value === "string") return this.text(value, path);
    // Most samples have no attachments at all: nothing to read, no copy.
    if (typeof value !== "object" || value === null || Object.keys(this.store).length === 0) return value;
    const root: { v: unknown } = { v: undefined };
    const stack: { from: unknown; into: Record<string, unknown> | unknown[]; key: string | number; at: string }[] = [
      { from: value, into: root as unknown as Record<string, unknown>, key: "v", at: path },
    ];
    while (stack.length > 0) {
      const { from, into, key, at } = stack.pop()!;
      let copy: unknown = from;
      if (typeof from === "string") copy = this.text(from, at);
      else if (Array.isArray(from)) {
        const list: unknown[] = new Array<unknown>(from.length);
        from.forEach((item, i) => stack.push({ from: item, into: list, key: i, at: `${at}[${i}]` }));
        copy = list;
      } else if (isRecord(from)) {
        const record: Record<string, unknown> = {};
        for (const [k, item] of Object.entries(from)) {
          Object.defineProperty(record, k, { value: undefined, enumerable: true, writable: true, configurable: true });
          stack.push({ from: item, into: record, key: k, at: `${at}.${k}` });
        }
        copy = record;
      }
      if (Array.isArray(into)) into[key as number] = copy;
      else Object.defineProperty(into, key, { value: copy, enumerable: true, writable: true, configurable: true });
    }
    return root.v;
  }
}

const PLACEHOLDERS = new Map<string, string>([
  ["image", "[image]"],
  ["audio", "[audio]"],
  ["video", "[video]"],
  ["document", "[file]"],
]);

/** Text of one content part a user or tool sent; undefined for reasoning (which only the model writes). */
function partText(part: Record<string, unknown>, files: Attachments, path: string): string | undefined {
  switch (part.type) {
    case "text":
      return typeof part.text === "string" ? files.text(part.text, `${path}.text`) : "";
    case "data":
      return JSON.stringify(part.data) ?? "";
    case "reasoning":
      return undefined;
    default: {
      const placeholder = typeof part.type === "string" ? PLACEHOLDERS.get(part.type) : undefined;
      return placeholder ?? contentText([part]);
    }
  }
}

/** A message's content as text: a string (maybe an attachment), or its parts joined by "\n". */
function contentOf(content: unknown, files: Attachments, path: string): string {
  if (typeof content === "string") return files.text(content, `${path}.content`);
  if (!Array.isArray(content)) return contentText(content);
  const texts: string[] = [];
  content.forEach((part, k) => {
    if (!isRecord(part)) return;
    const text = partText(part, files, `${path}.content[${k}]`);
    if (text !== undefined && text !== "") texts.push(text);
  });
  return texts.join("\n");
}

function messageMeta(message: Record<string, unknown>): Record<string, string> | undefined {
  return typeof message.id === "string" && message.id !== "" ? { [FACT.itemId]: message.id } : undefined;
}

/** An assistant message: its text and reasoning parts, server-side tool uses, then its tool calls; returns how many calls it made. */
function assistant(b: TrajectoryBuilder, message: Record<string, unknown>, files: Attachments, path: string): number {
  b.turn();
  const meta = messageMeta(message);
  const content = message.content;
  if (typeof content === "string") {
    const text = files.text(content, `${path}.content`);
    if (text.trim() !== "") b.agentMessage(text, meta);
  } else if (Array.isArray(content)) {
    content.forEach((part, k) => {
      const at = `${path}.content[${k}]`;
      if (!isRecord(part)) throw new ImportError(at, "must be a content object");
      if (part.type === "reasoning") {
        b.reasoning(part.redacted === true ? "[redacted]" : typeof part.reasoning === "string" ? part.reasoning : "", meta);
      } else if (part.type === "tool_use") {
        serverTool(b, part, at, meta);
      } else {
        const text = partText(part, files, at) ?? "";
        if (text.trim() !== "") b.agentMessage(text, meta);
      }
    });
  }
  const calls = message.tool_calls;
  if (calls === undefined || calls === null) return 0;
  if (!Array.isArray(calls)) throw new ImportError(`${path}.tool_calls`, "must be an array");
  calls.forEach((call, k) => {
    const at = `${path}.tool_calls[${k}]`;
    if (!isRecord(call)) throw new ImportError(at, "must be an object");
    const name = call.function;
    if (typeof name !== "string" || name === "")
      throw new ImportError(at, name === undefined ? "missing function" : "function must be a non-empty string");
    const id = typeof call.id === "string" && call.id !== "" ? call.id : undefined;
    const args = files.deep(call.arguments ?? {}, `${at}.arguments`);
    b.call(name, typeof args === "string" ? args : (JSON.stringify(args) ?? "{}"), id, meta, `${at}.arguments`);
  });
  return calls.length;
}

/** A tool the provider ran inside the response (ContentToolUse: web search, MCP, code execution): its call and its result. */
function serverTool(b: TrajectoryBuilder, part: Record<string, unknown>, path: string, meta: Record<string, string> | undefined): void {
  const name = typeof part.name === "string" && part.name !== "" ? part.name : typeof part.tool_type === "string" ? part.tool_type : "";
  if (name === "") throw new ImportError(path, "missing name");
  const id = typeof part.id === "string" && part.id !== "" ? part.id : undefined;
  b.call(
    name,
    typeof part.arguments === "string" ? part.arguments : (JSON.stringify(part.arguments ?? {}) ?? "{}"),
    id,
    { ...meta, [FACT.server]: "provider" },
    `${path}.arguments`,
  );
  const error = typeof part.error === "string" && part.error !== "" ? part.error : undefined;
  b.result(id, error ?? (typeof part.result === "string" ? part.result : contentText(part.result)), {
    name,
    error: error !== undefined,
    path,
    inline: true,
    meta,
  });
}

/** A tool message: the result of its call; `error` marks a failed call (its message stands in for empty content). */
function tool(b: TrajectoryBuilder, message: Record<string, unknown>, files: Attachments, path: string): void {
  const id = typeof message.tool_call_id === "string" && message.tool_call_id !== "" ? message.tool_call_id : undefined;
  const name = typeof message.function === "string" && message.function !== "" ? message.function : undefined;
  // Logs before `error` wrote the failure as a string, `tool_error`.
  const error = isRecord(message.error)
    ? message.error
    : typeof message.tool_error === "string" && message.tool_error !== ""
      ? { message: message.tool_error }
      : undefined;
  let text = contentOf(message.content, files, path);
  if (error !== undefined && text === "" && typeof error.message === "string") text = error.message;
  b.result(id, text, { name, error: error !== undefined, path, meta: messageMeta(message) });
}

/** Whether the sample's output says generation stopped normally (absent: nothing says otherwise). */
function stoppedNormally(sample: Record<string, unknown>): boolean {
  const output = sample.output;
  if (!isRecord(output)) return true;
  if (output.error !== undefined && output.error !== null) return false;
  const choice = Array.isArray(output.choices) ? output.choices[0] : undefined;
  const stop = isRecord(choice) ? choice.stop_reason : undefined;
  return stop === undefined || stop === null || stop === "stop" || stop === "tool_calls" || stop === "unknown";
}

function importSample(
  sample: unknown,
  path: string,
  task: unknown,
  index: number,
  count: number,
  options: ImportOptions,
): TrajectoryBuilder {
  if (!isRecord(sample)) throw new ImportError(path, "must be a sample object");
  if (!Array.isArray(sample.messages))
    throw new ImportError(path, sample.messages === undefined ? "missing messages" : "messages must be an array");
  const messagesPath = path === "" ? "messages" : `${path}.messages`;
  checkNesting(sample.messages, messagesPath);
  const native =
    sample.id === undefined || sample.id === null
      ? undefined
      : `${typeof task === "string" ? `${task}/` : ""}${String(sample.id)}/epoch-${String(sample.epoch ?? 1)}`;
  const b = new TrajectoryBuilder(traceId(options, native, index, count), options);
  const files = new Attachments(isRecord(sample.attachments) ? sample.attachments : {}, b);
  let endedNormally = false;
  sample.messages.forEach((raw, i) => {
    const at = `${messagesPath}[${i}]`;
    if (!isRecord(raw)) throw new ImportError(at, "must be a message object");
    const role = raw.role;
    if (typeof role !== "string" || !ROLES.has(role))
      throw new ImportError(
        at,
        role === undefined ? "missing role" : `unknown role ${JSON.stringify(role)} (expected system, user, assistant or tool)`,
      );
    switch (role) {
      case "system":
        return; // instructions, not conduct
      case "user": {
        const meta = messageMeta(raw);
        // A user message that carries a tool's payload (a screenshot) names its calls.
        const ids = Array.isArray(raw.tool_call_id) ? raw.tool_call_id.filter((id) => typeof id === "string") : [];
        b.user(contentOf(raw.content, files, at), ids.length > 0 ? { ...meta, [FACT.callId]: ids.join(",") } : meta);
        // A user's last word after a finished answer leaves it finished; a tool's payload waits for the model.
        if (ids.length > 0) endedNormally = false;
        break;
      }
      case "assistant":
        endedNormally = assistant(b, raw, files, at) === 0;
        break;
      case "tool":
        tool(b, raw, files, at);
        endedNormally = false;
        break;
    }
  });
  // A sample halted by an error or a limit did not end as the task meant.
  const halted = (sample.error !== undefined && sample.error !== null) || (sample.limit !== undefined && sample.limit !== null);
  b.finish(endedNormally && !halted && stoppedNormally(sample));
  return b;
}

/** Imports Inspect AI eval logs (or samples): one trajectory per sample and epoch. */
export function fromInspect(input: unknown, options: ImportOptions = {}): ImportResult {
  return guard(() => {
    if (isEvalLog(input)) {
      const samples = input.samples;
      if (samples === undefined || samples === null)
        throw new ImportError("samples", "the log holds no samples (a header-only read, or an eval run with log_samples off)");
      if (!Array.isArray(samples)) throw new ImportError("samples", "must be an array");
      const task = (input.eval as Record<string, unknown>).task;
      return importEach(samples, (sample, i) => importSample(sample, `samples[${i}]`, task, i, samples.length, options));
    }
    if (isSample(input)) return importEach([input], (sample) => importSample(sample, "", undefined, 0, 1, options));
    if (Array.isArray(input)) return importEach(input, (sample, i) => importSample(sample, `[${i}]`, undefined, i, input.length, options));
    throw new ImportError(
      "",
      "not an Inspect AI eval log: expected {eval, samples}, a sample {id, epoch, input, messages} or a list of samples",
    );
  });
}
