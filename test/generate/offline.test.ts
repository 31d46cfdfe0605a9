/**
 * The offline drafter: the checks it proposes for each wording, and how many
 * of the hand-written checks of the examples it reproduces (same type, same
 * patterns up to list order, same bounds). `node bench/offline-drafter.js`
 * prints the same figures per check.
 */
import { describe, expect, it } from "vitest";
import { compareChecks, comparePrecision } from "../support/compare.js";
import { agentNames, draftOffline } from "../../compiler/generate/offline/draft.js";
import { buildVocabulary, vocabularyNames } from "../../compiler/generate/vocabulary.js";
import { quoteOccurs } from "../../compiler/generate/offline/words.js";
import { parseJudgeYaml } from "../../compiler/ir/parse.js";
import { serializeJudgeYaml } from "../../compiler/ir/serialize.js";
import type { Check, MetaBehavior } from "../../compiler/ir/types.js";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import { EXAMPLE_DIRS, HELD_OUT_DIRS, loadReferenceCase } from "./drafting-fixtures.js";

const examples = EXAMPLE_DIRS.map(loadReferenceCase);
const heldOut = HELD_OUT_DIRS.map(loadReferenceCase);

function figure(cases: typeof examples) {
  let total = 0;
  let strict = 0;
  let lenient = 0;
  for (const c of cases) {
    const draft = draftOffline({ spec: c.spec, vocabulary: c.vocabulary, samples: c.samples });
    const result = compareChecks(c.reference, draft.ir, c.vocabulary);
    total += result.total;
    strict += result.strict;
    lenient += result.lenient;
  }
  return { total, strict, lenient };
}

describe("the mapping figure", () => {
  it("reproduces at least 13 of the 14 hand-written checks of the three examples (14 when a redundant actor is ignored)", () => {
    // Floors: a change that maps fewer checks fails here; raise them when the drafter improves.
    expect(figure(examples)).toEqual({ total: 14, strict: 13, lenient: 14 });
  });

  it("keeps its figure on the three specs written later to test it (17 of 18)", () => {
    const result = figure(heldOut);
    expect(result.total).toBe(18);
    expect(result.strict).toBeGreaterThanOrEqual(17);
  });

  it("says what the figure leaves out: drafted checks no hand-written one matches, and triggers", () => {
    const precision = (cases: typeof examples) =>
      cases
        .map((c) =>
          comparePrecision(c.reference, draftOffline({ spec: c.spec, vocabulary: c.vocabulary, samples: c.samples }).ir, c.vocabulary),
        )
        .reduce((a, p) => ({ extra: a.extra + p.extraChecks.length, triggers: a.triggers + p.triggers, same: a.same + p.sameTriggers }), {
          extra: 0,
          triggers: 0,
          same: 0,
        });
    expect(precision(examples)).toEqual({ extra: 0, triggers: 11, same: 10 });
    expect(precision(heldOut)).toEqual({ extra: 1, triggers: 16, same: 16 });
  });
});

describe("every draft", () => {
  for (const c of [...examples, ...heldOut]) {
    it(`${c.name}: quotes are verbatim, every rule has a trigger and its section as source, and the yaml checks against the samples`, () => {
      const draft = draftOffline({ spec: c.spec, vocabulary: c.vocabulary, samples: c.samples });
      expect(draft.ir.metaBehaviors.map((r) => r.name)).toEqual(c.spec.sections.map((s) => s.heading));
      draft.ir.metaBehaviors.forEach((rule, i) => {
        const body = c.spec.sections[i]!.body;
        expect(rule.source).toBe(body);
        for (const clause of [...rule.checks, ...rule.semanticChecks]) expect(quoteOccurs(clause.quote, body), clause.quote).toBe(true);
        expect(rule.checks.length + rule.semanticChecks.length).toBeGreaterThan(0);
      });
      const parsed = parseJudgeYaml(serializeJudgeYaml(draft.ir), { vocabulary: vocabularyNames(c.vocabulary) });
      expect(parsed.ok && parsed.ir).toEqual(draft.ir);
      expect(draftOffline({ spec: c.spec, vocabulary: c.vocabulary, samples: c.samples })).toEqual(draft);
    });
  }
});

