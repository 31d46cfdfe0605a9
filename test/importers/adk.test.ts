/**
 * Google ADK sessions and events, and Gemini contents (issue 22): both
 * spellings of every key, calls without ids paired by name and order,
 * transfers as hand-offs, streaming chunks skipped and said, and bad input
 * located while the other sessions still import.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { detectFormat, fromAdk, importTrace } from "../../importers/index.js";
import type { ImportResult } from "../../importers/index.js";
import { IMPORTER_FIXTURES, readFixture } from "../support/importer-fixtures.js";

const read = (file: string) => readFixture(join(IMPORTER_FIXTURES, "adk", file));
const brief = (r: ImportResult, k = 0) => r.trajectories[k]!.events.map((e) => `${e.actor}/${e.action}: ${e.content}`);
type Session = { id: string; events: Record<string, unknown>[] } & Record<string, unknown>;

/** Every key in snake_case, as Python's model_dump writes it (values left alone, except the keys of parts and actions). */
function snake(value: unknown, inValue = false): unknown {
  if (Array.isArray(value)) return value.map((v) => snake(v, inValue));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const key = inValue ? k : k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      // The arguments and responses of tools are the tools' own JSON: their keys stay.
      return [key, snake(v, inValue || k === "args" || k === "response" || k === "stateDelta")];
    }),
  );
}

const model = (parts: unknown[]) => ({ role: "model", parts });
const tools = (parts: unknown[]) => ({ role: "user", parts });

describe("ADK sessions and events", () => {
  test("the API server's camelCase and Python's snake_case give the same trajectory", () => {
    const session = read("refund-session.api.json") as Session;
    const camel = fromAdk(session);
    expect(camel.errors).toEqual([]);
    const snaked = snake(session);
    expect(JSON.stringify(snaked)).toContain('"function_call"');
    expect(JSON.stringify(snaked)).toContain('"transfer_to_agent":"refunds"');
    expect(fromAdk(snaked).trajectories).toEqual(camel.trajectories);
    expect(detectFormat(snaked).format).toBe("adk");
  });

  test("a session's events alone, as a list or one per JSONL line, import the same events", () => {
    const session = read("refund-session.api.json") as Session;
    const events = fromAdk(session.events);
    expect(events.trajectories[0]!.events).toEqual(fromAdk(session).trajectories[0]!.events);
    expect(events.trajectories[0]!.id).toBe("e-7f1c2d3e-0001"); // the first invocation's id, without the session
  });

  test("partial (streaming) events are skipped, and a warning says how many; the oldest sessions' options.partial too", () => {
    const session = read("refund-session.api.json") as Session;
    const chunks = [
      { author: "refunds", partial: true, content: model([{ text: "Let me" }]) },
      { author: "refunds", options: { partial: true }, content: model([{ text: " look" }]) },
    ];
    const streamed = { ...session, events: [...session.events.slice(0, 3), ...chunks, ...session.events.slice(3)] };
    const result = fromAdk(streamed);
    expect(result.trajectories[0]!.events).toEqual(fromAdk(session).trajectories[0]!.events);
    expect(result.warnings).toEqual([
      { path: "", message: "2 partial events (streaming chunks) skipped: the final event of each response repeats their text", trace: 0 },
    ]);
  });

  test("actions.transferToAgent is a hand-off after its event; the target's own events add no second one", () => {
    const events = fromAdk(read("refund-session.api.json")).trajectories[0]!.events;
    const handoffs = events.filter((e) => e.action === "handoff");
    expect(handoffs.map((e) => e.metadata)).toEqual([{ from: "triage", to: "refunds", "@agent": "triage", "@turn": "3" }]);
    expect(events[events.indexOf(handoffs[0]!) - 1]!.action).toBe("transfer_to_agent_result");
  });

  test("a change of author with no transfer (a sequential pipeline) is a hand-off too", () => {
    const result = fromAdk([
      { author: "user", content: tools([{ text: "Plan my trip." }]) },
      { author: "planner", content: model([{ text: "Plan: fly, then hike." }]) },
      { author: "writer", content: model([{ text: "Here is your itinerary." }]) },
    ]);
    expect(brief(result)).toEqual([
      "user/message: Plan my trip.",
      "agent/message: Plan: fly, then hike.",
      "agent/handoff: ",
      "agent/message: Here is your itinerary.",
    ]);
    expect(result.trajectories[0]!.events[2]!.metadata).toMatchObject({ from: "planner", to: "writer" });
  });
});

