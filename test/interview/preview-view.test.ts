/**
 * The verdict preview in the interview (issue 14): every question shows how
 * its rule, as the answers so far leave it, judges the samples, with the
 * warnings about it; an edit is previewed before it is saved; a trigger that
 * never fires where its checks' events are can be widened in one answer; a
 * semantic question becomes an event check and back with its quote kept.
 */
import { describe, expect, it } from "vitest";
import { formFromClause } from "../../compiler/interview/fields.js";
import { formSnippet } from "../../compiler/interview/form-snippet.js";
import { interviewOutcome, startInterview, step } from "../../compiler/interview/state.js";
import type { InterviewAction, InterviewState } from "../../compiler/interview/state.js";
import { currentView, previewEdit, type QuestionView, type ReviewView } from "../../compiler/interview/view.js";
import { draftIR, interviewInput, proportionSamples, Q } from "./fixture.js";

function run(state: InterviewState, ...actions: InterviewAction[]): InterviewState {
  for (const action of actions) {
    const outcome = step(state, action);
    if (!outcome.ok) throw new Error(`refused ${JSON.stringify(action)}: ${outcome.error}`);
    state = outcome.state;
  }
  return state;
}

function question(state: InterviewState): QuestionView {
  const view = currentView(state);
  if (view.kind !== "question") throw new Error("expected a question");
  return view;
}

const at = (state: InterviewState, q: number) => run(state, { type: "goto", question: q });
const ORDERING_QUOTE = draftIR().metaBehaviors[0]!.checks[0]!.quote;
const orderingWith = (first: string) =>
  `{type: ordering, quote: ${JSON.stringify(ORDERING_QUOTE)}, first: ${first}, before: {action: issue_refund}}`;

describe("the preview at each question", () => {
  it("names the samples the trigger fires on, and the rule's and the clause's verdicts", () => {
    const state = startInterview(interviewInput());
    const trigger = question(state).preview;
    expect(trigger).toMatchObject({
      samples: ["clean-refund", "escalated"],
      trigger: { semantic: false, fires: ["clean-refund", "escalated"], silent: [] },
      rule: { pass: ["clean-refund"], fail: ["escalated"], na: [] },
      warnings: [],
    });
    expect(trigger.clause).toBeUndefined();
    const check = question(at(state, Q.lookupOrdering)).preview;
    expect(check.clause).toEqual({ pass: ["clean-refund"], fail: ["escalated"], na: [] });
    // A semantic trigger is for a model: the preview cannot say where it fires.
    const semantic = question(at(state, Q.confirmSemantic)).preview;
    expect(semantic.clause).toEqual({ pass: [], fail: [], na: ["clean-refund", "escalated"] });
  });

  it("recomputes after an edit, and shows what an unsaved edit would do without saving it", () => {
    let state = at(startInterview(interviewInput()), Q.lookupOrdering);
    const failing = previewEdit(state, orderingWith("{action: get_order_result, metadata: {status: missing}}"));
    expect(failing.ok).toBe(true);
    if (!failing.ok) return;
    expect(failing.preview.clause).toEqual({ pass: [], fail: ["clean-refund", "escalated"], na: [] });
    expect(failing.preview.warnings.map((w) => w.kind)).toEqual(["fails-every-sample", "fails-every-sample", "unused-metadata-value"]);
    expect(failing.preview.warnings[1]!.message).toBe("checks[0] fails every sample the rule applies to (clean-refund, escalated)");
    expect(failing.evidence.roles).toEqual([
      { role: "first", matches: 0 },
      { role: "before", matches: 3 },
    ]);
    // Nothing was saved.
    expect(question(state).preview.clause).toEqual({ pass: ["clean-refund"], fail: ["escalated"], na: [] });
    expect(previewEdit(state, orderingWith("{action: get_order_result, metadata: {status: 7}}"))).toMatchObject({
      ok: false,
      diagnostics: [{ path: "first.metadata.status", message: expect.stringMatching(/string/) }],
    });

    state = run(state, { type: "edit", text: orderingWith("{action: message}") });
    const after = question(at(state, Q.lookupOrdering));
    expect(after.preview.clause).toEqual({ pass: ["clean-refund", "escalated"], fail: [], na: [] });
    expect(after.preview.rule).toEqual({ pass: ["clean-refund", "escalated"], fail: [], na: [] });
    // The trigger's question shows the rule as edited, too.
    expect(question(at(state, Q.lookupTrigger)).preview.rule).toEqual({ pass: ["clean-refund", "escalated"], fail: [], na: [] });
  });

  it("says when a dropped clause takes the rule with it", () => {
    const state = run(at(startInterview(interviewInput()), Q.lookupOrdering), { type: "drop" });
    const view = question(at(state, Q.lookupOrdering));
    expect(view.preview).toMatchObject({ dropped: "all its checks and semantic checks were dropped", warnings: [] });
    expect(view.preview.rule).toBeUndefined();
  });
});

