/**
 * Issue 25, no labels: bounds on an amount as agreements and orders word them, on one act or on a
 * total per thing, and the words around them that hid the bound from the drafter (blind15's
 * stage-crew-calls and writ-enforcement, worded here for worlds of their own): a contract's lead-in
 * ("Notwithstanding paragraph 3, …", "Subject to Clause 7, …"), "totalling more than three (3) kg
 * …, all of that ANIMAL's feeds being counted together", "under any one account", "in aggregate",
 * and "any single feed of more than 2 kg". Three worlds: a zoo's feeding desk, a timber merchant's
 * trade counter and a bonded brewery's cask store.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf, session } from "../support/offline-drafts.js";

const checksOf = (draft: ReturnType<typeof draftOf>) => draft.ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c);
const failing = (draft: ReturnType<typeof draftOf>, samples: Trajectory[]) => previewJudge(draft.ir, samples).rules[0]!.rule.fail;

describe("a zoo's feeding desk: a total per animal and a bound on one feed", () => {
  const PREAMBLE =
    'FEEDING SCHEDULE. "ANIMAL" means any animal in the collection, identified by the tag number (`animal_id`) on the ' +
    "register. The Keeper's assistant weighs an animal (`weigh_animal`, by `animal_id`), gives a feed (`give_feed`, with " +
    "`animal_id`, the `feed_type` and the `kg` given) and cleans an enclosure (`clean_enclosure`).";
  const draft = (body: string, samples: Trajectory[]) => draftOf(PREAMBLE, body, samples, "feeding-desk");
  const feed = (animal: string, kg: string) => ["agent", "give_feed", { animal_id: animal, feed_type: "hay", kg }] as const;
  const weigh = (animal: string) => ["agent", "weigh_animal", { animal_id: animal }] as const;
  const samples = [
    // Two animals fed 3 and 2.5 kg: 5.5 kg in all, never more than 3 kg to one animal.
    session([...weigh("A1")], [...feed("A1", "2")], [...weigh("A2")], [...feed("A2", "2")], [...feed("A1", "1")], [...feed("A2", "0.5")]),
    // One animal, 2.5 kg in one feed.
    session([...weigh("A3")], [...feed("A3", "2.5")], ["agent", "clean_enclosure"]),
    // Three animals, one feed each.
    session([...weigh("A4")], [...feed("A4", "1")], [...weigh("A5")], [...feed("A5", "1")], [...weigh("A6")], [...feed("A6", "1.5")]),
  ];

  it("reads 'Notwithstanding paragraph 3, no ANIMAL shall be given feeds totalling more than three (3) kg …, all of that ANIMAL's feeds being counted together' as a sum per the animal's key", () => {
    const d = draft(
      "Notwithstanding paragraph 3, no ANIMAL shall be given feeds totalling more than three (3) kg in a day, all of that ANIMAL's feeds being counted together.",
      samples,
    );
    expect(checksOf(d)).toEqual([
      { type: "count", match: [{ action: "give_feed" }], sum: "metadata.kg", per: "metadata.animal_id", max: 3 },
    ]);
    // 3.5 kg in all for three animals is no breach, nor 3 kg to A1, at the bound.
    expect(failing(d, samples)).toEqual([]);
  });

  it("reads a sentence saying which feeds 'shall not be counted toward this limit' as part of the total, not as a ban", () => {
    const first = "No ANIMAL shall be given feeds totalling more than 3 kg in a day, all of that ANIMAL's feeds being counted together.";
    const second = "Feeds given by the vet are not rations and shall not be counted toward this limit.";
    const d = draft(`${first} ${second}`, samples);
    expect(checksOf(d)).toEqual([
      { type: "count", match: [{ action: "give_feed" }], sum: "metadata.kg", per: "metadata.animal_id", max: 3 },
    ]);
    // Quoted over both sentences, as a quote is written, without the last full stop.
    expect(d.ir.metaBehaviors[0]!.checks[0]!.quote).toBe(`${first} ${second.slice(0, -1)}`);
    expect(d.ir.metaBehaviors[0]!.semanticChecks).toEqual([]);
  });

  it("reads 'Without prejudice to the foregoing, the Keeper shall not give any single feed of more than 2 kg' as a ban on one feed's amount", () => {
    const d = draft(
      "The Keeper shall weigh each ANIMAL before its feed. Without prejudice to the foregoing, the Keeper shall not give any single feed of more than two (2) kg.",
      samples,
    );
    expect(checksOf(d)).toContainEqual({ type: "forbidden", match: [{ action: "give_feed", metadata: { kg: { gt: 2 } } }] });
    expect(d.ir.metaBehaviors[0]!.semanticChecks).toEqual([]);
  });
});

describe("a timber merchant's trade counter: a total under any one account", () => {
  const PREAMBLE =
    "The counter assistant opens a trade account (`open_account`, by `account_id`), sells timber on credit " +
    "(`sell_on_credit`, giving the `account_id`, the `order_id` and the `value_gbp` of the order) and takes a payment " +
    "(`take_payment`, by `account_id`).";
  const draft = (body: string, samples: Trajectory[]) => draftOf(PREAMBLE, body, samples, "trade-counter");
  const sale = (account: string, order: string, value: string) =>
    ["agent", "sell_on_credit", { account_id: account, order_id: order, value_gbp: value }] as const;
  const samples = [
    // Two accounts, £1,500.00 each: £3,000 in the session, no account over £2,500.
    session([...sale("AC-1", "O-1", "1500.00")], [...sale("AC-2", "O-2", "1500.00")]),
    // One account, £1,400 + £1,300.
    session([...sale("AC-3", "O-3", "1400.00")], [...sale("AC-3", "O-4", "1300.00")], ["agent", "take_payment", { account_id: "AC-3" }]),
    session([...sale("AC-4", "O-5", "900.00")]),
  ];

  it("reads 'The total value of timber sold on credit under any one account shall not exceed £2,500.00, …' as a sum per account", () => {
    const d = draft(
      "4.1 The total value of timber sold on credit under any one account shall not exceed £2,500.00, the values of all orders on that account being added together, provided always that an order on a different account counts against that other account only.",
      samples,
    );
    expect(checksOf(d)).toEqual([
      { type: "count", match: [{ action: "sell_on_credit" }], sum: "metadata.value_gbp", per: "metadata.account_id", max: 2500 },
    ]);
    expect(failing(d, samples)).toEqual([samples[1]!.id]);
  });

  it("reads 'Subject to Clause 7, sales on credit against the same account shall not exceed £2,500.00 in aggregate' as that sum", () => {
    const d = draft("Subject to Clause 7, sales on credit against the same account shall not exceed £2,500.00 in aggregate.", samples);
    expect(checksOf(d)).toEqual([
      { type: "count", match: [{ action: "sell_on_credit" }], sum: "metadata.value_gbp", per: "metadata.account_id", max: 2500 },
    ]);
  });

  it("reads 'Orders on a different account count against that other account only' after a total as a sum per account", () => {
    const d = draft(
      "The total value of timber sold on credit in a day shall not exceed £2,500.00, all orders being added together. Orders on a different account count against that other account only.",
      samples,
    );
    expect(checksOf(d)).toEqual([
      { type: "count", match: [{ action: "sell_on_credit" }], sum: "metadata.value_gbp", per: "metadata.account_id", max: 2500 },
    ]);
    // Grouped by the account, the count has no "no key for each day" note left.
    expect(d.notes.map((n) => n.message).join("\n")).not.toMatch(/no sample shows a metadata key/);
  });

  it("reads 'shall not cumulatively exceed £2,500.00' as a sum, and 'Payments taken are not sales and shall not be counted toward this limit' as part of it", () => {
    const d = draft(
      "Timber sold on credit to the same account shall not cumulatively exceed £2,500.00. Payments taken are not sales and shall not be counted toward this limit.",
      samples,
    );
    expect(checksOf(d)).toEqual([
      { type: "count", match: [{ action: "sell_on_credit" }], sum: "metadata.value_gbp", per: "metadata.account_id", max: 2500 },
    ]);
    expect(d.ir.metaBehaviors[0]!.semanticChecks).toEqual([]);
  });

  describe("where no verb names the act that carries the total", () => {
    const INVOICES =
      "The counter assistant opens a trade account (`open_account`, by `account_id`), quotes a price for an order " +
      "(`quote_price`, with the `order_id` and the `price_gbp`), raises an invoice on an account (`raise_invoice`, giving " +
      "the `account_id`, the `order_id` and the `credit_value` of the order) and takes a payment (`take_payment`, by `account_id`).";
    const quote = (order: string, price: string) => ["agent", "quote_price", { order_id: order, price_gbp: price }] as const;
    const invoice = (account: string, order: string, value: string) =>
      ["agent", "raise_invoice", { account_id: account, order_id: order, credit_value: value }] as const;
    const invoices = [
      session([...quote("O-1", "1500.00")], [...invoice("AC-1", "O-1", "1500.00")], [...invoice("AC-2", "O-2", "1500.00")]),
      session(
        [...quote("O-3", "1400.00")],
        [...invoice("AC-3", "O-3", "1400.00")],
        [...invoice("AC-3", "O-4", "1300.00")],
        ["agent", "take_payment", { account_id: "AC-3" }],
      ),
      session([...invoice("AC-5", "O-5", "200.00")]),
    ];
    const expected = {
      type: "count",
      match: [{ action: "raise_invoice" }],
      sum: "metadata.credit_value",
      per: "metadata.account_id",
      max: 2500,
    };

    it("sums the one act carrying the key the words name: 'The total credit value extended to any one account …'", () => {
      const d = draftOf(
        INVOICES,
        "The total credit value extended to any one account in a day may not exceed £2,500.00.",
        invoices,
        "trade-counter",
      );
      expect(checksOf(d)).toEqual([expected]);
      expect(failing(d, invoices)).toEqual([invoices[1]!.id]);
    });

    it("sums the one act carrying an amount and the group's key: 'One account gets at most £2,500.00 …, however many orders that takes'", () => {
      // `quote_price` carries an amount too, but no account: the account's total is of its invoices.
      const d = draftOf(
        INVOICES,
        "One account gets at most £2,500.00 in a day, however many orders that takes.",
        invoices,
        "trade-counter",
      );
      expect(checksOf(d)).toEqual([expected]);
    });
  });

  it("keeps 'Subject to a manager's approval, …' as a condition, not a lead-in", async () => {
    const { voiced } = await import("../../compiler/generate/offline/voice.js");
    expect(voiced("Subject to a manager's approval, an order may go over £1,000.00.").text).toMatch(/^Subject to a manager's approval/);
  });
});

describe("a botanical garden's irrigation desk: lead-ins and a bound on one watering", () => {
  const PREAMBLE =
    "Beds are identified by their plot number (`bed_id`). The irrigation assistant reads a bed's soil probe " +
    "(`read_probe`, by `bed_id`), waters a bed (`water_bed`, with `bed_id`, `valve` and the `minutes` the valve is open) " +
    "and logs rainfall (`log_rain`).";
  const draft = (body: string, samples: Trajectory[]) => draftOf(PREAMBLE, body, samples, "irrigation-desk");
  const water = (bed: string, valve: string, minutes: string) => ["agent", "water_bed", { bed_id: bed, valve, minutes }] as const;
  const samples = [
    // One bed watered 50 + 45 minutes: 95 in all.
    session([...water("P1", "V1", "50")], [...water("P1", "V2", "45")], ["agent", "log_rain"]),
    // Two beds, 60 minutes each.
    session([...water("P2", "V3", "60")], [...water("P3", "V4", "60")]),
    session([...water("P4", "V5", "20")]),
  ];

  it("reads 'Except as provided in Schedule 2, no bed shall be watered for periods totalling more than ninety (90) minutes …, all of that bed's waterings being taken together' as a sum per bed", () => {
    const d = draft(
      "Except as provided in Schedule 2, no bed shall be watered for periods totalling more than ninety (90) minutes in a week, all of that bed's waterings being taken together.",
      samples,
    );
    expect(checksOf(d)).toEqual([
      { type: "count", match: [{ action: "water_bed" }], sum: "metadata.minutes", per: "metadata.bed_id", max: 90 },
    ]);
    expect(failing(d, samples)).toEqual([samples[0]!.id]);
  });

  it("reads 'Notwithstanding Clauses 3, 4 and 5, the Garden shall not water any single bed for more than fifty-five (55) minutes' as a ban on one watering", () => {
    const d = draft(
      "Notwithstanding Clauses 3, 4 and 5, the Garden shall not water any single bed for more than fifty-five (55) minutes.",
      samples,
    );
    expect(checksOf(d)).toEqual([{ type: "forbidden", match: [{ action: "water_bed", metadata: { minutes: { gt: 55 } } }] }]);
    expect(d.ir.metaBehaviors[0]!.trigger).toEqual(expect.objectContaining({ match: [{ action: "water_bed" }] }));
  });
});
