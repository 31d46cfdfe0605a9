/**
 * Issue 25, no labels: a passive duty that follows an act, tied to the same thing and bounded by a window of steps
 * ("Where a hive is inspected with more than 20 frames, the Co-operative shall ensure that a treatment is recorded for
 * that same hive no later than the second entry following that inspection"). A pairing of `each` the act, with the
 * bound the sentence puts on it, `followedBy` the duty's act, `on` the thing's key and `within` the steps. Read here in
 * three worlds of their own: a beekeeping co-operative (Comb), a recording studio (Fader) and a youth orchestra's
 * instrument library (Tutti).
 * - the duty in its voices: "X shall ensure that Y is V-ed", "Y is to be V-ed", "Y is now V-ed", "Y gets V-ed",
 *   "each X is to have Y V-ed" (voice-duties.ts);
 * - the window in its nouns: "the second ENTRY following", "the second message after" (voice.ts, combined.ts);
 * - an exemption after it, "save that … need no …", "except that … need no …", which the bound says already;
 * - "for that same session" of a studio whose events carry `session_id` ties them (keys.ts);
 * - the bound on the act, carried to `each`: "from 3 to 8 hours", "between £1,000 and £5,000", "with more than 20
 *   frames" (amounts.ts, measured.ts, combined.ts).
 */
import { describe, expect, it } from "vitest";
import { amountsNaming } from "../../compiler/generate/offline/amounts.js";
import { voiced } from "../../compiler/generate/offline/voice.js";
import type { Trajectory } from "../../runtime/types.js";
import { draftOf, session } from "../support/offline-drafts.js";

const rule = (preamble: string, name: string, description: string, samples: Trajectory[]) => (body: string) =>
  draftOf(preamble, body, samples, name, description).ir.metaBehaviors[0]!;
const checksOf = (read: (body: string) => ReturnType<ReturnType<typeof rule>>) => (body: string) =>
  read(body).checks.map(({ quote: _q, ...c }) => c);

const apiary = rule(
  "Comb keeps the co-operative's hives. It inspects a hive (`inspect_hive`, with `hive_id` and `frames`, the brood frames), " +
    "records a treatment (`record_treatment`, with `hive_id`), notifies a keeper (`notify_keeper`, with `keeper_id`) and moves a " +
    "hive (`move_hive`, with `hive_id`).",
  "apiary",
  "Rules for Comb, the apiary's assistant.",
  [
    session(
      ["agent", "inspect_hive", { hive_id: "H1", frames: "25" }],
      ["agent", "notify_keeper", { keeper_id: "K1" }],
      ["agent", "record_treatment", { hive_id: "H1" }],
    ),
    session(["agent", "inspect_hive", { hive_id: "H2", frames: "5" }], ["agent", "move_hive", { hive_id: "H2" }]),
    session(
      ["agent", "inspect_hive", { hive_id: "H3", frames: "30" }],
      ["agent", "inspect_hive", { hive_id: "H4", frames: "40" }],
      ["agent", "record_treatment", { hive_id: "H4" }],
      ["agent", "record_treatment", { hive_id: "H3" }],
    ),
    session(
      ["agent", "inspect_hive", { hive_id: "H5", frames: "22" }],
      ["agent", "move_hive", { hive_id: "H5" }],
      ["agent", "notify_keeper", { keeper_id: "K2" }],
      ["agent", "notify_keeper", { keeper_id: "K2" }],
      ["agent", "record_treatment", { hive_id: "H5" }],
    ),
  ],
);

