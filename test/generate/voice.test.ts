/**
 * Issue 25: the offline drafter reads a rule the same in any voice (compiler/generate/offline/voice.ts).
 * A world of its own: a community tool library whose lending assistant is called Wren. Each rule is
 * written once in the voice the readers were built on and again as a procedure ("shall", "prior
 * to", "in excess of", "thereafter"), a note to the assistant ("you …"), a checklist's imperative
 * ("Never …", "Log every …"), "At no time …" and "may only … once …"; every voice must draft the
 * same checks, and every quote must be the spec's own words.
 */
import { describe, expect, it } from "vitest";
import { originalQuote, participle, thirdPerson, voiced } from "../../compiler/generate/offline/voice.js";
import type { Trajectory } from "../../runtime/types.js";
import { drafter, voicesReadAlike } from "./voice-fixture.js";

const SPEC = (body: string) =>
  `---\nname: tool-library\ndescription: Lending rules for Wren, the tool library's assistant.\n---\n` +
  "Wren lends power tools to members of the library. It can look a member up (`check_member`, whose result " +
  "gives `member_status`), inspect a tool (`inspect_tool`, whose result gives the `condition`), lend it " +
  "(`lend_tool`, with the `tool_id` and the `member_id`), log the loan (`log_loan`, by `tool_id`) and charge " +
  "a deposit (`charge_deposit`, with the `amount` in dollars).\n\n## The rule\n\n" +
  body +
  "\n";

type Step = [Trajectory["events"][number]["actor"], string, Record<string, string>?];
let n = 0;
function session(...events: Step[]): Trajectory {
  return {
    id: `v${++n}`,
    description: "",
    complete: true,
    events: events.map(([actor, action, metadata], i) => ({ id: `e${i + 1}`, actor, action, ...(metadata ? { metadata } : {}) })),
  };
}

/** Lends tool T1 to member M1 after inspecting it (or not), logs it (or not), and charges a deposit. */
const lends = (o: { inspected?: boolean; logged?: boolean; deposit?: string }) =>
  session(
    ["agent", "check_member", { member_id: "M1" }],
    ["tool", "check_member_result", { member_id: "M1", member_status: "active" }],
    ...(o.inspected === false
      ? []
      : ([
          ["agent", "inspect_tool", { tool_id: "T1" }],
          ["tool", "inspect_tool_result", { tool_id: "T1", condition: "safe" }],
        ] as Step[])),
    ["agent", "lend_tool", { tool_id: "T1", member_id: "M1" }],
    ...(o.logged === false ? [] : ([["agent", "log_loan", { tool_id: "T1" }]] as Step[])),
    ["agent", "charge_deposit", { member_id: "M1", amount: o.deposit ?? "50" }],
  );
const samples = [
  lends({}),
  lends({ inspected: false }),
  lends({ logged: false }),
  lends({ deposit: "250" }),
  lends({ inspected: false, deposit: "300" }),
];

const { drafted, reading } = drafter(SPEC, samples);

describe("one rule in any voice", () => {
  const cases: [string, string, string[]][] = [
    [
      "a ban on a value",
      "Wren never charges a deposit above $200.",
      [
        "Wren shall not charge a deposit in excess of $200.",
        "Never charge a deposit above $200.",
        "You never charge a deposit exceeding $200.",
        "At no time does Wren charge a deposit above $200.",
        "Can Wren charge a deposit above $200? No.",
        "3.1 Wren shall not charge any deposit exceeding $200.",
      ],
    ],
    [
      "an ordering",
      "A tool is lent only after it has been inspected with `inspect_tool`.",
      [
        "A tool may only be lent once it has been inspected with `inspect_tool`.",
        "You lend a tool only after it has been inspected with `inspect_tool`.",
        "Lend a tool only after it has been inspected with `inspect_tool`.",
        "Never lend a tool before it has been inspected with `inspect_tool`.",
        "Inspect tools with `inspect_tool` before each lend_tool.",
        "Q: Can you lend a tool before it has been inspected with `inspect_tool`? A: No.",
      ],
    ],
    [
      "a pairing within a window",
      "Every lend_tool is logged with `log_loan` for the same tool within two steps.",
      [
        "Log every lend_tool with `log_loan` for the same tool within two steps.",
        "You log each lend_tool with `log_loan` for the same tool within two steps.",
        "Every lend_tool shall be logged with `log_loan` for the same tool no later than the second step after it.",
        "Every lend_tool is to be logged with `log_loan` for the same tool within two steps.",
      ],
    ],
  ];
  voicesReadAlike({ drafted, reading }, cases);
});

