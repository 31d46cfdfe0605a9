/**
 * Issue 25, round nlpara3: the paraphrase bench's worst losses (bench/voice-invariance.js), each a mechanism:
 * - "Don't make more than three reprints in one session": a light verb before a number of an act's noun is that act
 *   ("make more than three reprints" is reprinting), so the Do/Don't page's "Don't" is the agent's ban; the number was
 *   read as a floor (voice-words.ts actByNoun);
 * - "Don't dispense anything to a patient for the rest of the session once a check has flagged that patient": a ban
 *   whose condition, a clause of its own pointing back ("that patient"), comes last (voice-trailing.ts);
 * - "Note every refund: call note_refund …": a Do list's heading before the colon that spells it out with the tool's
 *   name; "Report a reading showing `temp: high` with report_fault …": the thing shown is when; "Key release
 *   (`kind: master`): the duty manager writes … first": a slide's act as its heading, what comes first before each;
 *   "No boat is launched without a clearance: the most recent … must show …": the colon says what it is launched only
 *   with (voice-headings.ts);
 * - "Can the assistant ship a parcel with `class: hazmat` or `class: lithium` whatever its label says? No: …": the
 *   values in backticks after the question's object say which acts the answer is about (voice-joins.ts askedAct).
 * And the readings the last round noticed and left:
 * - "The assistant records every vaccination: the assistant calls record_dose …": the heading in a registrar's voice;
 * - the stemmer: "shred" stemmed "shr" (its "-ed" taken for an ending), "cancelled" "cancell", "added" "ad", so words
 *   and names of one act did not meet (words.ts stem);
 * - "Can the assistant hire out a boat once …? That is exactly what we are here to prevent.": the answer is the
 *   question's "No"; the question was dropped as context (speakers.ts deniesAsked, context.ts, voice.ts).
 * Worlds none of the fixtures use: a print room, a pharmacy, a vet clinic, a cold store, a key safe, a
 * harbour, a parcel depot, a disposal desk, a boat-hire jetty.
 */
import { describe, expect, it } from "vitest";
import { drafter, sessions, type Step } from "./voice-fixture.js";

const spec = (name: string, preamble: string) => (body: string) =>
  `---\nname: ${name}\ndescription: Rules for the ${name} assistant.\n---\n${preamble}\n\n## The rule\n\n${body}\n`;
const spaced = (t: string) => t.replace(/\s+/g, " ");

/** Each voice drafts the checks (and trigger) of the first, which fails some sample and asks nothing of a model. */
function readAlike(desk: ReturnType<typeof drafter>, voices: string[], expected: unknown) {
  it(`the first voice reads it (${voices[0]!.slice(0, 70)}…)`, () => {
    const first = desk.reading(voices[0]!);
    expect(first.checks).toEqual(expected);
    expect(first.questions).toBe(0);
    expect(first.fail.length).toBeGreaterThan(0);
  });
  it.each(voices.slice(1))("%j drafts the same judge", (body) => {
    expect(desk.reading(body)).toEqual(desk.reading(voices[0]!));
  });
  it.each(voices)("the quotes of %j are the spec's own words", (body) => {
    const { rule, section } = desk.drafted(body);
    for (const clause of [...rule.checks, ...rule.semanticChecks]) expect(spaced(section)).toContain(spaced(clause.quote));
  });
}

describe("a light verb before a number of an act's noun: 'make more than three reprints' is reprinting", () => {
  const session = sessions("p");
  const reprint = (j: string): Step => ["agent", "reprint_job", { job_id: j }];
  const room = drafter(spec("print-room", "The assistant runs a print room's queue. It reprints a job (`reprint_job`, by `job_id`)."), [
    session(reprint("J1"), reprint("J2"), reprint("J3"), reprint("J4")),
    session(reprint("J5"), reprint("J6")),
    session(reprint("J7"), reprint("J8"), reprint("J9")),
  ]);
  readAlike(
    room,
    [
      "At most three reprints are made in one session, whatever jobs they are for.",
      "Don't make more than three reprints in one session, whatever jobs they are for.",
      "Never make more than three reprints in one session, whatever jobs they are for.",
      "Do not carry out more than 3 reprints in one session, whatever jobs they are for.",
      "The assistant must not make more than three reprints in one session, whatever jobs they are for.",
    ],
    [{ type: "count", match: [{ action: "reprint_job" }], max: 3 }],
  );
});

