import { describe, expect, test } from "vitest";
import { detectOtel, fromOtel } from "../../importers/otel.js";
import { checkGolden, judgeAll, readFixture, toJsonl, verdicts } from "./recorded-fixtures.js";

const FORMAT = "otel";
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
const CANCEL_LEFT_OPEN = {
  verdict: "na",
  metas: {
    "Look the order up before refunding": "na:insufficient_evidence",
    "Check the policy for the damaged item": "na:insufficient_evidence",
    "Tell the customer when the refund fails": "na:insufficient_evidence",
    "Hand refunds over to the refunds desk": "na:insufficient_evidence",
    "Carry out every cancellation": "na:insufficient_evidence",
  },
};
/** The refund conversation as every producer here records it: the agent used as a tool sits between its call and its result. */
const AGENT_AS_TOOL = [
  "user:message",
  "agent:ask_refunds",
  "agent:handoff",
  "agent:lookup_order",
  "agent:check_policy",
  "tool:check_policy_result",
  "tool:lookup_order_result",
  "agent:issue_refund",
  "tool:issue_refund_result",
  "agent:message",
  "tool:ask_refunds_result",
  "agent:message",
];

describe("otel importer on OTLP/JSON recorded from real SDKs", () => {
  test("ai-sdk-genai.otlp.json (GenAI conventions from @ai-sdk/otel): two traces, parallel calls out of order, a failed tool, a nested agent, an image, a call with no result", async () => {
    const result = checkGolden(FORMAT, "ai-sdk-genai.otlp.json", fromOtel);
    const [refund, cancel] = result.trajectories;
    expect(refund!.events.map((e) => `${e.actor}:${e.action}`)).toEqual(AGENT_AS_TOOL);
    expect(refund!.events[0]!.content).toBe("Order A-1001 arrived broken. Please refund it.\n[image]");
    expect(refund!.events[2]!.metadata).toMatchObject({ from: "triage", to: "refunds" });
    expect(refund!.events[8]).toMatchObject({ content: "payment gateway timeout", metadata: { status: "error", "@call_id": "call_refund_1" } });
    expect(refund!.events[10]!.content).toBe("The refund failed: the payment gateway timed out.");
    expect([refund!.complete, cancel!.complete]).toEqual([true, false]);
    expect(cancel!.events.map((e) => e.action)).toEqual(["message", "cancel_order"]);
    expect((await judgeAll(FORMAT, result.trajectories)).map(verdicts)).toEqual([REFUND, CANCEL_LEFT_OPEN]);
  });

  test("ai-sdk-legacy.otlp.json (the AI SDK's ai.* spans, gen_ai.system) gives the same events as the GenAI spelling", async () => {
    const legacy = checkGolden(FORMAT, "ai-sdk-legacy.otlp.json", fromOtel);
    const genai = fromOtel(readFixture(FORMAT, "ai-sdk-genai.otlp.json"));
    const shape = (r: typeof legacy) => r.trajectories.map((t) => t.events.map((e) => [e.actor, e.action, e.content]));
    expect(shape(legacy)).toEqual(shape(genai));
    expect((await judgeAll(FORMAT, legacy.trajectories)).map(verdicts)).toEqual([REFUND, CANCEL_LEFT_OPEN]);
  });

  test("openinference.otlp.json: LLM spans from the OpenAI instrumentation, AGENT and TOOL spans from openinference-core", async () => {
    const result = checkGolden(FORMAT, "openinference.otlp.json", fromOtel);
    const [t] = result.trajectories;
    expect(t!.events.map((e) => `${e.actor}:${e.action}`)).toEqual([
      "user:message",
      "agent:transfer_to_refunds",
      "tool:transfer_to_refunds_result",
      "agent:handoff",
      // The shared history is sent again to the second agent: the user message is not repeated.
      "agent:lookup_order",
      "agent:check_policy",
      "tool:check_policy_result",
      "tool:lookup_order_result",
      "agent:issue_refund",
      "tool:issue_refund_result",
      "agent:message",
    ]);
    expect((await judgeAll(FORMAT, result.trajectories)).map(verdicts)).toEqual([REFUND]);
  });

  test("openinference-base64.otlp.json (protobuf JSON mapping: base64 ids, enum names) gives the same bytes as the hex export", () => {
    const base64 = checkGolden(FORMAT, "openinference-base64.otlp.json", fromOtel);
    expect(toJsonl(base64.trajectories)).toBe(toJsonl(fromOtel(readFixture(FORMAT, "openinference.otlp.json")).trajectories));
  });

  test("several export requests in one list (JSON lines) concatenate their traces", () => {
    const a = readFixture(FORMAT, "ai-sdk-genai.otlp.json");
    const b = readFixture(FORMAT, "openinference.otlp.json");
    expect(fromOtel([a, b]).trajectories).toHaveLength(3);
  });

  test("bad input: located errors, the other traces still import", () => {
    const request = readFixture(FORMAT, "ai-sdk-genai.otlp.json") as { resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[] };
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
      { path: `resourceSpans[0].scopeSpans[0].spans[${tool}].attributes`, message: "missing the tool's name (gen_ai.tool.name, tool.name or ai.toolCall.name)", trace: 0 },
    ]);
    expect(result.trajectories).toHaveLength(1);
    expect(fromOtel({ spans: [] }).errors).toEqual([{ path: "", message: "expected an OTLP/JSON trace export: {resourceSpans: [...]}" }]);
  });

  test("detection", () => {
    expect(detectOtel(readFixture(FORMAT, "openinference-base64.otlp.json"))).toBe(true);
    expect(detectOtel({ data: [] })).toBe(false);
  });
});
