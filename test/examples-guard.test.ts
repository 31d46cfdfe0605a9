/**
 * examples/refund-guard: a tool executor wrapped by the refund judge's
 * monitor. A call that `check` says would violate a rule is refused before
 * the tool runs; the session that happens then passes, where the same agent
 * unguarded fails.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";

const GUARD = join(import.meta.dirname, "..", "examples", "refund-guard");

interface Outcome {
  refused: boolean;
  violations?: { rule: string; type: string }[];
}
interface Guard {
  say(actor: string, content: string): void;
  call(name: string, args: Record<string, unknown>): Promise<Outcome>;
  end(complete?: boolean): Promise<{ verdict: string; metaBehaviors: { name: string; verdict: string }[] }>;
  monitor: { pending(): { rule: string }[] };
}
const { guardTools } = (await import(pathToFileURL(join(GUARD, "guard.mjs")).href)) as {
  guardTools(tools: Record<string, (args: Record<string, unknown>) => Promise<unknown>>, options: { sessionId: string }): Guard;
};

function tools(ran: string[]) {
  const tool =
    (name: string, result: (args: Record<string, unknown>) => Record<string, unknown>) => async (args: Record<string, unknown>) => {
      ran.push(`${name}(${JSON.stringify(args)})`);
      return result(args);
    };
  return {
    get_order: tool("get_order", ({ order_id }) => ({ status: "found", order_id })),
    issue_refund: tool("issue_refund", ({ order_id }) => ({ status: "approved", order_id })),
    send_email: tool("send_email", ({ template }) => ({ status: "sent", template })),
    escalate_to_supervisor: tool("escalate_to_supervisor", () => ({ status: "escalated" })),
    add_case_note: tool("add_case_note", ({ kind }) => ({ status: "saved", kind })),
  };
}

describe("the refund guard", () => {
  test("refuses a refund before the lookup without running it, and allows it after", async () => {
    const ran: string[] = [];
    const guard = guardTools(tools(ran), { sessionId: "s1" });
    guard.say("user", "Refund order A please.");
    const early = await guard.call("issue_refund", { order_id: "A" });
    expect(early.refused).toBe(true);
    expect(early.violations!.map((v) => `${v.rule}: ${v.type}`)).toEqual(["Look up the order before paying anything out: ordering"]);
    expect(ran).toEqual([]);
    expect((await guard.call("get_order", { order_id: "A" })).refused).toBe(false);
    expect((await guard.call("issue_refund", { order_id: "A" })).refused).toBe(false);
    expect(ran).toEqual(['get_order({"order_id":"A"})', 'issue_refund({"order_id":"A"})']);
    // The approval still needs its confirmation email: owed, not a violation.
    expect(guard.monitor.pending().map((o) => o.rule)).toEqual(["Email a confirmation for every approved refund"]);
    await guard.call("send_email", { template: "refund_confirmation" });
    expect((await guard.end()).verdict).toBe("true");
  });

  test("refuses payouts after an escalation, and a fourth order", async () => {
    const ran: string[] = [];
    const guard = guardTools(tools(ran), { sessionId: "s2" });
    for (const order of ["A", "B", "C"]) {
      await guard.call("get_order", { order_id: order });
      await guard.call("issue_refund", { order_id: order });
      await guard.call("send_email", { template: "refund_confirmation" });
    }
    await guard.call("get_order", { order_id: "D" });
    const fourth = await guard.call("issue_refund", { order_id: "D" });
    expect(fourth.violations!.map((v) => v.rule)).toEqual(["Refund at most three orders per session"]);
    // A retry for an order already refunded counts once: allowed.
    expect((await guard.call("issue_refund", { order_id: "A" })).refused).toBe(false);
    await guard.call("send_email", { template: "refund_confirmation" });
    await guard.call("escalate_to_supervisor", {});
    const after = await guard.call("issue_refund", { order_id: "A" });
    expect(after.violations!.map((v) => v.rule)).toEqual(["Stop paying out once escalated"]);
    await guard.call("add_case_note", { kind: "handover" });
    expect(ran.filter((r) => r.startsWith("issue_refund"))).toHaveLength(4);
    const judgment = await guard.end();
    expect(judgment.metaBehaviors.map((m) => `${m.name}: ${m.verdict}`)).toEqual([
      "Look up the order before paying anything out: true",
      "Email a confirmation for every approved refund: true",
      "Stop paying out once escalated: true",
      "Refund at most three orders per session: true",
    ]);
  });

  test("the demo runs as docs/MONITOR.md shows", () => {
    const out = execFileSync(process.execPath, [join(GUARD, "demo.mjs")], { encoding: "utf8" });
    expect(out).toContain("refused issue_refund: Look up the order before paying anything out");
    expect(out).toContain("refused issue_refund: Stop paying out once escalated");
    expect(out).toContain("money moved for: A-17\nsession verdict: true\n");
  });
});
