/**
 * What is particular to `otel` (the generic goldens, detection and round trips
 * are in golden.test.ts and roundtrip.test.ts): the order spans give, the
 * three vocabularies read alike, base64 ids read as hex, several exports in one
 * list.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { fromOtel } from "../../importers/index.js";
import type { ImportResult } from "../../importers/index.js";
import { IMPORTER_FIXTURES, readFixture } from "../support/importer-fixtures.js";

const fixture = (file: string): unknown => readFixture(join(IMPORTER_FIXTURES, "otel", file));
const bytes = (result: ImportResult): string => JSON.stringify(result.trajectories);

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
  test("ai-sdk-genai.otlp.json (GenAI conventions from @ai-sdk/otel): two traces, parallel calls out of order, a failed tool, a nested agent, an image, a call with no result", () => {
    const [refund, cancel] = fromOtel(fixture("ai-sdk-genai.otlp.json")).trajectories;
    expect(refund!.events.map((e) => `${e.actor}:${e.action}`)).toEqual(AGENT_AS_TOOL);
    expect(refund!.events[0]!.content).toBe("Order A-1001 arrived broken. Please refund it.\n[image]");
    expect(refund!.events[2]!.metadata).toMatchObject({ from: "triage", to: "refunds" });
    expect(refund!.events[8]).toMatchObject({
      content: "payment gateway timeout",
      metadata: { status: "error", "@call_id": "call_refund_1" },
    });
    expect(refund!.events[10]!.content).toBe("The refund failed: the payment gateway timed out.");
    expect([refund!.complete, cancel!.complete]).toEqual([true, false]);
    expect(cancel!.events.map((e) => e.action)).toEqual(["message", "cancel_order"]);
  });

  test("ai-sdk-legacy.otlp.json (the AI SDK's ai.* spans, gen_ai.system) gives the same events as the GenAI spelling", () => {
    const shape = (r: ImportResult) => r.trajectories.map((t) => t.events.map((e) => [e.actor, e.action, e.content]));
    expect(shape(fromOtel(fixture("ai-sdk-legacy.otlp.json")))).toEqual(shape(fromOtel(fixture("ai-sdk-genai.otlp.json"))));
  });

  test("openinference.otlp.json: LLM spans from the OpenAI instrumentation, AGENT and TOOL spans from openinference-core", () => {
    const [t] = fromOtel(fixture("openinference.otlp.json")).trajectories;
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
  });

  test("openinference-base64.otlp.json (protobuf JSON mapping: base64 ids, enum names) gives the same bytes as the hex export", () => {
    expect(bytes(fromOtel(fixture("openinference-base64.otlp.json")))).toBe(bytes(fromOtel(fixture("openinference.otlp.json"))));
  });

  test("several export requests in one list (JSON lines) concatenate their traces", () => {
    expect(fromOtel([fixture("ai-sdk-genai.otlp.json"), fixture("openinference.otlp.json")]).trajectories).toHaveLength(3);
  });
});
