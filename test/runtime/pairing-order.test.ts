/**
 * A pairing's citations of a true clause: each follower right after the first match it answers
 * (runtime/checks.ts, inCitationOrder). A judge since round 16 of docs/SPEED.md skips the order
 * pass when every follower answered one match; these sessions hold it to the oracle where a
 * follower answers two or three, where a follower is also an `each` match (carried), and where
 * every follower answers one.
 */
import { expect, test } from "vitest";
import { oracleJudge } from "../oracle/evaluate.js";
import { compileYaml, importBundled } from "../support/judges.js";

const YAML = `version: 1
behavior: pairing-order
metaBehaviors:
  - name: Every request answered
    trigger:
      description: A request.
      match:
        action: ask
    checks:
      - type: pairing
        quote: every request is answered later
        each:
          - action: ask
          - action: answer
            metadata:
              again: "yes"
        followedBy:
          action: answer
`;

/** A session of these actions (`answer+` is an answer that is also an `each` match). */
const session = (id: string, actions: string[]) => ({
  id,
  description: `pairing order: ${actions.join(" ")}`,
  complete: true,
  events: actions.map((a, i) =>
    a === "answer+"
      ? { id: `e${i + 1}`, actor: "agent" as const, action: "answer", metadata: { again: "yes" } }
      : { id: `e${i + 1}`, actor: "agent" as const, action: a },
  ),
});

const SESSIONS = [
  session("one-each", ["ask", "answer", "ask", "answer", "ask", "answer"]),
  session("two-then-one", ["ask", "ask", "answer", "ask", "answer"]),
  session("one-then-three", ["ask", "answer", "ask", "note", "ask", "ask", "answer"]),
  session("carried-one", ["ask", "answer+", "answer"]),
  session("carried-two", ["ask", "ask", "answer+", "ask", "answer", "ask", "answer"]),
  session("carried-then-one", ["ask", "answer+", "answer", "ask", "answer"]),
];

test("a pairing cites each follower after the first match it answers, moved or not", async () => {
  const { ir, compiled } = await compileYaml(YAML);
  const judge = await importBundled(compiled);
  for (const trajectory of SESSIONS) {
    const [actual] = (await judge.judgeTrajectory(trajectory)).metaBehaviors[0]!.clauses;
    const [expected] = oracleJudge(ir, trajectory).metaBehaviors[0]!.clauses;
    expect(actual!.verdict, trajectory.id).toBe("true");
    // The oracle describes events its own way; the order is in the ids.
    const ids = (citations: readonly { eventId: string }[]) => citations.map((c) => c.eventId);
    expect(ids(actual!.citations), trajectory.id).toEqual(ids(expected!.citations));
  }
});
