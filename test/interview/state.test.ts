import { describe, expect, it } from "vitest";
import { clauseEvidence, excerpt, patternMatches } from "../../compiler/interview/evidence.js";
import { parseClauseSnippet } from "../../compiler/interview/snippet.js";
import { interviewOutcome, interviewResult, questionsAsked, startInterview, step } from "../../compiler/interview/state.js";
import type { InterviewAction, InterviewState } from "../../compiler/interview/state.js";
import { currentView, type QuestionView, type ReviewView } from "../../compiler/interview/view.js";
import { parseJudgeYaml, serializeJudgeYaml } from "../../compiler/ir/index.js";
import type { Check } from "../../compiler/ir/types.js";
import { draftIR, interviewInput, Q, samples } from "./fixture.js";

/** Applies actions that must all be accepted. */
function run(state: InterviewState, ...actions: InterviewAction[]): InterviewState {
  for (const action of actions) {
    const outcome = step(state, action);
    if (!outcome.ok) throw new Error(`refused ${JSON.stringify(action)}: ${outcome.error}`);
    state = outcome.state;
  }
  return state;
}

const accept: InterviewAction = { type: "accept" };
const acceptAll = (state: InterviewState) => {
  while (state.at !== "review") state = run(state, accept);
  return state;
};

function question(state: InterviewState): QuestionView {
  const view = currentView(state);
  if (view.kind !== "question") throw new Error("expected a question");
  return view;
}

function review(state: InterviewState): ReviewView {
  const view = currentView(state);
  if (view.kind !== "review") throw new Error("expected the review");
  return view;
}

const editedOrdering: Check = {
  type: "ordering",
  quote: "Before the agent issues a refund, it retrieves the order and the lookup finds it",
  first: [{ action: "get_order_result", metadata: { status: "found" } }],
  before: [{ action: "issue_refund" }, { action: "issue_store_credit" }],
};

