/**
 * Issue 25, no labels (nlchart): a procedure written as a flowchart in prose — numbered yes/no questions whose
 * answers stop it ("F2. Is the total more than 2000 litres? If yes, stop. If no, go to Chart G.") — read as the
 * same rule written as a statement. What stopped it (blind17's donor-milk-issue): the step's label ("F2") stood as a
 * sentence of its own, the question was read apart from the answer that makes it a rule, the instruction that says
 * what "the total" adds up ("Add this delivery to every delivery …") was read alone, "If yes, stop: nothing more is
 * …" had no condition, and the person of an act named by what they are doing ("the instructor handing out the rope",
 * "the instructor who hands out a rope") was no doer of any act (flowchart.ts, deeds.ts). Each case is written as plain
 * prose, as the flowchart, as the flowchart on a card in capitals, as minutes and with "shall", in two worlds none of
 * the fixtures use: a harbour's fuel barge and a climbing wall's rope store.
 */
import { describe, expect, it } from "vitest";
import { drafter, sessions, voicesReadAlike, type Step } from "./voice-fixture.js";

const spec = (name: string, preamble: string) => (body: string) =>
  `---\nname: ${name}\ndescription: Rules for the ${name} assistant.\n---\n${preamble}\n\n## The rule\n\n${body}\n`;
const spaced = (t: string) => t.replace(/\s+/g, " ");

describe("a fuel barge: a total per vessel, and nothing more from a recalled tank", () => {
  const session = sessions("f");
  const dip = (tank: string): Step => ["agent", "dip_tank", { tank_id: tank }];
  const deliver = (tank: string, vessel: string, litres: string): Step => [
    "agent",
    "deliver_fuel",
    { tank_id: tank, vessel_id: vessel, litres },
  ];
  const recall = (tank: string): Step => ["agent", "recall_tank", { tank_id: tank }];
  const samples = [
    session(dip("T1"), deliver("T1", "V1", "1500"), deliver("T1", "V1", "400")),
    session(dip("T1"), deliver("T1", "V1", "1500"), deliver("T1", "V1", "800")),
    session(dip("T1"), deliver("T1", "V1", "1500"), deliver("T1", "V2", "1500")),
    session(dip("T1"), recall("T1"), dip("T1"), deliver("T1", "V1", "300")),
    session(dip("T2"), recall("T1"), deliver("T2", "V1", "300")),
  ];
  voicesReadAlike(
    drafter(
      spec(
        "fuel-barge",
        "The assistant runs a harbour's fuel barge. It dips a tank (`dip_tank`, by `tank_id`), delivers diesel to a vessel " +
          "(`deliver_fuel`: `tank_id`, `vessel_id`, `litres`) and recalls a tank (`recall_tank`, by `tank_id`).",
      ),
      samples,
    ),
    [
      [
        "a total per vessel",
        "The diesel delivered to any one vessel in a session, every delivery to that vessel added together, must be at most 2000 litres.",
        [
          // Without flowchart.ts the question, its answer and the instruction before it are three sentences none of which is a rule.
          "F1. Add this delivery to every delivery of diesel already made to the same vessel in this session. Is the total more than 2000 litres? If yes, stop. If no, go to Chart G (a total of exactly 2000 litres is a no).",
          "F1. ADD THIS DELIVERY TO EVERY DELIVERY OF DIESEL ALREADY MADE TO THE SAME VESSEL IN THIS SESSION. IS THE TOTAL MORE THAN 2000 LITRES? IF YES, STOP. IF NO, GO TO CHART G.",
          "Step 3. Add up every delivery of diesel made to the same vessel in this session. Is the sum over 2000 litres? If so, stop.",
          "Agreed (proposed R.T., seconded A.M.): the diesel delivered to any one vessel in a session is not to exceed 2000 litres, every delivery to that vessel being added together.",
          "The diesel delivered to any one vessel in a session, every delivery to that vessel added together, shall not be more than 2000 litres.",
        ],
      ],
      [
        "nothing more from a recalled tank",
        "Once a tank has been recalled, nothing more is delivered from that tank.",
        [
          // Without flowchart.ts "stop: nothing more …" is read with no condition, and the question alone says nothing.
          "F4. Has the tank been recalled earlier in this session? If yes, stop: nothing more is delivered from that tank, even if a later dip of it is clean. If no, go to Chart G.",
          "F4. HAS THE TANK BEEN RECALLED EARLIER IN THIS SESSION? IF YES, STOP: NOTHING MORE IS DELIVERED FROM THAT TANK. IF NO, GO TO CHART G.",
          "Agreed (proposed R.T., seconded A.M.): once a tank has been recalled, nothing more is to be delivered from that tank.",
          "**R. Tamm · Tue 9 Mar, 08:44**\nOne more: once a tank has been recalled, nothing further is delivered from that tank in the session.",
        ],
      ],
    ],
    spaced,
  );
});

