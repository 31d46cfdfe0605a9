/**
 * A monitor's `check(e)` against `push(e)` on a replica, event by event, for
 * each branch of the generated `check` methods (compiler/codegen/lower-check.ts):
 * an ordering whose `before` came before its trigger, an event that is both
 * `first` and `before`, a forbidden window opened by the event itself, counts
 * by a metadata key, by content, with a window and with none, rules that can
 * report nothing, and rules with extended checks (which save, step and restore).
 * At every point of a scripted session each event of the vocabulary is
 * checked, then the monitor must push, pend and end exactly as a replica that
 * was never checked: a check that wrote to the state is caught at the next push.
 */
import { beforeAll, describe, expect, test } from "vitest";
import type { BuiltJudge } from "../../compiler/run/load.js";
import { compileYaml, importBundled } from "../support/judges.js";

const YAML = `version: 1
behavior: check-branches
metaBehaviors:
  - name: ordering before its trigger
    trigger: { description: d, match: { action: pay } }
    checks:
      - { type: ordering, quote: look first, first: { action: look, metadata: { status: found } }, before: { action: { in: [prepare, pay] } } }
      - { type: forbidden, quote: no wipe once locked, match: { action: { in: [wipe, lock] } }, after: { action: lock } }
  - name: counts
    trigger: { description: d, match: { action: { in: [pay, prepare] } } }
    checks:
      - { type: count, quote: two orders at most, match: { action: pay }, max: 2, distinctBy: metadata.order }
      - { type: count, quote: two texts at most, match: { action: { in: [pay, note] } }, max: 2, distinctBy: content }
      - { type: count, quote: one note after a lock, match: { action: note }, max: 1, after: { action: lock } }
      - { type: count, quote: at most four looks, match: { action: look }, max: 4 }
      - { type: count, quote: at least one look, match: { action: look }, min: 1 }
      - { type: forbidden, quote: never wipe, match: { action: wipe } }
  - name: nothing certain before the end
    trigger: { description: d, match: { action: pay } }
    checks:
      - { type: pairing, quote: each pay noted, each: { action: pay }, followedBy: { action: note } }
      - { type: required, quote: a note after a lock, match: { action: note }, after: { action: lock } }
  - name: semantic
    trigger: { description: The agent is rude., semantic: true }
    checks:
      - { type: forbidden, quote: never wipe here either, match: { action: wipe } }
  - name: extended
    trigger: { description: d, match: { action: pay } }
    checks:
      - { type: ordering, quote: look at the same order, first: { action: look }, before: { action: pay }, on: metadata.order }
      - { type: count, quote: one pay per order, match: { action: pay }, per: metadata.order, max: 1 }
`;

type Event = { id: string; actor: string; action: string; content?: string; metadata?: Record<string, string> };

/** Every kind of event the rules above tell apart, under id `id`. */
function vocabulary(id: (k: number) => string): Event[] {
  const e = (action: string, content?: string, metadata?: Record<string, string>): Omit<Event, "id"> => ({
    actor: "agent",
    action,
    ...(content === undefined ? {} : { content }),
    ...(metadata === undefined ? {} : { metadata }),
  });
  const kinds = [
    e("message", "hello"),
    e("look", undefined, { status: "found", order: "A" }),
    e("look", undefined, { status: "missing", order: "B" }),
    e("prepare"),
    e("pay", "x", { order: "A" }),
    e("pay", "y", { order: "B" }),
    e("pay", "x"),
    e("pay", "z", { order: "C" }),
    e("note", "x"),
    e("note", "w"),
    e("lock"),
    e("wipe"),
  ];
  return kinds.map((kind, k) => ({ id: id(k), ...kind }));
}

/** Sessions that reach each branch: the ordering's `before` before the trigger, windows opened, keys repeated. */
const SESSIONS: string[][] = [
  ["prepare", "look", "pay", "pay", "note", "pay", "pay"],
  ["look", "pay", "wipe", "lock", "wipe", "note", "note", "pay", "pay"],
  ["lock", "note", "note", "pay", "look", "look", "look", "look", "look", "wipe"],
  ["pay", "note", "pay", "note", "prepare", "lock", "lock", "wipe", "pay"],
];

let judge: BuiltJudge;
beforeAll(async () => {
  judge = await importBundled((await compileYaml(YAML)).compiled);
});

/** The session's events: the vocabulary's first event of each action named, with its own id. */
function session(actions: readonly string[], variant: number): Event[] {
  return actions.map((action, k) => {
    const ofAction = vocabulary(() => `s${k}`).filter((e) => e.action === action);
    return ofAction[(k + variant) % ofAction.length]!;
  });
}

describe("check is push on a replica, and leaves no trace", () => {
  for (const [s, actions] of SESSIONS.entries()) {
    for (const variant of [0, 1, 2]) {
      test(`session ${s}, variant ${variant}`, async () => {
        const events = session(actions, variant);
        const monitor = judge.createMonitor({ id: "m" });
        for (let k = 0; k <= events.length; k++) {
          // Every kind of event, checked here; each answer must be what pushing it would report.
          for (const candidate of vocabulary((i) => `c${k}_${i}`)) {
            const replica = judge.createMonitor({ id: "m" });
            for (let i = 0; i < k; i++) replica.push(events[i]!);
            const would = monitor.check(candidate);
            expect(JSON.stringify(would), `${candidate.action} ${JSON.stringify(candidate)} after ${k}`).toBe(
              JSON.stringify(replica.push(candidate)),
            );
          }
          if (k === events.length) break;
          const replica = judge.createMonitor({ id: "m" });
          for (let i = 0; i < k; i++) replica.push(events[i]!);
          expect(JSON.stringify(monitor.pending())).toBe(JSON.stringify(replica.pending()));
          expect(JSON.stringify(monitor.push(events[k]!))).toBe(JSON.stringify(replica.push(events[k]!)));
        }
        const end = await monitor.end({ complete: true });
        const judged = await judge.judgeTrajectory({ id: "m", complete: true, events });
        expect(JSON.stringify(end)).toBe(JSON.stringify(judged));
      });
    }
  }

  test("the sessions report every kind of violation the rules can make", () => {
    const seen = new Set<string>();
    for (const actions of SESSIONS)
      for (const variant of [0, 1, 2]) {
        const monitor = judge.createMonitor({ id: "m" });
        for (const e of session(actions, variant)) for (const v of monitor.push(e)) seen.add(v.quote);
      }
    expect([...seen].sort()).toEqual(
      [
        "look first",
        "no wipe once locked",
        "two orders at most",
        "two texts at most",
        "one note after a lock",
        "at most four looks",
        "never wipe",
        "look at the same order",
        "one pay per order",
      ].sort(),
    );
  });
});
