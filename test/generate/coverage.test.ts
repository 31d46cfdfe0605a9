/**
 * No silent drop (issue 25): every sentence of a section that states an obligation, and each of
 * its sub-clauses joined by "and" or "; ", is quoted by some clause of the rule, or said to be
 * not covered: by the offline drafter (a note), the interview (terminal and web) and lint.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { obligations, statesObligation, tableObligations, uncoveredObligations } from "../../compiler/generate/coverage.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import { lintSpec } from "../../compiler/behavior-md/lint.js";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { runInterview } from "../../compiler/interview/index.js";
import { startWebInterview } from "../../compiler/interview/web.js";
import { startInterview } from "../../compiler/interview/state.js";
import { currentView } from "../../compiler/interview/view.js";
import type { Trajectory } from "../../runtime/types.js";
import type { InterviewInput } from "../../compiler/generate/types.js";
import { interviewInput } from "../interview/fixture.js";

const SECTION =
  "The agent refunds only after the identity has been checked with `verify_identity` and the verification comes back `status: verified`. A refund is a promise.";

describe("obligations", () => {
  it("splits a sentence that states an obligation at 'and' before a new subject, and leaves explanations out", () => {
    expect(obligations(SECTION).map((o) => o.text)).toEqual([
      "The agent refunds only after the identity has been checked with `verify_identity`",
      "the verification comes back `status: verified`",
    ]);
  });

  it("counts a sub-clause as covered when a quote overlaps it, and as not covered otherwise (the dropped-clause case)", () => {
    const first = "The agent refunds only after the identity has been checked with `verify_identity`";
    expect(uncoveredObligations(SECTION, [first]).map((o) => o.text)).toEqual(["the verification comes back `status: verified`"]);
    expect(uncoveredObligations(SECTION, [SECTION.slice(0, SECTION.indexOf(". A refund"))])).toEqual([]);
  });

  it("does not take a description for an obligation: 'a commit that was never pushed is lost'", () => {
    expect(obligations("The sandbox is recycled, so a commit that was never pushed is lost. Every commit must be pushed.")).toHaveLength(1);
  });
});

describe("obligations no cue word states", () => {
  it('takes a sentence headed by "Don\'t", "Do not" or a forbidding "No" for an obligation', () => {
    for (const sentence of [
      "Don't hand a cage back that was never weighed",
      "Do not reopen a bay on the same shift",
      "No tank is filled above the red line",
      "Please don't send two reminders for one parcel",
    ])
      expect(statesObligation(sentence), sentence).toBe(true);
    expect(statesObligation("Nothing here is about refunds")).toBe(false);
    expect(statesObligation("Doing so takes a minute")).toBe(false);
  });
});

/** A Do / Don't list as a table, with a fenced table that is an example, not a rule. */
const TABLED = [
  "Keep the wash floor tidy.",
  "",
  "| Do | Don't |",
  "|:---|---:|",
  "| Weigh every cage before it leaves. | Mix theatre linen with ward linen. |",
  "| Log the rewash with `log_rewash`. Tell the ward | Send a cage over 40 kg \\| any cage marked `hold: yes`. |",
  "",
  "```",
  "| Do | Don't |",
  "|---|---|",
  "| Sing while folding | Fold in silence |",
  "```",
].join("\n");

describe("obligations in table cells (no silent drop)", () => {
  it("reads each body cell's sentences: a cue word or an obligation column (Do, Don't, Must, Controls…) makes one", () => {
    // The readers read a "Do" column's cells (sentences.ts ruleCells); obligations() has those of them with a cue word,
    // and each "Don't" cell written as a bare act, an obligation by its column (banned-acts.ts).
    expect(obligations(TABLED).map((o) => o.text)).toEqual([
      "Weigh every cage before it leaves",
      "Mix theatre linen with ward linen",
      "Send a cage over 40 kg \\| any cage marked `hold: yes`",
    ]);
    expect(tableObligations(TABLED).map((o) => o.text)).toEqual([
      "Weigh every cage before it leaves",
      "Mix theatre linen with ward linen",
      "Log the rewash with `log_rewash`",
      "Tell the ward",
      "Send a cage over 40 kg \\| any cage marked `hold: yes`",
    ]);
  });

  it("leaves the header row, the delimiter row, short cells and fenced tables out, and a cell under a plain column needs a cue", () => {
    const plain = [
      "| Hazard | Notes |",
      "|---|---|",
      "| Hot irons | Staff wear gloves near them |",
      "| Steam | Every valve must be shut at night |",
    ].join("\n");
    expect(tableObligations(plain).map((o) => o.text)).toEqual(["Every valve must be shut at night"]);
  });

  it("counts a cell as covered when a clause quotes it, and names the rest in lint's and the drafter's notice", () => {
    const uncovered = uncoveredObligations(TABLED, ["Weigh every cage before it leaves", "Log the rewash with `log_rewash`"]);
    expect(uncovered.map((o) => o.text)).toEqual([
      "Mix theatre linen with ward linen",
      "Tell the ward",
      "Send a cage over 40 kg \\| any cage marked `hold: yes`",
    ]);
    // In the body's order, table cells and paragraphs alike.
    const mixed = `Every cage must be weighed.\n\n${TABLED}\n\nThe shift lead must sign the sheet.`;
    expect(uncoveredObligations(mixed, []).map((o) => o.text)).toEqual([
      "Every cage must be weighed",
      "Weigh every cage before it leaves",
      "Mix theatre linen with ward linen",
      "Log the rewash with `log_rewash`",
      "Tell the ward",
      "Send a cage over 40 kg \\| any cage marked `hold: yes`",
      "The shift lead must sign the sheet",
    ]);
  });
});

