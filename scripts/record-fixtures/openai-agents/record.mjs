// Records the `openai-agents` importer fixtures: the real OpenAI Agents SDK
// (@openai/agents) runs real agents against the scripted model on 127.0.0.1,
// and its own OpenAITracingExporter posts the trace export to the same local
// server, which keeps the posted body verbatim. Run:
//   npm install --prefix scripts/record-fixtures/openai-agents
//   node scripts/record-fixtures/openai-agents/record.mjs
// Ids and timestamps come from the run, so a re-recording differs in them;
// the goldens are then refreshed with UPDATE_GOLDEN=1.
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import OpenAI from "openai";
import { z } from "zod";
import {
  Agent,
  run,
  tool,
  handoff,
  withTrace,
  setTraceProcessors,
  BatchTraceProcessor,
  OpenAITracingExporter,
  OpenAIProvider,
  Runner,
} from "@openai/agents";
import { startScriptedServer } from "../scripted-openai-server.mjs";
import { scrubPaths } from "../scrub-paths.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "../../../test/fixtures/importers/openai-agents");
mkdirSync(out, { recursive: true });

const server = await startScriptedServer();
const client = new OpenAI({ apiKey: "sk-local", baseURL: server.baseURL });
const chatProvider = new OpenAIProvider({ openAIClient: client, useResponses: false });
const responsesProvider = new OpenAIProvider({ openAIClient: client, useResponses: true });

// A second processor keeps the span list as the SDK hands it over, one item
// per trace start / span end: the "span list" form a custom processor writes.
const spanList = [];
const listProcessor = {
  start() {},
  async onTraceStart(trace) {
    spanList.push(trace.toJSON());
  },
  async onTraceEnd() {},
  async onSpanStart() {},
  async onSpanEnd(span) {
    if (spanList.recording) spanList.push(span.toJSON());
  },
  async shutdown() {},
  async forceFlush() {},
};
const exporter = new OpenAITracingExporter({ apiKey: "sk-local", endpoint: server.ingestURL });
const batch = new BatchTraceProcessor(exporter, { maxBatchSize: 1000, scheduleDelay: 60_000 });
setTraceProcessors([batch, listProcessor]);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const lookupOrder = tool({
  name: "lookup_order",
  description: "Looks an order up.",
  parameters: z.object({ order_id: z.string() }),
  async execute({ order_id }) {
    // Slower than check_policy, so its result arrives second although it was called first.
    await sleep(40);
    return JSON.stringify({ order_id, status: "delivered", items: [{ sku: "MUG-1", price: 18.5 }] });
  },
});
const checkPolicy = tool({
  name: "check_policy",
  description: "Checks the refund policy for a reason.",
  parameters: z.object({ reason: z.string(), items: z.array(z.object({ sku: z.string() })) }),
  async execute({ reason }) {
    return JSON.stringify({ eligible: true, reason });
  },
});
const issueRefund = tool({
  name: "issue_refund",
  description: "Refunds an order.",
  parameters: z.object({ order_id: z.string(), amount: z.number() }),
  async execute() {
    throw new Error("payment gateway timeout");
  },
});
const cancelOrder = tool({
  name: "cancel_order",
  description: "Cancels an order (needs a person's approval).",
  parameters: z.object({ order_id: z.string() }),
  needsApproval: true,
  async execute({ order_id }) {
    return `cancelled ${order_id}`;
  },
});

const noSecrets = {
  name: "no_card_numbers",
  async execute({ input }) {
    const text = JSON.stringify(input);
    return { outputInfo: { checked: text.length }, tripwireTriggered: /\b\d{16}\b/.test(text) };
  },
};

