/**
 * A monitor's violation says why for the checks that can (ordering with on or
 * fresh, pairing within, condition), about the newest event it reports: a
 * guard tells the agent why this call is refused, not why an earlier one was
 * (issue 21: "for a failed condition, the expression, the bound events and
 * the values it compared ... for within, the N events that came instead").
 */
import { expect, test } from "vitest";
import { compileIR } from "../../compiler/build/compile.js";
import type { Check, JudgeIR } from "../../compiler/ir/types.js";
import { throughYaml } from "../support/differential-extended.js";
import { importBundled } from "../support/judges.js";

async function monitorOf(check: Check) {
  const ir: JudgeIR = {
    version: 1,
    behavior: "b",
    metaBehaviors: [
      { name: "Rule", trigger: { description: "an agent event", match: [{ actor: "agent" }] }, checks: [check], semanticChecks: [] },
    ],
  };
  const { yaml } = throughYaml(ir);
  const judge = await importBundled(await compileIR(ir, yaml, { typeCheck: false }));
  return judge.createMonitor({ id: "t" });
}

const ev = (id: string, action: string, metadata?: Record<string, string>) => ({ id, actor: "agent" as const, action, metadata });

test("condition: each failing event is explained with its own bound event and values", async () => {
  const monitor = await monitorOf({
    type: "condition",
    quote: "only refundable reservations are cancelled",
    each: [{ action: "cancel" }],
    with: { r: { latest: [{ action: "lookup" }], on: "metadata.id" } },
    when: 'r.refundable == "yes"',
  });
  monitor.push(ev("e1", "lookup", { id: "A", refundable: "no" }));
  monitor.push(ev("e2", "lookup", { id: "B", refundable: "maybe" }));
  const first = monitor.push(ev("e3", "cancel", { id: "A" }));
  expect(first[0]!.explanation).toBe('at e3, `r.refundable == "yes"` does not hold (it is false); r = e1 (lookup); r.refundable = "no"');
  const refused = monitor.check(ev("e4", "cancel", { id: "B" }));
  expect(refused[0]!.explanation).toBe(
    'at e4, `r.refundable == "yes"` does not hold (it is false); r = e2 (lookup); r.refundable = "maybe"',
  );
  // check changed nothing: the next push of another failing cancellation explains itself.
  const second = monitor.push(ev("e5", "cancel", { id: "B" }));
  expect(second[0]!.explanation).toMatch(/^at e5, /);
});

test("ordering with on: the before event without its same-key first, and its key", async () => {
  const monitor = await monitorOf({
    type: "ordering",
    quote: "looked up before cancelled",
    first: [{ action: "lookup" }],
    before: [{ action: "cancel" }],
    on: "metadata.id",
  });
  monitor.push(ev("e1", "lookup", { id: "A" }));
  expect(monitor.push(ev("e2", "cancel", { id: "A" }))).toEqual([]);
  const [v] = monitor.push(ev("e3", "cancel", { id: "B" }));
  expect(v!.explanation).toBe('e3 matches `before` (id "B"), and no event matching `first` with the same id came before it');
});

test("pairing within: the newest each event that went unanswered, and the events that came instead of its follower", async () => {
  const monitor = await monitorOf({
    type: "pairing",
    quote: "answered within two events",
    each: [{ action: "ask" }],
    followedBy: [{ action: "answer" }],
    on: "metadata.id",
    within: 2,
  });
  monitor.push(ev("e1", "ask", { id: "A" }));
  monitor.push(ev("e2", "ask", { id: "B" }));
  const late = monitor.push(ev("e3", "other"));
  expect(late[0]!.eventIds).toEqual(["e1"]);
  expect(late[0]!.explanation).toBe(
    'e1 (id "A") was followed by 2 events, e2 (ask, id "B"), e3 (other), and none of them matched `followedBy` with the same id',
  );
  const later = monitor.push(ev("e4", "answer", { id: "A" }));
  expect(later[0]!.eventIds).toEqual(["e1", "e2"]);
  expect(later[0]!.explanation).toBe(
    'e2 (id "B") was followed by 2 events, e3 (other), e4 (answer, id "A"), and none of them matched `followedBy` with the same id',
  );
});

test("the v1 checks carry no explanation (their quote and events say it)", async () => {
  const monitor = await monitorOf({ type: "forbidden", quote: "never delete", match: [{ action: "delete" }] });
  const [v] = monitor.push(ev("e1", "delete"));
  expect(v).toEqual({ rule: "Rule", checkIndex: 0, type: "forbidden", quote: "never delete", eventIds: ["e1"] });
});