describe("a rope store: the instructor handing out a rope is not the one who inspected it", () => {
  const session = sessions("r");
  const inspect = (rope: string, by: string): Step => ["agent", "inspect_rope", { rope_id: rope, inspected_by: by }];
  const handOut = (rope: string, by: string): Step => ["agent", "issue_rope", { rope_id: rope, climber_id: "C1", handed_by: by }];
  const samples = [
    session(inspect("R1", "ana"), handOut("R1", "ben")),
    session(inspect("R1", "ana"), handOut("R1", "ana")),
    session(inspect("R1", "ana"), inspect("R1", "ben"), handOut("R1", "ana")),
    session(inspect("R1", "ana"), inspect("R2", "ben"), handOut("R1", "ben")),
  ];
  voicesReadAlike(
    drafter(
      spec(
        "rope-store",
        "The assistant keeps a climbing wall's rope store. It logs an inspection of a rope (`inspect_rope`: `rope_id`, " +
          "`inspected_by`) and issues a rope to a climber (`issue_rope`: `rope_id`, `climber_id`, `handed_by`).",
      ),
      samples,
    ),
    [
      [
        "another instructor hands it out",
        "A rope is handed out by an instructor other than the one who inspected it.",
        [
          // Without flowchart.ts the question is no statement; without deeds.ts the instructor "handing out the rope" did no act.
          "R2. Is the instructor handing out the rope the instructor who inspected it? If yes, stop. If no, hand it out.",
          "R2. IS THE INSTRUCTOR HANDING OUT THE ROPE THE INSTRUCTOR WHO INSPECTED IT? IF YES, STOP. IF NO, HAND IT OUT.",
          // Without deeds.ts: "who hands out" named no act of a `handed_by` key.
          "The instructor who hands out a rope shall not be the instructor who inspected it.",
          "Agreed (proposed K.L., seconded M.P.): a rope is to be handed out by an instructor other than the one who inspected it.",
        ],
      ],
    ],
    spaced,
  );
});

