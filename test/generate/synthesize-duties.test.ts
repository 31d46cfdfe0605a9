/**
 * Required and forbidden acts tied to one thing under two names, a second duty of one sentence read
 * as its own check, and a number written in a key's unit kept off keys of no unit (issue 25). Worlds
 * and voices of our own: a courier depot (proof of delivery keyed `consignment` on the handover,
 * `ref` on the upload), a hospital ward's closed beds; plain prose, minutes, a contract's "shall",
 * capitals.
 */
import { describe, expect, it } from "vitest";
import { obligations } from "../../compiler/generate/coverage.js";
import { buildLexicon } from "../../compiler/generate/offline/lexicon.js";
import { synthesizeRule, type RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import { secondDuties } from "../../compiler/generate/offline/synthesize-duties.js";
import { candidateMatchers } from "../../compiler/generate/offline/synthesize-vocab.js";
import { previewRule } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { MetaBehavior } from "../../compiler/ir/types.js";
import type { Trajectory } from "../../runtime/types.js";
import { draftWithLabels, trajectoriesOpening, type Event, type Verdict } from "../support/labeled-drafts.js";

const trajectory = trajectoriesOpening("Starting the round now.");

function drafted(text: string, rule: string, cases: [Trajectory, Verdict][], given = 6) {
  const { found, run, held, got } = draftWithLabels(text, rule, cases, given);
  return { rule: found.ir.metaBehaviors.find((r) => r.name === rule)!, held, got, again: run };
}

/**
 * A depot: a consignment marked lost (`mark_lost`, keyed `consignment`) gets no proof of delivery
 * (`upload_pod`, keyed `ref`, the same values) afterwards. A proof for another consignment is fine:
 * only the two keys tied as one thing tell the two apart.
 */
function lostParcels() {
  const scan = (c: string): Event => ({ actor: "agent", action: "scan_parcel", metadata: { consignment: c, van: "V2" } });
  const lost = (c: string): Event => ({ actor: "agent", action: "mark_lost", metadata: { consignment: c, reason: "missing" } });
  const pod = (c: string): Event => ({ actor: "agent", action: "upload_pod", metadata: { ref: c, kind: "photo" } });
  const cases: [Trajectory, Verdict][] = [
    [trajectory("lost-then-proof-for-it", [scan("C1"), lost("C1"), pod("C1")]), "false"],
    [trajectory("lost-then-proof-for-another", [scan("C2"), scan("C3"), lost("C2"), pod("C3")]), "true"],
    [trajectory("proof-then-lost", [scan("C4"), pod("C4"), scan("C5"), lost("C5")]), "true"],
    [trajectory("no-loss", [scan("C6"), pod("C6"), scan("C7"), pod("C7")]), "na"],
    [trajectory("two-lost-one-proved", [scan("C8"), lost("C8"), scan("C9"), lost("C9"), pod("C9")]), "false"],
    [trajectory("lost-then-proofs-for-others", [scan("C10"), lost("C10"), scan("C11"), pod("C11"), pod("C12")]), "true"],
    // Held out: a proof for another consignment after a loss is fine; one for the lost one is not.
    [trajectory("held-other-proof", [scan("D1"), lost("D1"), scan("D2"), pod("D2"), scan("D3"), pod("D3")]), "true"],
    [trajectory("held-proof-for-lost", [scan("D4"), scan("D5"), lost("D4"), pod("D5"), pod("D4")]), "false"],
    [trajectory("held-proof-before-loss", [scan("D6"), pod("D6"), lost("D6")]), "true"],
  ];
  return cases;
}

const DEPOT = `Scanning a parcel is \`scan_parcel\` (\`consignment\`, \`van\`). Marking one lost is \`mark_lost\` (\`consignment\`, \`reason\`). Uploading a proof of delivery is \`upload_pod\`, which files the consignment as \`ref\`.`;

/**
 * The same depot where the labels given never show a proof for another consignment after a loss:
 * the draft fits them untied, and the words ("that consignment") tie it (synthesize-tied.ts).
 */
function lostParcelsUntold() {
  const all = lostParcels();
  const byId = new Map(all.map((c) => [c[0].id, c]));
  const order = [
    "lost-then-proof-for-it",
    "proof-then-lost",
    "no-loss",
    "two-lost-one-proved",
    "held-proof-before-loss",
    "held-proof-for-lost",
  ];
  return [...order.map((id) => byId.get(id)!), ...all.filter((c) => !order.includes(c[0].id))];
}

describe("a forbidden act tied to one thing under two names", () => {
  it("IN CAPITALS, tied by the words where the labels fit the untied draft", () => {
    const heading = "LOST PARCELS";
    const text = `---\nname: depot-card\ndescription: A card in the van.\n---\n# VAN CARD\n\n${DEPOT}\n\n## ${heading}\n\nONCE A CONSIGNMENT IS MARKED LOST, NO PROOF OF DELIVERY IS UPLOADED FOR THAT CONSIGNMENT AFTERWARDS.\n`;
    const { rule, held, got } = drafted(text, heading, lostParcelsUntold());
    expect(JSON.stringify(rule.checks)).toContain('"on":{"after":"metadata.consignment","match":"metadata.ref"}');
    expect(got).toEqual(held);
  });

  const voices: [string, string, string][] = [
    [
      "plain prose",
      "Lost parcels",
      "Once a consignment has been marked lost, no proof of delivery is uploaded for that consignment afterwards.",
    ],
    [
      "a contract's shall",
      "3.2 Lost consignments",
      "Where a Consignment has been marked lost, the Courier shall not thereafter upload a proof of delivery for that same Consignment.",
    ],
    [
      "minutes",
      "Item 4: lost parcels",
      "Agreed: after a consignment is marked lost, nobody uploads a proof of delivery for that consignment.",
    ],
  ];
  for (const [voice, heading, sentence] of voices)
    it(`ties the mark and the upload by their own keys, in ${voice}`, () => {
      const text = `---\nname: depot-lost\ndescription: A courier depot.\n---\n# Depot rules\n\n${DEPOT}\n\n## ${heading}\n\n${sentence}\n`;
      const { rule, held, got, again } = drafted(text, heading, lostParcels());
      expect(JSON.stringify(rule.checks)).toContain('"on":{"after":"metadata.consignment","match":"metadata.ref"}');
      expect(got).toEqual(held);
      expect(JSON.stringify(again().ir)).toBe(JSON.stringify(drafted(text, heading, lostParcels()).again().ir));
    });
});

/**
 * A ward: a bed closed for cleaning (`close_bed`, keyed `bed`) takes no admission (`admit_patient`)
 * afterwards, and a swab (`log_swab`, which files the bed as `bed_ref`) must be logged for it after
 * the closing: two duties in one sentence. The rule as the words path reads an unmapped sentence
 * over the samples (synthesize-unlabeled.ts): one check, the first duty's, quoting the whole
 * sentence, so that the second is covered in name only and a closed bed never swabbed passes.
 */
function closedBeds() {
  const close = (b: string): Event => ({ actor: "agent", action: "close_bed", metadata: { bed: b } });
  const admit = (b: string, p: string): Event => ({ actor: "agent", action: "admit_patient", metadata: { bed: b, patient_id: p } });
  const swab = (b: string): Event => ({ actor: "agent", action: "log_swab", metadata: { bed_ref: b } });
  const obs = (p: string): Event => ({ actor: "agent", action: "record_obs", metadata: { patient_id: p } });
  const cases: [Trajectory, Verdict][] = [
    [trajectory("closed-swabbed", [obs("P1"), close("B1"), swab("B1"), admit("B2", "P2")]), "true"],
    [trajectory("closed-then-admitted", [close("B3"), swab("B3"), admit("B3", "P3")]), "false"],
    [trajectory("closed-never-swabbed", [obs("P4"), close("B4"), admit("B5", "P4")]), "false"],
    [trajectory("no-closing", [admit("B6", "P5"), obs("P5"), swab("B6")]), "na"],
    [trajectory("closed-swabbed-other-admitted", [close("B8"), admit("B9", "P7"), swab("B8")]), "true"],
    [trajectory("swabbed-before-closing", [swab("B7"), obs("P6"), close("B7")]), "false"],
    // Held out: a closed bed never swabbed, one swabbed only before it closed, one done right.
    [trajectory("held-never-swabbed", [admit("C1", "Q1"), close("C2"), obs("Q1")]), "false"],
    [trajectory("held-swab-first", [swab("C3"), close("C3"), admit("C4", "Q2")]), "false"],
    [trajectory("held-done-right", [close("C5"), obs("Q3"), swab("C5")]), "true"],
    [trajectory("held-admitted-after", [close("C6"), swab("C6"), admit("C6", "Q4")]), "false"],
  ];
  return cases;
}

/** The first duty's check, quoting the whole sentence, as the words path drafts it. */
function firstDutyOnly(name: string, sentence: string): MetaBehavior {
  return {
    name,
    trigger: { description: "A bed is closed.", match: [{ action: "close_bed" }] },
    checks: [
      {
        type: "forbidden",
        quote: sentence.replace(/\.$/, ""),
        match: [{ action: "admit_patient" }],
        after: [{ action: "close_bed" }],
        on: "metadata.bed",
      },
    ],
    semanticChecks: [],
  };
}

const WARD = `Closing a bed for cleaning is \`close_bed\` (\`bed\`); admitting a patient is \`admit_patient\` (\`bed\`, \`patient_id\`); a swab is logged with \`log_swab\`, which files the bed as \`bed_ref\`; observations are \`record_obs\`.`;

describe("a second duty of one sentence", () => {
  const voices: [string, string, string][] = [
    [
      "plain prose",
      "Closed beds",
      "Once a bed has been closed for cleaning, nobody is admitted to that bed for the rest of the shift, and a swab must be logged for it after the closing.",
    ],
    [
      "minutes",
      "Item 2: closed beds",
      "Agreed: once a bed is closed for cleaning, no patient is admitted to that bed again that shift; a swab has to be logged for it after it is closed.",
    ],
    [
      "capitals",
      "CLOSED BEDS",
      "ONCE A BED IS CLOSED FOR CLEANING, NOBODY IS ADMITTED TO THAT BED FOR THE REST OF THE SHIFT, AND A SWAB MUST BE LOGGED FOR IT AFTER THE CLOSING.",
    ],
    [
      "a contract's shall",
      "4.1 Closed beds",
      "Where a Bed has been closed for cleaning, no Patient shall be admitted to that Bed during the Shift, and the Provider shall log a swab of that Bed after the closing.",
    ],
  ];
  const cases = closedBeds();
  const samples = cases.map(([t]) => t);
  const lexicon = buildLexicon(buildVocabulary(samples), samples);
  for (const [voice, heading, sentence] of voices)
    it(`becomes its own check, in ${voice}`, () => {
      const section = `${WARD}\n\n${sentence}`;
      const rule = firstDutyOnly(heading, sentence);
      const duties = secondDuties(
        rule,
        obligations(section).map((o) => o.text),
      );
      expect(duties.map((d) => d.duty.toLowerCase())).toEqual([expect.stringContaining("swab")]);
      const labels: RuleLabels = Object.fromEntries(cases.slice(0, 6).map(([t, v]) => [t.id, { [heading]: v }]));
      const run = () =>
        synthesizeRule(
          lexicon,
          rule,
          sentence,
          obligations(section).map((o) => o.text),
          samples,
          labels,
        );
      const found = run();
      expect(JSON.stringify(found.rule.checks)).toContain("log_swab");
      // Each check quotes its own duty.
      expect(found.rule.checks.map((c) => c.quote.toLowerCase().includes("swab"))).toContain(false);
      const preview = previewRule(found.rule, samples);
      const verdict = (id: string): Verdict => (preview.rule.pass.includes(id) ? "true" : preview.rule.fail.includes(id) ? "false" : "na");
      expect(cases.slice(6).map(([t]) => [t.id, verdict(t.id)])).toEqual(cases.slice(6).map(([t, v]) => [t.id, v]));
      expect(JSON.stringify(run().rule)).toBe(JSON.stringify(found.rule));
    });

  it("is none where the check's events are named by both parts, or the other part obliges nothing", () => {
    const both = "Once a bed is closed, nobody is admitted to it, and a closed bed is never admitted to before a swab.";
    const rule = firstDutyOnly("Beds", both);
    expect(
      secondDuties(
        rule,
        obligations(both).map((o) => o.text),
      ),
    ).toEqual([]);
    const told = "Once a bed is closed, nobody is admitted to that bed, and the ward clerk keeps the list of beds on the board.";
    expect(
      secondDuties(
        firstDutyOnly("Beds", told),
        obligations(told).map((o) => o.text),
      ),
    ).toEqual([]);
  });
});

describe("a number written in a key's unit", () => {
  it("bounds that key, not a key that names no unit", () => {
    const status = (pct: string, step: string): Event => ({
      actor: "tool",
      action: "check_load_result",
      metadata: { load_pct: pct, step, crane: "K1" },
    });
    const samples = [
      trajectory("a", [status("1", "3"), status("4", "1")]),
      trajectory("b", [status("2.5", "5"), status("0.5", "2")]),
      trajectory("c", [status("3", "4")]),
    ];
    const lexicon = buildLexicon(buildVocabulary(samples), samples);
    const rule: MetaBehavior = {
      name: "Overload",
      trigger: { description: "x", match: [{ action: "check_load_result" }] },
      checks: [],
      semanticChecks: [],
    };
    const vocab = candidateMatchers(
      lexicon,
      rule,
      "If a reading comes back over 2% of the load, stop the crane.",
      samples,
      () => undefined,
    );
    expect(vocab.saidOn("load_pct")).toEqual([2]);
    // `step` names no unit, and a key of the samples (`load_pct`) is in the number's: 2% is not a step.
    expect(vocab.saidOn("step")).toEqual([]);
    expect(vocab.relevanceOf({ action: "check_load_result", metadata: { step: { gt: 2 } } })).toBeLessThan(
      vocab.relevanceOf({ action: "check_load_result", metadata: { load_pct: { gt: 2 } } }),
    );
  });
});
