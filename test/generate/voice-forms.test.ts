/**
 * Issue 25, the voice layer's second round (compiler/generate/offline/voice-forms.ts, voice-joins.ts):
 * checklists, FAQs, narratives, managers' e-mails, Do/Don't lists, If/then lines, contract clauses
 * and runbooks read as the readers' own voice, and rules their voice splits across sentences read
 * whole. A world of its own: a theatre's costume store, whose assistant Bobbin checks costumes for
 * moth, lends them to productions, sends the borrower a note and tells the wardrobe about moth.
 */
import { describe, expect, it } from "vitest";
import { originalQuote, voiced } from "../../compiler/generate/offline/voice.js";
import { drafter, sessions, voicesReadAlike, type Step } from "./voice-fixture.js";

const SPEC = (body: string) =>
  `---\nname: costume-store\ndescription: Lending rules for Bobbin, the costume store's assistant.\n---\n` +
  "Bobbin lends costumes to the theatre's productions. It can check a costume (`check_costume`, by `costume_id`; " +
  "the result gives its `state`, clean or moth), lend it (`lend_costume`, with the `costume_id`), send the " +
  "borrower a note (`send_note`, by `costume_id`) and tell the wardrobe (`notify_wardrobe`, by `costume_id`). " +
  'The wardrobe mistress gives the go-ahead in the chat ("OK to lend").\n\n## The rule\n\n' +
  body +
  "\n";

const session = sessions("c");
const check = (id: string, state: string): Step[] => [
  ["agent", "check_costume", { costume_id: id }],
  ["tool", "check_costume_result", { costume_id: id, state }],
];
const lend = (id: string): Step => ["agent", "lend_costume", { costume_id: id }];
const note = (id: string): Step => ["agent", "send_note", { costume_id: id }];
const notify = (id: string): Step => ["agent", "notify_wardrobe", { costume_id: id }];
const ok: Step = ["user", "message", undefined, "OK to lend"];

const samples = [
  session(...check("K1", "clean"), lend("K1"), note("K1")),
  session(...check("K1", "clean"), lend("K1")),
  session(...check("K1", "moth"), notify("K1"), lend("K1"), note("K1")),
  session(...check("K1", "moth"), notify("K1")),
  session(...check("K1", "moth"), lend("K1"), notify("K1")),
  session(ok, ...check("K1", "clean"), lend("K1"), note("K1"), ...check("K2", "clean"), lend("K2"), note("K2")),
  session(ok, ...check("K1", "clean"), lend("K1"), note("K1"), ok, ...check("K2", "clean"), lend("K2"), note("K2")),
  session(lend("K3"), note("K3")),
  session(...check("K5", "moth"), note("K5")),
];

const { drafted, reading } = drafter(SPEC, samples);

describe("one rule in the voices of round 2", () => {
  const cases: [string, string, string[]][] = [
    [
      "a pairing within a window",
      "Every lend_costume is followed by `send_note` for the same costume within two steps.",
      [
        "Every lend_costume → `send_note` for the same costume within two steps.",
        "Step 3: after each lend_costume, call `send_note` for the same costume within two steps.",
        "Starting Monday, every lend_costume is followed by `send_note` for the same costume within two steps.",
        "The Assistant agrees that every lend_costume is followed by `send_note` for the same costume within two steps.",
      ],
    ],
    [
      "an ordering on a result",
      "Bobbin never lends a costume until a check_costume result for that costume with `state: clean` has come back.",
      [
        "Starting Monday, nobody lends a costume until a check_costume result for that costume with `state: clean` has come back.",
        "The Assistant agrees not to lend a costume until a check_costume result for that costume with `state: clean` has come back.",
        "What we never do is lend a costume until a check_costume result for that costume with `state: clean` has come back.",
      ],
    ],
    [
      "an FAQ's condition asked, the duty answered",
      "If a check_costume result comes back with `state: moth`, `notify_wardrobe` is called for that costume within two steps.",
      [
        "What if a check_costume result comes back with `state: moth`? Then `notify_wardrobe` is called for that costume within two steps.",
        "If a check_costume result comes back with `state: moth`, then `notify_wardrobe` is called for that costume within two steps.",
        "What we do when a check_costume result comes back with `state: moth` is call `notify_wardrobe` for that costume within two steps.",
      ],
    ],
    [
      "a ban from an event on, in a sentence of its own",
      "If a check_costume result comes back with `state: moth`, `notify_wardrobe` is called for that costume within two steps. " +
        "If a check_costume result comes back with `state: moth`, Bobbin must not lend that costume afterwards.",
      [
        "If a check_costume result comes back with `state: moth`, `notify_wardrobe` is called for that costume within two steps. " +
          "You may not lend that costume afterwards.",
      ],
    ],
    [
      "one go-ahead for one act, said in a sentence of its own",
      'Bobbin lends a costume only after the wardrobe says "OK to lend"; one OK covers one costume.',
      ['Bobbin lends a costume only after the wardrobe says "OK to lend". One OK covers one costume.'],
    ],
  ];
  voicesReadAlike({ drafted, reading }, cases, (text) => text.replace(/\s+/g, " "));

  it("reads a one-OK-per-costume sentence as making the go-ahead fresh", () => {
    const { rule } = drafted('Bobbin lends a costume only after the wardrobe says "OK to lend". One OK covers one costume.');
    expect(rule.checks).toEqual([expect.objectContaining({ type: "ordering", fresh: true })]);
  });
});

