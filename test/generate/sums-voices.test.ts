/**
 * Issue 25, round 13 (sums2): a total per entity read alike in any voice. The same bound on a total, written in plain
 * prose, on a card in capitals with a dash and arrows, in minutes ("Agreed (proposed …): … is not to exceed …"), in an
 * e-mail thread with headers and a correction, and as an "is to be" duty, drafts the same check. What stopped it:
 * a contrast after the measured thing ("…, metered energy, not reserved energy") read as a qualifier (voice-contrasts.ts),
 * a unit two acts carry ("300 kWh" of `reserve_charge` and `deliver_charge`) read as a count of the act a group's noun
 * names ("one fleet": `check_fleet`), an example's "two fleets … are two caps" read as a count, and a noun that names
 * the summed key ("the nitrogen fed …", `nitrogen_g`) read as a product's value too (summed.ts). Three worlds none of
 * the fixtures use: an electric-bus depot's charging desk, an instrument rental counter, a market garden's feed log.
 */
import { describe, expect, it } from "vitest";
import { drafter, sessions, type Step } from "./voice-fixture.js";

const spec = (name: string, preamble: string) => (body: string) =>
  `---\nname: ${name}\ndescription: Rules for the ${name} assistant.\n---\n${preamble}\n\n## The rule\n\n${body}\n`;

/** Each voice of a case drafts the checks of the first, which reads a sum that fails some sample and asks nothing of a model. */
function sameJudge(
  reading: ReturnType<typeof drafter>["reading"],
  drafted: ReturnType<typeof drafter>["drafted"],
  voices: string[],
  expected: unknown,
) {
  it(`the first voice reads the sum (${voices[0]!.slice(0, 60)}…)`, () => {
    const first = reading(voices[0]!);
    expect(first.checks).toEqual(expected);
    expect(first.fail.length).toBeGreaterThan(0);
  });
  it.each(voices.slice(1))("%j drafts the same judge", (body) => {
    expect(reading(body).checks).toEqual(expected);
    expect(reading(body).fail).toEqual(reading(voices[0]!).fail);
  });
  it.each(voices)("the quotes of %j are the spec's own words", (body) => {
    const { rule, section } = drafted(body);
    const spaced = (t: string) => t.replace(/\s+/g, " ");
    for (const clause of [...rule.checks, ...rule.semanticChecks]) expect(spaced(section)).toContain(spaced(clause.quote));
  });
}

describe("a total per fleet in kWh, a unit both the reserving and the delivering act carry", () => {
  const session = sessions("d");
  const check: Step = ["agent", "check_fleet", { fleet_id: "F1" }];
  const reserve = (fleet: string, kwh: string): Step => ["agent", "reserve_charge", { fleet_id: fleet, bay: "B2", kwh }];
  const deliver = (fleet: string, kwh: string): Step => ["agent", "deliver_charge", { fleet_id: fleet, bay: "B2", kwh }];
  const samples = [
    session(check, reserve("F1", "200"), deliver("F1", "200"), deliver("F1", "100")),
    session(check, reserve("F1", "400"), deliver("F1", "200"), deliver("F1", "150")),
    session(check, deliver("F1", "200"), deliver("F2", "200")),
    session(check, check, check),
  ];
  const { drafted, reading } = drafter(
    spec(
      "charging-desk",
      "The assistant runs an electric-bus depot's charging desk. It checks a fleet's account (`check_fleet`, by `fleet_id`), " +
        "reserves a charge (`reserve_charge`: `fleet_id`, `bay`, `kwh`) and delivers it (`deliver_charge`, the same fields). " +
        "Energy is in kilowatt-hours (kWh).",
    ),
    samples,
  );
  sameJudge(
    reading,
    drafted,
    [
      "The energy delivered to one fleet in a session, every delivery to that fleet added together, must be at most 300 kWh.",
      "AT MOST 300 KWH DELIVERED PER FLEET PER SESSION — EVERY DELIVERY TO THAT FLEET ADDED UP, METERED KWH, NOT RESERVED KWH.\n- 300 KWH ON THE DOT → OK.\n- 2 FLEETS ON 1 DEPOT → 2 SEPARATE LIMITS.",
      "Agreed (proposed R.O., seconded J.K.): the energy delivered to any one fleet in a session is not to exceed 300 kWh, every delivery to that fleet being added together.",
      "**R. Okafor · Mon 8 Mar, 09:05**\nThe cap as drafted: 30 kWh per driver.\n\n**R. Okafor · Wed 10 Mar, 14:10**\nCorrection to my note of Monday: the figure is 300 kWh, not 30, and it is per fleet, not per driver. The energy delivered to one fleet in a session, every delivery to that fleet added together, is to be at most 300 kWh.\n\n**R. Okafor · Wed 10 Mar, 14:31**\nExactly at the cap is within it. Two fleets at one depot are two caps.",
      "The energy delivered to one fleet in a session is to be at most 300 kWh, all its deliveries taken together.",
    ],
    [{ type: "count", match: [{ action: "deliver_charge" }], sum: "metadata.kwh", max: 300, per: "metadata.fleet_id" }],
  );

  it("asks a model rather than count events when the words name neither act that carries the unit", () => {
    const { checks, questions } = reading(
      "The energy under one fleet in a session, every one for that fleet added together, must be at most 300 kWh.",
    );
    expect(checks).toEqual([]);
    expect(questions).toBe(1);
  });

  it("reads no count from a sentence that says how many caps there are", () => {
    expect(reading("Two fleets at one depot are two caps.").checks).toEqual([]);
    expect(reading("2 FLEETS ON 1 DEPOT → 2 SEPARATE LIMITS.").checks).toEqual([]);
  });
});

