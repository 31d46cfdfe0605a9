// Records the openai-chat and openai-responses importer fixtures: real agent
// loops run through the official `openai` SDK against the canned server on
// 127.0.0.1. The canned bodies are the model's turns, written in the API's
// published wire format; the message lists, request bodies and item lists in
// the fixtures are what the SDK and the loop produced.
//   npm install --prefix scripts/record-fixtures/openai
//   node scripts/record-fixtures/openai/record.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import OpenAI from "openai";
import { pretty, startCannedServer } from "../canned-server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "..", "..", "..", "test", "fixtures", "importers");
const MODEL = "gpt-4.1-2025-04-14";
const CREATED = 1764547200; // 2025-12-01, fixed so re-recording gives the same bytes

const server = await startCannedServer();
const client = new OpenAI({ apiKey: "sk-local", baseURL: `${server.url}/v1`, maxRetries: 0 });

function write(format, name, value) {
  mkdirSync(join(fixtures, format), { recursive: true });
  writeFileSync(join(fixtures, format, name), typeof value === "string" ? value : pretty(value));
}

// ---- the refund-support tools, run for real by the loops ----
const ORDERS = { "A-1001": { item: "kettle", amount: 25 }, "A-1002": { item: "toaster", amount: 40 }, "B-7": { item: "lamp", amount: 60 } };
const tools = {
  get_order: ({ order_id }) =>
    ORDERS[order_id] ? { status: "found", order_id, ...ORDERS[order_id], delivered: true } : { status: "not_found", order_id },
  issue_refund: ({ order_id, amount }) => {
    if (order_id === "A-1002") return { status: "error", error: "payment processor timeout", order_id };
    return { status: "approved", order_id, amount, reference: `RF-${order_id}` };
  },
  send_email: ({ template, to }) => ({ status: "sent", template, to }),
  escalate_to_supervisor: ({ reason }) => ({ status: "escalated", queue: "tier-2", reason }),
  add_case_note: ({ kind }) => ({ status: "saved", kind }),
};
const toolSpecs = [
  ["get_order", "Look an order up", { order_id: { type: "string" } }],
  ["issue_refund", "Refund an order", { order_id: { type: "string" }, amount: { type: "number" } }],
  ["send_email", "Email the customer from a template", { template: { type: "string" }, to: { type: "string" } }],
  ["escalate_to_supervisor", "Hand the case to a supervisor", { reason: { type: "string" } }],
  ["add_case_note", "Write a case note", { kind: { type: "string" }, text: { type: "string" } }],
];
const chatTools = toolSpecs.map(([name, description, properties]) => ({
  type: "function",
  function: { name, description, parameters: { type: "object", properties, required: Object.keys(properties) } },
}));

// ---- Chat Completions wire bodies ----
let chatCounter = 0;
function completion(message, finish_reason) {
  chatCounter++;
  return {
    id: `chatcmpl-rec${String(chatCounter).padStart(4, "0")}`,
    object: "chat.completion",
    created: CREATED + chatCounter,
    model: MODEL,
    choices: [{ index: 0, message: { role: "assistant", content: null, refusal: null, annotations: [], ...message }, logprobs: null, finish_reason }],
    usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
    system_fingerprint: "fp_rec",
  };
}
const toolCall = (id, name, args) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });

/**
 * A hand-written agent loop over chat.completions.create, as the SDK's README
 * shows it. `resultOrder` lets a turn's results be appended in another order
 * than the calls (parallel tools finishing out of order); `stopAfter` ends the
 * loop early, leaving calls without results (a crashed or cut-off run).
 */
async function chatLoop(messages, { resultOrder, stopAfterTurn } = {}) {
  let last;
  for (let turn = 1; ; turn++) {
    last = await client.chat.completions.create({ model: MODEL, messages, tools: chatTools });
    const message = last.choices[0].message;
    messages.push(message);
    if (!message.tool_calls?.length || turn === stopAfterTurn) break;
    const calls = [...message.tool_calls];
    const order = resultOrder?.[turn];
    if (order) calls.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
    for (const call of calls) {
      const output = tools[call.function.name](JSON.parse(call.function.arguments));
      messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(output) });
    }
  }
  return { messages, last };
}

