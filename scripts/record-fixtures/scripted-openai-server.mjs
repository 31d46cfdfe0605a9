// A scripted OpenAI-compatible model on 127.0.0.1, used only to record the
// importer fixtures offline: the real SDKs (the Agents SDK, the AI SDK,
// LangChain, the OpenInference and OpenTelemetry instrumentations) talk to it
// over HTTP exactly as they would talk to the real API. It answers Chat
// Completions and Responses requests from a script, in order, and captures
// whatever the Agents SDK's trace exporter posts to /v1/traces/ingest.
// No dependencies; nothing here reaches beyond the loopback interface.
import { createServer } from "node:http";

/** Starts the server. `script` is an array of steps, answered in order (per endpoint kind). */
export async function startScriptedServer() {
  const queues = { chat: [], responses: [] };
  const requests = [];
  const ingested = [];
  let counter = 0;
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString("utf8");
    const body = text ? JSON.parse(text) : undefined;
    requests.push({ path: req.url, body });
    const send = (status, value) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (req.url.endsWith("/traces/ingest")) {
      ingested.push(body);
      return send(200, {});
    }
    const kind = req.url.endsWith("/chat/completions") ? "chat" : req.url.endsWith("/responses") ? "responses" : undefined;
    if (!kind) return send(404, { error: { message: `no route ${req.url}` } });
    const step = queues[kind].shift();
    if (!step) return send(500, { error: { message: `script exhausted for ${kind}` } });
    counter += 1;
    const reply = kind === "chat" ? chatCompletion(body.model, counter, step) : response(body.model, counter, step);
    if (body.stream) {
      // Only the AI SDK's streamText asks for streams here; send one chunk per event.
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const event of kind === "chat" ? chatChunks(reply) : []) res.write(`data: ${JSON.stringify(event)}\n\n`);
      res.end("data: [DONE]\n\n");
      return;
    }
    send(200, reply);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    ingestURL: `http://127.0.0.1:${port}/v1/traces/ingest`,
    requests,
    ingested,
    /** Queues the next answers for Chat Completions requests. */
    chat: (...steps) => queues.chat.push(...steps),
    /** Queues the next answers for Responses requests. */
    responses: (...steps) => queues.responses.push(...steps),
    /** Drops answers that were queued but never asked for. */
    clear: () => {
      queues.chat.length = 0;
      queues.responses.length = 0;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * A step: `{ text?, calls?: [{ id, name, arguments }], finish? }`.
 * `arguments` is the JSON text as a model would write it.
 */
function chatCompletion(model, n, step) {
  const calls = step.calls ?? [];
  return {
    id: `chatcmpl-rec${n}`,
    object: "chat.completion",
    created: 1767225600 + n,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: step.text ?? null,
          refusal: null,
          ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) } : {}),
        },
        finish_reason: step.finish ?? (calls.length ? "tool_calls" : "stop"),
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 50 + n, completion_tokens: 10 + n, total_tokens: 60 + 2 * n },
  };
}

function chatChunks(completion) {
  const choice = completion.choices[0];
  const base = { id: completion.id, object: "chat.completion.chunk", created: completion.created, model: completion.model };
  const chunks = [];
  if (choice.message.content) chunks.push({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: choice.message.content }, finish_reason: null }] });
  (choice.message.tool_calls ?? []).forEach((call, index) =>
    chunks.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id: call.id, type: "function", function: call.function }] }, finish_reason: null }] }),
  );
  chunks.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: choice.finish_reason }], usage: completion.usage });
  return chunks;
}

function response(model, n, step) {
  const output = [];
  for (const c of step.calls ?? []) {
    output.push({ type: "function_call", id: `fc_rec${n}_${c.id}`, call_id: c.id, name: c.name, arguments: c.arguments, status: "completed" });
  }
  if (step.text !== undefined) {
    output.push({
      type: "message",
      id: `msg_rec${n}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: step.text, annotations: [] }],
    });
  }
  return {
    id: `resp_rec${n}`,
    object: "response",
    created_at: 1767225600 + n,
    status: "completed",
    model,
    output,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: {
      input_tokens: 50 + n,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 10 + n,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 60 + 2 * n,
    },
  };
}
