/**
 * A message's header, in one place (compiler/generate/offline/header.ts, issue 25): who wrote and
 * when, as a thread, an e-mail or minutes print it, is split from what the message says where
 * sentences are split (sentences.ts), so no header reaches a reader. Four places used to say what a
 * header is, each with its own regex: the splitter (a header alone on its line), and the voice layer
 * for a header run into the message's first sentence on the same line (voice-case.ts `unheaded`,
 * voice-windows.ts "message header", voice-asides.ts "header before condition"). The forms below are
 * the union of what they accepted; the non-headers are where they disagreed, and what was chosen.
 * Worlds of their own: a bike-share depot whose assistant Spoke rents and retires bikes.
 */
import { describe, expect, it } from "vitest";
import { messageHeader } from "../../compiler/generate/offline/header.js";
import { sectionSentences } from "../../compiler/generate/offline/sentences.js";
import { drafter, sessions, voicesReadAlike, type Step } from "./voice-fixture.js";

/** Each sentence of a section body: its role (a context sentence's kind), and its words. */
const read = (body: string) => sectionSentences(body).map((s) => [s.role === "context" ? s.context : s.role, s.text]);

const RULE = "Once a bike has been retired, nothing further is rented on that bike";

/** Headers, each form one of the four places accepted. */
const HEADERS: [string, string][] = [
  ["a name · a weekday, a date and a time", "**Helen Marsh · Tue 9 Mar, 13:02**"],
  ["a name and a role · a date and a time", "**Owen Pryce (Stores Supervisor) · Mon 8 Mar, 11:30**"],
  ["a name, a date in words and a time", "**Jon Pike, 10 March 2027 16:20**"],
  ["a name · a date in words", "**Kim Osei · 9 March 2027**"],
  ["a name · an ISO date", "**Kim Osei · 2027-03-09**"],
  ["a name · a time of day", "**A. Berg · 12:48**"],
  ["a name · a month before its day", "**Rhea Bastos · March 9**"],
  ["a weekday written in full", "**Ade Kola · Thursday 11 March, 10:02**"],
  ["in capitals", "**HELEN MARSH · THU 11 MAR, 10:02**"],
  ["in underscores", "__Helen Marsh · Thu 11 Mar, 10:02__"],
];

describe("what a message's header is", () => {
  it.each(HEADERS)("%s, alone on its line", (_form, header) => {
    expect(messageHeader(header)).toBe(header);
    expect(read(`${header}\n${RULE}.`)).toEqual([
      ["header", header],
      ["rule", RULE],
    ]);
  });

  it.each(HEADERS)("%s, the message's first sentence after it on the same line", (_form, header) => {
    expect(messageHeader(`${header} ${RULE}.`)).toBe(header);
    expect(read(`${header} ${RULE}.`)).toEqual([
      ["header", header],
      ["rule", RULE],
    ]);
  });

  it.each(HEADERS)("%s, after a sentence on the same line", (_form, header) => {
    // "Thanks all." closes the message before; the header opens the next one, whose first sentence is the rule.
    expect(read(`Thanks all. ${header} ${RULE}.`)).toEqual([
      ["closing", "Thanks all"],
      ["header", header],
      ["rule", RULE],
    ]);
  });

  it("the fields of an e-mail's or a minute's head, and a quote's lead-in: the whole line", () => {
    for (const line of [
      "**From:** Helen · **To:** depot · **Mon 8 Mar, 08:55**",
      "Present: MK (in the chair), JV, TB",
      "**Apologies:** the workshop lead",
      "On Tue 9 Mar, Helen wrote:",
    ]) {
      expect(messageHeader(line)).toBe(line);
      expect(read(`${line}\n${RULE}.`)).toEqual([
        ["header", line],
        ["rule", RULE],
      ]);
    }
  });

  it("leaves the sentence after a header as written, so any slice of it is a quote", () => {
    const body = `**Helen Marsh · Tue 9 Mar, 13:02**   ${RULE}, whatever a later check shows.`;
    const rule = sectionSentences(body).find((s) => s.role === "rule")!;
    expect(body).toContain(rule.text);
  });
});

