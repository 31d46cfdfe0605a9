// node examples/guards/openai-agents.mjs     (after npm run build:cli)
// The refund judge guarding an OpenAI Agents SDK agent. The model is a
// scripted server on 127.0.0.1 (Responses API) that asks for a refund before
// the lookup: the tool input guardrail refuses it, the run goes on, and the
// refund after the lookup runs.
import { Agent, OpenAIProvider, Runner, tool } from "@openai/agents";
import { z } from "zod";
import { guardAgent } from "behavior-judge/guard";
import * as judge from "../refund-support/judge.mjs";
import { startScriptedServer } from "../../scripts/record-fixtures/scripted-openai-server.mjs";

const getOrder = tool({
  name: "get_order",
  description: "Looks an order up.",
  parameters: z.object({ order_id: z.string() }),
  execute: async ({ order_id }) => (console.log(`ran get_order ${order_id}`), JSON.stringify({ status: "found", order_id })),
});
const issueRefund = tool({
  name: "issue_refund",
  description: "Refunds an order.",
  parameters: z.object({ order_id: z.string() }),
  execute: async ({ order_id }) => (console.log(`ran issue_refund ${order_id}`), JSON.stringify({ status: "approved", order_id })),
});
const agent = new Agent({
  name: "Refund desk",
  instructions: "Refund broken orders.",
  tools: [getOrder, issueRefund],
  model: "gpt-4.1-mini",
});

const input = "My mug arrived broken, order A-17. Refund please.";
const guard = guardAgent(agent, judge, { id: "agents-demo", log: (line) => console.log(`refused: ${line}`) });
guard.user(input);

const server = await startScriptedServer();
server.responses(
  { calls: [{ id: "call_1", name: "issue_refund", arguments: '{"order_id":"A-17"}' }] },
  { calls: [{ id: "call_2", name: "get_order", arguments: '{"order_id":"A-17"}' }] },
  { calls: [{ id: "call_3", name: "issue_refund", arguments: '{"order_id":"A-17"}' }] },
  { text: "Your refund for A-17 is on its way." },
);
const runner = new Runner({
  modelProvider: new OpenAIProvider({ apiKey: "sk-local", baseURL: server.baseURL, useResponses: true }),
  tracingDisabled: true,
});
const result = await runner.run(agent, input);
await server.close();
console.log(`model: ${result.finalOutput}`);
console.log(
  `still owed: ${
    guard
      .pending()
      .map((o) => o.rule)
      .join(", ") || "nothing"
  }`,
);
