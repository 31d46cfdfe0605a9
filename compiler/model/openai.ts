/**
 * The host's semantic-call adapter for any OpenAI-compatible chat-completions
 * endpoint, through the `openai` package. It is a transport only: messages
 * in, text and reported usage out. It adds what a network needs and a
 * compiled judge must not carry: timeouts, retries with backoff that honor
 * `Retry-After`, and a limit on requests in flight.
 *
 * `openai` is imported at the first request, so a run that asks nothing
 * never loads it.
 */
import type { AdapterReply, ChatMessage, SemanticAdapter } from "../../runtime/semantic.js";
import { ModelCallError } from "../errors.js";
import { NO_KEY, type ModelConfig } from "./config.js";

export interface TransportOptions {
  /**
   * Per-request timeout, from sending the request to the last byte of the
   * response (default 120 s: reasoning models can think for a while).
   */
  timeoutMs?: number;
  /** Retries after the first attempt, on 429, 5xx, timeouts and connection errors (default 4). */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, with jitter (default 1 s). */
  backoffMs?: number;
  /** Upper bound for any single wait, `Retry-After` included (default 60 s). */
  maxBackoffMs?: number;
  /** Requests in flight at once across all trajectories (default 4). */
  concurrency?: number;
  /** Requests started per minute across all trajectories, retries included (default: no limit). */
  rpm?: number;
}

export const DEFAULT_TRANSPORT: Required<Omit<TransportOptions, "rpm">> = {
  timeoutMs: 120_000,
  maxRetries: 4,
  backoffMs: 1_000,
  maxBackoffMs: 60_000,
  concurrency: 4,
};

/**
 * Paces request starts at `rpm` per minute: each start is 60000/rpm ms after
 * the previous one, so no minute window ever holds more than `rpm` starts and
 * a burst after a quiet spell is not let through at once (providers count
 * per rolling window). Callers are served in arrival order.
 */
export function createPacer(
  rpm: number,
  clock: { now(): number; sleep(ms: number): Promise<void> } = { now: Date.now, sleep: (ms) => sleep(ms) },
): () => Promise<void> {
  const spacing = 60_000 / rpm;
  let next = -Infinity;
  return async () => {
    const now = clock.now();
    const at = Math.max(now, next);
    next = at + spacing;
    if (at > now) await clock.sleep(at - now);
  };
}

/** A counting semaphore: at most `limit` callers run at once, the rest wait in order. */
export function createLimiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  // A freed slot passes straight to the next waiter, still counted as taken:
  // were it freed first, a caller arriving before the waiter resumes (a
  // microtask later) could take it too, one more than the limit.
  const release = () => {
    const next = waiting.shift();
    if (next !== undefined) next();
    else active--;
  };
  return async (task) => {
    if (active >= Math.max(1, limit)) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      release();
    }
  };
}

interface HttpFailure {
  status?: number;
  headers?: { get(name: string): string | null } | undefined;
  name?: string;
  message?: string;
}

/** The `openai` error classes the retry policy tells apart (their `name` is just "Error"). */
interface ErrorClasses {
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
}

/**
 * The attempt's deadline passed before the response was complete. The
 * `openai` client's own timer covers only the wait for the headers (it is
 * cleared once they arrive), so a body that stalls after them would hang
 * the run forever; this deadline covers the whole response.
 */
export class ResponseTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no complete response within ${timeoutMs} ms`);
    this.name = "ResponseTimeoutError";
  }
}

/**
 * Runs one attempt under a deadline of `ms` for the whole response: the
 * signal aborts the request (headers or body, whichever is under way) and
 * the attempt fails with a ResponseTimeoutError, whatever abort error the
 * client raised for it.
 */
async function withDeadline<T>(ms: number, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await attempt(controller.signal);
  } catch (error) {
    throw controller.signal.aborted ? new ResponseTimeoutError(ms) : error;
  } finally {
    clearTimeout(timer);
  }
}

/** 429, 408, 409 and 5xx are worth another try; so are timeouts and dropped connections (no status). */
export function isRetryable(error: unknown, classes: ErrorClasses): boolean {
  if (error instanceof ResponseTimeoutError) return true;
  const status = (error as HttpFailure)?.status;
  if (typeof status === "number") return status === 429 || status === 408 || status === 409 || status >= 500;
  return error instanceof classes.APIConnectionError;
}

/** The wait a server asked for, in ms: `retry-after-ms`, or `Retry-After` as seconds or an HTTP date. */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  const headers = (error as HttpFailure)?.headers;
  if (headers === undefined || typeof headers.get !== "function") return undefined;
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.get("retry-after-ms") !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  const seconds = Number(value);
  if (value.trim() !== "" && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function backoffDelay(attempt: number, options: typeof DEFAULT_TRANSPORT, error: unknown): number {
  const asked = retryAfterMs(error);
  const exponential = options.backoffMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
  return Math.min(options.maxBackoffMs, asked ?? exponential);
}

/**
 * Removes the key from text that came from the server (servers sometimes
 * echo it, in an error or inside an answer): as written, and as it reads
 * inside a JSON string (escaped, `/` as `\/`), so an answer keeps parsing
 * with `[redacted]` in its place. The placeholder sent when there is no key
 * is no secret and is left alone.
 */
export function redactKey(text: string, apiKey: string): string {
  if (apiKey.length < 4 || apiKey === NO_KEY) return text;
  const escaped = JSON.stringify(apiKey).slice(1, -1);
  // Longest first: an escaped form must go whole, before the raw key could match part of it.
  const forms = [...new Set([apiKey, escaped, escaped.replaceAll("/", "\\/")])].sort((a, b) => b.length - a.length);
  let out = text;
  for (const form of forms) out = out.split(form).join("[redacted]");
  return out;
}

function describeError(error: unknown, classes: ErrorClasses): string {
  const failure = error as HttpFailure;
  if (error instanceof classes.APIConnectionTimeoutError || error instanceof ResponseTimeoutError) return "the request timed out";
  const message = (failure?.message ?? String(error)).replace(/\s+/g, " ").trim();
  return typeof failure?.status === "number" && !message.startsWith(String(failure.status))
    ? `HTTP ${failure.status}: ${message}`
    : message;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A 200 response that is no chat completion (`{}`, `[]`, an HTML page from
 * a wrong base URL or a proxy). Not retried: the same server answers the
 * same way, and the message says what the body lacked.
 */
export class MalformedResponseError extends Error {
  constructor(lacked: string, response: unknown, apiKey: string) {
    super(
      `the server's 200 response ${lacked} (got ${excerpt(response, apiKey)}): is the base URL an OpenAI-compatible chat-completions endpoint?`,
    );
    this.name = "MalformedResponseError";
  }
}

