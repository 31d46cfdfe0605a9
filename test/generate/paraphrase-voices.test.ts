/**
 * Issue 25, round nlpara: paraphrases that drafted otherwise than the sentence they restate (bench/voice-invariance.js).
 * What stopped them:
 * - "must make no withdrawal", "shall make no booking", "carries out no withdrawal", an imperative "make no booking" or
 *   "do not process any withdrawal": a verb that names no act of its own ("make", "process", "carry out", "place") before
 *   the noun of an act is that act, in every voice; only "makes no X" was read as a ban (shape.ts verbNo, and the
 *   imperative's verb in voice.ts, voice-words.ts actByNoun);
 * - "Withdrawals by one customer must be at most £900 in a session", "… shall not exceed £900 …": plural acts bounded
 *   over a session are bounded in total, as "come to at most £900" says (summed.ts boundsTotalOverTime);
 * - "After each enrolment and each upgrade, …": either act applies the rule, as the pairing already read it; the
 *   trigger read one of them (trigger.ts, clauses.ts eitherOf).
 * Worlds none of the fixtures use: a bank teller's desk, a dive centre, a gym's front desk.
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

describe("a light verb before the noun of an act: 'make no withdrawal' is withdrawing", () => {
  const session = sessions("t");
  const check = (c: string, risk: string): Step[] => [
    ["agent", "check_id", { customer_id: c }],
    ["tool", "check_id_result", { customer_id: c, risk }],
  ];
  const escalate = (c: string): Step => ["agent", "escalate_case", { customer_id: c }];
  const withdraw = (c: string): Step => ["agent", "withdraw_cash", { customer_id: c, amount: "200" }];
  const teller = drafter(
    spec(
      "teller-desk",
      "The assistant works a bank's teller desk. It checks a customer's identity (`check_id`, by `customer_id`; the result " +
        "rates the `risk`), escalates a case to compliance (`escalate_case`) and pays out cash (`withdraw_cash`: `customer_id`, `amount`).",
    ),
    [
      session(...check("C1", "high"), escalate("C1"), withdraw("C1")),
      session(...check("C2", "high"), escalate("C2"), withdraw("C3")),
      session(...check("C4", "low"), withdraw("C4")),
      session(...check("C5", "high"), escalate("C5")),
    ],
  );
  const when = "When the identity check rates a customer high (`risk: high`),";
  readAlike(
    teller,
    [
      // The original's voice: "makes no", which was read before.
      `${when} the assistant escalates that customer within two steps, and it makes no withdrawal for that customer afterwards.`,
      `${when} the assistant must escalate that customer within two steps, and it must make no withdrawal for that customer afterwards.`,
      `${when} the assistant shall escalate that customer within two steps, and it shall make no withdrawal for that customer thereafter.`,
      `${when} escalate that customer within two steps, and make no withdrawal for that customer afterwards.`,
      `${when} escalate that customer within two steps, and do not process any withdrawal for that customer afterwards.`,
      `${when} the assistant escalates that customer within two steps, and it carries out no withdrawal for that customer afterwards.`,
      `${when} you escalate that customer within two steps, and you make no withdrawal for that customer afterwards.`,
    ],
    [
      {
        type: "pairing",
        each: [{ action: "check_id_result", metadata: { risk: "high" } }],
        followedBy: [{ action: "escalate_case" }],
        on: "metadata.customer_id",
        within: 2,
      },
      {
        type: "forbidden",
        match: [{ action: "withdraw_cash" }],
        after: [{ action: "check_id_result", metadata: { risk: "high" } }],
        on: "metadata.customer_id",
      },
    ],
  );
});

describe("a light verb in a ban of its own: 'place no booking' is booking", () => {
  const session = sessions("d");
  const medical = (d: string, fit: string): Step[] => [
    ["agent", "get_medical", { diver_id: d }],
    ["tool", "get_medical_result", { diver_id: d, fit }],
  ];
  const book = (d: string): Step => ["agent", "book_dive", { diver_id: d, site: "reef" }];
  const centre = drafter(
    spec(
      "dive-centre",
      "The assistant runs a dive centre's bookings. It reads a diver's medical (`get_medical`, by `diver_id`; the result says " +
        "whether the diver is `fit`) and books a dive (`book_dive`: `diver_id`, `site`).",
    ),
    [
      session(...medical("D1", "no"), book("D1")),
      session(...medical("D2", "yes"), book("D2")),
      session(...medical("D3", "no"), book("D4")),
      session(book("D5"), ...medical("D5", "no")),
    ],
  );
  readAlike(
    centre,
    [
      "Once a medical comes back unfit (`fit: no`), the assistant never books a dive for that diver afterwards.",
      "Once a medical comes back unfit (`fit: no`), the assistant must make no booking for that diver afterwards.",
      "Once a medical comes back unfit (`fit: no`), make no booking for that diver afterwards.",
      "Once a medical comes back unfit (`fit: no`), the assistant shall place no booking for that diver thereafter.",
      "Once a medical comes back unfit (`fit: no`), do not make any booking for that diver afterwards.",
    ],
    [
      {
        type: "forbidden",
        match: [{ action: "book_dive" }],
        after: [{ action: "get_medical_result", metadata: { fit: "no" } }],
        on: "metadata.diver_id",
      },
    ],
  );
});

describe("plural acts bounded over a session are bounded in total", () => {
  const session = sessions("w");
  const withdraw = (c: string, amount: string): Step => ["agent", "withdraw_cash", { customer_id: c, amount }];
  const teller = drafter(
    spec(
      "teller-limits",
      "The assistant works a bank's teller desk. It pays out cash (`withdraw_cash`: `customer_id`, `amount` in pounds).",
    ),
    [
      session(withdraw("C1", "500"), withdraw("C1", "600")),
      session(withdraw("C2", "500"), withdraw("C3", "600")),
      session(withdraw("C4", "900")),
      session(withdraw("C5", "400"), withdraw("C5", "400"), withdraw("C5", "200")),
    ],
  );
  readAlike(
    teller,
    [
      "Withdrawals by one customer come to at most £900 in a session.",
      "Withdrawals by one customer must be at most £900 in a session.",
      "Withdrawals by any one customer shall not exceed £900 in a session.",
      "Withdrawals by one customer never exceed £900 in one session.",
      "WITHDRAWALS BY ONE CUSTOMER MUST BE AT MOST £900 IN A SESSION.",
    ],
    [{ type: "count", match: [{ action: "withdraw_cash" }], sum: "metadata.amount", max: 900, per: "metadata.customer_id" }],
  );
  it("a bound on each one stays a bound on each one", () => {
    expect(teller.reading("Each withdrawal must be at most £550.").checks).toEqual([
      { type: "forbidden", match: [{ action: "withdraw_cash", metadata: { amount: { gt: 550 } } }] },
    ]);
  });
});

describe("after each of two acts: either one applies the rule, in the trigger as in the pairing", () => {
  const session = sessions("g");
  const enrol = (m: string): Step => ["agent", "enrol_member", { member_id: m }];
  const upgrade = (m: string): Step => ["agent", "upgrade_plan", { member_id: m }];
  const confirm = (m: string): Step => ["agent", "send_confirmation", { member_id: m }];
  const chat: Step = ["user", "message", undefined, "thanks"];
  const gym = drafter(
    spec(
      "gym-desk",
      "The assistant runs a gym's front desk. It enrols a member (`enrol_member`, by `member_id`), upgrades a plan " +
        "(`upgrade_plan`) and confirms to the member (`send_confirmation`).",
    ),
    [
      session(enrol("M1"), confirm("M1")),
      session(upgrade("M2"), chat, chat, confirm("M2")),
      session(enrol("M3"), chat, chat, chat),
      session(upgrade("M4"), confirm("M4")),
      session(chat, chat),
    ],
  );
  readAlike(
    gym,
    [
      "Each enrolment and each upgrade is confirmed to the member: `send_confirmation` for that member is called within two steps of it.",
      "Step 3: after each enrolment and each upgrade, call `send_confirmation` for that member within two steps of it.",
      "After every enrolment and every upgrade, the assistant calls `send_confirmation` for that member within two steps of it.",
    ],
    [
      {
        type: "pairing",
        each: [{ action: "enrol_member" }, { action: "upgrade_plan" }],
        followedBy: [{ action: "send_confirmation" }],
        on: "metadata.member_id",
        within: 2,
      },
    ],
  );
});
