import { describe, expect, test } from "vitest";
import { detectLangChain, fromLangChain } from "../../importers/langchain.js";
import { checkGolden, judgeAll, readFixture, toJsonl, verdicts } from "./recorded-fixtures.js";

const FORMAT = "langchain";
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
  metas: Object.fromEntries(Object.keys(REFUND.metas).map((k) => [k, "na:insufficient_evidence"])),
};

describe("langchain importer on messages and runs recorded from LangGraph", () => {
  test("refund.stored.json: two agents, parallel calls, a tool error (status error), an image", async () => {
    const result = checkGolden(FORMAT, "refund.stored.json", fromLangChain);
    const [t] = result.trajectories;
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
    expect((await judgeAll(FORMAT, result.trajectories)).map(verdicts)).toEqual([REFUND]);
  });

  test("refund.lc.json (lc-serialized graph state) gives the same bytes as the stored form", () => {
    const lc = checkGolden(FORMAT, "refund.lc.json", fromLangChain);
    expect(toJsonl(lc.trajectories)).toBe(toJsonl(fromLangChain(readFixture(FORMAT, "refund.stored.json")).trajectories));
  });

  test("several.stored.json: two conversations, the second interrupted before its tool ran", async () => {
    const result = checkGolden(FORMAT, "several.stored.json", fromLangChain);
    expect(result.trajectories.map((t) => [t.id, t.complete])).toEqual([
      ["trace-1", true],
      ["trace-2", false],
    ]);
    expect((await judgeAll(FORMAT, result.trajectories)).map(verdicts)).toEqual([REFUND, CANCEL_LEFT_OPEN]);
  });

  test("refund.runs.json (run trees): results in the order the tool runs finished, run errors as failed results", async () => {
    const result = checkGolden(FORMAT, "refund.runs.json", fromLangChain);
    const [t, cancel] = result.trajectories;
    const actions = t!.events.map((e) => e.action);
    // check_policy finished first (lookup_order sleeps), so its result comes first here, unlike the message list.
    expect(actions.slice(5, 9)).toEqual(["lookup_order", "check_policy", "check_policy_result", "lookup_order_result"]);
    expect(t!.events[10]).toMatchObject({ content: "payment gateway timeout", metadata: { status: "error" } });
    expect(cancel!.complete).toBe(false);
    expect((await judgeAll(FORMAT, result.trajectories)).map(verdicts)).toEqual([REFUND, CANCEL_LEFT_OPEN]);
  });

  test("bad input: located errors, the other conversations still import", () => {
    const convos = readFixture(FORMAT, "several.stored.json") as { type: string; data: Record<string, unknown> }[][];
    const broken = structuredClone(convos);
    delete (broken[0]![1]!.data.tool_calls as Record<string, unknown>[])[0]!.name;
    const result = fromLangChain([...broken, [{ role: "user", content: "hi" }]]);
    expect(result.errors).toEqual([
      { path: "[0][1].tool_calls[0]", message: "missing name", trace: 0 },
      { path: "[2][0]", message: "not a LangChain message (expected {type, data}, an lc-serialized message, or {type, content})", trace: 2 },
    ]);
    expect(result.trajectories.map((t) => t.id)).toEqual(["trace-2"]);
    expect(fromLangChain({ foo: 1 }).errors).toEqual([{ path: "", message: "expected LangChain messages (a list, or {messages}), a list of conversations, or a LangSmith run tree" }]);
  });

  test("detection", () => {
    for (const file of ["refund.stored.json", "refund.lc.json", "several.stored.json", "refund.runs.json"]) expect(detectLangChain(readFixture(FORMAT, file))).toBe(true);
    expect(detectLangChain([{ role: "user", content: "hi" }])).toBe(false);
  });
});
