/**
 * Bad input (IMPORTERS.md "Nothing silently lost", "Bad input"): located
 * errors naming trace, message and field, while the other traces of the same
 * input still import; orphan results kept with a warning; non-text content as
 * a placeholder; unknown shapes named with the --from candidates.
 */
import { describe, expect, test } from "vitest";
import { detectFormat, formatNames, fromAnthropic, fromOpenAIChat, fromOpenAIResponses, fromVercelAI, importTrace } from "../../importers/index.js";
import type { ImportResult } from "../../importers/index.js";

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
    expect(fromOpenAIChat([{ role: "user", content: "x" }, { role: "tool", content: "y" }]).errors).toEqual([{ path: "[1]", message: "missing tool_call_id", trace: 0 }]);
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
    const first = { request: { messages: [{ role: "user", content: "x" }] }, response: { object: "chat.completion", id: "c1", choices: [{ message: { role: "assistant", content: null, tool_calls: [{ id: "t", type: "function", function: { name: "f", arguments: "{}" } }] }, finish_reason: "tool_calls" }] } };
    const second = {
      request: { messages: [{ role: "user", content: "x" }, first.response.choices[0]!.message, { role: "tool", tool_call_id: "t", content: "r" }] },
      response: { object: "chat.completion", id: "c2", choices: [{ message: { role: "assistant", content: "done" }, finish_reason: "stop" }] },
    };
    expect(ids(fromOpenAIChat([first, second]))).toEqual(["c2"]);
    expect(ids(fromOpenAIChat([first, first]))).toEqual(["c1", "c1"]);
  });

  test("nested arguments become dot paths, never [object Object]", () => {
    const result = fromOpenAIChat([
      { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "order", arguments: '{"items":[{"sku":"A1","qty":2}],"ship":{"to":"Paris"}}' } }] },
    ]);
    expect(result.trajectories[0]!.events[0]!.metadata).toEqual({ "items.0.sku": "A1", "items.0.qty": "2", "ship.to": "Paris", "@call_id": "c", "@turn": "1" });
    expect(JSON.stringify(result)).not.toContain("[object Object]");
  });

  test("audio and file parts become placeholders", () => {
    const result = fromOpenAIChat([
      { role: "user", content: [{ type: "input_audio", input_audio: { data: "AA==", format: "wav" } }, { type: "file", file: { file_id: "f1" } }, { type: "text", text: "see" }] },
    ]);
    expect(result.trajectories[0]!.events[0]!.content).toBe("[audio]\n[file]\nsee");
  });

  test("a response cut off at max tokens is incomplete even without open calls", () => {
    const result = fromOpenAIChat({
      request: { messages: [{ role: "user", content: "x" }] },
      response: { object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "half" }, finish_reason: "length" }] },
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
    const badResult = [
      { role: "user", content: [{ type: "tool_result", content: "r" }] },
    ];
    const result = fromAnthropic([{ messages: badUse }, { messages: ok("fine") }, { messages: badResult }]);
    expect(result.errors).toEqual([
      { path: "[0].messages[1].content[0]", message: "missing name", trace: 0 },
      { path: "[2].messages[0].content[0]", message: "missing tool_use_id", trace: 2 },
    ]);
    expect(result.trajectories).toHaveLength(1);
  });

  test("a system role inside messages is an error that says where the system prompt goes", () => {
    const result = fromAnthropic({ messages: [{ role: "system", content: "be nice" }] });
    expect(result.errors).toEqual([{ path: "messages[0]", message: 'unknown role "system" (expected user or assistant; the system prompt is a request field)', trace: 0 }]);
  });

  test("an is_error result carries status error; a tool_result for no call is unknown_result with a warning", () => {
    const result = fromAnthropic([
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "issue_refund", input: { order_id: "A" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "timeout", is_error: true }, { type: "tool_result", tool_use_id: "zz", content: "?" }] },
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
    const good = { object: "response", id: "r1", status: "completed", output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "hi" }] }] };
    const bad = { object: "response", id: "r2", status: "completed", output: [{ type: "function_call", id: "fc_1", name: "get_order", arguments: "{}" }] };
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
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "get_order", output: { type: "json", value: { status: "found" } } }] },
    ]);
    expect(v5.trajectories).toEqual(v4.trajectories);
    const failed = fromVercelAI([
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "pay", input: {} }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "pay", output: { type: "error-text", value: "declined" } }] },
    ]);
    expect(failed.trajectories[0]!.events[1]).toMatchObject({ action: "pay_result", content: "declined", metadata: { status: "error" } });
  });
});

describe("detection", () => {
  test("an unknown shape is one error naming every --from value", () => {
    const result = importTrace({ hello: "world" });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.message).toMatch(/^unknown trace format: /);
    // Every format is named, whichever formats the build has.
    expect(result.errors[0]!.message.endsWith(`pass --from with one of: ${formatNames().join(", ")} (or trajectory)`)).toBe(true);
  });

  test("a plain text chat fits several chat formats, which import it alike: no ambiguity", () => {
    const detection = detectFormat(ok("hi"));
    expect(detection.candidates).toEqual(["openai-chat", "anthropic"]);
    expect(detection.format).toBe("openai-chat");
  });

  test("a named format that does not fit says so instead of guessing", () => {
    const result = importTrace({ hello: "world" }, { from: "anthropic" });
    expect(result.errors).toEqual([{ path: "", message: "not a Anthropic Messages log: expected a message list, {messages}, {request, response} or a response" }]);
  });
});