function agents(modelProviderTools) {
  const refunds = new Agent({
    name: "Refunds",
    instructions: "You handle refunds.",
    model: "gpt-4.1-mini",
    tools: [lookupOrder, checkPolicy, issueRefund, ...modelProviderTools],
  });
  const triage = new Agent({
    name: "Triage",
    instructions: "Route the customer.",
    model: "gpt-4.1-mini",
    handoffs: [handoff(refunds)],
    inputGuardrails: [noSecrets],
  });
  return { triage, refunds };
}

const userTurn = [
  {
    role: "user",
    content: [
      { type: "input_text", text: "Order A-1001 arrived broken. Please refund it." },
      { type: "input_image", image: "https://example.com/photos/broken-mug.jpg", detail: "auto" },
    ],
  },
];

// The refund conversation: guardrail, hand-off, two parallel calls whose
// results arrive out of order, a failing tool, then the final answer.
function scriptRefund() {
  server.chat(
    { calls: [{ id: "call_handoff_1", name: "transfer_to_Refunds", arguments: "{}" }] },
    {
      calls: [
        { id: "call_lookup_1", name: "lookup_order", arguments: '{"order_id":"A-1001"}' },
        { id: "call_policy_1", name: "check_policy", arguments: '{"reason":"damaged","items":[{"sku":"MUG-1"}]}' },
      ],
    },
    { calls: [{ id: "call_refund_1", name: "issue_refund", arguments: '{"order_id":"A-1001","amount":18.5}' }] },
    { text: "I could not issue the refund right now (the payment gateway timed out). A colleague will finish it today." },
  );
}

async function refundConversation(runner) {
  const { triage } = agents([]);
  scriptRefund();
  return runner.run(triage, userTurn);
}

const chatRunner = new Runner({ modelProvider: chatProvider, workflowName: "Refund desk" });
const responsesRunner = new Runner({ modelProvider: responsesProvider, workflowName: "Refund desk (Responses API)" });

// 1. One trace alone, exported by the SDK's exporter.
spanList.recording = true;
await refundConversation(chatRunner);
spanList.recording = false;
await batch.forceFlush();
writeFileSync(join(out, "refund-handoff.json"), scrubPaths(JSON.stringify(server.ingested.at(-1), null, 2)) + "\n");
writeFileSync(join(out, "refund-handoff.spans.json"), scrubPaths(JSON.stringify(spanList, null, 2)) + "\n");

// 2. Several traces in one export: the same desk on the Responses API (no
//    message text in response spans), a tripped guardrail, and a tool call
//    interrupted for approval (a call with no result).
{
  const { triage } = agents([]);
  server.responses(
    { calls: [{ id: "call_handoff_2", name: "transfer_to_Refunds", arguments: "{}" }] },
    { calls: [{ id: "call_lookup_2", name: "lookup_order", arguments: '{"order_id":"A-2002"}' }] },
    { text: "Order A-2002 was delivered; no refund is needed." },
  );
  await responsesRunner.run(triage, "Where is order A-2002?");
}
{
  const { triage } = agents([]);
  server.chat({ text: "unused" });
  try {
    await chatRunner.run(triage, "Charge card 4111111111111111 again please.");
  } catch (error) {
    if (error.constructor.name !== "InputGuardrailTripwireTriggered") throw error;
  }
  // The guardrail may trip before the model is asked: drop the unused answer.
  server.clear();
}
{
  const desk = new Agent({ name: "Orders", instructions: "You manage orders.", model: "gpt-4.1-mini", tools: [cancelOrder, lookupOrder] });
  server.chat({
    calls: [
      { id: "call_cancel_3", name: "cancel_order", arguments: '{"order_id":"A-3003"}' },
    ],
  });
  const result = await chatRunner.run(desk, "Cancel order A-3003.");
  if (!result.interruptions?.length) throw new Error("expected an approval interruption");
}
await batch.forceFlush();
writeFileSync(join(out, "several-traces.json"), scrubPaths(JSON.stringify(server.ingested.at(-1), null, 2)) + "\n");
await batch.shutdown();
await server.close();
console.log(`wrote ${out}`);
