// Records the anthropic importer fixtures: real agent loops run through the
// official @anthropic-ai/sdk against the canned server on 127.0.0.1. The
// canned bodies are the model's turns in the Messages API's published wire
// format; the message lists and request bodies in the fixtures are what the
// SDK and the loop produced.
//   npm install --prefix scripts/record-fixtures/anthropic
//   node scripts/record-fixtures/anthropic/record.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import { pretty, startCannedServer } from "../canned-server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "..", "..", "test", "fixtures", "importers", "anthropic");
const MODEL = "claude-sonnet-4-6";
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

const server = await startCannedServer();
const client = new Anthropic({ apiKey: "sk-ant-local", baseURL: server.url, maxRetries: 0 });

function write(name, value) {
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, name), typeof value === "string" ? value : pretty(value));
}

const ORDERS = { "A-1001": { item: "kettle", amount: 25 }, "A-1002": { item: "toaster", amount: 40 }, "B-7": { item: "lamp", amount: 60 } };
/** The tools, run for real by the loop; a tool that throws becomes an is_error result, as the SDK docs show. */
const tools = {
  get_order: ({ order_id }) => (ORDERS[order_id] ? { status: "found", order_id, ...ORDERS[order_id] } : { status: "not_found", order_id }),
  issue_refund: ({ order_id, amount }) => {
    if (order_id === "A-1002") throw new Error("payment processor timeout");
    return { status: "approved", order_id, amount, reference: `RF-${order_id}` };
  },
  send_email: ({ template, to }) => ({ status: "sent", template, to }),
  escalate_to_supervisor: ({ reason }) => ({ status: "escalated", reason }),
  add_case_note: ({ kind }) => ({ status: "saved", kind }),
  get_receipt: ({ order_id }) => [
    { type: "text", text: `Receipt for ${order_id}` },
    { type: "image", source: { type: "base64", media_type: "image/png", data: PIXEL } },
  ],
};
const toolSpecs = Object.keys(tools).map((name) => ({
  name,
  description: `The ${name} tool`,
  input_schema: { type: "object", properties: { order_id: { type: "string" } } },
}));

let counter = 0;
function message(content, stop_reason) {
  counter++;
  return {
    id: `msg_rec${String(counter).padStart(4, "0")}`,
    type: "message",
    role: "assistant",
    model: MODEL,
    content,
    stop_reason,
    stop_sequence: null,
    usage: { input_tokens: 300, output_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, service_tier: "standard" },
  };
}
const toolUse = (id, name, input) => ({ type: "tool_use", id, name, input });

/**
 * The tool-use loop of Anthropic's docs: append the assistant's content, run
 * every tool_use, answer them all in one user message of tool_result blocks.
 * `resultOrder` reorders a turn's results (parallel tools finishing out of
 * order); `maxTurns` stops the loop, leaving the last calls unanswered.
 */
async function loop(messages, { resultOrder, maxTurns = 10, system } = {}) {
  let last;
  for (let turn = 1; turn <= maxTurns; turn++) {
    last = await client.messages.create({ model: MODEL, max_tokens: 1024, ...(system ? { system } : {}), tools: toolSpecs, messages });
    messages.push({ role: "assistant", content: last.content });
    if (last.stop_reason !== "tool_use" || turn === maxTurns) break;
    let uses = last.content.filter((b) => b.type === "tool_use");
    const order = resultOrder?.[turn];
    if (order) uses = [...uses].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
    const results = uses.map((use) => {
      try {
        const value = tools[use.name](use.input);
        return { type: "tool_result", tool_use_id: use.id, content: Array.isArray(value) ? value : JSON.stringify(value) };
      } catch (error) {
        return { type: "tool_result", tool_use_id: use.id, content: error.message, is_error: true };
      }
    });
    messages.push({ role: "user", content: results });
  }
  return { messages, last };
}

