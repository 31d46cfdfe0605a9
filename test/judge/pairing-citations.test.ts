/**
 * A pairing's citations are made while stepping, in the order the events
 * come, and put in citation order at the end (runtime/checks.ts
 * `inCitationOrder`): each `each` match, then its first follower, every event
 * cited once. Here the two patterns overlap (an `approve` both waits and
 * answers), so followers that are also `each` matches (carried) and followers
 * answering several matches occur, on random sessions against the order as
 * the pairing's definition gives it. `grant` only waits, `notify` only answers.
 */
import { describe, expect, test } from "vitest";
import { CitationList } from "../../runtime/checks.js";
import type { Citation, TrajectoryJudgment } from "../../runtime/types.js";
import { compileYaml, importBundled } from "../support/judges.js";

const YAML = `version: 1
behavior: pairing-order
metaBehaviors:
  - name: Every approval is answered
    trigger:
      description: Something is approved or granted.
      match:
        action:
          in: [approve, grant]
    checks:
      - type: pairing
        quote: every approval is followed by a notice or another approval
        each:
          action:
            in: [approve, grant]
        followedBy:
          - action: notify
          - action: approve
`;

const ACTIONS = ["approve", "grant", "notify", "message", "approve", "grant"];
const isEach = (action: string) => action === "approve" || action === "grant";
const isFollower = (action: string) => action === "notify" || action === "approve";

/** xorshift: every run judges the same sessions. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** The citations of a true pairing, from its definition: each match, then its first later follower; each event once, first place kept. */
function expectedCitations(actions: readonly string[]): Citation[] {
  const out: Citation[] = [];
  const cited = new Set<string>();
  const add = (eventId: string, description: string) => {
    if (cited.has(eventId)) return;
    cited.add(eventId);
    out.push({ eventId, description });
  };
  actions.forEach((action, i) => {
    if (!isEach(action)) return;
    add(`e${i + 1}`, "event matching `each`");
    const next = actions.findIndex((a, k) => k > i && isFollower(a));
    if (next >= 0) add(`e${next + 1}`, "first later event matching `followedBy`");
  });
  return out;
}

function session(actions: readonly string[]) {
  return actions.map((action, i) => ({ id: `e${i + 1}`, actor: "agent", action }));
}

describe("pairing citations", () => {
  test("in the definition's order on 600 random sessions, judged whole and through a monitor", async () => {
    const { compiled } = await compileYaml(YAML);
    const judge = await importBundled(compiled);
    const next = random(2026);
    let trueClauses = 0;
    let carried = 0;
    for (let s = 0; s < 600; s++) {
      const length = 1 + Math.floor(next() * 14);
      const actions = Array.from({ length }, () => ACTIONS[Math.floor(next() * ACTIONS.length)]!);
      const events = session(actions);
      const whole = (await judge.judgeTrajectory({ id: `s${s}`, complete: true, events })) as TrajectoryJudgment;
      // A monitor, with a dry check before each push: the check's steps are undone.
      const monitor = judge.createMonitor({ id: `s${s}` });
      for (const event of events) {
        monitor.check({ ...event, id: `c-${event.id}` });
        monitor.push(event);
      }
      const streamed = (await monitor.end({ complete: true })) as TrajectoryJudgment;
      expect(streamed).toEqual(whole);
      const clause = whole.metaBehaviors[0]!.clauses[0];
      if (clause === undefined) {
        expect(actions.some(isEach)).toBe(false);
        continue;
      }
      let last = actions.length - 1;
      while (last >= 0 && !isEach(actions[last]!)) last--;
      const answered = actions.slice(last + 1).some(isFollower);
      if (!answered) {
        expect(clause.verdict).toBe("false");
        continue;
      }
      trueClauses++;
      // A carried follower with a match waiting after it: the case where the follower moves furthest.
      if (actions.some((a, i) => a === "approve" && actions.slice(0, i).some(isEach) && actions[i + 1] === "grant")) carried++;
      expect(clause.verdict).toBe("true");
      expect(clause.citations).toEqual(expectedCitations(actions));
    }
    // The sessions reach the cases that matter.
    expect(trueClauses).toBeGreaterThan(60);
    expect(carried).toBeGreaterThan(5);
  });

  test("a list past several chunks of 4,096: whole, through a monitor, and unanswered at the end", async () => {
    const { compiled } = await compileYaml(YAML);
    const judge = await importBundled(compiled);
    const next = random(7);
    // About 11,000 citations: the list spans three chunks, and checks cut it back across their edges.
    const actions = Array.from({ length: 16_000 }, () => ACTIONS[Math.floor(next() * ACTIONS.length)]!);
    actions.push("notify");
    const events = session(actions);
    const whole = (await judge.judgeTrajectory({ id: "long", complete: true, events })) as TrajectoryJudgment;
    const clause = whole.metaBehaviors[0]!.clauses[0]!;
    expect(clause.verdict).toBe("true");
    const expected = expectedCitations(actions);
    expect(expected.length).toBeGreaterThan(2 * 4096);
    expect(clause.citations).toEqual(expected);
    const monitor = judge.createMonitor({ id: "long" });
    for (const event of events) {
      // A check that would cite an `each` match, then the push: the list grows by one, is cut back, grows again.
      monitor.check({ id: `c-${event.id}`, actor: "agent", action: "grant" });
      monitor.push(event);
    }
    expect(await monitor.end({ complete: true })).toEqual(whole);
    // Unanswered at the end: the waiting tail, read across a chunk's edge.
    const open = [...actions.slice(0, -1), "grant", "grant"];
    const unanswered = (await judge.judgeTrajectory({ id: "open", complete: true, events: session(open) })) as TrajectoryJudgment;
    const falseClause = unanswered.metaBehaviors[0]!.clauses[0]!;
    expect(falseClause.verdict).toBe("false");
    let firstWaiting = open.length;
    while (firstWaiting > 0 && !isFollower(open[firstWaiting - 1]!)) firstWaiting--;
    const waiting = open.map((a, i) => (i >= firstWaiting && isEach(a) ? `e${i + 1}` : "")).filter((id) => id !== "");
    expect(falseClause.citations.map((c) => c.eventId)).toEqual(waiting);
  });

  test("CitationList: push, read, cut back and join across chunks", () => {
    const list = new CitationList();
    const made: Citation[] = [];
    const push = (k: number) => {
      const c = { eventId: `e${k}`, description: "d" };
      list.push(c);
      made.length = list.length - 1;
      made.push(c);
    };
    for (let k = 0; k < 4096; k++) push(k);
    expect(list.toArray()).toEqual(made);
    for (let k = 4096; k < 9000; k++) push(k);
    list.length = 4095; // a restore across the first chunk's edge
    for (let k = 0; k < 5000; k++) push(100_000 + k);
    expect(list.length).toBe(9095);
    for (const i of [0, 4094, 4095, 4096, 8191, 8192, 9094]) expect(list.at(i)).toBe(made[i]);
    const joined = list.toArray();
    expect(joined).toHaveLength(9095);
    expect(joined).toEqual(made);
    const short = new CitationList();
    short.push(made[0]!);
    short.push(made[1]!);
    short.length = 1;
    expect(short.toArray()).toEqual([made[0]]);
  });
});