describe("the rewrite", () => {
  it.each([
    ["You never hand over a drill to a suspended member", "Wren never hands over a drill to a suspended member"],
    ["Never push to `branch: main`", "Wren never pushes to `branch: main`"],
    // "does not" is then "never" (voice-forms.ts lateSteps).
    ["Do not lend a tool twice", "Wren never lends a tool twice"],
    ["When a tool comes back, inspect it with `inspect_tool`", "When a tool comes back, Wren inspects it with `inspect_tool`"],
    ["The clerk shall release the saw prior to the inspection", "The clerk must release the saw before the inspection"],
    ["A deposit in excess of $200 is refunded thereafter", "A deposit more than $200 is refunded afterwards"],
    ["The loan is to be logged", "The loan must be logged"],
    ["Where a tool comes back broken, it is tagged", "If a tool comes back broken, it is tagged"],
    ["At no time does Wren lend a chainsaw", "Wren never lends a chainsaw"],
    ["Log every loan with `log_loan` within two steps", "Every loan is logged with `log_loan` within two steps"],
    ["A tool may only be lent once it has been inspected", "A tool is lent only after it has been inspected"],
    ["3.2 The clerk shall not release the saw", "The clerk must not release the saw"],
    ["[ ] Verify the member's card", "Wren verifies the member's card"],
    ["Every tool you lend comes back", "Every tool Wren lends comes back"],
    ["Check who you're lending to", "Check who Wren is lending to"],
    ["The loan is logged by you with `log_loan`", "The loan is logged with `log_loan`"],
    ["A report is filed before the end of the shift", "A report is filed before the end of the session"],
    ["Each member is lent a drill twice at most", "Each member is lent a drill at most twice"],
    ["Wren never lends a saw before the card has been checked", "Wren never lends a saw until the card has been checked"],
    ["Wren never lends a saw before the end of the session", "Wren never lends a saw before the end of the session"],
  ])("%j reads as %j", (sentence, expected) => {
    expect(voiced(sentence, "Wren").text).toBe(expected);
  });

  it.each([
    ["Can Wren lend a chainsaw to a visitor", "No", "Wren must not lend a chainsaw to a visitor"],
    ["Q: Can you lend a chainsaw to a visitor", "A: No, never", "Wren must not lend a chainsaw to a visitor"],
    ["Is it OK to lend a chainsaw to a visitor", "No", "Wren must not lend a chainsaw to a visitor"],
    ["Does Wren need to log every loan", "Yes, within two steps", "Wren must log every loan"],
    ["Can Wren lend a chainsaw to a visitor", "Only with a card", "Can Wren lend a chainsaw to a visitor"],
  ])("the question %j answered %j reads as %j", (question, answer, expected) => {
    expect(voiced(question, "Wren", () => true, answer).text).toBe(expected);
  });

  it("leaves an imperative alone whose verb no agent action is called by", () => {
    const knows = (verb: string) => verb === "lend";
    expect(voiced("Don't dress up routine readings as an emergency", "Wren", knows).text).toBe(
      "Don't dress up routine readings as an emergency",
    );
    expect(voiced("Don't lend a saw twice", "Wren", knows).text).toBe("Wren never lends a saw twice");
  });

  it("leaves the readers' own voice alone", () => {
    for (const sentence of [
      "Wren never charges a deposit above $200",
      "Payments to any one member add up to at most $500 in a session, across all their loans",
      "Deleting a file needs the user's go-ahead: Wren asks with `ask_user` before any `delete_file`",
      "Tickets past their deadline are not paid, whatever the claimant's excuse",
      "The member tells you the tool's number",
      "Work valued above $250,000 needs a second pair of eyes",
      "30 minutes after the loan, the member is called",
      "A valve that is open is closed normally; the point is not to start anything new",
    ])
      expect(voiced(sentence, "Wren").text).toBe(sentence.replace("tells you", "tells Wren"));
  });

  it("maps a quote of the rewritten sentence back to the words it came from", () => {
    const v = voiced("You shall log a loan in excess of 2 days prior to its return", "Wren");
    expect(v.text).toBe("Wren must log a loan more than 2 days before its return");
    expect(originalQuote(v, v.text)).toBe(v.original);
    expect(originalQuote(v, "log a loan more than 2 days")).toBe("log a loan in excess of 2 days");
    // A quote that cuts through rewritten words takes the whole of what they replaced.
    expect(originalQuote(v, "Wren must log")).toBe("You shall log");
    expect(originalQuote(v, "before its return")).toBe("prior to its return");
  });

  it("conjugates the agent's verbs", () => {
    expect(["push", "carry", "have", "log", "settle"].map(thirdPerson)).toEqual(["pushes", "carries", "has", "logs", "settles"]);
    expect(["log", "settle", "carry", "send", "enter", "ship"].map(participle)).toEqual([
      "logged",
      "settled",
      "carried",
      "sent",
      "entered",
      "shipped",
    ]);
  });
});