/** A small world: tests, deploys, updates, rollbacks, user turns. */
const samples = [
  validateTrajectory({
    id: "s",
    complete: true,
    events: [
      { id: "e1", actor: "user", action: "message", content: "Ship it, then stop if anything looks odd." },
      { id: "e2", actor: "agent", action: "run_tests" },
      { id: "e3", actor: "tool", action: "run_tests_result", metadata: { status: "passed" } },
      { id: "e4", actor: "tool", action: "run_tests_result", metadata: { status: "failed" } },
      { id: "e5", actor: "agent", action: "deploy", metadata: { env: "staging", build: "b1" } },
      { id: "e6", actor: "agent", action: "deploy", metadata: { env: "production", build: "b2" } },
      { id: "e7", actor: "agent", action: "post_update", content: "Deploy of b2 finished." },
      { id: "e8", actor: "agent", action: "rollback", metadata: { env: "production" } },
      { id: "e9", actor: "agent", action: "delete_database" },
    ],
  }),
];
const vocabulary = buildVocabulary(samples);

function draftRule(body: string): MetaBehavior {
  const parsed = parseBehaviorMd(`---\nname: deploys\ndescription: Deploy rules.\n---\n\n## Rule\n\n${body}\n`);
  if (!parsed.ok) throw new Error("bad test spec");
  return draftOffline({ spec: parsed.spec, vocabulary, samples }).ir.metaBehaviors[0]!;
}

function checksOf(body: string): Omit<Check, "quote">[] {
  return draftRule(body).checks.map(({ quote: _quote, ...rest }) => rest);
}

