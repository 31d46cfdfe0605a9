/**
 * A rate written with "to" (issue 25): "three lessons to the hour", "two guest passes to a member", "no more
 * than 4 to a class" count per the key the noun names, as "per hour", "per member" do; "adds 14 days to the
 * booking" moves an amount and keeps its "to". A climbing gym's desk, in several voices.
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
    events: [
      event("e1", "book_lesson", { member: "m1", slot: "9", wall: "north" }),
      event("e2", "book_lesson", { member: "m1", slot: "10", wall: "north" }),
    ],
  },
  { id: "s2", description: "", complete: true, events: [event("e1", "book_lesson", { member: "m2", slot: "9", wall: "south" })] },
] as Trajectory[];

function countOf(sentence: string) {
  const parsed = parseBehaviorMd(
    `---\nname: gym\ndescription: Climbing.\n---\nThe assistant books lessons at a climbing gym.\n\n## Lessons\n\n${sentence}\n`,
  );
  if (!parsed.ok) throw new Error("spec");
  const checks = draftOffline({ spec: parsed.spec, vocabulary: buildVocabulary(samples), samples }).ir.metaBehaviors[0]!.checks;
  return checks.map(({ quote: _quote, ...c }) => c);
}

describe('a rate written with "to"', () => {
  for (const [sentence, max, per] of [
    ["The assistant books at most three lessons to the slot.", 3, "metadata.slot"],
    ["The assistant books no more than 2 lessons to a member.", 2, "metadata.member"],
    ["Never book more than four lessons to a wall.", 4, "metadata.wall"],
    ["The assistant shall not book in excess of 2 lessons to any member.", 2, "metadata.member"],
  ] as const)
    it(`counts per the key: ${sentence}`, () => {
      expect(countOf(sentence)).toEqual([{ type: "count", match: [{ action: "book_lesson" }], max, per }]);
    });

  it("reads a unit's rate without a bound word", () => {
    expect(voiced("The assistant books three lessons to the hour").text).toContain("three lessons per hour");
  });

  it('keeps the "to" of an amount moved to something, and of who gets a thing with no limit asked', () => {
    expect(voiced("Send one reminder to a member").text).toContain("to a member");
    expect(voiced("The assistant sends 2 reminders to the member").text).toContain("to the member");
    expect(voiced("A renewal adds no more than 14 days to the booking").text).toContain("14 days to the booking");
    expect(voiced("The assistant raises the grade 2 steps to a maximum of 7").text).toContain("to a maximum");
  });
});
