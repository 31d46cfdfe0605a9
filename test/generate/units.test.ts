/**
 * Numbers in the label path (issue 25, units.ts): a number written with a unit bounds only a key of
 * that unit ("10 hours" on `hours_driven`, never on `load_l`), two keys of different units are
 * never compared, numbers written in words are read ("three thousand litres", "one and a half
 * hours") while a pronoun "one" is not, and the comparison the words write ("more than 90 cm")
 * outranks the other side of the same number when labels cannot tell them apart. Sentences of a
 * fuel barge, a courier depot, a ski school and a blood bank, in several voices; none from a fixture.
 */
import { describe, expect, it } from "vitest";
import { buildLexicon } from "../../compiler/generate/offline/lexicon.js";
import { candidates } from "../../compiler/generate/offline/synthesize-candidates.js";
import { numbersIn } from "../../compiler/generate/offline/synthesize-keys.js";
import { writtenCuts } from "../../compiler/generate/offline/synthesize-numbers.js";
import { candidateMatchers } from "../../compiler/generate/offline/synthesize-vocab.js";
import { comparableKeys, keyUnit, unitAround, unitFits, UNITS, writtenNumerals } from "../../compiler/generate/offline/units.js";
import { spelledNumbers } from "../../compiler/generate/offline/number-words.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { Matcher, MetaBehavior } from "../../compiler/ir/types.js";
import type { Trajectory, TrajectoryEvent } from "../../runtime/types.js";

const session = (id: string, events: Omit<TrajectoryEvent, "id">[]): Trajectory => ({
  id,
  description: "",
  complete: true,
  events: [{ actor: "user" as const, action: "message" }, ...events].map((e, i) => ({ ...e, id: `e${i}` })),
});

describe("the unit lexicon", () => {
  it("gives every key word and every written word one unit only", () => {
    for (const side of ["keys", "written"] as const) {
      const words = Object.values(UNITS).flatMap((u) => u[side]);
      expect(words.filter((w, i) => words.indexOf(w) !== i)).toEqual([]);
    }
  });

  it("reads the unit a key's name carries, a one-letter unit only after another word", () => {
    expect(keyUnit("hours_driven")).toBe("hours");
    expect(keyUnit("load_l")).toBe("litres");
    expect(keyUnit("depth_m")).toBe("metres");
    expect(keyUnit("gustKn")).toBe("knots");
    expect(keyUnit("ml")).toBe("ml");
    expect(keyUnit("fee_eur")).toBe("money");
    expect(keyUnit("refund")).toBe("money");
    expect(keyUnit("discount_pct")).toBe("percent");
    expect(keyUnit("wait_min")).toBe("minutes");
    expect(keyUnit("parcel_kg")).toBe("kg");
    expect(keyUnit("speed_kmh")).toBe("kmh");
    expect(keyUnit("fridge_c")).toBe("celsius");
    expect(keyUnit("age")).toBe("years");
    // A unit word wins over a word of money: a cost in percent is a percentage.
    expect(keyUnit("cost_pct")).toBe("percent");
    // No unit: a bare one-letter key, a name of no unit.
    expect(keyUnit("m")).toBeUndefined();
    expect(keyUnit("crates")).toBeUndefined();
    expect(keyUnit("value")).toBeUndefined();
  });

  it("reads the unit written with a number, after it or a currency before it", () => {
    expect(unitAround("for ", " hours or more")).toBe("hours");
    expect(unitAround("over ", "mL?")).toBe("ml");
    expect(unitAround("", " km/h")).toBe("kmh");
    expect(unitAround("", " km of road")).toBe("km");
    expect(unitAround("", "% off")).toBe("percent");
    expect(unitAround("", " per cent")).toBe("percent");
    expect(unitAround("above £", "")).toBe("money");
    expect(unitAround("", " °C")).toBe("celsius");
    expect(unitAround("", " knots")).toBe("knots");
    // A word that merely starts like a unit is none: "2 helpers", "3 mates".
    expect(unitAround("", " helpers")).toBeUndefined();
    expect(unitAround("", " mates")).toBeUndefined();
  });

  it("lets a number bound a key of its own unit or of none, and compares keys of one unit only", () => {
    expect(unitFits("hours", "hours_driven")).toBe(true);
    expect(unitFits("hours", "load_l")).toBe(false);
    expect(unitFits("hours", "crates")).toBe(true);
    expect(unitFits(undefined, "load_l")).toBe(true);
    expect(unitFits("money", "fee_eur")).toBe(true);
    expect(unitFits("percent", "fee_eur")).toBe(false);
    expect(comparableKeys("hours_driven", "load_l")).toBe(false);
    expect(comparableKeys("hours_driven", "rest_hours")).toBe(true);
    expect(comparableKeys("hours_driven", "limit")).toBe(true);
  });
});

