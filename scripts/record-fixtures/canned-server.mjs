// A canned model API on 127.0.0.1, used only to record importer fixtures
// offline: the real SDKs (openai, @anthropic-ai/sdk, the AI SDK) talk to it
// over HTTP as they would to the real service, and it answers each POST with
// the next canned body from a script. The bodies are written in the
// providers' published wire format; everything in a fixture other than those
// bodies (the messages, items, steps) is what the SDK itself produced.
// No dependencies; nothing here reaches beyond the loopback interface.
import { createServer } from "node:http";

/**
 * Starts the server. Queue answers with `answer(body)` (JSON) or
 * `stream(events)` (server-sent events: an array of `{event?, data}`); each
 * POST takes the next one. `requests` keeps every request body as sent.
 */
export async function startCannedServer() {
  const queue = [];
  const requests = [];
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString("utf8");
    const body = text ? JSON.parse(text) : undefined;
    requests.push({ path: req.url, body });
    const next = queue.shift();
    if (next === undefined) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `script exhausted at ${req.url}` } }));
      return;
    }
    if (next.delayMs) await new Promise((resolve) => setTimeout(resolve, next.delayMs));
    if (next.events) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const event of next.events) {
        if (event.event) res.write(`event: ${event.event}\n`);
        res.write(`data: ${typeof event.data === "string" ? event.data : JSON.stringify(event.data)}\n\n`);
      }
      res.end();
      return;
    }
    res.writeHead(next.status ?? 200, { "content-type": "application/json", ...(next.headers ?? {}) });
    res.end(JSON.stringify(next.body));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (...bodies) => queue.push(...bodies.map((body) => ({ body }))),
    stream: (events) => queue.push({ events }),
    pending: () => queue.length,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Writes `value` as pretty JSON (2 spaces, final newline) so fixture diffs stay readable. */
export function pretty(value) {
  return `${JSON.stringify(value, null, 2)}\n`;
}
