/**
 * OpenAI Responses API logs (IMPORTERS.md `openai-responses`): items of a
 * request's `input` and a response's `output`. Function calls are
 * `function_call` items answered by `function_call_output` on `call_id` (not
 * on the item `id`); built-in tools are items of their own (`web_search_call`,
 * `file_search_call`, `code_interpreter_call`, `mcp_call`, …), some carrying
 * their result, some answered by a `*_output` item. Exchanges chain by
 * `previous_response_id`, or by a request's input repeating the history.
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
  requireString,
  traceId,
} from "./core.js";
import type { ImportOptions, ImportResult } from "./core.js";
import { PrefixKeys } from "./exchanges.js";

interface Exchange {
  /** New input items, with their paths. */
  input: { item: unknown; path: string }[];
  rawInput: unknown[];
  output: unknown[];
  outputPath: string;
  response?: Record<string, unknown>;
  request?: Record<string, unknown>;
  path: string;
}

function isResponseObject(value: unknown): boolean {
  return isRecord(value) && Array.isArray(value.output) && (value.object === "response" || typeof value.status === "string");
}

const ITEM_TYPES = new Set([
  "message",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "reasoning",
  "web_search_call",
  "file_search_call",
  "code_interpreter_call",
  "image_generation_call",
  "computer_call",
  "computer_call_output",
  "local_shell_call",
  "local_shell_call_output",
  "shell_call",
  "shell_call_output",
  "apply_patch_call",
  "apply_patch_call_output",
  "mcp_call",
  "mcp_list_tools",
  "mcp_approval_request",
  "mcp_approval_response",
  "tool_search_call",
  "tool_search_output",
  "item_reference",
  "compaction",
]);

function isItem(value: unknown): boolean {
  return (
    isRecord(value) &&
    (typeof value.type === "string" ? ITEM_TYPES.has(value.type) : typeof value.role === "string" && value.content !== undefined)
  );
}

/** A cheap shape test: a Response, `{request, response}`, `{input, output}` pairs, or an item list with a Responses-only item type. */
export function detectOpenAIResponses(input: unknown): boolean {
  const sample = Array.isArray(input) ? input[0] : input;
  if (isResponseObject(sample)) return true;
  if (isRecord(sample) && (isResponseObject(sample.response) || (Array.isArray(sample.output) && sample.input !== undefined))) return true;
  if (isRecord(sample) && isRecord(sample.request) && sample.request.input !== undefined) return true;
  if (
    isRecord(sample) &&
    sample.input !== undefined &&
    sample.messages === undefined &&
    (typeof sample.input === "string" || Array.isArray(sample.input)) &&
    typeof sample.model === "string"
  )
    return true;
  // A bare item list: only when some item is of a type only this API writes (a plain {role, content} list is a chat log).
  return (
    Array.isArray(input) &&
    input.length > 0 &&
    input.every(isItem) &&
    input.some((i) => isRecord(i) && typeof i.type === "string" && i.type !== "message")
  );
}

function asItems(value: unknown, path: string): { item: unknown; path: string }[] {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return [{ item: { role: "user", content: value }, path }];
  if (!Array.isArray(value)) throw new ImportError(path, "must be a string or an array of items");
  return value.map((item, i) => ({ item, path: `${path}[${i}]` }));
}

function join(prefix: string, key: string): string {
  return prefix === "" ? key : `${prefix}.${key}`;
}

/** One logged exchange: `{request, response}`, `{input, output}`, a Response, or a request body alone. */
function exchange(value: unknown, path: string): Exchange {
  if (!isRecord(value))
    throw new ImportError(path, "not a Responses API exchange: expected {request, response}, a response, or an item list");
  if (isResponseObject(value))
    return { input: [], rawInput: [], output: value.output as unknown[], outputPath: join(path, "output"), response: value, path };
  const request = isRecord(value.request) ? value.request : value.input !== undefined ? value : undefined;
  const response = isResponseObject(value.response) ? (value.response as Record<string, unknown>) : undefined;
  const requestPath = isRecord(value.request) ? join(path, "request") : path;
  const rawInput = request?.input;
  const input = asItems(rawInput, join(requestPath, "input"));
  const output = response !== undefined ? (response.output as unknown[]) : Array.isArray(value.output) ? value.output : [];
  const outputPath = response !== undefined ? join(path, "response.output") : join(path, "output");
  if (request === undefined && response === undefined)
    throw new ImportError(path, "not a Responses API exchange: expected {request, response}, a response, or an item list");
  return {
    input,
    rawInput: typeof rawInput === "string" ? [rawInput] : Array.isArray(rawInput) ? rawInput : [],
    output,
    outputPath,
    ...(response === undefined ? {} : { response }),
    ...(request === undefined ? {} : { request }),
    path,
  };
}

