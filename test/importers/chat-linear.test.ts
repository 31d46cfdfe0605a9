/**
 * Issue 22 "every importer is linear", for the round-1 chat and agent formats:
 * openai-chat, anthropic, openai-responses, vercel-ai and openai-agents import
 * 100,000 tool calls, made four at a time in parallel (one assistant message,
 * or overlapping function spans) with their results back in reverse order.
 * 25,000 calls against 100,000: a linear import takes about 4 times as long,
 * a quadratic one about 16; the bound of 10 leaves room for a loaded machine.
 * At this size `push(...list)` overflowed the stack: openai-responses imported
 * nothing, and a chat log of 125,000 messages was "unknown trace format".
 */
import { describe, expect, test } from "vitest";
import {
  fromAnthropic,
  fromOpenAIAgents,
  fromOpenAIChat,
  fromOpenAIResponses,
  fromVercelAI,
  importTrace,
  type ImportResult,
} from "../../importers/index.js";
import { stepsRatio } from "../support/work.js";

const PARALLEL = 4;

/** Runs `round` for each group of PARALLEL calls (ids call_<i>), n calls in all. */
function rounds(n: number, round: (ids: number[]) => void): void {
  for (let i = 0; i < n; i += PARALLEL) round(Array.from({ length: Math.min(PARALLEL, n - i) }, (_, k) => i + k));
}

function openaiChat(n: number): unknown {
  const messages: unknown[] = [{ role: "user", content: "Look every order up." }];
  rounds(n, (ids) => {
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: ids.map((i) => ({ id: `call_${i}`, type: "function", function: { name: "lookup", arguments: `{"q":${i}}` } })),
    });
    for (const i of [...ids].reverse()) messages.push({ role: "tool", tool_call_id: `call_${i}`, content: `{"n":${i}}` });
  });
  messages.push({ role: "assistant", content: "Done." });
  return { messages };
}

function anthropic(n: number): unknown {
  const messages: unknown[] = [{ role: "user", content: "Look every order up." }];
  rounds(n, (ids) => {
    messages.push({ role: "assistant", content: ids.map((i) => ({ type: "tool_use", id: `call_${i}`, name: "lookup", input: { q: i } })) });
    messages.push({
      role: "user",
      content: [...ids].reverse().map((i) => ({ type: "tool_result", tool_use_id: `call_${i}`, content: `{"n":${i}}` })),
    });
  });
  return {
    request: { model: "claude-sonnet-4-6", max_tokens: 1024, messages },
    response: {
      id: "msg_last",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-6",
      content: [{ type: "text", text: "Done." }],
      stop_reason: "end_turn",
    },
  };
}

function openaiResponses(n: number): unknown {
  const input: unknown[] = [{ role: "user", content: "Look every order up." }];
  rounds(n, (ids) => {
    for (const i of ids) input.push({ type: "function_call", call_id: `call_${i}`, name: "lookup", arguments: `{"q":${i}}` });
    for (const i of [...ids].reverse()) input.push({ type: "function_call_output", call_id: `call_${i}`, output: `{"n":${i}}` });
  });
  return {
    request: { model: "gpt-4.1", input },
    response: {
      id: "resp_last",
      object: "response",
      status: "completed",
      output: [
        { type: "message", id: "msg_last", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Done." }] },
      ],
    },
  };
}

function vercelAi(n: number): unknown {
  const messages: unknown[] = [{ role: "user", content: [{ type: "text", text: "Look every order up." }] }];
  rounds(n, (ids) => {
    messages.push({
      role: "assistant",
      content: ids.map((i) => ({ type: "tool-call", toolCallId: `call_${i}`, toolName: "lookup", input: { q: i } })),
    });
    messages.push({
      role: "tool",
      content: [...ids]
        .reverse()
        .map((i) => ({ type: "tool-result", toolCallId: `call_${i}`, toolName: "lookup", output: { type: "json", value: { n: i } } })),
    });
  });
  messages.push({ role: "assistant", content: [{ type: "text", text: "Done." }] });
  return messages;
}

/** An Agents SDK export, in end order: per turn a generation naming its calls, then their function spans, which overlap and end in reverse. */
function openaiAgents(n: number): unknown {
  const trace = "trace_0123456789abcdef0123456789abcdef";
  const at = (ms: number): string => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
  const span = (id: string, parent: string, start: number, end: number, data: unknown) => ({
    object: "trace.span",
    id,
    trace_id: trace,
    parent_id: parent,
    started_at: at(start),
    ended_at: at(end),
    span_data: data,
    error: null,
  });
  const items: unknown[] = [{ object: "trace", id: trace, workflow_name: "Desk", group_id: null, metadata: {} }];
  let t = 1;
  rounds(n, (ids) => {
    const tool_calls = ids.map((i) => ({ id: `call_${i}`, type: "function", function: { name: "lookup", arguments: `{"q":${i}}` } }));
    items.push(
      span(`span_g${ids[0]}`, "span_agent", t, t + 1, {
        type: "generation",
        model: "gpt-4.1-mini",
        input: [],
        output: [{ role: "assistant", content: null, tool_calls }],
      }),
    );
    const start = t + 2;
    t += 2 + 2 * ids.length;
    // The last call started ends first: every function span overlaps the others of its turn.
    [...ids].reverse().forEach((i, k) => {
      items.push(
        span(`span_f${i}`, "span_agent", start + ids.indexOf(i), t - ids.length + k, {
          type: "function",
          name: "lookup",
          input: `{"q":${i}}`,
          output: `{"n":${i}}`,
        }),
      );
    });
  });
  items.push(span("span_agent", "", 0, t + 1, { type: "agent", name: "Desk", handoffs: [], tools: ["lookup"], output_type: "text" }));
  return { data: items };
}

describe("chat and agent imports are linear in the calls, parallel ones included", () => {
  for (const [name, make, importer] of [
    ["openai-chat", openaiChat, fromOpenAIChat],
    ["anthropic", anthropic, fromAnthropic],
    ["openai-responses", openaiResponses, fromOpenAIResponses],
    ["vercel-ai", vercelAi, fromVercelAI],
    ["openai-agents", openaiAgents, fromOpenAIAgents],
  ] as const) {
    test(`${name}: 100,000 calls import, each result after its own call; 100,000 cost about 4 times 25,000, not 16`, () => {
      const large = make(100_000);
      const result: ImportResult = importer(large);
      expect(result.trajectories).toHaveLength(1);
      const events = result.trajectories[0]!.events;
      const calls = events.filter((e) => e.actor === "agent" && e.action === "lookup");
      const results = events.filter((e) => e.actor === "tool");
      expect(calls).toHaveLength(100_000);
      expect(results).toHaveLength(100_000);
      // Each result follows its own call: the i-th call asked for q=i, and its result (n=i) comes after it.
      const position = new Map(events.map((e, k) => [e, k]));
      const callAt = new Map(calls.map((e) => [e.metadata!.q, position.get(e)!]));
      expect(results.every((e) => e.action === "lookup_result" && position.get(e)! > callAt.get(e.metadata!.n)!)).toBe(true);
      // Auto-detection reads the same input: a spread of a long message list once overflowed the stack there.
      expect(importTrace(large).format).toBe(name);
      const small = make(25_000);
      importer(small); // warm up
      const ratio = stepsRatio(importer, large, small);
      expect(ratio).toBeLessThan(10);
    }, 120_000);
  }
});
