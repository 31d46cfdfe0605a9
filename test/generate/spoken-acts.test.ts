/**
 * Issue 25, no labels (nolabel3): rules that name the samples' acts only in their own words, read from
 * those words over the samples instead of left to the model (n/a on every sample).
 *
 * - A section that names its acts by their names' words or by what the spec's introduction calls
 *   them ("Ringing the harbour master is `ring_master`") speaks of events (spoken-acts.ts); so does
 *   one that names two acts plainly and asks one after the other without calling it a breach.
 * - "Is not to be reopened", "out of bounds" forbid as "must not" does (spoken-acts.ts bansInOtherWords).
 * - A heading's own label ("Slide 4 ·", "AC-3:", "Card 2 of 5:") is no number the rule states
 *   (heading-labels.ts): read as one, "AC-3" put `crates > 3` on an act.
 *
 * A world none of the fixtures use (a fish market's cold store), each rule in several voices: plain
 * prose, a slide's arrow, capitals, minutes, "shall", a ticket's acceptance criterion.
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { withoutHeadingLabel } from "../../compiler/generate/offline/heading-labels.js";
import { bansInOtherWords, formNudge } from "../../compiler/generate/offline/spoken-acts.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import { sessions, type Step } from "./voice-fixture.js";

const PREAMBLE =
  "The assistant keeps the cold store's log at a fish market. Logging a spill is `log_spill` (with the `bay` and the `kind` of spill); " +
  "sealing a bay is `seal_bay` (its `bay`); opening a bay to the traders is `open_bay`; moving stock is `move_crates` " +
  "(the `bay` and how many `crates`). Ringing the harbour master is ring_master. A step is one line of the log.";

const session = sessions("c");
const spill = (bay: string, kind = "brine"): Step => ["agent", "log_spill", { bay, kind }];
const seal = (bay: string): Step => ["agent", "seal_bay", { bay }];
const open = (bay: string): Step => ["agent", "open_bay", { bay }];
const move = (bay: string, crates: string): Step => ["agent", "move_crates", { bay, crates }];
const ring = (): Step => ["agent", "ring_master", {}];
const samples = [
  session(spill("B1"), seal("B1"), ring()),
  session(spill("B1"), open("B2"), move("B2", "4")),
  session(spill("B2"), seal("B2"), open("B1"), ring()),
  session(open("B1"), move("B1", "2"), ring()),
  session(spill("B1"), seal("B2"), move("B1", "5")),
  session(spill("B2", "diesel"), seal("B2"), open("B2")),
  session(ring(), spill("B1"), seal("B1"), open("B1")),
  session(move("B3", "1"), spill("B3"), move("B3", "6"), seal("B3")),
  session(spill("B3"), seal("B3"), ring(), move("B1", "3")),
  session(open("B2"), spill("B2", "diesel"), seal("B2"), ring()),
];
const vocabulary = buildVocabulary(samples);

/** The one rule of a spec headed `heading`, drafted with no labels: its checks without quotes, questions and failures. */
function reading(heading: string, body: string) {
  const parsed = parseBehaviorMd(
    `---\nname: cold-store\ndescription: Rules for the cold store assistant.\n---\n${PREAMBLE}\n\n## ${heading}\n\n${body}\n`,
  );
  if (!parsed.ok) throw new Error("spec does not parse");
  const draft = draftOffline({ spec: parsed.spec, vocabulary, samples });
  const rule = draft.ir.metaBehaviors[0]!;
  return {
    checks: rule.checks.map(({ quote: _, ...check }) => check),
    questions: rule.semanticChecks.length,
    fail: previewJudge(draft.ir, samples).rules[0]!.rule.fail,
  };
}

describe("two acts named plainly, one asked after the other without 'breach' or 'prevent'", () => {
  // Without spoken-acts.ts these were questions for the model, n/a on every session.
  it.each([
    ["AC-3: Seal after a spill", "**Given** a spill is logged in a bay **Then** that same bay is sealed within two steps"],
    ["Seal after a spill", "**Given** a spill is logged in a bay **Then** that same bay is sealed within two steps"],
    ["Story 7 | Seal after a spill", "**Given** a spill is logged in a bay **Then** that same bay is sealed within two steps"],
  ])("%s: %s: the seal follows the spill in that same bay (formNudge: 'then'), and the two unsealed spills fail", (heading, body) => {
    expect(reading(heading, body)).toEqual({
      checks: [{ type: "pairing", each: [{ action: "log_spill" }], followedBy: [{ action: "seal_bay" }], on: "metadata.bay" }],
      questions: 0,
      fail: ["c2", "c5"],
    });
  });

  it.each([
    "If you've had to log a spill, ring him at some point afterwards.",
    "Agreed at the stand-up: once a spill has gone in the log, the harbour master gets a ring from us afterwards.",
  ])(
    "%j: an act the introduction glosses ('Ringing the harbour master is ring_master') is read with the spill, no question left",
    (body) => {
      const found = reading("Ringing the harbour master", body);
      expect(found.questions).toBe(0);
      expect(found.checks).toHaveLength(1);
      // The two acts; which form is still the samples' choice between an ordering and a pairing (see the final report).
      expect(JSON.stringify(found.checks[0])).toContain('"log_spill"');
      expect(JSON.stringify(found.checks[0])).toContain('"ring_master"');
    },
  );

  it("how the agent tells the traders stays a question for the model, though the words name the seal", () => {
    const found = reading("Telling the traders", "When a bay is sealed, the traders hear about it from us politely and in plain language.");
    expect(found.checks).toEqual([]);
    expect(found.questions).toBeGreaterThan(0);
  });
});

describe("the pieces", () => {
  it.each([
    ["Slide 5 · Fouling: close it", "Fouling: close it"],
    ["AC-2: PIN goes out with the assignment", "PIN goes out with the assignment"],
    ["Step 3 · Probe it twice", "Probe it twice"],
    ["Card 3 of 5: Lifts", "Lifts"],
    ["Order 1 — Weather", "Weather"],
    ["REQ-12 | Keys", "Keys"],
    ["Part 2 - Lifts", "Lifts"],
    // A bound in a heading, or a number the rule's words start with, stays.
    ["Max 3: lifts an hour", "Max 3: lifts an hour"],
    ["Under 18s: no entry", "Under 18s: no entry"],
    ["3 lifts to the hour", "3 lifts to the hour"],
    ["10 L in one go: fine", "10 L in one go: fine"],
    ["Three suppliers, tops", "Three suppliers, tops"],
  ])("the heading %j reads as %j", (heading, words) => {
    expect(withoutHeadingLabel(heading)).toBe(words);
  });

  it.each([
    ["A bay sealed for a spill is not to be reopened that shift", true],
    ["Keys aren't to be lent out", true],
    ["A lost key report puts that kiln out of bounds", true],
    ["The bay stays off-limits until it is washed", true],
    ["A bay is reopened once it is washed", false],
    ["The trader is told to be patient", false],
  ])("%j bans in other words: %s", (quote, bans) => {
    expect(bansInOtherWords(quote)).toBe(bans);
  });

  it.each([
    ["ring him afterwards", "pairing", 0.05],
    ["ring him afterwards", "ordering", 0],
    ["that same bay is then sealed", "required", 0.05],
    ["ring him before you open the bay", "ordering", 0.05],
    ["ring him before you open the bay", "pairing", 0],
    ["seal it first and ring him afterwards", "pairing", 0],
    ["a spill and a ring", "pairing", 0],
  ])("%j as a %s: %d", (quote, type, nudge) => {
    expect(formNudge(type, quote)).toBe(nudge);
  });
});
