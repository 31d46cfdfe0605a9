/**
 * guardTools inside a real AI SDK generateText loop (the SDK's own mock
 * model): the model asks for a refund before looking the order up; the guard
 * refuses it, the model reads the refusal as the tool's error result, looks
 * the order up, and the refund then runs.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { GuardRefusal, guardTools } from "../../guard/ai-sdk.js";
import { SessionGuard, type GuardJudge } from "../../guard/session.js";

const judge = (await import(
  pathToFileURL(join(import.meta.dirname, "..", "..", "examples", "refund-support", "judge.mjs")).href
)) as GuardJudge;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const call = (id: string, name: string, input: unknown) => ({
  content: [{ type: "tool-call" as const, toolCallId: id, toolName: name, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls" as const, raw: undefined },
  usage,
  warnings: [],
});
const text = (t: string) => ({
  content: [{ type: "text" as const, text: t }],
  finishReason: { unified: "stop" as const, raw: undefined },
  usage,
  warnings: [],
});

function refundTools(ran: string[]) {
  return {
    get_order: tool({
      inputSchema: z.object({ order_id: z.string() }),
      execute: async ({ order_id }) => (ran.push(`get_order ${order_id}`), { status: "found", order_id }),
    }),
    issue_refund: tool({
      inputSchema: z.object({ order_id: z.string() }),
      execute: async ({ order_id }) => (ran.push(`issue_refund ${order_id}`), { status: "approved", order_id }),
    }),
  };
}

describe("guardTools (Vercel AI SDK)", () => {
  test("a refund before the lookup is refused as an error result, the loop goes on, the refund after it runs", async () => {
    const ran: string[] = [];
    const prompts: unknown[] = [];
    const script = [
      call("c1", "issue_refund", { order_id: "A-17" }),
      call("c2", "get_order", { order_id: "A-17" }),
      call("c3", "issue_refund", { order_id: "A-17" }),
      text("Refunded."),
    ];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options.prompt);
        return script[prompts.length - 1]!;
      },
    });
    const logged: string[] = [];
    const guard = new SessionGuard(judge, { id: "ai-sdk-refund", log: (line) => logged.push(line) });
    const result = await generateText({
      model,
      tools: guardTools(refundTools(ran), guard),
      prompt: "My mug arrived broken, order A-17. Refund please.",
      stopWhen: stepCountIs(6),
    });

    expect(ran).toEqual(["get_order A-17", "issue_refund A-17"]);
    expect(result.text).toBe("Refunded.");
    // The model's second request carries the refusal as the first call's error result.
    const refusal = result.steps[0]!.content.find((p) => p.type === "tool-error");
    expect(refusal).toBeDefined();
    expect((refusal as { error: unknown }).error).toBeInstanceOf(GuardRefusal);
    const seen = JSON.stringify(prompts[1]);
    expect(seen).toContain("issue_refund was not run");
    expect(seen).toContain("Look up the order before paying anything out");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("Look up the order before paying anything out");

    // The trace shows the attempt and its refusal; what ran passes the ordering rule.
    const trace = guard.trajectory(true);
    expect(trace.events.map((e) => `${e.actor}:${e.action}`)).toEqual([
      "user:message",
      "agent:issue_refund",
      "tool:issue_refund_result",
      "agent:get_order",
      "tool:get_order_result",
      "agent:issue_refund",
      "tool:issue_refund_result",
    ]);
    expect(trace.events[2]!.metadata?.status).toBe("error");
    const judgment = await guard.end(true);
    const ordering = judgment.metaBehaviors.find((m) => m.name === "Look up the order before paying anything out")!;
    expect(ordering.verdict).toBe("true");
  });

  test("a judge module makes a guard of its own; tools without execute are kept as they are", async () => {
    const ran: string[] = [];
    const tools = { ...refundTools(ran), lookup_only: tool({ inputSchema: z.object({}) }) };
    const guarded = guardTools(tools, judge, { log: false });
    expect(guarded.lookup_only).toBe(tools.lookup_only);
    const opts = { toolCallId: "x1", messages: [] };
    await expect(guarded.issue_refund.execute!({ order_id: "B-2" }, opts)).rejects.toBeInstanceOf(GuardRefusal);
    expect(ran).toEqual([]);
  });
});
