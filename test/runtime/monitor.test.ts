/**
 * The monitor (docs/FORMATS.md §9) on the refund example: a
 * violation at the event that makes it certain, gated by the trigger;
 * `check` as a dry `push`; what is still owed; bad events refused with the
 * monitor unchanged; `end()` as `judgeTrajectory`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import type { BuiltJudge } from "../../compiler/run/load.js";
import type { TrajectoryError } from "../../runtime/trajectory.js";
import { compileYaml, importBundled } from "../support/judges.js";

let judge: BuiltJudge;
beforeAll(async () => {
  const yaml = readFileSync(join(import.meta.dirname, "..", "..", "examples", "refund-support", "judge.yaml"), "utf8");
  judge = await importBundled((await compileYaml(yaml)).compiled);
});

const LOOKUP = "Look up the order before paying anything out";
const AT_MOST_THREE = "Refund at most three orders per session";
const ESCALATED = "Stop paying out once escalated";
const CONFIRM = "Email a confirmation for every approved refund";

const ev = (id: string, actor: string, action: string, metadata?: Record<string, unknown>) => ({
  id,
  actor,
  action,
  ...(metadata ? { metadata } : {}),
});
const refund = (id: string, order: string) => ev(id, "agent", "issue_refund", { order_id: order });
const found = (id: string) => ev(id, "tool", "get_order_result", { status: "found" });

/** Pushes each event; returns the violations as `eventIndex: rule#check [ids]`. */
function run(monitor: ReturnType<BuiltJudge["createMonitor"]>, events: object[]): string[] {
  const out: string[] = [];
  events.forEach((e, k) => {
    for (const v of monitor.push(e)) out.push(`${k}: ${v.rule}#${v.checkIndex} ${v.type} [${v.eventIds.join(",")}]`);
  });
  return out;
}

describe("violations", () => {
  test("an ordering is certain at the first `before` match with no earlier `first`; it is reported once", () => {
    const monitor = judge.createMonitor({ id: "t" });
    expect(run(monitor, [ev("e1", "user", "message"), refund("e2", "A"), found("e3"), refund("e4", "B")])).toEqual([
      `1: ${LOOKUP}#0 ordering [e2]`,
    ]);
  });

  test("a violation waits for its trigger: a forbidden match before the trigger fires is reported when it fires", async () => {
    const gated = await importBundled(
      (
        await compileYaml(`version: 1
behavior: gated
metaBehaviors:
  - name: No deletes in a deploy session
    trigger: { description: The agent deploys., match: { action: deploy } }
    checks:
      - { type: forbidden, quote: no deletes, match: { action: delete } }
`)
      ).compiled,
    );
    const monitor = gated.createMonitor({ id: "t" });
    const events = [ev("e1", "agent", "delete"), ev("e2", "agent", "read"), ev("e3", "agent", "deploy"), ev("e4", "agent", "delete")];
    expect(run(monitor, events)).toEqual([
      "2: No deletes in a deploy session#0 forbidden [e1]",
      "3: No deletes in a deploy session#0 forbidden [e1,e4]",
    ]);
  });

  test("a count is certain when it exceeds max, after distinctBy; each further counted match is reported again", async () => {
    const monitor = judge.createMonitor({ id: "t" });
    const events = [
      found("e0"),
      refund("e1", "A"),
      refund("e2", "B"),
      refund("e3", "C"),
      refund("e4", "D"),
      refund("e5", "D"),
      refund("e6", "E"),
    ];
    expect(run(monitor, events)).toEqual([`4: ${AT_MOST_THREE}#0 count [e1,e2,e3,e4]`, `6: ${AT_MOST_THREE}#0 count [e1,e2,e3,e4,e6]`]);
    const judgment = await monitor.end({ complete: false });
    expect(JSON.stringify(judgment)).toBe(JSON.stringify(await judge.judgeTrajectory({ id: "t", complete: false, events })));
  });

  test("forbidden after escalation: each further payout is reported, citing every one so far", () => {
    const monitor = judge.createMonitor({ id: "t" });
    const events = [
      found("e1"),
      refund("e2", "A"),
      ev("e3", "agent", "escalate_to_supervisor"),
      refund("e4", "A"),
      ev("e5", "agent", "issue_store_credit"),
    ];
    expect(run(monitor, events)).toEqual([`3: ${ESCALATED}#0 forbidden [e4]`, `4: ${ESCALATED}#0 forbidden [e4,e5]`]);
  });
});

