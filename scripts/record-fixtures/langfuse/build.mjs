// Builds the hand-made `langfuse` importer fixtures. Langfuse's server and
// SDKs cannot run here, so these are written from the writers' published
// source (see test/fixtures/importers/langfuse/README.md for the files and
// commits): the observation keys of the UI download
// (web/src/features/traces/server/buildTraceExport.ts), the payloads of the
// Python SDK's LangChain CallbackHandler (langfuse/langchain/CallbackHandler.py)
// and of the OTel ingestion (packages/shared/src/server/otel/OtelIngestionProcessor.ts:
// `metadata.attributes` without the message attributes, which become input and
// output; `metadata.scope`). Input, output and metadata are JSON text, as in
// real downloads; observations are written in no particular order.
//   node scripts/record-fixtures/langfuse/build.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "../../../test/fixtures/importers/langfuse");
mkdirSync(out, { recursive: true });
const write = (name, value) => writeFileSync(join(out, name), JSON.stringify(value, null, 2) + "\n");

const PROJECT = "cmfixture0000langfuse000001";
const at = (base, ms) => new Date(Date.parse(base) + ms).toISOString();
const json = (v) => (v === undefined ? null : JSON.stringify(v));

/** One observation with the keys of the UI download; input, output and metadata as JSON text. */
function observation(traceId, base, o) {
  const start = at(base, o.start);
  const end = o.end === null ? null : at(base, o.end);
  return {
    id: o.id,
    traceId,
    startTime: start,
    endTime: end,
    projectId: PROJECT,
    parentObservationId: o.parent ?? null,
    type: o.type,
    environment: "default",
    name: o.name,
    level: o.level ?? "DEFAULT",
    statusMessage: o.statusMessage ?? null,
    version: null,
    createdAt: at(base, 60_000),
    updatedAt: at(base, 60_500),
    input: json(o.input),
    output: json(o.output),
    model: o.model ?? null,
    modelParameters: o.model === undefined ? {} : { temperature: 0 },
    completionStartTime: null,
    promptId: null,
    promptName: null,
    promptVersion: null,
    latency: end === null ? null : (o.end - o.start) / 1000,
    timeToFirstToken: null,
    usageDetails: o.model === undefined ? {} : { input: 120, output: 24, total: 144 },
    costDetails: {},
    toolDefinitions: {},
    toolCalls: [],
    toolCallNames: [],
    metadata: json(o.metadata),
  };
}

/** Observations in a fixed shuffle: a download is in no time order. */
function shuffled(list) {
  const order = [5, 0, 9, 2, 11, 7, 1, 10, 4, 8, 3, 6, 12, 13, 14, 15];
  const rank = new Map(order.map((k, i) => [k, i]));
  return list
    .map((o, i) => ({ o, r: rank.get(i) ?? 100 + i }))
    .sort((a, b) => a.r - b.r)
    .map((x) => x.o);
}

const TOOL_DEFS = ["transfer_to_refunds", "lookup_order", "check_policy", "issue_refund"].map((name) => ({
  role: "tool",
  content: { type: "function", function: { name, description: `The ${name} tool.`, parameters: { type: "object", properties: {} } } },
}));

