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
      const last = actions.findLastIndex(isEach);
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
});