const studio = rule(
  "Fader books a session (`book_session`, with `session_id`, `band_id` and `hours`), closes it (`close_session`, with " +
    "`session_id` and `hours`), sends an invoice (`send_invoice`, with `session_id`), cleans a room (`clean_room`, with `room`) " +
    "and messages a band (`message_band`, with `band_id`).",
  "recording-studio",
  "Rules for Fader, the recording studio's booking assistant.",
  [
    session(
      ["agent", "book_session", { session_id: "S1", band_id: "D1", hours: "6" }],
      ["agent", "send_invoice", { session_id: "S1" }],
      ["agent", "close_session", { session_id: "S1", hours: "6" }],
      ["agent", "send_invoice", { session_id: "S1" }],
    ),
    session(
      ["agent", "book_session", { session_id: "S2", band_id: "D2", hours: "2" }],
      ["agent", "close_session", { session_id: "S2", hours: "2" }],
      ["agent", "clean_room", { room: "A" }],
    ),
    session(
      ["agent", "book_session", { session_id: "S3", band_id: "D3", hours: "5" }],
      ["agent", "book_session", { session_id: "S4", band_id: "D3", hours: "9" }],
      ["agent", "send_invoice", { session_id: "S4" }],
      ["agent", "send_invoice", { session_id: "S3" }],
      ["agent", "close_session", { session_id: "S3", hours: "5" }],
      ["agent", "clean_room", { room: "A" }],
      ["agent", "message_band", { band_id: "D3" }],
      ["agent", "send_invoice", { session_id: "S3" }],
    ),
    session(
      ["agent", "book_session", { session_id: "S5", band_id: "D4", hours: "8" }],
      ["agent", "clean_room", { room: "B" }],
      ["agent", "send_invoice", { session_id: "S5" }],
      ["agent", "close_session", { session_id: "S5", hours: "8" }],
      ["agent", "send_invoice", { session_id: "S5" }],
    ),
  ],
);

const loans = rule(
  "Tutti lends an instrument (`lend_instrument`, with `loan_id`, `player_id` and `value`, in pounds), photographs it " +
    "(`photograph_instrument`, with `loan_id`), takes a signature (`take_signature`, with `player_id`) and books a repair " +
    "(`book_repair`, with `loan_id`).",
  "instrument-loans",
  "Rules for Tutti, the youth orchestra's instrument library assistant.",
  [
    session(
      ["agent", "lend_instrument", { loan_id: "L1", player_id: "P1", value: "1500.00" }],
      ["agent", "take_signature", { player_id: "P1" }],
      ["agent", "photograph_instrument", { loan_id: "L1" }],
    ),
    session(["agent", "lend_instrument", { loan_id: "L2", player_id: "P2", value: "300.00" }], ["agent", "book_repair", { loan_id: "L2" }]),
    session(
      ["agent", "lend_instrument", { loan_id: "L3", player_id: "P3", value: "2000.00" }],
      ["agent", "lend_instrument", { loan_id: "L4", player_id: "P3", value: "4000.00" }],
      ["agent", "photograph_instrument", { loan_id: "L4" }],
      ["agent", "photograph_instrument", { loan_id: "L3" }],
    ),
    session(
      ["agent", "lend_instrument", { loan_id: "L5", player_id: "P4", value: "1200.00" }],
      ["agent", "book_repair", { loan_id: "L5" }],
      ["agent", "take_signature", { player_id: "P4" }],
      ["agent", "take_signature", { player_id: "P4" }],
      ["agent", "photograph_instrument", { loan_id: "L5" }],
    ),
  ],
);

const treated = (frames: object, within = 2) => ({
  type: "pairing",
  each: [{ action: "inspect_hive", metadata: { frames } }],
  followedBy: [{ action: "record_treatment" }],
  on: "metadata.hive_id",
  within,
});
const invoiced = (action: string, hours: object) => ({
  type: "pairing",
  each: [{ action, metadata: { hours } }],
  followedBy: [{ action: "send_invoice" }],
  on: "metadata.session_id",
  within: 2,
});
const photographed = (value: object, within: number) => ({
  type: "pairing",
  each: [{ action: "lend_instrument", metadata: { value } }],
  followedBy: [{ action: "photograph_instrument" }],
  on: "metadata.loan_id",
  within,
});