describe("what is no message header", () => {
  it.each([
    // A bold rule with a time of day in it (voice-case.ts and voice-windows.ts took the bold words off as a header).
    [
      "a bold rule sentence with a time",
      "**Never rent a bike after 22:00.** Bikes wait for the morning shift.",
      "**Never rent a bike after 22:00.**",
    ],
    ["bold rule words with a time", "**No bike is rented after 22:00** unless a manager says so.", "**No bike is rented after 22:00**"],
    // A time the rule is about (all four took it for a header).
    ["a time the rule is about", "**After 22:00** Spoke rents no bike.", "**After 22:00**"],
    ["a date the rule is about", "**From 1 April 2027** Spoke rents no e-bike to a rider under 16.", "**From 1 April 2027**"],
    // A bold label holds no date (voice-asides.ts took any bold words before a condition; voice-windows.ts "Rule 3", a
    // capital's word and a number, for "Mar 9"; voice-case.ts a middle dot with no date).
    ["a note", "**Note:** Spoke rents no bike after 22:00.", "**Note:**"],
    ["a rationale", "**Why:** a bike went out at 23:10 last March.", "**Why:**"],
    ["a rule's number", "**Rule 3** Once a bike has been retired, nothing further is rented on that bike.", "**Rule 3**"],
    [
      "a name · a place",
      "**R. Okafor · North depot** Once a bike has been retired, it is never rented again.",
      "**R. Okafor · North depot**",
    ],
    ["a word that only starts as a day does", "**Monitor 3** Once a bike has been retired, it is never rented again.", "**Monitor 3**"],
    ["a chat's speaker", "**Mags:** Not after 22:00.", "**Mags:**"],
  ])("%s", (_what, body, bold) => {
    expect(messageHeader(body)).toBeUndefined();
    expect(messageHeader(bold)).toBeUndefined();
    expect(read(body).some(([kind]) => kind === "header")).toBe(false);
    // The bold words stay where they are, in the sentence they open.
    expect(sectionSentences(body)[0]!.text.startsWith(bold.replace(/\.\*\*$/, ""))).toBe(true);
  });
});

describe("a bike-share depot: a ban for good after a retirement, under a header", () => {
  const spec = (body: string) =>
    "---\nname: bike-share\ndescription: Rules for Spoke, the bike-share depot's assistant.\n---\n" +
    "Spoke rents a bike to a rider (`rent_bike`, with the `bike_id` and the `rider_id`) and retires a bike from the fleet " +
    `(\`retire_bike\`, by \`bike_id\`).\n\n## Retired bikes\n\n${body}\n`;
  const session = sessions("b");
  const rent = (bike: string): Step => ["agent", "rent_bike", { bike_id: bike, rider_id: "R1" }];
  const retire = (bike: string): Step => ["agent", "retire_bike", { bike_id: bike }];
  const samples = [
    session(rent("B1"), retire("B1"), rent("B2")),
    session(retire("B1"), rent("B1")),
    session(rent("B1"), rent("B1")),
    session(retire("B2"), rent("B1")),
  ];
  const d = drafter(spec, samples);
  const plain = `${RULE}.`;
  voicesReadAlike(d, [
    [
      "retired, never rented again",
      plain,
      [
        `**Helen Marsh · Tue 9 Mar, 13:02**\n${plain}`,
        `**Helen Marsh · Tue 9 Mar, 13:02** ${plain}`,
        `**Jon Pike, 10 March 2027 16:20** One more: ${RULE.charAt(0).toLowerCase()}${RULE.slice(1)}.`,
        `**Kim Osei · 2027-03-09** ${plain}`,
        `Thanks all.\n\n**A. Berg · 12:48** ${plain}`,
        `**HELEN MARSH · THU 11 MAR, 10:02** ${plain.toUpperCase()}`,
        // No header, and still no part of the rule: a label's bold words before its condition (voice-asides.ts keeps
        // its "bold label before condition" for these; the old "header before condition" step read them so).
        `**Rule 3** ${plain}`,
        `**Stage 2 · Retirement** ${plain}`,
        `**After 22:00** ${plain}`,
      ],
    ],
  ]);
});
