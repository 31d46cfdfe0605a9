/**
 * Shapes the label path must reach from the words (issue 25): both values a sentence joins by "and"
 * ("the latest inspection shows buckles secure and stitching intact"), tested together on the one
 * event; a person compared with another person of the same key ("reshelved by a volunteer other
 * than the one who checked it in"), not with a constant that only fits the labels; and an act
 * named by its noun ("no further payment on that claim" is `pay_claim`). Six labels seldom hold a
 * sample that tells the shape the words ask for from a plainer one that fits them as well; the
 * words say which is meant. Worlds and voices of our own: a climbing wall, a kayak club, a library,
 * a friendly society's benefits desk, a vet clinic; plain prose, capitals, minutes, "shall" conditions.
 */
import { describe, expect, it } from "vitest";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { buildLexicon } from "../../compiler/generate/offline/lexicon.js";
import { candidateVerdicts } from "../../compiler/generate/offline/synthesize.js";
import { editCost, editDistance, type Words } from "../../compiler/generate/offline/synthesize-rank.js";
import { tiedVariants } from "../../compiler/generate/offline/synthesize-tied.js";
import { canonical } from "../../compiler/generate/offline/words.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { Check, MetaBehavior } from "../../compiler/ir/types.js";
import type { Trajectory } from "../../runtime/types.js";
import { draftWithLabels, specOf, trajectoriesOpening, type Event, type Verdict } from "../support/labeled-drafts.js";

const trajectory = trajectoriesOpening("Morning, here is today's list.");

/** The draft with the first six cases' labels given, and its verdicts on the cases held out. */
function drafted(text: string, rule: string, cases: [Trajectory, Verdict][], given = 6) {
  const { found, held, got } = draftWithLabels(text, rule, cases, given);
  return { rule: found.ir.metaBehaviors.find((r) => r.name === rule)!, held, got };
}

/**
 * A world where an act needs the latest inspection of the same thing to show two values: `check`
 * (by `id_key`), its result (`result`, with the two keys), and the act. The six labels given never
 * fail one test without the other; the held-out cases do, each way.
 */
function twoValueWorld(w: {
  check: string;
  result: string;
  act: string;
  id: string;
  a: [key: string, good: string, bad: string];
  b: [key: string, good: string, bad: string];
}) {
  const inspect = (thing: string, a: string, b: string): Event[] => [
    { actor: "agent", action: w.check, metadata: { [w.id]: thing } },
    { actor: "tool", action: w.result, metadata: { [w.id]: thing, [w.a[0]]: a, [w.b[0]]: b } },
  ];
  const act = (thing: string): Event => ({ actor: "agent", action: w.act, metadata: { [w.id]: thing } });
  const [, ga, ba] = w.a;
  const [, gb, bb] = w.b;
  const cases: [Trajectory, Verdict][] = [
    [trajectory("good-then-out", [...inspect("K-1", ga, gb), act("K-1")]), "true"],
    [trajectory("both-bad-out-anyway", [...inspect("K-2", ba, bb), act("K-2")]), "false"],
    [trajectory("inspected-only", [...inspect("K-3", ba, gb)]), "na"],
    [trajectory("two-good-two-out", [...inspect("K-4", ga, gb), ...inspect("K-5", ga, gb), act("K-5"), act("K-4")]), "true"],
    [trajectory("good-one-bad-other-out", [...inspect("K-6", ga, gb), ...inspect("K-7", ba, bb), act("K-7")]), "false"],
    [trajectory("reinspected-good", [...inspect("K-8", ba, bb), ...inspect("K-8", ga, gb), act("K-8")]), "true"],
    // Held out: one value right, the other wrong, each way; and a clean one.
    [trajectory("first-right-second-wrong", [...inspect("K-9", ga, bb), act("K-9")]), "false"],
    [trajectory("first-wrong-second-right", [...inspect("K-10", ba, gb), act("K-10")]), "false"],
    [trajectory("clean", [...inspect("K-11", ga, gb), act("K-11")]), "true"],
    [trajectory("good-then-bad-again", [...inspect("K-12", ga, gb), ...inspect("K-12", ga, bb), act("K-12")]), "false"],
  ];
  return cases;
}

