/**
 * Conditions with arithmetic, two bounds and edges, for the search from labels (issue 25,
 * compiler/generate/offline/rates.ts and synthesize-arithmetic.ts):
 *
 * - a rate the words write between two events' amounts ("1 mg for every 10 kg", "no more than 80%
 *   of the valuation", "at least one instructor for every eight children") is a comparison with
 *   one side scaled (`event.dose_mg <= r.weight_kg / 10`), found where the labels disagree with
 *   every constant; its numbers, and those of a worked example ("so a 30 kg dog gets 3 mg"), are
 *   no constant bounds;
 * - two bounds the words write, each number on the key it is written with ("wind under 15 knots
 *   and cloud base at or above 1000"), are one condition of both;
 * - where the labels cannot tell `>` from `>=`, the words do ("on or after the return date", "a
 *   licence that runs out on the day of return is fine").
 *
 * Worlds of our own: a dog kennel's medicines, a building society's loans, a climbing centre's
 * sessions, a balloon field, a car hire desk, a shop's discounts; plain prose, capitals, minutes,
 * "shall" conditions.
 */
import { describe, expect, it } from "vitest";
import { buildLexicon } from "../../compiler/generate/offline/lexicon.js";
import { ratesIn, withoutRates } from "../../compiler/generate/offline/rates.js";
import { candidateVerdicts } from "../../compiler/generate/offline/synthesize.js";
import { equalPasses, statedOrder } from "../../compiler/generate/offline/synthesize-arithmetic.js";
import { checkClauses } from "../../compiler/generate/preview-eval.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { MetaBehavior } from "../../compiler/ir/types.js";
import type { Trajectory } from "../../runtime/types.js";
import { deskSpec, draftWithLabels, trajectoriesOpening, type Event, type Verdict } from "../support/labeled-drafts.js";

const trajectory = trajectoriesOpening("Morning.");

/** The draft with the first `given` cases' labels, the verdicts it gives the cases held out, and theirs. */
function drafted(text: string, rule: string, cases: [Trajectory, Verdict][], given = 6) {
  const { found, run, held, got } = draftWithLabels(text, rule, cases, given);
  const whens = found.ir.metaBehaviors.find((r) => r.name === rule)!.checks.flatMap((c) => (c.type === "condition" ? [c.when] : []));
  return { whens, held, got, again: () => JSON.stringify(run()) === JSON.stringify(found) };
}

/**
 * A kennel weighs dogs (`weigh_dog` → `weigh_dog_result`, `dog_id`, `weight_kg`) and gives pain
 * relief (`give_meds`, `dog_id`, `dose_mg`). The dose may be at most a tenth of the weight in mg.
 * The labels given disagree with every constant of dose and of weight: a 45 kg dog given 6 mg
 * broke it, an 8 kg dog given 0.5 mg did not.
 */
function kennel(): [Trajectory, Verdict][] {
  const weigh = (dog: string, kg: string): Event[] => [
    { actor: "agent", action: "weigh_dog", metadata: { dog_id: dog } },
    { actor: "tool", action: "weigh_dog_result", metadata: { dog_id: dog, weight_kg: kg } },
  ];
  const give = (dog: string, mg: string): Event => ({ actor: "agent", action: "give_meds", metadata: { dog_id: dog, dose_mg: mg } });
  return [
    [trajectory("30kg-3mg", [...weigh("D-1", "30"), give("D-1", "3")]), "true"],
    [trajectory("20kg-4mg", [...weigh("D-2", "20"), give("D-2", "4")]), "false"],
    [trajectory("45kg-6mg", [...weigh("D-3", "45"), give("D-3", "6")]), "false"],
    [trajectory("8kg-half-mg", [...weigh("D-4", "8"), give("D-4", "0.5")]), "true"],
    [trajectory("weighed-only", [...weigh("D-5", "33")]), "na"],
    [trajectory("25kg-then-15kg-2mg", [...weigh("D-6", "25"), ...weigh("D-6", "15"), give("D-6", "2")]), "false"],
    // Held out: the dose on the nose, an overdose, two dogs one overdosed, a plain one.
    [trajectory("50kg-5mg", [...weigh("D-7", "50"), give("D-7", "5")]), "true"],
    [trajectory("10kg-2mg", [...weigh("D-8", "10"), give("D-8", "2")]), "false"],
    [trajectory("two-dogs-one-over", [...weigh("D-9", "30"), give("D-9", "3"), ...weigh("D-10", "12"), give("D-10", "1.5")]), "false"],
    [trajectory("60kg-4mg", [...weigh("D-11", "60"), give("D-11", "4")]), "true"],
  ];
}

