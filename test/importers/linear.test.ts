/**
 * Issue 20 item 10: OTel and LangChain imports are linear in the spans, however
 * many tool spans overlap (each one's result waits until time passes its end).
 * A filter of the waiting results and of the model's calls at every span made
 * 100,000 spans take minutes. The test compares 4,000 spans with 16,000 by the
 * steps of the built-ins each import calls (test/support/work.ts), not by time:
 * a linear import takes about 4 times as many, a quadratic one about 16; the
 * test allows 10.
 */
import { describe, expect, test } from "vitest";
import { fromAdk, fromLangChain, fromLangfuse, fromOtel, fromSweAgent } from "../../importers/index.js";
import { stepsRatio } from "../support/work.js";

const hex = (i: number): string => i.toString(16).padStart(16, "0");
const s = (v: string) => ({ stringValue: v });

/** One trace: a model span per call, and a tool span per call that ends after every later span started. */
function otelTrace(n: number): unknown {
  const trace = "0123456789abcdef0123456789abcdef";
  const spans: unknown[] = [
    {
      traceId: trace,
      spanId: hex(1),
      name: "agent",
      startTimeUnixNano: "0",
      endTimeUnixNano: String(10 * n + 10),
      attributes: [
        { key: "gen_ai.operation.name", value: s("invoke_agent") },
        { key: "gen_ai.agent.name", value: s("desk") },
      ],
    },
  ];
  for (let i = 0; spans.length < n; i++) {
    const id = `call_${i}`;
    const output = [{ role: "assistant", parts: [{ type: "tool_call", id, name: "lookup", arguments: { q: i } }] }];
    spans.push({
      traceId: trace,
      spanId: hex(2 + 2 * i),
      parentSpanId: hex(1),
      name: "chat",
      startTimeUnixNano: String(4 * i + 1),
      endTimeUnixNano: String(4 * i + 2),
      attributes: [
        { key: "gen_ai.operation.name", value: s("chat") },
        { key: "gen_ai.output.messages", value: s(JSON.stringify(output)) },
      ],
    });
    spans.push({
      traceId: trace,
      spanId: hex(3 + 2 * i),
      parentSpanId: hex(1),
      name: "tool",
      startTimeUnixNano: String(4 * i + 3),
      endTimeUnixNano: String(10 * n + 5 + i),
      attributes: [
        { key: "gen_ai.operation.name", value: s("execute_tool") },
        { key: "gen_ai.tool.name", value: s("lookup") },
        ...(i % 2 === 0
          ? [{ key: "gen_ai.tool.call.id", value: s(id) }]
          : [{ key: "gen_ai.tool.call.arguments", value: s(`{"q": ${i}}`) }]),
        { key: "gen_ai.tool.call.result", value: s(`{"n":${i}}`) },
      ],
    });
  }
  return { resourceSpans: [{ scopeSpans: [{ spans }] }] };
}

/** The same as a LangSmith run tree. */
function langchainTree(n: number): unknown {
  const at = (ms: number): string => new Date(Date.UTC(2025, 0, 1) + ms).toISOString().replace("Z", "");
  const children: unknown[] = [];
  for (let i = 0; children.length < n; i++) {
    const id = `call_${i}`;
    children.push({
      id: `llm${i}`,
      run_type: "llm",
      name: "model",
      start_time: at(4 * i + 1),
      end_time: at(4 * i + 2),
      inputs: { messages: [] },
      outputs: {
        generations: [[{ message: { type: "ai", data: { content: "", tool_calls: [{ name: "lookup", args: { q: i }, id }] } } }]],
      },
    });
    children.push({
      id: `tool${i}`,
      run_type: "tool",
      name: "lookup",
      start_time: at(4 * i + 3),
      end_time: at(10 * n + 5 + i),
      inputs: { q: i },
      outputs: { output: i % 2 === 0 ? { type: "tool", data: { content: `{"n":${i}}`, tool_call_id: id } } : `{"n":${i}}` },
    });
  }
  return { id: "root", run_type: "chain", name: "desk", inputs: {}, start_time: at(0), end_time: at(30 * n), child_runs: children };
}