/** The body as JSON, key redacted before clipping (a clipped key would not match), at most 120 characters. */
function excerpt(response: unknown, apiKey: string): string {
  const text = redactKey(JSON.stringify(response) ?? String(response), apiKey);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

interface Completion {
  choices: { message: { content?: string | null } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Checks the parts of a completion the reply reads; anything else is a MalformedResponseError naming the missing part. */
function asCompletion(response: unknown, apiKey: string): Completion {
  if (!isObject(response) || !Array.isArray(response.choices)) throw new MalformedResponseError('lacks "choices"', response, apiKey);
  if (response.choices.length === 0) throw new MalformedResponseError('has no choice in "choices"', response, apiKey);
  const first: unknown = response.choices[0];
  if (!isObject(first) || !isObject(first.message)) throw new MalformedResponseError('lacks "choices[0].message"', response, apiKey);
  return response as unknown as Completion;
}

/**
 * Turns a chat-completions response into the adapter's reply. The key is
 * redacted here, before validation and caching: this is the one way an
 * answer enters, so no report, cache entry or retry prompt can carry it.
 */
function toReply(body: unknown, apiKey: string): AdapterReply {
  const response = asCompletion(body, apiKey);
  const text = redactKey(response.choices[0]!.message.content ?? "", apiKey);
  const usage = response.usage;
  if (usage === undefined || usage === null) return { text };
  return { text, usage: { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 } };
}

async function openClient(config: ModelConfig, timeoutMs: number) {
  const { default: OpenAI } = await import("openai");
  const client = new OpenAI({
    apiKey: config.apiKey,
    ...(config.baseURL !== undefined ? { baseURL: config.baseURL } : {}),
    timeout: timeoutMs,
    maxRetries: 0,
    // Debug logging would print request headers; keep the key off every log.
    logLevel: "off",
  });
  // The client's timeout stays as a second guard; the deadline is what bounds the body.
  const request = (messages: ChatMessage[]) =>
    withDeadline(timeoutMs, (signal) =>
      client.chat.completions.create(
        {
          model: config.model,
          messages,
          ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
        },
        { signal },
      ),
    );
  return { request, classes: OpenAI };
}

/**
 * Makes the adapter. `openai` loads on the first request, so a run whose
 * judge never asks (no semantic parts, nothing false) never loads it. The
 * client's own retries are off so that one policy (ours, testable) governs
 * waits and attempts.
 */
export function createOpenAIAdapter(config: ModelConfig, transport: TransportOptions = {}): SemanticAdapter {
  const options = { ...DEFAULT_TRANSPORT, ...dropUndefined(transport) };
  let client: ReturnType<typeof openClient> | undefined;
  const limit = createLimiter(options.concurrency);
  const pace = options.rpm !== undefined ? createPacer(options.rpm) : async () => {};
  return (messages) =>
    limit(async () => {
      const { request, classes } = await (client ??= openClient(config, options.timeoutMs));
      for (let attempt = 0; ; attempt++) {
        try {
          await pace();
          return { ...toReply(await request(messages), config.apiKey), requests: attempt + 1 };
        } catch (error) {
          if (attempt >= options.maxRetries || !isRetryable(error, classes)) {
            const tries = attempt + 1;
            const detail = redactKey(describeError(error, classes), config.apiKey);
            throw new ModelCallError(`${detail}${tries > 1 ? ` (after ${tries} attempts)` : ""}`, tries);
          }
          await sleep(backoffDelay(attempt, options, error));
        }
      }
    });
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
