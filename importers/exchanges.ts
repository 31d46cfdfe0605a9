/**
 * What chat-style logs have in common (Chat Completions, Anthropic Messages):
 * a conversation is a message list, maybe with the response that answered it,
 * logged in one of a few shapes. This module turns any of those shapes into
 * conversations, so each importer only maps messages.
 */
import { ImportError, boundedJson, checkNesting, failed, guard, importEach, isRecord } from "./core.js";
import type { ImportResult, TrajectoryBuilder } from "./core.js";

/** One conversation: its messages (with where they are in the input) and, when logged, the final response. */
export interface Conversation {
  messages: readonly unknown[];
  /** Path of the message list in the input, e.g. `[2].request.messages`, `messages`, or "" for a bare list. */
  path: string;
  /** The response that followed the messages, if the log has it. */
  response?: Record<string, unknown>;
  responsePath?: string;
  /** The native id (a response id, or the line's own `id`). */
  nativeId?: unknown;
  /** The request's model, if logged. */
  model?: unknown;
}

export interface ShapeRules {
  /** A message object of this format (a cheap test on one element). */
  isMessage(value: unknown): boolean;
  /** A response object of this format (a ChatCompletion, an Anthropic Message). */
  isResponse(value: unknown): boolean;
  /** The assistant message a response contributes to the conversation. */
  responseMessages(response: Record<string, unknown>): unknown[];
  /**
   * A logged exchange in a shape of the format's own (a Bedrock invocation
   * log record), tried before the common shapes; an ImportError for a
   * record of that shape that is bad (it takes that record's place only).
   */
  unwrap?(value: Record<string, unknown>, path: string): Conversation | ImportError | undefined;
}

export function join(prefix: string, key: string): string {
  return prefix === "" ? key : `${prefix}.${key}`;
}

/**
 * One logged conversation: a message list; `{messages, response?}` (a request
 * body, a fine-tuning line); `{request: {messages}, response}` (a proxy log);
 * or a response alone.
 */
function single(value: unknown, path: string, rules: ShapeRules): Conversation | ImportError | undefined {
  if (Array.isArray(value)) return { messages: value, path };
  if (!isRecord(value)) return undefined;
  const own = rules.unwrap?.(value, path);
  if (own !== undefined) return own;
  if (Array.isArray(value.messages)) {
    const response = isRecord(value.response) ? value.response : undefined;
    return withResponse(
      { messages: value.messages, path: join(path, "messages"), nativeId: value.id, model: value.model },
      response,
      join(path, "response"),
    );
  }
  if (isRecord(value.request) && Array.isArray(value.request.messages)) {
    const response = isRecord(value.response) ? value.response : undefined;
    return withResponse(
      { messages: value.request.messages, path: join(path, "request.messages"), nativeId: value.id, model: value.request.model },
      response,
      join(path, "response"),
    );
  }
  if (rules.isResponse(value)) return withResponse({ messages: [], path: join(path, "messages") }, value, path);
  return undefined;
}

function withResponse(conversation: Conversation, response: Record<string, unknown> | undefined, responsePath: string): Conversation {
  if (response === undefined) return conversation;
  return {
    ...conversation,
    response,
    responsePath,
    nativeId: response.id ?? conversation.nativeId,
    model: response.model ?? conversation.model,
  };
}

/**
 * A message's JSON as a log compares it with the copy a later request sends
 * back: object keys sorted and null fields left out (the Python SDKs dump a
 * response's blocks in their models' field order, with `citations: null`),
 * and a `content` of one plain text part written as that text (a reply
 * sent back as a string). Undefined past the importers' nesting limit.
 */
export function messageJson(item: unknown): string | undefined {
  if (boundedJson(item) === undefined) return undefined;
  return JSON.stringify(item, (key, value: unknown) => {
    if (key === "content" && Array.isArray(value) && value.length === 1) {
      const part: unknown = value[0];
      if (isRecord(part) && part.type === "text" && typeof part.text === "string") {
        const extra = Object.keys(part).filter((k) => k !== "type" && k !== "text" && part[k] !== null);
        if (extra.length === 0) return part.text;
      }
    }
    if (!isRecord(value)) return value;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) if (value[k] !== null) sorted[k] = value[k];
    return sorted;
  });
}

/**
 * Keys of a list's prefixes: `keys[L]` stands for the first L items, compared
 * by their JSON as messageJson writes it (the same message the same way). A hash
 * keeps a batch of thousands of exchanges linear; a key names the length too,
 * and a hit is confirmed on the JSON itself, so a collision never merges two
 * conversations.
 */
export class PrefixKeys {
  readonly json: string[] = [];
  readonly keys: string[] = ["0:"];
  private static unique = 0;
  private a = 0x811c9dc5;
  private b = 0x01000193;
  constructor(items: readonly unknown[]) {
    this.extend(items);
  }
  /** Appends items (a conversation's history grows exchange by exchange). */
  extend(items: readonly unknown[]): void {
    for (const item of items) {
      // A message nested past the importers' limit matches nothing (its conversation is then an error of its own).
      const text = messageJson(item) ?? `\u0000too deep ${PrefixKeys.unique++}`;
      let { a, b } = this;
      for (let k = 0; k < text.length; k++) {
        const c = text.charCodeAt(k);
        a = Math.imul(a ^ c, 0x01000193) >>> 0;
        b = Math.imul(b + c, 0x5bd1e995) >>> 0;
      }
      a = Math.imul(a ^ 0xff, 0x01000193) >>> 0; // item separator
      this.a = a;
      this.b = b;
      this.json.push(text);
      this.keys.push(`${this.json.length}:${a.toString(36)}.${b.toString(36)}`);
    }
  }
  /** Whether the first `length` items equal `other`'s first `length` items. */
  samePrefix(other: PrefixKeys, length: number): boolean {
    if (this.keys[length] !== other.keys[length]) return false;
    for (let i = 0; i < length; i++) if (this.json[i] !== other.json[i]) return false;
    return true;
  }
}

