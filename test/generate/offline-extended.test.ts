/**
 * Issue 21: the offline drafter proposes the extended rule language: value
 * matchers for amounts ("over $500" → `metadata.amount: {gt: 500}`), `per:
 * metadata.@turn` for "one tool call per turn", `per:` a key for "per
 * order", `on:` for "the same order / reservation / customer", sums, and
 * count bounds from "more than three". The world is
 * test/fixtures/drafter-extended/samples.json.
 *
 * Two figures, kept apart: the 14 sentences below are the ones the drafter
 * was developed with (in-sample: 14 of 14, exactly as expected);
 * test/fixtures/drafter-extended/held-out.json (18 sentences) was written and
 * committed (27b7335, on main) before the drafter was changed for these forms and
 * before it was first run on them, and measured once: 16 of 18 exactly as
 * expected. Whoever wrote them had read the drafter's source, so they are
 * held out from the drafter's development, not blind.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import type { Draft } from "../../compiler/generate/types.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { Check } from "../../compiler/ir/types.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import type { Trajectory } from "../../runtime/types.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "drafter-extended");
const samples: Trajectory[] = (JSON.parse(readFileSync(join(FIXTURES, "samples.json"), "utf8")) as unknown[]).map((t) =>
  validateTrajectory(t),
);
const vocabulary = buildVocabulary(samples);

function draftFor(sentence: string, world: readonly Trajectory[] = samples): Draft {
  const parsed = parseBehaviorMd(`---\nname: support\ndescription: Support rules.\n---\n\n## Rule\n\n${sentence}\n`);
  if (!parsed.ok) throw new Error("bad test spec");
  return draftOffline({ spec: parsed.spec, vocabulary: world === samples ? vocabulary : buildVocabulary(world), samples: world });
}

/** The drafted checks without their quotes. */
function checksOf(sentence: string): Omit<Check, "quote">[] {
  return draftFor(sentence).ir.metaBehaviors[0]!.checks.map(({ quote: _quote, ...rest }) => rest);
}

/** A check as comparable text: keys sorted, any-of lists as sets, no quote. */
function canonicalCheck(check: object): string {
  const sort = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sort).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    if (value !== null && typeof value === "object")
      return Object.fromEntries(
        Object.entries(value)
          .filter(([k]) => k !== "quote")
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, v]) => [k, sort(v)]),
      );
    return value;
  };
  return JSON.stringify(sort(check));
}

describe("issue 21: sentences the drafter was developed with (in-sample)", () => {
  it.each([
    [
      "gt, forbidden",
      "The agent never issues a refund over $500.",
      [{ type: "forbidden", match: [{ action: "issue_refund", metadata: { amount: { gt: 500 } } }] }],
    ],
    [
      "gt, percent",
      "The agent must not apply a discount above 15%.",
      [{ type: "forbidden", match: [{ action: "apply_discount", metadata: { percent: { gt: 15 } } }] }],
    ],
    [
      "lt",
      "The agent never issues a refund below $10.",
      [{ type: "forbidden", match: [{ action: "issue_refund", metadata: { amount: { lt: 10 } } }] }],
    ],
    [
      "gt, the key by its unit",
      "The agent does not book a flight that costs more than $1,500.",
      [{ type: "forbidden", match: [{ action: "book_flight", metadata: { price: { gt: 1500 } } }] }],
    ],
    [
      "gt on the later side of an ordering",
      "Before it issues a refund over $500, the agent must have an approval result.",
      [
        {
          type: "ordering",
          first: [{ action: "approval_result" }],
          before: [{ action: "issue_refund", metadata: { amount: { gt: 500 } } }],
        },
      ],
    ],
    ["per turn", "At most one tool call per turn.", [{ type: "count", match: [{ actor: "agent" }], per: "metadata.@turn", max: 1 }]],
    [
      "per turn, no bound word",
      "The agent makes one tool call per turn.",
      [{ type: "count", match: [{ actor: "agent" }], per: "metadata.@turn", max: 1 }],
    ],
    [
      "per turn, an action",
      "The agent cancels at most one reservation per turn.",
      [{ type: "count", match: [{ action: "cancel_reservation" }], per: "metadata.@turn", max: 1 }],
    ],
    [
      "per key",
      "The agent issues no more than two refunds per order.",
      [{ type: "count", match: [{ action: "issue_refund" }], per: "metadata.order_id", max: 2 }],
    ],
    [
      "more than three",
      "The agent never resets a password more than three times.",
      [{ type: "count", match: [{ action: "reset_password" }], max: 3 }],
    ],
    [
      "on, ordering",
      "The agent only cancels a reservation after it has looked up the same reservation.",
      [
        {
          type: "ordering",
          first: [{ action: "get_reservation_details" }],
          before: [{ action: "cancel_reservation" }],
          on: "metadata.reservation_id",
        },
      ],
    ],
    [
      "on, ordering with the condition first",
      "Before issuing a refund, the agent gets the same order.",
      [{ type: "ordering", first: [{ action: "get_order" }], before: [{ action: "issue_refund" }], on: "metadata.order_id" }],
    ],
    [
      "on, pairing",
      "Every approval request must be followed by an approval result for the same order.",
      [{ type: "pairing", each: [{ action: "request_approval" }], followedBy: [{ action: "approval_result" }], on: "metadata.order_id" }],
    ],
    [
      "sum per key",
      "Refunds to the same customer must not total more than $1,000.",
      [{ type: "count", match: [{ action: "issue_refund" }], per: "metadata.customer_id", sum: "metadata.amount", max: 1000 }],
    ],
  ])("%s: %s", (_form, sentence, expected) => {
    expect(checksOf(sentence)).toEqual(expected);
  });

  it("an amount no sample key can hold is not dropped: the clause becomes a question", () => {
    const draft = draftFor("The agent never resets a password for more than $50.");
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([]);
    expect(draft.ir.metaBehaviors[0]!.semanticChecks.map((s) => s.quote)).toEqual(["The agent never resets a password for more than $50"]);
  });

  it("a group or a same-thing the samples have no key for is said in a note, not dropped silently", () => {
    const perDay = draftFor("The agent issues at most two refunds per day.");
    expect(perDay.ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c)).toEqual([
      { type: "count", match: [{ action: "issue_refund" }], max: 2 },
    ]);
    expect(perDay.notes.map((n) => n.message)).toContainEqual(expect.stringMatching(/no sample shows a metadata key for each day/));
    const sameFlight = draftFor("The agent only books a flight after it has searched for the same flight.");
    expect(sameFlight.notes.map((n) => n.message)).toContainEqual(expect.stringMatching(/"the same flight"/));
  });

  it("'in the same session' asks for no key, and per turn needs the turn key in the samples", () => {
    expect(checksOf("The agent only cancels a reservation after it has looked up a reservation in the same session.")).toEqual([
      { type: "ordering", first: [{ action: "get_reservation_details" }], before: [{ action: "cancel_reservation" }] },
    ]);
    const withoutTurns = samples.map((t) => ({
      ...t,
      events: t.events.map(({ metadata, ...e }) => {
        const rest = Object.fromEntries(Object.entries(metadata ?? {}).filter(([k]) => k !== "@turn"));
        return Object.keys(rest).length === 0 ? e : { ...e, metadata: rest };
      }),
    }));
    const draft = draftFor("The agent cancels at most one reservation per turn.", withoutTurns);
    expect(draft.ir.metaBehaviors[0]!.checks.map((c) => (c.type === "count" ? c.per : "other"))).toEqual([undefined]);
    expect(draft.notes.map((n) => n.message)).toContainEqual(expect.stringMatching(/for each turn/));
  });
});

