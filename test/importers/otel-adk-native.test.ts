/**
 * Google ADK's own spans (its `gcp.vertex.agent` tracer): `call_llm` names no
 * GenAI operation and carries the model call as two JSON attributes,
 * `gcp.vertex.agent.llm_request` ({model, config, contents}: the whole
 * conversation so far) and `gcp.vertex.agent.llm_response` (an LlmResponse
 * dumped in snake_case). The spans below follow the shape of ADK's
 * `telemetry.py` (`trace_call_llm`, `trace_tool_call`; execute_tool nested in
 * the call_llm that asked for it). These spans used to count as "other": the
 * user's words and the agent's answers were left out without a word.
 */
import { describe, expect, test } from "vitest";
import { fromOtel } from "../../importers/index.js";
import type { Trajectory } from "../../importers/index.js";
import { otlp, type SpanSpec } from "../support/otlp.js";

const user = { role: "user", parts: [{ text: "Please refund order 1234, it arrived broken." }] };
const asksLookup = { role: "model", parts: [{ function_call: { name: "lookup_order", args: { order_id: "1234" } } }] };
const lookupAnswer = {
  role: "user",
  parts: [{ function_response: { id: "adk-7d1", name: "lookup_order", response: { status: "delivered", total: 40 } } }],
};
const asksRefund = {
  role: "model",
  parts: [
    { text: "I will check the order first.", thought: true },
    { function_call: { name: "issue_refund", args: { order_id: "1234", amount: 40 } } },
  ],
};
const refundAnswer = { role: "user", parts: [{ function_response: { id: "adk-9e2", name: "issue_refund", response: { refunded: 40 } } }] };

function callLlm(id: string, start: number, end: number, contents: object[], answer: object, finish = "STOP"): SpanSpec {
  return {
    id,
    parent: "2",
    name: "call_llm",
    start,
    end,
    attrs: {
      "gen_ai.system": "gcp.vertex.agent",
      "gen_ai.request.model": "gemini-2.5-flash",
      "gcp.vertex.agent.invocation_id": "e-51c0",
      "gcp.vertex.agent.session_id": "s-1",
      "gcp.vertex.agent.event_id": `ev-${id}`,
      "gcp.vertex.agent.llm_request": JSON.stringify({
        model: "gemini-2.5-flash",
        config: { system_instruction: "You are a refund desk." },
        contents,
      }),
      "gcp.vertex.agent.llm_response": JSON.stringify({
        content: answer,
        finish_reason: finish,
        usage_metadata: { prompt_token_count: 90 },
      }),
    },
  };
}

function executeTool(
  id: string,
  parent: string,
  start: number,
  end: number,
  name: string,
  callId: string,
  args: object,
  response: object,
): SpanSpec {
  return {
    id,
    parent,
    name: `execute_tool ${name}`,
    start,
    end,
    attrs: {
      "gen_ai.system": "gcp.vertex.agent",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": name,
      "gen_ai.tool.call.id": callId,
      "gcp.vertex.agent.tool_call_args": JSON.stringify(args),
      "gcp.vertex.agent.tool_response": JSON.stringify(response),
      // ADK writes empty model payloads on tool spans (its web UI expects the keys).
      "gcp.vertex.agent.llm_request": "{}",
      "gcp.vertex.agent.llm_response": "{}",
    },
  };
}

const run = (last: SpanSpec): unknown =>
  otlp([
    { id: "1", name: "invocation", start: 0, end: 100, attrs: {} },
    { id: "2", parent: "1", name: "agent_run [refund_desk]", start: 1, end: 99, attrs: {} },
    callLlm("3", 2, 30, [user], asksLookup),
    executeTool("4", "3", 10, 20, "lookup_order", "adk-7d1", { order_id: "1234" }, { status: "delivered", total: 40 }),
    callLlm("5", 31, 60, [user, asksLookup, lookupAnswer], asksRefund),
    executeTool("6", "5", 40, 50, "issue_refund", "adk-9e2", { order_id: "1234", amount: 40 }, { refunded: 40 }),
    last,
  ]);

const brief = (t: Trajectory) => t.events.map((e) => `${e.actor}/${e.action}${e.content === "" ? "" : `: ${e.content}`}`);

describe("ADK's call_llm spans", () => {
  test("the user's words, the model's calls, reasoning and answer come from llm_request / llm_response", () => {
    const reply = { role: "model", parts: [{ text: "Refunded $40 to your card." }] };
    const result = fromOtel(run(callLlm("7", 61, 90, [user, asksLookup, lookupAnswer, asksRefund, refundAnswer], reply)), {
      reasoning: true,
    });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const t = result.trajectories[0]!;
    expect(brief(t)).toEqual([
      "user/message: Please refund order 1234, it arrived broken.",
      'agent/lookup_order: {"order_id":"1234"}',
      'tool/lookup_order_result: {"status":"delivered","total":40}',
      "agent/reasoning: I will check the order first.",
      'agent/issue_refund: {"order_id":"1234","amount":40}',
      'tool/issue_refund_result: {"refunded":40}',
      "agent/message: Refunded $40 to your card.",
    ]);
    // The tool spans' ids pair with Gemini's id-less calls, and the model is named on the answer.
    expect(t.events[2]!.metadata!["@call_id"]).toBe("adk-7d1");
    expect(t.events[6]!.metadata!["@model"]).toBe("gemini-2.5-flash");
    expect(t.complete).toBe(true);
  });

  test("an answer cut at MAX_TOKENS ends the run abnormally, as other finish reasons do", () => {
    const reply = { role: "model", parts: [{ text: "Refunded $40 to" }] };
    const t = fromOtel(run(callLlm("7", 61, 90, [user], reply, "MAX_TOKENS"))).trajectories[0]!;
    expect(t.complete).toBe(false);
  });

  test("a response ADK could not serialize is a warning naming the span, not a silent gap", () => {
    const span = callLlm("7", 61, 90, [user], {});
    span.attrs!["gcp.vertex.agent.llm_response"] = "<not serializable>";
    const result = fromOtel(run(span));
    expect(result.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('attribute gcp.vertex.agent.llm_response holds no JSON ("<not serializable>")'),
    ]);
    expect(result.trajectories).toHaveLength(1);
  });
});