// 1. Parallel tool_use blocks in one turn, results answered out of order, a tool that throws
// (is_error), an image in the user's message and extended thinking; logged as the last exchange.
server.answer(
  message(
    [
      { type: "thinking", thinking: "Two orders; I should look both up before refunding.", signature: "c2lnLXJlYzE=" },
      { type: "text", text: "Let me look both orders up." },
      toolUse("toolu_rec01", "get_order", { order_id: "A-1001" }),
      toolUse("toolu_rec02", "get_order", { order_id: "A-1002" }),
    ],
    "tool_use",
  ),
  message([toolUse("toolu_rec03", "issue_refund", { order_id: "A-1001", amount: 25 }), toolUse("toolu_rec04", "issue_refund", { order_id: "A-1002", amount: 40 })], "tool_use"),
  message([toolUse("toolu_rec05", "send_email", { template: "refund_confirmation", to: "dana@example.com" })], "tool_use"),
  message([{ type: "text", text: "A-1001 is refunded and confirmed by email. The A-1002 refund failed at the processor; I will retry it." }], "end_turn"),
);
{
  const { last } = await loop(
    [
      {
        role: "user",
        content: [
          { type: "image", source: { type: "base64", media_type: "image/png", data: PIXEL } },
          { type: "text", text: "Orders A-1001 and A-1002 arrived broken, see the photo. Refund both; I'm dana@example.com." },
        ],
      },
    ],
    { system: "You are a refund support agent.", resultOrder: { 1: ["toolu_rec02", "toolu_rec01"], 2: ["toolu_rec04", "toolu_rec03"] } },
  );
  write("refund-parallel-error.json", { request: server.requests.at(-1).body, response: last });
}

// 2. A server tool (web search) in the assistant's own message, a tool result that holds an image,
// and a run stopped after its turn budget with a refund call unanswered: a bare message list.
server.answer(
  message(
    [
      { type: "server_tool_use", id: "srvtoolu_rec01", name: "web_search", input: { query: "lamp B-7 recall" } },
      {
        type: "web_search_tool_result",
        tool_use_id: "srvtoolu_rec01",
        content: [{ type: "web_search_result", url: "https://example.com/recall", title: "No recall for lamp B-7", encrypted_content: "ZW5jLXJlYzE=", page_age: "2 days ago" }],
      },
      { type: "text", text: "No recall is listed. Let me check your order and receipt." },
      toolUse("toolu_rec06", "get_order", { order_id: "B-7" }),
      toolUse("toolu_rec07", "get_receipt", { order_id: "B-7" }),
    ],
    "tool_use",
  ),
  message([toolUse("toolu_rec08", "issue_refund", { order_id: "B-7", amount: 60 })], "tool_use"),
);
{
  const { messages } = await loop([{ role: "user", content: "Is lamp B-7 recalled? If not, refund it." }], { maxTurns: 2 });
  write("server-tool-cut-off.json", messages);
}

// 3. Several conversations in one file, each logged as its last exchange (request + response): a plain question, a failed
// web search (error result block), an escalation, and an answer cut off at max_tokens.
server.answer(
  message([{ type: "text", text: "Damaged items can be refunded within 30 days of delivery." }], "end_turn"),
  message(
    [
      { type: "server_tool_use", id: "srvtoolu_rec02", name: "web_search", input: { query: "refund law" } },
      { type: "web_search_tool_result", tool_use_id: "srvtoolu_rec02", content: { type: "web_search_tool_result_error", error_code: "max_uses_exceeded" } },
      toolUse("toolu_rec09", "escalate_to_supervisor", { reason: "legal question" }),
    ],
    "tool_use",
  ),
  message([toolUse("toolu_rec10", "add_case_note", { kind: "handover", text: "Legal question about refunds." })], "tool_use"),
  message([{ type: "text", text: "A supervisor will answer your legal question." }], "end_turn"),
  message([{ type: "text", text: "Our refund policy covers" }], "max_tokens"),
  // A careless run: refunds without looking the order up, and never emails the confirmation.
  message([toolUse("toolu_rec11", "issue_refund", { order_id: "A-1001", amount: 25 })], "tool_use"),
  message([{ type: "text", text: "Refunded, the money is on its way." }], "end_turn"),
);
{
  const conversations = [];
  for (const [text, max] of [
    ["What is your refund policy?", 10],
    ["Is this refund legal under consumer law?", 10],
    ["Explain the whole refund policy in detail.", 10],
    ["Just refund A-1001, $25, no questions.", 10],
  ]) {
    const { last } = await loop([{ role: "user", content: text }], { maxTurns: max });
    conversations.push({ request: server.requests.at(-1).body, response: last });
  }
  write("several-conversations.json", conversations);
}

if (server.pending() !== 0) throw new Error("unused canned answers");
await server.close();
