/**
 * Langfuse trace exports (issue 22): every shape Langfuse hands out imports
 * alike, observations in any file order give the same trajectory, OTel-scope
 * observations are read with otel.ts's vocabulary and SDK ones with the
 * frameworks' payloads, and whatever cannot be read is said.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { detectFormat, fromLangfuse, importTrace } from "../../importers/index.js";
import type { ImportResult } from "../../importers/index.js";
import { IMPORTER_FIXTURES, readFixture } from "../support/importer-fixtures.js";

const read = (file: string) => readFixture(join(IMPORTER_FIXTURES, "langfuse", file));
const render = (r: ImportResult) => r.trajectories.map((t) => JSON.stringify(t)).join("\n");
const brief = (r: ImportResult, k = 0) => r.trajectories[k]!.events.map((e) => `${e.actor}/${e.action}: ${e.content}`);

type Download = { trace: Record<string, unknown>; observations: Record<string, unknown>[] };
type ApiTrace = Record<string, unknown> & { observations: Record<string, unknown>[] };

const T = (ms: number) => new Date(Date.UTC(2025, 10, 5, 12) + ms).toISOString();

/** A minimal SDK observation. */
function obs(id: string, type: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { id, traceId: "t1", type, startTime: T(0), endTime: T(1), level: "DEFAULT", parentObservationId: null, ...fields };
}

describe("the shapes Langfuse writes", () => {
  test("a trace from GET /api/public/traces/{id}, a list of them, the {data} page and {trace, observations} import alike", () => {
    const [a, b] = read("refund-genai.api.json") as ApiTrace[];
    const list = fromLangfuse([a, b]);
    expect(list.errors).toEqual([]);
    expect(render(fromLangfuse({ data: [a, b], meta: { page: 1, limit: 50, totalItems: 2, totalPages: 1 } }))).toBe(render(list));
    const { observations, ...trace } = a!;
    expect(render(fromLangfuse({ trace, observations }))).toBe(render(fromLangfuse(a)));
    expect(fromLangfuse(a).trajectories[0]).toEqual(list.trajectories[0]);
    expect(detectFormat({ data: [a, b] }).format).toBe("langfuse");
  });

  test("the newer server download {observations, scores} (no trace object) takes the trace id from the observations", () => {
    const { observations } = read("refund-langchain.download.json") as Download;
    const result = fromLangfuse({ observations, scores: [] });
    expect(result.errors).toEqual([]);
    expect(result.trajectories[0]!.id).toBe("4c1e0c1d2b6f4a9e8d7c6b5a49382716");
    expect(result.trajectories[0]!.events).toEqual(fromLangfuse(read("refund-langchain.download.json")).trajectories[0]!.events);
    expect(detectFormat({ observations, scores: [] }).format).toBe("langfuse");
  });

  test("a flat list of observations (GET /api/public/v2/observations) gives one trajectory per traceId", () => {
    const [a, b] = read("refund-genai.api.json") as ApiTrace[];
    const flat = [...b!.observations, ...a!.observations].map((o) => ({
      ...o,
      // The v2 API returns input and output as raw strings.
      input: o.input === null ? null : JSON.stringify(o.input),
      output: o.output === null ? null : JSON.stringify(o.output),
    }));
    const result = fromLangfuse({ data: flat, meta: { cursor: null } });
    expect(result.errors).toEqual([]);
    expect(result.trajectories.map((t) => t.id)).toEqual([b!.id, a!.id]);
    // Without the trace object, only the name is missing.
    const full = fromLangfuse([b, a]);
    expect(result.trajectories.map((t) => t.events)).toEqual(full.trajectories.map((t) => t.events));
    expect(detectFormat(flat).format).toBe("langfuse");
  });

  test("observations in any file order give the same bytes (sorted by start time, then parent, ties by file order)", () => {
    const download = read("refund-langchain.download.json") as Download;
    const reversed = { ...download, observations: [...download.observations].reverse() };
    const once = fromLangfuse(download);
    expect(render(fromLangfuse(reversed))).toBe(render(once));
    expect(brief(once).slice(0, 5)).toEqual([
      "user/message: Order A-1001 arrived broken. Please refund it.\n[image]",
      "agent/transfer_to_refunds: {}",
      "tool/transfer_to_refunds_result: Transferred to refunds.",
      "agent/message: Passing you to our refunds desk.",
      "agent/handoff: ",
    ]);
  });
});

