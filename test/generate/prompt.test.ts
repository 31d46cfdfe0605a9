/**
 * Issue 21: the model's drafting prompt describes every form of the
 * extended rule language, each with a short example, and every example is
 * judge.yaml the parser accepts and that uses the form it illustrates.
 */
import { describe, expect, it } from "vitest";
import { FORM_EXAMPLES, proposalMessages } from "../../compiler/generate/prompt.js";
import { vocabularyNotes } from "../../compiler/generate/propose.js";
import type { Check } from "../../compiler/ir/types.js";
import { parseOrThrow } from "../support/judges.js";
import { EXAMPLE_DIRS, loadReferenceCase } from "./drafting-fixtures.js";

const refund = loadReferenceCase(EXAMPLE_DIRS[0]!);
const system = proposalMessages(refund.spec, refund.vocabulary, refund.spec.sections)[0]!.content;

/** An example's check, read by the judge.yaml parser inside a one-rule judge. */
function exampleCheck(check: string): Check {
  const item = check
    .split("\n")
    .map((line, i) => (i === 0 ? `      - ${line}` : `        ${line}`))
    .join("\n");
  const yaml = `version: 1\nbehavior: b\nmetaBehaviors:\n  - name: r\n    trigger: { description: d, semantic: true }\n    checks:\n${item}\n`;
  return parseOrThrow(yaml).ir.metaBehaviors[0]!.checks[0]!;
}

/** Whether a check uses the form its example is for. */
const USES: Record<string, (check: Check) => boolean> = {
  gt: (c) => JSON.stringify(c).includes('"gt":500'),
  in: (c) => JSON.stringify(c).includes('"in":['),
  not: (c) => JSON.stringify(c).includes('"not":{"matches"'),
  matches: (c) => JSON.stringify(c).includes('"content":{"matches"'),
  exists: (c) => JSON.stringify(c).includes('"exists":false'),
  on: (c) => c.type === "ordering" && c.on === "metadata.reservation_id",
  "on (window)": (c) => c.type === "forbidden" && c.on !== undefined && c.after !== undefined,
  fresh: (c) => c.type === "ordering" && c.fresh === true,
  within: (c) => c.type === "pairing" && c.within === 1,
  per: (c) => c.type === "count" && c.per === "metadata.@turn" && c.max === 1,
  sum: (c) => c.type === "count" && c.sum === "metadata.amount",
  "more than": (c) => c.type === "count" && c.max === 3,
  condition: (c) => c.type === "condition" && c.with?.r?.latest !== undefined && c.when.includes("r.refundable"),
};

describe("issue 21: the drafting prompt knows the extended language", () => {
  it("describes each operator, on, fresh, within, per, sum and the condition check", () => {
    for (const text of [
      "{equals:",
      "{in: [",
      "{not: {",
      "{matches: ",
      "flags: i",
      "{gt: 500}",
      "{gte: 1}",
      "{lt: 3}",
      "{lte: 1000}",
      '{gte: "2024-05-14", lt: "2024-06-01"}',
      "{exists: true} / {exists: false}",
      "content: <a value operator below, on the whole content>",
      "on: metadata.<key>",
      "on: {first: metadata.order_id, before: metadata.id}",
      "fresh: true",
      "within: N",
      "per: metadata.<key>",
      "metadata.@turn",
      "sum: metadata.<key>",
      "type: condition  each: <pattern>  with: {<name>: {latest: <pattern>, on: metadata.<key>?}, ...}  when: <expression>",
      "A condition's when is an expression",
      "count(r.flights.*)",
    ])
      expect(system, text).toContain(text);
  });

  it("has one example of each form, each shown in the prompt, parsed by the judge.yaml parser and using its form", () => {
    expect(FORM_EXAMPLES.map((e) => e.form).sort()).toEqual(Object.keys(USES).sort());
    for (const example of FORM_EXAMPLES) {
      expect(system).toContain(`"${example.says}":`);
      expect(system).toContain(example.check.split("\n")[0]!);
      const check = exampleCheck(example.check);
      expect(USES[example.form]!(check), `${example.form}: ${JSON.stringify(check)}`).toBe(true);
    }
  });
});

describe("issue 21: a proposal's condition is checked against the vocabulary like any pattern", () => {
  it("an action a condition's name matches that no sample shows is noted", () => {
    const check = exampleCheck(FORM_EXAMPLES.find((e) => e.form === "condition")!.check);
    const ir = {
      version: 1 as const,
      behavior: "b",
      metaBehaviors: [{ ...refund.reference.metaBehaviors[0]!, checks: [check], semanticChecks: [] }],
    };
    const notes = vocabularyNotes(ir, refund.vocabulary).map((n) => n.message);
    expect(notes).toContain('the samples never show the action "get_reservation_details_result"');
  });
});