const wall = (rule: string) => `---
name: climbing-wall
description: The gear desk assistant at a climbing wall.
---
The assistant inspects harnesses (\`inspect_harness\`, by \`harness_id\`), whose result (\`inspect_harness_result\`) shows \`buckles\` (secure or loose) and \`stitching\` (intact or frayed), and lends harnesses to climbers (\`lend_harness\`, by \`harness_id\`).

## Harness loans

${rule}
`;
const wallCases = twoValueWorld({
  check: "inspect_harness",
  result: "inspect_harness_result",
  act: "lend_harness",
  id: "harness_id",
  a: ["buckles", "secure", "loose"],
  b: ["stitching", "intact", "frayed"],
});

describe("two values one sentence joins by 'and'", () => {
  const voices: [string, string][] = [
    [
      "a 'shall … unless' condition",
      'No harness shall be lent unless the most recent inspection of that same harness shows buckles "secure" and stitching "intact".',
    ],
    ["capitals", "NO HARNESS IS LENT UNLESS THE LATEST INSPECTION OF THAT HARNESS SHOWS BUCKLES SECURE AND STITCHING INTACT."],
    [
      "minutes, the values in the other order",
      "Agreed (item 4): a harness goes out on loan only where the last inspection of that same harness found the stitching intact and the buckles secure.",
    ],
  ];
  for (const [voice, sentence] of voices)
    it(`are both tested on the latest inspection (${voice})`, () => {
      const { rule, held, got } = drafted(wall(sentence), "Harness loans", wallCases);
      const conditions = rule.checks.filter((c) => c.type === "condition");
      expect(conditions).toHaveLength(1);
      const when = conditions[0]!.type === "condition" ? conditions[0]!.when : "";
      expect(when).toMatch(/buckles == "secure"/);
      expect(when).toMatch(/stitching == "intact"/);
      expect(got).toEqual(held);
    });

  // The candidates the search tries, whatever the phrase reading: the pair where the words join
  // the two values by "and", in the order they write them; none where they join them by "or".
  const candidateWhens = (sentence: string): string[] => {
    const samples = wallCases.map(([t]) => t);
    const rule: MetaBehavior = {
      name: "Harness loans",
      trigger: { description: "A harness is lent.", match: [{ action: "lend_harness" }] },
      checks: [],
      semanticChecks: [],
    };
    return candidateVerdicts(buildLexicon(buildVocabulary(samples), samples), rule, sentence, samples).flatMap(({ check }) =>
      check.type === "condition" && check.with?.r?.on === "metadata.harness_id" ? [check.when] : [],
    );
  };
  it("are one candidate test of both, as the words order them", () => {
    expect(
      candidateWhens("A harness is lent only where the latest inspection of that same harness found buckles secure and stitching intact."),
    ).toContain('r.buckles == "secure" && r.stitching == "intact"');
    expect(
      candidateWhens("A harness is lent only where the latest inspection of that same harness found stitching intact and buckles secure."),
    ).toContain('r.stitching == "intact" && r.buckles == "secure"');
    expect(
      candidateWhens("No harness is lent where the latest inspection of that same harness found buckles loose or stitching frayed."),
    ).not.toContain('r.buckles == "loose" && r.stitching == "frayed"');
  });

  it("in another world: a kayak club's hull checks", () => {
    const text = `---
name: kayak-club
description: The boathouse assistant at a kayak club.
---
Hull checks are logged with \`check_hull\` (\`kayak_id\`); the result, \`check_hull_result\`, gives \`hull\` (sound or cracked) and \`lines\` (fitted or missing). Boats go out with \`launch_kayak\` (\`kayak_id\`).

## Boats on the water

Before any kayak is launched, the latest hull check of that same kayak must show the hull "sound" and the lines "fitted".
`;
    const cases = twoValueWorld({
      check: "check_hull",
      result: "check_hull_result",
      act: "launch_kayak",
      id: "kayak_id",
      a: ["hull", "sound", "cracked"],
      b: ["lines", "fitted", "missing"],
    });
    const { rule, held, got } = drafted(text, "Boats on the water", cases);
    const c = rule.checks.find((x) => x.type === "condition");
    expect(c?.type === "condition" ? c.when : "").toMatch(/hull == "sound" && r\.lines == "fitted"/);
    expect(got).toEqual(held);
  });
});