const qualifierSpec = parseBehaviorMd(`---
name: refunds
description: Refund rules.
---
The agent handles refunds.

## Look it up first

The agent refunds only after it has looked up the order; a lookup that comes back empty does not count.
`);

const samples: Trajectory[] = [
  {
    id: "s1",
    description: "",
    complete: true,
    events: [
      { id: "e1", actor: "user", action: "message", content: "refund please" },
      { id: "e2", actor: "agent", action: "lookup_order", metadata: { order: "A" } },
      { id: "e3", actor: "tool", action: "lookup_order_result", metadata: { status: "found" } },
      { id: "e4", actor: "agent", action: "refund", metadata: { order: "A" } },
    ],
  },
];

describe("the offline drafter", () => {
  it("says which obligation it did not cover, with the sentence, instead of dropping it", () => {
    if (!qualifierSpec.ok) throw new Error("spec");
    const draft = draftOffline({ spec: qualifierSpec.spec, vocabulary: buildVocabulary(samples), samples });
    const quotes = draft.ir.metaBehaviors[0]!.checks.map((c) => c.quote);
    expect(quotes.some((q) => q.includes("empty"))).toBe(false);
    expect(draft.notes.filter((n) => n.kind === "uncovered-sentence")).toEqual([
      expect.objectContaining({ rule: 0, message: expect.stringContaining('"a lookup that comes back empty does not count"') }),
    ]);
  });
});

/** The interview fixture with its escalation rule's required check (the handover note) dropped from the draft. */
function withoutHandover(): InterviewInput {
  const input = interviewInput();
  const rule = input.draft.ir.metaBehaviors[2]!;
  rule.checks = rule.checks.slice(0, 1);
  return input;
}

describe("the interview", () => {
  it("shows 'not covered' with the sentence on the rule's questions and in the review, and recomputes it after a drop", () => {
    const full = currentView(startInterview(interviewInput()));
    expect(full.kind === "question" && full.notes.some((n) => n.startsWith("not covered"))).toBe(false);
    let state = startInterview(withoutHandover());
    state = { ...state, at: state.questions.findIndex((q) => q.rule === 2) };
    const view = currentView(state);
    expect(view.kind === "question" && view.notes).toContain('not covered: "it writes a handover note for the supervisor"');
    const review = currentView({ ...state, at: "review" });
    expect(review.kind === "review" && review.notices).toContain(
      'Not covered in "Stop paying out once escalated": "it writes a handover note for the supervisor".',
    );
  });

  it("prints it in the terminal", async () => {
    const out = new PassThrough();
    let text = "";
    out.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    const input = new PassThrough();
    input.end("");
    await runInterview(withoutHandover(), { web: false, input, output: out });
    expect(text).toContain('note: not covered: "it writes a handover note for the supervisor"');
    expect(text).toContain('Not covered in "Stop paying out once escalated"');
  });

  it("serves it to the browser page in the question's notes", async () => {
    const server = await startWebInterview(withoutHandover());
    try {
      const url = new URL(server.url);
      const state = (await (await fetch(`${url.origin}/state?token=${url.searchParams.get("token")}`)).json()) as {
        view: { kind: string; notes: string[] };
      };
      expect(state.view.kind).toBe("question");
      // The first question is the lookup rule's trigger, whose rule covers everything.
      expect(state.view.notes.filter((n) => n.startsWith("not covered"))).toEqual([]);
      const action = await fetch(`${url.origin}/action?token=${url.searchParams.get("token")}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: url.origin },
        body: JSON.stringify({ at: 0, action: { type: "goto", question: 5 } }),
      });
      const after = (await action.json()) as { view: { notes: string[] } };
      expect(after.view.notes).toContain('not covered: "it writes a handover note for the supervisor"');
    } finally {
      await server.close();
      await server.result.catch(() => undefined);
    }
  });
});

/** Lints a spec of one section, "Verify first", with `body`, against a judge whose one ordering quotes `quote`. */
async function lintOne(body: string, quote: string) {
  const dir = mkdtempSync(join(tmpdir(), "bj-coverage-"));
  writeFileSync(join(dir, "BEHAVIOR.md"), `---\nname: doors\ndescription: Door rules.\n---\n## Verify first\n\n${body}\n`);
  writeFileSync(
    join(dir, "judge.yaml"),
    [
      "version: 1",
      "behavior: doors",
      "metaBehaviors:",
      "  - name: Verify first",
      "    trigger: { description: A refund., match: { action: refund } }",
      "    checks:",
      "      - type: ordering",
      `        quote: ${quote}`,
      "        first: { action: verify_identity }",
      "        before: { action: refund }",
      "",
    ].join("\n"),
  );
  return (await lintSpec(dir)).findings.map((f) => [f.severity, f.code, f.path, f.message]);
}

describe("lint", () => {
  it("warns uncovered-sentence for an obligation written in a table cell", async () => {
    const body = ["| Do | Don't |", "|---|---|", "| Refund only after `verify_identity` | Refund an order twice |"].join("\n");
    expect(await lintOne(body, "Refund only after `verify_identity`")).toEqual([
      ["warning", "uncovered-sentence", "metaBehaviors[0]", 'no clause of "Verify first" quotes "Refund an order twice"'],
    ]);
  });

  it("warns uncovered-sentence with the sentence for an obligation no clause quotes", async () => {
    expect(await lintOne(SECTION, "The agent refunds only after the identity has been checked with `verify_identity`")).toEqual([
      [
        "warning",
        "uncovered-sentence",
        "metaBehaviors[0]",
        'no clause of "Verify first" quotes "the verification comes back `status: verified`"',
      ],
    ]);
  });
});
