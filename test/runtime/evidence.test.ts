/**
 * What a false clause found (issue 24, "the evidence"): for an ordering, the
 * `before` event and the earlier events that came closest (the same action as
 * `first`, other fields); for forbidden and count, the matches with the fields
 * their pattern tests. Carried in the judgment as `found`, so every report and
 * the monitor's end() show the same, and checked in both ways a judge is loaded.
 */
import { describe, expect, test } from "vitest";
import { eventFacts } from "../../runtime/evidence.js";
import { compileYaml, importBundled, importGeneratedTs } from "../support/judges.js";

const YAML = `version: 1
behavior: evidence
metaBehaviors:
  - name: Verify before refund
    trigger:
      description: A refund.
      match:
        action: issue_refund
    checks:
      - type: ordering
        quote: the identity is verified before a refund
        first:
          actor: tool
          action: verify_identity_result
          metadata:
            status: verified
        before:
          action: issue_refund
  - name: No large refunds
    trigger:
      description: Any refund.
      match:
        action: issue_refund
    checks:
      - type: forbidden
        quote: no refund over 500
        match:
          action: issue_refund
          metadata:
            amount:
              gt: 500
      - type: count
        quote: at most one refund
        match:
          action: issue_refund
        max: 1
      - type: count
        quote: three distinct lookups
        match:
          action: lookup
        min: 3
        distinctBy: metadata.order
`;

const event = (id: string, actor: string, action: string, metadata?: Record<string, string>, content?: string) => ({
  id,
  actor,
  action,
  ...(content === undefined ? {} : { content }),
  ...(metadata === undefined ? {} : { metadata }),
});

const TRAJECTORY = {
  id: "t1",
  complete: true,
  events: [
    event("e1", "user", "message", undefined, "refund please"),
    event("e2", "agent", "verify_identity", { user: "u1" }),
    event("e3", "tool", "verify_identity_result", { status: "failed" }),
    event("e4", "agent", "lookup", { order: "A" }),
    event("e5", "tool", "verify_identity_result", { status: "timeout" }),
    event("e6", "tool", "verify_identity_result"),
    event("e7", "agent", "verify_identity_result", { status: "verified" }),
    event("e8", "agent", "issue_refund", { amount: "900" }),
    event("e9", "tool", "verify_identity_result", { status: "verified" }),
    event("e10", "agent", "issue_refund", { amount: "20" }),
    event("e11", "agent", "issue_refund", { amount: "700" }),
  ],
};

const FOUND = {
  ordering:
    'before issue_refund at e8: verify_identity_result at e3 with actor tool, status "failed"; verify_identity_result at e5 with actor tool, status "timeout"; verify_identity_result at e6 with actor tool, no status (and 1 more)',
  forbidden: 'issue_refund at e8 with amount "900"; issue_refund at e11 with amount "700"',
  countMax: "3 counted, at most 1: issue_refund at e8; issue_refund at e10; issue_refund at e11",
  countMin: 'only 1 counted, at least 3: lookup at e4 with order "A"',
};