/**
 * A library where both acts carry a `volunteer`: the words ask that the two differ. The labels
 * given have Ana checking in and Bo reshelving, or Bo doing both: `r.volunteer == "Ana"` fits
 * them as well as the comparison does, and names no one the words name.
 */
const library = (rule: string) => `---
name: library-returns
description: The returns desk assistant at a village library.
---
Returned books are checked in (\`check_in\`, with \`book_id\` and \`volunteer\`) and later reshelved (\`reshelve\`, with \`book_id\` and \`volunteer\`); overdue notes are written with \`note_overdue\` (\`book_id\`).

## Second volunteer

${rule}
`;
function libraryCases(): [Trajectory, Verdict][] {
  const checkIn = (book: string, who: string): Event => ({
    actor: "agent",
    action: "check_in",
    metadata: { book_id: book, volunteer: who },
  });
  const shelve = (book: string, who: string): Event => ({
    actor: "agent",
    action: "reshelve",
    metadata: { book_id: book, volunteer: who },
  });
  const note = (book: string): Event => ({ actor: "agent", action: "note_overdue", metadata: { book_id: book } });
  return [
    [trajectory("ana-in-bo-shelves", [checkIn("B-1", "Ana"), shelve("B-1", "Bo")]), "true"],
    [trajectory("bo-does-both", [checkIn("B-2", "Bo"), shelve("B-2", "Bo")]), "false"],
    [trajectory("overdue-only", [note("B-3")]), "na"],
    [trajectory("two-books-ana-in", [checkIn("B-4", "Ana"), checkIn("B-5", "Ana"), shelve("B-5", "Bo"), shelve("B-4", "Bo")]), "true"],
    [trajectory("bo-both-after-a-note", [note("B-6"), checkIn("B-6", "Bo"), shelve("B-6", "Bo")]), "false"],
    [trajectory("ana-in-not-shelved", [checkIn("B-7", "Ana")]), "na"],
    // Held out: Bo checks in and Ana reshelves (fine), Ana does both (not).
    [trajectory("bo-in-ana-shelves", [checkIn("B-8", "Bo"), shelve("B-8", "Ana")]), "true"],
    [trajectory("ana-does-both", [checkIn("B-9", "Ana"), shelve("B-9", "Ana")]), "false"],
    [trajectory("swapped-pair", [checkIn("B-10", "Bo"), checkIn("B-11", "Ana"), shelve("B-10", "Ana"), shelve("B-11", "Bo")]), "true"],
  ];
}

describe("another person's value, not a constant", () => {
  const voices: [string, string][] = [
    ["plain prose", "Each returned book is to be reshelved by a volunteer other than the one who checked that same book in."],
    ["capitals", "EVERY BOOK MUST BE RESHELVED BY SOMEONE ELSE, NOT THE VOLUNTEER WHO CHECKED THAT BOOK IN."],
    [
      "minutes",
      "Agreed: the volunteer who reshelves a book is never the same as the volunteer who most recently checked that same book in.",
    ],
  ];
  for (const [voice, sentence] of voices)
    it(`compares the two volunteers (${voice})`, () => {
      const { rule, held, got } = drafted(library(sentence), "Second volunteer", libraryCases());
      const whens = rule.checks.flatMap((c) => (c.type === "condition" ? [c.when] : []));
      expect(whens.join(" ")).toMatch(/r\.volunteer != event\.volunteer/);
      expect(whens.join(" ")).not.toMatch(/"Ana"|"Bo"/);
      expect(got).toEqual(held);
    });
});

describe("a comparison the words ask for, against a constant that fits", () => {
  // Where the phrase reading anchors the pick, a changed `when` costs a field; one that compares
  // the two people the words say differ is grounded by them, a constant is not.
  const words: Words = {
    relevanceOf: () => 1,
    cues: { same: true, fresh: false, within: [], per: false, sum: false, different: true },
    words: new Set(["volunteer", "book", "reshelv"]),
  };
  const condition = (when: string): Check => ({
    type: "condition",
    quote: "q",
    each: [{ action: "reshelve" }],
    with: { r: { latest: [{ action: "check_in" }], on: "metadata.book_id" } },
    when,
  });
  const drafted = condition('r.volunteer == "Bo"');
  it("costs less when it compares the two people", () => {
    const cross = editCost(editDistance(drafted, condition("r.volunteer != event.volunteer"), words));
    const constant = editCost(editDistance(drafted, condition('r.volunteer != "Ana"'), words));
    expect(cross).toBeLessThan(constant);
  });
  it("costs a whole field where the words say nothing of a difference", () => {
    const plain = { ...words, cues: { ...words.cues, different: false } };
    expect(editDistance(drafted, condition("r.volunteer != event.volunteer"), plain)).toEqual({ fields: 1, grounded: 0 });
  });
});

