/**
 * Issue 25, the voice layer's fourth round (compiler/generate/offline/voice-chat.ts): a pinned crew
 * chat (speakers' names, "No." before the rule, "one per X", "Two … on one … means the second one
 * never …"), a regulator's notice ("Effective …", "shall be reported … through …, no later than the
 * third event following …", "is good for one X only and may not be carried over to a second Y") and
 * the forms the third round left (a runbook's "Wait for X. Only then …", a team lead's "we don't …
 * until then") read as the readers' own voice. A world of its own: a city bike-share depot, whose
 * assistant Spoke inspects bikes, rents them out, takes crash reports and tells the insurer; riders
 * accept the terms in the chat ("I accept the terms").
 */
import { describe, expect, it } from "vitest";
import { voiced } from "../../compiler/generate/offline/voice.js";
import { drafter, sessions, voicesReadAlike, type Step } from "./voice-fixture.js";

const PREAMBLE =
  "Spoke runs the depot's bikes. It inspects a bike (`inspect_bike`, by `bike_id`; the result gives `result`, pass or fail), " +
  "rents it out (`rent_bike`, with the `bike_id` and the `rider`), takes a crash report (`report_crash`, by `bike_id`) and " +
  "tells the insurer about a rental (`notify_insurer`, by `bike_id`).";
const SPEC = (body: string) =>
  `---\nname: bike-depot\ndescription: Rules for Spoke, the bike-share depot's assistant.\n---\n${PREAMBLE}\n\n## The rule\n\n${body}\n`;

const session = sessions("b");
const inspect = (bike: string, result: string): Step[] => [
  ["agent", "inspect_bike", { bike_id: bike }],
  ["tool", "inspect_bike_result", { bike_id: bike, result }],
];
const rent = (bike: string, rider = "R1"): Step => ["agent", "rent_bike", { bike_id: bike, rider }];
const insurer = (bike: string): Step => ["agent", "notify_insurer", { bike_id: bike }];
const crash = (bike: string): Step => ["agent", "report_crash", { bike_id: bike }];
const terms: Step = ["user", "message", undefined, "I accept the terms"];

const samples = [
  session(...inspect("K1", "pass"), terms, rent("K1"), insurer("K1")),
  session(...inspect("K1", "pass"), terms, rent("K1"), rent("K1", "R2"), insurer("K1")),
  session(...inspect("K2", "fail"), terms, rent("K2"), insurer("K2")),
  session(...inspect("K1", "pass"), rent("K1"), insurer("K1")),
  session(...inspect("K3", "pass"), terms, rent("K3"), ["agent", "message"], ["agent", "message"], ["agent", "message"], insurer("K3")),
  session(...inspect("K1", "pass"), terms, rent("K1"), insurer("K1"), crash("K1"), terms, rent("K1"), insurer("K1")),
  session(...inspect("K4", "pass"), terms, rent("K4"), insurer("K5")),
  session(...inspect("K1", "pass"), ...inspect("K6", "fail"), terms, rent("K6"), insurer("K6")),
];

const { drafted, reading } = drafter(SPEC, samples);

describe("one rule in the voices of round 4", () => {
  const cases: [string, string, string[]][] = [
    [
      "an ordering on the rider's words, fresh each time",
      'Before each rent_bike, the words "I accept the terms" must have been written in the chat. One "I accept the terms" covers one rental.',
      [
        'Before each rent_bike, the words "I accept the terms" must have been written in the chat, one per rental.',
        'Before each rent_bike, the words "I accept the terms" must have been written in the chat. Two bikes rented on one "I accept the terms" means the second one never accepted anything.',
        'Before each rent_bike, the words "I accept the terms" must have been written in the chat. An acceptance is good for one rental only and may not be carried over to a second bike.',
        '**Mia (depot lead):** Before each rent_bike, the words "I accept the terms" must have been written in the chat. One "I accept the terms" covers one rental.',
      ],
    ],
    [
      "a pairing within three steps, tied by the bike",
      "Each rent_bike is followed by `notify_insurer` for the same bike within 3 steps of the rent_bike.",
      [
        "Each rent_bike shall be reported to the insurer through `notify_insurer`, for the same bike, no later than the third event following the rent_bike.",
        "Effective 1 March 2027, each rent_bike is followed by `notify_insurer` for the same bike within 3 steps of the rent_bike.",
      ],
    ],
    [
      "an ordering on an inspection that passed, tied by the bike",
      "Spoke rents a bike with rent_bike only after an `inspect_bike` result for that same bike with `result: pass`.",
      [
        "Step 2: wait for an `inspect_bike` result for the bike with `result: pass`. Only then rent that same bike with rent_bike.",
        "What we do is wait for an `inspect_bike` result with `result: pass` for a bike; we don't rent that same bike with rent_bike until then.",
        "**Lou (new):** can Spoke rent a bike out before it is inspected? **Mia:** No. Spoke rents a bike with rent_bike only after an `inspect_bike` result for that same bike with `result: pass`.",
      ],
    ],
  ];
  voicesReadAlike({ drafted, reading }, cases);
});

describe("the round-4 rewrites themselves", () => {
  const knows = (verb: string) => ["rent", "inspect", "report", "notify"].includes(verb);
  it.each([
    ["**Mia:** No. A bike is rented only after it has been inspected", "A bike is rented only after it has been inspected"],
    ["Effective 1 February 2027, each rental is logged", "each rental is logged"],
    ["After a crash we don't rent that bike again", "After a crash Spoke never rents that bike again"],
    // Not a verb an agent act is called by: the team's, not the agent's.
    ["We don't waive fees for students", "We do not waive fees for students"],
    ['"I accept the terms" has to come in, one per rental', '"I accept the terms" has to come in, one covers one rental'],
    ["One acceptance per rental", "One acceptance covers one rental"],
    // A count of the agent's own act stays a count.
    ["One rental per rider", "One rental per rider"],
    ["At most one acceptance per rental", "At most one acceptance per rental"],
  ])("%j reads as %j", (sentence, expected) => {
    expect(voiced(sentence, "Spoke", knows).text).toBe(expected);
  });

  it("reads a question answered by a rule in its own words as nothing of its own", () => {
    const question = "can Spoke rent a bike out before it is inspected";
    expect(voiced(question, "Spoke", knows, "**Mia:** No. A bike is rented only after it has been inspected").text).toBe("");
    // A bare "No" still makes the question a ban.
    expect(voiced(question, "Spoke", knows, "No").text).toBe("Spoke must not rent a bike out until it is inspected");
  });

  it("keeps the spec's words in a quote cut after a speaker's name", () => {
    const { rule, section } = drafted(
      "**Mia:** No. Spoke rents a bike with rent_bike only after an `inspect_bike` result for that same bike with `result: pass`.",
    );
    for (const check of rule.checks) {
      expect(section).toContain(check.quote);
      expect(check.quote).not.toContain("**");
    }
  });
});