describe("the duty in its voices", () => {
  it("'…, the Co-operative shall ensure that a treatment is recorded for that same hive no later than the second entry following that inspection'", () => {
    const body =
      "Where a hive is inspected with more than 20 frames, the Co-operative shall ensure that a treatment is recorded for that same hive no later than the second entry following that inspection.";
    expect(checksOf(apiary)(body)).toEqual([treated({ gt: 20 })]);
  });

  it("'…, the studio shall ensure that an invoice is sent for that same session …'", () => {
    const body =
      "Where a band books a session of more than 4 hours, the studio shall ensure that an invoice is sent for that same session no later than the second step following that booking.";
    expect(checksOf(studio)(body)).toEqual([invoiced("book_session", { gt: 4 })]);
  });

  it("'Staff shall ensure that, where …, a treatment is recorded …': the condition left first is the sentence's", () => {
    const body =
      "Staff shall ensure that, where a hive is inspected with more than 20 frames, a treatment is recorded for that same hive within two steps of the inspection.";
    expect(checksOf(apiary)(body)).toEqual([treated({ gt: 20 })]);
  });

  it("'Every hive inspected with more than 20 frames is to have a treatment recorded …'", () => {
    const body =
      "Every hive inspected with more than 20 frames is to have a treatment recorded for that same hive no later than the second entry after the inspection.";
    expect(checksOf(apiary)(body)).toEqual([treated({ gt: 20 })]);
  });

  it("'…, its photograph for that same loan is now taken no later than the second step after the loan'", () => {
    const body =
      "New in 2.1: when an instrument worth between £1,000 and £5,000 is lent, its photograph for that same loan is now taken no later than the second step after the loan. Instruments over £5,000 are photographed by the insurer.";
    const read = loans(body);
    expect(read.checks.map(({ quote: _q, ...c }) => c)).toEqual([photographed({ gte: 1000, lte: 5000 }, 2)]);
    expect(read.trigger.match).toEqual([{ action: "lend_instrument", metadata: { value: { gte: 1000, lte: 5000 } } }]);
  });

  it("'… not later than the second step after …', '… at or before the third event following …': the same window", () => {
    const read = checksOf(studio);
    expect(
      read(
        "If a session is booked for more than 4 hours, an invoice shall be sent for that same session not later than the second step after the booking.",
      ),
    ).toEqual([invoiced("book_session", { gt: 4 })]);
    expect(
      read(
        "If a session is booked for more than 4 hours, an invoice shall be sent for that same session at or before the third event following the booking.",
      ),
    ).toEqual([{ ...invoiced("book_session", { gt: 4 }), within: 3 }]);
  });

  it("'… straight away, no more than two steps after the `lend_instrument` event': a window, not a count", () => {
    const body =
      "Tutti photographs the instrument (`photograph_instrument`) for that same loan straight away, no more than two steps after the `lend_instrument` event.";
    expect(checksOf(loans)(body)).toEqual([
      {
        type: "pairing",
        each: [{ action: "lend_instrument" }],
        followedBy: [{ action: "photograph_instrument" }],
        on: "metadata.loan_id",
        within: 2,
      },
    ]);
  });

  it("'…, the library shall ensure that a photograph is taken for that same loan no later than the second message after that loan'", () => {
    const body =
      "Where an instrument valued at £1,000.00 or more is lent, the library shall ensure that a photograph is taken for that same loan no later than the second message after that loan.";
    expect(checksOf(loans)(body)).toEqual([photographed({ gte: 1000 }, 2)]);
  });

  it("a ban to be ensured is left as written: 'shall ensure that no hive is moved unless …'", () => {
    const sentence = "The Co-operative shall ensure that no hive is moved unless the latest inspection of that hive shows it as calm.";
    expect(voiced(sentence, "Comb").text).toBe(
      "The Co-operative must ensure that no hive is moved unless the latest inspection of that hive shows it as calm.",
    );
  });
});

