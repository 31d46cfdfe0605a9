// Records the vercel-ai importer fixtures: generateText agent loops run by the
// real AI SDK (the current major, v5, and v4 installed side by side under npm
// aliases) with its OpenAI provider, against the canned server on 127.0.0.1
// answering in the Chat Completions wire format. The `steps` and
// `response.messages` in the fixtures are what each SDK produced.
//   npm install --prefix scripts/record-fixtures/vercel-ai
//   node scripts/record-fixtures/vercel-ai/record.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as ai from "ai";
import * as ai5 from "ai-v5";
import * as ai4 from "ai-v4";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAI as createOpenAI2 } from "ai-sdk-openai-v2";
import { createOpenAI as createOpenAI1 } from "ai-sdk-openai-v1";
import { z } from "zod";
import { pretty, startCannedServer } from "../canned-server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "..", "..", "test", "fixtures", "importers", "vercel-ai");
const MODEL = "gpt-4.1-2025-04-14";
const CREATED = 1764547200;
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

const server = await startCannedServer();

function write(name, value) {
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, name), typeof value === "string" ? value : pretty(value));
}

/**
 * Steps hold timestamps, timings, the server's port, response headers and ids the SDK draws at
 * random (message ids, call ids of the run); those change on every run, so
 * they are pinned (ids renumbered in order of appearance) to keep
 * re-recording byte-stable. Nothing else is touched.
 */
function stable(value) {
  const ids = new Map();
  const pin = (v) => {
    if (!ids.has(v)) ids.set(v, `${v.split("-")[0]}-rec${ids.size + 1}`);
    return ids.get(v);
  };
  const zeroNumbers = (v) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "number" ? 0 : x)));
  return JSON.parse(
    JSON.stringify(value, (key, v) => {
      if (typeof v === "string" && v.includes(server.url)) return v.replaceAll(server.url, "http://127.0.0.1:4010");
      if (key === "timestamp") return new Date(CREATED * 1000).toISOString();
      if (key === "headers" && v && typeof v === "object") return Object.fromEntries(Object.entries(v).filter(([k]) => k === "content-type"));
      if (key === "performance" && v && typeof v === "object") return zeroNumbers(v);
      if ((key === "id" || key === "callId") && typeof v === "string" && /^(msg|call|aitxt|aiobj|txt|reasoning)-[A-Za-z0-9]{10,}$/.test(v)) return pin(v);
      return v;
    }),
  );
}

let counter = 0;
function completion(message, finish_reason) {
  counter++;
  return {
    id: `chatcmpl-ai${String(counter).padStart(4, "0")}`,
    object: "chat.completion",
    created: CREATED + counter,
    model: MODEL,
    choices: [{ index: 0, message: { role: "assistant", content: null, refusal: null, annotations: [], ...message }, logprobs: null, finish_reason }],
    usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
  };
}
/** The same completion as server-sent chunks, as the Chat Completions API streams it. */
function chunks(body) {
  const head = { id: body.id, object: "chat.completion.chunk", created: body.created, model: body.model };
  const message = body.choices[0].message;
  const events = [{ data: { ...head, choices: [{ index: 0, delta: { role: "assistant", content: message.content ?? "" }, finish_reason: null }] } }];
  (message.tool_calls ?? []).forEach((call, index) => events.push({ data: { ...head, choices: [{ index: 0, delta: { tool_calls: [{ index, ...call }] }, finish_reason: null }] } }));
  events.push({ data: { ...head, choices: [{ index: 0, delta: {}, finish_reason: body.choices[0].finish_reason }] } });
  events.push({ data: { ...head, choices: [], usage: body.usage } });
  events.push({ data: "[DONE]" });
  return events;
}
const toolCall = (id, name, args) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const ORDERS = { "A-1001": { item: "kettle", amount: 25 }, "A-1002": { item: "toaster", amount: 40 }, "B-7": { item: "lamp", amount: 60 } };
/** Tool bodies shared by every SDK version; A-1001's lookup is slow, so it finishes after A-1002's. */
const run = {
  get_order: async ({ order_id }) => {
    await sleep(order_id === "A-1001" ? 60 : 5);
    return ORDERS[order_id] ? { status: "found", order_id, ...ORDERS[order_id] } : { status: "not_found", order_id };
  },
  issue_refund: async ({ order_id, amount }) => {
    if (order_id === "A-1002") throw new Error("payment processor timeout");
    return { status: "approved", order_id, amount, reference: `RF-${order_id}` };
  },
  send_email: async ({ template, to }) => ({ status: "sent", template, to }),
};
const shapes = {
  get_order: z.object({ order_id: z.string() }),
  issue_refund: z.object({ order_id: z.string(), amount: z.number() }),
  send_email: z.object({ template: z.string(), to: z.string() }),
  escalate_to_supervisor: z.object({ reason: z.string() }),
};

/** v5 and later spell a tool's schema `inputSchema`; v4 spelled it `parameters`. escalate_to_supervisor has no execute: a human-in-the-loop tool. */
function toolSet(tool, schemaKey) {
  const set = {};
  for (const [name, schema] of Object.entries(shapes)) {
    set[name] = tool({ description: `The ${name} tool`, [schemaKey]: schema, ...(run[name] ? { execute: run[name] } : {}) });
  }
  return set;
}

