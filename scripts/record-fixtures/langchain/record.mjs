// Records the `langchain` importer fixtures: a real LangGraph graph of two
// prebuilt ReAct agents (ChatOpenAI against the scripted model on 127.0.0.1)
// runs a refund conversation; the messages are written with LangChain's own
// serializers, and the run tree with @langchain/core's RunCollectorCallbackHandler
// (the Run objects LangSmith's tracer sends). Nothing leaves 127.0.0.1
// (LANGSMITH_TRACING is off).
//   npm install --prefix scripts/record-fixtures/langchain
//   node scripts/record-fixtures/langchain/record.mjs
// Writes:
//   refund.stored.json      mapChatMessagesToStoredMessages(messages): [{type, data}]
//   refund.lc.json          JSON.stringify of the graph state {messages}: lc-serialized messages
//   several.stored.json     a list of two conversations in stored form; the second was
//                           interrupted before its tool ran (a call with no result)
//   refund.runs.json        the root Run of each invocation, with child_runs (a run tree)
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ChatOpenAI } from "@langchain/openai";
import { tool } from "@langchain/core/tools";
import { HumanMessage, mapChatMessagesToStoredMessages } from "@langchain/core/messages";
import { RunCollectorCallbackHandler } from "@langchain/core/tracers/run_collector";
import { StateGraph, MessagesAnnotation, START, END, MemorySaver } from "@langchain/langgraph";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { startScriptedServer } from "../scripted-openai-server.mjs";
import { scrubPaths } from "../scrub-paths.mjs";

process.env.LANGSMITH_TRACING = "false";
process.env.LANGCHAIN_TRACING_V2 = "false";
const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "../../../test/fixtures/importers/langchain");
mkdirSync(out, { recursive: true });
// Failed tool runs keep their stack traces: paths of this checkout become a neutral root.
const write = (name, value) => writeFileSync(join(out, name), scrubPaths(JSON.stringify(value, null, 2)) + "\n");

const server = await startScriptedServer();
const llm = new ChatOpenAI({ model: "gpt-4.1-mini", apiKey: "sk-local", configuration: { baseURL: server.baseURL }, maxRetries: 0 });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const transfer = tool(async () => "Transferred to refunds.", {
  name: "transfer_to_refunds",
  description: "Hands the conversation to the refunds agent.",
  schema: z.object({}),
});
const lookupOrder = tool(
  async ({ order_id }) => {
    await sleep(40);
    return JSON.stringify({ order_id, status: "delivered", items: [{ sku: "MUG-1", price: 18.5 }] });
  },
  { name: "lookup_order", description: "Looks an order up.", schema: z.object({ order_id: z.string() }) },
);
const checkPolicy = tool(async ({ reason }) => JSON.stringify({ eligible: true, reason }), {
  name: "check_policy",
  description: "Checks the refund policy.",
  schema: z.object({ reason: z.string(), items: z.array(z.object({ sku: z.string() })) }),
});
const issueRefund = tool(
  async () => {
    throw new Error("payment gateway timeout");
  },
  { name: "issue_refund", description: "Refunds an order.", schema: z.object({ order_id: z.string(), amount: z.number() }) },
);
const cancelOrder = tool(async ({ order_id }) => `cancelled ${order_id}`, {
  name: "cancel_order",
  description: "Cancels an order.",
  schema: z.object({ order_id: z.string() }),
});

const triage = createReactAgent({ llm, tools: [transfer], name: "triage", prompt: "Route the customer." });
const refunds = createReactAgent({ llm, tools: [lookupOrder, checkPolicy, issueRefund], name: "refunds", prompt: "You handle refunds." });
const graph = new StateGraph(MessagesAnnotation).addNode("triage", triage).addNode("refunds", refunds).addEdge(START, "triage").addEdge("triage", "refunds").addEdge("refunds", END).compile();

server.chat(
  { calls: [{ id: "call_transfer_1", name: "transfer_to_refunds", arguments: "{}" }] },
  { text: "Passing you to our refunds desk." },
  {
    calls: [
      { id: "call_lookup_1", name: "lookup_order", arguments: '{"order_id":"A-1001"}' },
      { id: "call_policy_1", name: "check_policy", arguments: '{"reason":"damaged","items":[{"sku":"MUG-1"}]}' },
    ],
  },
  { calls: [{ id: "call_refund_1", name: "issue_refund", arguments: '{"order_id":"A-1001","amount":18.5}' }] },
  { text: "I could not refund order A-1001 yet (the payment gateway timed out); a colleague will finish it today." },
);
const collector = new RunCollectorCallbackHandler();
const userTurn = new HumanMessage({
  content: [
    { type: "text", text: "Order A-1001 arrived broken. Please refund it." },
    { type: "image_url", image_url: { url: "https://example.com/photos/broken-mug.jpg" } },
  ],
});
const state = await graph.invoke({ messages: [userTurn] }, { callbacks: [collector], runName: "refund-desk" });
write("refund.stored.json", mapChatMessagesToStoredMessages(state.messages));
write("refund.lc.json", JSON.parse(JSON.stringify(state)));

// A second conversation, interrupted before its tool node ran (human approval).
const orders = createReactAgent({ llm, tools: [cancelOrder], name: "orders", checkpointer: new MemorySaver(), interruptBefore: ["tools"] });
server.chat({ calls: [{ id: "call_cancel_2", name: "cancel_order", arguments: '{"order_id":"A-3003"}' }] });
const paused = await orders.invoke(
  { messages: [new HumanMessage("Cancel order A-3003.")] },
  { configurable: { thread_id: "orders-1" }, callbacks: [collector], runName: "orders-desk" },
);
write("several.stored.json", [mapChatMessagesToStoredMessages(state.messages), mapChatMessagesToStoredMessages(paused.messages)]);
write("refund.runs.json", JSON.parse(JSON.stringify(collector.tracedRuns)));
await server.close();
console.log(`wrote ${out}`);
