/**
 * Bad input (IMPORTERS.md "Nothing silently lost", "Bad input"): located
 * errors naming trace, message and field, while the other traces of the same
 * input still import; orphan results kept with a warning; non-text content as
 * a placeholder; unknown shapes named with the --from candidates.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  detectFormat,
  detectLangChain,
  detectOpenAIAgents,
  detectOtel,
  formatNames,
  fromAnthropic,
  fromLangChain,
  fromOpenAIAgents,
  fromOpenAIChat,
  fromOpenAIResponses,
  fromOtel,
  fromVercelAI,
  importTrace,
} from "../../importers/index.js";
import type { ImportResult } from "../../importers/index.js";
import { IMPORTER_FIXTURES, readFixture } from "../support/importer-fixtures.js";

const ok = (text: string) => [
  { role: "user", content: text },
  { role: "assistant", content: "fine" },
];

function ids(result: ImportResult): string[] {
  return result.trajectories.map((t) => t.id);
}

describe("openai-chat", () => {
  test("a tool call without a function name: messages[7]-style path, and the other conversations still import", () => {
    const bad = {
      messages: [
        { role: "user", content: "refund" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { arguments: "{}" } }] },
      ],
    };
    const result = fromOpenAIChat([{ messages: ok("a") }, bad, { messages: ok("c") }]);
    expect(result.errors).toEqual([{ path: "[1].messages[1].tool_calls[0].function", message: "missing name", trace: 1 }]);
    expect(ids(result)).toEqual(["trace-1", "trace-3"]);
  });

  test("an unknown role, a tool message without tool_call_id", () => {
    expect(fromOpenAIChat([{ role: "robot", content: "x" }]).errors).toEqual([
      { path: "[0]", message: 'unknown role "robot" (expected system, developer, user, assistant, tool or function)', trace: 0 },
    ]);
    expect(
      fromOpenAIChat([
        { role: "user", content: "x" },
        { role: "tool", content: "y" },
      ]).errors,
    ).toEqual([{ path: "[1]", message: "missing tool_call_id", trace: 0 }]);
  });

  test("a result whose call is missing keeps its place as unknown_result, with a warning", () => {
    const result = fromOpenAIChat([
      { role: "user", content: "x" },
      { role: "tool", tool_call_id: "ghost", content: '{"status":"found"}' },
      { role: "function", name: "get_order", content: "legacy" },
    ]);
    expect(result.trajectories[0]!.events.map((e) => [e.actor, e.action, e.metadata?.status])).toEqual([
      ["user", "message", undefined],
      ["tool", "unknown_result", "found"],
      ["tool", "get_order_result", undefined],
    ]);
    expect(result.warnings).toEqual([
      { path: "[1]", message: 'call id "ghost" answers no earlier call', trace: 0 },
      { path: "[2]", message: "a result for get_order with no call id answers no earlier call", trace: 0 },
    ]);
  });

  test("a log of every call of one loop is one conversation; identical copies (a dataset) stay separate", () => {
    const first = {
      request: { messages: [{ role: "user", content: "x" }] },
      response: {
        object: "chat.completion",
        id: "c1",
        choices: [
          {
            message: {
              role: "assistant",
              content: null,
              tool_calls: [{ id: "t", type: "function", function: { name: "f", arguments: "{}" } }],
            },
            finish_reason: "tool_calls",
          },
        ],
      },
    };
    const second = {
      request: {
        messages: [{ role: "user", content: "x" }, first.response.choices[0]!.message, { role: "tool", tool_call_id: "t", content: "r" }],
      },
      response: {
        object: "chat.completion",
        id: "c2",
        choices: [{ message: { role: "assistant", content: "done" }, finish_reason: "stop" }],
      },
    };
    expect(ids(fromOpenAIChat([first, second]))).toEqual(["c2"]);
    expect(ids(fromOpenAIChat([first, first]))).toEqual(["c1", "c1"]);
  });

  test("nested arguments become dot paths, never [object Object]", () => {
    const result = fromOpenAIChat([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c", type: "function", function: { name: "order", arguments: '{"items":[{"sku":"A1","qty":2}],"ship":{"to":"Paris"}}' } },
        ],
      },
    ]);
    expect(result.trajectories[0]!.events[0]!.metadata).toEqual({
      "items.0.sku": "A1",
      "items.0.qty": "2",
      "ship.to": "Paris",
      "@call_id": "c",
      "@turn": "1",
    });
    expect(JSON.stringify(result)).not.toContain("[object Object]");
  });

  test("audio and file parts become placeholders", () => {
    const result = fromOpenAIChat([
      {
        role: "user",
        content: [
          { type: "input_audio", input_audio: { data: "AA==", format: "wav" } },
          { type: "file", file: { file_id: "f1" } },
          { type: "text", text: "see" },
        ],
      },
    ]);
    expect(result.trajectories[0]!.events[0]!.content).toBe("[audio]\n[file]\nsee");
  });

  test("a response cut off at max tokens is incomplete even without open calls", () => {
    const result = fromOpenAIChat({
      request: { messages: [{ role: "user", content: "x" }] },
      response: {
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: "half" }, finish_reason: "length" }],
      },
    });
    expect(result.trajectories[0]!.complete).toBe(false);
  });
});

describe("anthropic", () => {
  test("a tool_use without a name, a tool_result without tool_use_id: located; the other conversations import", () => {
    const badUse = [
      { role: "user", content: "x" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", input: {} }] },
    ];
    const badResult = [{ role: "user", content: [{ type: "tool_result", content: "r" }] }];
    const result = fromAnthropic([{ messages: badUse }, { messages: ok("fine") }, { messages: badResult }]);
    expect(result.errors).toEqual([
      { path: "[0].messages[1].content[0]", message: "missing name", trace: 0 },
      { path: "[2].messages[0].content[0]", message: "missing tool_use_id", trace: 2 },
    ]);
    expect(result.trajectories).toHaveLength(1);
  });

  test("a system role inside messages is an error that says where the system prompt goes", () => {
    const result = fromAnthropic({ messages: [{ role: "system", content: "be nice" }] });
    expect(result.errors).toEqual([
      {
        path: "messages[0]",
        message: 'unknown role "system" (expected user or assistant; the system prompt is a request field)',
        trace: 0,
      },
    ]);
  });

  test("an is_error result carries status error; a tool_result for no call is unknown_result with a warning", () => {
    const result = fromAnthropic([
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "issue_refund", input: { order_id: "A" } }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "timeout", is_error: true },
          { type: "tool_result", tool_use_id: "zz", content: "?" },
        ],
      },
    ]);
    expect(result.trajectories[0]!.events.map((e) => [e.action, e.metadata?.status])).toEqual([
      ["issue_refund", undefined],
      ["issue_refund_result", "error"],
      ["unknown_result", undefined],
    ]);
    expect(result.warnings.map((w) => w.path)).toEqual(["[1].content[1]"]);
  });
});

describe("openai-responses", () => {
  test("a function_call without call_id: located in its exchange; the other exchanges still import", () => {
    const good = {
      object: "response",
      id: "r1",
      status: "completed",
      output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "hi" }] }],
    };
    const bad = {
      object: "response",
      id: "r2",
      status: "completed",
      output: [{ type: "function_call", id: "fc_1", name: "get_order", arguments: "{}" }],
    };
    const result = fromOpenAIResponses([good, bad, 42]);
    expect(result.errors).toEqual([
      { path: "[1].output[0]", message: "missing call_id", trace: 1 },
      { path: "[2]", message: "not a Responses API exchange: expected {request, response}, a response, or an item list", trace: 2 },
    ]);
    expect(ids(result)).toEqual(["r1"]);
  });

  test("results pair on call_id, not on the item id", () => {
    const result = fromOpenAIResponses([
      { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_order", arguments: '{"order_id":"A"}' },
      { type: "function_call_output", id: "fco_9", call_id: "call_1", output: '{"status":"found"}' },
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.trajectories[0]!.events.map((e) => e.action)).toEqual(["get_order", "get_order_result"]);
  });
});

describe("vercel-ai", () => {
  test("a tool-call part without toolName: located; other histories import", () => {
    const result = fromVercelAI([
      [{ role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", input: {} }] }],
      [
        { role: "user", content: "x" },
        { role: "assistant", content: "y" },
      ],
    ]);
    expect(result.errors).toEqual([{ path: "[0][0].content[0]", message: "missing toolName", trace: 0 }]);
    expect(result.trajectories).toHaveLength(1);
  });

  test("v4 args/result and v5 input/output wrappers give the same events; error outputs are status error", () => {
    const v4 = fromVercelAI([
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "get_order", args: { order_id: "A" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "get_order", result: { status: "found" } }] },
    ]);
    const v5 = fromVercelAI([
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "get_order", input: { order_id: "A" } }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "c1", toolName: "get_order", output: { type: "json", value: { status: "found" } } }],
      },
    ]);
    expect(v5.trajectories).toEqual(v4.trajectories);
    const failed = fromVercelAI([
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "pay", input: {} }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "c1", toolName: "pay", output: { type: "error-text", value: "declined" } }],
      },
    ]);
    expect(failed.trajectories[0]!.events[1]).toMatchObject({ action: "pay_result", content: "declined", metadata: { status: "error" } });
  });
});

describe("openai-agents", () => {
  test("a function span without a name, an item that is no object, a span without trace id: located; the other traces still import", () => {
    const payload = readFixture(join(IMPORTER_FIXTURES, "openai-agents", "several-traces.json")) as { data: Record<string, unknown>[] };
    const data = payload.data;
    // Trace 0 (Responses API): its function span loses its name; an item that is no object; a span with no trace id.
    const fn = data.findIndex((i) => (i.span_data as { type?: string } | undefined)?.type === "function");
    delete (data[fn]!.span_data as Record<string, unknown>).name;
    data.push(42 as never, { object: "trace.span", id: "span_x", span_data: { type: "function" } });
    const result = fromOpenAIAgents({ data });
    expect(result.errors).toEqual([
      { path: `data[${data.length - 2}]`, message: "must be an object (a trace or a trace.span)" },
      { path: `data[${data.length - 1}]`, message: "missing trace_id" },
      { path: `data[${fn}].span_data`, message: "missing name", trace: 0 },
    ]);
    expect(result.trajectories.map((t) => t.description)).toEqual(["Refund desk", "Refund desk"]);
    expect(fromOpenAIAgents({ messages: [] }).errors).toEqual([
      { path: "", message: "expected an Agents SDK trace export: {data: [trace, span, …]} or a list of spans" },
    ]);
  });
});

describe("otel", () => {
  test("a tool span without the tool's name, a span without trace id: located; the other traces still import", () => {
    const request = readFixture(join(IMPORTER_FIXTURES, "otel", "ai-sdk-genai.otlp.json")) as {
      resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[];
    };
    const spans = request.resourceSpans[0]!.scopeSpans[0]!.spans;
    // A tool span of the first trace loses its tool name; a span loses its trace id.
    const tool = spans.findIndex((s) => (s.attributes as { key: string }[]).some((a) => a.key === "gen_ai.tool.name"));
    spans[tool]!.attributes = (spans[tool]!.attributes as { key: string }[]).filter((a) => a.key !== "gen_ai.tool.name");
    spans[tool]!.name = "";
    const last = spans.length - 1;
    delete spans[last]!.traceId;
    const result = fromOtel(request);
    expect(result.errors).toEqual([
      { path: `resourceSpans[0].scopeSpans[0].spans[${last}]`, message: "missing traceId" },
      {
        path: `resourceSpans[0].scopeSpans[0].spans[${tool}].attributes`,
        message: "missing the tool's name (gen_ai.tool.name, tool.name, ai.toolCall.name or the span name)",
        trace: 0,
      },
    ]);
    expect(result.trajectories).toHaveLength(1);
    expect(fromOtel({ spans: [] }).errors).toEqual([{ path: "", message: "expected an OTLP/JSON trace export: {resourceSpans: [...]}" }]);
  });
});

describe("langchain", () => {
  test("a tool call without a name, a message of no known form: located; the other conversations still import", () => {
    const broken = readFixture(join(IMPORTER_FIXTURES, "langchain", "several.stored.json")) as {
      type: string;
      data: Record<string, unknown>;
    }[][];
    delete (broken[0]![1]!.data.tool_calls as Record<string, unknown>[])[0]!.name;
    const result = fromLangChain([...broken, [{ role: "user", content: "hi" }]]);
    expect(result.errors).toEqual([
      { path: "[0][1].tool_calls[0]", message: "missing name", trace: 0 },
      {
        path: "[2][0]",
        message: "not a LangChain message (expected {type, data}, an lc-serialized message, or {type, content})",
        trace: 2,
      },
    ]);
    expect(result.trajectories.map((t) => t.id)).toEqual(["trace-2"]);
    expect(fromLangChain({ foo: 1 }).errors).toEqual([
      { path: "", message: "expected LangChain messages (a list, or {messages}), a list of conversations, or a LangSmith run tree" },
    ]);
  });
});

describe("detection", () => {
  test("the span and framework formats do not take other shapes for theirs", () => {
    const chat = [{ role: "user", content: "hi" }];
    expect(detectOpenAIAgents({ data: [{ id: "x" }] })).toBe(false);
    expect(detectOpenAIAgents(chat)).toBe(false);
    expect(detectOtel({ data: [] })).toBe(false);
    expect(detectLangChain(chat)).toBe(false);
    // A trajectory's events are not a LangSmith run's.
    expect(detectFormat({ id: "t", complete: true, events: [{ id: "e1", actor: "agent", action: "act" }] }).candidates).toEqual([]);
  });

  test("a shape several formats take, and import differently, is ambiguous: the error names those candidates", () => {
    // Chat messages that also carry LangChain's `type`: openai-chat reads the OpenAI-shaped call, langchain expects {name, args, id}.
    const mixed = [
      { role: "user", type: "human", content: "refund A-1" },
      {
        role: "assistant",
        type: "ai",
        content: "",
        tool_calls: [{ id: "c1", type: "function", function: { name: "get_order", arguments: "{}" } }],
      },
    ];
    expect(detectFormat(mixed)).toEqual({ candidates: ["openai-chat", "anthropic", "langchain"] });
    const result = importTrace(mixed);
    expect(result.trajectories).toEqual([]);
    expect(result.errors).toEqual([
      {
        path: "",
        message: `ambiguous trace format: it could be openai-chat or anthropic or langchain; set the from option to one of: ${formatNames().join(", ")} (or trajectory)`,
      },
    ]);
    // Naming the format settles it.
    expect(importTrace(mixed, { from: "openai-chat" }).trajectories[0]!.events.map((e) => e.action)).toEqual(["message", "get_order"]);
  });

  test("an unknown shape is one error naming every value of the from option (the library's name for it, not the CLI's --from)", () => {
    const result = importTrace({ hello: "world" });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.message).toMatch(/^unknown trace format: /);
    // Every format is named, whichever formats the build has.
    expect(result.errors[0]!.message.endsWith(`set the from option to one of: ${formatNames().join(", ")} (or trajectory)`)).toBe(true);
  });

  test("a plain text chat fits several chat formats, which import it alike: no ambiguity", () => {
    const detection = detectFormat(ok("hi"));
    expect(detection.candidates).toEqual(["openai-chat", "anthropic"]);
    expect(detection.format).toBe("openai-chat");
  });

  test("a named format that does not fit says so instead of guessing", () => {
    const result = importTrace({ hello: "world" }, { from: "anthropic" });
    expect(result.errors).toEqual([
      { path: "", message: "not a Anthropic Messages log: expected a message list, {messages}, {request, response} or a response" },
    ]);
  });
});
