/**
 * Deadlines and after-obligations the label path must reach (issue 25). A window of steps ("within
 * 2 steps of", "no later than the third entry after") is a pairing's `within`, never an amount: read
 * as one it grounded thresholds on every numeric key at that number, and they took the places of the
 * act the sentence names among the few matchers a rule is searched with (step-counts.ts). And of two
 * readings alike on labels and words, the one that judges where the words' condition holds ("if a
 * parcel is handed over, …") wins over one that says nothing there (synthesize-reading.ts `silent`).
 * Worlds and voices of our own: a hospital ward, a courier depot; plain prose, minutes, "shall"
 * conditions, capitals.
 */
import { describe, expect, it } from "vitest";
import { numbersIn } from "../../compiler/generate/offline/synthesize-keys.js";
import { withoutStepCounts } from "../../compiler/generate/offline/step-counts.js";
import type { Trajectory } from "../../runtime/types.js";
import { draftWithLabels, trajectoriesOpening, type Event, type Verdict } from "../support/labeled-drafts.js";

const trajectory = trajectoriesOpening("Starting the shift now.");

/** The draft with the first `given` cases' labels, and its verdicts on the cases held out. */
function drafted(text: string, rule: string, cases: [Trajectory, Verdict][], given = 6) {
  const { found, run, held, got } = draftWithLabels(text, rule, cases, given);
  return { rule: found.ir.metaBehaviors.find((r) => r.name === rule)!, held, got, again: run };
}

describe("a count of steps", () => {
  it("is no amount a key is compared with", () => {
    expect(numbersIn("Bleep the registrar within 2 steps of logging the concern.")).toEqual([]);
    expect(numbersIn("The crew is paged within 4 lines of the reply.")).toEqual([]);
    expect(numbersIn("Photograph it by the 3rd step after the handover, no later.")).toEqual([]);
    expect(numbersIn("Chase it up within 5 more events, and never give over 250 mL.")).toEqual([250]);
    // Numbers that count what is not a step stay: kilos, stretchers, percent.
    expect(numbersIn("Two porters for anyone over 120 kg, and at most 3 stretchers per bay; 2% is fine.")).toEqual([120, 3, 2]);
  });

  it("is blanked where it stands, the rest as written", () => {
    expect(withoutStepCounts("within 12 steps of 40 kg")).toBe("within    steps of 40 kg");
  });
});

/**
 * A ward: observations are logged with several numbers, a concern is raised about a patient, and the
 * doctor on call is paged (`page_doctor`, no word of which the rule writes: it says "bleep her"). The
 * window's number fell on every numeric key of the observations as a threshold the words wrote, and
 * `page_doctor` was left out of the search.
 */
function ward() {
  const obs = (p: string, n: number): Event => ({
    actor: "tool",
    action: "log_obs_result",
    metadata: { patient_id: p, pulse: String(70 + n), resp_rate: String(12 + n), spo2: String(90 + n), temp_c: String(36 + (n % 3)) },
  });
  const concern = (p: string, n = 1): Event => ({ actor: "agent", action: "raise_concern", metadata: { patient_id: p, level: String(n) } });
  const fluids = (p: string, ml: number): Event => ({
    actor: "agent",
    action: "give_fluids",
    metadata: { patient_id: p, ml: String(ml), rate: String(ml / 4) },
  });
  const page = (p: string): Event => ({ actor: "agent", action: "page_doctor", metadata: { patient_id: p } });
  const note = (p: string): Event => ({ actor: "agent", action: "write_note", metadata: { patient_id: p } });
  const cases: [Trajectory, Verdict][] = [
    [trajectory("concern-bleeped-next", [obs("P-1", 1), concern("P-1"), page("P-1"), fluids("P-1", 250)]), "true"],
    [trajectory("concern-never-bleeped", [obs("P-2", 2), concern("P-2", 2), fluids("P-2", 500), note("P-2")]), "false"],
    [trajectory("obs-only", [obs("P-3", 3), fluids("P-3", 100), note("P-3")]), "na"],
    [trajectory("bleeped-about-someone-else", [obs("P-4", 4), concern("P-4"), page("P-5"), note("P-4")]), "false"],
    [
      trajectory("two-concerns-both-bleeped", [concern("P-6", 3), page("P-6"), obs("P-7", 5), concern("P-7"), note("P-7"), page("P-7")]),
      "true",
    ],
    [trajectory("bleeped-at-the-fourth-step", [concern("P-8"), obs("P-8", 6), fluids("P-8", 250), note("P-8"), page("P-8")]), "false"],
    // Held out: the second step after is in time; a bleep about another patient is not; the third step is late.
    [trajectory("bleeped-at-the-second-step", [obs("P-9", 7), concern("P-9", 2), note("P-9"), page("P-9")]), "true"],
    [trajectory("other-patient-in-time", [concern("P-10"), page("P-11"), obs("P-10", 8), fluids("P-10", 250)]), "false"],
    [trajectory("bleeped-at-the-third-step", [concern("P-12"), obs("P-12", 9), note("P-12"), page("P-12")]), "false"],
    [trajectory("quiet-shift", [obs("P-13", 10), note("P-13")]), "na"],
  ];
  return cases;
}

const WARD_PREAMBLE = `Observations come back as \`log_obs_result\` with the \`patient_id\`, \`pulse\`, \`resp_rate\`, \`spo2\` and \`temp_c\`. Raising a concern is \`raise_concern\`; fluids go in with \`give_fluids\` (\`ml\`, \`rate\`); a note is \`write_note\`. Bleeping the doctor on call is \`page_doctor\`. A step is one line of the ward log.`;

