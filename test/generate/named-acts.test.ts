/**
 * Issue 25, no labels (nolabel): a rule the phrase readers leave wholly to the model (a sentence that
 * calls a sequence "a breach" or "what we are here to prevent" rather than saying "must not") was read
 * from its words over the samples only where the section wrote a name in backticks, an amount or a
 * name with its underscore; a spec in prose names its acts in its own words, so the rule stayed a
 * question, n/a on every sample. Now, with no labels, words that name an act by every word of its name
 * ("a dog put in quarantine" for `quarantine_dog`) are read so too (named-acts.ts), only as a reading
 * some sample breaks, the two events in the order the words write them, the later one forbidden where
 * the words say the sequence is what they prevent. Words about how the agent puts something stay a
 * question. Two worlds none of the fixtures use (a boarding kennel, a bike-share dock), each in several
 * voices: plain prose, capitals, a manager's note, "shall".
 */
import { describe, expect, it } from "vitest";
import { drafter, sessions, type Step } from "./voice-fixture.js";

const spec = (name: string, preamble: string) => (body: string) =>
  `---\nname: ${name}\ndescription: Rules for the ${name} assistant.\n---\n${preamble}\n\n## The rule\n\n${body}\n`;

describe("a boarding kennel: a dog in quarantine is not taken on the group walk", () => {
  const session = sessions("k");
  const quarantine = (d: string): Step => ["agent", "quarantine_dog", { dog_id: d }];
  const walk = (d: string): Step => ["agent", "group_walk", { dog_id: d }];
  const clear = (d: string): Step => ["agent", "clear_dog", { dog_id: d }];
  const feed = (d: string): Step => ["agent", "feed_dog", { dog_id: d }];
  const samples = [
    session(feed("D1"), walk("D1")),
    session(quarantine("D1"), walk("D1")),
    session(quarantine("D1"), feed("D1"), walk("D2")),
    session(quarantine("D2"), feed("D2"), clear("D2")),
    session(quarantine("D3"), walk("D3"), feed("D1")),
    session(feed("D2"), walk("D2"), walk("D1")),
    session(quarantine("D1"), walk("D2"), feed("D1")),
  ];
  const { reading } = drafter(
    spec(
      "kennel",
      "The assistant keeps a boarding kennel's log. It feeds a dog (`feed_dog`), puts a dog in quarantine " +
        "(`quarantine_dog`: `dog_id`), takes dogs out on the group walk (`group_walk`) and clears a dog (`clear_dog`).",
    ),
    samples,
  );
  it.each([
    "A dog in quarantine that goes out on the group walk is exactly what this log exists to prevent.",
    "A DOG PUT IN QUARANTINE AND THEN TAKEN ON THE GROUP WALK IS A BREACH OF KENNEL STANDARD 4.",
    "Noted by the manager: a quarantined dog on the group walk would be a breach of our licence.",
    "Any dog that has been placed in quarantine and is afterwards taken on a group walk shall constitute a violation.",
  ])("%j: the walk is forbidden after the quarantine of the same dog, and the two walks of quarantined dogs fail", (body) => {
    const found = reading(body);
    expect(found.checks).toEqual([
      { type: "forbidden", match: [{ action: "group_walk" }], after: [{ action: "quarantine_dog" }], on: "metadata.dog_id" },
    ]);
    expect(found.questions).toBe(0);
    expect(found.fail).toEqual(["k2", "k5"]);
  });

  it("how the agent tells the owner stays a question for the model, though the words name the quarantine", () => {
    const found = reading(
      "When a dog is put in quarantine, the owner hears about it from us in plain language and kindly, with what happens next.",
    );
    expect(found.checks).toEqual([]);
    expect(found.questions).toBeGreaterThan(0);
  });
});

describe("a bike-share dock: a bike flagged with a fault is not hired out", () => {
  const session = sessions("b");
  const hire = (b: string, rider: string): Step => ["agent", "hire_bike", { bike_id: b, rider_id: rider }];
  const flag = (b: string): Step => ["agent", "flag_fault", { bike_id: b }];
  const fix = (b: string): Step => ["agent", "repair_bike", { bike_id: b }];
  const look = (b: string): Step => ["agent", "check_bike", { bike_id: b }];
  const samples = [
    session(look("B1"), hire("B1", "R1")),
    session(flag("B1"), hire("B1", "R1")),
    session(flag("B1"), look("B1"), hire("B2", "R2")),
    session(look("B2"), flag("B1"), hire("B2", "R1")),
    session(flag("B2"), hire("B2", "R3"), look("B1")),
    session(look("B3"), hire("B3", "R1"), hire("B1", "R2")),
    session(flag("B3"), look("B3"), fix("B3")),
  ];
  const { reading } = drafter(
    spec(
      "bike-share",
      "The assistant runs a bike-share dock. It checks a bike (`check_bike`), hires a bike out (`hire_bike`: `bike_id`, " +
        "`rider_id`), flags a fault (`flag_fault`) and repairs a bike (`repair_bike`).",
    ),
    samples,
  );
  it.each([
    "A bike flagged with a fault and hired out to a rider before the repair of that bike is exactly what we are here to prevent.",
    "Hiring out a bike that is flagged with a fault, ahead of its repair, is the one thing this dock exists to prevent.",
    "WE KEEP RIDERS SAFE: A BIKE FLAGGED WITH A FAULT AND THEN HIRED OUT IS A BREACH OF THIS STANDARD.",
  ])("%j: the hire is forbidden after the fault flag of the same bike", (body) => {
    const found = reading(body);
    expect(found.checks).toEqual([
      { type: "forbidden", match: [{ action: "hire_bike" }], after: [{ action: "flag_fault" }], on: "metadata.bike_id" },
    ]);
    expect(found.fail).toEqual(["b2", "b5"]);
  });
});