describe("a ban with its condition last, pointing back at what the ban names", () => {
  const session = sessions("r");
  const check = (p: string, status: string): Step[] => [
    ["agent", "check_allergy", { patient_id: p }],
    ["tool", "check_allergy_result", { patient_id: p, status }],
  ];
  const dispense = (p: string): Step => ["agent", "dispense_drug", { patient_id: p }];
  const pharmacy = drafter(
    spec(
      "pharmacy-counter",
      "The assistant works a pharmacy counter. It checks a patient's allergies (`check_allergy`, by `patient_id`; the " +
        "result gives a `status`, clear or allergic) and dispenses (`dispense_drug`, by `patient_id`).",
    ),
    [
      session(...check("P1", "allergic"), dispense("P1")),
      session(...check("P2", "clear"), dispense("P2")),
      session(...check("P3", "allergic"), dispense("P4")),
      session(dispense("P5"), ...check("P5", "allergic")),
    ],
  );
  readAlike(
    pharmacy,
    [
      "Once a check_allergy result has shown `status: allergic` for a patient, nothing is dispensed to that patient for the rest of the session.",
      "Don't dispense anything to a patient for the rest of the session once a check_allergy result has shown `status: allergic` for that patient.",
      "Never dispense anything to a patient for the rest of the session after a check_allergy result has shown `status: allergic` for that patient.",
      "The assistant never dispenses anything to a patient for the rest of the session once a check_allergy result has shown `status: allergic` for that patient.",
    ],
    [
      {
        type: "forbidden",
        match: [{ action: "dispense_drug" }],
        after: [{ action: "check_allergy_result", metadata: { status: "allergic" } }],
        on: "metadata.patient_id",
      },
    ],
  );
});

describe("a Do list's heading before the colon that spells it out with the tool's name", () => {
  const session = sessions("v");
  const vaccinate = (p: string): Step => ["agent", "give_vaccine", { pet_id: p }];
  const record = (p: string): Step => ["agent", "record_dose", { pet_id: p }];
  const clinic = drafter(
    spec(
      "vet-clinic",
      "The assistant works a vet clinic's front desk. It vaccinates a pet (`give_vaccine`, by `pet_id`) and writes the " +
        "dose into the pet's card (`record_dose`, by `pet_id`).",
    ),
    [
      session(vaccinate("P1"), record("P1")),
      session(vaccinate("P2"), record("P3")),
      session(vaccinate("P4")),
      session(vaccinate("P5"), vaccinate("P6"), record("P6"), record("P5")),
    ],
  );
  // The plain imperative's own reading of "after …, before the session ends" depends on the samples (ordering or
  // required; left to the readers): what is tested is that the heading changes nothing of it.
  const plain = "Call record_dose for the same pet (its `pet_id`) after give_vaccine, before the session ends.";
  it("the plain imperative reads both acts on the pet, with no question", () => {
    const read = clinic.reading(plain);
    expect(read.questions).toBe(0);
    expect(read.checks).toHaveLength(1);
    expect(JSON.stringify(read.checks)).toMatch(/record_dose.*give_vaccine|give_vaccine.*record_dose/);
    expect(read.checks[0]).toMatchObject({ on: "metadata.pet_id" });
    expect(read.fail.length).toBeGreaterThan(0);
  });
  it.each([
    "Do record every vaccination: call record_dose for the same pet (its `pet_id`) after give_vaccine, before the session ends.",
    "Record each dose: call record_dose for the same pet (its `pet_id`) after give_vaccine, before the session ends.",
    "Write up every jab: call record_dose for the same pet (its `pet_id`) after give_vaccine, before the session ends.",
    // A registrar's voice: the agent named before its verb, in the heading and in the rule.
    "The assistant records every vaccination: the assistant calls record_dose for the same pet (its `pet_id`) after give_vaccine, before the session ends.",
  ])("%j drafts the plain imperative's judge", (body) => {
    expect(clinic.reading(body)).toEqual(clinic.reading(plain));
    const { rule, section } = clinic.drafted(body);
    for (const clause of rule.checks) expect(spaced(section)).toContain(spaced(clause.quote));
  });
});