interface Chain {
  exchanges: Exchange[];
  /** Items the next exchange's input would repeat if it carries the history itself. */
  history: unknown[];
  /** Prefix keys of `history`. */
  keys?: PrefixKeys;
}

/**
 * Groups exchanges into conversations: by `previous_response_id`, else by the
 * input starting with a conversation's whole history (manual state, where
 * every request repeats the items so far); otherwise a new conversation.
 */
function chains(exchanges: Exchange[]): Chain[] {
  const all: Chain[] = [];
  // Each chain under the key of its whole history, so a request repeating it is found in one lookup.
  const byHistory = new Map<string, Chain[]>();
  const byResponseId = new Map<string, Chain>();
  const historyKey = (chain: Chain): string => chain.keys!.keys[chain.history.length]!;
  for (const ex of exchanges) {
    const previous = ex.request?.previous_response_id ?? ex.response?.previous_response_id;
    let chain = typeof previous === "string" ? byResponseId.get(previous) : undefined;
    if (chain === undefined && ex.rawInput.length > 0) {
      const input = new PrefixKeys(ex.rawInput);
      // The longest history the input repeats, latest chain first.
      for (let length = ex.rawInput.length; length > 0 && chain === undefined; length--) {
        const candidates = byHistory.get(input.keys[length]!) ?? [];
        for (let k = candidates.length - 1; k >= 0 && chain === undefined; k--)
          if (candidates[k]!.keys!.samePrefix(input, length)) chain = candidates[k];
      }
      // Only the items after the repeated history are new.
      if (chain !== undefined) ex.input = ex.input.slice(chain.history.length);
    }
    if (chain === undefined) {
      chain = { exchanges: [], history: [] };
      all.push(chain);
    } else if (chain.keys !== undefined) {
      const list = byHistory.get(historyKey(chain))!;
      list.splice(list.indexOf(chain), 1);
    }
    chain.exchanges.push(ex);
    const added = [...ex.input.map((x) => x.item), ...ex.output];
    for (const item of added) chain.history.push(item); // not push(...added): a long input overflows the stack
    if (typeof ex.response?.id === "string") byResponseId.set(ex.response.id, chain);
    if (chain.history.length > 0) {
      if (chain.keys === undefined) chain.keys = new PrefixKeys(chain.history);
      else chain.keys.extend(added);
      const key = historyKey(chain);
      const list = byHistory.get(key);
      if (list === undefined) byHistory.set(key, [chain]);
      else list.push(chain);
    }
  }
  return all;
}

/** Built-in tool items: the action name each becomes (a Map: an item type such as `constructor` is no built-in tool). */
const BUILT_IN = new Map<string, string>([
  ["web_search_call", "web_search"],
  ["file_search_call", "file_search"],
  ["code_interpreter_call", "code_interpreter"],
  ["image_generation_call", "image_generation"],
  ["computer_call", "computer"],
  ["local_shell_call", "local_shell"],
  ["shell_call", "shell"],
  ["apply_patch_call", "apply_patch"],
  ["tool_search_call", "tool_search"],
]);
/** Built-in calls answered by a later item on `call_id`, and that item's type. */
const ANSWERED_LATER = new Set(["computer_call", "local_shell_call", "shell_call", "apply_patch_call", "tool_search_call"]);
const OUTPUT_ITEMS = new Set([
  "function_call_output",
  "custom_tool_call_output",
  "computer_call_output",
  "local_shell_call_output",
  "shell_call_output",
  "apply_patch_call_output",
  "tool_search_output",
]);

/** Arguments of a built-in call: what the model asked for. */
export function builtInArguments(item: Record<string, unknown>): unknown {
  switch (item.type) {
    case "web_search_call":
      return item.action ?? {};
    case "file_search_call":
      return { queries: item.queries ?? [] };
    case "code_interpreter_call":
      return { code: item.code ?? "", container_id: item.container_id };
    case "image_generation_call":
      return {};
    default:
      return item.action ?? item.input ?? item.operation ?? {};
  }
}