describe("wordings the drafter maps", () => {
  it.each([
    ["X before Y", "The agent runs the tests, and the tests pass, before it deploys."],
    ["Before Y, X", "Before it deploys, the agent runs the tests and they pass."],
    ["Y only after X", "The agent deploys only after the tests have passed."],
    ["first X, then Y", "First the tests pass, then the agent deploys."],
    ["no Y until X", "No deploy may happen until the tests have passed."],
  ])("ordering: %s", (_shape, body) => {
    expect(checksOf(body)).toEqual([
      { type: "ordering", first: [{ action: "run_tests_result", metadata: { status: "passed" } }], before: [{ action: "deploy" }] },
    ]);
  });

  it.each([
    ["never", "The agent never deletes the database."],
    ["must not", "The agent must not delete the database."],
  ])("forbidden: %s", (_cue, body) => {
    expect(checksOf(body)).toEqual([{ type: "forbidden", match: [{ action: "delete_database" }] }]);
  });

  it("forbidden after a window: After X, no further Y", () => {
    expect(checksOf("After the agent rolls back, it makes no further deploys to production.")).toEqual([
      { type: "forbidden", match: [{ action: "deploy", metadata: { env: "production" } }], after: [{ action: "rollback" }] },
    ]);
  });

  it("forbidden, but conditional on the object: a semantic question, never a plain pattern", () => {
    const rule = draftRule("The agent never deploys a build that has not passed the tests.");
    expect(rule.checks).toEqual([]);
    expect(rule.semanticChecks.map((c) => c.quote)).toEqual(["The agent never deploys a build that has not passed the tests"]);
  });

  it("pairing in the passive: every X is Y-ed afterwards", () => {
    expect(checksOf("Every production deploy is rolled back afterwards.")).toEqual([
      { type: "pairing", each: [{ action: "deploy", metadata: { env: "production" } }], followedBy: [{ action: "rollback" }] },
    ]);
  });

  it("count: at most N, and at least N different (by content)", () => {
    expect(checksOf("The agent deploys to production at most two times.")).toEqual([
      { type: "count", match: [{ action: "deploy", metadata: { env: "production" } }], max: 2 },
    ]);
    expect(checksOf("The agent posts at least two different updates.")).toEqual([
      { type: "count", match: [{ action: "post_update" }], min: 2, distinctBy: "content" },
    ]);
    expect(checksOf("The agent deploys at least two distinct builds.")).toEqual([
      { type: "count", match: [{ action: "deploy" }], min: 2, distinctBy: "metadata.build" },
    ]);
  });

  it("pairing: after each X, Y; whenever X, afterwards Y", () => {
    const pairing = [{ type: "pairing", each: [{ action: "deploy" }], followedBy: [{ action: "post_update" }] }];
    expect(checksOf("After each deploy, the agent posts an update.")).toEqual(pairing);
    expect(checksOf("Whenever the agent deploys, it afterwards posts an update.")).toEqual(pairing);
  });

  it("required: always, must; and a reported phrase becomes contentIncludes", () => {
    expect(checksOf("The agent always runs the tests.")).toEqual([{ type: "required", match: [{ action: "run_tests" }] }]);
    expect(checksOf("The agent must post an update saying the deploy finished.")).toEqual([
      { type: "required", match: [{ action: "post_update", contentIncludes: "finished" }] },
    ]);
  });

  it("turns a clause it cannot map into a semantic question quoting it, with a note", () => {
    const rule = draftRule("The agent must be polite to the customer.");
    expect(rule.checks).toEqual([]);
    expect(rule.semanticChecks).toEqual([
      {
        quote: "The agent must be polite to the customer",
        question: expect.stringContaining('"The agent must be polite to the customer"'),
      },
    ]);
    expect(rule.semanticChecks[0]!.question).toMatch(/^Judging by this session, did the agent do what this requires/);
  });

  it("phrases a forbidding clause it cannot map so that yes means the rule held", () => {
    const rule = draftRule("Guessing the customer's address is a violation.");
    expect(rule.semanticChecks[0]!.question).toMatch(/did the agent avoid what this forbids/);
  });

  it("gives a semantic trigger when no event marks the situation, and a match trigger when one does", () => {
    expect(draftRule("If the customer has not said which plan they want, the agent must be polite to the customer.").trigger.semantic).toBe(
      true,
    );
    expect(draftRule("Each deploy is one occurrence.\n\nThe agent always runs the tests.").trigger).toEqual({
      description: "Each deploy is one occurrence.",
      match: [{ action: "deploy" }],
    });
  });

  it("skips rationale and qualifying sentences", () => {
    const rule = draftRule(
      "The agent always runs the tests. A run that is skipped does not count.\n\n**Why:** Before anything else, the agent must be careful.",
    );
    expect(rule.checks).toHaveLength(1);
    expect(rule.semanticChecks).toEqual([]);
  });

  it("drafts nothing from a fenced example or a commented-out clause", () => {
    const rule = draftRule(
      "The agent always runs the tests.\n\n~~~\n```\nThe agent never deploys.\n~~~\n\n<!--\nThe agent never pings the pager.\n-->",
    );
    expect(rule.checks).toHaveLength(1);
    expect(rule.semanticChecks).toEqual([]);
  });

  it("only proposes names the samples show", () => {
    const rule = draftRule("The agent always pings the pager before it deploys.");
    for (const check of rule.checks)
      for (const m of Object.values(check).flat())
        if (typeof m === "object" && m !== null && "action" in m) expect(vocabulary.actions.map((a) => a.action)).toContain(m.action);
  });
});