describe("an act named by its noun", () => {
  it("'payment', 'shipment' and 'movement' are the acts of paying, shipping and moving", () => {
    expect(canonical("payment")).toBe(canonical("pay"));
    expect(canonical("payments")).toBe(canonical("paid"));
    expect(canonical("shipments")).toBe(canonical("shipped"));
    expect(canonical("movement")).toBe(canonical("moving"));
    // The suffix rule still keeps short words that are no verb's noun.
    expect(canonical("comment")).toBe("comment");
    expect(canonical("element")).toBe("element");
  });

  it("'no further payment to that member' forbids paying, not vetting the member", () => {
    const text = `---
name: benefits-desk
description: The benefits assistant at a friendly society.
---
The assistant vets members (\`vet_member\`, by \`member_id\`), pays benefits (\`pay_benefit\`: \`benefit_id\`, \`member_id\`, \`amount\`) and records suspensions (\`suspend_member\`, by \`member_id\`).

## Suspensions

Where a member has been suspended, no further payment shall be made to that member.
`;
    const ev = (action: string, member: string, extra: Record<string, string> = {}): Event => ({
      actor: "agent",
      action,
      metadata: { member_id: member, ...extra },
    });
    const pay = (member: string, benefit: string) => ev("pay_benefit", member, { benefit_id: benefit, amount: "300" });
    const samples = [
      trajectory("paid-then-suspended", [ev("vet_member", "M-1"), pay("M-1", "B-1"), ev("suspend_member", "M-1")]),
      trajectory("suspended-then-paid", [ev("vet_member", "M-2"), ev("suspend_member", "M-2"), pay("M-2", "B-2")]),
      trajectory("suspended-then-vetted", [ev("suspend_member", "M-3"), ev("vet_member", "M-3")]),
      trajectory("other-member-paid", [ev("suspend_member", "M-4"), ev("vet_member", "M-5"), pay("M-5", "B-5")]),
    ];
    const found = draftOffline({ spec: specOf(text), vocabulary: buildVocabulary(samples), samples });
    const rule = found.ir.metaBehaviors.find((r) => r.name === "Suspensions")!;
    const forbidden = rule.checks.find((c) => c.type === "forbidden");
    expect(forbidden?.type === "forbidden" ? forbidden.match : undefined).toEqual([{ action: "pay_benefit" }]);
  });
});

/**
 * A vet clinic whose dispensing tool names the animal `pet_id` and whose chart names it
 * `animal_id`: "charted on the chart of that same pet" ties the two keys, which no `on:` of one
 * key can. The samples show the two sharing values; two labels given (a pet never charted)
 * need the tie.
 */
const clinic = (rule: string) => `---
name: vet-clinic
description: The dispensary assistant at a small-animal clinic.
---
The assistant dispenses doses (\`dispense_dose\`: \`pet_id\`, \`mg\`), writes the medication chart (\`chart_dose\`: \`animal_id\`, \`note\`) and books visits (\`book_visit\`: \`owner\`).

## Charting doses

${rule}
`;
function clinicCases(): [Trajectory, Verdict][] {
  // Two labels given need the tie: with one alone, left out, the plain reading fits the rest and stays (synthesize-reading.ts heldOut).
  const give = (pet: string, mg = "5"): Event => ({ actor: "agent", action: "dispense_dose", metadata: { pet_id: pet, mg } });
  const chart = (pet: string): Event => ({ actor: "agent", action: "chart_dose", metadata: { animal_id: pet, note: `dose for ${pet}` } });
  const book = (owner: string): Event => ({ actor: "agent", action: "book_visit", metadata: { owner } });
  return [
    [trajectory("given-and-charted", [give("P-1"), chart("P-1")]), "true"],
    [trajectory("given-never-charted", [give("P-2"), book("Ms Ode"), book("Mr Pike"), book("Ms Rao")]), "false"],
    [trajectory("visits-only", [book("Mr Lund")]), "na"],
    [trajectory("two-pets-both-charted", [give("P-3"), give("P-4", "10"), chart("P-3"), chart("P-4")]), "true"],
    [trajectory("second-pet-never-charted", [give("P-5"), give("P-6", "10"), chart("P-5"), chart("P-5")]), "false"],
    [trajectory("first-pet-charted-twice", [give("P-7"), give("P-12", "10"), chart("P-12"), chart("P-12")]), "false"],
    // Held out.
    [trajectory("first-pet-never-charted", [give("P-8"), give("P-9", "10"), chart("P-9"), chart("P-9")]), "false"],
    [trajectory("charted-at-the-second-step", [give("P-10"), book("Mr Pike"), chart("P-10")]), "true"],
    [trajectory("charted-too-late", [give("P-11"), book("Mr Pike"), book("Ms Rao"), chart("P-11")]), "false"],
  ];
}