describe("check", () => {
  test("says what push would, and changes nothing", async () => {
    const monitor = judge.createMonitor({ id: "t" });
    monitor.push(ev("e1", "user", "message"));
    const payout = refund("e2", "A");
    const would = monitor.check(payout);
    expect(would.map((v) => v.rule)).toEqual([LOOKUP]);
    // Asked twice, the same answer: the first check left no trace.
    expect(monitor.check(payout)).toEqual(would);
    // The host refused the refund, looked the order up, and tried again.
    expect(monitor.push(found("e2"))).toEqual([]);
    expect(monitor.check(refund("e3", "A"))).toEqual([]);
    monitor.push(refund("e3", "A"));
    const judgment = await monitor.end({ complete: true });
    expect(judgment.metaBehaviors.find((m) => m.name === LOOKUP)!.verdict).toBe("true");
  });
});

describe("the ids a report cites", () => {
  test("are the caller's: changing them changes nothing the monitor says later", async () => {
    const monitor = judge.createMonitor({ id: "t" });
    const events = [found("e1"), ev("e2", "agent", "escalate_to_supervisor"), refund("e3", "A"), refund("e4", "B")];
    const spoil = (violations: { eventIds: string[] }[]) => {
      for (const v of violations) v.eventIds.splice(0, v.eventIds.length, "spoiled");
    };
    const forbidden = (violations: { rule: string; eventIds: string[] }[]) =>
      violations.filter((v) => v.rule === ESCALATED).map((v) => v.eventIds.join(","));
    monitor.push(events[0]);
    monitor.push(events[1]);
    // The first payout: check, then push, each answer spoiled before the next call.
    const checked = monitor.check(events[2]);
    expect(forbidden(checked)).toEqual(["e3"]);
    spoil(checked);
    const pushed = monitor.push(events[2]);
    expect(forbidden(pushed)).toEqual(["e3"]);
    spoil(pushed);
    // The second cites both, as if nothing had been changed.
    const again = monitor.check(events[3]);
    expect(forbidden(again)).toEqual(["e3,e4"]);
    spoil(again);
    expect(forbidden(monitor.push(events[3]))).toEqual(["e3,e4"]);
    spoil(monitor.pending());
    const judgment = await monitor.end({ complete: true });
    expect(JSON.stringify(judgment)).toBe(JSON.stringify(await judge.judgeTrajectory({ id: "t", complete: true, events })));
  });
});

describe("pending", () => {
  test("lists what triggered rules still need, with the events that created it", () => {
    const monitor = judge.createMonitor({ id: "t" });
    expect(monitor.pending()).toEqual([]);
    monitor.push(found("e1"));
    monitor.push(ev("e2", "tool", "issue_refund_result", { status: "approved" }));
    monitor.push(ev("e3", "agent", "escalate_to_supervisor"));
    expect(monitor.pending().map((o) => `${o.rule}#${o.checkIndex} ${o.type} [${o.eventIds.join(",")}]`)).toEqual([
      `${CONFIRM}#0 pairing [e2]`,
      `${ESCALATED}#1 required [e3]`,
    ]);
    monitor.push(ev("e4", "agent", "send_email", { template: "refund_confirmation" }));
    expect(monitor.pending().map((o) => o.rule)).toEqual([ESCALATED]);
  });
});

