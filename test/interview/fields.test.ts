/**
 * Structured editing (issue 14): every clause's form, written back with its
 * quote, goes through the real parser to the same clause; what a person types
 * in a field reaches the parser as typed, and its messages name the field.
 */
import { describe, expect, it } from "vitest";
import { formFromClause, newCheckForm, retype, type ClauseForm } from "../../compiler/interview/fields.js";
import { formSnippet } from "../../compiler/interview/form-snippet.js";
import { parseClauseSnippet } from "../../compiler/interview/snippet.js";
import { EXAMPLE_DIRS, HELD_OUT_2026_DIRS, loadReferenceCase } from "../generate/drafting-fixtures.js";
import { draftIR } from "./fixture.js";

type CheckForm = Extract<ClauseForm, { kind: "check" }>;

function checkForm(form: ClauseForm): CheckForm {
  if (form.kind !== "check") throw new Error(`expected a check form, got ${form.kind}`);
  return form;
}

describe("a clause's form round-trips through the parser", () => {
  const rules = [
    ...draftIR().metaBehaviors,
    ...[...EXAMPLE_DIRS, ...HELD_OUT_2026_DIRS].flatMap((dir) => loadReferenceCase(dir).reference.metaBehaviors),
  ];

  it(`every trigger, check and semantic check of ${rules.length} hand-written rules`, () => {
    let clauses = 0;
    for (const rule of rules) {
      const trigger = parseClauseSnippet("trigger", formSnippet(formFromClause({ kind: "trigger", trigger: rule.trigger }), ""));
      expect(trigger).toEqual({ ok: true, clause: { kind: "trigger", trigger: rule.trigger } });
      for (const check of rule.checks) {
        const parsed = parseClauseSnippet("check", formSnippet(formFromClause({ kind: "check", check }), check.quote));
        expect(parsed).toEqual({ ok: true, clause: { kind: "check", check } });
        clauses++;
      }
      for (const semanticCheck of rule.semanticChecks) {
        const form = formFromClause({ kind: "semanticCheck", semanticCheck });
        expect(parseClauseSnippet("semanticCheck", formSnippet(form, semanticCheck.quote))).toEqual({
          ok: true,
          clause: { kind: "semanticCheck", semanticCheck },
        });
        clauses++;
      }
    }
    expect(clauses).toBeGreaterThan(40);
  });

  it("writes the quote it is given verbatim, whatever it holds", () => {
    const quote = `It says "never" # not a comment: {x}, [y] — ünïcode\tand a tab`;
    const parsed = parseClauseSnippet("check", formSnippet(newCheckFormWith("required", "match", { action: "send" }), quote));
    expect(parsed.ok && parsed.clause.kind === "check" && parsed.clause.check.quote).toBe(quote);
  });
});

function newCheckFormWith(type: CheckForm["type"], role: string, fields: Partial<CheckForm["patterns"][string][number]>): CheckForm {
  const form = newCheckForm(type);
  form.patterns[role] = [{ ...form.patterns[role]![0]!, ...fields }];
  return form;
}

describe("what a person types in a field", () => {
  it("metadata as typed: numbers and words are strings, as judge.yaml wants them", () => {
    const form = newCheckFormWith("required", "match", { action: "http_result", metadata: "code: 200, ok: yes" });
    const parsed = parseClauseSnippet("check", formSnippet(form, "q"));
    expect(parsed.ok && parsed.clause.kind === "check" && parsed.clause.check).toMatchObject({
      match: [{ action: "http_result", metadata: { code: "200", ok: "yes" } }],
    });
  });

  it("an action is a string even when it looks like a number or YAML", () => {
    const form = newCheckFormWith("forbidden", "match", { action: "[1, 2]" });
    const parsed = parseClauseSnippet("check", formSnippet(form, "q"));
    expect(parsed.ok && parsed.clause.kind === "check" && parsed.clause.check).toMatchObject({ match: [{ action: "[1, 2]" }] });
  });

  it("an invalid value gets the parser's message at the field's path", () => {
    const form = { ...newCheckFormWith("count", "match", { action: "retry" }), min: "two" };
    expect(parseClauseSnippet("check", formSnippet(form, "q"))).toMatchObject({
      ok: false,
      diagnostics: [{ path: "min", message: "must be a non-negative integer" }],
    });
    const actor = newCheckFormWith("required", "match", { actor: "robot" });
    expect(parseClauseSnippet("check", formSnippet(actor, "q"))).toMatchObject({
      ok: false,
      diagnostics: [{ path: "match[0].actor", message: "must be user, agent, or tool" }],
    });
    // An alternative with every field cleared is pointed at, not silently dropped.
    const cleared = newCheckForm("ordering");
    cleared.patterns.first = [{ action: "a", actor: "", contentIncludes: "", content: "", metadata: "" }];
    cleared.patterns.before = [
      { action: "b", actor: "", contentIncludes: "", content: "", metadata: "" },
      { action: "", actor: "", contentIncludes: "", content: "", metadata: "" },
    ];
    expect(parseClauseSnippet("check", formSnippet(cleared, "q"))).toMatchObject({
      ok: false,
      diagnostics: [{ path: "before[1]", message: "needs at least one of action, actor, contentIncludes, content, metadata" }],
    });
  });

  it("a field cannot add lines, keys or clauses to the snippet", () => {
    const form = { ...newCheckFormWith("count", "match", { action: "a\ntype: forbidden" }), max: "1\nquote: retyped" };
    const parsed = parseClauseSnippet("check", formSnippet(form, "kept"));
    expect(parsed.ok).toBe(false);
    const ok = parseClauseSnippet("check", formSnippet({ ...form, max: "1" }, "kept"));
    expect(ok.ok && ok.clause.kind === "check" && ok.clause.check).toMatchObject({
      type: "count",
      quote: "kept",
      match: [{ action: "a\ntype: forbidden" }],
      max: 1,
    });
  });
});

describe("changing a check's type", () => {
  it("carries the patterns over by position, and a leftover one becomes the window", () => {
    const ordering = checkForm(formFromClause({ kind: "check", check: draftIR().metaBehaviors[0]!.checks[0]! }));
    const pairing = retype(ordering, "pairing");
    expect(pairing.patterns).toEqual({ each: ordering.patterns.first, followedBy: ordering.patterns.before });
    const required = retype(ordering, "required");
    expect(required.patterns).toEqual({ match: ordering.patterns.first });
    expect(required.after).toEqual(ordering.patterns.before);
    const back = retype(required, "ordering");
    expect(back.patterns).toEqual(ordering.patterns);
    expect(back.after).toEqual([]);
  });
});