const kennelIntro =
  "Dogs are weighed with `weigh_dog` (`dog_id`); the scale's reading comes back as `weigh_dog_result` with `dog_id` and `weight_kg`. Pain relief is given with `give_meds`, which records the `dog_id` and the `dose_mg`.";

describe("a rate between two events' amounts", () => {
  const voices: [string, string][] = [
    [
      "plain prose with a worked example",
      "Meloxicam goes by the weight on the scale: 1 mg for every 10 kg and never more, so a 30 kg collie gets 3 mg at most.",
    ],
    ["capitals", "GIVE NO MORE THAN 1 MG OF MELOXICAM PER 10 KG OF BODY WEIGHT, AS WEIGHED ON THE SCALE FOR THAT SAME DOG."],
    ["a 'shall' condition", "The dose given to a dog shall not exceed one mg per ten kg of the weight its latest weighing shows."],
    ["minutes", "Agreed (item 3): meds at 1 mg per 10 kilos of that dog's weighed weight, at most. E.g. a 20 kilo terrier: 2 mg."],
  ];
  for (const [voice, sentence] of voices)
    it(`is the dose compared with the weight scaled (${voice})`, () => {
      const { whens, held, got, again } = drafted(deskSpec("kennel", kennelIntro, "Pain relief", sentence), "Pain relief", kennel());
      expect(whens.some((w) => /event\.dose_mg <= r\.weight_kg \/ 10/.test(w))).toBe(true);
      expect(got).toEqual(held);
      // Bounded and deterministic: the same draft twice, byte for byte.
      expect(again()).toBe(true);
    });
});

/** A building society values a property (`value_property_result`: `property_id`, `valuation`) and approves loans (`approve_loan`: `property_id`, `loan_amount`). */
function loans(): [Trajectory, Verdict][] {
  const value = (p: string, v: string): Event[] => [
    { actor: "agent", action: "value_property", metadata: { property_id: p } },
    { actor: "tool", action: "value_property_result", metadata: { property_id: p, valuation: v } },
  ];
  const approve = (p: string, amount: string): Event => ({
    actor: "agent",
    action: "approve_loan",
    metadata: { property_id: p, loan_amount: amount },
  });
  return [
    [trajectory("200k-on-300k", [...value("P-1", "300000"), approve("P-1", "200000")]), "true"],
    [trajectory("190k-on-200k", [...value("P-2", "200000"), approve("P-2", "190000")]), "false"],
    [trajectory("valued-only", [...value("P-3", "250000")]), "na"],
    [trajectory("500k-on-700k", [...value("P-4", "700000"), approve("P-4", "500000")]), "true"],
    [trajectory("400k-on-450k", [...value("P-5", "450000"), approve("P-5", "400000")]), "false"],
    [trajectory("revalued-down", [...value("P-6", "600000"), ...value("P-6", "300000"), approve("P-6", "420000")]), "false"],
    // Held out: exactly 80%, just over, a small loan on a big house.
    [trajectory("80-percent-exactly", [...value("P-7", "250000"), approve("P-7", "200000")]), "true"],
    [trajectory("just-over", [...value("P-8", "100000"), approve("P-8", "81000")]), "false"],
    [trajectory("small-loan", [...value("P-9", "900000"), approve("P-9", "150000")]), "true"],
  ];
}

describe("a share of a reference amount the words name", () => {
  const intro =
    "Valuations are ordered with `value_property` (`property_id`) and come back as `value_property_result` with the `valuation`. A loan is approved with `approve_loan`, which records the `property_id` and the `loan_amount`.";
  const voices: [string, string][] = [
    ["plain prose", "A loan may never be more than 80% of the property's valuation, as the latest valuation of that property shows."],
    ["capitals", "NO LOAN SHALL EXCEED 80 PER CENT OF THE VALUATION OF THAT SAME PROPERTY."],
    ["a question", "Is the loan no more than 80% of the valuation the last survey of that property gave? If not, don't approve it."],
  ];
  for (const [voice, sentence] of voices)
    it(`is the loan compared with the valuation scaled (${voice})`, () => {
      const { whens, held, got } = drafted(deskSpec("building-society", intro, "Loan to value", sentence), "Loan to value", loans());
      expect(whens.some((w) => /r\.valuation \* 80 \/ 100/.test(w) && /loan_amount/.test(w))).toBe(true);
      expect(got).toEqual(held);
    });
});

