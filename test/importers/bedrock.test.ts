/**
 * What is particular to `bedrock` (goldens, detection and round trips are in
 * golden.test.ts and roundtrip.test.ts): keyed blocks, toolResult status,
 * stopReason, invocation log records chained into one conversation, Strands
 * session messages in message_id order with Python-repr results, located
 * errors, and an import linear in the calls.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { detectFormat, fromBedrock } from "../../importers/index.js";
import { parsePythonDict } from "../../importers/python-literal.js";
import { IMPORTER_FIXTURES, readFixture } from "../support/importer-fixtures.js";
import { stepsRatio } from "../support/work.js";

const fixture = (file: string): unknown => readFixture(join(IMPORTER_FIXTURES, "bedrock", file));
const shape = (events: readonly { actor: string; action: string }[]): string[] => events.map((e) => `${e.actor}:${e.action}`);
const user = (text: string) => ({ role: "user", content: [{ text }] });
const use = (toolUseId: string, name: string, input: unknown = {}) => ({ toolUse: { toolUseId, name, input } });
const result = (toolUseId: string, content: unknown[], status?: string) => ({
  toolResult: { toolUseId, content, ...(status === undefined ? {} : { status }) },
});

describe("bedrock importer on fixtures recorded with boto3", () => {
  test("refund-parallel-error.json ({request, response} of the last call): parallel calls share a turn, results in arrival order, status error", () => {
    const [t] = fromBedrock(fixture("refund-parallel-error.json")).trajectories;
    expect(t!.id).toBe("req-rec0004"); // boto3's ResponseMetadata.RequestId
    expect(t!.complete).toBe(true);
    const [e5, e6] = [t!.events[4]!, t!.events[5]!];
    expect([e5.metadata!["@call_id"], e6.metadata!["@call_id"]]).toEqual(["tooluse_rec02", "tooluse_rec01"]);
    expect(t!.events[8]).toMatchObject({
      action: "issue_refund_result",
      content: "payment processor timeout",
      metadata: { status: "error" },
    });
    // The "\n\n" text block before the email call is no agent message.
    expect(t!.events.filter((e) => e.action === "message" && (e.content ?? "").trim() === "")).toEqual([]);
  });

  test("--reasoning keeps reasoningContent as agent/reasoning in the turn of its response", () => {
    const [t] = fromBedrock(fixture("refund-parallel-error.json"), { reasoning: true }).trajectories;
    expect(t!.events[1]).toMatchObject({
      action: "reasoning",
      content: "Two orders; look both up before refunding.",
      metadata: { "@turn": "2" },
    });
  });

  test("cut-off-messages.json (a bare message list): a result of several parts is their text, a call left unanswered makes it incomplete", () => {
    const [t] = fromBedrock(fixture("cut-off-messages.json")).trajectories;
    expect(t!.events[5]).toMatchObject({ action: "get_receipt_result", content: "Receipt for B-7\nPaid by card.\n[image]" });
    expect(t!.events.at(-1)!.action).toBe("issue_refund");
    expect(t!.complete).toBe(false);
  });

  test("invocation-log.jsonl: one record per call; the records of one agent loop chain into one conversation, stopReason decides complete", () => {
    const ts = fromBedrock(fixture("invocation-log.jsonl")).trajectories;
    expect(ts.map((t) => [t.id, t.complete])).toEqual([
      ["req-rec0009", true],
      ["req-rec0010", true],
      ["req-rec0011", false],
      ["req-rec0013", true],
    ]);
    expect(shape(ts[0]!.events)).toEqual([
      "user:message",
      "agent:escalate_to_supervisor",
      "tool:escalate_to_supervisor_result",
      "agent:add_case_note",
      "tool:add_case_note_result",
      "agent:message",
    ]);
    // guardrail_intervened: the guardrail, then its canned answer, in one turn.
    expect(ts[1]!.events.slice(1)).toMatchObject([
      { action: "guardrail", metadata: { name: "bedrock", triggered: "true", "@turn": "2" } },
      { action: "message", content: "Sorry, I can't help with that request.", metadata: { "@turn": "2" } },
    ]);
  });

  test("strands-session.jsonl: SessionMessages listed message_10 before message_2 import in message_id order; str(dict) results flatten", () => {
    const [t] = fromBedrock(fixture("strands-session.jsonl")).trajectories;
    expect(t!.events[0]!.content).toBe("Refund A-1001 please, it broke. Here's the photo. I'm lee@example.com.\n[image]");
    expect(t!.events[7]).toMatchObject({
      action: "issue_refund_result",
      content: "{'status': 'approved', 'order_id': 'A-1001', 'amount': 25, 'reference': 'RF-A-1001'}",
      metadata: { status: "approved", amount: "25", reference: "RF-A-1001" },
    });
    expect(t!.events[13]).toMatchObject({ content: "Error: RuntimeError - payment processor timeout", metadata: { status: "error" } });
    expect(t!.complete).toBe(true);
  });
});

describe("bedrock shapes", () => {
  test("a server tool (toolUse of type server_tool_use) is answered in the same message and keeps the turn; complete", () => {
    const t = fromBedrock([
      user("news?"),
      {
        role: "assistant",
        content: [
          { toolUse: { toolUseId: "s1", name: "web_search", input: { q: "x" }, type: "server_tool_use" } },
          result("s1", [{ text: "hit" }]),
          { text: "Nothing new." },
        ],
      },
    ]).trajectories[0]!;
    expect(t.events.map((e) => [e.action, e.metadata!["@turn"]])).toEqual([
      ["message", "1"],
      ["web_search", "2"],
      ["web_search_result", "2"],
      ["message", "2"],
    ]);
    expect(t.events[1]!.metadata!["@server"]).toBe("provider");
    expect(t.complete).toBe(true);
  });

  test("a single json block flattens; a json block among text parts flattens too, the text keeps every part", () => {
    const t = fromBedrock([
      user("go"),
      { role: "assistant", content: [use("a", "f"), use("b", "g")] },
      {
        role: "user",
        content: [result("a", [{ json: { ok: true, items: [{ sku: "K1" }] } }]), result("b", [{ text: "see:" }, { json: { n: 2 } }])],
      },
      { role: "assistant", content: [{ text: "done" }] },
    ]).trajectories[0]!;
    expect(t.events[3]!.metadata).toMatchObject({ ok: "true", "items.0.sku": "K1" });
    expect(t.events[4]).toMatchObject({ content: 'see:\n{"n":2}', metadata: { n: "2" } });
  });

  test("stopReason: tool_use with no result and max_tokens are incomplete; end_turn and stop_sequence complete", () => {
    const run = (stop: string, content: unknown[]) =>
      fromBedrock({ messages: [user("x")], response: { output: { message: { role: "assistant", content } }, stopReason: stop } })
        .trajectories[0]!.complete;
    expect(run("tool_use", [use("c", "f")])).toBe(false);
    expect(run("max_tokens", [{ text: "Our" }])).toBe(false);
    expect(run("end_turn", [{ text: "ok" }])).toBe(true);
    expect(run("stop_sequence", [{ text: "ok" }])).toBe(true);
  });

  test("a Strands message with a redact_message keeps its original content, marked @redacted; a repeated message_id is a warning", () => {
    const r = fromBedrock([
      { message: user("my card is 4111"), message_id: 0, redact_message: user("[User input redacted.]") },
      { message: { role: "assistant", content: [{ text: "ok" }] }, message_id: 1 },
      { message: { role: "assistant", content: [{ text: "again" }] }, message_id: 1 },
    ]);
    expect(r.trajectories[0]!.events[0]).toMatchObject({ content: "my card is 4111", metadata: { "@redacted": "true" } });
    expect(r.warnings).toEqual([{ path: "[2].message_id", message: "a second message with message_id 1", trace: 0 }]);
  });

  test("detection: keyed blocks are bedrock; typed blocks are not, nor an invocation log of InvokeModel alone in a message list", () => {
    expect(detectFormat([user("hi")]).format).toBe("bedrock");
    expect(detectFormat([{ role: "user", content: [{ type: "text", text: "hi" }] }]).format).not.toBe("bedrock");
    expect(detectFormat({ output: { message: { role: "assistant", content: [{ text: "x" }] } }, stopReason: "end_turn" }).format).toBe(
      "bedrock",
    );
    expect(detectFormat([{ message: user("hi"), message_id: 0 }]).format).toBe("bedrock");
  });
});

describe("bedrock bad input: located errors, the other conversations still import", () => {
  test("a toolUse without a name, a toolResult without toolUseId, an unknown role", () => {
    const good = { messages: [user("a"), { role: "assistant", content: [{ text: "fine" }] }] };
    const r = fromBedrock([
      good,
      { messages: [user("b"), { role: "assistant", content: [{ toolUse: { toolUseId: "c1", input: {} } }] }] },
      { messages: [user("c"), { role: "user", content: [{ toolResult: { content: [] } }] }] },
      { messages: [{ role: "system", content: [{ text: "x" }] }] },
      good,
    ]);
    expect(r.errors).toEqual([
      { path: "[1].messages[1].content[0].toolUse", message: "missing name", trace: 1 },
      { path: "[2].messages[1].content[0].toolResult", message: "missing toolUseId", trace: 2 },
      {
        path: "[3].messages[0]",
        message: 'unknown role "system" (expected user or assistant; the system prompt is a request field)',
        trace: 3,
      },
    ]);
    expect(r.trajectories).toHaveLength(2);
  });

  test("an invocation log record of another operation names it; a block with no known key is a warning, not a loss in silence", () => {
    const record = (operation: string) => ({
      schemaType: "ModelInvocationLog",
      operation,
      requestId: operation,
      input: { inputBodyJson: { messages: [user("x")] } },
      output: {
        outputBodyJson: { output: { message: { role: "assistant", content: [{ text: "y" }, { weird: 1 }] } }, stopReason: "end_turn" },
      },
    });
    const r = fromBedrock([record("InvokeModel"), record("Converse")]);
    expect(r.errors).toEqual([
      {
        path: "[0].operation",
        message: `"InvokeModel" logs the model's own request format, not Converse messages (import the body with that model's format)`,
        trace: 0,
      },
    ]);
    expect(r.warnings).toEqual([
      {
        path: "[1].output.outputBodyJson.output.message.content[1]",
        message: 'content block with keys ["weird"] is not imported',
        trace: 1,
      },
    ]);
    expect(r.trajectories.map((t) => t.id)).toEqual(["Converse"]);
  });

  test("a Strands session line with a bad message is located at its line's element", () => {
    const r = fromBedrock([
      { message: user("x"), message_id: 0 },
      { message: { role: "assistant", content: "not blocks" }, message_id: 1 },
    ]);
    expect(r.errors).toEqual([{ path: "[1].message", message: "content must be an array of content blocks", trace: 0 }]);
  });
});

describe("Python dict reprs (Strands' str(result))", () => {
  test("the literal subset: strings with escapes, numbers, True/False/None, nested lists, tuples and dicts", () => {
    expect(parsePythonDict(`{'a': [1, -2.5, 1e-05, (3,)], "b'": {'c': None, 1: True}, 'd': 'it\\'s\\n\\x41'}`)).toEqual({
      a: [1, -2.5, 1e-5, [3]],
      "b'": { c: null, "1": true },
      d: "it's\nA",
    });
    expect(parsePythonDict("{'__proto__': {'x': 1}}")).toEqual(JSON.parse('{"__proto__": {"x": 1}}'));
  });

  test("anything else is no literal: sets, calls, missing commas or colons, trailing text, too deep", () => {
    for (const text of ["{'a', 1}", "{'a': 1 'b': 2}", "{'a': datetime.date(2020, 1, 1)}", "{1, 2}", "{'a': 1}x", "['a']", "{'a': 'x"])
      expect(parsePythonDict(text)).toBeUndefined();
    expect(parsePythonDict(`{'a': ${"[".repeat(5000)}${"]".repeat(5000)}}`)).toBeUndefined();
  });
});

describe("bedrock import is linear in the calls", () => {
  const conversation = (n: number): unknown[] => {
    const messages: unknown[] = [user("go")];
    for (let i = 0; i < n; i += 2) {
      // Two parallel calls a turn, answered in reverse order.
      messages.push({ role: "assistant", content: [use(`c${i}`, "lookup", { q: i }), use(`c${i + 1}`, "lookup", { q: i + 1 })] });
      messages.push({ role: "user", content: [result(`c${i + 1}`, [{ json: { n: i + 1 } }]), result(`c${i}`, [{ text: `{'n': ${i}}` }])] });
    }
    messages.push({ role: "assistant", content: [{ text: "done" }] });
    return messages;
  };

  test("100,000 calls cost about 4 times 25,000, not 16 times; every result follows its own call", () => {
    const small = conversation(25_000);
    const large = conversation(100_000);
    const t = fromBedrock(large).trajectories[0]!;
    expect(t.events).toHaveLength(2 + 200_000);
    expect(t.complete).toBe(true);
    const results = t.events.filter((e) => e.actor === "tool");
    expect(results.every((e, i) => e.metadata!.n === String(i % 2 === 0 ? i + 1 : i - 1))).toBe(true);
    fromBedrock(small);
    expect(stepsRatio(fromBedrock, large, small)).toBeLessThan(8);
  });
});
