/**
 * Issue 25, the voice layer's third round (compiler/generate/offline/voice-letters.ts, voice-terms.ts):
 * a regulator's notice, an onboarding letter, a manager's e-mail and a contract schedule with defined
 * terms read as the readers' own voice. A world of its own: a school's minibus pool, whose assistant
 * Wheelbase checks a minibus, books it out for a trip, takes defect reports and books it back in; the
 * transport officer releases the keys in the chat ("keys released").
 */
import { describe, expect, it } from "vitest";
import { originalQuote, voiced } from "../../compiler/generate/offline/voice.js";
import { definedTerms } from "../../compiler/generate/offline/voice-terms.js";
import { drafter, sessions, voicesReadAlike, type Step } from "./voice-fixture.js";

const PREAMBLE =
  "Wheelbase runs the school's minibus pool. It can check a minibus (`check_bus`, by `bus_id`; the result gives its " +
  "`mot`, valid or expired), book it out for a trip (`book_bus`, with the `bus_id` and the `miles` planned), take a " +
  "defect report (`report_defect`, by `bus_id`) and book it back in (`return_bus`, by `bus_id`). " +
  'Definitions. A "Trip Booking" is the tool `book_bus`. "Defect Report" means report_defect. A "Route" means the roads a trip takes.';
const SPEC = (body: string) =>
  `---\nname: minibus-pool\ndescription: Rules for Wheelbase, the minibus pool's assistant.\n---\n${PREAMBLE}\n\n## The rule\n\n${body}\n`;

const session = sessions("m");
const book = (bus: string, miles: string): Step => ["agent", "book_bus", { bus_id: bus, miles }];
const back = (bus: string): Step => ["agent", "return_bus", { bus_id: bus }];
const defect = (bus: string): Step => ["agent", "report_defect", { bus_id: bus }];
const keys: Step = ["user", "message", undefined, "keys released"];

const samples = [
  session(keys, book("B1", "40"), back("B1")),
  session(keys, book("B1", "40"), back("B1"), book("B1", "30")),
  session(keys, book("B1", "120"), keys, book("B2", "90")),
  session(book("B2", "60")),
  session(keys, book("B1", "200"), back("B1"), keys, book("B1", "150")),
  session(defect("B1"), keys, book("B2", "50")),
  session(defect("B1"), keys, book("B1", "50")),
  session(keys, book("B3", "250")),
];

const { drafted, reading } = drafter(SPEC, samples);

describe("one rule in the voices of round 3", () => {
  const cases: [string, string, string[]][] = [
    [
      "an ordering on the user's words, fresh each time",
      'Before each book_bus, the words "keys released" must have been written in the chat. One "keys released" covers one trip.',
      [
        'Before each Trip Booking, the words "keys released" must have been written in the chat. One "keys released" covers one trip.',
        'Licensees must ensure that, before each book_bus, the words "keys released" have been written in the chat. One "keys released" covers one trip.',
        'Before each book_bus, the words "keys released" must have been written in the chat. One "keys released" is good for one trip.',
      ],
    ],
    [
      "a ban from an event on, tied by the bus",
      "After a report_defect for a bus, Wheelbase must not book any further trip for that bus.",
      [
        "Upon a Defect Report for a bus, Wheelbase shall not book any further trip for that bus, whatever any later check may show.",
        "After a report_defect for a bus, Wheelbase must not book any further trip for that bus, regardless of what any later check may show.",
      ],
    ],
    [
      "a total per bus",
      "Each bus takes at most 60 miles in total.",
      [
        "No bus takes more than 60 miles in total.",
        "Licensees must ensure that no bus takes more than 60 miles in total.",
        "And each bus takes at most sixty (60) miles in total.",
        "Max 60 miles per bus, all of its trips added up.",
        "Keep each bus to 60 miles at most: add up `miles` over every trip of that bus.",
      ],
    ],
    [
      "a ban after an event, the condition put last",
      "Once a bus has been booked back in with return_bus, nothing more is booked for that bus.",
      ["Nothing more is booked for a bus after it has been booked back in with return_bus."],
    ],
  ];
  voicesReadAlike({ drafted, reading }, cases);
});

describe("the round-3 rewrites themselves", () => {
  it("reads a contract's defined terms as the tools they name, and only terms that name a tool", () => {
    const terms = definedTerms([PREAMBLE], new Set(["book_bus", "report_defect", "check_bus", "return_bus"]));
    expect([...terms]).toEqual([
      ["Trip Booking", "book_bus"],
      ["Defect Report", "report_defect"],
    ]);
    const v = voiced("Prior to each Trip Booking, the bus is checked", "Wheelbase", () => true, undefined, undefined, terms);
    expect(v.text).toBe("Before each book_bus, the bus is checked");
    // A quote cut from the rewrite is the spec's own words.
    expect(originalQuote(v, "each book_bus")).toBe("each Trip Booking");
  });

  it.each([
    [
      "Licensees must ensure that each bus is checked, and that no bus is driven by a learner",
      "each bus is checked, and no bus is driven by a learner",
    ],
    ["You'll be expected to check each bus before a trip", "Wheelbase must check each bus before a trip"],
    ["And a trip has to be approved by the head", "a trip has to be approved by the head"],
    ["I don't want to see an unchecked bus on the road again: every bus is checked before a trip", "every bus is checked before a trip"],
    // Left to the count and sum readers, which read a subject of "no" themselves (voice-overlap.test.ts).
    ["No bus takes more than 60 miles in a day", "No bus takes more than 60 miles in a day"],
    ["One OK opens one trip", "One OK covers one trip"],
    ["2.1 The Provider shall not book a bus save where it has been checked", "Wheelbase books a bus only after it has been checked"],
    ["Every trip: the bus is checked first", "For every trip, the bus is checked first"],
    ["The miles of one trip shall not exceed 60", "The miles of one trip must be at most 60"],
  ])("%j reads as %j", (sentence, expected) => {
    expect(voiced(sentence, "Wheelbase").text).toBe(expected);
  });

  it("reads a tool's noun as its act only when the agent's actions are called by its verb", () => {
    const washes = (verb: string) => verb === "wash";
    expect(voiced("Buses with a flat tyre never go through the washer", "Wheelbase", washes).text).toBe(
      "Buses with a flat tyre are never washed",
    );
    expect(voiced("Every bus goes through the scanner", "Wheelbase", washes).text).toBe("Every bus goes through the scanner");
  });
});