interface HeldOutCase {
  id: string;
  form: string;
  sentence: string;
  expect: object;
}

/**
 * What a check says beyond which actions it names: its type, bounds, `on`,
 * `per`, `sum`, and every operator with its key. A draft with the right
 * feature but another action has the form right and the vocabulary wrong.
 */
function feature(check: object): string {
  const c = check as Record<string, unknown>;
  const operators: string[] = [];
  const visit = (value: unknown, key: string) => {
    if (Array.isArray(value)) value.forEach((v) => visit(v, key));
    else if (value !== null && typeof value === "object") {
      const record = value as Record<string, unknown>;
      if (key === "metadata")
        for (const [k, v] of Object.entries(record)) if (typeof v === "object") operators.push(`${k}:${JSON.stringify(v)}`);
      for (const [k, v] of Object.entries(record)) visit(v, k);
    }
  };
  visit(check, "");
  return JSON.stringify([c.type, c.on, c.per, c.sum, c.min, c.max, c.within, c.fresh, operators.sort()]);
}

describe("issue 21: held-out sentences (test/fixtures/drafter-extended/held-out.json)", () => {
  const { cases } = JSON.parse(readFileSync(join(FIXTURES, "held-out.json"), "utf8")) as { cases: HeldOutCase[] };

  it("measured as written: 16 of 18 became exactly the expected check at first, 18 of 18 now", () => {
    const results = cases.map((c) => {
      const checks = draftFor(c.sentence).ir.metaBehaviors[0]!.checks;
      return {
        id: c.id,
        form: c.form,
        exact: checks.some((d) => canonicalCheck(d) === canonicalCheck(c.expect)),
        formRight: checks.some((d) => feature(d) === feature(c.expect)),
        drafted: checks.map((d) => canonicalCheck(d)),
      };
    });
    const exact = results.filter((r) => r.exact).length;
    const formRight = results.filter((r) => r.formRight).length;
    const report = results
      .map((r) => `${r.exact ? "exact" : r.formRight ? "form " : "miss "} ${r.id}: ${r.drafted.join(" | ")}`)
      .join("\n");
    expect(cases).toHaveLength(18);
    // Measured once, with the drafter of the commit that added this test (the first run on these
    // sentences): 16/18 exact, 16/18 form right. The two misses became semantic questions: "Refunds of
    // $500 or more are not allowed" (a prohibition whose subject is the refunds, not the agent) and "No
    // flight is booked at a price above $2000" (a passive). These sentences have now been seen: the
    // figure is a floor, no longer out of sample. Since the unmapped rule is read from its words over
    // the samples (synthesize-unlabeled.ts), "Refunds of $500 or more are not allowed" is exact too;
    // since a negated passive forbids the act it names (shape.ts NEGATED_PASSIVE), so is the flight.
    expect({ exact, formRight }, report).toEqual({ exact: 18, formRight: 18 });
    expect(results.filter((r) => !r.formRight).map((r) => r.id)).toEqual([]);
  });
});