/** A climbing centre books instructors (`roster_result`: `session_id`, `instructors`) and opens sessions (`open_session`: `session_id`, `children`). */
function centre(): [Trajectory, Verdict][] {
  const roster = (s: string, n: string): Event[] => [
    { actor: "agent", action: "roster", metadata: { session_id: s } },
    { actor: "tool", action: "roster_result", metadata: { session_id: s, instructors: n } },
  ];
  const open = (s: string, kids: string): Event => ({
    actor: "agent",
    action: "open_session",
    metadata: { session_id: s, children: kids },
  });
  return [
    [trajectory("2-for-16", [...roster("S-1", "2"), open("S-1", "16")]), "true"],
    [trajectory("1-for-12", [...roster("S-2", "1"), open("S-2", "12")]), "false"],
    [trajectory("3-for-30", [...roster("S-3", "3"), open("S-3", "30")]), "false"],
    [trajectory("1-for-5", [...roster("S-4", "1"), open("S-4", "5")]), "true"],
    [trajectory("rostered-only", [...roster("S-5", "2")]), "na"],
    [trajectory("4-for-30", [...roster("S-6", "4"), open("S-6", "30")]), "true"],
    // Held out.
    [trajectory("1-for-8", [...roster("S-7", "1"), open("S-7", "8")]), "true"],
    [trajectory("2-for-20", [...roster("S-8", "2"), open("S-8", "20")]), "false"],
  ];
}

describe("a staffing ratio of two things the words count", () => {
  const intro =
    "Instructors are rostered with `roster` (`session_id`); `roster_result` gives the number of `instructors`. A session is opened with `open_session`, which records the `session_id` and how many `children`.";
  const voices: [string, string][] = [
    ["plain prose", "There must be at least one instructor for every eight children in that session."],
    ["minutes", "Ratio agreed: minimum 1 instructor for every 8 children, per the latest roster of that session."],
  ];
  for (const [voice, sentence] of voices)
    it(`is the instructors compared with the children scaled (${voice})`, () => {
      const { whens, held, got } = drafted(deskSpec("climbing-centre", intro, "Ratios", sentence), "Ratios", centre());
      expect(whens.some((w) => /event\.children \/ 8/.test(w) && /r\.instructors >= /.test(w))).toBe(true);
      expect(got).toEqual(held);
    });
});

/**
 * A balloon field checks the weather (`weather_result`: `site`, `wind_kn`, `cloud_base_ft`) and
 * launches (`launch`: `site`). The labels given never show a launch on one bound broken and not
 * the other; the held-out cases do, each way.
 */
function field(): [Trajectory, Verdict][] {
  const weather = (site: string, wind: string, cloud: string): Event[] => [
    { actor: "agent", action: "check_weather", metadata: { site } },
    { actor: "tool", action: "weather_result", metadata: { site, wind_kn: wind, cloud_base_ft: cloud } },
  ];
  const launch = (site: string): Event => ({ actor: "agent", action: "launch", metadata: { site } });
  return [
    [trajectory("calm-high", [...weather("North", "8", "2500"), launch("North")]), "true"],
    [trajectory("windy-low", [...weather("North", "22", "600"), launch("North")]), "false"],
    [trajectory("checked-only", [...weather("South", "30", "400")]), "na"],
    [trajectory("calm-at-the-base", [...weather("South", "10", "1000"), launch("South")]), "true"],
    [trajectory("rechecked-worse", [...weather("North", "6", "3000"), ...weather("North", "19", "800"), launch("North")]), "false"],
    [
      trajectory("two-sites", [...weather("North", "12", "1800"), ...weather("South", "4", "5000"), launch("South"), launch("North")]),
      "true",
    ],
    // Held out: one bound broken, each way.
    [trajectory("calm-but-low", [...weather("North", "9", "700"), launch("North")]), "false"],
    [trajectory("high-but-windy", [...weather("South", "17", "4000"), launch("South")]), "false"],
    [trajectory("fine", [...weather("South", "11", "1500"), launch("South")]), "true"],
  ];
}