describe("a trigger that never fires where its checks' events are", () => {
  const narrowed = (state: InterviewState) =>
    run(at(state, Q.escalateTrigger), {
      type: "edit",
      text: "{description: The agent escalates the case., match: {action: get_order}}",
    });

  it("is flagged at the trigger and at each check it gates, and one answer widens it", () => {
    let state = narrowed(startInterview(interviewInput()));
    const trigger = question(at(state, Q.escalateTrigger)).preview;
    expect(trigger.trigger.fires).toEqual(["clean-refund"]);
    expect(trigger.warnings.filter((w) => w.kind === "trigger-misses-check-events").map((w) => w.message)).toEqual([
      "the trigger never fires on the samples where checks[0]'s events appear (escalated); the trigger gates every check of the rule, so checks[0] is never judged: widen the trigger",
      "the trigger never fires on the samples where checks[1]'s events appear (escalated); the trigger gates every check of the rule, so checks[1] is never judged: widen the trigger",
    ]);
    expect(trigger.widenedTrigger).toBe('[{"action":"get_order"},{"action":"escalate_to_supervisor"}]');
    const check = question(at(state, Q.escalateRequired)).preview;
    expect(check.warnings.map((w) => w.kind)).toContain("trigger-misses-check-events");

    state = run(state, { type: "widen" });
    const widened = question(state);
    // Widening stays at the question and shows the new preview at once.
    expect(widened.question).toBe(Q.escalateForbidden);
    expect(widened.preview.warnings.map((w) => w.kind)).not.toContain("trigger-misses-check-events");
    expect(widened.preview.widenedTrigger).toBeUndefined();
    expect(widened.preview.clause).toEqual({ pass: [], fail: ["escalated"], na: ["clean-refund"] });
    expect(interviewOutcome(state).ir.metaBehaviors[2]!.trigger).toEqual({
      description: "The agent escalates the case.",
      match: [{ action: "get_order" }, { action: "escalate_to_supervisor" }],
    });
  });

  it("cannot be widened when nothing is missed", () => {
    const outcome = step(at(startInterview(interviewInput()), Q.escalateTrigger), { type: "widen" });
    expect(outcome).toMatchObject({ ok: false, error: "the trigger already fires wherever its checks have events to judge" });
  });
});

