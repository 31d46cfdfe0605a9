// Records the `otel` importer fixtures: real SDKs emit real spans against the
// scripted model on 127.0.0.1, an in-memory exporter keeps them (nothing is
// sent anywhere), and @opentelemetry/otlp-transformer's own JsonTraceSerializer
// writes the OTLP/JSON request body an OTLP/HTTP exporter would post.
//   npm install --prefix scripts/record-fixtures/otel
//   node scripts/record-fixtures/otel/record.mjs
// Producers:
//   ai-sdk-genai.otlp.json    the AI SDK 7 with @ai-sdk/otel's OpenTelemetry integration:
//                             GenAI conventions (invoke_agent, chat, execute_tool, gen_ai.provider.name)
//   ai-sdk-legacy.otlp.json   the same runs through @ai-sdk/otel's LegacyOpenTelemetry:
//                             the AI SDK's ai.* spans (ai.toolCall, ai.toolCall.args/result, gen_ai.system)
//   openinference.otlp.json   @arizeai/openinference-instrumentation-openai on the openai client
//                             (flattened llm.* attributes) with @arizeai/openinference-core's
//                             traceAgent/traceTool wrappers (AGENT and TOOL spans)
//   openinference-base64.otlp.json  the same spans written through the protobuf JSON mapping
//                             (protobufjs toJSON of the OTLP request: base64 ids, enum names,
//                             int64 as strings), the spelling older exporters and collectors used
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { generateText, tool, stepCountIs } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { OpenTelemetry, LegacyOpenTelemetry } from "@ai-sdk/otel";
import OpenAI from "openai";
import { OpenAIInstrumentation } from "@arizeai/openinference-instrumentation-openai";
import { traceAgent, traceTool } from "@arizeai/openinference-core";
import { z } from "zod";
import protobufRoot from "otlp-transformer-protobufjs/build/src/generated/root.js";
import { startScriptedServer } from "../scripted-openai-server.mjs";
import { scrubPaths } from "../scrub-paths.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "../../../test/fixtures/importers/otel");
mkdirSync(out, { recursive: true });

const contextManager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(contextManager);
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ "service.name": "refund-desk" }),
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
trace.setGlobalTracerProvider(provider);
const tracer = provider.getTracer("record-fixtures");

const server = await startScriptedServer();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Failing tools leave stack traces in exception events: paths of this checkout become a neutral root.
function writeOtlp(name) {
  const spans = exporter.getFinishedSpans();
  const body = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)));
  writeFileSync(join(out, name), scrubPaths(JSON.stringify(body, null, 2)) + "\n");
  return spans;
}

// A 1×1 PNG sent inline, so the image part never makes the SDK fetch a URL.
const png = Uint8Array.from(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"));

async function aiSdkRuns(integration) {
  const openai = createOpenAI({ apiKey: "sk-local", baseURL: server.baseURL });
  const model = openai.chat("gpt-4.1-mini");
  const telemetry = (functionId) => ({ functionId, integrations: [integration] });
  const refundTools = {
    lookup_order: tool({
      description: "Looks an order up.",
      inputSchema: z.object({ order_id: z.string() }),
      execute: async ({ order_id }) => {
        // Slower than check_policy: called first, answered second.
        await sleep(40);
        return { order_id, status: "delivered", items: [{ sku: "MUG-1", price: 18.5 }] };
      },
    }),
    check_policy: tool({
      description: "Checks the refund policy.",
      inputSchema: z.object({ reason: z.string(), items: z.array(z.object({ sku: z.string() })) }),
      execute: async ({ reason }) => ({ eligible: true, reason }),
    }),
    issue_refund: tool({
      description: "Refunds an order.",
      inputSchema: z.object({ order_id: z.string(), amount: z.number() }),
      execute: async () => {
        throw new Error("payment gateway timeout");
      },
    }),
  };
  // Trace 1: the triage agent hands the case to the refunds agent (an agent used as a tool).
  server.chat(
    { calls: [{ id: "call_ask_1", name: "ask_refunds", arguments: '{"question":"Refund order A-1001 (arrived broken)."}' }] },
    {
      calls: [
        { id: "call_lookup_1", name: "lookup_order", arguments: '{"order_id":"A-1001"}' },
        { id: "call_policy_1", name: "check_policy", arguments: '{"reason":"damaged","items":[{"sku":"MUG-1"}]}' },
      ],
    },
    { calls: [{ id: "call_refund_1", name: "issue_refund", arguments: '{"order_id":"A-1001","amount":18.5}' }] },
    { text: "The refund failed: the payment gateway timed out." },
    { text: "I could not refund order A-1001 yet; a colleague will finish it today." },
  );
  await generateText({
    model,
    telemetry: telemetry("triage"),
    system: "Route the customer.",
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "Order A-1001 arrived broken. Please refund it." },
          { type: "file", data: png, mediaType: "image/png" },
        ],
      },
    ],
    stopWhen: stepCountIs(4),
    tools: {
      ask_refunds: tool({
        description: "Asks the refunds agent.",
        inputSchema: z.object({ question: z.string() }),
        execute: async ({ question }) => {
          const answer = await generateText({
            model,
            telemetry: telemetry("refunds"),
            system: "You handle refunds.",
            prompt: question,
            tools: refundTools,
            stopWhen: stepCountIs(5),
          });
          return answer.text;
        },
      }),
    },
  });
  // Trace 2: a tool with no execute function: the call is left without a result.
  server.chat({ calls: [{ id: "call_cancel_2", name: "cancel_order", arguments: '{"order_id":"A-3003"}' }] });
  await generateText({
    model,
    telemetry: telemetry("orders"),
    prompt: "Cancel order A-3003.",
    tools: { cancel_order: tool({ description: "Cancels an order (a person approves it).", inputSchema: z.object({ order_id: z.string() }) }) },
  });
}

