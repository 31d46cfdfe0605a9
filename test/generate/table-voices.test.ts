/**
 * Issue 25, no labels, a voice matrix for what blind17's mill-restoration-grant (a funder's grant conditions)
 * wrote in ways the readers missed. Each rule is written as plain prose, in the schedule's own voice, and in two
 * or three others (capitals, minutes "Agreed: … is to be …", an e-mail with a header line, a "shall" condition),
 * in worlds of their own: a charity shop's gift-aid claims, a bike shop's refunds, a fruit co-op's payments to growers,
 * a lending library's loans, a crop insurer's hail claims.
 * - A table written out as sentences ("Item: claims for any one donor in a session. Limit: two hundred and fifty
 *   pounds (£250.00) in total …", "Item: a single refund of at least £100.00. Evidence required: a receipt …"):
 *   what the row is about and what is asked of it in two sentences, each read alone as a model question
 *   (voice-table.ts), and the amount in words before its figure read as a count of seven (voice-figures.ts).
 * - "no further payment may be made to that grower", "before each payment": "payment" was no word of `pay_grower`
 *   ("-ment" comes off only words of nine letters or more, words.ts), so "grower" alone named the act, and the
 *   grower's look-up was forbidden instead of the payment, the typed go-ahead before it an unread question.
 *   With "payment" stemmed to "pay", a spec's one-word gloss "pay (`issue_payment`)" became a word of the name too,
 *   and lost the whole-name weight a gloss has (lexicon.ts): "pays a claim" went to `deny_claim` by the alphabet.
 * - "…; where a card has been registered more than once, the most recent registration is the one that counts":
 *   a clause of its own after a semicolon, its condition's "more than once" read as a count of loans (voice.ts).
 * - Minutes of the same: "Agreed (proposed R.O., seconded J.K.): Item: …" hid the row's subject behind the lead-in,
 *   and "Agreed (…): 4.2 Where …" kept the clause's number, which is dropped only at a sentence's start (voice.ts).
 */
import { describe, expect, it } from "vitest";
import { drafter, sessions, type Step } from "./voice-fixture.js";

const spec = (name: string, preamble: string) => (body: string) =>
  `---\nname: ${name}\ndescription: Rules for the ${name} assistant.\n---\n${preamble}\n\n## The rule\n\n${body}\n`;

/** Each voice drafts the checks the first one does, with no model question, and they fail the same samples. */
function readAlike(d: ReturnType<typeof drafter>, voices: string[], expected: unknown) {
  it(`the plain voice reads the rule (${voices[0]!.slice(0, 60)}…)`, () => {
    const first = d.reading(voices[0]!);
    expect(first.checks).toEqual(expected);
    expect(first.fail.length).toBeGreaterThan(0);
  });
  it.each(voices.slice(1))("%j drafts the same judge", (body) => {
    const read = d.reading(body);
    expect(read.checks).toEqual(expected);
    expect(read.fail).toEqual(d.reading(voices[0]!).fail);
  });
  it.each(voices)("the quotes of %j are the spec's own words", (body) => {
    const { rule, section } = d.drafted(body);
    const spaced = (t: string) => t.replace(/\s+/g, " ");
    for (const clause of [...rule.checks, ...rule.semanticChecks]) expect(spaced(section)).toContain(spaced(clause.quote));
  });
}

describe("a total per donor, written as a table's row with the amount in words", () => {
  const session = sessions("g");
  const claim = (donor: string, amount: string): Step => ["agent", "file_claim", { donor_id: donor, amount }];
  const d = drafter(
    spec(
      "gift-aid-desk",
      "The assistant files gift-aid claims for a charity shop's donors: it looks a donor up (`lookup_donor`, by " +
        "`donor_id`) and files a claim (`file_claim`: `donor_id`, `amount` in pounds).",
    ),
    [
      session(["agent", "lookup_donor", { donor_id: "D1" }], claim("D1", "100"), claim("D1", "150")),
      session(["agent", "lookup_donor", { donor_id: "D1" }], claim("D1", "200"), claim("D1", "50.01")),
      session(claim("D1", "200"), claim("D2", "200")),
      session(["agent", "lookup_donor", { donor_id: "D3" }]),
    ],
  );
  readAlike(
    d,
    [
      "The claims for any one donor in a session must come to at most £250.00 in total, every claim for that donor added together.",
      "Item: claims for any one donor in a session. Limit: two hundred and fifty pounds (£250.00) in total, every claim for that donor added together. A total of exactly £250.00 is within the limit.",
      "ITEM: CLAIMS FOR ANY ONE DONOR IN A SESSION. LIMIT: £250.00 IN TOTAL, EVERY CLAIM FOR THAT DONOR ADDED TOGETHER.",
      "Item — claims for any one donor in a session. Maximum — £250.00 in total, every claim for that donor added together.",
      "Agreed: the claims for any one donor in a session are not to exceed two hundred and fifty pounds (£250.00) in total, every claim for that donor added together.",
      "**Ann Reid · Tue 9 Mar, 10:02**\nThe claims for any one donor in a session must come to at most £250.00 in total, every claim for that donor added together.",
    ],
    [{ type: "count", match: [{ action: "file_claim" }], sum: "metadata.amount", max: 250, per: "metadata.donor_id" }],
  );
});