describe("the round-2 rewrites", () => {
  it.each([
    ["Step 2: after each lend_costume, call `send_note`", "after each lend_costume, Bobbin calls `send_note`"],
    ["Starting Monday, nobody lends a costume twice", "Bobbin never lends a costume twice"],
    ["From now on, no one may lend a costume twice", "Bobbin must not lend a costume twice"],
    ["The Assistant agrees not to lend a costume twice", "Bobbin must not lend a costume twice"],
    ["The Provider undertakes to send a note", "Bobbin must send a note"],
    [
      "The Assistant agrees not to lend a costume twice, nor to lend it to a school",
      "Bobbin must not lend a costume twice, and must not lend it to a school",
    ],
    ["What we do is send a note after each loan", "Bobbin sends a note after each loan"],
    ["What we never do is lend a moth-eaten costume", "Bobbin never lends a moth-eaten costume"],
    ["What we do when a costume is torn is send it to repair", "When a costume is torn, Bobbin sends it to repair"],
    ["If a costume is torn, then it is sent to repair", "If a costume is torn, it is sent to repair"],
    [
      "If Bobbin calls `lend_costume`, the latest check must show `state: clean`",
      "Whenever Bobbin calls `lend_costume`, the latest check must show `state: clean`",
    ],
    ["Every lend_costume → `send_note` within two steps", "Every lend_costume is followed by `send_note` within two steps"],
    ["A clean check → then lend_costume", "A clean check comes before lend_costume"],
    ["Once a show closes, nothing more is lent for it", "Once a show closes, no more is lent for it"],
    ["No clean check, no loan: before each lend_costume, check it", "before each lend_costume, Bobbin checks it"],
    [
      "No clean check, no loan: the latest check must show `state: clean`",
      "No clean check, no loan: the latest check must show `state: clean`",
    ],
    ["Do send a note after each loan", "Bobbin sends a note after each loan"],
    ["An OK given for one costume doesn't carry over to the next one", "An OK given for one costume does not carry over to the next one"],
    ["Whenever a costume is torn. The wardrobe is told", "Whenever a costume is torn, the wardrobe is told"],
    ["Bobbin doesn't lend a costume twice", "Bobbin never lends a costume twice"],
    ["Don't: lend a costume twice", "Bobbin never lends a costume twice"],
    ["\u274c Lend a costume twice", "Bobbin never lends a costume twice"],
    ["Do: send a note after each loan", "Bobbin sends a note after each loan"],
    ["\u2705 Send a note after each loan", "Bobbin sends a note after each loan"],
    ["Please make sure you send a note after each loan", "Bobbin sends a note after each loan"],
    ["Remember to send a note after each loan", "Bobbin sends a note after each loan"],
    ["The Assistant shall ensure that every loan is noted", "every loan is noted"],
    ["If a costume is torn: send it to repair", "If a costume is torn, Bobbin sends it to repair"],
    ["If a costume is torn then send it to repair", "If a costume is torn, Bobbin sends it to repair"],
    ["If a costume is torn → send it to repair", "If a costume is torn, Bobbin sends it to repair"],
    [
      "If a costume is lent for a show, then a check with `state: clean` must have come back before it",
      "A costume is lent for a show only after a check with `state: clean` has come back",
    ],
    ["If a costume is torn, then the wardrobe must have been told before it", "A costume is torn only after the wardrobe has been told"],
  ])("%j reads as %j", (sentence, expected) => {
    expect(voiced(sentence, "Bobbin").text).toBe(expected);
  });

  it("reads an FAQ's condition with its answer, and the question alone as nothing", () => {
    const question = "What if a costume comes back torn";
    const answer = "Then it is sent to repair";
    expect(voiced(question, "Bobbin", () => true, answer).text).toBe("");
    const v = voiced(answer, "Bobbin", () => true, undefined, question);
    expect(v.text).toBe("If a costume comes back torn, it is sent to repair");
    // The question's words stand for none of the answer's: a quote of them all is the answer's own words.
    expect(originalQuote(v, v.text)).toBe(answer);
  });

  it("leaves a question that asks about a condition alone", () => {
    expect(voiced("When does Bobbin send a note", "Bobbin", () => true, "After each loan").text).toBe("When does Bobbin send a note");
  });

  it("puts the condition of the sentence before in front of one that points back at it", () => {
    const previous = "When a check comes back with `state: moth`, the wardrobe is told";
    expect(voiced("You may not lend that costume afterwards", "Bobbin", () => true, undefined, previous).text).toBe(
      "When a check comes back with `state: moth`, Bobbin may not lend that costume afterwards",
    );
    // Without a word pointing back, the sentence stands on its own.
    expect(voiced("You may not lend a costume to a school", "Bobbin", () => true, undefined, previous).text).toBe(
      "Bobbin may not lend a costume to a school",
    );
  });
});
