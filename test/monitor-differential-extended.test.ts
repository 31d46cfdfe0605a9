/**
 * The monitor on the extended corpus (test/support/differential-extended.ts,
 * the pairs test/differential-extended.test.ts holds to the oracle). For
 * every pair the events are pushed one at a time, and:
 *
 * - `end({complete})` is `judgeTrajectory`, byte for byte as JSON;
 * - `check(e)` before `push(e)` returns exactly what `push(e)` returns, and a
 *   `check` of another event changes nothing (pending() is the same, and the
 *   end judgment still equals the batch judge's);
 * - on time and exact, against the ORACLE: the violations pushed at event k
 *   are exactly the deterministic clauses the oracle finds false on the first
 *   k+1 events of an incomplete trace, in a triggered rule, whose citations
 *   grew since event k-1 (false on an incomplete prefix means false for every
 *   continuation: the failing `before` of an ordering with on/fresh, the
 *   failing each of a condition, the N-th event after an each of a pairing
 *   with within, the match that puts a count group above max), each citing
 *   what the oracle's clause cites there;
 * - every reported violation is a false clause of the final judgment citing at
 *   least its ids, and stays so for random continuations of its prefix.
 *
 * A count by `sum` is certain above max only for non-negative values: in a
 * trajectory with a negative amount its clauses are left out of the timing
 * comparison (and counted).
 */
import { describe, expect, test } from "vitest";
import type { JudgeIR } from "../compiler/ir/types.js";
import type { BuiltJudge } from "../compiler/run/load.js";
import type { Trajectory, TrajectoryJudgment, Violation } from "../runtime/types.js";
import { oracleJudge } from "./oracle/evaluate.js";
import { mulberry32, randomExtendedTrajectory, type Rng } from "./oracle/random-extended.js";
import { decimalOf } from "./oracle/values.js";
import { extendedJudges } from "./support/differential-extended.js";

const JUDGES = Number(process.env.BJ_EXTENDED_JUDGES ?? 200);
const TRAJECTORIES_PER_JUDGE = 40;

/** Clauses whose falsity on a prefix is not certain: sums over a trajectory with a negative amount. */
function uncertainClauses(ir: JudgeIR, trajectory: Trajectory): Set<string> {
  const negative = trajectory.events.some((e) => {
    const amount = (e as { metadata?: Record<string, unknown> }).metadata?.amount;
    return amount !== undefined && (decimalOf(String(amount)) ?? 0) < 0;
  });
  const out = new Set<string>();
  if (!negative) return out;
  ir.metaBehaviors.forEach((rule, r) =>
    rule.checks.forEach((check, c) => {
      if (check.type === "count" && check.sum !== undefined) out.add(`${r}/${c}`);
    }),
  );
  return out;
}

