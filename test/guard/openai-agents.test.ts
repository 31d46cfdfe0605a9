/**
 * guardAgent inside a real @openai/agents run, the model scripted on
 * 127.0.0.1 (the recording scripts' server, Responses API): the model asks
 * for a refund before looking the order up; the tool input guardrail refuses
 * it with the SDK's rejectContent, the run goes on, the lookup and the refund
 * run, and the run as a logging proxy keeps it, imported and judged afterwards, shows the
 * refused attempt with the refusal as its output.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Agent, OpenAIProvider, Runner, tool } from "@openai/agents";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { GUARDRAIL_NAME, guardAgent } from "../../guard/openai-agents.js";
import type { GuardJudge } from "../../guard/session.js";
import { importTrace } from "../../importers/index.js";

const ROOT = join(import.meta.dirname, "..", "..");
const judge = (await import(pathToFileURL(join(ROOT, "examples", "refund-support", "judge.mjs")).href)) as GuardJudge & {
  judgeTrajectory(t: unknown): Promise<{ metaBehaviors: { name: string; verdict: string; clauses?: unknown }[] }>;
};

interface ScriptedServer {
  baseURL: string;
  requests: { path: string; body: { input?: unknown } }[];
  responses(...steps: { text?: string; calls?: { id: string; name: string; arguments: string }[] }[]): void;
  close(): Promise<void>;
}
// @ts-expect-error a plain JS script, without types
const { startScriptedServer } = (await import("../../scripts/record-fixtures/scripted-openai-server.mjs")) as {
  startScriptedServer(): Promise<ScriptedServer>;
};

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});

describe("guardAgent (OpenAI Agents SDK)", () => {
  test("a refund before the lookup is refused by the tool input guardrail, the run goes on, the run judged afterwards shows the refusal", async () => {
    const ran: string[] = [];
    const getOrder = tool({
      name: "get_order",
      description: "Looks an order up.",
      parameters: z.object({ order_id: z.string() }),
      execute: async ({ order_id }) => (ran.push(`get_order ${order_id}`), JSON.stringify({ status: "found", order_id })),
    });
    const issueRefund = tool({
      name: "issue_refund",
      description: "Refunds an order.",
      parameters: z.object({ order_id: z.string() }),
      execute: async ({ order_id }) => (ran.push(`issue_refund ${order_id}`), JSON.stringify({ status: "approved", order_id })),
    });
    const agent = new Agent({
      name: "Refund desk",
      instructions: "Refund broken orders.",
      tools: [getOrder, issueRefund],
      model: "gpt-4.1-mini",
    });
    const logged: string[] = [];
    const input = "My mug arrived broken, order A-17. Refund please.";
    const guard = guardAgent(agent, judge, { id: "agents-refund", log: (line) => logged.push(line) });
    guard.user(input);
    expect(getOrder.inputGuardrails?.[0]?.name).toBe(GUARDRAIL_NAME);

    server.responses(
      { calls: [{ id: "call_1", name: "issue_refund", arguments: '{"order_id":"A-17"}' }] },
      { calls: [{ id: "call_2", name: "get_order", arguments: '{"order_id":"A-17"}' }] },
      { calls: [{ id: "call_3", name: "issue_refund", arguments: '{"order_id":"A-17"}' }] },
      { text: "Refunded." },
    );
    const runner = new Runner({
      modelProvider: new OpenAIProvider({ apiKey: "sk-local", baseURL: server.baseURL, useResponses: true }),
      tracingDisabled: true,
    });
    const result = await runner.run(agent, input);

    expect(ran).toEqual(["get_order A-17", "issue_refund A-17"]);
    expect(result.finalOutput).toBe("Refunded.");
    expect(logged).toHaveLength(1);
    // The model's second request carries the refusal as call_1's output.
    const second = JSON.stringify(server.requests.filter((r) => r.path.endsWith("/responses"))[1]!.body.input);
    expect(second).toContain("call_1");
    expect(second).toContain("[behavior-judge guard] issue_refund was not run");

    // The run as a logging proxy keeps it (the model's last request holds every item before the answer), imported and judged afterwards.
    const last = server.requests.filter((r) => r.path.endsWith("/responses")).at(-1)!;
    const imported = importTrace(
      { request: last.body, response: { object: "response", status: "completed", output: [] } },
      { from: "openai-responses" },
    );
    expect(imported.errors).toEqual([]);
    const trace = imported.trajectories[0]!;
    const refusal = trace.events.find((e) => e.action === "issue_refund_result" && e.metadata?.["@call_id"] === "call_1")!;
    expect(refusal.content).toContain('it would break rule "Look up the order before paying anything out"');
    const judged = await judge.judgeTrajectory({ ...trace, complete: true });
    const ordering = judged.metaBehaviors.find((m) => m.name === "Look up the order before paying anything out")!;
    expect(ordering.verdict).toBe("false");
    // What ran, as the guard's monitor saw it, keeps the rule.
    const ended = await guard.end(true);
    expect(ended.metaBehaviors.find((m) => m.name === "Look up the order before paying anything out")!.verdict).toBe("true");
  });
});