describe("what an observation holds", () => {
  test("a parallel turn keeps one turn; results follow in the order the tool runs ended; a failed run is status: error", () => {
    const events = fromLangfuse(read("refund-langchain.download.json")).trajectories[0]!.events;
    const turn = (action: string) => events.find((e) => e.action === action)!.metadata!["@turn"];
    expect(turn("lookup_order")).toBe(turn("check_policy"));
    expect(events.map((e) => e.action).filter((a) => a.endsWith("_result"))).toEqual([
      "transfer_to_refunds_result",
      "check_policy_result",
      "lookup_order_result",
      "issue_refund_result",
    ]);
    expect(events.find((e) => e.action === "issue_refund_result")).toMatchObject({
      content: "payment gateway timeout",
      metadata: { status: "error", "@span_id": "tool-refund" },
    });
  });

  test("a tool still running when the trace was exported leaves its call open: the trace is incomplete", () => {
    const cut = fromLangfuse(read("refund-genai.api.json")).trajectories[1]!;
    expect(cut.complete).toBe(false);
    expect(cut.events.map((e) => e.action)).toEqual(["message", "cancel_order"]);
  });

  test("ADK's llm_request / llm_response as input and output (Gemini contents, a function call without an id) pair with the execute_tool run by name", () => {
    const scope = { name: "gcp.vertex.agent", version: "1.18.0", attributes: {} };
    const meta = (attributes: Record<string, string>) => JSON.stringify({ attributes, resourceAttributes: {}, scope });
    const request = { model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "Where is order A-7?" }] }] };
    const result = fromLangfuse({
      trace: { id: "adk-1", name: "invocation" },
      observations: [
        obs("t", "TOOL", {
          name: "execute_tool lookup_order",
          parentObservationId: "g1",
          startTime: T(20),
          endTime: T(30),
          input: JSON.stringify({ order_id: "A-7" }),
          output: JSON.stringify({ id: "adk-42", name: "lookup_order", response: { status: "shipped" } }),
          metadata: meta({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup_order", "gen_ai.tool.call.id": "adk-42" }),
        }),
        obs("g1", "GENERATION", {
          name: "call_llm",
          startTime: T(0),
          endTime: T(40),
          model: "gemini-2.5-flash",
          input: JSON.stringify(request),
          output: JSON.stringify({
            content: { role: "model", parts: [{ function_call: { name: "lookup_order", args: { order_id: "A-7" } } }] },
          }),
          metadata: meta({ "gen_ai.operation.name": "generate_content", "gen_ai.request.model": "gemini-2.5-flash" }),
        }),
        obs("g2", "GENERATION", {
          name: "call_llm",
          startTime: T(50),
          endTime: T(60),
          input: JSON.stringify({
            ...request,
            contents: [
              ...request.contents,
              { role: "user", parts: [{ function_response: { name: "lookup_order", response: { status: "shipped" } } }] },
            ],
          }),
          output: JSON.stringify({ content: { role: "model", parts: [{ text: "It has shipped." }] }, finish_reason: "STOP" }),
          metadata: meta({ "gen_ai.operation.name": "generate_content" }),
        }),
      ],
    });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const t = result.trajectories[0]!;
    expect(brief(result)).toEqual([
      "user/message: Where is order A-7?",
      'agent/lookup_order: {"order_id":"A-7"}',
      'tool/lookup_order_result: {"id":"adk-42","name":"lookup_order","response":{"status":"shipped"}}',
      "agent/message: It has shipped.",
    ]);
    // The run's own call id is kept, though the model's call had none.
    expect(t.events[2]!.metadata!["@call_id"]).toBe("adk-42");
    expect(t.complete).toBe(true);
  });

  test("LangChain messages inside a payload (OpenInference's LangChain input.value) go through the langchain importer", () => {
    const lc = (cls: string, kwargs: Record<string, unknown>) => ({
      lc: 1,
      type: "constructor",
      id: ["langchain", "schema", "messages", cls],
      kwargs,
    });
    const meta = {
      attributes: { "openinference.span.kind": "LLM" },
      resourceAttributes: {},
      scope: { name: "openinference.instrumentation.langchain" },
    };
    const result = fromLangfuse({
      trace: { id: "lc-1" },
      observations: [
        obs("g", "GENERATION", {
          name: "ChatOpenAI",
          input: { messages: [[lc("SystemMessage", { content: "Be brief." }), lc("HumanMessage", { content: "Refund A-1." })]] },
          output: { generations: [[{ text: "" }]], llm_output: null },
          metadata: meta,
        }),
      ],
    });
    expect(brief(result)).toEqual(["user/message: Refund A-1."]);
    // The output is no shape the importer knows: said, located.
    expect(result.warnings).toEqual([
      {
        path: "observations[0].output",
        message: "an object that is no request, response or message an importer knows; no messages are imported from it",
        trace: 0,
      },
    ]);
  });

  test("a download of a very large trace leaves out input and output: imported as structure, with a warning", () => {
    const download = read("refund-langchain.download.json") as Download;
    const stripped = download.observations.map(({ input: _i, output: _o, metadata: _m, ...rest }) => rest);
    const result = fromLangfuse({ trace: download.trace, observations: stripped });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      {
        path: "observations",
        message:
          "9 model and tool observations have no input or output in this export (Langfuse leaves them out of downloads of very large traces): their messages, arguments and results are missing",
        trace: 0,
      },
    ]);
    expect(brief(result)).toContain("tool/issue_refund_result: payment gateway timeout");
  });

  test("no model observation: the trace's own input and output are the conversation", () => {
    const result = fromLangfuse({
      trace: { id: "plain", input: JSON.stringify({ args: ["What is 2+2?"], kwargs: {} }), output: JSON.stringify("4") },
      observations: [obs("s", "SPAN", { name: "answer", input: null, output: null })],
    });
    expect(brief(result)).toEqual(["user/message: What is 2+2?", "agent/message: 4"]);
    expect(result.trajectories[0]!.complete).toBe(true);
  });

  test("a GUARDRAIL observation is a guardrail event, triggered when its level is WARNING or ERROR", () => {
    const result = fromLangfuse({
      trace: { id: "g" },
      observations: [
        obs("a", "GUARDRAIL", { name: "pii-filter", level: "WARNING", startTime: T(0) }),
        obs("b", "GUARDRAIL", { name: "topic-filter", startTime: T(5) }),
      ],
    });
    expect(result.trajectories[0]!.events.map((e) => [e.action, e.metadata!.name, e.metadata!.triggered])).toEqual([
      ["guardrail", "pii-filter", "true"],
      ["guardrail", "topic-filter", "false"],
    ]);
  });
});