describe("a semantic question and an event check, either way", () => {
  it("turns a semantic check into an event check from its form, keeping the quote, and back", () => {
    let state = at(startInterview(interviewInput()), Q.confirmSemantic);
    const view = question(state);
    expect(view.formKind).toBe("semanticCheck");
    const quote = view.quote!;
    const form = view.forms.check!;
    expect(form).toMatchObject({ kind: "check", type: "required" });
    if (form.kind !== "check") return;
    form.type = "forbidden";
    form.patterns = { match: [{ action: "message", actor: "agent", contentIncludes: "on its way", content: "", metadata: "" }] };
    state = run(state, { type: "edit", as: "check", text: formSnippet(form, quote) });
    let rule = interviewOutcome(state).ir.metaBehaviors[1]!;
    expect(rule.semanticChecks).toEqual([]);
    expect(rule.checks[1]).toEqual({
      type: "forbidden",
      quote: "A chat message saying the money is on its way is not a substitute.",
      match: [{ action: "message", actor: "agent", contentIncludes: "on its way" }],
    });
    const back = question(at(state, Q.confirmSemantic));
    expect([back.decisionLabel, back.formKind]).toEqual(["turned into an event check", "check"]);
    expect(back.preview.clause).toEqual({ pass: ["clean-refund", "escalated"], fail: [], na: [] });
    expect(back.forms.check).toEqual(formFromClause({ kind: "check", check: rule.checks[1]! }));

    state = run(at(state, Q.confirmSemantic), { type: "semantic", question: "Was no chat message passed off as the confirmation?" });
    rule = interviewOutcome(state).ir.metaBehaviors[1]!;
    expect(rule.checks).toHaveLength(1);
    expect(rule.semanticChecks).toEqual([
      {
        quote: "A chat message saying the money is on its way is not a substitute.",
        question: "Was no chat message passed off as the confirmation?",
      },
    ]);
  });

  it("a trigger's edit cannot become a check", () => {
    const outcome = step(startInterview(interviewInput()), {
      type: "edit",
      as: "check",
      text: "{type: required, quote: q, match: {action: x}}",
    });
    expect(outcome).toMatchObject({ ok: false, error: "a trigger cannot be edited into a check" });
  });
});

describe("the review's preview", () => {
  it("shows every rule's verdicts and every warning", () => {
    let state = startInterview(interviewInput());
    state = run(at(state, Q.lookupOrdering), {
      type: "edit",
      text: orderingWith("{action: get_order_result, metadata: {status: missing}}"),
    });
    state = run(state, { type: "goto", question: Q.escalateRequired }, { type: "accept" });
    const view = currentView(state) as ReviewView;
    expect(view.kind).toBe("review");
    expect(view.samples).toBe(2);
    expect(view.preview.map((r) => [r.name, r.rule.pass.length, r.rule.fail.length, r.rule.na.length])).toEqual([
      ["Look up the order first", 0, 2, 0],
      ["Confirm every approved refund", 1, 0, 1],
      ["Stop paying out once escalated", 0, 1, 1],
    ]);
    expect(view.preview[0]!.warnings.map((w) => w.kind)).toEqual(["fails-every-sample", "fails-every-sample", "unused-metadata-value"]);
    expect(view.preview[2]!.clauses.map((c) => c.label)).toEqual(["checks[0] · forbidden", "checks[1] · required"]);
  });
});

describe("the warnings about proportions and questions for a model", () => {
  it("the review names a check that fails most samples and a rule that fails none where the others fail some", () => {
    const view = currentView(startInterview(interviewInput({ samples: proportionSamples, ask: [] }))) as ReviewView;
    expect(view.preview.map((r) => [r.name, r.rule.fail, r.warnings.map((w) => w.kind)])).toEqual([
      ["Look up the order first", ["quick-a", "quick-b", "escalated-refund"], ["fails-most-samples"]],
      ["Confirm every approved refund", [], ["fails-no-sample"]],
      ["Stop paying out once escalated", ["escalated-refund"], []],
    ]);
  });

  it("an edit that counts an action the quote does not name shows quote-names-other-action, by its message", () => {
    const state = at(startInterview(interviewInput()), Q.escalateForbidden);
    const edited = previewEdit(state, `{type: forbidden, quote: "it never sends a case note", match: {action: send_email}}`);
    expect(edited.ok).toBe(true);
    if (!edited.ok) return;
    expect(edited.preview.warnings).toContainEqual({
      kind: "quote-names-other-action",
      message:
        'checks[0] matches send_email, which shares only "send" with its quote, while the quote names the "case" of add_case_note, which the check does not match: if the quote is about add_case_note, match it instead',
    });
  });

  it("a question shows that a rule whose trigger became semantic is never judged", () => {
    let state = startInterview(interviewInput());
    state = run(at(state, Q.escalateTrigger), { type: "semantic", question: "The case is escalated." });
    const preview = question(at(state, Q.escalateForbidden)).preview;
    expect(preview.trigger.semantic).toBe(true);
    expect(preview.warnings.map((w) => w.kind)).toEqual(["never-judged"]);
  });
});