describe("one thing under two key names", () => {
  const voices: [string, string][] = [
    ["plain prose", "Every dose dispensed is charted on the medication chart of that same pet no later than the second step after it."],
    ["capitals", "EACH DOSE GIVEN MUST BE WRITTEN ON THE CHART OF THE SAME ANIMAL WITHIN TWO STEPS."],
    [
      "a flowchart's question",
      "Has a dose been dispensed? If yes, it is to be charted for that same pet no later than the second step after the dose.",
    ],
  ];
  for (const [voice, sentence] of voices)
    it(`ties the dose to the chart, key to key (${voice})`, () => {
      const { rule, held, got } = drafted(clinic(sentence), "Charting doses", clinicCases());
      const pairing = rule.checks.find((c) => c.type === "pairing");
      expect(pairing?.type === "pairing" ? pairing.on : undefined).toEqual({ each: "metadata.pet_id", followedBy: "metadata.animal_id" });
      expect(got).toEqual(held);
    });
});

/**
 * A window the words give in steps, where the phrase reading drafted the two events without one
 * and fits every label given (synthesize-tied.ts): the windowed check is tried as the tie is, and
 * kept where it still fits every label and judges some other sample otherwise.
 */
describe("a window the words give, missing from a draft that fits the labels", () => {
  const samples = [
    trajectory("logged-at-once", [
      { actor: "agent", action: "lift_load", metadata: { lift_id: "L-1" } },
      { actor: "agent", action: "log_lift", metadata: { lift_id: "L-1" } },
    ]),
  ];
  const vocab = {
    keys: new Map(),
    cues: { same: false, fresh: false, within: [1, 3], per: false, sum: false },
    words: new Set(["lift", "log"]),
    splits: () => [],
  };
  const rule = (check: Check): MetaBehavior => ({
    name: "Lift log",
    trigger: { description: "A load is lifted.", match: [{ action: "lift_load" }] },
    checks: [check],
    semanticChecks: [],
  });
  it("reads 'a log after each lift' as a log within the third step after it", () => {
    const required: Check = {
      type: "required",
      quote: "q",
      match: [{ action: "log_lift" }],
      after: [{ action: "lift_load" }],
      on: "metadata.lift_id",
    };
    const found = tiedVariants(rule(required), samples, vocab).map((v) => v.variant.check);
    expect(found).toContainEqual({
      type: "pairing",
      quote: "q",
      each: [{ action: "lift_load" }],
      followedBy: [{ action: "log_lift" }],
      on: "metadata.lift_id",
      within: 3,
    });
    // "Immediately", "next" give a window of one, too loose a word to move a draft that fits.
    expect(found.some((c) => c.type === "pairing" && c.within === 1)).toBe(false);
  });
  it("adds the window to a pairing that has none, and leaves one that has it", () => {
    const pairing: Check = { type: "pairing", quote: "q", each: [{ action: "lift_load" }], followedBy: [{ action: "log_lift" }] };
    const found = tiedVariants(rule(pairing), samples, vocab).map((v) => v.variant.check);
    expect(found).toContainEqual({ ...pairing, within: 3 });
    expect(tiedVariants(rule({ ...pairing, within: 2 }), samples, vocab)).toEqual([]);
  });
});