exporter.reset();
await aiSdkRuns(new OpenTelemetry({ tracer }));
writeOtlp("ai-sdk-genai.otlp.json");
exporter.reset();
await aiSdkRuns(new LegacyOpenTelemetry({ tracer }));
writeOtlp("ai-sdk-legacy.otlp.json");

// OpenInference: the instrumented openai client writes LLM spans; the agent
// loop and its tools are wrapped with openinference-core's helpers.
exporter.reset();
const instrumentation = new OpenAIInstrumentation({ tracerProvider: provider });
instrumentation.manuallyInstrument(OpenAI);
const client = new OpenAI({ apiKey: "sk-local", baseURL: server.baseURL });
const tools = {
  transfer_to_refunds: async () => JSON.stringify({ assistant: "Refunds" }),
  lookup_order: async ({ order_id }) => {
    await sleep(40);
    return JSON.stringify({ order_id, status: "delivered", items: [{ sku: "MUG-1", price: 18.5 }] });
  },
  check_policy: async ({ reason }) => JSON.stringify({ eligible: true, reason }),
  issue_refund: async () => {
    throw new Error("payment gateway timeout");
  },
};
const toolSpecs = Object.keys(tools).map((name) => ({ type: "function", function: { name, parameters: { type: "object" } } }));
async function agentLoop(name, messages) {
  for (let step = 0; step < 5; step++) {
    const completion = await client.chat.completions.create({ model: "gpt-4.1-mini", messages, tools: toolSpecs });
    const message = completion.choices[0].message;
    messages.push(message);
    if (!message.tool_calls?.length) return message.content;
    const results = await Promise.all(
      message.tool_calls.map(async (call) => {
        const run = traceTool(tools[call.function.name], { name: call.function.name, attributes: { "tool.name": call.function.name } });
        try {
          return { call, content: await run(JSON.parse(call.function.arguments)) };
        } catch (error) {
          return { call, content: `error: ${error.message}` };
        }
      }),
    );
    for (const { call, content } of results) messages.push({ role: "tool", tool_call_id: call.id, content });
    if (message.tool_calls.some((c) => c.function.name === "transfer_to_refunds")) return "handoff";
  }
}
server.chat(
  { calls: [{ id: "call_transfer_1", name: "transfer_to_refunds", arguments: "{}" }] },
  {
    calls: [
      { id: "call_lookup_1", name: "lookup_order", arguments: '{"order_id":"A-1001"}' },
      { id: "call_policy_1", name: "check_policy", arguments: '{"reason":"damaged","items":[{"sku":"MUG-1"}]}' },
    ],
  },
  { calls: [{ id: "call_refund_1", name: "issue_refund", arguments: '{"order_id":"A-1001","amount":18.5}' }] },
  { text: "I could not refund order A-1001 yet (the payment gateway timed out); a colleague will finish it today." },
);
const conversation = [
  { role: "system", content: "You are a support desk." },
  {
    role: "user",
    content: [
      { type: "text", text: "Order A-1001 arrived broken. Please refund it." },
      { type: "image_url", image_url: { url: "https://example.com/photos/broken-mug.jpg" } },
    ],
  },
];
const triage = traceAgent(() => agentLoop("Triage", conversation), { name: "Triage", attributes: { "agent.name": "Triage" } });
const refunds = traceAgent(() => agentLoop("Refunds", conversation), { name: "Refunds", attributes: { "agent.name": "Refunds" } });
await tracer.startActiveSpan("support", async (root) => {
  if ((await triage()) === "handoff") await refunds();
  root.end();
});
const oiSpans = writeOtlp("openinference.otlp.json");

// The same spans through the protobuf JSON mapping: serialize with the
// current protobuf writer, decode with the generated protobufjs root an
// earlier otlp-transformer shipped, and let protobufjs write JSON.
const bytes = ProtobufTraceSerializer.serializeRequest(oiSpans);
const Request = protobufRoot.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
const message = Request.decode(bytes);
writeFileSync(join(out, "openinference-base64.otlp.json"), scrubPaths(JSON.stringify(message.toJSON(), null, 2)) + "\n");

await server.close();
await provider.shutdown();
console.log(`wrote ${out}`);