// 1. Parallel calls in one turn, results out of order, a failed refund; logged as the last wire exchange.
server.answer(
  completion({ tool_calls: [toolCall("call_lookupA1001", "get_order", { order_id: "A-1001" }), toolCall("call_lookupA1002", "get_order", { order_id: "A-1002" })] }, "tool_calls"),
  completion(
    {
      tool_calls: [
        toolCall("call_refundA1001", "issue_refund", { order_id: "A-1001", amount: 25 }),
        toolCall("call_refundA1002", "issue_refund", { order_id: "A-1002", amount: 40 }),
      ],
    },
    "tool_calls",
  ),
  completion({ tool_calls: [toolCall("call_emailA1001", "send_email", { template: "refund_confirmation", to: "dana@example.com" })] }, "tool_calls"),
  completion({ content: "I refunded the kettle (A-1001, $25) and emailed the confirmation. The toaster refund (A-1002) failed at the payment processor; I will retry it shortly." }, "stop"),
);
{
  const start = [
    { role: "system", content: "You are a refund support agent. Look orders up before refunding." },
    { role: "user", content: "Orders A-1001 and A-1002 both arrived broken. Please refund both, my email is dana@example.com." },
  ];
  const { last } = await chatLoop(start, { resultOrder: { 1: ["call_lookupA1002", "call_lookupA1001"], 2: ["call_refundA1002", "call_refundA1001"] } });
  // What a logging proxy keeps of the final call: the request body as the SDK sent it, and the completion.
  write("openai-chat", "refund-parallel.json", { request: server.requests.at(-1).body, response: last });
}

// 2. An image in the user message, and a refund call whose result never came (the run was cut off): a message list.
server.answer(
  completion({ tool_calls: [toolCall("call_lookupB7", "get_order", { order_id: "B-7" })] }, "tool_calls"),
  completion({ content: "The lamp is clearly damaged. Refunding now.", tool_calls: [toolCall("call_refundB7", "issue_refund", { order_id: "B-7", amount: 60 })] }, "tool_calls"),
);
{
  const { messages } = await chatLoop(
    [
      {
        role: "user",
        content: [
          { type: "text", text: "My lamp from order B-7 came smashed, photo attached." },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", detail: "low" } },
        ],
      },
    ],
    { stopAfterTurn: 2 },
  );
  write("openai-chat", "photo-cut-off.json", messages);
}

// 3. Several conversations in one file: the fine-tuning / eval JSONL shape, one {messages} per line.
server.answer(
  completion({ content: "Refunds are possible within 30 days of delivery for damaged items." }, "stop"),
  completion({ tool_calls: [toolCall("call_lookupC9", "get_order", { order_id: "C-9" })] }, "tool_calls"),
  completion({ tool_calls: [toolCall("call_escalateC9", "escalate_to_supervisor", { reason: "order not found, customer insists" })] }, "tool_calls"),
  completion({ tool_calls: [toolCall("call_noteC9", "add_case_note", { kind: "handover", text: "C-9 not in the order system." })] }, "tool_calls"),
  completion({ content: "I could not find order C-9, so a supervisor will contact you." }, "stop"),
  // A careless run: refunds without looking the order up, and never emails the confirmation.
  completion({ tool_calls: [toolCall("call_refundA1001", "issue_refund", { order_id: "A-1001", amount: 25 })] }, "tool_calls"),
  completion({ content: "Refunded, the money is on its way." }, "stop"),
);
{
  const one = await chatLoop([{ role: "user", content: "What is your refund policy?" }]);
  const two = await chatLoop([{ role: "user", content: "Refund order C-9 now." }]);
  const three = await chatLoop([{ role: "user", content: "Just refund A-1001, $25, no questions." }]);
  write("openai-chat", "several-conversations.jsonl", [one, two, three].map(({ messages }) => JSON.stringify({ messages })).join("\n") + "\n");
}

// 4. The legacy function-calling spelling: `functions` in the request, `function_call` in the
// assistant message, results as role "function" messages matched by name (no ids).
server.answer(
  completion({ function_call: { name: "get_order", arguments: JSON.stringify({ order_id: "A-1001" }) } }, "function_call"),
  completion({ function_call: { name: "issue_refund", arguments: JSON.stringify({ order_id: "A-1001", amount: 25 }) } }, "function_call"),
  completion({ content: "Done: A-1001 is refunded." }, "stop"),
);
{
  const messages = [{ role: "user", content: "Refund A-1001 please." }];
  const functions = chatTools.map((t) => t.function);
  for (;;) {
    const reply = await client.chat.completions.create({ model: MODEL, messages, functions });
    const message = reply.choices[0].message;
    messages.push(message);
    if (!message.function_call) break;
    const output = tools[message.function_call.name](JSON.parse(message.function_call.arguments));
    messages.push({ role: "function", name: message.function_call.name, content: JSON.stringify(output) });
  }
  write("openai-chat", "legacy-functions.json", messages);
}

