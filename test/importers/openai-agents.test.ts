import { describe, expect, test } from "vitest";
import { detectOpenAIAgents, fromOpenAIAgents } from "../../importers/openai-agents.js";
import { checkGolden, judgeAll, readFixture, toJsonl, verdicts } from "./recorded-fixtures.js";

const FORMAT = "openai-agents";
const REFUND = {
  verdict: "true",
  metas: {
    "Look the order up before refunding": "true",
    "Check the policy for the damaged item": "true",
    "Tell the customer when the refund fails": "true",
    "Hand refunds over to the refunds desk": "true",
    "Carry out every cancellation": "na:not_applicable",
  },
};

describe("openai-agents importer on exports recorded from the Agents SDK", () => {
  test("refund-handoff.json: guardrail, hand-off, parallel calls whose results arrive out of order, a failed tool, an image", async () => {
    const result = checkGolden(FORMAT, "refund-handoff.json", fromOpenAIAgents);
    const [t] = result.trajectories;
    expect(result.trajectories).toHaveLength(1);
    expect(t!.complete).toBe(true);
    expect(t!.events.map((e) => `${e.actor}:${e.action}`)).toEqual([
      "user:message",
      "agent:guardrail",
      "agent:handoff",
      // The model emitted lookup_order first; check_policy answered first (lookup_order sleeps).
      "agent:lookup_order",
      "agent:check_policy",
      "tool:check_policy_result",
      "tool:lookup_order_result",
      "agent:issue_refund",
      "tool:issue_refund_result",
      "agent:message",
    ]);
    expect(t!.events[0]!.content).toBe("Order A-1001 arrived broken. Please refund it.\n[image]");
    // Both calls of the parallel turn, and their results, share one turn number.
    const turns = t!.events.slice(3, 7).map((e) => e.metadata!["@turn"]);
    expect(new Set(turns).size).toBe(1);
    expect(t!.events[8]!.metadata).toMatchObject({ status: "error", "@call_id": "call_refund_1", "@agent": "Refunds" });
    expect(t!.events[2]!.metadata).toMatchObject({ from: "Triage", to: "Refunds" });
    expect((await judgeAll(FORMAT, result.trajectories)).map(verdicts)).toEqual([REFUND]);
  });

  test("refund-handoff.spans.json (a processor's span list) gives the same trajectory as the exporter's payload", () => {
    const list = checkGolden(FORMAT, "refund-handoff.spans.json", fromOpenAIAgents);
    expect(toJsonl(list.trajectories)).toBe(toJsonl(fromOpenAIAgents(readFixture(FORMAT, "refund-handoff.json")).trajectories));
  });

  test("several-traces.json: three traces in one export (Responses API, tripped guardrail, call left waiting for approval)", async () => {
    const result = checkGolden(FORMAT, "several-traces.json", fromOpenAIAgents);
    expect(result.trajectories.map((t) => [t.description, t.complete, t.events.length])).toEqual([
      ["Refund desk (Responses API)", true, 4],
      ["Refund desk", false, 1],
      ["Refund desk", false, 2],
    ]);
    // The guardrail that tripped, and the cancel_order call that never got a result.
    expect(result.trajectories[1]!.events[0]!.metadata).toMatchObject({ name: "no_card_numbers", triggered: "true" });
    expect(result.trajectories[2]!.events.map((e) => e.action)).toEqual(["message", "cancel_order"]);
    const judged = (await judgeAll(FORMAT, result.trajectories)).map(verdicts);
    expect(judged[0]!.metas["Hand refunds over to the refunds desk"]).toBe("true");
    expect(judged[0]!.metas["Look the order up before refunding"]).toBe("na:not_applicable");
    expect(judged[1]).toEqual({ verdict: "na", metas: Object.fromEntries(Object.keys(REFUND.metas).map((k) => [k, "na:insufficient_evidence"])) });
    expect(judged[2]!.metas["Carry out every cancellation"]).toBe("na:insufficient_evidence");
  });

  test("the export's END order does not matter: the same spans shuffled give the same trajectory", () => {
    const payload = readFixture(FORMAT, "refund-handoff.json") as { data: unknown[] };
    const [trace, ...spans] = payload.data;
    const reversed = { data: [trace, ...spans.reverse()] };
    expect(toJsonl(fromOpenAIAgents(reversed).trajectories)).toBe(toJsonl(fromOpenAIAgents(payload).trajectories));
  });

  test("bad input: located errors, the other traces still import", () => {
    const payload = readFixture(FORMAT, "several-traces.json") as { data: Record<string, unknown>[] };
    const data = structuredClone(payload.data);
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
    expect(fromOpenAIAgents({ messages: [] }).errors).toEqual([{ path: "", message: "expected an Agents SDK trace export: {data: [trace, span, …]} or a list of spans" }]);
  });

  test("detection", () => {
    expect(detectOpenAIAgents(readFixture(FORMAT, "refund-handoff.json"))).toBe(true);
    expect(detectOpenAIAgents(readFixture(FORMAT, "refund-handoff.spans.json"))).toBe(true);
    expect(detectOpenAIAgents({ data: [{ id: "x" }] })).toBe(false);
    expect(detectOpenAIAgents([{ role: "user", content: "hi" }])).toBe(false);
  });
});
