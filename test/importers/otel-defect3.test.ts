/**
 * Issue 22, defect 3: the OTel importer on the shapes Gemini, ADK, Pydantic AI
 * and the older GenAI conventions write. Each test reproduces what the
 * importer got wrong on one of them.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { fromLangfuse, fromOtel } from "../../importers/index.js";
import type { ImportResult, Trajectory } from "../../importers/index.js";
import { IMPORTER_FIXTURES, readFixture } from "../support/importer-fixtures.js";
import { otlp, type SpanSpec } from "../support/otlp.js";

function only(result: ImportResult): Trajectory {
  expect(result.errors).toEqual([]);
  expect(result.trajectories).toHaveLength(1);
  return result.trajectories[0]!;
}

const brief = (t: Trajectory) => t.events.map((e) => `${e.actor}/${e.action}${e.content === "" ? "" : `: ${e.content}`}`);

/** GenAI-convention messages as the google-genai and ADK instrumentations write them: Gemini calls with no id, results in a user message. */
const userAsks = { role: "user", parts: [{ type: "text", content: "Weather in Paris and Rome?" }] };
const modelCalls = (ids: [string | null, string | null]) => ({
  role: "assistant",
  parts: [
    { type: "tool_call", id: ids[0], name: "get_weather", arguments: { city: "Paris" } },
    { type: "tool_call", id: ids[1], name: "get_weather", arguments: { city: "Rome" } },
  ],
});
const toolAnswers = (ids: [string | null, string | null]) => ({
  role: "user",
  parts: [
    { type: "tool_call_response", id: ids[0], response: { sky: "sunny" } },
    { type: "tool_call_response", id: ids[1], response: { sky: "rain" } },
  ],
});

/** An ADK-like run: the model asks for two forecasts, two execute_tool spans (ids the framework made) answer them out of order, the model replies. */
function geminiRun(callIds: [string | null, string | null], spanIds: [string, string], toolArgs = true): unknown {
  const tool = (id: string, city: string, callId: string, start: number, end: number, sky: string): SpanSpec => ({
    id,
    parent: "1",
    name: "execute_tool get_weather",
    start,
    end,
    attrs: {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get_weather",
      "gen_ai.tool.call.id": callId,
      ...(toolArgs ? { "gen_ai.tool.call.arguments": { city } } : {}),
      "gen_ai.tool.call.result": { sky },
    },
  });
  return otlp([
    {
      id: "1",
      name: "invoke_agent weather_agent",
      start: 0,
      end: 100,
      attrs: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather_agent" },
    },
    {
      id: "2",
      parent: "1",
      name: "generate_content gemini-2.5-flash",
      start: 1,
      end: 10,
      attrs: {
        "gen_ai.operation.name": "generate_content",
        "gen_ai.input.messages": [userAsks],
        "gen_ai.output.messages": [modelCalls(callIds)],
        "gen_ai.response.finish_reasons": ["stop"],
      },
    },
    tool("3", "Paris", spanIds[0], 11, 30, "sunny"),
    tool("4", "Rome", spanIds[1], 12, 20, "rain"),
    {
      id: "5",
      parent: "1",
      name: "generate_content gemini-2.5-flash",
      start: 31,
      end: 40,
      attrs: {
        "gen_ai.operation.name": "generate_content",
        "gen_ai.input.messages": [userAsks, modelCalls(callIds), toolAnswers(callIds)],
        "gen_ai.output.messages": [{ role: "assistant", parts: [{ type: "text", content: "Sunny in Paris, rain in Rome." }] }],
        "gen_ai.response.finish_reasons": ["stop"],
      },
    },
  ]);
}

const GEMINI_EVENTS = [
  "user/message: Weather in Paris and Rome?",
  'agent/get_weather: {"city":"Paris"}',
  'agent/get_weather: {"city":"Rome"}',
  'tool/get_weather_result: {"sky":"rain"}',
  'tool/get_weather_result: {"sky":"sunny"}',
  "agent/message: Sunny in Paris, rain in Rome.",
];