describe("bad input: located, and the other traces still import", () => {
  test("a page of GET /api/public/traces lists observation ids only: says to fetch each trace", () => {
    const [a] = read("refund-genai.api.json") as ApiTrace[];
    const result = fromLangfuse({ data: [{ ...a, observations: ["a000000000000001", "a000000000000002"] }, a] });
    expect(result.errors).toEqual([
      {
        path: "data[0].observations",
        message:
          "holds observation ids only (a page of GET /api/public/traces): fetch each trace with GET /api/public/traces/{id}, or download it from the Langfuse UI",
        trace: 0,
      },
    ]);
    expect(result.trajectories.map((t) => t.id)).toEqual([a!.id]);
  });

  test("an observation without a type, one with an unreadable startTime, one that is no object: each fails its own trace, located", () => {
    const [a, b] = read("refund-genai.api.json") as ApiTrace[];
    const badA = { ...a, observations: a!.observations.map((o, i) => (i === 3 ? { ...o, type: undefined } : o)) };
    const badB = { ...b, observations: [...b!.observations.map((o, i) => (i === 1 ? { ...o, startTime: "yesterday" } : o)), 7] };
    const good = { ...a, id: "fine" };
    const result = fromLangfuse([badA, badB, good]);
    expect(result.errors).toEqual([
      { path: "[0].observations[3]", message: "missing type", trace: 0 },
      { path: "[1].observations[1]", message: 'startTime "yesterday" is not a time', trace: 1 },
    ]);
    expect(result.trajectories.map((t) => t.id)).toEqual(["fine"]);
    expect(fromLangfuse([{ ...b, observations: [7] }]).errors).toEqual([
      { path: "[0].observations[0]", message: "must be an observation object", trace: 0 },
    ]);
  });

  test("a tool observation with no name; a value that is no export at all", () => {
    const result = fromLangfuse({ trace: { id: "x" }, observations: [obs("t", "TOOL", { input: "{}", output: "ok" })] });
    expect(result.errors).toEqual([{ path: "observations[0]", message: "a tool observation with no name", trace: 0 }]);
    expect(fromLangfuse({ traces: [] }).errors).toEqual([
      {
        path: "",
        message:
          "expected a Langfuse trace export: {trace, observations}, a trace with its observations (GET /api/public/traces/{id}), or a list of them",
      },
    ]);
  });

  test("input nested past the importers' limit, inside JSON text: located at the field", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 1200; i++) deep = [deep];
    const result = fromLangfuse({
      trace: { id: "deep" },
      observations: [obs("g", "GENERATION", { name: "llm", input: JSON.stringify(deep) })],
    });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.path).toBe("observations[0].input");
    expect(result.errors[0]!.message).toMatch(/^input: JSON nested more than 1000 levels deep/);
  });
});

test("importTrace detects every fixture of this folder as langfuse, and no other format's", () => {
  for (const file of ["refund-langchain.download.json", "refund-genai.api.json", "docs-google-adk-2025-08-28.json"])
    expect(importTrace(read(file)).format).toBe("langfuse");
});