/**
 * The conversations of an input. A list whose elements are messages is one
 * conversation; a list of logged exchanges is several, except that an exchange
 * whose messages start with the whole of another one (its messages plus its
 * response, compared as messageJson writes them) and go on continues it (an identical copy does not: datasets repeat): a log of every call of one agent loop gives one
 * conversation, read from its last exchange. An element that is no
 * conversation comes back as its ImportError, in its place, so the others
 * still import.
 */
export function conversations(input: unknown, rules: ShapeRules, format: string): (Conversation | ImportError)[] {
  // Any element with a role makes a message list (a misspelled role is then located in it, not a shape error).
  if (Array.isArray(input) && (input.length === 0 || input.some((m) => rules.isMessage(m) || (isRecord(m) && typeof m.role === "string"))))
    return [{ messages: input, path: "" }];
  const one = Array.isArray(input) ? undefined : single(input, "", rules);
  if (one !== undefined) return [one];
  if (!Array.isArray(input))
    throw new ImportError("", `not a ${format} log: expected a message list, {messages}, {request, response} or a response`);
  const found: (Conversation | ImportError)[] = input.map((item, i) => {
    const conversation = single(item, `[${i}]`, rules);
    return (
      conversation ??
      new ImportError(`[${i}]`, `not a ${format} conversation: expected a message list, {messages}, {request, response} or a response`)
    );
  });
  // Drop each exchange that another one continues (its full history is a proper prefix of the other's messages), in whatever order the lines came.
  const wholes = new Map<string, { index: number; keys: PrefixKeys }[]>();
  const continued = new Set<number>();
  found.forEach((current, i) => {
    if (current instanceof ImportError) return;
    const whole = [...current.messages, ...(current.response === undefined ? [] : rules.responseMessages(current.response))];
    if (whole.length === 0) return;
    const keys = new PrefixKeys(whole);
    const key = keys.keys[whole.length]!;
    const list = wholes.get(key);
    if (list === undefined) wholes.set(key, [{ index: i, keys }]);
    else list.push({ index: i, keys });
  });
  found.forEach((current) => {
    if (current instanceof ImportError || current.messages.length < 2) return;
    const mine = new PrefixKeys(current.messages);
    for (let length = 1; length < current.messages.length; length++) {
      for (const other of wholes.get(mine.keys[length]!) ?? [])
        if (!continued.has(other.index) && other.keys.samePrefix(mine, length)) continued.add(other.index);
    }
  });
  const kept = found.filter((_, i) => !continued.has(i));
  return kept;
}

/**
 * Every message list of an input, with the responses logged beside them, for
 * the shape tests: a bare list, one logged exchange, or a list of exchanges.
 */
export function allMessageLists(
  input: unknown,
  isMessage: (value: unknown) => boolean,
): { messages: unknown[]; responses: unknown[] } | undefined {
  if (Array.isArray(input) && input.length > 0 && isMessage(input[0])) return { messages: input, responses: [] };
  const units = Array.isArray(input) ? input : [input];
  const messages: unknown[] = [];
  const responses: unknown[] = [];
  for (const unit of units) {
    if (Array.isArray(unit)) {
      for (const message of unit) messages.push(message);
      continue;
    }
    if (!isRecord(unit)) return undefined;
    // An eval sample (Inspect AI: id, epoch, input beside its messages) is its own format, not a logged exchange.
    if (Array.isArray(unit.messages) && "epoch" in unit && "input" in unit) return undefined;
    // Nor is a mini-swe-agent trajectory (its messages beside trajectory_format and the run's info).
    if (Array.isArray(unit.messages) && typeof unit.trajectory_format === "string") return undefined;
    // One at a time: a spread of a long list (over about 100,000 messages) overflows the stack.
    if (Array.isArray(unit.messages)) for (const message of unit.messages) messages.push(message);
    else if (isRecord(unit.request) && Array.isArray(unit.request.messages))
      for (const message of unit.request.messages) messages.push(message);
    else if (unit.response === undefined) responses.push(unit);
    if (unit.response !== undefined) responses.push(unit.response);
  }
  return { messages, responses };
}

/**
 * Imports every conversation of a message log with `importOne`: a shape that
 * is no log of `format` is the result's one error; a bad conversation is its
 * own error, in its place, and the others still import.
 */
export function importConversations(
  input: unknown,
  rules: ShapeRules,
  format: string,
  importOne: (conversation: Conversation, index: number, count: number) => TrajectoryBuilder,
): ImportResult {
  return guard(() => {
    const units = conversations(input, rules, format);
    return importEach(units, (unit, i) => {
      if (unit instanceof ImportError) throw unit;
      checkNesting(unit.messages, unit.path);
      if (unit.response !== undefined) checkNesting(unit.response, unit.responsePath ?? "");
      return importOne(unit, i, units.length);
    });
  });
}
