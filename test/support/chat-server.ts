/**
 * A scripted chat-completions server on 127.0.0.1 for tests: the real
 * `openai` client talks to it over HTTP. Each request is answered by the
 * script (a model reply, an HTTP error with headers, or silence until the
 * client gives up), and every request is recorded so tests can count calls
 * at the server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAIAdapter } from "../../compiler/model/openai.js";
import type { SemanticAdapter } from "../../runtime/semantic.js";

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    temperature?: number;
    [key: string]: unknown;
  };
  /** The last user message: the question being asked (or the retry note). */
  lastUser: string;
  /** All message contents, joined: for matching on text anywhere in the prompt. */
  prompt: string;
}

export type ScriptStep =
  | { reply: string; usage?: { prompt_tokens: number; completion_tokens: number }; delayMs?: number }
  | { status: number; headers?: Record<string, string>; body?: unknown }
  /** Never answer: the client's timeout must fire. */
  | { hang: true }
  /**
   * Send a 200 with its headers and the first bytes of the body, then
   * nothing more: a server (or proxy) that stalls mid-response.
   */
  | { stallAfterHeaders: true };

/** Chooses the answer to request number `index` (0-based). */
export type Script = (request: RecordedRequest, index: number) => ScriptStep;

export interface ChatServer {
  /** OpenAI-style base URL, ending in /v1. */
  baseURL: string;
  requests: RecordedRequest[];
  /** The most requests that were ever open at once. */
  peakInFlight(): number;
  close(): Promise<void>;
}

/** The real `openai` adapter talking to the server: no backoff to wait out and no retry, so each request is the script's. */
export function scriptedAdapter(server: Pick<ChatServer, "baseURL">): SemanticAdapter {
  return createOpenAIAdapter(
    { provider: "openai", apiKey: "k", baseURL: server.baseURL, model: "scripted" },
    { backoffMs: 1, maxRetries: 0 },
  );
}

/** Answers in the given order; past the end, the last step repeats. */
export function inOrder(...steps: ScriptStep[]): Script {
  return (_request, index) => steps[Math.min(index, steps.length - 1)]!;
}

/** A valid answer object as JSON text, for scripts. */
export function answer(
  verdict: "true" | "false" | "na",
  citations: string[],
  options: { naReason?: string | null; reasoning?: string } = {},
): string {
  return JSON.stringify({
    verdict,
    na_reason: options.naReason ?? (verdict === "na" ? "not_applicable" : null),
    reasoning: options.reasoning ?? `Scripted ${verdict}.`,
    citations: citations.map((id) => ({ event_id: id, description: `event ${id}` })),
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function completion(model: string, index: number, step: { reply: string; usage?: { prompt_tokens: number; completion_tokens: number } }) {
  const usage = step.usage ?? { prompt_tokens: 100, completion_tokens: 20 };
  return {
    id: `chatcmpl-${index}`,
    object: "chat.completion",
    created: 0,
    model,
    choices: [{ index: 0, message: { role: "assistant", content: step.reply, refusal: null }, finish_reason: "stop", logprobs: null }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export async function startChatServer(script: Script): Promise<ChatServer> {
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let peak = 0;
  const server = createServer((req, res) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    res.on("close", () => inFlight--);
    void (async () => {
      const text = await readBody(req);
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
        return;
      }
      const body = JSON.parse(text) as RecordedRequest["body"];
      const users = body.messages.filter((m) => m.role === "user");
      const recorded: RecordedRequest = {
        path: req.url,
        authorization: req.headers.authorization,
        body,
        lastUser: users.at(-1)?.content ?? "",
        prompt: body.messages.map((m) => m.content).join("\n"),
      };
      const index = requests.push(recorded) - 1;
      let step: ScriptStep;
      try {
        step = script(recorded, index);
      } catch (error) {
        send(res, 500, { error: { message: `script failed: ${(error as Error).message}` } });
        return;
      }
      if ("hang" in step) return; // the socket stays open until close()
      if ("stallAfterHeaders" in step) {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"id":"chatcmpl-stalled","choices":['); // the rest never comes; the socket stays open until close()
        return;
      }
      if ("status" in step) send(res, step.status, step.body ?? { error: { message: `scripted ${step.status}` } }, step.headers);
      else {
        if (step.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
        send(res, 200, completion(body.model, index, step));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    peakInFlight: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