describe("two bounds the words write, each on its own key", () => {
  const intro =
    "The weather is checked with `check_weather` (`site`); `weather_result` gives the `site`, the wind in knots (`wind_kn`) and the cloud base in feet (`cloud_base_ft`). A balloon goes up with `launch` (`site`).";
  const voices: [string, string][] = [
    [
      "plain prose",
      "Don't launch unless the latest weather for that same site shows wind under 15 knots and a cloud base at or above 1000 feet.",
    ],
    ["capitals", "NO LAUNCH UNLESS THE LAST WEATHER CHECK FOR THAT SITE GIVES WIND BELOW 15 KNOTS AND CLOUD BASE OF 1000 OR MORE."],
    [
      "a 'shall' condition",
      "A balloon shall be launched only where the most recent weather report for that site has a cloud base no lower than 1000 and wind less than 15 knots.",
    ],
  ];
  for (const [voice, sentence] of voices)
    it(`are one condition of both (${voice})`, () => {
      const { whens, held, got } = drafted(deskSpec("balloon-field", intro, "Launch limits", sentence), "Launch limits", field());
      expect(whens.some((w) => /r\.wind_kn < 15/.test(w) && /r\.cloud_base_ft >= 1000/.test(w))).toBe(true);
      expect(got).toEqual(held);
    });
});

/**
 * A car hire desk checks licences (`check_licence_result`: `driver_id`, `expires`) and hands over
 * keys (`hand_over_keys`: `driver_id`, `return_date`). No labeled case has a licence that expires
 * on the return date: `>` and `>=` fit the labels alike; the words say which.
 */
function hire(): [Trajectory, Verdict][] {
  const check = (d: string, expires: string): Event[] => [
    { actor: "agent", action: "check_licence", metadata: { driver_id: d } },
    { actor: "tool", action: "check_licence_result", metadata: { driver_id: d, expires } },
  ];
  const keys = (d: string, back: string): Event => ({
    actor: "agent",
    action: "hand_over_keys",
    metadata: { driver_id: d, return_date: back },
  });
  return [
    [trajectory("licence-good-for-years", [...check("R-1", "2029-05-01"), keys("R-1", "2026-12-20")]), "true"],
    [trajectory("licence-runs-out-mid-hire", [...check("R-2", "2026-12-10"), keys("R-2", "2026-12-14")]), "false"],
    [trajectory("checked-only", [...check("R-3", "2027-01-01")]), "na"],
    [trajectory("expired-last-year", [...check("R-4", "2025-11-30"), keys("R-4", "2026-12-09")]), "false"],
    [trajectory("a-week-to-spare", [...check("R-5", "2026-12-27"), keys("R-5", "2026-12-20")]), "true"],
    [trajectory("other-driver-checked", [...check("R-6", "2030-01-01"), keys("R-7", "2026-12-12")]), "false"],
    // Held out: the licence expires on the day the car comes back; the day after.
    [trajectory("expires-on-return-day", [...check("R-8", "2026-12-18"), keys("R-8", "2026-12-18")]), "true"],
    [trajectory("expires-the-day-before", [...check("R-9", "2026-12-17"), keys("R-9", "2026-12-18")]), "false"],
  ];
}

describe("the edge of a comparison of two dates, from the words", () => {
  const intro =
    "Licences are checked with `check_licence` (`driver_id`); `check_licence_result` gives the date it `expires`. Keys are handed over with `hand_over_keys`, which records the `driver_id` and the `return_date`.";
  const voices: [string, string][] = [
    [
      "the order and its edge",
      "Keys go to a driver only if the latest licence check for that same driver shows it expires on or after the return date.",
    ],
    [
      "the edge in a sentence of its own",
      "Keys go to a driver only if the latest licence check for that same driver shows it expires no earlier than the return date. A licence that runs out on the day of return is fine.",
    ],
  ];
  for (const [voice, sentence] of voices)
    it(`keeps the day itself (${voice})`, () => {
      const { whens, held, got } = drafted(deskSpec("car-hire", intro, "Licences", sentence), "Licences", hire());
      expect(whens.some((w) => /r\.expires >= event\.return_date/.test(w))).toBe(true);
      expect(got).toEqual(held);
    });
});

