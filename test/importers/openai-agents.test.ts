/**
 * What is particular to `openai-agents` (the generic goldens, detection and
 * round trips are in golden.test.ts and roundtrip.test.ts): guardrails and
 * hand-offs as events, the span-list form, and an export whose END order does
 * not matter.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { fromOpenAIAgents } from "../../importers/index.js";
import type { ImportResult } from "../../importers/index.js";
import { IMPORTER_FIXTURES, readFixture } from "../support/importer-fixtures.js";

const fixture = (file: string): unknown => readFixture(join(IMPORTER_FIXTURES, "openai-agents", file));
const bytes = (result: ImportResult): string => JSON.stringify(result.trajectories);

describe("openai-agents importer on exports recorded from the Agents SDK", () => {
  test("refund-handoff.json: guardrail, hand-off, parallel calls whose results arrive out of order, a failed tool, an image", () => {
    const result = fromOpenAIAgents(fixture("refund-handoff.json"));
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
  });

  test("refund-handoff.spans.json (a processor's span list) gives the same trajectory as the exporter's payload", () => {
    expect(bytes(fromOpenAIAgents(fixture("refund-handoff.spans.json")))).toBe(bytes(fromOpenAIAgents(fixture("refund-handoff.json"))));
  });

  test("several-traces.json: three traces in one export (Responses API, tripped guardrail, call left waiting for approval)", () => {
    const result = fromOpenAIAgents(fixture("several-traces.json"));
    expect(result.trajectories.map((t) => [t.description, t.complete, t.events.length])).toEqual([
      ["Refund desk (Responses API)", true, 4],
      ["Refund desk", false, 1],
      ["Refund desk", false, 2],
    ]);
    // The guardrail that tripped, and the cancel_order call that never got a result.
    expect(result.trajectories[1]!.events[0]!.metadata).toMatchObject({ name: "no_card_numbers", triggered: "true" });
    expect(result.trajectories[2]!.events.map((e) => e.action)).toEqual(["message", "cancel_order"]);
  });

  test("the export's END order does not matter: the same spans shuffled give the same trajectory", () => {
    const payload = fixture("refund-handoff.json") as { data: unknown[] };
    const [trace, ...spans] = payload.data;
    const reversed = { data: [trace, ...spans.reverse()] };
    expect(bytes(fromOpenAIAgents(reversed))).toBe(bytes(fromOpenAIAgents(payload)));
  });
});