/** Wordings of the held-out-2026 specs' kind (issue 14), in a world of their own. */
describe("wordings the drafter maps: results named by their value, 'no X', 'without', 'once', complements", () => {
  const world = [
    validateTrajectory({
      id: "w",
      complete: true,
      events: [
        { id: "e1", actor: "user", action: "message", content: "Please erase my data; I appeal the ban." },
        { id: "e2", actor: "agent", action: "verify_identity" },
        { id: "e3", actor: "tool", action: "verify_identity_result", metadata: { status: "verified" } },
        { id: "e4", actor: "tool", action: "verify_identity_result", metadata: { status: "failed" } },
        { id: "e5", actor: "agent", action: "check_legal_hold" },
        { id: "e6", actor: "tool", action: "check_legal_hold_result", metadata: { status: "hold" } },
        { id: "e7", actor: "tool", action: "check_legal_hold_result", metadata: { status: "none" } },
        { id: "e8", actor: "agent", action: "erase_records" },
        { id: "e9", actor: "agent", action: "send_email" },
        { id: "e10", actor: "tool", action: "classify_message_result", metadata: { label: "appeal" } },
        { id: "e11", actor: "tool", action: "classify_message_result", metadata: { label: "question" } },
        { id: "e12", actor: "agent", action: "assign_moderator" },
        { id: "e13", actor: "agent", action: "fetch_thread" },
        { id: "e14", actor: "agent", action: "remove_post" },
        { id: "e15", actor: "agent", action: "send_warning" },
        { id: "e16", actor: "agent", action: "ban_user" },
        { id: "e17", actor: "agent", action: "request_consent" },
      ],
    }),
  ];
  const worldVocabulary = buildVocabulary(world);
  function checks(body: string): Omit<Check, "quote">[] {
    const parsed = parseBehaviorMd(`---\nname: w\ndescription: W.\n---\n\n## Rule\n\n${body}\n`);
    if (!parsed.ok) throw new Error("bad test spec");
    return draftOffline({ spec: parsed.spec, vocabulary: worldVocabulary, samples: world }).ir.metaBehaviors[0]!.checks.map(
      ({ quote: _q, ...rest }) => rest,
    );
  }

  it("a result whose value is a word of the phrase, even one its name shares: has been verified, finds a hold", () => {
    expect(checks("The assistant erases records only after the identity has been verified.")).toEqual([
      {
        type: "ordering",
        first: [{ action: "verify_identity_result", metadata: { status: "verified" } }],
        before: [{ action: "erase_records" }],
      },
    ]);
  });

  it("a verb with 'no' as its object forbids it, also as the second verb of a clause", () => {
    expect(checks("After a legal-hold check finds a hold, the assistant erases no records.")).toEqual([
      {
        type: "forbidden",
        match: [{ action: "erase_records" }],
        after: [{ action: "check_legal_hold_result", metadata: { status: "hold" } }],
      },
    ]);
    expect(checks("After a legal-hold check finds a hold, the assistant sends an email and erases no records.")).toEqual([
      { type: "required", match: [{ action: "send_email" }], after: [{ action: "check_legal_hold_result", metadata: { status: "hold" } }] },
      {
        type: "forbidden",
        match: [{ action: "erase_records" }],
        after: [{ action: "check_legal_hold_result", metadata: { status: "hold" } }],
      },
    ]);
  });

  it("a noun and its verb share a root: every erasure is followed by an email", () => {
    expect(checks("Every erasure is followed by a confirmation email.")).toEqual([
      { type: "pairing", each: [{ action: "erase_records" }], followedBy: [{ action: "send_email" }] },
    ]);
  });

  it("a category value only one action carries names it: whenever a user appeals; 'has to' is a rule", () => {
    expect(checks("Whenever a user appeals, a moderator has to be assigned afterwards.")).toEqual([
      {
        type: "pairing",
        each: [{ action: "classify_message_result", metadata: { label: "appeal" } }],
        followedBy: [{ action: "assign_moderator" }],
      },
    ]);
  });

  it("ordering: never X without having Y; X can only be Y-ed once Z", () => {
    expect(checks("Never remove a post without having read the thread.")).toEqual([
      { type: "ordering", first: [{ action: "fetch_thread" }], before: [{ action: "remove_post" }] },
    ]);
    expect(checks("A user can only be banned once they have received a warning.")).toEqual([
      { type: "ordering", first: [{ action: "send_warning" }], before: [{ action: "ban_user" }] },
    ]);
  });

  it("count: a forbidden 'more than N' is at most N; 'exactly once' is a rule", () => {
    expect(checks("Removing more than three posts in a single session is not allowed.")).toEqual([
      { type: "count", match: [{ action: "remove_post" }], max: 3 },
    ]);
    expect(checks("The assistant asks for consent exactly once.")).toEqual([
      { type: "count", match: [{ action: "request_consent" }], min: 1, max: 1 },
    ]);
  });
});

