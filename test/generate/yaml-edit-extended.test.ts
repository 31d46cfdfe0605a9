/**
 * Issue 21: `generate --update` round-trips the extended rule language. The
 * in-place editor (yaml-edit.ts) must turn a judge.yaml into one that means
 * the new judge exactly, whatever forms either uses (value matchers, on,
 * fresh, within, per, sum, condition), in block or flow style, and must leave
 * an unchanged hand-formatted file byte for byte.
 */
import { isCollection, parseDocument, visit } from "yaml";
import { describe, expect, it } from "vitest";
import { sameJudge } from "../../compiler/generate/pipeline.js";
import { editJudgeYaml } from "../../compiler/generate/yaml-edit.js";
import { formatDiagnostic, parseJudgeYaml, serializeJudgeYaml } from "../../compiler/ir/index.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import { randomCheck, randomExtendedJudge, rng } from "../support/extended-ir.js";

function parsed(text: string): JudgeIR {
  const result = parseJudgeYaml(text);
  if (!result.ok) throw new Error(`${result.diagnostics.map(formatDiagnostic).join("\n")}\n--- text ---\n${text}`);
  return result.ir;
}

/** The same judge with every check written as one flow mapping, the way people hand-write short clauses. */
function flowStyled(text: string): string {
  const doc = parseDocument(text);
  visit(doc, {
    Pair(_key, pair) {
      const key = (pair.key as { value?: unknown } | null)?.value;
      if (key === "checks" && isCollection(pair.value)) for (const item of pair.value.items) if (isCollection(item)) item.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}

/** A second judge close to the first: some checks replaced, some fields of others changed. */
function edited(ir: JudgeIR, r: ReturnType<typeof rng>): JudgeIR {
  return {
    ...ir,
    metaBehaviors: ir.metaBehaviors.map((rule) => ({
      ...rule,
      checks: rule.checks.map((check) => {
        if (r.chance(0.3)) return randomCheck(r);
        if (r.chance(0.5)) {
          // Same type, another draw: the editor must rewrite field by field.
          let other = randomCheck(r);
          for (let i = 0; i < 20 && other.type !== check.type; i++) other = randomCheck(r);
          return other.type === check.type ? { ...other, quote: check.quote } : check;
        }
        return check;
      }),
    })),
  };
}

const HAND = `version: 1
behavior: airline   # the tau-bench policy
metaBehaviors:
  - name: Refunds over 500
    trigger: {description: a refund, match: {action: issue_refund}}
    checks:
      # the approval must be for the same order
      - {type: ordering, quote: a refund over $500 needs approval, first: {action: approve}, before: {action: issue_refund, metadata: {amount: {gt: 500}}}, on: metadata.order_id}
      - type: condition
        quote: only if insured
        each: {action: cancel_reservation}
        with:
          r: {latest: {action: get_reservation_details_result}, on: metadata.reservation_id}
        when: r.insurance == "yes"
      - {type: count, quote: one call per turn, match: {actor: agent}, per: metadata.@turn, max: 1}
`;

describe("issue 21: generate --update edits extended forms in place", () => {
  it("leaves an unchanged hand-formatted file with every form byte for byte", () => {
    expect(editJudgeYaml(HAND, parsed(HAND))).toBe(HAND);
  });

  it("changes a bound inside a flow mapping on its own line only, keeping comments and style", () => {
    const ir = parsed(HAND);
    const check = ir.metaBehaviors[0]!.checks[0]!;
    if (check.type !== "ordering") throw new Error("fixture");
    check.before = [{ action: "issue_refund", metadata: { amount: { gte: 1000 } } }];
    check.fresh = true;
    const text = editJudgeYaml(HAND, ir);
    expect(parsed(text)).toStrictEqual(ir);
    const before = HAND.split("\n");
    const after = text.split("\n");
    expect(after).toHaveLength(before.length);
    // The one clause that changed, still one flow mapping on its line; the comment above it stays.
    const changed = after.flatMap((line, i) => (line === before[i] ? [] : [i]));
    expect(changed).toEqual([before.findIndex((line) => line.includes("type: ordering"))]);
    expect(after[changed[0]!]).toMatch(/^ {6}- \{ ?type: ordering, .*amount: \{ ?gte: 1000 ?\}.*fresh: true ?\}$/);
  });

  it("rewrites a condition's binding and expression, and a string matcher that became an operator", () => {
    const ir = parsed(HAND);
    const condition = ir.metaBehaviors[0]!.checks[1]!;
    if (condition.type !== "condition") throw new Error("fixture");
    condition.with = {
      r: { first: [{ action: "get_reservation_details_result" }], on: { each: "metadata.rid", first: "metadata.reservation_id" } },
    };
    condition.when = 'r.insurance == "yes" || r.cabin == "business"';
    condition.each = [{ action: { in: ["cancel_reservation", "modify_reservation"] } }];
    const text = editJudgeYaml(HAND, ir);
    expect(parsed(text)).toStrictEqual(ir);
    expect(text).toContain("# the approval must be for the same order");
    expect(text).toContain("behavior: airline   # the tau-bench policy");
  });

  // The editor keeps the file's own order of clauses, so "is b" is sameJudge (generate --update's own test before it writes).
  it("parse(edit(serialize(a), b)) is b for 300 random pairs of judges, block and flow style", () => {
    const r = rng(2112);
    const mismatches: string[] = [];
    for (let i = 0; i < 300; i++) {
      const a = randomExtendedJudge(r);
      const b = edited(a, r);
      const block = serializeJudgeYaml(a);
      for (const previous of [block, flowStyled(block)]) {
        let text: string;
        try {
          text = editJudgeYaml(previous, b);
        } catch (error) {
          mismatches.push(`threw ${String(error)} on\n${previous}`);
          continue;
        }
        const back = parseJudgeYaml(text);
        if (!back.ok)
          mismatches.push(`${back.diagnostics.map(formatDiagnostic).join("\n")}\n--- previous ---\n${previous}\n--- edited ---\n${text}`);
        else if (!sameJudge(back.ir, b))
          mismatches.push(`${JSON.stringify({ want: b, got: back.ir })}\n--- previous ---\n${previous}\n--- edited ---\n${text}`);
      }
      // Unchanged: byte for byte.
      expect(editJudgeYaml(flowStyled(block), a)).toBe(flowStyled(block));
    }
    expect(mismatches.slice(0, 1)).toEqual([]);
  });
});
