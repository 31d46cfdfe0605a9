import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, parseJudgeYaml, type ParseResult } from "../../compiler/ir/index.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import { countingWork } from "../support/work.js";

const VALID = new URL("../fixtures/ir-valid/", import.meta.url);

function readValid(name: string): string {
  return readFileSync(new URL(name, VALID), "utf8");
}

/** The parsed result, or a failure that shows the diagnostics. */
function parsed(text: string): Extract<ParseResult, { ok: true }> {
  const result = parseJudgeYaml(text);
  if (!result.ok) throw new Error(result.diagnostics.map(formatDiagnostic).join("\n"));
  return result;
}

const REFUND_SUPPORT: JudgeIR = {
  version: 1,
  behavior: "verified-refund-support",
  metaBehaviors: [
    {
      name: "Verify identity before account changes",
      trigger: {
        description: "The agent changes the customer's account.",
        match: [{ action: "issue_refund" }, { action: "update_shipping_address" }],
      },
      checks: [
        {
          type: "ordering",
          quote: "the agent verifies the customer's identity before changing the account",
          first: [{ action: "verify_identity_result", metadata: { status: "passed" } }],
          before: [{ action: "issue_refund" }, { action: "update_shipping_address" }],
        },
      ],
      semanticChecks: [],
    },
    {
      name: "Log every refund",
      trigger: { description: "The agent issues a refund.", match: [{ action: "issue_refund" }] },
      checks: [
        {
          type: "pairing",
          quote: "every refund is followed by a case note",
          each: [{ action: "issue_refund" }],
          followedBy: [{ actor: "agent", action: "log_case_note" }],
        },
        {
          type: "required",
          quote: "after the refund request, the agent confirms the amount with the customer",
          match: [{ actor: "agent", contentIncludes: "refund of" }],
          after: [{ actor: "user", contentIncludes: "refund" }],
        },
      ],
      semanticChecks: [
        {
          quote: "the case note names the order",
          question: "Does each case note name the order that was refunded?",
        },
      ],
      source: "Every refund is followed by a case note.\nThe note names the order.\n",
    },
    {
      name: "Never show the full card number",
      trigger: { description: "The agent looks up payment details.", match: [{ action: "lookup_card" }] },
      checks: [
        {
          type: "forbidden",
          quote: "the agent never reveals the full card number",
          match: [{ action: "lookup_card", metadata: { scope: "full" } }],
        },
      ],
      semanticChecks: [],
    },
    {
      name: "At most two refund attempts on distinct orders",
      trigger: { description: "The agent issues a refund.", match: [{ action: "issue_refund" }] },
      checks: [
        {
          type: "count",
          quote: "no more than two refunds per session, each for a different order",
          match: [{ action: "issue_refund" }],
          max: 2,
          distinctBy: "metadata.order",
        },
        {
          type: "count",
          quote: "the agent apologizes at least once",
          match: [{ actor: "agent", contentIncludes: "sorry" }],
          min: 1,
          distinctBy: "content",
          after: [{ action: "issue_refund" }],
        },
      ],
      semanticChecks: [],
    },
  ],
};

const SEMANTIC_ONLY: JudgeIR = {
  version: 1,
  behavior: "primary-source-tax-research",
  metaBehaviors: [
    {
      name: "Answer from primary sources",
      trigger: { description: "The agent answers a tax question.", semantic: true },
      checks: [],
      semanticChecks: [
        {
          quote: "the answer cites the statute or regulation it relies on",
          question: "Does the final answer cite a primary source (statute, regulation, or ruling)?",
        },
        {
          quote: "it says when the law is unsettled",
          question: "If the question is unsettled, does the answer say so?",
        },
      ],
    },
  ],
};

const TRICKY_STRINGS: JudgeIR = {
  version: 1,
  behavior: "tricky: strings",
  metaBehaviors: [
    {
      name: "Quotes \"double\", 'single' and `back` ticks",
      trigger: {
        description: "${process.exit(1)} */ </script> \u2028 done",
        match: [
          { action: "true" },
          { action: "1" },
          { action: "null" },
          { contentIncludes: "  padded  ", metadata: { "8080": "8080", yes: "no", "a: b": "# not a comment" } },
        ],
      },
      checks: [
        {
          type: "required",
          quote: "it's multi-line:\nsecond line",
          match: [{ contentIncludes: "tab\there" }],
        },
      ],
      semanticChecks: [],
      source: "  indented first line\nsecond line",
    },
  ],
};