describe("readings the samples make plausible (issue 14)", () => {
  const session = (id: string, events: [string, string, Record<string, string>?][]) =>
    validateTrajectory({
      id,
      complete: true,
      events: events.map(([actor, action, metadata], i) => ({ id: `e${i + 1}`, actor, action, ...(metadata ? { metadata } : {}) })),
    });
  const world = [
    session("a", [
      ["user", "message"],
      ["agent", "request_consent"],
      ["agent", "search_flights", { airline: "TP" }],
      ["agent", "search_flights", { airline: "KL" }],
      ["agent", "book_flight"],
      ["tool", "book_flight_result", { status: "booked" }],
      ["agent", "send_itinerary"],
      ["agent", "reply"],
      ["agent", "write_summary"],
    ]),
    session("b", [
      ["user", "message"],
      ["agent", "book_flight"],
      ["agent", "send_itinerary"],
      ["agent", "reply"],
    ]),
    session("c", [
      ["user", "message"],
      ["agent", "request_consent"],
      ["agent", "book_flight"],
      ["agent", "reply"],
    ]),
  ];
  const worldVocabulary = buildVocabulary(world);
  function drafted(body: string) {
    const parsed = parseBehaviorMd(`---\nname: w\ndescription: W.\n---\n\n## Rule\n\n${body}\n`);
    if (!parsed.ok) throw new Error("bad test spec");
    const draft = draftOffline({ spec: parsed.spec, vocabulary: worldVocabulary, samples: world });
    return { rule: draft.ir.metaBehaviors[0]!, notes: draft.notes };
  }

  it("a check under which no sample keeps the rule becomes a question, with a note; one some sample keeps stays", () => {
    const { rule, notes } = drafted("The agent always replies in the chat. It never repeats personal data in a chat reply.");
    expect(rule.checks).toEqual([{ type: "required", quote: "The agent always replies in the chat", match: [{ action: "reply" }] }]);
    expect(rule.semanticChecks.map((c) => c.quote)).toEqual(["It never repeats personal data in a chat reply"]);
    expect(notes.map((n) => n.message)).toEqual([expect.stringContaining("read as a forbidden check, it failed 3 of the 3 samples")]);
    expect(drafted("The agent never writes a summary.").rule.checks).toEqual([
      { type: "forbidden", quote: "The agent never writes a summary", match: [{ action: "write_summary" }] },
    ]);
  });

  it("a result value stands for its call only when the samples log the result wherever they show the call", () => {
    expect(drafted("Every booked flight is followed by an itinerary email.").rule.checks).toEqual([
      {
        type: "pairing",
        quote: "Every booked flight is followed by an itinerary email",
        each: [{ action: "book_flight" }],
        followedBy: [{ action: "send_itinerary" }],
      },
    ]);
  });

  it("'at least two different' before X is a count; a count with a minimum is not triggered by what it counts", () => {
    const { rule } = drafted("Before it books, the agent searches fares from at least two different airlines.");
    expect(rule.checks).toEqual([
      {
        type: "count",
        quote: "Before it books, the agent searches fares from at least two different airlines",
        match: [{ action: "search_flights" }],
        min: 2,
        distinctBy: "metadata.airline",
      },
    ]);
    expect(rule.trigger.match).toEqual([{ action: "book_flight" }]);
    expect(drafted("The agent asks for consent exactly once.").rule.trigger.match).toEqual([{ actor: "agent" }]);
  });

  it("a time frame before the agent makes a plain statement a requirement", () => {
    expect(drafted("At the end of the session the agent writes a summary.").rule.checks).toEqual([
      { type: "required", quote: "At the end of the session the agent writes a summary", match: [{ action: "write_summary" }] },
    ]);
  });
});