describe("a total per renter in pounds, measured by one key and set against another", () => {
  const session = sessions("r");
  const check: Step = ["agent", "check_renter", { renter_id: "R1" }];
  const rent = (renter: string, value: string, fee: string): Step => [
    "agent",
    "rent_instrument",
    { renter_id: renter, instrument_id: `I${value}`, value, fee },
  ];
  const samples = [
    session(check, rent("R1", "1200", "40"), rent("R1", "800", "30")),
    session(check, rent("R1", "1500", "60"), rent("R1", "700", "20")),
    session(check, rent("R1", "1500", "60"), rent("R2", "1500", "60")),
    session(check),
  ];
  const { drafted, reading } = drafter(
    spec(
      "rental-counter",
      "The assistant serves an instrument rental counter. It checks a renter (`check_renter`, by `renter_id`) and rents " +
        "an instrument out (`rent_instrument`: `renter_id`, `instrument_id`, `value` = £ insured, `fee` = £ rental fee).",
    ),
    samples,
  );
  sameJudge(
    reading,
    drafted,
    [
      "The value rented to one renter in a session, every instrument rented to that renter added up, must be at most £2,000.00.",
      "AT MOST £2,000.00 OF INSTRUMENTS PER RENTER PER SESSION — EVERY INSTRUMENT RENTED TO THAT RENTER ADDED UP, INSURED VALUE, NOT RENTAL FEE.\n- £2,000.00 ON THE DOT → OK. £2,000.01 → NO.\n- 2 RENTERS IN 1 BAND → 2 SEPARATE LIMITS.",
      "Agreed (proposed Ana, seconded Luis): the value rented to any one renter in a session is not to exceed £2,000.00, every instrument rented to that renter being added together.",
      "**Kim Osei · Tue 9 Mar, 12:48**\nCorrection to my note of Monday: the limit is £2,000.00, not £200, and it is per renter, not per band. The insured value rented to one renter in a session, every instrument rented to that renter added together, is to be at most £2,000.00.",
      "At most £2,000.00 of instruments is to be rented to any one renter in a session, every instrument rented to that renter added up, insured value, not rental fee.",
    ],
    [{ type: "count", match: [{ action: "rent_instrument" }], sum: "metadata.value", max: 2000, per: "metadata.renter_id" }],
  );

  it("counts nothing by the figure of a money amount (the 2 of £2,000.00)", () => {
    const counts = reading("MAX £2,000.00 OF INSTRUMENTS PER RENTER PER SESSION.").checks.filter(
      (c) => c.type === "count" && !("sum" in c),
    );
    expect(counts).toEqual([]);
  });
});

describe("a total per bed whose noun also names a product", () => {
  const session = sessions("g");
  const feed = (bed: string, product: string, grams: string): Step => ["agent", "feed_bed", { bed_id: bed, product, nitrogen_g: grams }];
  const samples = [
    session(feed("B1", "nitrogen blend", "20"), feed("B1", "potash", "0"), feed("B1", "nitrogen blend", "10")),
    session(feed("B1", "nitrogen blend", "20"), feed("B1", "nitrogen blend", "15")),
    session(feed("B1", "potash", "0"), feed("B2", "potash", "0")),
    session(feed("B1", "nitrogen blend", "25"), feed("B2", "nitrogen blend", "25")),
  ];
  const { drafted, reading } = drafter(
    spec(
      "feed-log",
      "The assistant keeps a market garden's feed log. It logs each feed of a bed (`feed_bed`: `bed_id`, `product`, " +
        "`nitrogen_g`); potash feeds are logged with a `nitrogen_g` of 0.",
    ),
    samples,
  );
  sameJudge(
    reading,
    drafted,
    [
      "The nitrogen fed to any one bed in a session must be at most 30 g, every feed of that bed added together.",
      "AT MOST 30 G OF NITROGEN FED PER BED PER SESSION — EVERY FEED OF THAT BED ADDED UP.\n- 30 G ON THE DOT → OK.\n- 2 BEDS IN 1 TUNNEL → 2 SEPARATE LIMITS.",
      "Agreed (proposed JV, seconded MK): the nitrogen fed to any one bed in a session is not to exceed 30 g, every feed of that bed being added together.",
      "**Helen Marsh · Wed 10 Mar, 14:10**\nCorrection to my note of Monday: the figure is 30 g, not 3, and it is per bed, not per tunnel. The nitrogen fed to one bed in a session, every feed of that bed added together, is to be at most 30 g.",
      "At most 30 g of nitrogen is to be fed to any one bed in a session, all its feeds taken together.",
    ],
    [{ type: "count", match: [{ action: "feed_bed" }], sum: "metadata.nitrogen_g", max: 30, per: "metadata.bed_id" }],
  );
});