describe("the interview state machine", () => {
  it("asks each rule's trigger, then its checks, then its semantic checks", () => {
    const state = startInterview(interviewInput());
    expect(state.questions.map((q) => [q.rule, q.clause])).toEqual([
      [0, { kind: "trigger" }],
      [0, { kind: "check", index: 0 }],
      [1, { kind: "trigger" }],
      [1, { kind: "check", index: 0 }],
      [1, { kind: "semanticCheck", index: 0 }],
      [2, { kind: "trigger" }],
      [2, { kind: "check", index: 0 }],
      [2, { kind: "check", index: 1 }],
    ]);
    const first = question(state);
    expect([first.number, first.total, first.label, first.rule.name, first.canBack]).toEqual([
      1,
      8,
      "Trigger",
      "Look up the order first",
      false,
    ]);
    expect(questionsAsked(state)).toBe(1);
  });

  it("accepting everything gives back the draft, every rule with its source", () => {
    const state = acceptAll(startInterview(interviewInput()));
    const view = review(state);
    expect(view.problems).toEqual([]);
    expect(view.canConfirm).toBe(true);
    expect(view.yaml).toBe(serializeJudgeYaml(draftIR()));
    const confirmed = run(state, { type: "confirm" });
    expect(interviewResult(confirmed)).toEqual({ ir: draftIR(), questionsAsked: 8 });
    expect(interviewResult(confirmed).ir.metaBehaviors.every((m) => m.source !== undefined)).toBe(true);
  });

  it("has no result before the review is confirmed", () => {
    const state = acceptAll(startInterview(interviewInput()));
    expect(() => interviewResult(state)).toThrow(/not been confirmed/);
    const early = step(startInterview(interviewInput()), { type: "confirm" });
    expect(early.ok).toBe(false);
  });

  it("takes a valid edit as JSON or block YAML and uses it in the result", () => {
    let state = run(startInterview(interviewInput()), accept);
    state = run(state, { type: "edit", text: JSON.stringify(editedOrdering) });
    expect(state.at).toBe(Q.confirmTrigger);
    expect(state.decisions[Q.lookupOrdering]).toEqual({ action: "edit", check: editedOrdering });
    const result = run(acceptAll(state), { type: "confirm" });
    expect(interviewResult(result).ir.metaBehaviors[0]!.checks).toEqual([editedOrdering]);

    // The same check as block YAML, indented as if pasted from a file.
    const yaml = [
      "",
      "    type: ordering",
      "    quote: Before the agent issues a refund, it retrieves the order and the lookup finds it",
      "    first: { action: get_order_result, metadata: { status: found } }",
      "    before:",
      "      - action: issue_refund",
      "      - action: issue_store_credit",
      "",
    ].join("\n");
    const parsed = parseClauseSnippet("check", yaml);
    expect(parsed).toEqual({ ok: true, clause: { kind: "check", check: editedOrdering } });
  });

  it("refuses an invalid edit with the parser's located diagnostics and changes nothing", () => {
    const state = run(startInterview(interviewInput()), accept);
    const snippet = [
      "type: ordering",
      "quote: Look it up first",
      "firts: { action: get_order_result }",
      "before: { action: issue_refund, actor: robot }",
    ].join("\n");
    const outcome = step(state, { type: "edit", text: snippet });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.state).toBe(state);
    expect(outcome.error).toMatch(/not a valid clause/);
    expect(outcome.diagnostics).toEqual([
      { file: "", line: 3, col: 1, path: "", severity: "error", message: 'unknown key "firts"', hint: 'did you mean "first"?' },
      {
        file: "",
        line: 4,
        col: snippet.split("\n")[3]!.indexOf("robot") + 1,
        path: "before.actor",
        severity: "error",
        message: "must be user, agent, or tool",
      },
    ]);

    // Pasted with a blank line above and indented: locations still point into the text as typed.
    const pasted = parseClauseSnippet(
      "check",
      "\n" +
        snippet
          .split("\n")
          .map((line) => `  ${line}`)
          .join("\n"),
    );
    expect(pasted.ok ? [] : pasted.diagnostics.map((d) => [d.line, d.col])).toEqual([
      [4, 3],
      [5, snippet.split("\n")[3]!.indexOf("robot") + 3],
    ]);

    const syntax = parseClauseSnippet("check", '{"type": "ordering", "quote": ');
    expect(syntax.ok).toBe(false);
    if (!syntax.ok) expect(syntax.diagnostics[0]!.message).toMatch(/invalid YAML/);
    expect(parseClauseSnippet("check", "  \n ")).toMatchObject({
      ok: false,
      diagnostics: [{ message: /write the check/ }],
    });
  });

  it("keeps a snippet inside its slot: it cannot add keys or rules to the document around it", () => {
    const escape = ["type: required", "quote: q", "match: { action: message }", "- name: injected"].join("\n");
    expect(parseClauseSnippet("check", escape).ok).toBe(false);
    const outdent = ["{type: required, quote: q, match: {action: message}}", "semanticChecks: []"].join("\n");
    expect(parseClauseSnippet("check", outdent).ok).toBe(false);
    const twoDocs = ["type: required", "---", "version: 1"].join("\n");
    expect(parseClauseSnippet("check", twoDocs).ok).toBe(false);
  });

  it("turns a check into a semantic question with the same quote", () => {
    let state = run(startInterview(interviewInput()), accept, {
      type: "semantic",
      question: "  Was the order found before the refund?  ",
    });
    expect(state.decisions[Q.lookupOrdering]).toEqual({
      action: "to-semantic",
      question: "Was the order found before the refund?",
    });
    state = run(acceptAll(state), { type: "confirm" });
    const rule = interviewResult(state).ir.metaBehaviors[0]!;
    expect(rule.checks).toEqual([]);
    expect(rule.semanticChecks).toEqual([
      { quote: draftIR().metaBehaviors[0]!.checks[0]!.quote, question: "Was the order found before the refund?" },
    ]);
    expect(step(startInterview(interviewInput()), { type: "semantic", question: " " }).ok).toBe(false);
  });

  it("offers the quote as a yes/no question, and rephrases an existing semantic check", () => {
    let state = run(startInterview(interviewInput()), accept);
    expect(question(state).suggestedQuestion).toBe(
      'Is this satisfied in the trajectory: "Before the agent issues a refund, it retrieves the order and the lookup finds it"?',
    );
    state = run(state, accept, accept, accept);
    expect(state.at).toBe(Q.confirmSemantic);
    expect(question(state).suggestedQuestion).toBe("Did the agent avoid treating a chat message as the confirmation?");
    state = run(state, { type: "semantic", question: "Was no chat message used instead of the email?" });
    state = run(acceptAll(state), { type: "confirm" });
    expect(interviewResult(state).ir.metaBehaviors[1]!.semanticChecks).toEqual([
      {
        quote: "A chat message saying the money is on its way is not a substitute.",
        question: "Was no chat message used instead of the email?",
      },
    ]);
  });

  it("makes a trigger semantic, or replaces it by an edit", () => {
    let state = run(startInterview(interviewInput()), {
      type: "semantic",
      question: "The agent pays the customer anything.",
    });
    state = run(state, accept, {
      type: "edit",
      text: '{description: "Any refund result.", match: {action: issue_refund_result}}',
    });
    state = run(acceptAll(state), { type: "confirm" });
    const [lookup, confirm] = interviewResult(state).ir.metaBehaviors;
    expect(lookup!.trigger).toEqual({ description: "The agent pays the customer anything.", semantic: true });
    expect(confirm!.trigger).toEqual({ description: "Any refund result.", match: [{ action: "issue_refund_result" }] });
  });

  it("drops a check; a rule left with nothing is dropped, and the review says so", () => {
    let state = run(startInterview(interviewInput()), accept, { type: "drop" });
    state = acceptAll(state);
    const view = review(state);
    expect(view.notices).toContain('Dropped "Look up the order first": all its checks and semantic checks were dropped.');
    expect(view.yaml).not.toContain("Look up the order first");
    state = run(state, { type: "confirm" });
    expect(interviewResult(state).ir.metaBehaviors.map((m) => m.name)).toEqual([
      "Confirm every approved refund",
      "Stop paying out once escalated",
    ]);
  });

  it("drops a whole rule with its trigger, skipping (and not counting) its other questions", () => {
    let state = run(startInterview(interviewInput()), accept, accept, accept, accept, accept, { type: "drop" });
    expect(state.at).toBe("review");
    expect(questionsAsked(state)).toBe(6);
    expect(review(state).notices).toContain('Dropped "Stop paying out once escalated": its trigger was dropped, which drops the rule.');
    expect(review(state).answers.map((a) => a.question)).toEqual([0, 1, 2, 3, 4, 5]);
    // Back from the review lands on the trigger, not on the skipped checks; keeping the rule brings them back.
    state = run(state, { type: "back" });
    expect(state.at).toBe(Q.escalateTrigger);
    state = run(state, accept);
    expect(state.at).toBe(Q.escalateForbidden);
  });

  it("refuses to confirm when every rule was dropped", () => {
    let state = startInterview(interviewInput());
    state = run(state, { type: "drop" }, { type: "drop" }, { type: "drop" });
    const view = review(state);
    expect(view.canConfirm).toBe(false);
    expect(view.problems[0]).toMatch(/Every rule was dropped/);
    const outcome = step(state, { type: "confirm" });
    expect(outcome.ok).toBe(false);
  });

  it("goes back and forward keeping answers, and counts each question once", () => {
    let state = run(startInterview(interviewInput()), accept, { type: "drop" }, accept);
    expect(state.at).toBe(Q.confirmPairing);
    state = run(state, { type: "back" }, { type: "back" });
    expect(state.at).toBe(Q.lookupOrdering);
    expect(question(state).decisionLabel).toBe("dropped");
    expect(question(state).canBack).toBe(true);
    state = run(state, { type: "forward" }, { type: "forward" });
    expect(state.at).toBe(Q.confirmPairing);
    expect(state.decisions[Q.lookupOrdering]).toEqual({ action: "drop" });
    expect(questionsAsked(state)).toBe(4);

    const first = run(startInterview(interviewInput()));
    const refused = step(first, { type: "back" });
    expect(refused).toMatchObject({ ok: false, error: "this is the first question" });

    const atReview = acceptAll(state);
    expect(step(atReview, { type: "forward" }).ok).toBe(false);
    expect(run(atReview, { type: "back" }).at).toBe(Q.escalateRequired);
    expect(run(atReview, { type: "goto", question: Q.confirmSemantic }).at).toBe(Q.confirmSemantic);
    expect(step(atReview, { type: "goto", question: 99 }).ok).toBe(false);
    expect(questionsAsked(atReview)).toBe(8);
  });

  it("asks only about the rules in `ask` and carries the others over unchanged", () => {
    const input = interviewInput({ ask: [1] });
    let state = startInterview(input);
    expect(state.questions.map((q) => q.rule)).toEqual([1, 1, 1]);
    state = run(state, accept, { type: "drop" }, accept);
    const view = review(state);
    expect(view.notices).toContain('Carried over unchanged, not asked: "Look up the order first".');
    state = run(state, { type: "confirm" });
    const result = interviewResult(state);
    expect(result.questionsAsked).toBe(3);
    expect(result.ir.metaBehaviors[0]).toBe(input.draft.ir.metaBehaviors[0]);
    expect(result.ir.metaBehaviors[2]).toBe(input.draft.ir.metaBehaviors[2]);
    expect(result.ir.metaBehaviors[1]!.checks).toEqual([]);

    const none = startInterview(interviewInput({ ask: [] }));
    expect(none.at).toBe("review");
    expect(interviewResult(run(none, { type: "confirm" }))).toEqual({ ir: draftIR(), questionsAsked: 0 });
    expect(() => startInterview(interviewInput({ ask: [3] }))).toThrow(RangeError);
  });

  it("does not ask about settled clauses (generate --update) and keeps them as drafted", () => {
    const input = interviewInput({
      ask: [1],
      settled: [
        { rule: 1, clause: { kind: "trigger" } },
        { rule: 1, clause: { kind: "check", index: 0 } },
      ],
    });
    let state = startInterview(input);
    // Rule 1 has a trigger, one pairing and one semantic check: only the semantic check is asked.
    expect(state.questions.map((q) => [q.clause.kind, q.settled === true])).toEqual([
      ["trigger", true],
      ["check", true],
      ["semanticCheck", false],
    ]);
    expect(state.at).toBe(2);
    state = run(state, { type: "drop" });
    expect(state.at).toBe("review");
    const result = interviewResult(run(state, { type: "confirm" }));
    expect(result.questionsAsked).toBe(1);
    const rule = result.ir.metaBehaviors[1]!;
    const drafted = input.draft.ir.metaBehaviors[1]!;
    expect(rule.trigger).toEqual(drafted.trigger);
    expect(rule.checks).toEqual(drafted.checks);
    expect(rule.semanticChecks).toEqual([]);
  });

  it("shows the drafter's notes on their clause, and warns about unknown vocabulary in an edit", () => {
    let state = run(startInterview(interviewInput()), accept, accept, accept);
    expect(question(state).notes).toEqual([expect.stringContaining("check the email template")]);
    state = run(state, accept, accept);
    expect(question(state).notes).toEqual(["the model needed a second try for this rule"]);
    state = run(state, accept);
    state = run(state, {
      type: "edit",
      text: '{type: forbidden, quote: "no more refunds", match: {action: issue_refnd, metadata: {sttus: ok}}}',
    });
    state = run(state, { type: "back" });
    expect(question(state).warnings).toEqual([
      'no sample trajectory uses the action "issue_refnd" (did you mean "issue_refund"?)',
      'no sample trajectory uses the metadata key "sttus" (did you mean "status"?)',
      'the quote is not verbatim in the section "Stop paying out once escalated"',
    ]);
  });

  it("warns about a quote of only spaces, as lint does: it quotes nothing of the section", () => {
    let state = run(startInterview(interviewInput()), accept, accept, accept, accept, accept, accept);
    state = run(state, { type: "edit", text: '{type: forbidden, quote: "   ", match: {action: issue_refund}}' });
    state = run(state, { type: "back" });
    expect(question(state).warnings).toEqual(['the quote is not verbatim in the section "Stop paying out once escalated"']);
  });

  it("round-trips every result through the real parser", () => {
    let state = run(startInterview(interviewInput()), accept, { type: "edit", text: JSON.stringify(editedOrdering) });
    state = run(state, accept, { type: "semantic", question: "Was a confirmation email sent after approval?" }, { type: "drop" });
    state = acceptAll(state);
    const outcome = interviewOutcome(state);
    const parsed = parseJudgeYaml(outcome.yaml);
    expect(parsed.ok && parsed.ir).toEqual(outcome.ir);
  });
});