describe("values up to their root, yes/no keys, 'is only X-ed after' (issue 14, expense-reports)", () => {
  const world = [
    validateTrajectory({
      id: "x",
      complete: true,
      events: [
        { id: "e1", actor: "agent", action: "validate_receipt" },
        { id: "e2", actor: "tool", action: "validate_receipt_result", metadata: { status: "valid" } },
        { id: "e3", actor: "tool", action: "validate_receipt_result", metadata: { status: "invalid" } },
        { id: "e4", actor: "agent", action: "check_duplicate" },
        { id: "e5", actor: "tool", action: "check_duplicate_result", metadata: { duplicate: "yes" } },
        { id: "e6", actor: "tool", action: "check_duplicate_result", metadata: { duplicate: "no" } },
        { id: "e7", actor: "tool", action: "manager_approval_result", metadata: { decision: "approved" } },
        { id: "e8", actor: "agent", action: "submit_expense", metadata: { over_limit: "true" } },
        { id: "e9", actor: "agent", action: "submit_expense", metadata: { over_limit: "false" } },
      ],
    }),
  ];
  const worldVocabulary = buildVocabulary(world);
  function checks(body: string): Omit<Check, "quote">[] {
    const parsed = parseBehaviorMd(`---\nname: x\ndescription: X.\n---\n\n## Rule\n\n${body}\n`);
    if (!parsed.ok) throw new Error("bad test spec");
    return draftOffline({ spec: parsed.spec, vocabulary: worldVocabulary, samples: world }).ir.metaBehaviors[0]!.checks.map(
      ({ quote: _q, ...rest }) => rest,
    );
  }

  it("a result value the phrase names up to its root ('validated' → valid, never invalid)", () => {
    expect(checks("Receipts must be validated before an expense is submitted.")).toEqual([
      {
        type: "ordering",
        first: [{ action: "validate_receipt_result", metadata: { status: "valid" } }],
        before: [{ action: "submit_expense" }],
      },
    ]);
  });

  it("a yes/no key the phrase names is its yes; an expense is only submitted after X", () => {
    expect(checks("If the duplicate check flags the receipt, the assistant must not submit it.")).toEqual([
      {
        type: "forbidden",
        match: [{ action: "submit_expense" }],
        after: [{ action: "check_duplicate_result", metadata: { duplicate: "yes" } }],
      },
    ]);
    expect(checks("An expense over the limit is only submitted after the manager has approved it.")).toEqual([
      {
        type: "ordering",
        first: [{ action: "manager_approval_result", metadata: { decision: "approved" } }],
        before: [{ action: "submit_expense", metadata: { over_limit: "true" } }],
      },
    ]);
  });
});

