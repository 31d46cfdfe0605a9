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
 * - "Don't feed anything into a tank once …": a verb whose own form ends in "-ed" ("feed", "shred") was taken for a
 *   participle, so no imperative (voice-words.ts BASE_IN_ED); "Can the assistant feed … after it is sealed? No." once
 *   its condition was put first was no question any more (voice.ts ASKED_AT); a slide's "→ nothing more fed into that
 *   tank" has no "is" (voice-forms.ts "nothing more"); "No. Spare food goes back to the store." is the bare answer and a
 *   remark, not the rule in words of its own (speakers.ts answersInOwnWords);
 * - "The Assistant agrees to call file_receipt … after each collect_parcel, before the session ends": a duty with
 *   "after each X" last, put first as "If …" already was (voice-trailing.ts);
 * - "Don't reissue a refunded ticket": a participle naming an agent's act says the act came first, as "Once refunded,
 *   a ticket is never reissued" does (voice-forms.ts "participle object").
 * Worlds none of the fixtures use: a bank teller's desk, a dive centre, a gym's front desk, an aquarium, a courier
 * depot, a ticket office.
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

describe("a verb in '-ed', an FAQ whose condition came last, a slide without its 'is', an answer and a remark", () => {
  const session = sessions("a");
  const seal = (t: string): Step => ["agent", "seal_tank", { tank_id: t }];
  const feed = (t: string): Step => ["agent", "feed_tank", { tank_id: t, grams: "20" }];
  const aquarium = drafter(
    spec(
      "aquarium",
      "The assistant keeps an aquarium's feeding log. It feeds a tank (`feed_tank`: `tank_id`, `grams`) and seals a tank " +
        "for cleaning (`seal_tank`, by `tank_id`).",
    ),
    [
      session(feed("T1"), seal("T1"), feed("T1")),
      session(feed("T2"), seal("T2"), feed("T3")),
      session(seal("T4"), feed("T4"), feed("T4")),
      session(feed("T5"), feed("T5")),
    ],
  );
  readAlike(
    aquarium,
    [
      "Once a tank is sealed with seal_tank, nothing more is fed into that tank. Spare food goes back to the store.",
      "Don't feed anything into a tank once it has been sealed with seal_tank. Spare food goes back to the store.",
      "Can the assistant feed anything more into a tank after it is sealed with seal_tank? No. Spare food goes back to the store.",
      "Tank sealed with seal_tank → nothing more fed into that tank. Spare food goes back to the store.",
    ],
    [{ type: "forbidden", match: [{ action: "feed_tank" }], after: [{ action: "seal_tank" }], on: "metadata.tank_id" }],
  );
});

describe("a duty with 'after each X' last", () => {
  const session = sessions("c");
  const collect = (p: string): Step => ["agent", "collect_parcel", { parcel_id: p }];
  const log = (p: string): Step => ["agent", "file_receipt", { parcel_id: p }];
  const chat: Step = ["user", "message", undefined, "ok"];
  const depot = drafter(
    spec(
      "courier-depot",
      "The assistant runs a courier depot's counter. It collects a parcel (`collect_parcel`, by `parcel_id`) and files " +
        "a receipt for it (`file_receipt`).",
    ),
    [
      session(collect("P1"), chat, chat, chat, log("P1")),
      session(collect("P2"), log("P3")),
      session(log("P4"), collect("P4")),
      session(chat, chat),
    ],
  );
  readAlike(
    depot,
    [
      "After each collect_parcel, the assistant calls file_receipt for the same parcel (its `parcel_id`), before the session ends.",
      "The Assistant agrees to call file_receipt for the same parcel (its `parcel_id`) after each collect_parcel, before the session ends.",
      "The assistant must call file_receipt for the same parcel (its `parcel_id`) after every collect_parcel, before the session ends.",
      "The assistant shall call file_receipt for the same parcel (its `parcel_id`) after each collect_parcel.",
    ],
    [{ type: "pairing", each: [{ action: "collect_parcel" }], followedBy: [{ action: "file_receipt" }], on: "metadata.parcel_id" }],
  );
});

describe("a participle before the thing banned: the act it names came first", () => {
  const session = sessions("o");
  const refund = (t: string): Step => ["agent", "refund_ticket", { ticket_id: t }];
  const reissue = (t: string): Step => ["agent", "reissue_ticket", { ticket_id: t }];
  const office = drafter(
    spec(
      "ticket-office",
      "The assistant runs a theatre's ticket office. It refunds a ticket (`refund_ticket`, by `ticket_id`) and reissues " +
        "a lost one (`reissue_ticket`).",
    ),
    [
      session(refund("K1"), reissue("K1")),
      session(refund("K2"), reissue("K3")),
      session(reissue("K4"), refund("K4")),
      session(reissue("K5")),
    ],
  );
  readAlike(
    office,
    [
      "Once a ticket is refunded, the assistant never reissues that ticket.",
      "Don't reissue a refunded ticket.",
      "Never reissue a refunded ticket.",
      "The assistant must not reissue a refunded ticket.",
      "You never reissue a refunded ticket.",
    ],
    [{ type: "forbidden", match: [{ action: "reissue_ticket" }], after: [{ action: "refund_ticket" }], on: "metadata.ticket_id" }],
  );
});