describe("the thing shown is when: 'report a reading showing `temp: high` with report_fault'", () => {
  const session = sessions("c");
  const read = (f: string, temp: string): Step[] => [
    ["agent", "read_probe", { freezer_id: f }],
    ["tool", "read_probe_result", { freezer_id: f, temp }],
  ];
  const report = (f: string): Step => ["agent", "report_fault", { freezer_id: f }];
  const chat: Step = ["user", "message", undefined, "ok"];
  const store = drafter(
    spec(
      "cold-store",
      "The assistant watches a cold store. It reads a freezer's probe (`read_probe`, by `freezer_id`; the result gives " +
        "`temp`, ok or high) and reports a fault to the engineer (`report_fault`, by `freezer_id`).",
    ),
    [
      session(...read("F1", "high"), report("F1")),
      session(...read("F2", "high"), chat, chat, chat, report("F2")),
      session(...read("F3", "ok"), chat),
      session(...read("F4", "high"), report("F5")),
    ],
  );
  readAlike(
    store,
    [
      "Whenever a reading shows `temp: high`, report it with report_fault for that freezer within two steps.",
      "Report a reading showing `temp: high` with report_fault for that freezer within two steps.",
      "Do report any reading that shows `temp: high` with report_fault for that freezer within two steps.",
    ],
    [
      {
        type: "pairing",
        each: [{ action: "read_probe_result", metadata: { temp: "high" } }],
        followedBy: [{ action: "report_fault" }],
        on: "metadata.freezer_id",
        within: 2,
      },
    ],
  );
});

describe("a slide's act as its heading: what comes 'first' comes before each", () => {
  const session = sessions("k");
  const release = (kind: string): Step => ["agent", "release_key", { kind }];
  const approve: Step = ["user", "message", undefined, "Key approved, go ahead"];
  const hello: Step = ["user", "message", undefined, "hello"];
  const safe = drafter(
    spec(
      "key-safe",
      "The assistant minds a key safe. It releases a key (`release_key`, with its `kind`, master or spare); the duty " +
        "manager writes in the chat.",
    ),
    [
      session(approve, release("master")),
      session(hello, release("master")),
      session(hello, release("spare")),
      session(release("master"), approve),
    ],
  );
  readAlike(
    safe,
    [
      'Before each key release (`kind: master`), the duty manager writes "Key approved" in the chat.',
      'Key release (`kind: master`): the duty manager writes "Key approved" in the chat first.',
      'Master key release (`kind: master`): the duty manager writes "Key approved" in the chat beforehand.',
    ],
    [
      {
        type: "ordering",
        first: [{ actor: "user", content: { matches: "\\bKey\\s+approved\\b", flags: "i" } }],
        before: [{ action: "release_key", metadata: { kind: "master" } }],
        fresh: true,
      },
    ],
  );
  it("a heading that is no act stays a heading", () => {
    // "Rule" names no act of the agent's: nothing is put before it.
    expect(safe.reading('Rule (`kind: master`): the duty manager writes "Key approved" in the chat first.').checks).not.toEqual(
      safe.reading('Before each key release (`kind: master`), the duty manager writes "Key approved" in the chat.').checks,
    );
  });
});