describe("a window of steps on a pairing", () => {
  it("reaches the act the sentence names, in plain prose", () => {
    const text = `---\nname: ward-nights\ndescription: Night shift on ward 7.\n---\n# Ward 7 nights\n\n${WARD_PREAMBLE}\n\n## Escalation\n\nThe doctor on call needs to hear about every patient you are worried about. Bleep her about that same patient within 2 steps of raising the concern; a bleep about somebody else does not count.\n`;
    const { rule, held, got } = drafted(text, "Escalation", ward());
    expect(JSON.stringify(rule.checks)).toContain("page_doctor");
    expect(got).toEqual(held);
  });

  it("in minutes, the window in entries of the log", () => {
    const text = `---\nname: ward-minutes\ndescription: Minutes of a ward meeting.\n---\n# Minutes of the ward 7 handover meeting\n\n${WARD_PREAMBLE}\n\n## Item 3: escalation\n\nAgreed: any concern raised gets the doctor on call bleeped about that same patient, within 2 entries of the concern being raised. Sister Okafor noted a bleep about another patient is no substitute.\n`;
    const { rule, held, got } = drafted(text, "Item 3: escalation", ward());
    expect(JSON.stringify(rule.checks)).toContain("page_doctor");
    expect(got).toEqual(held);
  });
});

/**
 * A courier depot: parcels are handed over, and one proof-of-delivery photo is uploaded after the
 * handovers. The six labels given fit an ordering (a photo needs a handover before it) as well as an
 * obligation after a handover; only the second judges a handover with no photo, where the words'
 * condition ("if a parcel has been handed over") holds and the rule applies.
 */
function depot() {
  const scan = (p: string): Event => ({ actor: "agent", action: "scan_parcel", metadata: { parcel_id: p } });
  const handover = (p: string): Event => ({ actor: "agent", action: "hand_over", metadata: { parcel_id: p, van: "V3" } });
  const photo = (): Event => ({ actor: "agent", action: "upload_pod", metadata: { round: "R12" } });
  const cases: [Trajectory, Verdict][] = [
    [trajectory("handed-over-photo-after", [scan("A1"), handover("A1"), photo()]), "true"],
    [trajectory("scanned-only", [scan("A2"), scan("A3")]), "na"],
    [trajectory("photo-before-the-handover", [scan("A4"), photo(), handover("A4")]), "false"],
    [trajectory("two-handovers-one-photo", [scan("A5"), handover("A5"), scan("A6"), handover("A6"), photo()]), "true"],
    [trajectory("photo-after-each", [handover("A7"), photo(), handover("A8"), photo()]), "true"],
    [trajectory("photo-with-no-handover", [scan("A9"), photo()]), "na"],
    // Held out: a handover and no photo at all.
    [trajectory("handed-over-no-photo", [scan("B1"), handover("B1"), scan("B2")]), "false"],
    [trajectory("two-handovers-no-photo", [handover("B3"), handover("B4")]), "false"],
    [trajectory("one-handover-photo-later", [handover("B5"), scan("B6"), photo()]), "true"],
  ];
  return cases;
}

const DEPOT_PREAMBLE = `Scanning a parcel is \`scan_parcel\`; handing one over at the door is \`hand_over\` (\`parcel_id\`, \`van\`). Uploading the proof-of-delivery photo is \`upload_pod\`, once for the \`round\`.`;

describe("an obligation after an event the words' condition names", () => {
  it("judges where the condition holds, in plain prose", () => {
    const text = `---\nname: depot-round\ndescription: A courier's round.\n---\n# Your round\n\n${DEPOT_PREAMBLE}\n\n## Proof of delivery\n\nIf you've handed a parcel over, upload the proof-of-delivery photo at some point afterwards. One photo is enough for the round, even with several handovers, but it has to come after them, not before.\n`;
    const { held, got } = drafted(text, "Proof of delivery", depot());
    expect(got).toEqual(held);
  });

  it("in a contract's shall", () => {
    const text = `---\nname: depot-contract\ndescription: A courier's service terms.\n---\n# Schedule 2: delivery terms\n\n${DEPOT_PREAMBLE}\n\n## 2.4 Evidence of delivery\n\nWhere a Parcel has been handed over, the Courier shall thereafter upload a proof-of-delivery photo. A single photo shall suffice for the round, provided that it is uploaded after the handovers.\n`;
    const { held, got } = drafted(text, "2.4 Evidence of delivery", depot());
    expect(got).toEqual(held);
  });

  it("IN CAPITALS, drafted byte for byte alike twice", () => {
    const text = `---\nname: depot-card\ndescription: A card on the van's dashboard.\n---\n# VAN CARD\n\n${DEPOT_PREAMBLE}\n\n## PROOF OF DELIVERY\n\nIF A PARCEL IS HANDED OVER, UPLOAD THE PROOF-OF-DELIVERY PHOTO AFTERWARDS. ONE PHOTO PER ROUND IS FINE, BUT IT MUST COME AFTER THE HANDOVERS.\n`;
    const run = drafted(text, "PROOF OF DELIVERY", depot());
    expect(run.got).toEqual(run.held);
    expect(JSON.stringify(run.again().ir)).toBe(JSON.stringify(run.again().ir));
  });
});