describe("pairing calls that have no id", () => {
  test("responses without ids answer the open calls of their name in order; one with an id answers its own call out of order", () => {
    const result = fromAdk([
      { author: "user", content: tools([{ text: "Look up A-1 and A-2, and the policy." }]) },
      {
        author: "desk",
        content: model([
          { functionCall: { name: "lookup_order", args: { order_id: "A-1" } } },
          { functionCall: { name: "lookup_order", args: { order_id: "A-2" } } },
          { functionCall: { id: "adk-p", name: "check_policy", args: {} } },
        ]),
      },
      {
        author: "desk",
        content: tools([
          { functionResponse: { id: "adk-p", name: "check_policy", response: { eligible: true } } },
          { functionResponse: { name: "lookup_order", response: { order_id: "A-1" } } },
          { functionResponse: { name: "lookup_order", response: { order_id: "A-2" } } },
        ]),
      },
      { author: "desk", content: model([{ text: "All found." }]), finishReason: "STOP" },
    ]);
    expect(result.warnings).toEqual([]);
    const events = result.trajectories[0]!.events;
    const results = events.filter((e) => e.actor === "tool").map((e) => [e.action, e.metadata!.order_id ?? e.metadata!.eligible]);
    expect(results).toEqual([
      ["check_policy_result", "true"],
      ["lookup_order_result", "A-1"],
      ["lookup_order_result", "A-2"],
    ]);
    // The calls of one response share a turn, and so do their results.
    expect(new Set(events.slice(1, 7).map((e) => e.metadata!["@turn"]))).toEqual(new Set(["2"]));
    expect(result.trajectories[0]!.complete).toBe(true);
  });

  test("a response with ADK's id for a call Gemini wrote without one pairs by name and keeps the id", () => {
    const result = fromAdk([
      { role: "user", parts: [{ text: "Where is A-7?" }] },
      { role: "model", parts: [{ functionCall: { name: "lookup_order", args: { order_id: "A-7" } } }] },
      { role: "user", parts: [{ functionResponse: { id: "adk-9", name: "lookup_order", response: { status: "shipped" } } }] },
      { role: "model", parts: [{ text: "It has shipped." }] },
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.trajectories[0]!.events[2]).toMatchObject({
      action: "lookup_order_result",
      metadata: { status: "shipped", "@call_id": "adk-9" },
    });
    expect(result.trajectories[0]!.complete).toBe(true);
  });

  test("a response of a name no call had is kept with a warning (nothing silently lost)", () => {
    const result = fromAdk([
      { role: "user", parts: [{ text: "hi" }] },
      { role: "model", parts: [{ functionCall: { name: "a", args: {} } }] },
      { role: "user", parts: [{ functionResponse: { name: "b", response: { ok: true } } }] },
    ]);
    expect(brief(result)).toEqual(["user/message: hi", "agent/a: {}", 'tool/b_result: {"ok":true}']);
    expect(result.warnings).toEqual([
      { path: "[2].parts[0]", message: "a result for b with no call id answers no earlier call", trace: 0 },
    ]);
    expect(result.trajectories[0]!.complete).toBe(false);
  });
});

describe("how a session ends", () => {
  const ask = { author: "user", content: tools([{ text: "Refund A-1." }]) };
  test.each([
    ["a final answer", { finishReason: "STOP" }, true],
    ["an error code (no content)", { errorCode: "SAFETY", errorMessage: "blocked" }, false],
    ["interrupted", { interrupted: true }, false],
    ["cut at max tokens", { finishReason: "MAX_TOKENS" }, false],
  ] as const)("%s", (_what, fields, complete) => {
    const last = "errorCode" in fields ? { author: "desk", ...fields } : { author: "desk", content: model([{ text: "Done." }]), ...fields };
    expect(fromAdk([ask, last]).trajectories[0]!.complete).toBe(complete);
  });

  test("a user message after the final answer does not make the session incomplete", () => {
    const result = fromAdk([
      ask,
      { author: "desk", content: model([{ text: "Done." }]) },
      { author: "user", content: tools([{ text: "thanks, bye" }]) },
    ]);
    expect(result.trajectories[0]!.complete).toBe(true);
  });

  test("the client answering a long-running tool (a function response from the user) closes its call", () => {
    const result = fromAdk([
      ask,
      { author: "desk", longRunningToolIds: ["adk-1"], content: model([{ functionCall: { id: "adk-1", name: "approve", args: {} } }]) },
      { author: "user", content: tools([{ functionResponse: { id: "adk-1", name: "approve", response: { approved: true } } }]) },
      { author: "desk", content: model([{ text: "Refunded." }]) },
    ]);
    expect(brief(result)).toEqual([
      "user/message: Refund A-1.",
      "agent/approve: {}",
      'tool/approve_result: {"approved":true}',
      "agent/message: Refunded.",
    ]);
    expect(result.trajectories[0]!.complete).toBe(true);
  });
});

describe("Gemini contents", () => {
  test("a contents list, a request {contents}, and {request, response} are detected as adk", () => {
    const exchanges = read("refund-gemini.exchanges.json") as { request: { contents: unknown[] }; response: unknown }[];
    const last = exchanges[exchanges.length - 1]!;
    expect(detectFormat(last.request.contents).format).toBe("adk");
    expect(detectFormat(last.request).format).toBe("adk");
    expect(detectFormat(last).format).toBe("adk");
    // The last exchange holds the whole conversation: it imports as the chain of all of them does.
    expect(brief(fromAdk(last))).toEqual(brief(fromAdk(exchanges)));
  });

  test("exchanges that do not continue each other are separate conversations", () => {
    const a = {
      contents: [{ role: "user", parts: [{ text: "first" }] }],
      response: { candidates: [{ content: model([{ text: "one" }]), finishReason: "STOP" }] },
    };
    const b = {
      contents: [{ role: "user", parts: [{ text: "second" }] }],
      response: { candidates: [{ content: model([{ text: "two" }]), finishReason: "STOP" }] },
    };
    const result = fromAdk([a, b]);
    expect(result.trajectories.map((t) => t.events.map((e) => e.content))).toEqual([
      ["first", "one"],
      ["second", "two"],
    ]);
  });
});

describe("bad input: located, and the other sessions still import", () => {
  test("an event without an author, a content that is no object: each fails its own session", () => {
    const session = read("refund-session.api.json") as Session;
    const noAuthor = { ...session, id: "s1", events: session.events.map((e, i) => (i === 3 ? { ...e, author: undefined } : e)) };
    const badContent = { ...session, id: "s2", events: session.events.map((e, i) => (i === 1 ? { ...e, content: "hi" } : e)) };
    const result = fromAdk([noAuthor, badContent, { ...session, id: "s3" }]);
    expect(result.errors).toEqual([
      { path: "[0].events[3]", message: "missing author", trace: 0 },
      { path: "[1].events[1].content", message: "must be an object", trace: 1 },
    ]);
    expect(result.trajectories.map((t) => t.id)).toEqual(["s3"]);
  });

  test("a request whose contents hold something that is no Content; a value of no ADK shape", () => {
    const result = fromAdk({ contents: [{ role: "user", parts: [{ text: "hi" }] }, { parts: "nope" }] });
    expect(result.errors).toEqual([{ path: "contents[1]", message: "not a Gemini Content (expected {role, parts})", trace: 0 }]);
    expect(fromAdk({ sessions: [] }).errors).toEqual([
      {
        path: "",
        message:
          "expected an ADK session ({id, events}), a list of ADK events, or Gemini contents ([{role, parts}], {contents}, {request, response})",
      },
    ]);
  });
});

test("an ADK session is detected by its own fields, whatever else reads an `events` key", () => {
  const session = read("cancel-session.saved.json");
  expect(detectFormat(session)).toEqual({ format: "adk", candidates: ["adk"] });
  const result = importTrace(session);
  expect(result.format).toBe("adk");
  expect(result.trajectories[0]!.id).toBe("c4e3f2a1-0b9c-4d8e-8f7a-6e5d4c3b2a19");
  // An empty session (no events yet) is still a session.
  expect(detectFormat({ id: "x", appName: "a", userId: "u", state: {}, events: [], lastUpdateTime: 0 }).format).toBe("adk");
});
