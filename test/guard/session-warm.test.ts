/**
 * `SessionGuard`'s `warm` option (docs/MONITOR.md "Warming up"): the judge's
 * `warm()` is called before the first session's monitor, once per loaded
 * judge, and the guard decides exactly as an unwarmed one; a judge built
 * before `warm` existed is guarded as before.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { SessionGuard, type GuardJudge } from "../../guard/session.js";

const path = pathToFileURL(join(import.meta.dirname, "..", "..", "examples", "refund-support", "judge.mjs")).href;
// Two module instances of the same judge: one warmed, one never.
const warmed = (await import(`${path}?warmed`)) as Required<GuardJudge>;
const cold = (await import(`${path}?cold`)) as Required<GuardJudge>;

/** A session of refused and allowed calls; everything the guard said, as JSON. */
function run(guard: SessionGuard): string[] {
  const said: string[] = [];
  guard.user("Please refund order A-17.");
  said.push(JSON.stringify(guard.call("issue_refund", { order_id: "A-17" }, "c1")));
  said.push(JSON.stringify(guard.call("get_order", { order_id: "A-17" }, "c2")));
  said.push(JSON.stringify(guard.result("c2", { status: "found", order_id: "A-17" })));
  said.push(JSON.stringify(guard.call("issue_refund", { order_id: "A-17" }, "c3")));
  said.push(JSON.stringify(guard.result("c3", { status: "approved", order_id: "A-17" })));
  said.push(JSON.stringify(guard.pending()));
  said.push(JSON.stringify(guard.trajectory(true)));
  return said;
}

describe("SessionGuard warm", () => {
  test("warm: true calls the judge's warm() once per judge, and the guard decides as an unwarmed one", async () => {
    const calls: number[] = [];
    const counting: GuardJudge = {
      createMonitor: (header, options) => warmed.createMonitor(header, options),
      warm: () => {
        const pushed = warmed.warm();
        calls.push(pushed);
        return pushed;
      },
    };
    const first = new SessionGuard(counting, { id: "s", log: false, warm: true });
    expect(calls.length).toBe(1);
    expect(calls[0]).toBeGreaterThan(0);
    const second = new SessionGuard(counting, { id: "s", log: false, warm: true });
    expect(calls).toEqual([calls[0], 0]);
    const unwarmed = new SessionGuard(cold, { id: "s", log: false });
    const expected = run(unwarmed);
    expect(expected[0]).toContain('"allowed":false');
    expect(run(first)).toEqual(expected);
    expect(run(second)).toEqual(expected);
    expect(JSON.stringify(await first.end())).toBe(JSON.stringify(await unwarmed.end()));
  });

  test("without the option nothing is warmed; a judge with no warm() is guarded as before", () => {
    let warmCalls = 0;
    const judge: GuardJudge = { createMonitor: (h, o) => cold.createMonitor(h, o), warm: () => ++warmCalls };
    new SessionGuard(judge, { id: "s", log: false });
    expect(warmCalls).toBe(0);
    const older: GuardJudge = { createMonitor: (h, o) => cold.createMonitor(h, o) };
    expect(run(new SessionGuard(older, { id: "s", log: false, warm: true }))).toEqual(run(new SessionGuard(cold, { id: "s", log: false })));
  });
});
