/**
 * Issue 25: what is not an obligation, in any voice (compiler/generate/offline/context.ts,
 * voice-record.ts). The same rule is written alone, then among sentences that state no rule: a
 * report or observation ("It was noted that …", "Jo reported that …"), a question, a message
 * header, a superseded draft and its correction, a minute's action item and the meeting's closing,
 * an answer settling a bound's edge. Each voice must draft what the rule alone drafts: the context
 * gives no check, no question and no "not covered" notice. Worlds of their own: a rare-books reading
 * room whose assistant Vellum checks readers' cards and fetches volumes, a sea-kayak hut whose
 * assistant Paddle lends kayaks and logs buoyancy aids, and a ferry's ticket desk whose assistant
 * Purser issues deck passes.
 */
import { describe, expect, it } from "vitest";
import { contextSentences, uncoveredObligations, ruleQuotes } from "../../compiler/generate/coverage.js";
import { sectionSentences } from "../../compiler/generate/offline/sentences.js";
import { drafter, sessions, voicesReadAlike, type Step } from "./voice-fixture.js";

const spec = (name: string, description: string, preamble: string) => (body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${preamble}\n\n## The rule\n\n${body}\n`;

/** The section's obligations no clause quotes: none, whatever context stands around the rule. */
function notCovered(d: ReturnType<typeof drafter>, body: string): string[] {
  const { rule, section } = d.drafted(body);
  return uncoveredObligations(section, ruleQuotes(rule)).map((o) => o.text);
}

describe("a reading room: an ordering on a card check, among context", () => {
  const SPEC = spec(
    "reading-room",
    "Rules for Vellum, the rare-books reading room's assistant.",
    "Vellum checks a reader's card (`check_card`, by `reader_id`; the result gives `status`, active or expired) and fetches " +
      "a volume from the stacks (`fetch_volume`, with the `volume_id` and the `reader_id`).",
  );
  const session = sessions("v");
  const card = (reader: string, status: string): Step[] => [
    ["agent", "check_card", { reader_id: reader }],
    ["tool", "check_card_result", { reader_id: reader, status }],
  ];
  const fetch = (reader: string, volume = "F1"): Step => ["agent", "fetch_volume", { reader_id: reader, volume_id: volume }];
  const samples = [
    session(...card("R1", "active"), fetch("R1")),
    session(...card("R1", "expired"), fetch("R1")),
    session(fetch("R2")),
    session(...card("R3", "active"), fetch("R4")),
    session(...card("R5", "active"), fetch("R5"), fetch("R5", "F2")),
    session(...card("R6", "expired"), ["user", "message", undefined, "I'll renew it tomorrow"]),
  ];
  const d = drafter(SPEC, samples);
  const RULE = "Vellum fetches a volume with fetch_volume only after a `check_card` result for that same reader with `status: active`.";
  const voices = [
    // Plain prose: a report before, a report and a question after.
    "It was noted that two folios went out last winter on cards that had lapsed the week before. " +
      RULE +
      " Jo reported that the card reader at the desk was slow all through March. What about a reader who holds two cards?",
    // Minutes: a discussion, the decision's lead-in, an action item, the closing.
    "Discussion of the folio incident of 12 January.\n\n" +
      "Agreed (proposed JW, seconded AB): Vellum fetches a volume with fetch_volume only after a `check_card` result for that same reader with `status: active`.\n\n" +
      "Action: JW to brief the desk staff.\n\n" +
      "There being no other business, the meeting closed at 11:20. Next meeting: 3 June 2027.",
    // An e-mail thread: headers, a draft, a question in a reply, the correction.
    "**Ann Lee · Mon 3 May, 09:10**\n" +
      "Rule 1 as drafted: Vellum fetches a volume with fetch_volume only after any `check_card` result.\n\n" +
      "**Bo Chan (Reading Room) · Mon 3 May, 10:02**\n" +
      "Which result? And do we care whether the card has expired?\n\n" +
      "**Ann Lee · Tue 4 May, 08:30**\n" +
      "Correction to my note of Monday: Vellum fetches a volume with fetch_volume only after a `check_card` result for that same reader with `status: active`.",
    // A note in capitals around the rule: a header, a report, an action.
    "**ANN LEE · TUE 4 MAY, 08:30**\n" +
      "IT WAS NOTED THAT TWO FOLIOS WENT OUT ON LAPSED CARDS. " +
      RULE +
      " ACTION: JW TO BRIEF THE DESK.",
  ];
  voicesReadAlike(d, [["an ordering on an active card, tied by the reader", RULE, voices]]);
  it.each(voices)("no sentence of %j is left not covered", (body) => {
    expect(notCovered(d, body)).toEqual([]);
  });
});

describe("a kayak hut: a pairing within two steps, among context", () => {
  const SPEC = spec(
    "kayak-hut",
    "Rules for Paddle, the sea-kayak hut's assistant.",
    "Paddle lends a kayak (`lend_kayak`, with the `kayak_id`, the `renter` and the `hours` it is out for) and logs the buoyancy aid that goes with it " +
      "(`log_jacket`, by `kayak_id`).",
  );
  const session = sessions("k");
  const lend = (kayak: string, hours = "5"): Step => ["agent", "lend_kayak", { kayak_id: kayak, renter: "P1", hours }];
  const jacket = (kayak: string): Step => ["agent", "log_jacket", { kayak_id: kayak }];
  const chat: Step = ["agent", "message"];
  const samples = [
    session(lend("K1"), jacket("K1")),
    session(lend("K1"), chat, chat, chat, jacket("K1")),
    session(lend("K2"), jacket("K3")),
    session(lend("K4"), chat, jacket("K4")),
    session(lend("K5")),
    session(["user", "message", undefined, "Is the tide going out?"], chat),
    session(lend("K6", "2")),
    session(lend("K7", "2"), chat, chat, chat, jacket("K7")),
  ];
  const d = drafter(SPEC, samples);
  const RULE = "Each lend_kayak is followed by `log_jacket` for the same kayak within 2 steps of the lend_kayak.";
  const voices = [
    "Tom asked whether a double kayak needs two aids. " + RULE + " Rosa explained that the jacket log is what the harbour master reads.",
    "It was noted that a kayak went out without an aid on 2 July.\n\n" +
      "Agreed (proposed RM, seconded TK): each lend_kayak is to be followed by `log_jacket` for the same kayak within 2 steps of the lend_kayak.\n\n" +
      "Action: RM to reprint the hut's card.\n\n" +
      "There being no other business, the meeting closed at 18:05. Next meeting: 4 August 2027.",
    "**Rosa Mendes · Tue 6 Jul, 08:12**\n" +
      "Rule 2 as drafted: each lend_kayak is followed by `log_jacket` for the same kayak within 5 steps of the lend_kayak.\n\n" +
      "**Tom Kerr · Tue 6 Jul, 09:40**\n" +
      "Five steps is a long time on the water. What about a double kayak?\n\n" +
      "**Rosa Mendes · Wed 7 Jul, 07:55**\n" +
      "Correction to my note of Tuesday: each lend_kayak is followed by `log_jacket` for the same kayak within 2 steps of the lend_kayak, not 5.",
    "JV REPORTED THAT A KAYAK WENT OUT WITHOUT AN AID. " + RULE + " ACTION: RM TO REPRINT THE CARD.",
  ];
  // The decision's lead-in before a condition the voice layer reads only at the start ("Where …" is the procedure's "If").
  const LONG =
    "If a kayak is lent with lend_kayak for more than 3 hours, `log_jacket` must be logged for that same kayak within 2 steps of the lend_kayak.";
  const led = [
    "Agreed: where a kayak is lent with lend_kayak for more than 3 hours, `log_jacket` is to be logged for that same kayak no later than the second step after the lend_kayak.",
    "It was noted that the aids are in the blue locker.\n\nAgreed (proposed RM, seconded TK): where a kayak is lent with lend_kayak for more than 3 hours, `log_jacket` is to be logged for that same kayak no later than the second step after the lend_kayak.",
    "**Rosa Mendes · Wed 7 Jul, 07:55**\nOne more: where a kayak is lent with lend_kayak for more than 3 hours, `log_jacket` is to be logged for that same kayak no later than the second step after the lend_kayak.",
    "**Rosa Mendes · Wed 7 Jul, 07:55**\nCorrection to my note of Tuesday: where a kayak is lent with lend_kayak for more than 3 hours, `log_jacket` is to be logged for that same kayak no later than the second step after the lend_kayak.",
  ];
  voicesReadAlike(d, [
    ["a pairing within two steps, tied by the kayak", RULE, voices],
    ["a pairing after a long lending, within two steps", LONG, led],
  ]);
  it.each(voices)("no sentence of %j is left not covered", (body) => {
    expect(notCovered(d, body)).toEqual([]);
  });
});

describe("a ferry desk: a count, with answers that settle its edge", () => {
  const SPEC = spec(
    "ferry-desk",
    "Rules for Purser, the ferry ticket desk's assistant.",
    "Purser issues a deck pass (`issue_pass`, with the `deck` and the `vehicle`).",
  );
  const session = sessions("f");
  const pass = (vehicle: string): Step => ["agent", "issue_pass", { deck: "upper", vehicle }];
  const samples = [
    session(pass("V1")),
    session(pass("V1"), pass("V2")),
    session(pass("V1"), pass("V2"), pass("V3")),
    session(pass("V1"), pass("V2"), pass("V3"), pass("V4")),
    session(["agent", "message"]),
  ];
  const d = drafter(SPEC, samples);
  const RULE = "Purser issues at most 2 deck passes with issue_pass in a session.";
  const voices = [
    RULE + " Exactly at the cap is within it. Two desks are two caps.",
    "**Mara Holt · Fri 9 Apr, 16:40**\n" +
      "Rule 3 as drafted: Purser issues at most 4 deck passes with issue_pass in a session.\n\n" +
      "**Ivo Sand · Fri 9 Apr, 17:02**\n" +
      "What about a pass that takes the desk exactly to the cap?\n\n" +
      "**Mara Holt · Mon 12 Apr, 08:15**\n" +
      "Correction to my note of Friday: Purser issues at most 2 deck passes with issue_pass in a session. Exactly at the cap is within it.",
    "Agreed (MH): Purser issues at most 2 deck passes with issue_pass in a session.\n\nIt was noted that the lower deck has no cap. " +
      "Next meeting: 6 May 2027.",
  ];
  voicesReadAlike(d, [["a count of passes in a session", RULE, voices]]);
});

describe("the rule-like sentences read as context, as the interview names them", () => {
  it("names a superseded draft and a question with an obligation's words, not a header or a report", () => {
    const body =
      "**Ann Lee · Mon 3 May, 09:10**\nRule 1 as drafted: the agent lifts at most 37 kg per porter.\n\n" +
      "**Bo Chan · Mon 3 May, 10:02**\nMust every crate be weighed first? It was noted that the scale was slow.\n\n" +
      "**Ann Lee · Tue 4 May, 08:30**\nCorrection to my note of Monday: the agent lifts at most 370 kg per porter, not 37.";
    expect(contextSentences(body)).toEqual([
      { text: "Rule 1 as drafted: the agent lifts at most 37 kg per porter", kind: "a draft a later message corrects" },
      { text: "Must every crate be weighed first", kind: "a question" },
    ]);
    expect(uncoveredObligations(body, [])).toEqual([
      expect.objectContaining({ text: "Correction to my note of Monday: the agent lifts at most 370 kg per porter, not 37" }),
    ]);
  });
});

describe("the sentences that are context, and what kind", () => {
  const kinds = (body: string) => sectionSentences(body).map((s) => (s.role === "context" ? s.context : s.role));
  it.each([
    ["It was noted that the lift was slow. The agent never lifts more than 2 crates.", ["report", "rule"]],
    ["JV reported that pickers walked in. MK added that the gate was open.", ["report", "report"]],
    ["Tom asked whether one note could cover two crates; it was agreed it could not.", ["rule"]],
    ["The employee is told about every reversal.", ["rule"]],
    ["**Helen Marsh · Mon 8 Mar, 09:05**\nThe agent never lifts a crate twice.", ["header", "rule"]],
    ["**From:** Helen · **To:** stores · **Mon 8 Mar, 08:55**\n\nThe agent never lifts a crate twice.", ["header", "rule"]],
    ["**Never lift a crate after 17:00.**", ["rule"]],
    ["Which check? And do we care about training?", ["question", "question"]],
    ["Can the clerk lift a crate without a ticket? No.", ["rule", "rule"]],
    // A flowchart's question is the condition its branches act on: part of the rule, not a remark.
    ["Is the crate heavier than 40 kg? If yes, the agent uses the hoist. If no, go to step 3.", ["rule", "rule", "rule"]],
    ["Has the porter signed? If not, the agent never lifts the crate.", ["rule", "rule"]],
    ["Once per visit?\n\nNo. Correction to Monday: one note covers one crate.", ["question", "rule"]],
    ["Action: TB to set the assistant up accordingly.", ["action"]],
    ["Corrective action: every crate is weighed before it is lifted.", ["rule"]],
    ["There being no other business, the meeting closed at 10:40. Next meeting: 1 April 2027.", ["closing", "closing"]],
    ["Exactly at the cap is within it. Two permits in one lab are two caps.", ["edge", "edge"]],
    [
      "Rule 2 as drafted: 37 kg per porter.\n\nCorrection to my note of Monday: the figure is 370 kg, not 37. The agent lifts at most 370 kg.",
      ["superseded", "rule", "rule"],
    ],
    ["The limit is 37 kg per porter.\n\nCorrection: the figure is 370 kg, not 37.", ["superseded", "rule"]],
    ["Rule 5: the agent lifts at most 370 kg. The rest of rule 5 stands.", ["rule", "rule"]],
  ] as [string, string[]][])("%j", (body, expected) => {
    expect(kinds(body)).toEqual(expected);
  });
});