/** The result a built-in call carries in its own item, if it does. */
export function builtInResult(item: Record<string, unknown>): unknown {
  switch (item.type) {
    case "web_search_call": {
      const action = isRecord(item.action) ? item.action : {};
      const sources = Array.isArray(action.sources) ? action.sources : [];
      return sources
        .map((s) => (isRecord(s) && typeof s.url === "string" ? s.url : ""))
        .filter((s) => s !== "")
        .join("\n");
    }
    case "file_search_call":
      return Array.isArray(item.results)
        ? item.results.map((r) => (isRecord(r) ? `${String(r.filename ?? r.file_id ?? "")}: ${String(r.text ?? "")}` : "")).join("\n")
        : "";
    case "code_interpreter_call":
      return Array.isArray(item.outputs)
        ? item.outputs
            .map((o) => (isRecord(o) && o.type === "logs" ? String(o.logs ?? "") : isRecord(o) && o.type === "image" ? "[image]" : ""))
            .join("\n")
        : "";
    case "image_generation_call":
      return typeof item.result === "string" && item.result !== "" ? "[image]" : "";
    default:
      return "";
  }
}

function mcpErrorText(error: unknown): string {
  if (typeof error === "string") return error;
  if (isRecord(error)) return typeof error.message === "string" ? error.message : contentText(error.content ?? error);
  return "";
}

/** Maps one Responses item (of a request's input or a response's output) onto the builder; the codex importer reuses it. */
export function responsesItem(b: TrajectoryBuilder, value: unknown, path: string): void {
  item(b, value, path, false);
}

/** Maps one item. */
function item(b: TrajectoryBuilder, value: unknown, path: string, fromOutput: boolean): void {
  if (!isRecord(value)) throw new ImportError(path, "must be an item object");
  checkNesting(value, path);
  const type = value.type ?? (typeof value.role === "string" ? "message" : undefined);
  const meta = typeof value.id === "string" && value.id !== "" ? { [FACT.itemId]: value.id } : undefined;
  switch (type) {
    case "message": {
      const role = value.role;
      if (role === "system" || role === "developer") return;
      if (role === "user") return b.user(contentText(value.content));
      if (role === "assistant") {
        const text = contentText(value.content);
        if (text !== "") b.agentMessage(text, meta);
        return;
      }
      throw new ImportError(
        path,
        role === undefined ? "missing role" : `unknown role ${JSON.stringify(role)} (expected user, assistant, system or developer)`,
      );
    }
    case "reasoning": {
      const parts = [...(Array.isArray(value.summary) ? value.summary : []), ...(Array.isArray(value.content) ? value.content : [])];
      const text = contentText(parts);
      if (text !== "" || value.encrypted_content !== undefined) b.reasoning(text === "" ? "[encrypted]" : text, meta);
      return;
    }
    case "function_call":
      return b.call(
        requireString(value, "name", path),
        jsonText(value.arguments),
        requireString(value, "call_id", path),
        meta,
        `${path}.arguments`,
      );
    case "custom_tool_call":
      return b.call(
        requireString(value, "name", path),
        jsonText(value.input),
        requireString(value, "call_id", path),
        meta,
        `${path}.input`,
      );
    case "mcp_call": {
      const id = requireString(value, "id", path);
      const server = typeof value.server_label === "string" ? value.server_label : "mcp";
      b.call(requireString(value, "name", path), jsonText(value.arguments), id, { [FACT.server]: server }, `${path}.arguments`);
      const failedCall = value.status === "failed" || (value.error !== undefined && value.error !== null);
      if (failedCall) return b.result(id, mcpErrorText(value.error), { error: true, path, inline: true });
      if (value.status === "in_progress" || value.status === "calling" || value.status === "incomplete") return; // no result yet
      return b.result(id, value.output ?? "", { path, inline: true });
    }
    case "mcp_approval_request":
      return b.call(
        "mcp_approval_request",
        jsonText({ server_label: value.server_label, name: value.name, arguments: value.arguments }),
        requireString(value, "id", path),
      );
    case "mcp_approval_response":
      return b.result(
        requireString(value, "approval_request_id", path),
        { approve: value.approve, reason: value.reason ?? null },
        { name: "mcp_approval_request", path },
      );
    case "mcp_list_tools":
    case "item_reference":
    case "compaction":
      return; // bookkeeping, not conduct
    default:
      break;
  }
  if (typeof type !== "string") throw new ImportError(path, "missing type");
  if (OUTPUT_ITEMS.has(type)) {
    const output = value.output;
    const error = value.status === "failed" || (isRecord(output) && typeof output.type === "string" && output.type.endsWith("error"));
    return b.result(requireString(value, "call_id", path), output, { error, path });
  }
  const builtIn = BUILT_IN.get(type);
  if (builtIn !== undefined) {
    const callId = ANSWERED_LATER.has(type) ? requireString(value, "call_id", path) : requireString(value, "id", path);
    b.call(builtIn, jsonText(builtInArguments(value)), callId, {
      [FACT.server]: ANSWERED_LATER.has(type) ? "client" : "provider",
      ...(meta ?? {}),
    });
    if (ANSWERED_LATER.has(type)) return;
    // A provider-side tool carries its own outcome; still running or cut short means no result.
    if (value.status === "failed") return b.result(callId, builtInResult(value), { error: true, path, inline: true });
    if (value.status === "completed" || value.status === undefined || value.status === "generating")
      return b.result(callId, builtInResult(value), { path, inline: true });
    return;
  }
  void fromOutput;
  b.warn(path, `item of type ${JSON.stringify(type)} is not imported`);
}