describe("a receipt after each large refund, written as a table's row", () => {
  const session = sessions("r");
  const refund = (id: string, amount: string): Step => ["agent", "issue_refund", { refund_id: id, amount }];
  const proof = (id: string): Step => ["agent", "upload_proof", { refund_id: id, kind: "receipt" }];
  const d = drafter(
    spec(
      "bike-shop-refunds",
      "The assistant handles a bike shop's refunds: it looks up a sale (`get_sale`), issues a refund (`issue_refund`: " +
        "`refund_id`, `amount` in pounds) and uploads proof of it (`upload_proof`: `refund_id`, `kind`, a receipt or a photo).",
    ),
    [
      session(refund("F1", "150"), proof("F1"), ["agent", "get_sale"]),
      session(refund("F2", "150"), ["agent", "get_sale"], ["agent", "get_sale"], ["agent", "get_sale"], proof("F2")),
      session(refund("F3", "40"), ["agent", "get_sale"]),
      session(refund("F4", "300"), proof("F9")),
      session(["agent", "get_sale"]),
    ],
  );
  const expected = [
    {
      type: "pairing",
      each: [{ action: "issue_refund", metadata: { amount: { gte: 100 } } }],
      followedBy: [{ action: "upload_proof", metadata: { kind: "receipt" } }],
      on: "metadata.refund_id",
      within: 2,
    },
  ];
  readAlike(
    d,
    [
      "Each refund of at least £100.00 is followed by a receipt uploaded for that same refund no later than the second step after the refund.",
      "Item: a single refund of at least £100.00. Evidence required: a receipt, uploaded for that same refund no later than the second step after the refund. Item: a single refund under £100.00. Evidence required: none.",
      "ITEM: A SINGLE REFUND OF AT LEAST £100.00. PROOF REQUIRED: A RECEIPT, UPLOADED FOR THAT SAME REFUND NO LATER THAN THE SECOND STEP AFTER THE REFUND.",
      "Agreed (proposed R.O., seconded J.K.): Item: a single refund of at least £100.00. Evidence required: a receipt, uploaded for that same refund no later than the second step after the refund.",
      "Each refund of at least one hundred pounds (£100.00) shall be followed by a receipt uploaded for that same refund no later than the second step after the refund.",
    ],
    expected,
  );
});

describe('no payment to a grower once it is suspended: "payment" is a word of `pay_grower`', () => {
  const session = sessions("s");
  const check = (g: string): Step => ["agent", "check_grower", { grower_id: g }];
  const pay = (g: string): Step => ["agent", "pay_grower", { grower_id: g, amount: "80" }];
  const suspend = (g: string): Step => ["agent", "suspend_grower", { grower_id: g }];
  const d = drafter(
    spec(
      "fruit-coop-suspensions",
      "The assistant pays a fruit co-op's growers. Its tools: `check_grower` (by `grower_id`), `pay_grower` " +
        "(`grower_id`, `amount`) and `suspend_grower` (`grower_id`), the last when the co-op's board suspends a grower.",
    ),
    [
      session(check("G1"), pay("G1")),
      session(check("G2"), suspend("G2"), check("G2"), pay("G2")),
      session(suspend("G3"), check("G4"), pay("G4")),
      session(check("G5"), suspend("G5"), check("G5")),
    ],
  );
  readAlike(
    d,
    [
      "Once a grower has been suspended, no further payment may be made to that grower in the session.",
      "Where a grower has been suspended, no further payment shall be made to that grower in the session, even if a later grower check is clear.",
      "Agreed: once a grower has been suspended, no further payment is to be made to that grower in the session.",
      "Agreed (proposed R.O., seconded J.K.): 4.2 Where a grower has been suspended, no further payment shall be made to that grower in the session.",
      "**Sam Ortiz · Wed 10 Mar, 09:15**\nOnce a grower has been suspended, no further payment may be made to that grower in the session.",
      "ONCE A GROWER HAS BEEN SUSPENDED → NO FURTHER PAYMENT MAY BE MADE TO THAT GROWER IN THE SESSION.",
    ],
    [
      {
        type: "forbidden",
        match: [{ action: "pay_grower" }],
        after: [{ action: "suspend_grower" }],
        on: "metadata.grower_id",
      },
    ],
  );
});