describe.each([
  ["judge.mjs", importBundled],
  ["judge.ts", importGeneratedTs],
] as const)("%s", (_, load) => {
  test("each false clause says what it found, after what it expected", async () => {
    const judge = await load((await compileYaml(YAML)).compiled);
    const judgment = await judge.judgeTrajectory(TRAJECTORY);
    const [ordering] = judgment.metaBehaviors[0]!.clauses;
    const [forbidden, countMax, countMin] = judgment.metaBehaviors[1]!.clauses;
    expect(ordering!.found).toBe(FOUND.ordering);
    expect(forbidden!.found).toBe(FOUND.forbidden);
    expect(countMax!.found).toBe(FOUND.countMax);
    expect(countMin!.found).toBe(FOUND.countMin);
    // `found` comes after `explanation` (what was expected), in the JSON too.
    expect(Object.keys(ordering!).slice(-2)).toEqual(["explanation", "found"]);
  });

  test("with no event of the same action before it, the ordering says so; a passing clause has no `found`", async () => {
    const judge = await load((await compileYaml(YAML)).compiled);
    const judgment = await judge.judgeTrajectory({
      id: "t2",
      complete: true,
      events: [event("e1", "agent", "issue_refund", { amount: "10" })],
    });
    const [ordering] = judgment.metaBehaviors[0]!.clauses;
    expect(ordering!.found).toBe("before issue_refund at e1: no verify_identity_result");
    const [forbidden, countMax] = judgment.metaBehaviors[1]!.clauses;
    expect(forbidden!.verdict).toBe("true");
    expect(forbidden).not.toHaveProperty("found");
    expect(countMax).not.toHaveProperty("found");
  });

  test("the monitor's end() finds the same, with no model to keep events for", async () => {
    const judge = await load((await compileYaml(YAML)).compiled);
    const monitor = judge.createMonitor({ id: "t1" });
    // check() steps an event and goes back: a near miss it saw must not stay.
    for (const e of TRAJECTORY.events.slice(0, 6)) monitor.push(e);
    monitor.check(event("e99", "tool", "verify_identity_result", { status: "x" }));
    for (const e of TRAJECTORY.events.slice(6)) monitor.push(e);
    expect(await monitor.end({ complete: true })).toEqual(await judge.judgeTrajectory(TRAJECTORY));
  });
});

/** eventFacts as first written (JSON.stringify for every value, a list joined): the definition the fast path keeps to. */
function factsByDefinition(
  e: { id: string; actor: string; action: string; content?: string | undefined; metadata?: Record<string, string> | undefined },
  fields: readonly string[],
): string {
  const quoted = (value: string, max: number) => {
    const flat = JSON.stringify(value);
    return flat.length > max + 2 ? `${flat.slice(0, max + 1)}…"` : flat;
  };
  const facts: string[] = [];
  for (const field of fields) {
    if (field === "actor") facts.push(`actor ${e.actor}`);
    else if (field === "content") facts.push(`content ${quoted(e.content ?? "", 60)}`);
    else {
      const key = field.slice("metadata.".length);
      const value = e.metadata !== undefined && Object.hasOwn(e.metadata, key) ? e.metadata[key] : undefined;
      facts.push(typeof value === "string" ? `${key} ${quoted(value, 60)}` : `no ${key}`);
    }
  }
  return `${e.action} at ${e.id}${facts.length === 0 ? "" : ` with ${facts.join(", ")}`}`;
}

test("an event's description quotes values as JSON.stringify does, clipped at 60 characters", () => {
  // Characters JSON escapes or that sit at the clip: quotes, backslashes, controls, surrogates paired and not.
  const alphabet = ["a", "é", "€", '"', "\\", "\n", "\u0001", "\u001f", " ", "😀", "\ud800", "\udc00", "\u2028", "z"];
  // Park–Miller: exact in doubles, and its high digits vary where an LCG's low bits cycle.
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 48271) % 2147483647;
    return Math.floor((seed / 2147483647) * n);
  };
  const text = () =>
    Array.from({ length: next(3) === 0 ? next(80) : 55 + next(10) }, () => alphabet[next(next(2) === 0 ? 2 : alphabet.length)]).join("");
  const fieldSets = [[], ["actor"], ["content"], ["metadata.k"], ["metadata.missing", "actor", "content", "metadata.k"]];
  for (let i = 0; i < 3000; i++) {
    const e = {
      id: `e${i}`,
      actor: "tool",
      action: "a",
      content: next(4) === 0 ? undefined : text(),
      metadata: next(4) === 0 ? undefined : { k: text() },
    };
    for (const fields of fieldSets) expect(eventFacts(e, fields)).toBe(factsByDefinition(e, fields));
  }
  // An inherited member is not the event's value, and `toString` is no string.
  expect(eventFacts({ id: "e1", actor: "agent", action: "a", metadata: {} }, ["metadata.toString"])).toBe("a at e1 with no toString");
});