// 1. The LangChain CallbackHandler of the Python SDK (v3, scope langfuse-sdk): a LangGraph graph of a
//    triage agent and a refunds agent. Generations hold `{role, content, tool_calls}` dicts (LangChain's
//    tool_calls), tool definitions appended as `role: tool` messages; tools are TOOL observations with a
//    ToolMessage output; the refund tool fails (on_tool_error: level ERROR, the error as statusMessage).
function langchainDownload() {
  const traceId = "4c1e0c1d2b6f4a9e8d7c6b5a49382716";
  const base = "2025-11-03T10:15:00.000Z";
  const sdk = { resourceAttributes: { "service.name": "refund-desk", "telemetry.sdk.language": "python" }, scope: { name: "langfuse-sdk", version: "3.8.1", attributes: { public_key: "pk-lf-fixture" } } };
  const meta = (node, step) => ({ tags: ["refund-desk"], thread_id: "thread-7", langgraph_step: step, langgraph_node: node, ...sdk });
  const user = {
    role: "user",
    content: [
      { type: "text", text: "Order A-1001 arrived broken. Please refund it." },
      { type: "image_url", image_url: { url: "https://example.com/photos/a-1001.jpg" } },
    ],
  };
  const system = (who) => ({ role: "system", content: `You are the ${who} desk of a shop.` });
  const lookupCall = { name: "lookup_order", args: { order_id: "A-1001" }, id: "call_lookup_1", type: "tool_call" };
  const policyCall = { name: "check_policy", args: { reason: "damaged", items: [{ sku: "MUG-1" }] }, id: "call_policy_1", type: "tool_call" };
  const refundCall = { name: "issue_refund", args: { order_id: "A-1001", amount: 18.5 }, id: "call_refund_1", type: "tool_call" };
  const toolMessage = (content, id, name) => ({ content, additional_kwargs: {}, response_metadata: {}, type: "tool", name, id: null, tool_call_id: id, artifact: null, status: "success" });
  const order = { order_id: "A-1001", status: "delivered", items: [{ sku: "MUG-1", price: 18.5 }] };
  const policy = { eligible: true, reason: "damaged" };
  const refundsHistory = [system("refunds"), user, { role: "assistant", content: "Passing you to our refunds desk." }];
  const obs = [
    { id: "obs-root", type: "SPAN", name: "LangGraph", start: 0, end: 9000, input: { messages: [{ content: user.content, type: "human" }] }, output: { messages: [] }, metadata: { tags: ["refund-desk"], thread_id: "thread-7", ...sdk } },
    { id: "obs-triage", parent: "obs-root", type: "AGENT", name: "triage", start: 10, end: 2400, metadata: meta("triage", 1) },
    {
      id: "gen-1", parent: "obs-triage", type: "GENERATION", name: "ChatOpenAI", model: "gpt-4.1-mini", start: 20, end: 900,
      input: [system("triage"), user, ...TOOL_DEFS.slice(0, 1)],
      output: { role: "assistant", content: "", tool_calls: [{ name: "transfer_to_refunds", args: {}, id: "call_transfer_1", type: "tool_call" }] },
      metadata: meta("triage", 1),
    },
    { id: "tool-transfer", parent: "obs-triage", type: "TOOL", name: "transfer_to_refunds", start: 910, end: 930, input: {}, output: toolMessage("Transferred to refunds.", "call_transfer_1", "transfer_to_refunds"), metadata: meta("tools", 2) },
    {
      id: "gen-2", parent: "obs-triage", type: "GENERATION", name: "ChatOpenAI", model: "gpt-4.1-mini", start: 940, end: 2300,
      input: [system("triage"), user, { role: "assistant", content: "", tool_calls: [{ name: "transfer_to_refunds", args: {}, id: "call_transfer_1", type: "tool_call" }] }, { role: "tool", content: "Transferred to refunds.", tool_call_id: "call_transfer_1" }, ...TOOL_DEFS.slice(0, 1)],
      output: { role: "assistant", content: "Passing you to our refunds desk." },
      metadata: meta("triage", 3),
    },
    { id: "obs-refunds", parent: "obs-root", type: "AGENT", name: "refunds", start: 2500, end: 8900, metadata: meta("refunds", 4) },
    {
      id: "gen-3", parent: "obs-refunds", type: "GENERATION", name: "ChatOpenAI", model: "gpt-4.1-mini", start: 2510, end: 3400,
      input: [...refundsHistory, ...TOOL_DEFS.slice(1)],
      output: { role: "assistant", content: "", tool_calls: [lookupCall, policyCall] },
      metadata: meta("refunds", 4),
    },
    // Parallel tools: the lookup starts first and ends last.
    { id: "tool-lookup", parent: "obs-refunds", type: "TOOL", name: "lookup_order", start: 3410, end: 3900, input: { order_id: "A-1001" }, output: toolMessage(JSON.stringify(order), "call_lookup_1", "lookup_order"), metadata: meta("tools", 5) },
    { id: "tool-policy", parent: "obs-refunds", type: "TOOL", name: "check_policy", start: 3411, end: 3600, input: { reason: "damaged", items: [{ sku: "MUG-1" }] }, output: toolMessage(JSON.stringify(policy), "call_policy_1", "check_policy"), metadata: meta("tools", 5) },
    {
      id: "gen-4", parent: "obs-refunds", type: "GENERATION", name: "ChatOpenAI", model: "gpt-4.1-mini", start: 3910, end: 5200,
      input: [...refundsHistory, { role: "assistant", content: "", tool_calls: [lookupCall, policyCall] }, { role: "tool", content: JSON.stringify(policy), tool_call_id: "call_policy_1" }, { role: "tool", content: JSON.stringify(order), tool_call_id: "call_lookup_1" }, ...TOOL_DEFS.slice(1)],
      output: { role: "assistant", content: "", tool_calls: [refundCall] },
      metadata: meta("refunds", 6),
    },
    { id: "tool-refund", parent: "obs-refunds", type: "TOOL", name: "issue_refund", start: 5210, end: 7210, level: "ERROR", statusMessage: "payment gateway timeout", input: { order_id: "A-1001", amount: 18.5 }, metadata: meta("tools", 7) },
    {
      id: "gen-5", parent: "obs-refunds", type: "GENERATION", name: "ChatOpenAI", model: "gpt-4.1-mini", start: 7300, end: 8800,
      input: [...refundsHistory, { role: "assistant", content: "", tool_calls: [refundCall] }, { role: "tool", content: "Error: payment gateway timeout", tool_call_id: "call_refund_1", status: "error" }, ...TOOL_DEFS.slice(1)],
      output: { role: "assistant", content: "I could not refund order A-1001 yet (the payment gateway timed out); a colleague will finish it today." },
      metadata: meta("refunds", 8),
    },
  ];
  const trace = {
    id: traceId,
    projectId: PROJECT,
    name: "refund-desk",
    timestamp: base,
    environment: "default",
    tags: ["refund-desk"],
    bookmarked: false,
    release: null,
    version: null,
    userId: "customer-17",
    sessionId: "thread-7",
    public: false,
    // The download writes the trace's input and output as JSON text of JSON text.
    input: json(json({ messages: [{ content: user.content, type: "human" }] })),
    output: json(json({ messages: [] })),
    createdAt: at(base, 60_000),
    updatedAt: at(base, 60_500),
    metadata: json({ tags: ["refund-desk"], thread_id: "thread-7" }),
    scores: [],
    latency: 9,
  };
  return { trace, observations: shuffled(obs.map((o) => observation(traceId, base, o))) };
}

