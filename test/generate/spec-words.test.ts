/**
 * What the drafter learns from the spec's own words besides its rules (issue 25): a backticked
 * name the samples show as a metadata key or value is that key, not an action no sample shows;
 * and the words the preamble calls a tool by ("send a fill to the dispensing robot
 * (`dispense`)") find that tool when a rule speaks of "every fill".
 */
import { describe, expect, it } from "vitest";
import { amountsIn } from "../../compiler/generate/offline/amounts.js";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const draftOf = (preamble: string, body: string, samples: Trajectory[]): Draft => draftSpec(preamble, body, samples, "lab");

const actionsOf = (draft: Draft) => [...JSON.stringify(draft.ir).matchAll(/"action":"([^"]+)"/g)].map((m) => m[1]);

describe("the spec's own words", () => {
  it("reads a backticked name the samples show as a key as that key, never as an action", () => {
    const samples = [
      session(
        ["agent", "scan_sample"],
        ["tool", "scan_sample_result", { sample_id: "T1", temperature_c: "5" }],
        ["agent", "transfer_custody"],
      ),
      session(
        ["agent", "scan_sample"],
        ["tool", "scan_sample_result", { sample_id: "T2", temperature_c: "11" }],
        ["agent", "quarantine_sample", { sample_id: "T2" }],
      ),
    ];
    const draft = draftOf(
      "The agent scans tubes (`scan_sample`) and moves warm ones to the quarantine fridge (`quarantine_sample`).",
      "If a scan shows a tube warmer than 8 °C (`temperature_c` above 8), the agent moves that tube to quarantine.",
      samples,
    );
    expect(actionsOf(draft)).not.toContain("temperature_c");
    expect(draft.notes.filter((note) => note.kind === "not-in-samples")).toEqual([]);
  });

  it("finds the tool a rule calls by the preamble's words for it: 'every fill' is `dispense`", () => {
    const samples = [
      session(["agent", "dispense", { rx_id: "1" }], ["agent", "schedule_pickup", { rx_id: "1" }]),
      session(["agent", "dispense", { rx_id: "2" }], ["agent", "escalate_to_pharmacist"]),
    ];
    const draft = draftOf(
      "The agent can send a fill to the dispensing robot (`dispense`), hand a case to the pharmacist (`escalate_to_pharmacist`) and book a pickup slot.",
      "Every fill is followed by a pickup booking (`schedule_pickup`), so the patient knows when to come.",
      samples,
    );
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.checks).toEqual([
      expect.objectContaining({ type: "pairing", each: [{ action: "dispense" }], followedBy: [{ action: "schedule_pickup" }] }),
    ]);
  });

  it("lets a word of a tool's name win over the words the preamble calls another tool by", () => {
    const samples = [
      session(["agent", "check_training", { user_id: "u1" }], ["agent", "grant_access", { user_id: "u1" }]),
      session(["agent", "grant_access", { user_id: "u2" }], ["agent", "grant_access", { user_id: "u2" }]),
    ];
    const draft = draftOf(
      "The agent can check the person's security training (`check_training`) and grant the role (`grant_access`).",
      "One person gets at most three grants per session.",
      samples,
    );
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.checks).toEqual([expect.objectContaining({ type: "count", match: [{ action: "grant_access" }], max: 3 })]);
  });
});

describe("amounts a sentence compares with a key it writes in backticks", () => {
  const samples = [
    session(
      ["agent", "score_fraud", { claim_id: "C1" }],
      ["tool", "score_fraud_result", { claim_id: "C1", score: "82" }],
      ["agent", "refer_to_siu", { claim_id: "C1" }],
    ),
    session(
      ["agent", "score_fraud", { claim_id: "C2" }],
      ["tool", "score_fraud_result", { claim_id: "C2", score: "12" }],
      ["agent", "issue_payment", { claim_id: "C2" }],
    ),
    session(
      ["agent", "score_fraud", { claim_id: "C3" }],
      ["tool", "score_fraud_result", { claim_id: "C3", score: "75" }],
      ["agent", "issue_payment", { claim_id: "C3" }],
    ),
  ];

  it("reads '(`score` 70 or above)' as the key's comparison on the event that carries it", () => {
    const draft = draftOf(
      "The agent scores claims for fraud (`score_fraud`) and refers claims to the investigators (`refer_to_siu`).",
      "When the fraud model scores a claim high (`score` 70 or above), the agent refers that claim to SIU.",
      samples,
    );
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.trigger.match).toEqual([{ action: "score_fraud_result", metadata: { score: { gte: 70 } } }]);
  });

  it("reads 'warmer than 8 °C' and '8 hours at most' as comparisons", () => {
    const warm = [
      session(["agent", "scan_sample"], ["tool", "scan_sample_result", { temperature_c: "5" }], ["agent", "transfer_custody"]),
      session(["agent", "scan_sample"], ["tool", "scan_sample_result", { temperature_c: "11" }], ["agent", "quarantine_sample"]),
    ];
    const draft = draftOf(
      "The agent scans tubes (`scan_sample`).",
      "If a scan shows a tube warmer than 8 °C, the agent moves that tube to quarantine (`quarantine_sample`).",
      warm,
    );
    expect(draft.ir.metaBehaviors[0]!.trigger.match).toEqual([{ action: "scan_sample_result", metadata: { temperature_c: { gt: 8 } } }]);
    expect(amountsIn("granted for 8 hours at most").map((a) => a.range)).toEqual([{ lte: 8 }]);
    expect(amountsIn("kept 2 °C or colder, never colder than 2 °C").map((a) => a.range)).toEqual([{ lt: 2 }]);
  });
});
