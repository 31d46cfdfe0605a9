/**
 * The monitor against the batch judge on the differential corpus (10,000
 * random judge.yaml/trajectory pairs; test/differential.test.ts holds the
 * batch judge to the oracle). For every pair, events are pushed one at a time:
 *
 * - `end({complete})` is `judgeTrajectory`, byte for byte as JSON; with a
 *   model adapter too, asking the same questions in the same order;
 * - the violations pushed at event k are exactly the deterministic clauses
 *   that `judgeTrajectory` finds false on the first k+1 events of an
 *   incomplete trace (false there means no continuation can change it: see
 *   docs/FORMATS.md §4) in a triggered rule, and that were not false with as
 *   many citations one event earlier; so none is early, none is late, and each
 *   cites what the clause cites. For random continuations of the prefix, the
 *   clause stays false and cites at least those events;
 * - `pending()` is what would turn false if the trace ended complete now;
 * - `check(e)` returns what `push(e)` then does, and a check of any other
 *   event, good or bad, leaves no trace; bad events are refused at their
 *   index with the monitor unchanged.
 */
import { describe, expect, test } from "vitest";
import type { BuiltJudge } from "../compiler/run/load.js";
import type { ChatMessage } from "../runtime/semantic.js";
import type { Obligation, Trajectory, TrajectoryJudgment, Violation } from "../runtime/types.js";
import { mulberry32, randomCase, type Rng } from "./oracle/random.js";
import { JUDGES, randomJudges, TRAJECTORIES_PER_JUDGE } from "./support/differential.js";

const CERTAIN = new Set(["ordering", "forbidden", "count"]);

/** The violations that pushing the event taking the prefix from `before` to `after` (incomplete judgments) must report. */
function expectedViolations(before: TrajectoryJudgment, after: TrajectoryJudgment): Violation[] {
  const out: Violation[] = [];
  after.metaBehaviors.forEach((rule, r) => {
    if (!rule.triggered) return;
    const earlier = before.metaBehaviors[r]!;
    rule.clauses.forEach((clause, c) => {
      if (clause.kind !== "predicate" || clause.verdict !== "false") return;
      expect(CERTAIN.has(clause.check!), `${clause.check} false in an incomplete trace`).toBe(true);
      const was = earlier.triggered ? earlier.clauses[c] : undefined;
      const citedBefore = was?.verdict === "false" ? was.citations.length : 0;
      if (clause.citations.length > citedBefore) {
        out.push({
          rule: rule.name,
          checkIndex: c,
          type: clause.check as Violation["type"],
          quote: clause.quote,
          eventIds: clause.citations.map((x) => x.eventId),
        });
      }
    });
  });
  return out;
}

/** What `pending()` must say: clauses that a complete end would make false and an incomplete one would not. */
function expectedObligations(incomplete: TrajectoryJudgment, complete: TrajectoryJudgment): Omit<Obligation, "eventIds">[] {
  const out: Omit<Obligation, "eventIds">[] = [];
  complete.metaBehaviors.forEach((rule, r) => {
    if (!rule.triggered) return;
    rule.clauses.forEach((clause, c) => {
      if (clause.kind !== "predicate" || clause.verdict !== "false") return;
      if (incomplete.metaBehaviors[r]!.clauses[c]!.verdict === "false") return;
      out.push({ rule: rule.name, checkIndex: c, type: clause.check as Obligation["type"], quote: clause.quote });
    });
  });
  return out;
}

/** Events that break the format at position `k`, or repeat an id already pushed. */
function badEvents(k: number, seenIds: readonly string[]): { event: unknown; field: string }[] {
  const bad: { event: unknown; field: string }[] = [
    { event: { id: `bad${k}`, actor: "robot", action: "a" }, field: `events[${k}].actor` },
    { event: { actor: "agent", action: "a" }, field: `events[${k}].id` },
    { event: { id: `bad${k}`, actor: "agent", action: "a", metadata: ["x"] }, field: `events[${k}].metadata` },
    { event: null, field: `events[${k}]` },
  ];
  if (seenIds.length > 0) bad.push({ event: { id: seenIds[seenIds.length - 1], actor: "user", action: "a" }, field: `events[${k}].id` });
  return bad;
}

/** A random event of the corpus's vocabulary with an id no trajectory uses. */
function strangerEvent(rng: Rng, k: number): unknown {
  const source = randomCase(rng, 900_000 + k).trajectory.events;
  const event = source[Math.floor(rng() * source.length)];
  return event === undefined ? { id: `x${k}`, actor: "agent", action: "deploy" } : { ...event, id: `x${k}` };
}

/** Deterministic model answers (a hash of the prompt picks the verdict); records every prompt. */
function scriptedModel(prompts: string[]) {
  return async (messages: ChatMessage[]): Promise<string> => {
    const text = messages.map((m) => `${m.role}: ${m.content}`).join("\n");
    prompts.push(text);
    let hash = 0;
    for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) >>> 0;
    const verdict = (["true", "false", "na"] as const)[hash % 3]!;
    const first = /^\{"id":("(?:[^"\\]|\\.)*")/m.exec(messages[messages.length - 1]!.content);
    return JSON.stringify({
      verdict,
      na_reason: verdict === "na" ? "insufficient_evidence" : null,
      reasoning: "scripted",
      citations: [{ event_id: first === null ? "" : JSON.parse(first[1]!), description: "d" }],
    });
  };
}