describe("readings of the specs written blind (issue 14: homework-tutor, warehouse-dispatch)", () => {
  function drafted(body: string, front = { description: "Deploy rules.", preamble: "" }): MetaBehavior {
    const parsed = parseBehaviorMd(`---\nname: deploys\ndescription: ${front.description}\n---\n${front.preamble}\n\n## Rule\n\n${body}\n`);
    if (!parsed.ok) throw new Error("bad test spec");
    return draftOffline({ spec: parsed.spec, vocabulary, samples }).ir.metaBehaviors[0]!;
  }
  const withoutQuotes = (rule: MetaBehavior) => rule.checks.map(({ quote: _q, ...rest }) => rest);
  const failed = [{ action: "run_tests_result", metadata: { status: "failed" } }];

  it("the agent's own name, when the description says the rules are for it and the preamble opens with it; a second modal verb keeps the subject", () => {
    const body = "When a test run fails, Shipper must roll back and must not post an update (no announcements).";
    const named = drafted(body, { description: "Rules for Shipper, the deploy bot.", preamble: "Shipper ships builds." });
    expect(withoutQuotes(named)).toEqual([
      { type: "required", match: [{ action: "rollback" }], after: failed },
      { type: "forbidden", match: [{ action: "post_update" }], after: failed },
    ]);
    expect(named.trigger.match).toEqual(failed);
    // A name the preamble does not open with is nobody's: the forbidding clause stays a question.
    const unnamed = drafted(body, { description: "Rules for Shipper, the deploy bot.", preamble: "Engineers ask Shipper for builds." });
    expect(withoutQuotes(unnamed)).toEqual([{ type: "required", match: [{ action: "rollback" }], after: failed }]);
    expect(unnamed.semanticChecks.map((c) => c.quote)).toEqual(["must not post an update (no announcements)"]);
    expect(
      agentNames({ description: "Rules for the dispatcher agent that hands out jobs.", preamble: "The dispatcher sits in the middle." }),
    ).toEqual(["the dispatcher"]);
    expect(
      agentNames({ description: "Rules for an assistant that files claims.", preamble: "Employees send the assistant receipts." }),
    ).toEqual([]);
  });

  it("ordering: Y may only appear after X; Y only goes somewhere once X; but 'only once per session' is no ordering", () => {
    const passed = [{ action: "run_tests_result", metadata: { status: "passed" } }];
    expect(withoutQuotes(drafted("A deploy may only appear after the tests have passed."))).toEqual([
      { type: "ordering", first: passed, before: [{ action: "deploy" }] },
    ]);
    expect(withoutQuotes(drafted("A deploy only goes to production once the tests have passed."))).toEqual([
      { type: "ordering", first: passed, before: [{ action: "deploy", metadata: { env: "production" } }] },
    ]);
    expect(drafted("The agent deploys to production only once per session.").checks.filter((c) => c.type === "ordering")).toEqual([]);
  });

  it("pairing in the passive with any auxiliary; without 'later' only where the samples show the order", () => {
    expect(withoutQuotes(drafted("Each deploy has to be matched by a rollback later in the session."))).toEqual([
      { type: "pairing", each: [{ action: "deploy" }], followedBy: [{ action: "rollback" }] },
    ]);
    // The samples post an update after the production deploy ...
    expect(withoutQuotes(drafted("Every production deploy is announced in an update."))).toEqual([
      { type: "pairing", each: [{ action: "deploy", metadata: { env: "production" } }], followedBy: [{ action: "post_update" }] },
    ]);
    // ... but never one after a rollback, so "every rollback is announced" is not read as that order.
    expect(drafted("Every rollback is announced in an update.").checks.filter((c) => c.type === "pairing")).toEqual([]);
  });

  it("count bounds in other words; an elliptical ', but no more than N' bounds the clause before it", () => {
    expect(withoutQuotes(drafted("Deploys are capped at two per session."))).toEqual([
      { type: "count", match: [{ action: "deploy" }], max: 2 },
    ]);
    expect(withoutQuotes(drafted("The agent posts no fewer than two updates."))).toEqual([
      { type: "count", match: [{ action: "post_update" }], min: 2 },
    ]);
    expect(withoutQuotes(drafted("The agent may deploy to production, but no more than twice."))).toEqual([
      { type: "count", match: [{ action: "deploy", metadata: { env: "production" } }], max: 2 },
    ]);
  });

  it("a 're-' verb in a name is its verb done again, and 'ask' is 'request'; a short remainder is no verb", () => {
    const world = [
      validateTrajectory({
        id: "r",
        complete: true,
        events: [
          { id: "e1", actor: "agent", action: "request_reroute" },
          { id: "e2", actor: "agent", action: "assign_job" },
          { id: "e3", actor: "agent", action: "remove_item" },
        ],
      }),
    ];
    const rule = (body: string) => {
      const parsed = parseBehaviorMd(`---\nname: r\ndescription: R.\n---\n\n## Rule\n\n${body}\n`);
      if (!parsed.ok) throw new Error("bad test spec");
      return draftOffline({ spec: parsed.spec, vocabulary: buildVocabulary(world), samples: world }).ir.metaBehaviors[0]!;
    };
    expect(withoutQuotes(rule("The agent may ask the planner for a new route, but no more than twice for the same job."))).toEqual([
      { type: "count", match: [{ action: "request_reroute" }], max: 2 },
    ]);
    expect(rule("The agent must move the box.").checks).toEqual([]);
  });

  it("a condition whose sentence demands nothing sets up the situation of the next ones; one that demands something does not", () => {
    expect(
      withoutQuotes(
        drafted("When a test run fails, that build is finished for today. It must be rolled back, and the agent must not deploy it again."),
      ),
    ).toEqual([
      { type: "required", match: [{ action: "rollback" }], after: failed },
      { type: "forbidden", match: [{ action: "deploy" }], after: failed },
    ]);
    expect(withoutQuotes(drafted("When a test run fails, the agent must post an update. The agent never deletes the database."))).toEqual([
      { type: "required", match: [{ action: "post_update" }], after: failed },
      { type: "forbidden", match: [{ action: "delete_database" }] },
    ]);
  });

  it("'after that' is the situation before it; the agent's job is to X; a passive naming an agent action; the session includes X", () => {
    expect(
      withoutQuotes(
        drafted("If a test run fails, the agent's first job is to roll back: nothing else matters. After that, an update gets posted."),
      ),
    ).toEqual([
      { type: "required", match: [{ action: "rollback" }], after: failed },
      { type: "required", match: [{ action: "post_update" }], after: failed },
    ]);
    // A passive whose verb phrase names no agent action is a description, not something the agent must do.
    expect(drafted("If a test run fails, the build is finished for now.").checks).toEqual([]);
    const saved = drafted("Once a deploy has happened, the session has to include a `post_update` call after it.");
    expect(withoutQuotes(saved)).toEqual([{ type: "required", match: [{ action: "post_update" }], after: [{ action: "deploy" }] }]);
    expect(saved.trigger.match).toEqual([{ action: "deploy" }]);
  });

  it("a windowed check's situation triggers a rule whose opening sentence sets no frame; one that does keeps it", () => {
    expect(drafted("The agent always runs the tests. When a test run fails, the agent must roll back.").trigger.match).toEqual(failed);
    expect(
      drafted("During a release, the agent posts at least two different updates. When a test run fails, the agent must roll back.").trigger
        .match,
    ).toEqual([{ actor: "agent" }]);
  });

  it("someone other than the agent as the subject, where the samples show the user doing it, is the user", () => {
    const world = [
      validateTrajectory({
        id: "m",
        complete: true,
        events: [
          { id: "e1", actor: "user", action: "message", content: "hi" },
          { id: "e2", actor: "agent", action: "screen_message" },
          { id: "e3", actor: "agent", action: "message", content: "hello" },
          { id: "e4", actor: "agent", action: "screen_message" },
        ],
      }),
    ];
    const rule = (body: string) => {
      const parsed = parseBehaviorMd(`---\nname: m\ndescription: M.\n---\n\n## Rule\n\n${body}\n`);
      if (!parsed.ok) throw new Error("bad test spec");
      return draftOffline({ spec: parsed.spec, vocabulary: buildVocabulary(world), samples: world }).ir.metaBehaviors[0]!;
    };
    expect(withoutQuotes(rule("Every message a customer types is run through the screen."))).toEqual([
      { type: "pairing", each: [{ actor: "user", action: "message" }], followedBy: [{ action: "screen_message" }] },
    ]);
    expect(withoutQuotes(rule("Every message the agent types is run through the screen."))).toEqual([
      { type: "pairing", each: [{ action: "message" }], followedBy: [{ action: "screen_message" }] },
    ]);
  });
});