describe("evidence", () => {
  it("lists the sample events each pattern matches, grouped by trajectory, with their roles", () => {
    const ordering = draftIR().metaBehaviors[0]!.checks[0]!;
    const evidence = clauseEvidence({ kind: "check", check: ordering }, samples);
    expect(evidence.roles).toEqual([
      { role: "first", matches: 1 },
      { role: "before", matches: 3 },
    ]);
    expect(evidence.groups.map((g) => [g.trajectoryId, g.complete, g.events.map((e) => `${e.id}:${e.roles.join("+")}`)])).toEqual([
      ["clean-refund", true, ["e3:first", "e4:before"]],
      ["escalated", false, ["e2:before", "e5:before"]],
    ]);
    expect(evidence.groups[0]!.events[0]).toEqual({
      id: "e3",
      actor: "tool",
      action: "get_order_result",
      excerpt: "Order A-1 found.",
      metadata: { order_id: "A-1", status: "found" },
      roles: ["first"],
    });
  });

  it("reports roles that match nothing and samples without matches; semantic clauses have none", () => {
    const pairing = draftIR().metaBehaviors[1]!.checks[0]!;
    const evidence = clauseEvidence({ kind: "check", check: pairing }, samples);
    expect(evidence.roles).toEqual([
      { role: "each", matches: 2 },
      { role: "followedBy", matches: 1 },
    ]);
    const none = clauseEvidence({ kind: "trigger", trigger: { description: "x", match: [{ action: "nope" }] } }, samples);
    expect([none.groups, none.samplesWithoutMatches, none.roles]).toEqual([[], 2, [{ role: "trigger", matches: 0 }]]);
    const semantic = clauseEvidence({ kind: "semanticCheck", semanticCheck: { quote: "q", question: "q?" } }, samples);
    expect([semantic.semantic, semantic.groups]).toEqual([true, []]);
  });

  it("matches like the compiled judge: all fields, any-of, exact metadata, absent content is empty", () => {
    const event = { id: "e", actor: "agent" as const, action: "a", metadata: { k: "v" } };
    expect(patternMatches(event, [{ action: "a", metadata: { k: "v" } }])).toBe(true);
    expect(patternMatches(event, [{ action: "a", actor: "tool" }])).toBe(false);
    expect(patternMatches(event, [{ action: "b" }, { metadata: { k: "v" } }])).toBe(true);
    expect(patternMatches(event, [{ contentIncludes: "x" }])).toBe(false);
    expect(patternMatches(event, [{ metadata: { constructor: "v" } }])).toBe(false);
  });

  it("keeps excerpts to one short line", () => {
    expect(excerpt("a\n\n  b\tc")).toBe("a b c");
    const long = excerpt("😀".repeat(200));
    expect(Array.from(long)).toHaveLength(160);
    expect(long.endsWith("😀…")).toBe(true);
  });
});