interface Tally {
  pairs: number;
  violations: number;
  continuations: number;
  obligations: number;
  badEvents: number;
  modelCalls: number;
}

async function monitorPair(judge: BuiltJudge, trajectory: Trajectory, rng: Rng, tally: Tally): Promise<void> {
  const { id, description, events } = trajectory;
  const prefix = (k: number, complete: boolean) => judge.judgeTrajectory({ id, description, complete, events: events.slice(0, k) });
  let before = await prefix(0, false);
  const monitor = judge.createMonitor({ id, description });
  const pushedIds: string[] = [];
  for (let k = 0; k < events.length; k++) {
    // A check of another event, good or bad, must leave no trace.
    if (rng() < 0.5) monitor.check(strangerEvent(rng, k));
    if (rng() < 0.2) {
      const candidates = badEvents(k, pushedIds);
      const { event, field } = candidates[Math.floor(rng() * candidates.length)]!;
      const refuse = rng() < 0.5 ? () => monitor.push(event) : () => monitor.check(event);
      // The bundled judge carries its own TrajectoryError class.
      expect(refuse).toThrow(judge.TrajectoryError);
      try {
        refuse();
      } catch (error) {
        expect((error as InstanceType<BuiltJudge["TrajectoryError"]>).field).toBe(field);
      }
      tally.badEvents++;
    }
    const would = monitor.check(events[k]);
    const reported = monitor.push(events[k]);
    pushedIds.push(events[k]!.id);
    expect(JSON.stringify(would)).toBe(JSON.stringify(reported));

    const after = await prefix(k + 1, false);
    const expected = expectedViolations(before, after);
    if (JSON.stringify(reported) !== JSON.stringify(expected))
      expect({ trajectory, k, reported }).toEqual({ trajectory, k, reported: expected });
    tally.violations += reported.length;

    // A reported violation stays false, citing at least its events, whatever comes next.
    if (reported.length > 0 && rng() < 0.5) {
      const more = randomCase(rng, 800_000 + k).trajectory.events.map((e, i) => ({ ...e, id: `c${i}` }));
      for (const complete of [true, false]) {
        const continued = await judge.judgeTrajectory({ id, description, complete, events: [...events.slice(0, k + 1), ...more] });
        for (const v of reported) {
          const clause = continued.metaBehaviors.find((m) => m.name === v.rule)!.clauses[v.checkIndex]!;
          expect(clause.verdict).toBe("false");
          const cited = new Set(clause.citations.map((x) => x.eventId));
          expect(v.eventIds.filter((e) => !cited.has(e))).toEqual([]);
        }
      }
      tally.continuations++;
    }

    const owed = monitor.pending();
    const completeNow = await prefix(k + 1, true);
    expect(owed.map(({ eventIds: _, ...o }) => o)).toEqual(expectedObligations(after, completeNow));
    for (const o of owed) {
      const clause = completeNow.metaBehaviors.find((m) => m.name === o.rule)!.clauses[o.checkIndex]!;
      // Pairing and count cite what the complete clause would; required cites the event that opened its window, if any.
      if (o.type === "required") expect(o.eventIds.every((e) => pushedIds.includes(e)) && o.eventIds.length <= 1).toBe(true);
      else expect(o.eventIds).toEqual(clause.citations.map((x) => x.eventId));
    }
    tally.obligations += owed.length;
    before = after;
  }
  const ended = await monitor.end({ complete: trajectory.complete });
  expect(JSON.stringify(ended)).toBe(JSON.stringify(await judge.judgeTrajectory(trajectory)));

  // With a model: the same questions, in the same order, and the same judgment.
  const viaMonitor: string[] = [];
  const viaJudge: string[] = [];
  const withModel = judge.createMonitor({ id, description }, { complete: scriptedModel(viaMonitor) });
  for (const e of events) withModel.push(e);
  const endedWithModel = await withModel.end({ complete: trajectory.complete });
  const judgedWithModel = await judge.judgeTrajectory(trajectory, { complete: scriptedModel(viaJudge) });
  expect(JSON.stringify(endedWithModel)).toBe(JSON.stringify(judgedWithModel));
  expect(viaMonitor).toEqual(viaJudge);
  tally.modelCalls += viaMonitor.length;
  tally.pairs++;
}

describe("the monitor vs. judgeTrajectory", () => {
  test(`${JUDGES * TRAJECTORIES_PER_JUDGE} random pairs, one event at a time`, async () => {
    const rng = mulberry32(20261202);
    const tally: Tally = { pairs: 0, violations: 0, continuations: 0, obligations: 0, badEvents: 0, modelCalls: 0 };
    for await (const { judge, trajectories } of randomJudges()) {
      for (const trajectory of trajectories) await monitorPair(judge, trajectory, rng, tally);
    }
    expect(tally.pairs).toBe(10_000);
    // The corpus must exercise each part often, or the agreement says little.
    // (At this seed: 28,565 violations, 11,906 continuations, 84,611 obligations, 28,305 bad events, 30,892 model calls.)
    expect(tally.violations).toBeGreaterThan(10_000);
    expect(tally.continuations).toBeGreaterThan(5_000);
    expect(tally.obligations).toBeGreaterThan(20_000);
    expect(tally.badEvents).toBeGreaterThan(10_000);
    expect(tally.modelCalls).toBeGreaterThan(10_000);
  }, 900_000);
});