// 5. The README's example (examples/refund-support/traces/): a session judged with the
// refund-support example's judge straight from this log. Two refunds approved, only the first emailed.
server.answer(
  completion({ tool_calls: [toolCall("call_lookupA1001", "get_order", { order_id: "A-1001" }), toolCall("call_lookupB7", "get_order", { order_id: "B-7" })] }, "tool_calls"),
  completion({ tool_calls: [toolCall("call_refundA1001", "issue_refund", { order_id: "A-1001", amount: 25 })] }, "tool_calls"),
  completion({ tool_calls: [toolCall("call_emailA1001", "send_email", { template: "refund_confirmation", to: "sam@example.com" })] }, "tool_calls"),
  completion({ tool_calls: [toolCall("call_refundB7", "issue_refund", { order_id: "B-7", amount: 60 })] }, "tool_calls"),
  completion({ content: "Both refunds are approved: $25 for the kettle and $60 for the lamp. The money is on its way." }, "stop"),
);
{
  const { last } = await chatLoop([
    { role: "system", content: "You are a refund support agent. Look orders up before refunding; email a confirmation for every approved refund." },
    { role: "user", content: "My kettle (A-1001) and lamp (B-7) both broke in the first week. Refund both please, sam@example.com." },
  ]);
  const example = join(here, "..", "..", "..", "examples", "refund-support", "traces");
  mkdirSync(example, { recursive: true });
  writeFileSync(join(example, "chat-log.json"), pretty({ request: server.requests.at(-1).body, response: last }));
}

// ---- Responses API wire bodies ----
const responseTools = toolSpecs.map(([name, description, properties]) => ({
  type: "function",
  name,
  description,
  parameters: { type: "object", properties, required: Object.keys(properties), additionalProperties: false },
  strict: true,
}));
let responseCounter = 0;
function responseBody(request, output, { status = "completed", incomplete } = {}) {
  responseCounter++;
  return {
    id: `resp_rec${String(responseCounter).padStart(4, "0")}`,
    object: "response",
    created_at: CREATED + 100 + responseCounter,
    status,
    error: null,
    incomplete_details: incomplete ?? null,
    instructions: request?.instructions ?? null,
    max_output_tokens: request?.max_output_tokens ?? null,
    model: MODEL,
    output,
    parallel_tool_calls: true,
    previous_response_id: request?.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store: true,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: request?.tools ?? [],
    top_p: 1,
    truncation: "disabled",
    usage: { input_tokens: 200, output_tokens: 40, total_tokens: 240, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    user: null,
    metadata: {},
  };
}
const fnCall = (n, call_id, name, args) => ({ type: "function_call", id: `fc_rec${n}`, call_id, name, arguments: JSON.stringify(args), status: "completed" });
const outMessage = (n, text) => ({ type: "message", id: `msg_rec${n}`, status: "completed", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] });

/** Answers the next request with `output` built from that request (so echoed fields match what was sent). */
const responsesScript = [];
const realAnswer = server.answer;
async function respond(params, output, options) {
  // The canned body echoes the request's fields as the real API does; the SDK sends, the server replies.
  realAnswer(responseBody(params, output, options));
  const response = await client.responses.create(params);
  responsesScript.push({ request: server.requests.at(-1).body, response });
  return response;
}
function run(call) {
  return JSON.stringify(tools[call.name](JSON.parse(call.arguments)));
}

