/**
 * Issue 25, a voice matrix: "after an act over a threshold, another act on the same thing within N steps", the same
 * rule written in five voices, each drafted with no labels to the same judge (a pairing of `each` the act with its
 * bound, `followedBy` the duty's act, `on` the thing's key, `within` the steps; the trigger the bounded act).
 * - plain prose: "After each check-in of a bike worth more than £800.00, …";
 * - a laminated card: capitals, an arrow, "=", a numeric ordinal ("NO LATER THAN THE 2ND STEP AFTER THE CHECK-IN"), the
 *   act as a noun with a participle ("BIKE WORTH MORE THAN £800.00 CHECKED BACK IN → INSPECTION …");
 * - minutes: "Agreed (proposed Dev, seconded Sal): where a check-in carries a value of more than £800.00, …";
 * - an e-mail with a header line and a correction of an earlier message;
 * - a passive duty: "… is to be inspected …".
 * Two worlds of their own: a bike hire shop (Spoke) and a biobank's freezer room (Rime).
 */
import { describe, expect, it } from "vitest";
import { drafter, sessions, type Step } from "./voice-fixture.js";

const spec = (name: string, description: string, preamble: string) => (body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${preamble}\n\n## The rule\n\n${body}\n`;

// A bike hire shop: a bike is hired out, checked back in with its value, inspected; customers are messaged.
const bikes = sessions("b");
const back = (bike: string, value: string): Step => ["agent", "check_in", { bike_id: bike, value }];
const inspect = (bike: string): Step => ["agent", "inspect_bike", { bike_id: bike }];
const hire = (bike: string): Step => ["agent", "hire_out", { bike_id: bike }];
const note = (customer: string): Step => ["agent", "message_customer", { customer_id: customer }];
const shop = drafter(
  spec(
    "bike-hire",
    "Rules for Spoke, the bike hire shop's counter assistant.",
    "Spoke hires a bike out (`hire_out`, with `bike_id`), checks a bike back in (`check_in`, with `bike_id` and " +
      "`value`, the bike's value in pounds), inspects a bike (`inspect_bike`, with `bike_id`) and messages a customer " +
      "(`message_customer`, with `customer_id`). A step is any one line of the conversation.",
  ),
  [
    bikes(hire("K1"), back("K1", "1200"), inspect("K1")),
    bikes(back("K2", "950"), note("C1"), note("C1"), inspect("K2")),
    bikes(back("K3", "400"), note("C2"), hire("K3")),
    bikes(back("K4", "1500"), inspect("K5"), note("C3")),
    bikes(back("K6", "800"), hire("K6")),
    bikes(back("K7", "2000"), note("C4"), inspect("K7"), hire("K8")),
  ],
);

// A biobank's freezer room: a sample is thawed for some minutes, its temperature logged, it is refrozen or shipped.
const vials = sessions("f");
const thaw = (sample: string, minutes: string): Step => ["agent", "thaw_sample", { sample_id: sample, minutes }];
const temperature = (sample: string): Step => ["agent", "log_temperature", { sample_id: sample }];
const refreeze = (sample: string): Step => ["agent", "refreeze_sample", { sample_id: sample }];
const ask: Step = ["user", "message", undefined, "next one please"];
const freezer = drafter(
  spec(
    "freezer-room",
    "Rules for Rime, the biobank freezer room's assistant.",
    "Rime thaws a sample (`thaw_sample`, with `sample_id` and `minutes`, how long it was out), logs its temperature " +
      "(`log_temperature`, with `sample_id`) and refreezes it (`refreeze_sample`, with `sample_id`). A step is any one " +
      "line of the session, the technician's or Rime's.",
  ),
  [
    vials(thaw("S1", "45"), ask, temperature("S1"), refreeze("S1")),
    vials(thaw("S2", "40"), ask, refreeze("S2"), ask, temperature("S2")),
    vials(thaw("S3", "20"), refreeze("S3")),
    vials(thaw("S4", "90"), temperature("S5"), refreeze("S4")),
    vials(thaw("S6", "30"), ask, ask, ask, refreeze("S6")),
    vials(thaw("S7", "35"), temperature("S7")),
  ],
);

const pairing = (each: string, bound: Record<string, Record<string, number>>, key: string, followedBy: string, within: number) => ({
  trigger: [{ action: each, metadata: bound }],
  checks: [{ type: "pairing", each: [{ action: each, metadata: bound }], followedBy: [{ action: followedBy }], on: key, within }],
  questions: 0,
});
const read = (reading: (body: string) => { trigger?: unknown; checks: unknown[]; questions: number }) => (body: string) => {
  const { trigger, checks, questions } = reading(body);
  return { trigger, checks, questions };
};

describe("an act over a threshold, another act on the same bike within 2 steps, in five voices", () => {
  const expected = pairing("check_in", { value: { gt: 800 } }, "metadata.bike_id", "inspect_bike", 2);
  it.each([
    [
      "plain",
      "After each check-in of a bike worth more than £800.00, an inspection of that same bike must follow no later than the second step after the check-in. A bike of £800.00 or less needs no inspection.",
    ],
    [
      "card",
      "1. BIKE WORTH MORE THAN £800.00 CHECKED BACK IN → INSPECTION OF THAT SAME BIKE NO LATER THAN THE 2ND STEP AFTER THE CHECK-IN.\n" +
        "- £800.00 OR UNDER → NO INSPECTION NEEDED.\n- INSPECTING THE BIKE NEXT TO IT ≠ INSPECTING THIS ONE.",
    ],
    [
      "minutes",
      "Agreed (proposed Dev, seconded Sal): where a check-in carries a value of more than £800.00, an inspection is to be " +
        "made of that same bike no later than the second step after the check-in. An inspection of the bike next to it does not count.",
    ],
    [
      "e-mail",
      "**Priya Shah · Tue 9 Mar, 12:48**\n" +
        "Correction to my note of Monday: after each check-in of a bike worth more than £800.00, an inspection of that same bike is to be logged no later than the second step after the check-in.",
    ],
    [
      "passive",
      "Each bike worth more than £800.00 that is checked back in is to be inspected, for that same bike, no later than the second step after the check-in.",
    ],
  ])("%s", (_voice, body) => {
    expect(read(shop.reading)(body)).toEqual(expected);
  });
});

describe("an act over a threshold, another act on the same sample within 3 steps, in five voices", () => {
  const expected = pairing("thaw_sample", { minutes: { gt: 30 } }, "metadata.sample_id", "log_temperature", 3);
  it.each([
    [
      "plain",
      "After each thaw of more than 30 minutes, the sample's temperature must be logged for that same sample no later than the third step after the thaw.",
    ],
    [
      "card",
      "1. SAMPLE THAWED MORE THAN 30 MINUTES → TEMPERATURE LOGGED FOR THAT SAME SAMPLE NO LATER THAN THE 3RD STEP AFTER THE THAW.\n" +
        "- 30 MINUTES OR LESS → NO LOG NEEDED.",
    ],
    [
      "minutes",
      "Agreed: where a thaw lasts longer than 30 minutes, the temperature is to be logged for that same sample no later " +
        "than the third step after the thaw. A log for the next sample along does not count.",
    ],
    [
      "e-mail",
      "**Jon Pike · Wed 10 Mar, 16:20**\nCorrection to my note of Monday: after each thaw of more than 30 minutes, a " +
        "temperature log is to be made for that same sample no later than the third step after the thaw. A thaw of exactly 30 minutes needs no log.",
    ],
    ["passive", "A temperature is to be logged for that same sample no later than the third step after any thaw of more than 30 minutes."],
  ])("%s", (_voice, body) => {
    expect(read(freezer.reading)(body)).toEqual(expected);
  });
});

// A camera rental counter whose tools are introduced on a card, each by its words, an arrow and its name.
const cameras = sessions("c");
const lend = (camera: string): Step => ["agent", "sign_out", { camera_id: camera }];
const takeBack = (camera: string, value: string): Step => ["agent", "accept_return", { camera_id: camera, value }];
const sensor = (camera: string): Step => ["agent", "test_sensor", { camera_id: camera }];
const counter = drafter(
  spec(
    "camera-rental",
    "Quick-reference card for Shutter, the camera rental counter's assistant.",
    "# COUNTER CARD\n\nWHO DOES WHAT\n- SIGN OUT → `sign_out` (camera_id)\n- TAKE BACK → `accept_return` (camera_id, value = £ ON THE TAG)\n" +
      "- SENSOR TEST → test_sensor (camera_id)\n- STEP = ANY ONE LINE OF THE CHAT.",
  ),
  [
    cameras(lend("C1"), takeBack("C1", "2500"), sensor("C1")),
    cameras(takeBack("C2", "3000"), lend("C3"), lend("C4"), sensor("C2")),
    cameras(takeBack("C5", "900"), lend("C5")),
    cameras(takeBack("C6", "4000"), sensor("C7"), lend("C6")),
    cameras(takeBack("C8", "2000"), lend("C8")),
  ],
);

describe("the act named by the words a card's arrow gives it ('TAKE BACK → `accept_return`'), in three voices", () => {
  const expected = pairing("accept_return", { value: { gt: 2000 } }, "metadata.camera_id", "test_sensor", 2);
  it.each([
    [
      "plain",
      "After each camera worth more than £2,000 is taken back, a sensor test must be run on that same camera no later than the second step after it is taken back.",
    ],
    [
      "card",
      "1. CAMERA WORTH MORE THAN £2,000 TAKEN BACK → SENSOR TEST ON THAT SAME CAMERA NO LATER THAN THE 2ND STEP AFTER THE CAMERA IS TAKEN BACK.\n- £2,000 OR LESS → NO TEST NEEDED.",
    ],
    [
      "minutes",
      "Agreed (proposed Kai, seconded Lou): where a camera taken back is worth more than £2,000, a sensor test is to be run on that same camera no later than the second step after the camera is taken back.",
    ],
  ])("%s", (_voice, body) => {
    expect(read(counter.reading)(body)).toEqual(expected);
  });
});