describe("valid judge.yaml fixtures", () => {
  it("parses every check type, any-of patterns, after, metadata and defaults", () => {
    expect(parsed(readValid("refund-support.yaml")).ir).toStrictEqual(REFUND_SUPPORT);
  });

  it("parses a semantic trigger and defaults checks to []", () => {
    expect(parsed(readValid("semantic-only.yaml")).ir).toStrictEqual(SEMANTIC_ONLY);
  });

  it("expands YAML aliases in place and accepts core tags", () => {
    const refund = [{ action: "issue_refund" }];
    expect(parsed(readValid("anchors.yaml")).ir).toStrictEqual({
      version: 1,
      behavior: "anchors",
      metaBehaviors: [
        {
          name: "Refunds are logged",
          trigger: { description: "The agent issues a refund.", match: refund },
          checks: [
            { type: "pairing", quote: "every refund is logged", each: refund, followedBy: [{ action: "log_case_note" }] },
            { type: "count", quote: "at most two refunds", match: refund, max: 2 },
          ],
          semanticChecks: [],
        },
      ],
    });
  });

  it("refuses a document whose aliases would expand exponentially, once and quickly", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (const [prev, name] of [
      ["a", "b"],
      ["b", "c"],
      ["c", "d"],
      ["d", "e"],
      ["e", "f"],
      ["f", "g"],
    ]) {
      levels.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(", ")}]`);
    }
    const bomb = `version: 1\nbehavior: b\n${levels.join("\n")}\nmetaBehaviors: []\n`;
    // Refused within the budget: the work (counted steps, test/support/work.ts; 16,335 measured) is that of
    // the budget's 10,000 nodes, not of the 10^7 the aliases would make.
    const { result, steps } = countingWork(() => parseJudgeYaml(bomb));
    expect(steps).toBeLessThan(100_000);
    expect(result.ok).toBe(false);
    const messages = result.ok ? [] : result.diagnostics.map((d) => d.message);
    expect(messages.filter((m) => m === "aliases expand to too much data")).toHaveLength(1);
  });

  /** A valid judge whose trigger lists `count` matchers `{action: *a}`: `count` aliases of one anchor. */
  function manyAliases(count: number): string {
    const items = Array.from({ length: count }, () => "        - {action: *a}");
    return `version: 1
behavior: b
metaBehaviors:
  - name: n
    trigger:
      description: d
      match:
        - {action: &a issue_refund}
${items.join("\n")}
    semanticChecks: [{quote: q, question: "?"}]
`;
  }

  /** A valid judge of 4 rules, each with 1,000 (or `count`) semantic checks `{quote: *q, question: *a}`: 8,000 aliases within the size bounds. */
  function manyAliasesWithinBounds(count = 1_000): string {
    const checks = Array.from({ length: count }, () => "      - {quote: *q, question: *a}").join("\n");
    const rules = Array.from(
      { length: 4 },
      (_, r) => `  - name: n${r}\n    trigger: {description: d, semantic: true}\n    semanticChecks:\n${checks}`,
    );
    // The first rule holds the anchors; the four after it use them 8,000 times.
    const first = `  - name: first\n    trigger: {description: &q q, semantic: true}\n    semanticChecks: [{quote: q, question: &a "?"}]`;
    return `version: 1\nbehavior: b\nmetaBehaviors:\n${first}\n${rules.join("\n")}\n`;
  }

  it("expands thousands of aliases in time linear in the expanded size", () => {
    // Resolving each alias by a walk of the whole document took about a minute here (8,000 walks). Counted
    // (test/support/work.ts): ten times the aliases, and the document, cost about ten times as much.
    const { result, steps } = countingWork(() => parsed(manyAliasesWithinBounds()));
    const { ir } = result;
    expect(steps / countingWork(() => parsed(manyAliasesWithinBounds(100))).steps).toBeLessThan(11);
    expect(ir.metaBehaviors).toHaveLength(5);
    expect(ir.metaBehaviors[4]?.semanticChecks).toHaveLength(1_000);
    expect(ir.metaBehaviors[4]?.semanticChecks[999]).toStrictEqual({ quote: "q", question: "?" });
  }, 120_000);

  it("refuses aliases past the budget once, and the budget bounds the time too", () => {
    // Past the budget an alias costs O(1): twice the aliases, at most about twice the work (counted steps).
    const { result, steps } = countingWork(() => parseJudgeYaml(manyAliases(20_000)));
    expect(countingWork(() => parseJudgeYaml(manyAliases(40_000))).steps / steps).toBeLessThan(2.2);
    expect(result.ok).toBe(false);
    const diagnostics = result.ok ? [] : result.diagnostics.map(formatDiagnostic);
    // The alias that takes the budget below zero: 10,000 one-node expansions fit, the next does not.
    expect(diagnostics).toEqual([
      "judge.yaml:10009:20 error: metaBehaviors[0].trigger.match[10001].action: aliases expand to too much data (write the values out in full)",
    ]);
  }, 120_000);

  it("resolves an alias to the last anchor of its name before it, even one nested in a namesake", () => {
    // The inner &a redefines a, so *a is the inner matcher, not the list around it (no cycle).
    const text = `version: 1
behavior: b
metaBehaviors:
  - name: n
    trigger: {description: d, match: &a [&a {action: x}, *a]}
    checks: [{type: required, quote: q, match: *a}]
`;
    const { ir } = parsed(text);
    expect(ir.metaBehaviors[0]?.trigger.match).toStrictEqual([{ action: "x" }, { action: "x" }]);
    expect(ir.metaBehaviors[0]?.checks[0]).toStrictEqual({ type: "required", quote: "q", match: [{ action: "x" }] });
  });

  it("keeps strings exactly, including ones that look like other types", () => {
    expect(parsed(readValid("tricky-strings.yaml")).ir).toStrictEqual(TRICKY_STRINGS);
  });

  it("reports the line of each meta-behavior and each check", () => {
    expect(parsed(readValid("refund-support.yaml")).positions).toEqual({
      metaBehaviors: [
        { line: 5, checks: [12], semanticChecks: [] },
        { line: 21, checks: [27, 34], semanticChecks: [43] },
        { line: 48, checks: [53], semanticChecks: [] },
        { line: 58, checks: [64, 70], semanticChecks: [] },
      ],
    });
    expect(parsed(readValid("semantic-only.yaml")).positions).toEqual({
      metaBehaviors: [{ line: 4, checks: [], semanticChecks: [9, 11] }],
    });
  });
});

describe("parse details", () => {
  const minimal = (trigger: string) => `version: 1
behavior: b
metaBehaviors:
  - name: n
    trigger: ${trigger}
    semanticChecks: [{quote: q, question: "?"}]
`;

  it("stores a single matcher as a one-element list", () => {
    const { ir } = parsed(minimal("{description: d, match: {actor: user}}"));
    expect(ir.metaBehaviors[0]?.trigger).toStrictEqual({ description: "d", match: [{ actor: "user" }] });
  });

  it("omits absent optional fields instead of setting them to undefined", () => {
    const { ir } = parsed(minimal("{description: d, semantic: true}"));
    const meta = ir.metaBehaviors[0];
    expect(meta && Object.keys(meta)).toEqual(["name", "trigger", "checks", "semanticChecks"]);
    expect(meta && Object.keys(meta.trigger)).toEqual(["description", "semantic"]);
  });

  it("accepts a flow sequence of bare pairs as a list of matchers", () => {
    const { ir } = parsed(minimal("{description: d, match: [action: a, action: b]}"));
    expect(ir.metaBehaviors[0]?.trigger.match).toStrictEqual([{ action: "a" }, { action: "b" }]);
  });

  it("keeps metadata keys that YAML would read as numbers or booleans as their text", () => {
    const { ir } = parsed(minimal('{description: d, match: {metadata: {1: "x", true: "y", 1.50: "z"}}}'));
    expect(ir.metaBehaviors[0]?.trigger.match).toStrictEqual([{ metadata: { "1": "x", true: "y", "1.50": "z" } }]);
  });

  it("accepts count bounds of zero", () => {
    const text = `version: 1
behavior: b
metaBehaviors:
  - name: n
    trigger: {description: d, semantic: true}
    checks: [{type: count, quote: q, match: {action: a}, min: 0, max: 0}]
`;
    expect(parsed(text).ir.metaBehaviors[0]?.checks[0]).toStrictEqual({
      type: "count",
      quote: "q",
      match: [{ action: "a" }],
      min: 0,
      max: 0,
    });
  });
});