// 5. A conversation chained by previous_response_id: an image in the input, reasoning, parallel
// calls answered out of order, a built-in web search, a failed MCP call, and a final message.
{
  responsesScript.length = 0;
  const instructions = "You are a refund support agent. Look orders up before refunding.";
  const r1 = await respond(
    {
      model: MODEL,
      instructions,
      tools: responseTools,
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "Orders A-1001 and A-1002 arrived broken (photo attached). Refund both; email dana@example.com." },
            { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", detail: "low" },
          ],
        },
      ],
    },
    [
      { type: "reasoning", id: "rs_rec1", summary: [{ type: "summary_text", text: "Two orders: look both up first." }] },
      fnCall(1, "call_lookupA1001", "get_order", { order_id: "A-1001" }),
      fnCall(2, "call_lookupA1002", "get_order", { order_id: "A-1002" }),
    ],
  );
  const calls1 = r1.output.filter((item) => item.type === "function_call").reverse(); // A-1002 finished first
  const r2 = await respond(
    { model: MODEL, instructions, tools: responseTools, previous_response_id: r1.id, input: calls1.map((c) => ({ type: "function_call_output", call_id: c.call_id, output: run(c) })) },
    [
      { type: "web_search_call", id: "ws_rec1", status: "completed", action: { type: "search", query: "payment processor outage today" } },
      fnCall(3, "call_refundA1001", "issue_refund", { order_id: "A-1001", amount: 25 }),
      fnCall(4, "call_refundA1002", "issue_refund", { order_id: "A-1002", amount: 40 }),
    ],
  );
  const calls2 = r2.output.filter((item) => item.type === "function_call");
  const r3 = await respond(
    { model: MODEL, instructions, tools: responseTools, previous_response_id: r2.id, input: calls2.map((c) => ({ type: "function_call_output", call_id: c.call_id, output: run(c) })) },
    [
      {
        type: "mcp_call",
        id: "mcp_rec1",
        server_label: "crm",
        name: "send_email",
        arguments: JSON.stringify({ template: "refund_confirmation", to: "dana@example.com" }),
        output: null,
        error: { type: "http_error", code: 503, message: "CRM unavailable" },
        status: "failed",
      },
      fnCall(5, "call_emailA1001", "send_email", { template: "refund_confirmation", to: "dana@example.com" }),
    ],
  );
  const calls3 = r3.output.filter((item) => item.type === "function_call");
  await respond(
    { model: MODEL, instructions, tools: responseTools, previous_response_id: r3.id, input: calls3.map((c) => ({ type: "function_call_output", call_id: c.call_id, output: run(c) })) },
    [outMessage(1, "A-1001 is refunded and confirmed by email. A-1002 failed at the processor; I'll retry.")],
  );
  write("openai-responses", "refund-chained.json", responsesScript);
}

// 6. Manual state (no previous_response_id): the input list grows with every output item and
// result; the last response stops at max_output_tokens, so the run is incomplete.
{
  responsesScript.length = 0;
  const input = [{ role: "user", content: "Refund order B-7, the lamp is broken." }];
  const first = await respond({ model: MODEL, tools: responseTools, input: [...input] }, [fnCall(6, "call_lookupB7", "get_order", { order_id: "B-7" })]);
  input.push(...first.output);
  for (const c of first.output) input.push({ type: "function_call_output", call_id: c.call_id, output: run(c) });
  await respond({ model: MODEL, tools: responseTools, input: [...input], max_output_tokens: 16 }, [
    { type: "message", id: "msg_rec2", status: "incomplete", role: "assistant", content: [{ type: "output_text", text: "I found the lamp order and I am now", annotations: [] }] },
  ], { status: "incomplete", incomplete: { reason: "max_output_tokens" } });
  write("openai-responses", "cut-off-manual-state.json", responsesScript.at(-1));
  // The whole log of that run too: two exchanges, the second repeating the first's items.
  write("openai-responses", "manual-state-log.json", responsesScript);
}

// 7. Several conversations in one log, interleaved (two customers served at once), one line per
// exchange; the chains are told apart by previous_response_id. A call is left without a result.
{
  responsesScript.length = 0;
  const a1 = await respond({ model: MODEL, tools: responseTools, input: "What is your refund policy?" }, [outMessage(3, "Damaged items can be refunded within 30 days.")]);
  const b1 = await respond({ model: MODEL, tools: responseTools, input: "Escalate my case about order C-9." }, [fnCall(7, "call_escalateC9", "escalate_to_supervisor", { reason: "customer request" })]);
  await respond({ model: MODEL, tools: responseTools, previous_response_id: a1.id, input: "And for opened items?" }, [outMessage(4, "Opened items too, if they are faulty.")]);
  const b2 = await respond(
    { model: MODEL, tools: responseTools, previous_response_id: b1.id, input: [{ type: "function_call_output", call_id: "call_escalateC9", output: run(b1.output[0]) }] },
    [fnCall(8, "call_noteC9", "add_case_note", { kind: "handover", text: "Customer asked for a supervisor." })],
  );
  void b2;
  // A third customer, after the others: refunded without a lookup, no confirmation email.
  const c1 = await respond({ model: MODEL, tools: responseTools, input: "Refund A-1001 right now." }, [fnCall(9, "call_refundA1001", "issue_refund", { order_id: "A-1001", amount: 25 })]);
  await respond(
    { model: MODEL, tools: responseTools, previous_response_id: c1.id, input: [{ type: "function_call_output", call_id: "call_refundA1001", output: run(c1.output[0]) }] },
    [outMessage(5, "Refunded, the money is on its way.")],
  );
  write("openai-responses", "interleaved-conversations.jsonl", responsesScript.map((x) => JSON.stringify(x)).join("\n") + "\n");
}

await server.close();