const refundTurns = () => [
  completion({ tool_calls: [toolCall("call_lookupA1001", "get_order", { order_id: "A-1001" }), toolCall("call_lookupA1002", "get_order", { order_id: "A-1002" })] }, "tool_calls"),
  completion({ tool_calls: [toolCall("call_refundA1001", "issue_refund", { order_id: "A-1001", amount: 25 }), toolCall("call_refundA1002", "issue_refund", { order_id: "A-1002", amount: 40 })] }, "tool_calls"),
  completion({ tool_calls: [toolCall("call_emailA1001", "send_email", { template: "refund_confirmation", to: "dana@example.com" })] }, "tool_calls"),
  completion({ content: "A-1001 is refunded and confirmed by email; the A-1002 refund failed at the processor." }, "stop"),
];
const refundPrompt = (imagePart) => [
  { role: "user", content: [{ type: "text", text: "Orders A-1001 and A-1002 arrived broken, photo attached. Refund both; I'm dana@example.com." }, imagePart] },
];

// ---- The current major: `input` / `output`, tool-error parts, stopWhen ----
{
  const openai = createOpenAI({ apiKey: "sk-local", baseURL: `${server.url}/v1` });
  const tools = toolSet(ai.tool, "inputSchema");
  server.answer(...refundTurns());
  const messages = refundPrompt({ type: "file", mediaType: "image/png", data: PIXEL });
  const result = await ai.generateText({ model: openai.chat(MODEL), system: "You are a refund support agent.", messages, tools, stopWhen: ai.stepCountIs(6) });
  write("v7-steps.json", stable(result.steps));
  // v7 moved the messages of all steps from `response.messages` to `responseMessages`.
  write("v7-history.json", stable([...messages, ...result.responseMessages]));

  // streamText runs the same loop but records each result as its tool finishes: the slow
  // A-1001 lookup lands after A-1002's, so the step content has results out of call order.
  for (const body of refundTurns()) server.stream(chunks(body));
  const streamed = ai.streamText({ model: openai.chat(MODEL), system: "You are a refund support agent.", messages, tools, stopWhen: ai.stepCountIs(6) });
  await streamed.consumeStream();
  write("v7-stream-steps.json", stable(await streamed.steps));

  // A tool with no execute (human approval): the step ends on tool-calls and the call has no result.
  server.answer(completion({ tool_calls: [toolCall("call_escalateC9", "escalate_to_supervisor", { reason: "order not found" })] }, "tool_calls"));
  const cut = await ai.generateText({ model: openai.chat(MODEL), prompt: "Escalate my case about order C-9.", tools, stopWhen: ai.stepCountIs(3) });
  server.answer(completion({ content: "Damaged items can be refunded within 30 days." }, "stop"));
  const policyMessages = [{ role: "user", content: "What is your refund policy?" }];
  const policy = await ai.generateText({ model: openai.chat(MODEL), messages: policyMessages, tools });
  // A careless run: refunds without looking the order up, and never emails the confirmation.
  server.answer(
    completion({ tool_calls: [toolCall("call_refundA1001", "issue_refund", { order_id: "A-1001", amount: 25 })] }, "tool_calls"),
    completion({ content: "Refunded, the money is on its way." }, "stop"),
  );
  const carelessMessages = [{ role: "user", content: "Just refund A-1001, $25, no questions." }];
  const careless = await ai.generateText({ model: openai.chat(MODEL), messages: carelessMessages, tools, stopWhen: ai.stepCountIs(4) });
  // Several conversations in one file: one persisted history per line.
  write(
    "v7-several-conversations.jsonl",
    [
      stable([{ role: "user", content: "Escalate my case about order C-9." }, ...cut.responseMessages]),
      stable([...policyMessages, ...policy.responseMessages]),
      stable([...carelessMessages, ...careless.responseMessages]),
    ]
      .map((h) => JSON.stringify(h))
      .join("\n") + "\n",
  );
}

// ---- v5: the same spelling as today, recorded from the v5 package ----
{
  const openai = createOpenAI2({ apiKey: "sk-local", baseURL: `${server.url}/v1` });
  const tools = toolSet(ai5.tool, "inputSchema");
  server.answer(...refundTurns());
  const messages = refundPrompt({ type: "image", image: PIXEL, mediaType: "image/png" });
  const result = await ai5.generateText({ model: openai.chat(MODEL), messages, tools, stopWhen: ai5.stepCountIs(6) });
  write("v5-steps.json", stable(result.steps));
  write("v5-history.json", stable([...messages, ...result.response.messages]));
}

// ---- v4: `args` / `result`, maxSteps; a throwing tool aborts the whole call in v4, so no error case here ----
{
  const openai = createOpenAI1({ apiKey: "sk-local", baseURL: `${server.url}/v1` });
  const tools = toolSet(ai4.tool, "parameters");
  server.answer(
    completion({ tool_calls: [toolCall("call_lookupA1001", "get_order", { order_id: "A-1001" }), toolCall("call_lookupB7", "get_order", { order_id: "B-7" })] }, "tool_calls"),
    completion({ tool_calls: [toolCall("call_refundA1001", "issue_refund", { order_id: "A-1001", amount: 25 })] }, "tool_calls"),
    completion({ tool_calls: [toolCall("call_emailA1001", "send_email", { template: "refund_confirmation", to: "dana@example.com" })] }, "tool_calls"),
    completion({ content: "A-1001 is refunded; B-7 needs no refund." }, "stop"),
  );
  const messages = [{ role: "user", content: [{ type: "text", text: "Refund A-1001, and check B-7. Receipt attached." }, { type: "image", image: PIXEL, mimeType: "image/png" }] }];
  const result = await ai4.generateText({ model: openai.chat(MODEL), messages, tools, maxSteps: 6 });
  write("v4-steps.json", stable(result.steps));
  write("v4-history.json", stable([...messages, ...result.response.messages]));
}

if (server.pending() !== 0) throw new Error(`unused canned answers: ${server.pending()}`);
await server.close();