function importChain(chain: Chain, index: number, count: number, options: ImportOptions): TrajectoryBuilder {
  const first = chain.exchanges[0]!;
  const conversation = first.request?.conversation;
  const nativeId = isRecord(conversation) ? conversation.id : typeof conversation === "string" ? conversation : first.response?.id;
  const b = new TrajectoryBuilder(traceId(options, nativeId, index, count), options);
  let endedNormally = false;
  for (const ex of chain.exchanges) {
    for (const { item: value, path } of ex.input) item(b, value, path, false);
    b.turn();
    ex.output.forEach((value, i) => item(b, value, `${ex.outputPath}[${i}]`, true));
    // A response that is incomplete, failed or still running leaves the trace incomplete; no warning needed.
    const status = ex.response?.status;
    endedNormally = ex.response === undefined ? lastIsAnswer(ex) : status === "completed";
  }
  b.finish(endedNormally);
  return b;
}

/**
 * Without a response object, a conversation ended normally when its last
 * item other than user (or system) messages is an assistant message: a
 * user's word after the last reply leaves nothing pending (docs/IMPORTERS.md
 * "What completes a trace").
 */
function lastIsAnswer(ex: Exchange): boolean {
  const items = (function* () {
    for (let i = ex.output.length - 1; i >= 0; i--) yield ex.output[i];
    for (let i = ex.input.length - 1; i >= 0; i--) yield ex.input[i]!.item;
  })();
  for (const item of items) {
    const message = isRecord(item) && (item.type === "message" || item.type === undefined) ? item.role : undefined;
    if (message === "user" || message === "system" || message === "developer") continue;
    return message === "assistant";
  }
  return false;
}

/** Imports Responses API logs: one trajectory per conversation (chain of exchanges). */
export function fromOpenAIResponses(input: unknown, options: ImportOptions = {}): ImportResult {
  return guard(() => importResponses(input, options));
}

function importResponses(input: unknown, options: ImportOptions): ImportResult {
  let exchanges: (Exchange | ImportError)[];
  if (Array.isArray(input) && input.length > 0 && input.every(isItem)) {
    // A bare item list (a stored conversation, an `input` array): one conversation.
    exchanges = [{ input: asItems(input, ""), rawInput: input, output: [], outputPath: "", path: "" }];
  } else if (Array.isArray(input)) {
    exchanges = input.map((value, i) => {
      try {
        return exchange(value, `[${i}]`);
      } catch (error) {
        if (error instanceof ImportError) return error;
        throw error;
      }
    });
  } else {
    try {
      exchanges = [exchange(input, "")];
    } catch (error) {
      if (error instanceof ImportError) return failed(error.path, error.reason);
      throw error;
    }
  }
  const bad = exchanges.filter((e): e is ImportError => e instanceof ImportError);
  const units: (Chain | ImportError)[] = [...chains(exchanges.filter((e): e is Exchange => !(e instanceof ImportError))), ...bad];
  return importEach(units, (unit, i) => {
    if (unit instanceof ImportError) throw unit;
    return importChain(unit, i, units.length, options);
  });
}
