/**
 * What is particular to `langchain` (the generic goldens, detection and round
 * trips are in golden.test.ts and roundtrip.test.ts): the message forms read
 * alike, hand-offs from the `ai` messages' names, and run trees whose results
 * come in the order the tool runs finished.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { fromLangChain } from "../../importers/index.js";
import type { ImportResult } from "../../importers/index.js";
import { IMPORTER_FIXTURES, readFixture } from "../support/importer-fixtures.js";

const fixture = (file: string): unknown => readFixture(join(IMPORTER_FIXTURES, "langchain", file));
const bytes = (result: ImportResult): string => JSON.stringify(result.trajectories);

describe("langchain importer on messages and runs recorded from LangGraph", () => {
  test("refund.stored.json: two agents, parallel calls, a tool error (status error), an image", () => {
    const [t] = fromLangChain(fixture("refund.stored.json")).trajectories;
    expect(t!.events.map((e) => `${e.actor}:${e.action}`)).toEqual([
      "user:message",
      "agent:transfer_to_refunds",
      "tool:transfer_to_refunds_result",
      "agent:message",
      "agent:handoff",
      "agent:lookup_order",
      "agent:check_policy",
      "tool:lookup_order_result",
      "tool:check_policy_result",
      "agent:issue_refund",
      "tool:issue_refund_result",
      "agent:message",
    ]);
    expect(t!.events[0]!.content).toBe("Order A-1001 arrived broken. Please refund it.\n[image]");
    expect(t!.events[10]!.metadata).toMatchObject({ status: "error", "@call_id": "call_refund_1" });
    expect(t!.complete).toBe(true);
  });

  test("refund.lc.json (lc-serialized graph state) gives the same bytes as the stored form", () => {
    expect(bytes(fromLangChain(fixture("refund.lc.json")))).toBe(bytes(fromLangChain(fixture("refund.stored.json"))));
  });

  test("several.stored.json: two conversations, the second interrupted before its tool ran", () => {
    expect(fromLangChain(fixture("several.stored.json")).trajectories.map((t) => [t.id, t.complete])).toEqual([
      ["trace-1", true],
      ["trace-2", false],
    ]);
  });

  test("refund.runs.json (run trees): results in the order the tool runs finished, run errors as failed results", () => {
    const [t, cancel] = fromLangChain(fixture("refund.runs.json")).trajectories;
    const actions = t!.events.map((e) => e.action);
    // check_policy finished first (lookup_order sleeps), so its result comes first here, unlike the message list.
    expect(actions.slice(5, 9)).toEqual(["lookup_order", "check_policy", "check_policy_result", "lookup_order_result"]);
    expect(t!.events[10]).toMatchObject({ content: "payment gateway timeout", metadata: { status: "error" } });
    expect(cancel!.complete).toBe(false);
  });
});