/** The same as a Langfuse download, observations in reverse file order (a download is in no time order). */
function langfuseTrace(n: number): unknown {
  const at = (ms: number): string => new Date(Date.UTC(2025, 0, 1) + ms).toISOString();
  const observations: unknown[] = [{ id: "root", type: "AGENT", name: "desk", startTime: at(0), endTime: at(30 * n) }];
  for (let i = 0; observations.length < n; i++) {
    const id = `call_${i}`;
    observations.push({
      id: `gen${i}`,
      parentObservationId: "root",
      type: "GENERATION",
      name: "model",
      startTime: at(4 * i + 1),
      endTime: at(4 * i + 2),
      input: "[]",
      output: JSON.stringify({
        role: "assistant",
        content: "",
        tool_calls: [{ id, type: "function", function: { name: "lookup", arguments: `{"q":${i}}` } }],
      }),
    });
    observations.push({
      id: `tool${i}`,
      parentObservationId: "root",
      type: "TOOL",
      name: "lookup",
      startTime: at(4 * i + 3),
      endTime: at(10 * n + 5 + i),
      input: JSON.stringify({ q: i }),
      output: JSON.stringify(i % 2 === 0 ? { type: "tool", content: `{"n":${i}}`, tool_call_id: id } : `{"n":${i}}`),
    });
  }
  return { trace: { id: "t" }, observations: observations.reverse() };
}

/** An ADK session: every call first (Gemini's, without ids, one per model event), then one event answering them all, in order, by name. */
function adkSession(n: number): unknown {
  const events: unknown[] = [];
  const responses: unknown[] = [];
  for (let i = 0; 2 * (i + 1) <= n; i++) {
    events.push({ author: "desk", content: { role: "model", parts: [{ functionCall: { name: "lookup", args: { q: i } } }] } });
    responses.push({ functionResponse: { name: "lookup", response: { n: i } } });
  }
  events.push({ author: "desk", content: { role: "user", parts: responses } });
  return { id: "s", appName: "desk", userId: "u", events };
}

/** A mini-swe-agent run with tool calls: one reply makes every call, then each observation answers one on its tool_call_id. */
function sweAgentRun(n: number): unknown {
  const calls: unknown[] = [];
  const results: unknown[] = [];
  for (let i = 0; 2 * (i + 1) <= n; i++) {
    const id = `call_${i}`;
    calls.push({ id, type: "function", function: { name: "lookup", arguments: JSON.stringify({ q: i }) } });
    results.push({ role: "tool", tool_call_id: id, content: `{"n":${i}}`, extra: { returncode: 0 } });
  }
  return {
    info: { exit_status: "Submitted" },
    messages: [{ role: "assistant", content: null, tool_calls: calls }, ...results],
    trajectory_format: "mini-swe-agent-1.1",
  };
}

describe("item 10: imports linear in overlapping tool spans", () => {
  for (const [name, make, importer] of [
    ["otel", otelTrace, fromOtel],
    ["langchain", langchainTree, fromLangChain],
    ["langfuse", langfuseTrace, fromLangfuse],
    ["adk", adkSession, fromAdk],
    ["swe-agent", sweAgentRun, fromSweAgent],
  ] as const) {
    test(`${name}: 16,000 spans cost about 4 times 4,000, not 16 times; every result follows its own call`, () => {
      const small = make(4000);
      const large = make(16_000);
      const events = importer(large).trajectories[0]!.events;
      // All calls come first (each tool span ends after every later span starts), then the results in the order they ended.
      const results = events.filter((e) => e.actor === "tool");
      expect(results).toHaveLength(events.length / 2);
      expect(results.every((e, i) => e.metadata!.n === String(i) && e.action === "lookup_result")).toBe(true);
      importer(small); // warm up
      const ratio = stepsRatio(importer, large, small);
      expect(ratio).toBeLessThan(10);
    });
  }
});