describe("'No X without a Y: <the look-up must show …>': X only with the Y the colon describes", () => {
  const session = sessions("h");
  const weather = (h: string, sea: string): Step[] => [
    ["agent", "check_weather", { harbour: h }],
    ["tool", "check_weather_result", { harbour: h, sea }],
  ];
  const launch = (h: string): Step => ["agent", "launch_boat", { harbour: h }];
  const harbour = drafter(
    spec(
      "harbour-office",
      "The assistant runs a harbour office. It checks the weather (`check_weather`, by `harbour`; the result gives the " +
        "`sea`, calm or rough) and launches a boat (`launch_boat`, by `harbour`).",
    ),
    [
      session(...weather("North", "calm"), launch("North")),
      session(...weather("North", "rough"), launch("North")),
      session(...weather("South", "calm"), launch("North")),
      session(...weather("South", "rough"), ...weather("South", "calm"), launch("South")),
    ],
  );
  readAlike(
    harbour,
    [
      "A boat is launched only with a clearance: the most recent check_weather result for that harbour must show `sea: calm`.",
      "No boat is launched without a clearance: the most recent check_weather result for that harbour must show `sea: calm`.",
      "From now on, no boat is launched without a clearance: the most recent check_weather result for that harbour must show `sea: calm`.",
    ],
    [
      {
        type: "condition",
        each: [{ action: "launch_boat" }],
        with: { r: { latest: [{ action: "check_weather_result" }], on: "metadata.harbour" } },
        when: 'r.sea == "calm"',
      },
    ],
  );
});

describe("an FAQ's question about acts with values in backticks: the answer is about those acts", () => {
  const session = sessions("s");
  const inspect = (p: string, cleared: string): Step[] => [
    ["agent", "inspect_parcel", { parcel_id: p }],
    ["tool", "inspect_parcel_result", { parcel_id: p, cleared }],
  ];
  const ship = (p: string, cls: string): Step => ["agent", "ship_parcel", { parcel_id: p, class: cls }];
  const depot = drafter(
    spec(
      "parcel-depot",
      "The assistant works a parcel depot. It inspects a parcel (`inspect_parcel`, by `parcel_id`; the result says whether " +
        "it is `cleared`) and ships it (`ship_parcel`: `parcel_id`, `class`: standard, hazmat or lithium).",
    ),
    [
      session(...inspect("A1", "yes"), ship("A1", "hazmat")),
      session(...inspect("A2", "no"), ship("A2", "lithium")),
      session(...inspect("A3", "no"), ship("A3", "standard")),
      session(ship("A4", "hazmat")),
    ],
  );
  readAlike(
    depot,
    [
      "For each ship_parcel with `class: hazmat` or `class: lithium`, the latest inspect_parcel result for that same parcel must show `cleared: yes`.",
      "Can the assistant ship a parcel with `class: hazmat` or `class: lithium` whatever its label says? No: the latest inspect_parcel result for that same parcel must show `cleared: yes`.",
      "Can you ship a parcel with `class: hazmat` or `class: lithium` without an inspection? No: the latest inspect_parcel result for that same parcel must show `cleared: yes`.",
    ],
    [
      {
        type: "condition",
        each: [{ action: "ship_parcel", metadata: { class: { in: ["hazmat", "lithium"] } } }],
        with: { r: { latest: [{ action: "inspect_parcel_result" }], on: "metadata.parcel_id" } },
        when: 'r.cleared == "yes"',
      },
    ],
  );
});