describe("defect 3: OTel traces from Gemini, ADK, Pydantic AI and the older GenAI conventions", () => {
  test("a message made only of tool-response parts is no empty user message", () => {
    const t = only(fromOtel(geminiRun(["c1", "c2"], ["c1", "c2"])));
    expect(t.events.filter((e) => e.actor === "user").map((e) => e.content)).toEqual(["Weather in Paris and Rome?"]);
    expect(brief(t)).toEqual(GEMINI_EVENTS);
  });

  test("Gemini calls without an id pair with the execute_tool spans ADK gave ids, by name and arguments: not doubled, complete", () => {
    const t = only(fromOtel(geminiRun([null, null], ["adk-0b1c", "adk-9f2e"])));
    expect(brief(t)).toEqual(GEMINI_EVENTS);
    expect(t.complete).toBe(true);
    // Each result says which span and which ADK id answered it.
    expect(t.events.filter((e) => e.actor === "tool").map((e) => e.metadata!["@call_id"])).toEqual(["adk-9f2e", "adk-0b1c"]);
  });

  test("without arguments on the spans, id-less calls pair by name in the order the model made them", () => {
    const t = only(fromOtel(geminiRun([null, null], ["adk-0b1c", "adk-9f2e"], false)));
    expect(t.events.map((e) => `${e.actor}/${e.action}`)).toEqual([
      "user/message",
      "agent/get_weather",
      "agent/get_weather",
      "tool/get_weather_result",
      "tool/get_weather_result",
      "agent/message",
    ]);
    expect(t.complete).toBe(true);
  });

  test("ADK's stand-in ids for id-less Gemini calls (`<name>_<index>`) pair with the spans' own ids the same way", () => {
    const t = only(fromOtel(geminiRun(["get_weather_0", "get_weather_1"], ["adk-0b1c", "adk-9f2e"])));
    expect(brief(t)).toEqual(GEMINI_EVENTS);
    expect(t.complete).toBe(true);
  });

  test("an execute_tool span without gen_ai.tool.name takes the tool's name from the span name", () => {
    const result = fromOtel(
      otlp([
        {
          id: "1",
          name: "invoke_agent desk",
          start: 0,
          end: 50,
          attrs: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "desk" },
        },
        {
          id: "2",
          parent: "1",
          name: "execute_tool lookup_order",
          start: 1,
          end: 5,
          attrs: {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.call.arguments": { order: "A-1" },
            "gen_ai.tool.call.result": { status: "found" },
          },
        },
      ]),
    );
    const t = only(result);
    expect(brief(t)).toEqual(['agent/lookup_order: {"order":"A-1"}', 'tool/lookup_order_result: {"status":"found"}']);
    expect(t.events[1]!.metadata).toMatchObject({ status: "found" });
  });

  const olderChat = (where: "attributes" | "events"): SpanSpec => {
    const prompt = JSON.stringify([
      { role: "system", content: "You are a refund desk." },
      { role: "user", content: "Refund order A-1." },
    ]);
    const completion = JSON.stringify([
      {
        role: "assistant",
        content: "Looking it up.",
        tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup_order", arguments: '{"order":"A-1"}' } }],
        finish_reason: "tool_calls",
      },
    ]);
    const base: SpanSpec = {
      id: "2",
      parent: "1",
      name: "chat gpt-4o",
      start: 1,
      end: 5,
      attrs: { "gen_ai.operation.name": "chat", "gen_ai.system": "openai" },
    };
    return where === "attributes"
      ? { ...base, attrs: { ...base.attrs, "gen_ai.prompt": prompt, "gen_ai.completion": completion } }
      : {
          ...base,
          events: [
            { name: "gen_ai.content.prompt", attrs: { "gen_ai.prompt": prompt } },
            { name: "gen_ai.content.completion", attrs: { "gen_ai.completion": completion } },
          ],
        };
  };
  const olderTool: SpanSpec = {
    id: "3",
    parent: "1",
    name: "execute_tool lookup_order",
    start: 6,
    end: 8,
    attrs: {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "lookup_order",
      "gen_ai.tool.call.id": "call_1",
      "gen_ai.tool.call.result": "found",
    },
  };
  const agent: SpanSpec = {
    id: "1",
    name: "invoke_agent desk",
    start: 0,
    end: 10,
    attrs: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "desk" },
  };
  const OLDER = [
    "user/message: Refund order A-1.",
    "agent/message: Looking it up.",
    'agent/lookup_order: {"order":"A-1"}',
    "tool/lookup_order_result: found",
  ];

  test("the older gen_ai.prompt / gen_ai.completion attributes (JSON chat messages) are read", () => {
    expect(brief(only(fromOtel(otlp([agent, olderChat("attributes"), olderTool]))))).toEqual(OLDER);
  });

  test("…and so are the gen_ai.content.prompt / gen_ai.content.completion span events that carried them before", () => {
    expect(brief(only(fromOtel(otlp([agent, olderChat("events"), olderTool]))))).toEqual(OLDER);
  });

  /** A Pydantic AI run (instrumentation 1.x): an `agent run` span named by attributes, a `running tool` span, and the output tool as the model's last call. */
  function pydanticRun(outputTool: string): unknown {
    return otlp([
      {
        id: "1",
        name: "refund_agent run",
        start: 0,
        end: 100,
        attrs: { agent_name: "refund_agent", "gen_ai.agent.name": "refund_agent", model_name: "gpt-4o" },
      },
      {
        id: "2",
        parent: "1",
        name: "chat gpt-4o",
        start: 1,
        end: 10,
        attrs: {
          "gen_ai.operation.name": "chat",
          "gen_ai.input.messages": [{ role: "user", parts: [{ type: "text", content: "Refund A-1." }] }],
          "gen_ai.output.messages": [
            { role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "lookup_order", arguments: { order: "A-1" } }] },
          ],
        },
      },
      {
        id: "3",
        parent: "1",
        name: "running tool: lookup_order",
        start: 11,
        end: 12,
        attrs: {
          "gen_ai.tool.name": "lookup_order",
          "gen_ai.tool.call.id": "call_1",
          tool_arguments: { order: "A-1" },
          tool_response: { status: "found" },
        },
      },
      {
        id: "4",
        parent: "1",
        name: "chat gpt-4o",
        start: 13,
        end: 20,
        attrs: {
          "gen_ai.operation.name": "chat",
          "gen_ai.output.messages": [
            {
              role: "assistant",
              parts: [{ type: "tool_call", id: "call_2", name: outputTool, arguments: { refunded: true } }],
              finish_reason: "tool_call",
            },
          ],
        },
      },
    ]);
  }

  for (const outputTool of ["final_result", "final_result_Refund"])
    test(`Pydantic AI: the output tool ${outputTool} closes the run though no span answers it`, () => {
      const t = only(fromOtel(pydanticRun(outputTool)));
      expect(t.events.map((e) => `${e.actor}/${e.action}`)).toEqual([
        "user/message",
        "agent/lookup_order",
        "tool/lookup_order_result",
        `agent/${outputTool}`,
      ]);
      expect(t.complete).toBe(true);
    });

  test("Pydantic AI: the agent is named by gen_ai.agent.name (its span is `refund_agent run`), its tool span is a tool", () => {
    const t = only(fromOtel(pydanticRun("final_result")));
    // The user's message is no agent's.
    expect(t.events.map((e) => e.metadata?.["@agent"])).toEqual([undefined, "refund_agent", "refund_agent", "refund_agent"]);
    expect(t.events[2]!.metadata).toMatchObject({ status: "found", "@span_id": "0000000000000003" });
  });

  test("an agent span named otherwise (`invoke_agent 171105b7…`) is named by gen_ai.agent.name", () => {
    const t = only(
      fromOtel(
        otlp([
          {
            id: "1",
            name: "invoke_agent 171105b7",
            start: 0,
            end: 10,
            attrs: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.id": "171105b7", "gen_ai.agent.name": "WeatherAgent" },
          },
          {
            id: "2",
            parent: "1",
            name: "chat",
            start: 1,
            end: 5,
            attrs: {
              "gen_ai.operation.name": "chat",
              "gen_ai.output.messages": [{ role: "assistant", parts: [{ type: "text", content: "Hi." }] }],
            },
          },
        ]),
      ),
    );
    expect(t.events[0]!.metadata!["@agent"]).toBe("WeatherAgent");
  });

  test("langfuse: an OpenInference ADK agent (`agent_run [hello_agent]`, no gen_ai.agent.name) is hello_agent", () => {
    const t = only(fromLangfuse(readFixture(join(IMPORTER_FIXTURES, "langfuse", "docs-google-adk-2025-08-28.json"))));
    expect(new Set(t.events.filter((e) => e.actor !== "user").map((e) => e.metadata?.["@agent"]))).toEqual(new Set(["hello_agent"]));
  });

  test("langfuse: final_result_<Type> closes a Pydantic AI run as final_result does", () => {
    const obs = (id: string, type: string, fields: Record<string, unknown>) => ({
      id,
      traceId: "t1",
      type,
      startTime: new Date(Date.UTC(2025, 10, 5, 12) + Number(id)).toISOString(),
      endTime: new Date(Date.UTC(2025, 10, 5, 12) + Number(id) + 1).toISOString(),
      level: "DEFAULT",
      parentObservationId: null,
      ...fields,
    });
    const t = only(
      fromLangfuse({
        trace: { id: "t1", name: "refund" },
        observations: [
          obs("1", "GENERATION", {
            name: "chat gpt-4o",
            input: [{ role: "user", content: "Refund A-1." }],
            output: {
              role: "assistant",
              content: null,
              tool_calls: [{ id: "c1", type: "function", function: { name: "final_result_Refund", arguments: '{"ok": true}' } }],
            },
          }),
        ],
      }),
    );
    expect(t.events.map((e) => `${e.actor}/${e.action}`)).toEqual(["user/message", "agent/final_result_Refund"]);
    expect(t.complete).toBe(true);
  });
});