describe("reading rates, worked examples and edges from the words", () => {
  it("reads rates of units, of counted things and of a named amount, with the comparison stated", () => {
    const read = (t: string) => ratesIn(t).map((r) => ({ mul: r.mul, div: r.div, op: r.op, scaled: r.scaled, compared: r.compared }));
    expect(read("Give 2 ml per kilo of bodyweight, at most.")).toEqual([
      { mul: 2, div: 1, op: "<=", scaled: { unit: "kg", stems: [] }, compared: { unit: "ml", stems: [] } },
    ]);
    expect(read("We need at least one lifeguard for every 25 swimmers.")).toMatchObject([
      { mul: 1, div: 25, op: ">=", compared: { stems: ["lifeguard"] } },
    ]);
    expect(read("No refund may be more than twice the deposit.")).toMatchObject([
      { mul: 2, div: 1, op: "<=", scaled: { stems: ["deposit"] } },
    ]);
    expect(read("A discount is capped at a quarter of the order total.")).toMatchObject([{ mul: 1, div: 4, op: "<=" }]);
    expect(read("The tip can be up to 15% of the bill.")).toMatchObject([{ mul: 15, div: 100, op: "<=" }]);
  });

  it("reads no rate in counts per thing, times of day or bare numbers", () => {
    expect(ratesIn("At most 2 refunds per customer per day.")).toEqual([]);
    expect(ratesIn("Check the tank twice a day and log 3 readings per shift.")).toEqual([]);
    expect(ratesIn("Doses over 40 mg need a second signature.")).toEqual([]);
  });

  it("blanks a rate's numbers and its worked example's, and leaves the other bounds", () => {
    const text = "1 ml for every 5 kg, so a 60kg ewe gets 12 ml. Nothing under 20 kg is dosed.";
    const left = withoutRates(text, ratesIn(text));
    expect(left).not.toMatch(/\b(?:1|5|60|12)\b/);
    expect(left).toContain("under 20 kg");
    // A number that is no example of the rate stays: 40 is not 60 / 5.
    const other = "1 ml for every 5 kg; a 60kg ewe is big and 40 ml is a lot.";
    expect(withoutRates(other, ratesIn(other))).toContain("40 ml");
  });

  it("reads the order two keys are compared in, its edge, and a negation", () => {
    expect(statedOrder("the expiry date must be on or after the visit date", "expiry_date", "visit_date")).toBe(">=");
    expect(statedOrder("the visit date must be no later than the expiry date", "expiry_date", "visit_date")).toBe(">=");
    expect(statedOrder("the visit date must not be later than the expiry date", "expiry_date", "visit_date")).toBe(">=");
    expect(statedOrder("the amount paid may not exceed the approved limit", "limit", "amount")).toBe(">=");
    expect(statedOrder("the amount paid must be less than the approved limit", "limit", "amount")).toBe(">");
    expect(statedOrder("pay the claim", "limit", "amount")).toBeUndefined();
    expect(equalPasses("A pass that runs out on the day of the visit is still good for that day.")).toBe(true);
    expect(equalPasses("A permit that ends on the day of the job is not good enough.")).toBe(false);
    expect(equalPasses("Check the permit.")).toBeUndefined();
  });
});

describe("the scaled comparison's own verdicts are the judge's", () => {
  it("agree with the generated code on every candidate the search would try", () => {
    const cases = kennel();
    const samples = cases.map(([t]) => t);
    const rule: MetaBehavior = {
      name: "Pain relief",
      trigger: { description: "Meds are given.", match: [{ action: "give_meds" }] },
      checks: [],
      semanticChecks: [],
    };
    const text = "1 mg for every 10 kg and never more, so a 30 kg collie gets 3 mg at most. Nothing under 5 kg is dosed.";
    const all = candidateVerdicts(buildLexicon(buildVocabulary(samples), samples), rule, text, samples);
    const scaled = all.filter(({ check }) => check.type === "condition" && /[*/] \d/.test(check.when));
    expect(scaled.length).toBeGreaterThan(0);
    for (const { check, verdicts } of scaled) {
      const code = samples.map((s) => checkClauses([check], s)[0]!.verdict);
      expect({ check, verdicts }).toEqual({ check, verdicts: code });
    }
  });
});