describe("a pairing tied by a thing the second tool calls by a word of its own ('which names the pet as `animal_ref`')", () => {
  const session = sessions("v");
  const dispense = (pet: string, mg: string): Step => ["agent", "dispense_dose", { pet_id: pet, mg }];
  const log = (pet: string, mg: string): Step => ["agent", "log_dose", { animal_ref: pet, mg }];
  const samples = [
    session(dispense("P1", "20"), log("P1", "20")),
    session(dispense("P1", "20"), log("P2", "20")),
    session(dispense("P1", "20"), dispense("P2", "20"), log("P2", "20"), log("P1", "20")),
    session(dispense("P1", "20"), ["agent", "weigh_pet", { pet_id: "P1" }], ["agent", "weigh_pet", { pet_id: "P1" }], log("P1", "20")),
  ];
  const world = (how: string) =>
    drafter(
      spec(
        "vet-dispensary",
        "The assistant runs a vet clinic's dispensary. It weighs a pet (`weigh_pet`, by `pet_id`), dispenses a dose " +
          `(\`dispense_dose\`: \`pet_id\`, \`mg\`) and logs it ${how}.`,
      ),
      samples,
    );
  const voices = [
    "Every dose dispensed must be logged for that same pet within 2 steps of the dispense.",
    "EVERY DOSE DISPENSED → LOGGED FOR THAT SAME PET WITHIN 2 STEPS OF THE DISPENSE.",
    "Agreed (proposed D.W., seconded H.B.): every dose dispensed is to be logged for that same pet no later than the second step after the dispense.",
    "Every dose dispensed shall be logged for that same pet within 2 steps of the dispense. A log entry for another pet does not count.",
  ];
  const tied = {
    type: "pairing",
    each: [{ action: "dispense_dose" }],
    followedBy: [{ action: "log_dose" }],
    on: { each: "metadata.pet_id", followedBy: "metadata.animal_ref" },
    within: 2,
  };
  // Without glosses.ts's reading of the tool's own word the pet was no key of `log_dose`, and the pairing was tied on `mg`.
  for (const how of [
    "with `log_dose`, which names the pet as `animal_ref` (the log's own word for it) and gives `mg`",
    "(`log_dose`: `animal_ref`, `mg`); the log calls the pet `animal_ref`",
  ])
    it.each(voices)(`${how.slice(0, 40)}…: %j ties the log to the same pet`, (body) => {
      expect(world(how).reading(body).checks).toEqual([tied]);
    });
});

describe("a cold store: 'If no, stop' where the spec says what stopping bans, about the look-up an earlier step found", () => {
  const session = sessions("c");
  const probe = (pallet: string, core: string): Step[] => [
    ["agent", "probe_pallet", { pallet_id: pallet }],
    ["tool", "probe_pallet_result", { pallet_id: pallet, core }],
  ];
  const release = (pallet: string): Step => ["agent", "release_pallet", { pallet_id: pallet }];
  const samples = [
    session(...probe("P1", "pass"), release("P1")),
    session(...probe("P1", "fail"), release("P1")),
    session(...probe("P1", "fail"), ...probe("P1", "pass"), release("P1")),
    session(...probe("P1", "pass"), ...probe("P2", "fail"), release("P2")),
  ];
  const preamble =
    "The assistant releases pallets from a cold store. It probes a pallet (`probe_pallet`, by `pallet_id`; the result gives " +
    '`core`, "pass" or "fail") and releases it (`release_pallet`, by `pallet_id`). Work through the chart for every pallet; ' +
    '"Stop" means the pallet is not released and the shift lead is told.';
  voicesReadAlike(
    drafter(spec("cold-store", preamble), samples),
    [
      [
        "the most recent probe shows a pass",
        'No pallet is released unless the most recent probe of that same pallet shows a core of "pass".',
        [
          // Without the stop's meaning (flowchart.ts withStopMeaning) "If no, stop" says nothing of releasing; without the
          // look-up "that probe" is no probe of that pallet.
          'P1. Find the most recent probe of that same pallet. P2. Does that probe show a core of "pass"? If no, stop. If yes, go to P3.',
          'P1. FIND THE MOST RECENT PROBE OF THAT SAME PALLET. P2. DOES THAT PROBE SHOW A CORE OF "PASS"? IF NO, STOP. IF YES, GO TO P3.',
          'Step 1. Look at the latest probe of the same pallet. Step 2. Does that probe show a core of "pass"? If not, stop.',
          'Agreed (proposed S.V., seconded L.O.): no pallet is to be released unless the most recent probe of that same pallet shows a core of "pass".',
          'No pallet shall be released unless the most recent probe of that same pallet shows a core of "pass".',
        ],
      ],
    ],
    spaced,
  );
});
