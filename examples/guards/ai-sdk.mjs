// node examples/guards/ai-sdk.mjs            (after npm run build:cli)
// The refund judge guarding Vercel AI SDK tools in a generateText loop. The
// model is the AI SDK's own mock, scripted to ask for a refund before it looks
// the order up: the guard refuses that call, the model reads why as the tool's
// error result, looks the order up, and the refund then runs.
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { SessionGuard, guardTools } from "behavior-judge/guard";
import * as judge from "../refund-support/judge.mjs";

const tools = {
  get_order: tool({
    inputSchema: z.object({ order_id: z.string() }),
    execute: async ({ order_id }) => ({ status: "found", order_id, amount: "19.00" }),
  }),
  issue_refund: tool({
    inputSchema: z.object({ order_id: z.string() }),
    execute: async ({ order_id }) => ({ status: "approved", order_id }),
  }),
};

const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
const step = (content, finish) => ({ content, finishReason: { unified: finish, raw: undefined }, usage, warnings: [] });
const call = (id, name, input) => step([{ type: "tool-call", toolCallId: id, toolName: name, input: JSON.stringify(input) }], "tool-calls");
const script = [
  call("c1", "issue_refund", { order_id: "A-17" }),
  call("c2", "get_order", { order_id: "A-17" }),
  call("c3", "issue_refund", { order_id: "A-17" }),
  step([{ type: "text", text: "Your refund for A-17 is on its way." }], "stop"),
];
let turn = 0;
const model = new MockLanguageModelV3({ doGenerate: async () => script[turn++] });

const guard = new SessionGuard(judge, { id: "ai-sdk-demo" });
const result = await generateText({
  model,
  tools: guardTools(tools, guard),
  prompt: "My mug arrived broken, order A-17. Refund please.",
  stopWhen: stepCountIs(6),
});
for (const s of result.steps)
  for (const part of s.content)
    if (part.type === "tool-result") console.log(`ran ${part.toolName}`);
    else if (part.type === "tool-error") console.log(`refused ${part.toolName}: ${part.error.message}`);
console.log(`model: ${result.text}`);
console.log(
  `still owed: ${
    guard
      .pending()
      .map((o) => o.rule)
      .join(", ") || "nothing"
  }`,
);