describe("the stemmer: a verb's own '-ed', a doubled 'l', a word of three letters", () => {
  it.each([
    // "shred", "embed", "exceed", "proceed": verbs whose own form ends in "-ed" stem as their participles do.
    ["shred", "shredded", "shredding", "shreds"],
    ["exceed", "exceeded", "exceeds", "exceeding"],
    ["proceed", "proceeded", "proceeds"],
    ["embed", "embedded", "embedding"],
    // British spelling doubles the "l" of "cancel", "label", "travel".
    ["cancel", "cancelled", "cancelling", "canceled", "cancels"],
    ["label", "labelled", "labelling", "labels"],
    ["travel", "travelled", "travelling"],
    // A verb in "-ee" takes only a "d"; a word of three letters keeps its double ("added" is "add").
    ["agree", "agreed", "agrees"],
    ["add", "added", "adding", "adds"],
  ])("%s stems as %s, %s …", async (...forms) => {
    const { stem } = await import("../../compiler/generate/offline/words.js");
    expect(new Set(forms.map(stem)).size).toBe(1);
  });
  it.each([
    ["spell", "spelled"],
    ["roll", "rolled"],
    ["call", "called"],
    ["install", "installed"],
    ["ship", "shipped"],
  ])("%s and %s still stem alike, a double kept where the verb has one", async (...forms) => {
    const { stem } = await import("../../compiler/generate/offline/words.js");
    expect(new Set(forms.map(stem)).size).toBe(1);
  });

  const session = sessions("m");
  const shred = (b: string): Step => ["agent", "shred_media", { box_id: b }];
  const cancel = (b: string): Step => ["agent", "cancel_pickup", { box_id: b }];
  // The spec names no tool: the words "shredded", "shredding" are all that tie the rule to `shred_media`.
  const desk = drafter(spec("disposal-desk", "The assistant runs a disposal desk for a records office."), [
    session(shred("B1"), shred("B2"), shred("B3")),
    session(shred("B4"), cancel("B4")),
    session(cancel("B5"), cancel("B6"), cancel("B7")),
  ]);
  readAlike(
    desk,
    [
      "At most two boxes are shredded in one session.",
      "No more than two boxes may be shredded in a session.",
      "SHREDDING MORE THAN TWO BOXES IN ONE SESSION IS NOT ALLOWED.",
      "Never shred more than two boxes in one session.",
    ],
    [{ type: "count", match: [{ action: "shred_media" }], max: 2 }],
  );
});

describe("an FAQ's question answered 'That is exactly what we are here to prevent': its 'No'", () => {
  const session = sessions("t");
  const hire = (b: string): Step => ["agent", "hire_boat", { boat_id: b }];
  const fault = (b: string): Step => ["agent", "flag_fault", { boat_id: b }];
  const look = (b: string): Step => ["agent", "check_boat", { boat_id: b }];
  const jetty = drafter(
    spec(
      "boat-hire",
      "The assistant runs a rowing-boat hire jetty. It checks a boat (`check_boat`), hires a boat out (`hire_boat`, by " +
        "`boat_id`) and flags a fault on a boat (`flag_fault`, by `boat_id`).",
    ),
    [
      session(look("B1"), hire("B1")),
      session(fault("B1"), hire("B1")),
      session(fault("B1"), look("B1"), hire("B2")),
      session(fault("B3"), look("B3")),
    ],
  );
  readAlike(
    jetty,
    [
      "Can the assistant hire out a boat once a fault has been flagged on that boat? No.",
      "Can the assistant hire out a boat once a fault has been flagged on that boat? That is exactly what we are here to prevent.",
      "Can we hire out a boat once a fault has been flagged on that boat? That would be a breach of the jetty's rules.",
      "CAN THE ASSISTANT HIRE OUT A BOAT ONCE A FAULT HAS BEEN FLAGGED ON THAT BOAT? THAT IS NOT ALLOWED.",
      "Can the assistant hire out a boat once a fault has been flagged on that boat? That's the one thing this jetty exists to prevent.",
    ],
    [{ type: "forbidden", match: [{ action: "hire_boat" }], after: [{ action: "flag_fault" }], on: "metadata.boat_id" }],
  );
});
