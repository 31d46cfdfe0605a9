/**
 * Issue 21, "Authoring knows the language": serializeJudgeYaml writes every
 * form of the extended rule language (value matchers, `on`, `fresh`,
 * `within`, `per`, `sum`, the condition check's `with`/`when`) so that
 * parse(serialize(ir)) deep-equals ir, in canonical key order whatever the
 * order in memory. `generate --update` and the interview write judge.yaml
 * through it: a form it dropped or reordered would be lost or churn diffs.
 */
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, parseJudgeYaml, serializeJudgeYaml } from "../../compiler/ir/index.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import { randomExtendedJudge, rng } from "../support/extended-ir.js";

function parseOrThrow(text: string): JudgeIR {
  const result = parseJudgeYaml(text);
  if (!result.ok) throw new Error(`${result.diagnostics.map(formatDiagnostic).join("\n")}\n--- text ---\n${text}`);
  return result.ir;
}

/**
 * Reverses the key order of every object, deep: what serializing must not depend on. The
 * order of metadata keys and of `with` names is data (judge.yaml order), kept as it is.
 */
function reversedKeys(value: unknown, keep = false): unknown {
  if (Array.isArray(value)) return value.map((v) => reversedKeys(v));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value).map(([k, v]) => [k, reversedKeys(v, k === "metadata" || k === "with")] as const);
  return Object.fromEntries(keep ? entries : entries.reverse());
}

describe("issue 21: serializeJudgeYaml round-trips every extended form", () => {
  it("parse(serialize(ir)) deep-equals ir for 800 random judges using every form", () => {
    const r = rng(20261202);
    const mismatches: string[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < 800; i++) {
      const ir = randomExtendedJudge(r);
      for (const rule of ir.metaBehaviors) for (const c of rule.checks) for (const k of Object.keys(c)) seen.add(`${c.type}.${k}`);
      const text = serializeJudgeYaml(ir);
      const back = parseJudgeYaml(text);
      if (!back.ok) mismatches.push(`${back.diagnostics.map(formatDiagnostic).join("\n")}\n${text}`);
      else if (!isDeepStrictEqual(back.ir, ir)) mismatches.push(JSON.stringify({ ir, back: back.ir }));
      // Canonical: the same IR with every key order reversed serializes to the same text.
      else if (serializeJudgeYaml(reversedKeys(ir) as JudgeIR) !== text) mismatches.push(`key order leaks into:\n${text}`);
    }
    expect(mismatches.slice(0, 1)).toEqual([]);
    // The generator reached every field of every check.
    for (const field of [
      "ordering.on",
      "ordering.fresh",
      "pairing.on",
      "pairing.within",
      "count.per",
      "count.sum",
      "count.on",
      "condition.with",
      "condition.when",
      "required.on",
      "forbidden.on",
    ])
      expect(seen).toContain(field);
  });

  it("writes on objects, bindings and operators in canonical order, whatever the order in memory", () => {
    const ir = {
      version: 1,
      behavior: "b",
      metaBehaviors: [
        {
          name: "rule",
          trigger: { description: "d", match: [{ action: "a" }] },
          checks: [
            {
              on: { before: "metadata.b", first: "metadata.a" },
              fresh: true,
              before: [{ metadata: { amount: { lte: 900, gt: 500 } }, action: { in: ["refund"] } }],
              first: [{ content: { flags: "i", matches: "^yes$" } }],
              quote: "q",
              type: "ordering",
            },
            {
              when: "r.x == 1",
              with: {
                r: { on: { latest: "metadata.id", each: "metadata.rid" }, latest: [{ action: "look" }] },
                f: { on: "metadata.id", first: [{ metadata: { k: { not: { exists: true } } } }] },
              },
              each: [{ action: "cancel" }],
              quote: "q2",
              type: "condition",
            },
            {
              sum: "metadata.amount",
              per: "metadata.@turn",
              max: 1,
              on: { match: "metadata.m", after: "metadata.a" },
              after: [{ action: "open" }],
              match: [{ actor: "agent" }],
              quote: "q3",
              type: "count",
            },
            { within: 2, on: "metadata.id", followedBy: [{ action: "f" }], each: [{ action: "e" }], quote: "q4", type: "pairing" },
          ],
          semanticChecks: [],
        },
      ],
    } as unknown as JudgeIR;
    const text = serializeJudgeYaml(ir);
    expect(text).toBe(`version: 1
behavior: b
metaBehaviors:
  - name: rule
    trigger:
      description: d
      match:
        action: a
    checks:
      - type: ordering
        quote: q
        first:
          content:
            matches: ^yes$
            flags: i
        before:
          action:
            in:
              - refund
          metadata:
            amount:
              gt: 500
              lte: 900
        "on":
          first: metadata.a
          before: metadata.b
        fresh: true
      - type: condition
        quote: q2
        each:
          action: cancel
        with:
          r:
            latest:
              action: look
            "on":
              each: metadata.rid
              latest: metadata.id
          f:
            first:
              metadata:
                k:
                  not:
                    exists: true
            "on": metadata.id
        when: r.x == 1
      - type: count
        quote: q3
        match:
          actor: agent
        after:
          action: open
        "on":
          after: metadata.a
          match: metadata.m
        max: 1
        per: metadata.@turn
        sum: metadata.amount
      - type: pairing
        quote: q4
        each:
          action: e
        followedBy:
          action: f
        "on": metadata.id
        within: 2
    semanticChecks: []
`);
    expect(parseOrThrow(text)).toStrictEqual(reversedKeys(reversedKeys(ir)));
  });
});
