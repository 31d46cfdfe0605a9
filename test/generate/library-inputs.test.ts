/**
 * `draftOffline` from the library, given samples straight from JSON (issue 25): metadata values
 * that are numbers, booleans or null (the CLI validates samples first, so only the library path
 * saw them). The lexicon lowered each value as a string and the draft crashed with a TypeError
 * naming no sample; now the samples read as the judge reads them (String(v)), and a malformed
 * sample is an error naming it and its field.
 */
import { describe, expect, it } from "vitest";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import type { Trajectory } from "../../runtime/types.js";

const parsed = parseBehaviorMd(`---
name: bike-hire
description: A bike hire kiosk's assistant.
---
The kiosk assistant hires out bikes with \`hire_bike\` and checks helmets with \`check_helmet\`.

## Helmets

A bike is never hired out with \`helmet_ok: false\`.

## Deposits

Every \`hire_bike\` is preceded by \`take_deposit\` for the same rider.
`);
if (!parsed.ok) throw new Error("spec does not parse");
const spec = parsed.spec;

// As a caller's JSON has them: a number, a boolean and a null among the metadata values.
const raw = [
  {
    id: "numbers-and-flags",
    complete: true,
    events: [
      { id: "e1", actor: "agent", action: "take_deposit", metadata: { rider_id: 17, amount: 40.5, waived: false } },
      { id: "e2", actor: "agent", action: "hire_bike", metadata: { rider_id: 17, helmet_ok: true, note: null } },
    ],
  },
  {
    id: "no-helmet",
    complete: true,
    events: [
      { id: "e1", actor: "agent", action: "take_deposit", metadata: { rider_id: 18, amount: 40, waived: true } },
      { id: "e2", actor: "agent", action: "hire_bike", metadata: { rider_id: 18, helmet_ok: false, note: "rain" } },
    ],
  },
];

describe("draftOffline given raw samples (numbers, booleans and null in metadata)", () => {
  it("drafts as from the validated samples, with a vocabulary built from the raw ones", () => {
    const samples = raw as unknown as Trajectory[];
    const draft = draftOffline({ spec, vocabulary: buildVocabulary(samples), samples });
    const validated = raw.map((t) => validateTrajectory(t));
    expect(draft).toEqual(draftOffline({ spec, vocabulary: buildVocabulary(validated), samples: validated }));
    // The boolean the spec writes in backticks is matched as the judge compares it, a string.
    expect(JSON.stringify(draft.ir.metaBehaviors[0]!.checks)).toContain('"helmet_ok":"false"');
  });

  it("names the sample and the field of a malformed one", () => {
    const broken = [raw[0], { ...raw[1], events: [{ id: "e1", actor: "robot", action: "hire_bike" }] }] as unknown as Trajectory[];
    expect(() => draftOffline({ spec, vocabulary: buildVocabulary(raw as unknown as Trajectory[]), samples: broken })).toThrow(
      'samples[1] (id "no-helmet").events[0].actor must be user, agent, or tool',
    );
  });
});