describe("numbers written in words", () => {
  it("reads scales, tens and units, halves and dozens", () => {
    const read = (text: string) => spelledNumbers(text).map((s) => s.n);
    expect(read("six thousand")).toEqual([6000]);
    expect(read("seven thousand five hundred")).toEqual([7500]);
    expect(read("two thousand five hundred")).toEqual([2500]);
    expect(read("a hundred and fifty")).toEqual([150]);
    expect(read("twenty-five")).toEqual([25]);
    expect(read("one and a half")).toEqual([1.5]);
    expect(read("a dozen")).toEqual([12]);
    expect(read("two million")).toEqual([2_000_000]);
    expect(read("nil")).toEqual([0]);
    // Two numbers joined by "and" are two numbers; a comma ends one.
    expect(read("two and three")).toEqual([2, 3]);
    expect(read("five, six")).toEqual([5, 6]);
  });

  it("counts as a bound only with a scale or a unit: never the pronoun 'one' nor a count of steps", () => {
    const bounds = (text: string) => writtenNumerals(text).map((x) => [x.n, x.unit]);
    expect(bounds("THE BARGE TAKES ON NO MORE THAN THREE THOUSAND LITRES A BERTH.")).toEqual([[3000, "litres"]]);
    expect(bounds("Any one runner may ski for one and a half hours before a break.")).toEqual([[1.5, "hours"]]);
    expect(bounds("Gusts of twenty-five knots close the lift, says the one who runs it.")).toEqual([[25, "knots"]]);
    expect(bounds("Within two steps, the one on duty logs it.")).toEqual([]);
    expect(bounds("A dozen crates, 24h out, 90mL a bottle.")).toEqual([
      [12, undefined],
      [24, "hours"],
      [90, "ml"],
    ]);
  });

  it("gives the label path the number and the side its words cut, in digits or in words", () => {
    // An item's number names the item (synthesize-references.ts); the load is the bound.
    expect(numbersIn("Minutes, item 4: the depot shall not load more than two thousand five hundred kilos on any one van.")).toEqual([
      2500,
    ]);
    expect(writtenCuts("The tank is not to exceed four thousand litres.")).toEqual([{ n: 4000, cut: "above", allowed: false, op: "gt" }]);
    expect(writtenCuts("Is the run longer than one and a half hours?")).toEqual([{ n: 1.5, cut: "above", allowed: false, op: "gt" }]);
  });
});

/** The range matchers on `key` among the vocabulary's. */
const ranges = (matchers: readonly Matcher[], key: string) =>
  matchers.flatMap((m) => (m.metadata?.[key] !== undefined ? [JSON.stringify(m.metadata[key])] : []));

describe("a number tied to the key its unit names", () => {
  // A fuel barge: each delivery logs the hours the driver has been on the road and the litres carried.
  const samples = [5, 8, 11, 13].map((h, i) =>
    session(`run-${i}`, [
      { actor: "agent", action: "log_delivery", metadata: { berth: `B${i % 2}`, hours_driven: String(h), load_l: String(800 + i * 700) } },
      { actor: "agent", action: "unload", metadata: { berth: `B${i % 2}`, load_l: String(800 + i * 700), rest_hours: String(i + 9) } },
    ]),
  );
  const lexicon = buildLexicon(buildVocabulary(samples), samples);
  const rule: MetaBehavior = {
    name: "Tired drivers",
    trigger: { description: "A load is unloaded.", match: [{ action: "unload" }] },
    checks: [],
    semanticChecks: [],
  };
  const labelOf = (i: number) => (i % 2 === 0 ? ("true" as const) : ("false" as const));

  for (const [voice, text] of [
    ["plain prose", "A driver who has been on the road for 10 hours or more does not unload; the load is 1,500 litres at most."],
    ["capitals", "NO UNLOADING AFTER 10 HOURS OR MORE AT THE WHEEL. LOADS OF 1,500 LITRES AT MOST."],
    [
      "a flowchart question",
      "Q3. Has the driver been driving for ten hours or more? If yes, stop. Q4. Is the load over 1,500 litres? If yes, stop.",
    ],
  ] as const) {
    it(`tries the hours on the hours and the litres on the litres, never across (${voice})`, () => {
      const vocab = candidateMatchers(lexicon, rule, text, samples, labelOf);
      const hours = ranges(vocab.matchers, "hours_driven").join();
      const litres = ranges(vocab.matchers, "load_l").join();
      expect(vocab.saidOn("hours_driven")).toContain(10);
      expect(vocab.saidOn("hours_driven")).not.toContain(1500);
      expect(vocab.saidOn("load_l")).toEqual([1500]);
      expect(litres).not.toMatch(/:10\b/);
      expect(hours).not.toMatch(/1500/);
      // Hours on the road are never compared with litres carried; with the hours of rest they may be.
      const crosses = vocab.crosses({ action: "unload" }, { action: "log_delivery" }, undefined);
      expect(crosses.some((c) => [c.key, c.other].sort().join() === "hours_driven,load_l")).toBe(false);
      expect(crosses.some((c) => [c.key, c.other].sort().join() === "hours_driven,rest_hours")).toBe(true);
    });
  }
});