/** The violations that event k must report: false clauses of the oracle's prefix judgment whose citations grew. */
function expectedViolations(before: TrajectoryJudgment, after: TrajectoryJudgment, skip: Set<string>): Violation[] {
  const out: Violation[] = [];
  after.metaBehaviors.forEach((rule, r) => {
    if (!rule.triggered) return;
    const earlier = before.metaBehaviors[r]!;
    rule.clauses.forEach((clause, c) => {
      if (clause.kind !== "predicate" || clause.verdict !== "false" || skip.has(`${r}/${c}`)) return;
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

function withoutExplanation(v: Violation): Violation {
  const { explanation: _explanation, ...rest } = v;
  return rest;
}

/**
 * A violation says why exactly when its check can (ordering with on or fresh,
 * pairing with within, condition), and then about one of the events it cites;
 * a pairing with within names, in order, the `within` events that came after
 * its newest unanswered `each` event instead of a follower (the first four
 * and the last two of a longer window).
 */
function expectExplained(ir: JudgeIR, v: Violation, pushed: readonly { id: string }[]): void {
  const rule = ir.metaBehaviors.find((m) => m.name === v.rule)!;
  const check = rule.checks[v.checkIndex]! as { type: string; on?: unknown; fresh?: boolean; within?: number };
  const explains =
    (check.type === "ordering" && (check.on !== undefined || check.fresh === true)) ||
    (check.type === "pairing" && check.within !== undefined) ||
    check.type === "condition";
  expect(v.explanation !== undefined, JSON.stringify({ check, v })).toBe(explains);
  if (v.explanation !== undefined)
    expect(
      v.eventIds.some((id) => v.explanation!.includes(id)),
      JSON.stringify(v),
    ).toBe(true);
  if (check.type === "pairing" && check.within !== undefined) {
    const within = check.within;
    const at = pushed.findIndex((e) => e.id === v.eventIds[v.eventIds.length - 1]);
    const window = pushed.slice(at + 1, at + 1 + within).map((e) => e.id);
    expect(window.length, JSON.stringify(v)).toBe(within);
    const named = within <= 6 ? window : [...window.slice(0, 4), ...window.slice(-2)];
    const listed = [...v.explanation!.matchAll(/(?:by|events,|,) ([^ ,()]+) \(/g)].map((m) => m[1]);
    expect(listed, JSON.stringify(v)).toEqual(named);
  }
}

/** The oracle's clauses carry no `check`; the type comes from the IR. */
function withCheckTypes(ir: JudgeIR, judgment: TrajectoryJudgment): TrajectoryJudgment {
  judgment.metaBehaviors.forEach((rule, r) =>
    rule.clauses.forEach((clause, c) => {
      const check = ir.metaBehaviors[r]!.checks[c];
      if (clause.kind === "predicate" && check !== undefined) clause.check = check.type;
    }),
  );
  return judgment;
}

interface Tally {
  pairs: number;
  events: number;
  violations: number;
  byType: Record<string, number>;
  continuations: number;
  strangers: number;
  skipped: number;
}

/** Is every reported violation a false clause of `judgment` citing at least its ids? */
function expectExact(judgment: TrajectoryJudgment, reported: readonly Violation[], context: () => unknown): void {
  for (const v of reported) {
    const clause = judgment.metaBehaviors.find((m) => m.name === v.rule)!.clauses[v.checkIndex]!;
    const cited = new Set(clause.citations.map((x) => x.eventId));
    if (clause.verdict !== "false" || v.eventIds.some((id) => !cited.has(id))) {
      expect({ violation: v, clause, context: context() }).toBe("a false clause citing at least the violation's ids");
    }
  }
}

async function monitorPair(ir: JudgeIR, judge: BuiltJudge, trajectory: Trajectory, rng: Rng, tally: Tally): Promise<void> {
  const { id, description, events } = trajectory;
  const skip = uncertainClauses(ir, trajectory);
  tally.skipped += skip.size;
  const prefix = (k: number) => withCheckTypes(ir, oracleJudge(ir, { id, description, complete: false, events: events.slice(0, k) }));
  const final = await judge.judgeTrajectory(trajectory);
  const finalOther = await judge.judgeTrajectory({ ...trajectory, complete: !trajectory.complete });
  let before = prefix(0);
  const monitor = judge.createMonitor({ id, description });
  const all: { k: number; v: Violation }[] = [];
  for (let k = 0; k < events.length; k++) {
    // A check of another event must leave no trace.
    if (rng() < 0.3) {
      const pending = JSON.stringify(monitor.pending());
      const stranger = randomExtendedTrajectory(rng, "stranger").events[0];
      if (stranger !== undefined) monitor.check({ ...stranger, id: `stranger-${k}` });
      expect(JSON.stringify(monitor.pending())).toBe(pending);
      tally.strangers++;
    }
    const would = monitor.check(events[k]);
    const reported = monitor.push(events[k]);
    expect(JSON.stringify(would)).toBe(JSON.stringify(reported));
    tally.events++;

    const after = prefix(k + 1);
    const names = new Set([...skip].map((key) => `${ir.metaBehaviors[Number(key.split("/")[0])]!.name}/${key.split("/")[1]}`));
    // Explanations are free text (the differential compares them nowhere); what they must say is checked below.
    const timed = reported.filter((v) => !names.has(`${v.rule}/${v.checkIndex}`)).map(withoutExplanation);
    for (const v of reported) expectExplained(ir, v, events.slice(0, k + 1));
    const expected = expectedViolations(before, after, skip);
    if (JSON.stringify(timed) !== JSON.stringify(expected)) {
      expect({ yaml: ir, trajectory, k, reported: timed }).toEqual({ yaml: ir, trajectory, k, reported: expected });
    }
    for (const v of timed) {
      all.push({ k, v });
      tally.violations++;
      tally.byType[v.type] = (tally.byType[v.type] ?? 0) + 1;
    }

    // A reported violation stays false, citing at least its ids, whatever comes next.
    if (timed.length > 0 && rng() < 0.3) {
      // Non-negative amounts: a sum above max is certain only then.
      const more = randomExtendedTrajectory(rng, "more", false).events.map((e, i) => ({ ...e, id: `c${i}` }));
      for (const complete of [true, false]) {
        const continued = await judge.judgeTrajectory({ id, description, complete, events: [...events.slice(0, k + 1), ...more] });
        expectExact(continued, timed, () => ({ ir, trajectory, k, more, complete }));
      }
      tally.continuations++;
    }
    before = after;
  }
  // Exact: every violation is false in the final judgment (complete or not), citing at least its ids.
  expectExact(
    final,
    all.map((x) => x.v),
    () => ({ ir, trajectory }),
  );
  expectExact(
    finalOther,
    all.map((x) => x.v),
    () => ({ ir, trajectory, complete: !trajectory.complete }),
  );
  const ended = await monitor.end({ complete: trajectory.complete });
  expect(JSON.stringify(ended)).toBe(JSON.stringify(final));
  tally.pairs++;
}

describe("extended language: the monitor vs. judgeTrajectory and the oracle", () => {
  test(`${JUDGES * TRAJECTORIES_PER_JUDGE} random pairs, one event at a time`, async () => {
    const started = Date.now();
    const rng = mulberry32(20261203);
    const tally: Tally = { pairs: 0, events: 0, violations: 0, byType: {}, continuations: 0, strangers: 0, skipped: 0 };
    for await (const { ir, judge, trajectories } of extendedJudges(JUDGES, TRAJECTORIES_PER_JUDGE)) {
      for (const trajectory of trajectories) await monitorPair(ir, judge, trajectory, rng, tally);
    }
    console.log(`${JSON.stringify(tally)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(tally.pairs).toBe(JUDGES * TRAJECTORIES_PER_JUDGE);
    for (const type of ["ordering", "pairing", "forbidden", "count", "condition"])
      expect(tally.byType[type] ?? 0, type).toBeGreaterThan(JUDGES / 2);
  }, 900_000);
});