describe("bad events", () => {
  const fieldOf = (fn: () => unknown): string => {
    try {
      fn();
    } catch (error) {
      return `${(error as TrajectoryError).field}: ${(error as Error).message}`;
    }
    return "accepted";
  };

  test("are refused with the event's index and field, and leave the monitor as it was", async () => {
    const monitor = judge.createMonitor({ id: "t", description: null });
    monitor.push(found("e1"));
    for (const call of [monitor.push, monitor.check]) {
      expect(fieldOf(() => call({ id: "e2", actor: "robot", action: "issue_refund" }))).toBe(
        "events[1].actor: events[1].actor must be user, agent, or tool",
      );
      expect(fieldOf(() => call({ id: "e2", actor: "agent", action: "a", metadata: [1] }))).toBe(
        "events[1].metadata: events[1].metadata must be an object of key: value pairs",
      );
      expect(fieldOf(() => call("e2"))).toBe("events[1]: events[1] must be an object");
      expect(fieldOf(() => call(found("e1")))).toBe('events[1].id: events[1].id duplicates the id "e1" of an earlier event');
    }
    monitor.push(refund("e2", "A"));
    // Ids out of shortlex order switch the proof of uniqueness to a set; a repeat is still found.
    monitor.push(ev("a", "user", "message"));
    expect(fieldOf(() => monitor.push(ev("e2", "user", "message")))).toBe(
      'events[3].id: events[3].id duplicates the id "e2" of an earlier event',
    );
    const events = [found("e1"), refund("e2", "A"), ev("a", "user", "message")];
    expect(JSON.stringify(await monitor.end({ complete: true }))).toBe(
      JSON.stringify(await judge.judgeTrajectory({ id: "t", complete: true, events })),
    );
  });

  test("a bad header is refused like a trajectory's", () => {
    expect(fieldOf(() => judge.createMonitor({ id: "" }))).toBe("id: id must be a non-empty string");
    expect(fieldOf(() => judge.createMonitor({ id: "t", description: 3 } as never))).toBe("description: description must be a string");
  });

  test("end needs complete, and an ended monitor takes nothing more", async () => {
    const monitor = judge.createMonitor({ id: "t" });
    await expect(monitor.end({} as never)).rejects.toThrow("complete must be true or false");
    monitor.push(found("e1"));
    const judgment = await monitor.end({ complete: true });
    expect(judgment.trajectoryId).toBe("t");
    expect(() => monitor.push(found("e2"))).toThrow(/ended/);
    expect(() => monitor.check(found("e2"))).toThrow(/ended/);
    await expect(monitor.end({ complete: true })).rejects.toThrow(/ended/);
  });

  test("with no events, end is judgeTrajectory's: every rule na, nothing asked", async () => {
    const monitor = judge.createMonitor({ id: "t" });
    expect(JSON.stringify(await monitor.end({ complete: true }))).toBe(
      JSON.stringify(await judge.judgeTrajectory({ id: "t", complete: true, events: [] })),
    );
  });
});

describe("the events a monitor keeps", () => {
  test("are copies: changing a pushed event afterwards does not change what the model is shown", async () => {
    const prompts = (sink: string[]) => async (messages: { content: string }[]) => {
      sink.push(messages.map((m) => m.content).join("\n"));
      return JSON.stringify({ verdict: "false", na_reason: null, reasoning: "r", citations: [{ event_id: "e2", description: "d" }] });
    };
    const events = [ev("e1", "user", "message", { note: "as pushed" }), refund("e2", "A")];
    const viaMonitor: string[] = [];
    const monitor = judge.createMonitor({ id: "t" }, { complete: prompts(viaMonitor) });
    for (const e of events) monitor.push(e);
    (events[0] as { metadata: Record<string, unknown> }).metadata.note = "changed later";
    const judged = await monitor.end({ complete: true });
    const viaJudge: string[] = [];
    const expected = await judge.judgeTrajectory(
      { id: "t", complete: true, events: [ev("e1", "user", "message", { note: "as pushed" }), refund("e2", "A")] },
      { complete: prompts(viaJudge) },
    );
    expect(viaMonitor).toEqual(viaJudge);
    expect(viaMonitor.join("")).toContain("as pushed");
    expect(JSON.stringify(judged)).toBe(JSON.stringify(expected));
  });
});

describe("events the caller changes after push (issue 26: only a judge that keeps events copies them)", () => {
  test("a judge that keeps only ids: the judgment is that of the events as pushed", async () => {
    const monitor = judge.createMonitor({ id: "t" });
    const events = [found("e1"), refund("e2", "A-1"), refund("e3", "A-2")];
    for (const e of events) monitor.push(e);
    // Rewriting what was pushed: the monitor judged it already, and keeps only its ids.
    for (const e of events) Object.assign(e, { id: "x", action: "issue_store_credit", metadata: { status: "missing" } });
    const expected = await judge.judgeTrajectory({
      id: "t",
      complete: true,
      events: [found("e1"), refund("e2", "A-1"), refund("e3", "A-2")],
    });
    expect(await monitor.end({ complete: true })).toEqual(expected);
  });

  test("a condition binds earlier events: it sees them as they were pushed", async () => {
    const yaml = `version: 1
behavior: kept
metaBehaviors:
  - name: Refund what was looked up
    trigger: {description: d, match: {action: refund}}
    checks:
      - type: condition
        quote: q
        each: {action: refund}
        with:
          lookup: {latest: {action: lookup}}
        when: lookup.amount >= event.amount
    semanticChecks: []
`;
    const { compiled } = await compileYaml(yaml);
    expect(compiled.judgeTs).toContain("keepsEvents: true");
    const kept = await importBundled(compiled);
    const lookup = { id: "e1", actor: "tool", action: "lookup", metadata: { amount: "50" } };
    const monitor = kept.createMonitor({ id: "t" });
    monitor.push(lookup);
    lookup.metadata.amount = "5";
    expect(monitor.push({ id: "e2", actor: "agent", action: "refund", metadata: { amount: "20" } })).toEqual([]);
  });
});
