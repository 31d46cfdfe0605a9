/**
 * An FAQ's yes/no question asked under a condition (issue 25): "Can the assistant refill a prescription once an
 * interaction has been flagged on that prescription? No." bans the refill after the flag, on the same
 * prescription, not for good, and not the flag; an answer that says when ("Yes, but only after …") keeps the
 * question's condition too. A pharmacy counter, in several voices of question.
 */
import { describe, expect, it } from "vitest";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { voiced } from "../../compiler/generate/offline/voice.js";
import type { Trajectory } from "../../runtime/types.js";
import { agentAction as event } from "../support/offline-drafts.js";

const samples: Trajectory[] = [
  {
    id: "s1",
    description: "",
    complete: true,
    events: [event("e1", "flag_interaction", { prescription: "r1" }), event("e2", "refill_prescription", { prescription: "r2" })],
  },
  {
    id: "s2",
    description: "",
    complete: true,
    events: [event("e1", "refill_prescription", { prescription: "r3" }), event("e2", "refill_prescription", { prescription: "r3" })],
  },
] as Trajectory[];

function checksOf(body: string) {
  const parsed = parseBehaviorMd(
    `---\nname: counter\ndescription: Pharmacy.\n---\nThe assistant runs a pharmacy counter.\n\n## Refills\n\n${body}\n`,
  );
  if (!parsed.ok) throw new Error("spec");
  return draftOffline({ spec: parsed.spec, vocabulary: buildVocabulary(samples), samples }).ir.metaBehaviors[0]!.checks;
}

describe("a yes/no question's condition survives into its answer", () => {
  for (const question of [
    "Can the assistant refill a prescription once an interaction has been flagged? No.",
    "Is it OK to refill a prescription once an interaction has been flagged? No.",
    "Q: May we refill a prescription once an interaction has been flagged? A: No.",
    "Should the assistant refill a prescription once an interaction has been flagged? No.",
  ])
    it(`bans the act after the condition: ${question}`, () => {
      const checks = checksOf(question);
      expect(checks.map(({ quote: _quote, ...c }) => c)).toEqual([
        { type: "forbidden", match: [{ action: "refill_prescription" }], after: [{ action: "flag_interaction" }] },
      ]);
      // The quote is the question's words as written.
      expect(question).toContain(checks[0]!.quote);
    });

  it("bans it on the thing the condition points at", () => {
    const checks = checksOf("Can the assistant refill a prescription once an interaction has been flagged on that prescription? No.");
    expect(checks.map(({ quote: _quote, ...c }) => c)).toEqual([
      {
        type: "forbidden",
        match: [{ action: "refill_prescription" }],
        after: [{ action: "flag_interaction" }],
        on: "metadata.prescription",
      },
    ]);
  });

  it("keeps the condition in front of an answer that says when", () => {
    const read = voiced(
      "Yes, but only after it has been reviewed",
      "the assistant",
      () => true,
      undefined,
      "Can the assistant refill a prescription once an interaction has been flagged on that prescription",
    ).text;
    expect(read).toBe(
      "Once an interaction has been flagged on that prescription, the assistant refills a prescription only after it has been reviewed",
    );
  });
});
