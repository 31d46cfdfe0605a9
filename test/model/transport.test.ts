/**
 * The host adapter over real HTTP: the `openai` client against the scripted
 * chat-completions server. Timeouts and backoffs are shortened so the suite
 * stays quick; Retry-After is the server's and is honored as given.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createLimiter, createOpenAIAdapter, redactKey, retryAfterMs, type TransportOptions } from "../../compiler/model/openai.js";
import type { ModelConfig } from "../../compiler/model/config.js";
import { askModel, emptyUsage, type SemanticQuestion } from "../../runtime/semantic.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import { answer, inOrder, startChatServer, type ChatServer, type Script } from "../support/chat-server.js";

const KEY = "sk-test-9f8e7d6c5b4a";
const trajectory = validateTrajectory({
  id: "t-1",
  complete: true,
  events: [
    { id: "e1", actor: "user", action: "message", content: "What is the HSA limit?" },
    { id: "e2", actor: "agent", action: "final_answer", content: "$4,300 (general information, not individual tax advice)." },
  ],
});
const question: SemanticQuestion = {
  kind: "check",
  rule: "Label answers",
  quote: "tells the user it is general information",
  question: "Is the answer labeled as general information?",
};
const FAST: TransportOptions = { backoffMs: 5, maxBackoffMs: 5_000, timeoutMs: 2_000, maxRetries: 2 };

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(script: Script, transport: TransportOptions = FAST, config: Partial<ModelConfig> = {}) {
  server = await startChatServer(script);
  const adapter = createOpenAIAdapter(
    { provider: "openai", apiKey: KEY, baseURL: server.baseURL, model: "test-model", ...config },
    transport,
  );
  return { adapter, server };
}

describe("the OpenAI-compatible adapter", () => {
  it("sends the model and the messages, with the key, and no temperature unless set", async () => {
    const { adapter, server } = await setup(
      inOrder({ reply: answer("true", ["e2"]), usage: { prompt_tokens: 321, completion_tokens: 45 } }),
    );
    const usage = emptyUsage();
    const outcome = await askModel(adapter, trajectory, question, usage);
    expect(outcome).toMatchObject({ kind: "answer", verdict: "true", citations: [{ eventId: "e2" }] });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.body.model).toBe("test-model");
    expect(request!.body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect("temperature" in request!.body).toBe(false);
    expect(request!.authorization).toBe(`Bearer ${KEY}`);
    expect(usage).toEqual({ calls: 1, cachedCalls: 0, failedCalls: 0, requests: 1, inputTokens: 321, outputTokens: 45 });
  });

  it("sends a temperature the user set", async () => {
    const { adapter, server } = await setup(inOrder({ reply: answer("true", ["e2"]) }), FAST, { temperature: 0 });
    await askModel(adapter, trajectory, question);
    expect(server.requests[0]!.body.temperature).toBe(0);
  });

  it("invalid JSON, then a valid retry: two requests, the second shows the error", async () => {
    const { adapter, server } = await setup(inOrder({ reply: "Yes, it is labeled." }, { reply: answer("true", ["e2"]) }));
    const usage = emptyUsage();
    expect(await askModel(adapter, trajectory, question, usage)).toMatchObject({ kind: "answer", verdict: "true" });
    expect(server.requests).toHaveLength(2);
    const retry = server.requests[1]!.body.messages;
    expect(retry.at(-2)).toEqual({ role: "assistant", content: "Yes, it is labeled." });
    expect(retry.at(-1)!.content).toContain("it is not valid JSON");
    expect(usage.calls).toBe(2);
  });

  it("an unknown citation id is invalid: the retry names the id", async () => {
    const { adapter, server } = await setup(inOrder({ reply: answer("false", ["e7"]) }, { reply: answer("false", ["e1"]) }));
    expect(await askModel(adapter, trajectory, question)).toMatchObject({
      kind: "answer",
      verdict: "false",
      citations: [{ eventId: "e1" }],
    });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.lastUser).toContain('citations[0].event_id "e7" is not the id of any event in the trajectory');
  });

  it("two invalid answers: an error outcome after exactly two requests", async () => {
    const { adapter, server } = await setup(inOrder({ reply: "{}" }));
    const outcome = await askModel(adapter, trajectory, question);
    expect(outcome.kind).toBe("error");
    expect(outcome.kind === "error" && outcome.message).toMatch(/^the answer was invalid twice: "verdict" must be/);
    expect(server.requests).toHaveLength(2);
  });

  it("429 with Retry-After: waits as asked, then succeeds", async () => {
    const { adapter, server } = await setup(inOrder({ status: 429, headers: { "retry-after": "1" } }, { reply: answer("true", ["e2"]) }));
    const started = Date.now();
    expect(await askModel(adapter, trajectory, question)).toMatchObject({ kind: "answer" });
    // backoffMs is 5 ms here, so only the server's Retry-After explains a one-second wait.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it("a 500 is retried with backoff", async () => {
    const { adapter, server } = await setup(inOrder({ status: 500 }, { reply: answer("true", ["e2"]) }));
    const usage = emptyUsage();
    expect(await askModel(adapter, trajectory, question, usage)).toMatchObject({ kind: "answer" });
    expect(server.requests).toHaveLength(2);
    // One answered call that took two requests, the first of which failed.
    expect(usage).toMatchObject({ calls: 1, failedCalls: 0, requests: 2 });
  });

  it("a 500 that persists becomes an error after the retries, never a verdict", async () => {
    const { adapter, server } = await setup(inOrder({ status: 500, body: { error: { message: "upstream exploded" } } }));
    const usage = emptyUsage();
    const outcome = await askModel(adapter, trajectory, question, usage);
    expect(server.requests).toHaveLength(3); // 1 + maxRetries
    expect(outcome).toEqual({ kind: "error", message: "the model call failed: 500 upstream exploded (after 3 attempts)" });
    expect(usage).toEqual({ calls: 0, cachedCalls: 0, failedCalls: 1, requests: 3, inputTokens: 0, outputTokens: 0 });
  });

  it("a timeout becomes an error after the retries", async () => {
    const { adapter, server } = await setup(inOrder({ hang: true }), { ...FAST, timeoutMs: 150, maxRetries: 1 });
    const outcome = await askModel(adapter, trajectory, question);
    expect(outcome).toEqual({ kind: "error", message: "the model call failed: the request timed out (after 2 attempts)" });
    expect(server.requests).toHaveLength(2);
  });

  // Item 8 (issue 20): the openai client clears its timer once the headers
  // arrive, so a body that stalls after them hung the run forever.
  it("item 8: a body that stalls after the headers times out, is retried, then is an error", async () => {
    const { adapter, server } = await setup(inOrder({ stallAfterHeaders: true }), { ...FAST, timeoutMs: 300, maxRetries: 1 });
    const started = Date.now();
    const usage = emptyUsage();
    const outcome = await askModel(adapter, trajectory, question, usage);
    expect(outcome).toEqual({ kind: "error", message: "the model call failed: the request timed out (after 2 attempts)" });
    // The server saw the first request stall; on a loaded machine the retry can be aborted
    // before the server has read it, so the attempts are counted at the client.
    expect(server.requests.length).toBeGreaterThanOrEqual(1);
    expect(usage).toMatchObject({ calls: 0, failedCalls: 1, requests: 2 });
    // Two attempts of 300 ms and a 5 ms backoff: bounded by the timeout, not by the server.
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 10_000);

  it("item 8: a stalled body, then a good answer: the retry answers", async () => {
    const { adapter, server } = await setup(inOrder({ stallAfterHeaders: true }, { reply: answer("true", ["e2"]) }), {
      ...FAST,
      timeoutMs: 300,
    });
    expect(await askModel(adapter, trajectory, question)).toMatchObject({ kind: "answer", verdict: "true" });
    expect(server.requests).toHaveLength(2);
  }, 10_000);

  it("item 8: the timeout bounds the whole response, not each stage: a slow body within it is answered", async () => {
    const { adapter } = await setup(inOrder({ reply: answer("true", ["e2"]), delayMs: 50 }), { ...FAST, timeoutMs: 1_000 });
    expect(await askModel(adapter, trajectory, question)).toMatchObject({ kind: "answer", verdict: "true" });
  });

  // Item 25 (issue 20): a 200 `{}` surfaced as "Cannot read properties of undefined (reading '0')".
  it.each([
    [{}, 'lacks "choices" (got {})'],
    [{ choices: "none" }, 'lacks "choices" (got {"choices":"none"})'],
    [{ choices: [] }, 'has no choice in "choices" (got {"choices":[]})'],
    [{ choices: [{ index: 0 }] }, 'lacks "choices[0].message" (got {"choices":[{"index":0}]})'],
    [[1], 'lacks "choices" (got [1])'],
    ["ok", 'lacks "choices" (got "ok")'],
  ])("item 25: a 200 answer %j says what it lacked, and is not retried", async (body, lacked) => {
    const { adapter, server } = await setup(inOrder({ status: 200, body }));
    const outcome = await askModel(adapter, trajectory, question);
    expect(outcome).toEqual({
      kind: "error",
      message: `the model call failed: the server's 200 response ${lacked}: is the base URL an OpenAI-compatible chat-completions endpoint?`,
    });
    expect(server.requests).toHaveLength(1);
  });

  it("item 25: a 200 that is not JSON at all (an HTML page) says so, clipped", async () => {
    const page = `<html>${"x".repeat(500)}</html>`;
    const { adapter } = await setup(inOrder({ status: 200, headers: { "content-type": "text/html" }, body: page }));
    const outcome = await askModel(adapter, trajectory, question);
    expect(outcome.kind).toBe("error");
    const message = outcome.kind === "error" ? outcome.message : "";
    expect(message).toMatch(/^the model call failed: the server's 200 response lacks "choices" \(got "\\"<html>x+…\)/);
    expect(message.length).toBeLessThan(400);
    expect(message).not.toContain("Cannot read properties");
  });

  it("item 25: an echoed key in a malformed 200 answer is redacted", async () => {
    const { adapter } = await setup(inOrder({ status: 200, body: { error: `bad key ${KEY}` } }));
    const outcome = await askModel(adapter, trajectory, question);
    expect(outcome.kind === "error" && outcome.message).toContain('lacks "choices" (got {"error":"bad key [redacted]"})');
  });

  it("a 401 is not retried, and an echoed key never reaches the message", async () => {
    const { adapter, server } = await setup(inOrder({ status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } }));
    const outcome = await askModel(adapter, trajectory, question);
    expect(server.requests).toHaveLength(1);
    expect(outcome.kind).toBe("error");
    const message = outcome.kind === "error" ? outcome.message : "";
    expect(message).toContain("401");
    expect(message).not.toContain(KEY);
    expect(message).toContain("[redacted]");
  });

  it("redacts the key from answers as written and as escaped inside JSON strings; the no-key placeholder is left alone", () => {
    const odd = 'sk-a/b"c\\d';
    const plain = JSON.stringify({ reasoning: `saw ${odd}` });
    const slashes = plain.replace(/\//g, "\\/"); // JSON may write "/" as "\/"
    for (const reply of [plain, slashes]) expect(JSON.parse(redactKey(reply, odd))).toEqual({ reasoning: "saw [redacted]" });
    expect(redactKey(`key: ${odd}.`, odd)).toBe("key: [redacted].");
    expect(redactKey("the no-key server", "no-key")).toBe("the no-key server");
  });

  it("limits requests in flight to the concurrency", async () => {
    const { adapter, server } = await setup(inOrder({ reply: answer("true", ["e2"]), delayMs: 40 }), { ...FAST, concurrency: 2 });
    await Promise.all(Array.from({ length: 6 }, () => askModel(adapter, trajectory, question)));
    expect(server.requests).toHaveLength(6);
    expect(server.peakInFlight()).toBe(2);
  });
});

describe("Retry-After", () => {
  const headers = (h: Record<string, string>) => ({ headers: new Headers(h) });
  it("reads seconds, milliseconds and HTTP dates", () => {
    expect(retryAfterMs(headers({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMs(headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    expect(retryAfterMs(headers({ "retry-after": "Thu, 01 Jan 1970 00:00:03 GMT" }), 1000)).toBe(2000);
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(retryAfterMs(new Error("no headers"))).toBeUndefined();
  });
});

describe("createLimiter", () => {
  /** Queues `fn` behind `depth` microtasks, to land a new caller at every point of a slot's hand-over. */
  function afterMicrotasks(depth: number, fn: () => void): void {
    if (depth === 0) fn();
    else queueMicrotask(() => afterMicrotasks(depth - 1, fn));
  }

  it.each(Array.from({ length: 8 }, (_, depth) => depth))(
    "never lets a newcomer slip in while a freed slot passes to a waiter (newcomer after %i microtasks)",
    async (depth) => {
      const limit = createLimiter(1);
      let active = 0;
      let peak = 0;
      const task = (done: Promise<void>) => async () => {
        active++;
        peak = Math.max(peak, active);
        try {
          await done;
        } finally {
          active--;
        }
      };
      let finishFirst!: () => void;
      const first = limit(task(new Promise<void>((resolve) => (finishFirst = resolve))));
      const waiter = limit(task(new Promise<void>((resolve) => setTimeout(resolve, 20))));
      await new Promise((resolve) => setTimeout(resolve, 5));
      let newcomer: Promise<void> | undefined;
      finishFirst();
      afterMicrotasks(depth, () => {
        newcomer = limit(task(new Promise<void>((resolve) => setTimeout(resolve, 20))));
      });
      await Promise.all([first, waiter]);
      await newcomer;
      expect(peak).toBe(1);
    },
  );
});
