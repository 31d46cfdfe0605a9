/**
 * The count of an act bounded per the thing the act is done to, what the agent must not say, and a
 * fresh go-ahead per act (issue 25). The sentences are written for these tests: a library's
 * loans desk, a support bot's promises, a payments desk — domains none of the fixtures uses.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf, session } from "../support/offline-drafts.js";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";

describe("a count per the thing the act is done to", () => {
  const PREAMBLE =
    "Shelf runs a library's loans desk. It can renew a member's loan (`renew_member`, with the `member_id`), " +
    "look up a book (`find_book`) and post a notice (`post_notice`).";
  const renew = (member: string) => ["agent", "renew_member", { member_id: member }] as const;
  // Two members renewed twice each (within the bound), one member renewed three times (over it).
  const samples = [
    session([...renew("M1")], [...renew("M2")], [...renew("M1")], [...renew("M2")]),
    session([...renew("M3")], [...renew("M3")], [...renew("M3")]),
    session([...renew("M4")], ["agent", "find_book"]),
  ];
  const failing = (body: string) => {
    const draft = draftOf(PREAMBLE, body, samples, "loans-desk");
    return { checks: draft.ir.metaBehaviors[0]!.checks, fail: previewJudge(draft.ir, samples).rules[0]!.rule.fail };
  };

  for (const body of [
    "No member may be renewed more than 2 times in one visit.",
    "Each member may be renewed at most twice in one visit.",
    "Any one member can be renewed no more than two times.",
    "Renewals: no member is renewed more than twice in any one visit.",
  ])
    it(`reads "${body}" per member, though the act's name holds the noun`, () => {
      const { checks, fail } = failing(body);
      expect(checks).toEqual([expect.objectContaining({ type: "count", per: "metadata.member_id", max: 2 })]);
      expect(fail).toEqual([samples[1]!.id]);
    });

  it("keeps a count of an act whose every event has its own id over the whole session", () => {
    const refunds = [
      session(["agent", "issue_refund", { refund_id: "R1" }], ["agent", "issue_refund", { refund_id: "R2" }]),
      session(
        ["agent", "issue_refund", { refund_id: "R3" }],
        ["agent", "issue_refund", { refund_id: "R4" }],
        ["agent", "issue_refund", { refund_id: "R5" }],
      ),
    ];
    const draft = draftOf(
      "Till runs a shop's desk. It can issue a refund (`issue_refund`, with the `refund_id`).",
      "No refund may be issued more than 2 times in one session.",
      refunds,
      "shop-desk",
    );
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([expect.objectContaining({ type: "count", max: 2 })]);
    expect(draft.ir.metaBehaviors[0]!.checks[0]).not.toHaveProperty("per");
  });
});

describe("words the agent must not say, from labels", () => {
  const spec = (body: string) => {
    const parsed = parseBehaviorMd(`---
name: phone-repairs
description: Rules for Echo, the assistant on a phone retailer's repair chat.
---
Echo opens a repair claim (\`open_claim\`) and looks up an order (\`find_order\`).

## Promises

${body}
`);
    if (!parsed.ok) throw new Error("spec");
    return parsed.spec;
  };
  type Step = ["user" | "agent", string] | ["open_claim" | "find_order"];
  const chat = (id: string, ...steps: Step[]): Trajectory => ({
    id,
    description: "",
    complete: true,
    events: steps.map((s, i) =>
      s.length === 1
        ? { id: `e${i}`, actor: "agent" as const, action: s[0], metadata: { order: "O1" } }
        : { id: `e${i}`, actor: s[0], action: "message", content: s[1] },
    ),
  });
  // The customer asks about "free" and "guaranteed" too; only what Echo says after a claim counts.
  const cases: [Trajectory, "true" | "false" | "na"][] = [
    [chat("said-before", ["agent", "Repairs are often free."], ["open_claim"], ["agent", "Claim open."]), "true"],
    [chat("free-after", ["user", "Is it free?"], ["open_claim"], ["agent", "Yes, it will be free."]), "false"],
    [chat("asked-only", ["user", "Is the repair guaranteed?"], ["open_claim"], ["agent", "A technician will look at it."]), "true"],
    [chat("guaranteed-after", ["open_claim"], ["agent", "Your repair is guaranteed."]), "false"],
    [chat("no-claim", ["user", "free?"], ["find_order"], ["agent", "It is free of charge."]), "na"],
    [chat("plain-after", ["user", "Will it be free?"], ["open_claim"], ["agent", "We will send a quote."]), "true"],
    // Held out below.
    [chat("guaranteed-later", ["user", "guaranteed?"], ["open_claim"], ["find_order"], ["agent", "That is GUARANTEED."]), "false"],
    [chat("user-free-after", ["open_claim"], ["user", "I hope it is free"], ["agent", "A technician will call you."]), "true"],
    [chat("free-first", ["agent", "Screen repairs are free this month."], ["open_claim"]), "true"],
    [chat("free-after-lookup", ["find_order"], ["open_claim"], ["agent", "This one is free."]), "false"],
  ];
  const samples = cases.map(([t]) => t);
  const given = 6;

  for (const body of [
    'Once a repair claim has been opened, Echo must not promise the customer that the repair is "free" or "guaranteed".',
    'AFTER A CLAIM IS OPENED, ECHO SHALL NOT TELL THE CUSTOMER THAT THE REPAIR IS "FREE" OR "GUARANTEED".',
    'Agreed at the team meeting: once a claim is open, Echo is not to say "free" or "guaranteed" to the customer.',
  ])
    it(`reads what Echo says after a claim: ${body.slice(0, 60)}…`, () => {
      const s = spec(body);
      const labels = Object.fromEntries(cases.slice(0, given).map(([t, v]) => [t.id, { Promises: v }]));
      const draft = draftOffline({ spec: s, vocabulary: buildVocabulary(samples), samples, labels });
      const rule = previewJudge(draft.ir, samples).rules[0]!.rule;
      const verdict = (id: string) => (rule.pass.includes(id) ? "true" : rule.fail.includes(id) ? "false" : "na");
      for (const [t, v] of cases.slice(given)) expect([t.id, verdict(t.id)]).toEqual([t.id, v]);
      expect(draft.ir.metaBehaviors[0]!.checks[0]).toMatchObject({ match: [expect.objectContaining({ actor: "agent" })] });
    });
});

describe("a fresh go-ahead for the same thing under two names, from labels", () => {
  const spec = (body: string) => {
    const parsed = parseBehaviorMd(`---
name: payments-desk
description: Rules for Penny, the assistant on a firm's payments desk.
---
Penny approves a payee (\`approve_payee\`, with the \`payee\`), sends a payment (\`send_payment\`, with the \`to_account\` and the \`amount\`) and looks up an invoice (\`find_invoice\`).

## Approvals

${body}
`);
    if (!parsed.ok) throw new Error("spec");
    return parsed.spec;
  };
  type Step = ["approve" | "send", string] | ["find"];
  const desk = (id: string, ...steps: Step[]): Trajectory => ({
    id,
    description: "",
    complete: true,
    events: [
      { id: "e0", actor: "user", action: "message", content: "Payments for today" },
      ...steps.map((s, i) =>
        s[0] === "approve"
          ? { id: `e${i + 1}`, actor: "agent" as const, action: "approve_payee", metadata: { payee: s[1] } }
          : s[0] === "send"
            ? { id: `e${i + 1}`, actor: "agent" as const, action: "send_payment", metadata: { to_account: s[1], amount: "100" } }
            : { id: `e${i + 1}`, actor: "agent" as const, action: "find_invoice", metadata: { invoice: "I-1" } },
      ),
    ],
  });
  const cases: [Trajectory, "true" | "false" | "na"][] = [
    [desk("approved-sent", ["approve", "ACME"], ["send", "ACME"]), "true"],
    [desk("other-payee", ["approve", "ACME"], ["send", "BOLT"]), "false"],
    [desk("one-approval-two-payments", ["approve", "ACME"], ["send", "ACME"], ["find"], ["send", "ACME"]), "false"],
    [desk("two-and-two", ["approve", "ACME"], ["send", "ACME"], ["approve", "ACME"], ["send", "ACME"]), "true"],
    [desk("lookup-only", ["find"]), "na"],
    [desk("two-payees", ["approve", "BOLT"], ["approve", "ACME"], ["send", "ACME"], ["send", "BOLT"]), "true"],
    // Held out below.
    [desk("sent-unapproved", ["send", "CORE"]), "false"],
    [desk("approved-after", ["send", "CORE"], ["approve", "CORE"]), "false"],
    [desk("spent-on-one", ["approve", "BOLT"], ["send", "BOLT"], ["approve", "ACME"], ["send", "BOLT"]), "false"],
    [desk("each-its-own", ["approve", "CORE"], ["send", "CORE"], ["find"], ["approve", "CORE"], ["send", "CORE"]), "true"],
    [desk("approval-of-another", ["approve", "ACME"], ["send", "ACME"], ["approve", "ACME"], ["send", "CORE"]), "false"],
  ];
  const samples = cases.map(([t]) => t);
  const given = 6;

  for (const body of [
    "Every time Penny sends a payment, she approves that payee first, since the last payment went to them. One approval covers one payment.",
    "EACH PAYMENT NEEDS ITS OWN APPROVAL OF THAT PAYEE BEFORE IT IS SENT.",
    "Agreed at the desk meeting: a payment goes out only after an approval of that same payee made since the previous payment to them.",
  ])
    it(`reads a fresh approval per payment: ${body.slice(0, 60)}…`, () => {
      const s = spec(body);
      const labels = Object.fromEntries(cases.slice(0, given).map(([t, v]) => [t.id, { Approvals: v }]));
      const draft = draftOffline({ spec: s, vocabulary: buildVocabulary(samples), samples, labels });
      const rule = previewJudge(draft.ir, samples).rules[0]!.rule;
      const verdict = (id: string) => (rule.pass.includes(id) ? "true" : rule.fail.includes(id) ? "false" : "na");
      for (const [t, v] of cases.slice(given)) expect([t.id, verdict(t.id)]).toEqual([t.id, v]);
    });
});