// 2. GET /api/public/traces/{id} of two traces from an OpenTelemetry GenAI instrumentation (scope
//    `opentelemetry.instrumentation.genai`): invoke_agent, chat and execute_tool spans. Langfuse keeps the
//    span's other attributes in metadata.attributes (as strings) and moved gen_ai.input.messages /
//    gen_ai.output.messages / gen_ai.tool.call.arguments / .result into input and output. The first trace
//    looks the order up before checking the policy (one call per turn); the second is cut off: the cancel
//    tool never ended (no endTime, no output).
function otelApiTraces() {
  const scope = { name: "opentelemetry.instrumentation.genai", version: "0.4.0", attributes: {} };
  const resourceAttributes = { "service.name": "refund-desk", "telemetry.sdk.language": "python", "telemetry.sdk.name": "opentelemetry" };
  const meta = (attributes) => ({ attributes, resourceAttributes, scope });
  const text = (role, content) => ({ role, parts: [{ type: "text", content }] });
  const call = (id, name, args) => ({ role: "assistant", parts: [{ type: "tool_call", id, name, arguments: args }] });
  const response = (id, result) => ({ role: "tool", parts: [{ type: "tool_call_response", id, response: result }] });
  const chat = (finish) => ({ "gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": "gpt-4.1-mini", "gen_ai.response.model": "gpt-4.1-mini-2025-04-14", "gen_ai.response.finish_reasons": JSON.stringify([finish]) });
  const agent = (name) => ({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": name });
  const tool = (name, id) => ({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": id, "gen_ai.tool.type": "function" });
  const order = { order_id: "A-2002", status: "delivered", items: [{ sku: "MUG-1", price: 18.5 }] };
  const ask = text("user", "My order A-2002 came with a broken mug. Can I get a refund?");

  const traceA = "8f3b2a1c0d9e8f7a6b5c4d3e2f1a0b9c";
  const baseA = "2025-11-04T08:00:00.000Z";
  const a = [
    { id: "a000000000000001", type: "AGENT", name: "invoke_agent triage", start: 0, end: 1500, input: [ask], metadata: meta(agent("Triage")) },
    { id: "a000000000000002", parent: "a000000000000001", type: "GENERATION", name: "chat gpt-4.1-mini", model: "gpt-4.1-mini-2025-04-14", start: 10, end: 700, input: [ask], output: [call("call_t1", "transfer_to_refunds", "{}")], metadata: meta(chat("tool_calls")) },
    { id: "a000000000000003", parent: "a000000000000001", type: "TOOL", name: "execute_tool transfer_to_refunds", start: 710, end: 720, input: {}, output: "Transferred to refunds.", metadata: meta(tool("transfer_to_refunds", "call_t1")) },
    { id: "a000000000000004", type: "AGENT", name: "invoke_agent refunds", start: 1600, end: 7000, input: [ask], metadata: meta(agent("Refunds")) },
    { id: "a000000000000005", parent: "a000000000000004", type: "GENERATION", name: "chat gpt-4.1-mini", model: "gpt-4.1-mini-2025-04-14", start: 1610, end: 2200, input: [ask], output: [call("call_l1", "lookup_order", '{"order_id":"A-2002"}')], metadata: meta(chat("tool_calls")) },
    { id: "a000000000000006", parent: "a000000000000004", type: "TOOL", name: "execute_tool lookup_order", start: 2210, end: 2400, input: { order_id: "A-2002" }, output: order, metadata: meta(tool("lookup_order", "call_l1")) },
    {
      id: "a000000000000007", parent: "a000000000000004", type: "GENERATION", name: "chat gpt-4.1-mini", model: "gpt-4.1-mini-2025-04-14", start: 2410, end: 3000,
      input: [ask, call("call_l1", "lookup_order", '{"order_id":"A-2002"}'), response("call_l1", order)],
      output: [call("call_p1", "check_policy", '{"reason":"damaged","items":[{"sku":"MUG-1"}]}')], metadata: meta(chat("tool_calls")),
    },
    // The policy tool answers with MCP-style text parts.
    { id: "a000000000000008", parent: "a000000000000004", type: "TOOL", name: "execute_tool check_policy", start: 3010, end: 3100, input: { reason: "damaged", items: [{ sku: "MUG-1" }] }, output: [{ type: "text", text: '{"eligible":true,"reason":"damaged"}' }], metadata: meta(tool("check_policy", "call_p1")) },
    {
      id: "a000000000000009", parent: "a000000000000004", type: "GENERATION", name: "chat gpt-4.1-mini", model: "gpt-4.1-mini-2025-04-14", start: 3110, end: 3700,
      input: [ask, response("call_p1", '{"eligible":true,"reason":"damaged"}')],
      output: [call("call_r1", "issue_refund", '{"order_id":"A-2002","amount":18.5}')], metadata: meta(chat("tool_calls")),
    },
    { id: "a00000000000000a", parent: "a000000000000004", type: "TOOL", name: "execute_tool issue_refund", start: 3710, end: 5710, level: "ERROR", statusMessage: "payment gateway timeout", input: { order_id: "A-2002", amount: 18.5 }, metadata: meta({ ...tool("issue_refund", "call_r1"), "error.type": "TimeoutError" }) },
    {
      id: "a00000000000000b", parent: "a000000000000004", type: "GENERATION", name: "chat gpt-4.1-mini", model: "gpt-4.1-mini-2025-04-14", start: 5800, end: 6900,
      input: [ask, response("call_r1", "payment gateway timeout")],
      output: [text("assistant", "The refund for A-2002 did not go through (the payment gateway timed out). I have flagged it for a colleague.")], metadata: meta(chat("stop")),
    },
  ];
  const traceB = "1a2b3c4d5e6f708192a3b4c5d6e7f809";
  const baseB = "2025-11-04T09:30:00.000Z";
  const cancel = text("user", "Please cancel order A-3003.");
  const b = [
    { id: "b000000000000001", type: "AGENT", name: "invoke_agent orders", start: 0, end: null, input: [cancel], metadata: meta(agent("Orders")) },
    { id: "b000000000000002", parent: "b000000000000001", type: "GENERATION", name: "chat gpt-4.1-mini", model: "gpt-4.1-mini-2025-04-14", start: 5, end: 600, input: [cancel], output: [call("call_c1", "cancel_order", '{"order_id":"A-3003"}')], metadata: meta(chat("tool_calls")) },
    { id: "b000000000000003", parent: "b000000000000001", type: "TOOL", name: "execute_tool cancel_order", start: 610, end: null, input: { order_id: "A-3003" }, output: null, metadata: meta(tool("cancel_order", "call_c1")) },
  ];
  const trace = (id, name, base, obs, output) => ({
    id,
    timestamp: base,
    name,
    input: obs[0].input,
    output,
    sessionId: null,
    release: null,
    version: null,
    userId: null,
    metadata: { resourceAttributes, scope },
    tags: [],
    public: false,
    environment: "default",
    htmlPath: `/project/${PROJECT}/traces/${id}`,
    latency: 7,
    totalCost: 0.0012,
    observations: shuffled(obs.map((o) => observation(id, base, o))).map((o) => ({ ...o, input: o.input === null ? null : JSON.parse(o.input), output: o.output === null ? null : JSON.parse(o.output), metadata: JSON.parse(o.metadata) })),
    scores: [],
  });
  return [trace(traceA, "invoke_agent triage", baseA, a, null), trace(traceB, "invoke_agent orders", baseB, b, null)];
}

write("refund-langchain.download.json", langchainDownload());
write("refund-genai.api.json", otelApiTraces());
