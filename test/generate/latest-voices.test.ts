/**
 * Issue 25, no labels, a voice matrix: the latest look-up's values with two conditions ("shows a
 * valid card and £0.00 fines due", "gusts of 12 m/s or less and no fault"), and "once X, nothing
 * more is V-ed on that thing" — each written as plain prose, in capitals with "=", as minutes
 * ("Agreed (proposed …, seconded …): … is to be …"), as an e-mail with a header line and a
 * correction, and as an "is to be" duty — drafts the same checks in each, in worlds of their own:
 * a rare-book reading room and a tower-crane lift desk (blind16's tool-hire-counter,
 * vineyard-spraying and isotope-stores lost these for the causes each test names).
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { bannedAfter, draftOf, onLatest, session } from "../support/offline-drafts.js";

type World = { name: string; description: string; preamble: string; samples: Trajectory[] };

const checksOf = (world: World, body: string) => {
  const draft = draftOf(world.preamble, body, world.samples, world.name, world.description);
  const rule = draft.ir.metaBehaviors[0]!;
  return rule.checks.map(({ quote: _q, ...c }) => c);
};
const quotesOf = (world: World, body: string) =>
  draftOf(world.preamble, body, world.samples, world.name, world.description).ir.metaBehaviors[0]!.checks.map((c) => c.quote);

const books: World = {
  name: "reading-room",
  description: "Rules for the desk assistant of a rare-book reading room.",
  preamble:
    "The assistant checks a reader with `check_reader` (by `reader_id`; the answer gives `card_valid`, yes or no, and " +
    "`fines_due` in pounds), fetches a book from the stacks with fetch_book (`reader_id`, `book_id`) and bans a reader " +
    "with `ban_reader` (`reader_id`).",
  samples: [
    // s1: a valid card, nothing owed.
    session(
      ["agent", "check_reader", { reader_id: "R1" }],
      ["tool", "check_reader_result", { reader_id: "R1", card_valid: "yes", fines_due: "0" }],
      ["agent", "fetch_book", { reader_id: "R1", book_id: "B1" }],
    ),
    // s2: £3.50 owed.
    session(
      ["agent", "check_reader", { reader_id: "R2" }],
      ["tool", "check_reader_result", { reader_id: "R2", card_valid: "yes", fines_due: "3.5" }],
      ["agent", "fetch_book", { reader_id: "R2", book_id: "B2" }],
    ),
    // s3: the card is not valid.
    session(
      ["agent", "check_reader", { reader_id: "R3" }],
      ["tool", "check_reader_result", { reader_id: "R3", card_valid: "no", fines_due: "0" }],
      ["agent", "fetch_book", { reader_id: "R3", book_id: "B3" }],
    ),
    // s4: banned, a clean check after it, then a fetch for the same reader.
    session(
      ["agent", "check_reader", { reader_id: "R4" }],
      ["tool", "check_reader_result", { reader_id: "R4", card_valid: "yes", fines_due: "0" }],
      ["agent", "ban_reader", { reader_id: "R4" }],
      ["agent", "check_reader", { reader_id: "R4" }],
      ["tool", "check_reader_result", { reader_id: "R4", card_valid: "yes", fines_due: "0" }],
      ["agent", "fetch_book", { reader_id: "R4", book_id: "B4" }],
    ),
    // s5: another reader banned; this one fetched for.
    session(
      ["agent", "ban_reader", { reader_id: "R9" }],
      ["agent", "check_reader", { reader_id: "R5" }],
      ["tool", "check_reader_result", { reader_id: "R5", card_valid: "yes", fines_due: "0" }],
      ["agent", "fetch_book", { reader_id: "R5", book_id: "B5" }],
    ),
  ],
};

const cranes: World = {
  name: "crane-desk",
  description: "Rules for the lift desk assistant of a building site's tower cranes.",
  preamble:
    "The assistant reads a crane's sensors with `read_crane` (by `crane_id`; the answer gives `gust_ms`, the gust speed in " +
    "metres per second, and `fault`, yes or no), makes a lift with make_lift (`crane_id`, `load_t`) and locks a crane out " +
    "with `lock_crane` (`crane_id`).",
  samples: [
    // s6: calm, no fault.
    session(
      ["agent", "read_crane", { crane_id: "C1" }],
      ["tool", "read_crane_result", { crane_id: "C1", gust_ms: "8", fault: "no" }],
      ["agent", "make_lift", { crane_id: "C1", load_t: "2" }],
    ),
    // s7: gusts of 14 m/s.
    session(
      ["agent", "read_crane", { crane_id: "C2" }],
      ["tool", "read_crane_result", { crane_id: "C2", gust_ms: "14", fault: "no" }],
      ["agent", "make_lift", { crane_id: "C2", load_t: "3" }],
    ),
    // s8: a fault.
    session(
      ["agent", "read_crane", { crane_id: "C3" }],
      ["tool", "read_crane_result", { crane_id: "C3", gust_ms: "5", fault: "yes" }],
      ["agent", "make_lift", { crane_id: "C3", load_t: "1" }],
    ),
    // s9: locked out, a clean reading after it, then a lift on the same crane.
    session(
      ["agent", "read_crane", { crane_id: "C4" }],
      ["tool", "read_crane_result", { crane_id: "C4", gust_ms: "12", fault: "no" }],
      ["agent", "lock_crane", { crane_id: "C4" }],
      ["agent", "read_crane", { crane_id: "C4" }],
      ["tool", "read_crane_result", { crane_id: "C4", gust_ms: "3", fault: "no" }],
      ["agent", "make_lift", { crane_id: "C4", load_t: "2" }],
    ),
    // s10: another crane locked out; this one lifts.
    session(
      ["agent", "lock_crane", { crane_id: "C9" }],
      ["agent", "read_crane", { crane_id: "C5" }],
      ["tool", "read_crane_result", { crane_id: "C5", gust_ms: "6", fault: "no" }],
      ["agent", "make_lift", { crane_id: "C5", load_t: "4" }],
    ),
  ],
};

describe("the latest look-up's two values, in any voice", () => {
  // Causes (blind16): a figure with no comparison word ("£0.00 OWED") was no value of the look-up, and a unit with a
  // slash ("15 km/h or less") no amount, so the look-up's reading failed; the ordering reader then read
  // "h or less and no" as a list of values (`rain_forecast in [h, less, no]`).
  const card = onLatest("fetch_book", "check_reader_result", "reader_id", 'r.card_valid == "yes" && r.fines_due == 0');
  it.each([
    ["plain prose", "A book is fetched only if the latest reader check of that same reader shows a valid card and £0.00 fines due."],
    ["capitals and '='", "FETCH A BOOK ONLY IF THE LATEST READER CHECK OF THAT SAME READER SAYS CARD VALID = YES AND £0.00 FINES DUE."],
    [
      "minutes",
      "Agreed (proposed RB, seconded TS): no book is to be fetched unless the most recent reader check of that same reader showed a valid card and £0.00 fines due.",
    ],
    [
      "an e-mail with a correction",
      "**Rhea Bastos · Tue 9 Mar, 12:48**\nCorrection to my note of Monday: no book is fetched for a reader unless the most recent check of that same reader shows a valid card and £0.00 fines due.",
    ],
    [
      "an 'is to be' duty",
      "Books are to be fetched only where the latest reader check of that same reader shows a valid card and £0.00 fines due.",
    ],
  ])("reads a flag and a figure owed in %s", (_voice, body) => {
    expect(checksOf(books, body)).toEqual([card]);
  });

  const calm = onLatest("make_lift", "read_crane_result", "crane_id", 'r.gust_ms <= 12 && r.fault == "no"');
  it.each([
    ["plain prose", "A lift is made only if the latest reading of that same crane shows gusts of 12 m/s or less and no fault."],
    ["capitals and '='", "MAKE A LIFT ONLY IF THE LATEST READING OF THAT SAME CRANE SHOWS GUSTS OF 12 M/S OR LESS AND FAULT = NO."],
    [
      "minutes",
      "Agreed (proposed AK, seconded JM): no lift is to be made unless the most recent reading of that same crane showed gusts of 12 m/s or less and no fault.",
    ],
    [
      "an e-mail",
      "**Ade Kola · Wed 10 Mar, 07:15**\nTo be clear: no lift is made unless the most recent reading of that same crane shows gusts of 12 m/s or less and no fault.",
    ],
    [
      "an 'is to be' duty",
      "Lifts are to be made only when the latest reading of that same crane shows gusts of 12 m/s or less and no fault.",
    ],
  ])("reads a speed in a unit with a slash and a flag in %s", (_voice, body) => {
    expect(checksOf(cranes, body)).toEqual([calm]);
  });

  it("reads no list of values from a speed's unit and comparison word when the look-up is not read ('h or less and no')", () => {
    // A look-up with no "latest": the ordering reader reads it, with no `in: [m, less, no]` on the crane's reading.
    const checks = checksOf(
      cranes,
      "No lift is to be made unless a reading of that same crane showed gusts of 12 m/s or less and no fault.",
    );
    expect(JSON.stringify(checks)).not.toMatch(/"less"/);
  });

  it("quotes the spec's own words, the header left out", () => {
    const body =
      "**Rhea Bastos · Tue 9 Mar, 12:48**\nCorrection to my note of Monday: no book is fetched for a reader unless the most recent check of that same reader shows a valid card and £0.00 fines due.";
    expect(quotesOf(books, body)[0]).toContain("the most recent check of that same reader shows a valid card and £0.00 fines due");
  });
});

describe("once X, nothing more is V-ed on that thing, in any voice", () => {
  // Causes (blind16): the act read whole from "hire to that customer", "issued under that permit", "picking started on
  // a block" tied between the verb's action and the one named after the thing (`bar_customer`, `check_permit`,
  // `check_block`), which won by its name; and a header's time ("08:44") hid the lead-in's colon, so the condition
  // stayed unread and the whole sentence banned the condition's own act (`forbidden suspend_permit`).
  const banned = bannedAfter("fetch_book", "ban_reader", "reader_id");
  it.each([
    ["plain prose", "Once a reader has been banned, the assistant never fetches a book for that reader again."],
    ["capitals", "ONCE A READER HAS BEEN BANNED, NEVER FETCH A BOOK FOR THAT READER AGAIN, WHATEVER A LATER CHECK SHOWS."],
    [
      "minutes",
      "Agreed also, at RB's request: once a reader has been banned, nothing more is to be fetched for that reader that day, whatever a later reader check of them shows.",
    ],
    [
      "an e-mail with a lead-in",
      "**Rhea Bastos · Tue 9 Mar, 08:44**\nOne more: once a reader has been banned, nothing further is fetched for that reader in the session, whatever a later check of them shows.",
    ],
    [
      "an e-mail, the header straight before the rule",
      "**Rhea Bastos · Tue 9 Mar, 08:44**\nOnce a reader has been banned, nothing further is fetched for that reader in the session.",
    ],
    ["a passive", "Once a reader is banned, books are no longer fetched for that reader."],
  ])("reads a ban for good on the same reader in %s", (_voice, body) => {
    expect(checksOf(books, body)).toEqual([banned]);
  });

  const locked = bannedAfter("make_lift", "lock_crane", "crane_id");
  it.each([
    ["plain prose", "Once a crane has been locked out, the assistant never makes a lift on that crane again."],
    ["capitals", "ONCE A CRANE HAS BEEN LOCKED OUT, NO MORE LIFTS ARE MADE ON THAT CRANE, WHATEVER A LATER READING SHOWS."],
    [
      "minutes",
      "Agreed (proposed AK, seconded JM): once a crane has been locked out, nothing more is to be lifted on that crane that day.",
    ],
    ["an e-mail", "**Ade Kola · Wed 10 Mar, 07:15**\nOne more: once a crane has been locked out, no further lift is made on that crane."],
    ["a duty", "After a crane is locked out, no lift is to be made on that crane for the rest of the shift."],
  ])("reads a ban for good on the same crane in %s", (_voice, body) => {
    expect(checksOf(cranes, body)).toEqual([locked]);
  });

  it("reads 'A clean reader check after the ban changes nothing.' with the ban for good before it: no question of its own", () => {
    // Cause (blind16's "A CLEAN ACCOUNT CHECK AFTER THE BAR CHANGES NOTHING."): read alone, it named the look-up and became a question.
    for (const body of [
      "Once a reader has been banned, the assistant never fetches a book for that reader again. A clean reader check after the ban changes nothing.",
      "ONCE A READER HAS BEEN BANNED, NEVER FETCH A BOOK FOR THAT READER AGAIN. A CLEAN READER CHECK AFTER THE BAN CHANGES NOTHING.",
      "Once a reader has been banned, nothing more is to be fetched for that reader. A later check of that reader makes no difference.",
    ]) {
      const draft = draftOf(books.preamble, body, books.samples, books.name, books.description);
      const rule = draft.ir.metaBehaviors[0]!;
      expect({ checks: rule.checks.map(({ quote: _q, ...c }) => c), questions: rule.semanticChecks.length }).toEqual({
        checks: [banned],
        questions: 0,
      });
    }
  });

  it("makes no ban of the condition's own act when the condition stays unread after a lead-in", () => {
    // "Further to rule 4, and no exceptions: once …": a lead-in with a rule's word of its own stays, and so the condition is
    // unread by the phrase readers; the whole sentence names `lock_crane` best, and a ban of it would fail every session
    // that locks a crane out. The words path (named-acts.ts) reads the two acts in the order the words give them, on the
    // crane they share, and never takes the rule's number for a lift's `load_t`.
    const body = "Further to rule 4, and no exceptions: once a crane has been locked out, nothing further is lifted on that crane.";
    expect(checksOf(cranes, body)).toEqual([
      { type: "forbidden", match: [{ action: "make_lift" }], after: [{ action: "lock_crane" }], on: "metadata.crane_id" },
    ]);
  });
});