describe("an exemption after the window is what the bound says already", () => {
  it("'…, save that hives due to be moved need no treatment under this paragraph'", () => {
    const body =
      "Where a hive is inspected with more than 20 frames, a treatment shall be recorded for that same hive no later than the second step after that inspection, save that hives due to be moved need no treatment under this paragraph.";
    expect(checksOf(apiary)(body)).toEqual([treated({ gt: 20 })]);
  });

  it("'… is to be sent for the same session by the second event after the booking, except that sessions of a single band need no invoice'", () => {
    const body =
      "If a session is booked for more than 4 hours, an invoice is to be sent for the same session by the second event after the booking, except that sessions of a single band need no invoice.";
    expect(checksOf(studio)(body)).toEqual([invoiced("book_session", { gt: 4 })]);
  });
});

describe("the bound on the act, carried to each one", () => {
  it("'When a session that ran from 3 to 8 hours is closed, an invoice gets sent for that session within two steps of the closing'", () => {
    const body =
      "When a session that ran from 3 to 8 hours is closed, an invoice gets sent for that session within two steps of the closing. Shorter sessions pay at the door.";
    expect(checksOf(studio)(body)).toEqual([invoiced("close_session", { gte: 3, lte: 8 })]);
  });

  it("'When a session is booked for 3 to 8 hours, …': a range without 'from'", () => {
    const body = "When a session is booked for 3 to 8 hours, an invoice gets sent for that session within two steps of the booking.";
    expect(checksOf(studio)(body)).toEqual([invoiced("book_session", { gte: 3, lte: 8 })]);
  });

  it("'When a hive that showed from 20 to 50 frames is inspected, …': a range on the key its noun names", () => {
    const body =
      "When a hive that showed from 20 to 50 frames is inspected, the treatment for that same hive is now recorded no later than the second step after the hive is inspected. Hives over 50 frames are destroyed.";
    expect(checksOf(apiary)(body)).toEqual([treated({ gte: 20, lte: 50 })]);
  });
});

describe("'the same session' of a world whose events carry `session_id`", () => {
  it("ties by it after 'for'", () => {
    const body =
      "When a session of more than 4 hours is closed, an invoice must be sent for that same session within two steps of the closing.";
    expect(checksOf(studio)(body)).toEqual([invoiced("close_session", { gt: 4 })]);
  });

  it("'later in the same session' is the trajectory, and ties nothing", () => {
    const body = "When a session of more than 4 hours is closed, an invoice is sent later in the same session.";
    expect(checksOf(studio)(body)).toEqual([
      { type: "required", match: [{ action: "send_invoice" }], after: [{ action: "close_session", metadata: { hours: { gt: 4 } } }] },
    ]);
  });
});

describe("which ranges and measures name the events", () => {
  it("a range names them after 'ran', 'worth', 'for', 'of', not after what a look-up is to show", () => {
    const ranges = (text: string) => amountsNaming(text).map((a) => a.range);
    expect(ranges("a session that ran from 3 to 8 hours")).toEqual([{ gte: 3, lte: 8 }]);
    expect(ranges("an instrument worth between £1,000 and £5,000")).toEqual([{ gte: 1000, lte: 5000 }]);
    expect(ranges("a session booked for 3 to 8 hours")).toEqual([{ gte: 3, lte: 8 }]);
    expect(ranges("the latest reading must show a humidity from 40 to 60 per cent")).toEqual([]);
  });

  it("a keyed bound is each event's in a phrase that names them, not in a count's ('with at most 60 frames in a day')", () => {
    const body = "Each hive is inspected with at most 60 frames in a day.";
    expect(checksOf(apiary)(body)).toEqual([{ type: "count", match: [{ action: "inspect_hive" }], sum: "metadata.frames", max: 60 }]);
  });
});
