/**
 * A sentence the phrase reading left to the model is read again with labels (issue 25,
 * synthesize-sentences.ts). On a ferry's car deck the draft checks the ticket and leaves "the most
 * recent `read_swell` reading must be 2.5 m or less" to a model question, which judges nothing
 * offline. The six labels given happen to be calm days: the draft fits every one, and before this
 * the search stopped there, so every rough-sea loading of the held-out sessions passed. Read on its
 * own words (`read_swell`, its result, 2.5), the sentence gives a check that fits the same labels
 * and judges the rough sessions as the hand judge does.
 */
import { describe, expect, it } from "vitest";
import { buildLexicon } from "../../compiler/generate/offline/lexicon.js";
import { synthesizeRule, type RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import { previewRule } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { MetaBehavior } from "../../compiler/ir/types.js";
import type { Trajectory, TrajectoryEvent } from "../../runtime/types.js";

const RULE = "Loading the car deck";
const TICKET = "Before each load_vehicle, the latest check_ticket result for that same vehicle must show `ticket: paid`";
const SWELL = "Loading also stops in a heavy swell: the most recent `read_swell` reading must be 2.5 m or less";
const SECTION = `${TICKET}. ${SWELL}; above that the ramp stays up.`;

const swell = (metres: string): TrajectoryEvent[] => [
  { id: "", actor: "agent", action: "read_swell" },
  { id: "", actor: "tool", action: "read_swell_result", metadata: { swell_m: metres } },
];
const ticket = (vehicle: string, status: string): TrajectoryEvent[] => [
  { id: "", actor: "agent", action: "check_ticket", metadata: { vehicle_id: vehicle } },
  { id: "", actor: "tool", action: "check_ticket_result", metadata: { vehicle_id: vehicle, ticket: status } },
];
const load = (vehicle: string): TrajectoryEvent => ({ id: "", actor: "agent", action: "load_vehicle", metadata: { vehicle_id: vehicle } });
const session = (id: string, ...events: TrajectoryEvent[]): Trajectory => ({
  id,
  description: "",
  complete: true,
  events: [{ id: "", actor: "user" as const, action: "message" }, ...events].map((e, i) => ({ ...e, id: `e${i}` })),
});

// The hand judge's verdicts: a paid ticket for that vehicle, and a swell of at most 2.5 m.
const cases: [Trajectory, "true" | "false"][] = [
  [session("calm", ...swell("1.2"), ...ticket("V1", "paid"), load("V1")), "true"],
  [session("unpaid", ...swell("0.8"), ...ticket("V2", "unpaid"), load("V2")), "false"],
  [session("calm-2", ...swell("1.6"), ...ticket("V3", "paid"), load("V3")), "true"],
  [session("no-ticket", ...swell("1.1"), load("V4")), "false"],
  [session("calm-3", ...swell("0.5"), ...ticket("V5", "paid"), load("V5")), "true"],
  [session("other-vehicle", ...swell("1.0"), ...ticket("V6", "paid"), load("V7")), "false"],
  // Held out: never given as labels.
  [session("held-calm", ...swell("1.9"), ...ticket("V8", "paid"), load("V8")), "true"],
  [session("held-rough", ...swell("3.4"), ...ticket("V9", "paid"), load("V9")), "false"],
  [session("held-unpaid", ...swell("1.3"), ...ticket("V10", "unpaid"), load("V10")), "false"],
  [session("held-rough-2", ...swell("2.9"), ...ticket("V11", "paid"), load("V11")), "false"],
  [session("held-calm-2", ...swell("0.9"), ...ticket("V12", "paid"), load("V12")), "true"],
];
const samples = cases.map(([s]) => s);
const truth = Object.fromEntries(cases.map(([s, v]) => [s.id, v]));
const labels: RuleLabels = Object.fromEntries(cases.slice(0, 6).map(([s, v]) => [s.id, { [RULE]: v }]));

// The phrase reading: the ticket read as a condition, the swell left to a model question.
const drafted = (swellSentence: string): MetaBehavior => ({
  name: RULE,
  trigger: { description: "Loads a vehicle.", match: [{ action: "load_vehicle" }] },
  checks: [
    {
      type: "condition",
      quote: TICKET,
      each: [{ action: "load_vehicle" }],
      with: { r: { latest: [{ action: "check_ticket_result" }], on: "metadata.vehicle_id" } },
      when: 'r.ticket == "paid"',
    },
  ],
  semanticChecks: [{ quote: swellSentence, question: "Was the swell at most 2.5 m when the vehicle was loaded?" }],
});
const lexicon = buildLexicon(buildVocabulary(samples), samples);
const search = (rule: MetaBehavior, section = SECTION) => synthesizeRule(lexicon, rule, section, [TICKET, SWELL], samples, labels);
const verdicts = (rule: MetaBehavior) => {
  const p = previewRule(rule, samples).rule;
  return Object.fromEntries(samples.map((s) => [s.id, p.pass.includes(s.id) ? "true" : p.fail.includes(s.id) ? "false" : "na"]));
};

describe("a sentence left to the model, read with labels the draft already fits", () => {
  it("the draft fits every label given and passes the rough-sea loadings no label speaks of", () => {
    const draft = drafted(SWELL);
    const given = Object.keys(labels);
    expect(given.every((id) => verdicts(draft)[id] === truth[id])).toBe(true);
    expect(verdicts(draft)["held-rough"]).toBe("true");
    expect(verdicts(draft)["held-rough-2"]).toBe("true");
  });

  it("becomes a check on the reading its backticks name, in the sentence's place, fitting the labels and judging the held-out sessions right", () => {
    const found = search(drafted(SWELL));
    expect(found.changed).toBe(true);
    expect(found.agree).toBe(6);
    expect(found.total).toBe(6);
    const added = found.rule.checks.slice(1);
    expect(found.rule.checks[0]).toEqual(drafted(SWELL).checks[0]);
    expect(added).toHaveLength(1);
    expect(added[0]!.quote).toBe(SWELL);
    expect(JSON.stringify(added[0])).toContain("read_swell_result");
    // The model question it replaces is gone; the check judges every session as the hand judge does.
    expect(found.rule.semanticChecks).toEqual([]);
    expect(verdicts(found.rule)).toEqual(truth);
    // Deterministic: the same input gives the same rule.
    expect(JSON.stringify(search(drafted(SWELL)))).toBe(JSON.stringify(found));
  });

  it("leaves a sentence that writes no name in backticks with the model: loose words fit six labels by chance", () => {
    const loose = "Loading also stops in a heavy swell: the most recent swell reading must be 2.5 m or less";
    const found = search(drafted(loose), `${TICKET}. ${loose}; above that the ramp stays up.`);
    expect(found.changed).toBe(false);
    expect(found.rule).toEqual(drafted(loose));
  });

  it("adds nothing when no reading of the sentence keeps every label: a given label of a rough day judged followed", () => {
    // A hand label that contradicts the sentence (the person judged the rough day by the ticket alone).
    const contrary: RuleLabels = { ...labels, "held-rough": { [RULE]: "true" } };
    const found = synthesizeRule(lexicon, drafted(SWELL), SECTION, [TICKET, SWELL], samples, contrary);
    expect(found.rule.semanticChecks.map((s) => s.quote)).toEqual([SWELL]);
    expect(found.rule.checks.every((c) => c.quote !== SWELL)).toBe(true);
  });
});