describe("the comparison the words say when labels cannot tell", () => {
  // A courier depot: no sample shows a parcel of exactly 90 cm, so labels fit `> 90` and `>= 90` alike.
  const samples = [40, 60, 120, 150].map((cm, i) =>
    session(`parcel-${i}`, [{ actor: "agent", action: "accept_parcel", metadata: { length_cm: String(cm), ref: `P${i}` } }]),
  );
  const lexicon = buildLexicon(buildVocabulary(samples), samples);
  const rule: MetaBehavior = {
    name: "Long parcels",
    trigger: { description: "A parcel is accepted.", match: [{ action: "accept_parcel" }] },
    checks: [],
    semanticChecks: [],
  };
  const relevance = (text: string, range: object) =>
    candidateMatchers(lexicon, rule, text, samples, () => "true").relevanceOf({ action: "accept_parcel", metadata: { length_cm: range } });

  for (const [voice, text] of [
    ["a flowchart question", "B2. Is the parcel more than 90 cm long? If yes, it goes to the long-goods bay."],
    ["shall", "A parcel exceeding 90 centimetres shall go to the long-goods bay."],
    ["minutes", "Agreed: anything over 90 cm -> long-goods bay (exactly 90 is a no)."],
  ] as const) {
    it(`prefers the words' side of 90 to the other (${voice})`, () => {
      expect(relevance(text, { gt: 90 })).toBeGreaterThan(relevance(text, { gte: 90 }));
      expect(relevance(text, { lte: 90 })).toBeGreaterThan(relevance(text, { lt: 90 }));
    });
  }

  it("and the other way for 'at least' and 'under'", () => {
    const atLeast = "Parcels at least 90 cm long go to the long-goods bay.";
    expect(relevance(atLeast, { gte: 90 })).toBeGreaterThan(relevance(atLeast, { gt: 90 }));
    const under = "PARCELS UNDER 90 CM GO ON THE SMALL BELT.";
    expect(relevance(under, { lt: 90 })).toBeGreaterThan(relevance(under, { lte: 90 }));
  });
});

describe("a total written in words, per a thing the words name", () => {
  // A fuel barge's pumps have codes (`P-1`, `P-2`) that look like names of one thing, as ids do:
  // the total per pump is still a count per `pump`, and its bound is the number in words.
  const samples = [
    ["P-1", 1200],
    ["P-2", 900],
    ["P-1", 2100],
    ["P-2", 400],
  ].map(([pump, l], i) =>
    session(`fill-${i}`, [{ actor: "agent", action: "dispense", metadata: { pump: String(pump), fuel_l: String(l), ticket_id: `T${i}` } }]),
  );
  const lexicon = buildLexicon(buildVocabulary(samples), samples);
  const rule: MetaBehavior = {
    name: "Pump totals",
    trigger: { description: "Fuel is dispensed.", match: [{ action: "dispense" }] },
    checks: [],
    semanticChecks: [],
  };

  for (const [voice, text] of [
    ["plain prose", "The fuel dispensed from any one pump in a shift is not to exceed three thousand litres in all."],
    ["capitals", "NO PUMP IS TO DISPENSE MORE THAN THREE THOUSAND LITRES IN TOTAL IN A SHIFT."],
  ] as const) {
    it(`is a candidate: per pump, the litres summed, at most 3000 (${voice})`, () => {
      const vocab = candidateMatchers(lexicon, rule, text, samples, () => "true");
      const dispense = vocab.matchers.findIndex((m) => m.action === "dispense" && m.metadata === undefined);
      expect(dispense).toBeGreaterThanOrEqual(0);
      expect(candidates(vocab, [])).toContainEqual({ type: "count", match: dispense, max: 3000, sum: "fuel_l", per: "pump" });
    });
  }
});
