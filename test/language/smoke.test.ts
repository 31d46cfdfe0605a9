import { describe, expect, test } from "vitest";
import { compileYaml, importBundled } from "../support/judges.js";

const YAML = `version: 1
behavior: airline
metaBehaviors:
  - name: Refunds over 500 need approval
    trigger: { description: a refund, match: { action: issue_refund } }
    checks:
      - type: ordering
        quote: a refund over $500 needs approval
        first: { action: approve }
        before: { action: issue_refund, metadata: { amount: { gt: 500 } } }
        on: metadata.order_id
  - name: Fresh confirmation
    trigger: { description: a write, match: { action: write } }
    checks:
      - type: ordering
        quote: a fresh yes before every write
        first: { actor: user, content: { matches: "^(yes|y)$", flags: i } }
        before: { action: write }
        fresh: true
  - name: Cancel refundable only
    trigger: { description: a cancellation, match: { action: cancel_reservation } }
    checks:
      - type: condition
        quote: can be cancelled only if travel insurance is bought
        each: { action: cancel_reservation }
        with:
          r: { latest: { action: get_reservation_details_result }, on: metadata.reservation_id }
        when: r.cabin == "business" || r.insurance == "yes"
  - name: One tool call per turn
    trigger: { description: any call, match: { actor: agent } }
    checks:
      - type: count
        quote: at most one tool call per turn
        match: { actor: agent, metadata: { "@turn": { exists: true } } }
        per: metadata.@turn
        max: 1
      - type: pairing
        quote: every lookup is answered next
        each: { action: lookup }
        followedBy: { action: lookup_result }
        within: 1
`;

const events = (list: [string, string, string?, Record<string, string>?][]) =>
  list.map(([id, actor, action, metadata], i) => ({
    id,
    actor,
    action: action ?? "say",
    ...(metadata ? { metadata } : {}),
    content: i === 1 ? "YES" : "",
  }));

describe("extended rule language, end to end", () => {
  test("each form judges a small trajectory", async () => {
    const { compiled } = await compileYaml(YAML);
    const judge = await importBundled(compiled);
    const t = {
      id: "t1",
      complete: true,
      events: events([
        ["e1", "user", "ask"],
        ["e2", "user", "confirm"],
        ["e3", "agent", "write", { "@turn": "1" }],
        ["e4", "agent", "write", { "@turn": "2" }],
        ["e5", "agent", "get_reservation_details", { "@turn": "3", reservation_id: "R1" }],
        ["e6", "tool", "get_reservation_details_result", { reservation_id: "R1", cabin: "economy", insurance: "no" }],
        ["e7", "agent", "cancel_reservation", { "@turn": "4", reservation_id: "R1" }],
        ["e8", "agent", "issue_refund", { "@turn": "4", amount: "600", order_id: "O1" }],
        ["e9", "agent", "lookup", { "@turn": "5" }],
        ["e10", "agent", "say"],
      ]),
    };
    const j = await judge.judgeTrajectory(t);
    const summary = j.metaBehaviors.map((m) => [
      m.name,
      m.verdict,
      m.clauses.map((c) => [c.verdict, c.citations.map((x) => x.eventId), c.explanation]),
    ]);
    console.log(JSON.stringify(summary, null, 1));
    expect(j.metaBehaviors.map((m) => m.verdict)).toEqual(["false", "false", "false", "false"]);
  });
});