describe("a fresh go-ahead typed before each payment", () => {
  const session = sessions("y");
  const pay = (g: string): Step => ["agent", "pay_grower", { grower_id: g, amount: "80" }];
  const ok: Step = ["user", "message", undefined, "I release this payment"];
  const d = drafter(
    spec(
      "fruit-coop",
      "The assistant pays a fruit co-op's growers for what they deliver: it checks a grower (`check_grower`, by " +
        "`grower_id`) and pays one (`pay_grower`: `grower_id`, `amount`). The co-op's manager instructs it in the chat.",
    ),
    [
      session(ok, pay("G1")),
      session(ok, pay("G1"), pay("G2")),
      session(["user", "message", undefined, "fine"], pay("G1")),
      session(ok, pay("G1"), ok, pay("G2")),
      session(["agent", "check_grower", { grower_id: "G1" }]),
    ],
  );
  readAlike(
    d,
    [
      'Before each payment, the manager types "I release this payment" to the assistant, after the previous payment, so that one release covers one payment only.',
      'Prior to each payment, the manager shall type "I release this payment" to the assistant, after the previous payment, so that one release is for one payment only.',
      'Agreed: before each payment the manager is to type "I release this payment" to the assistant, after the previous payment; one release is for one payment only.',
    ],
    [
      {
        type: "ordering",
        first: [{ actor: "user", content: { matches: "\\bI\\s+release\\s+this\\s+payment\\b", flags: "i" } }],
        before: [{ action: "pay_grower" }],
        fresh: true,
      },
    ],
  );
});

describe("the most recent registration counts: a clause of its own after a semicolon", () => {
  const session = sessions("l");
  const register = (card: string, by: string): Step => ["agent", "register_card", { card_id: card, registered_by: by }];
  const lend = (card: string, by: string): Step => ["agent", "lend_book", { card_id: card, approved_by: by }];
  const d = drafter(
    spec(
      "library-loans",
      "The assistant runs a lending library's desk: it registers a card (`register_card`: `card_id`, `registered_by`) " +
        "and lends a book on it (`lend_book`: `card_id`, `approved_by`, the librarian who approves the loan).",
    ),
    [
      session(register("C1", "ann"), lend("C1", "bo")),
      session(register("C2", "ann"), lend("C2", "ann")),
      session(register("C3", "ann"), register("C3", "bo"), lend("C3", "bo")),
      session(register("C4", "bo"), register("C4", "ann"), lend("C4", "bo"), lend("C4", "cy")),
    ],
  );
  readAlike(
    d,
    [
      "Each loan must be approved by a librarian other than the one who registered that same card. If a card has been registered more than once, the most recent registration is the one that counts.",
      "Each loan shall be approved by a librarian other than the one who registered that same card; where a card has been registered more than once, the most recent registration is the one that counts.",
      "Agreed: each loan is to be approved by a librarian other than the one who registered that same card; where a card has been registered more than once, the most recent registration is the one that counts.",
      "EACH LOAN MUST BE APPROVED BY A LIBRARIAN OTHER THAN THE ONE WHO REGISTERED THAT SAME CARD; WHERE A CARD HAS BEEN REGISTERED MORE THAN ONCE, THE MOST RECENT REGISTRATION IS THE ONE THAT COUNTS.",
    ],
    [
      {
        type: "condition",
        each: [{ action: "lend_book" }],
        with: { r: { latest: [{ action: "register_card" }], on: "metadata.card_id" } },
        when: "r.registered_by != event.approved_by",
      },
    ],
  );
});

describe('a one-word gloss stays the action\'s whole name once it is also a word of the name: "pay (`issue_payment`)"', () => {
  const session = sessions("c");
  const look = (c: string): Step => ["agent", "get_policy", { claim_id: c }];
  const pay = (c: string): Step => ["agent", "issue_payment", { claim_id: c, amount: "900" }];
  const deny = (c: string): Step => ["agent", "deny_claim", { claim_id: c }];
  const d = drafter(
    spec(
      "hail-claims",
      "The assistant settles hail-damage claims for a crop insurer. It can look up a claim's policy (`get_policy`, by " +
        "`claim_id`), pay (`issue_payment`, with the `claim_id` and the `amount`) or turn a claim down (`deny_claim`).",
    ),
    [session(look("K1"), pay("K1")), session(pay("K2"), look("K2")), session(look("K3"), deny("K3")), session(deny("K4"), pay("K5"))],
  );
  readAlike(
    d,
    [
      "The assistant pays a claim only after looking up that claim's policy.",
      "The assistant shall pay a claim only after looking up that claim's policy.",
      "Agreed (proposed R.O., seconded J.K.): the assistant pays a claim only after looking up that claim's policy.",
    ],
    [{ type: "ordering", first: [{ action: "get_policy" }], before: [{ action: "issue_payment" }], on: "metadata.claim_id" }],
  );
});
