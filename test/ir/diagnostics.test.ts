import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, parseJudgeYaml } from "../../compiler/ir/index.js";

const BROKEN = new URL("../fixtures/ir-broken/", import.meta.url);

function readBroken(name: string): string {
  return readFileSync(new URL(name, BROKEN), "utf8");
}

/** Formatted diagnostics, or a marker that makes an unexpected success fail loudly. */
function diagnosticsOf(text: string, options: Parameters<typeof parseJudgeYaml>[1] = {}): string[] {
  const result = parseJudgeYaml(text, options);
  return result.ok ? ["<parsed without errors>"] : result.diagnostics.map(formatDiagnostic);
}

/** One file per mistake family; each expectation is the exact output, message and line:col. */
const EXPECTED: Record<string, string[]> = {
  "yaml-syntax.yaml": [
    "yaml-syntax.yaml:8:5 error: invalid YAML: flow sequence in block collection must be sufficiently indented and end with a ]",
  ],
  "wrong-version.yaml": ["wrong-version.yaml:1:10 error: version: must be 1"],
  "unknown-key-typo.yaml": ['unknown-key-typo.yaml:11:9 error: metaBehaviors[0].checks[0]: unknown key "qoute" (did you mean "quote"?)'],
  "unknown-check-type.yaml": [
    'unknown-check-type.yaml:14:15 error: metaBehaviors[0].checks[1].type: unknown check type "orderng" (did you mean "ordering"?)',
  ],
  "bad-actor.yaml": [
    'bad-actor.yaml:8:16 error: metaBehaviors[0].trigger.match.actor: must be user, agent, or tool (did you mean "agent"?)',
  ],
  "empty-quote.yaml": [
    "empty-quote.yaml:11:16 error: metaBehaviors[0].checks[0].quote: must be a non-empty string",
    "empty-quote.yaml:15:9 error: metaBehaviors[0].semanticChecks[0].quote: must be a non-empty string",
  ],
  "missing-trigger-description.yaml": ["missing-trigger-description.yaml:6:7 error: metaBehaviors[0].trigger.description: is required"],
  "match-and-semantic.yaml": [
    "match-and-semantic.yaml:6:7 error: metaBehaviors[0].trigger: has both match and semantic: true (give exactly one)",
  ],
  "semantic-false.yaml": [
    "semantic-false.yaml:7:17 error: metaBehaviors[0].trigger.semantic: must be true (for a deterministic trigger, remove semantic and give match)",
  ],
  "empty-pattern-list.yaml": ["empty-pattern-list.yaml:7:14 error: metaBehaviors[0].trigger.match: must be a non-empty list of matchers"],
  "matcher-without-fields.yaml": [
    "matcher-without-fields.yaml:12:16 error: metaBehaviors[0].checks[0].first: needs at least one of action, actor, contentIncludes, content, metadata",
    "matcher-without-fields.yaml:15:13 error: metaBehaviors[0].checks[0].before[1]: needs at least one of action, actor, contentIncludes, content, metadata",
  ],
  "metadata-number.yaml": [
    'metadata-number.yaml:15:19 error: metaBehaviors[0].checks[0].match.metadata.port: must be a string, got number 8080 (quote it: "8080")',
    'metadata-number.yaml:16:21 error: metaBehaviors[0].checks[0].match.metadata.canary: must be a string, got boolean true (quote it: "true")',
    'metadata-number.yaml:17:21 error: metaBehaviors[0].checks[0].match.metadata.weight: must be a string, got number 1.5 (quote it: "1.50")',
  ],
  "count-without-bounds.yaml": ["count-without-bounds.yaml:10:9 error: metaBehaviors[0].checks[0]: needs at least one of min or max"],
  "count-bad-bounds.yaml": [
    "count-bad-bounds.yaml:14:14 error: metaBehaviors[0].checks[0].min: must be a non-negative integer",
    "count-bad-bounds.yaml:15:14 error: metaBehaviors[0].checks[0].max: must be a non-negative integer",
    "count-bad-bounds.yaml:20:14 error: metaBehaviors[0].checks[1].max: must be a non-negative integer (remove the quotes: 3)",
  ],
  "bad-distinct-by.yaml": [
    'bad-distinct-by.yaml:15:21 error: metaBehaviors[0].checks[0].distinctBy: must be "content" or "metadata.<key>" (did you mean "content"?)',
    'bad-distinct-by.yaml:21:21 error: metaBehaviors[0].checks[1].distinctBy: must be "content" or "metadata.<key>"',
  ],
  "duplicate-names.yaml": [
    'duplicate-names.yaml:14:11 error: metaBehaviors[1].name: duplicate meta-behavior name "Verify before refunding" (first at line 4)',
  ],
  "meta-without-checks.yaml": [
    "meta-without-checks.yaml:4:5 error: metaBehaviors[0]: needs at least one of checks or semanticChecks",
    "meta-without-checks.yaml:10:5 error: metaBehaviors[1]: needs at least one of checks or semanticChecks",
  ],
  "after-on-ordering.yaml": [
    'after-on-ordering.yaml:16:9 error: metaBehaviors[0].checks[0]: "after" is not allowed on ordering checks (it is allowed on required, forbidden and count checks)',
  ],
  "several-errors.yaml": [
    "several-errors.yaml:11:16 error: metaBehaviors[0].checks[0].quote: must be a non-empty string",
    'several-errors.yaml:13:18 error: metaBehaviors[0].checks[0].match.actor: must be user, agent, or tool (did you mean "agent"?)',
    'several-errors.yaml:24:9 error: metaBehaviors[1].checks[0]: unknown key "folowedBy" (did you mean "followedBy"?)',
    "several-errors.yaml:30:14 error: metaBehaviors[1].checks[1].max: must be a non-negative integer",
  ],
  "duplicate-key.yaml": ['duplicate-key.yaml:14:9 error: metaBehaviors[0].checks[0]: duplicate key "quote" (first at line 11)'],
  "anchors-and-aliases.yaml": [
    'anchors-and-aliases.yaml:13:16 error: metaBehaviors[0].checks[0].after: tag "!refund" is not supported (remove it; quote the value if it must be a string)',
    'anchors-and-aliases.yaml:19:13 error: metaBehaviors[0].checks[1].match[0]: alias "*loop" refers to itself (write the value out in full)',
  ],
  "empty-document.yaml": ["empty-document.yaml:1:1 error: the document is empty (expected version, behavior and metaBehaviors)"],
  "wrong-shapes.yaml": [
    'wrong-shapes.yaml:1:10 error: version: must be 1, got the string "1"',
    'wrong-shapes.yaml:2:11 error: behavior: must be a string, got number 42 (quote it: "42")',
    "wrong-shapes.yaml:5:14 error: metaBehaviors[0].trigger: must be a mapping",
    "wrong-shapes.yaml:7:7 error: metaBehaviors[0].checks: must be a list",
    'wrong-shapes.yaml:11:9 error: metaBehaviors[0].semanticChecks[0]: unknown key "answer"',
    'wrong-shapes.yaml:12:1 error: unknown key "extra"',
  ],
};

describe("broken judge.yaml fixtures", () => {
  it("has an expectation for every fixture file, and a fixture for every expectation", () => {
    const files = readdirSync(BROKEN).filter((name) => name.endsWith(".yaml"));
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))("%s", (name, expected) => {
    expect(diagnosticsOf(readBroken(name), { file: name })).toEqual(expected);
  });
});

/** A valid file to break in small ways. */
const VALID = `version: 1
behavior: refund-support
metaBehaviors:
  - name: Verify before refunding
    trigger:
      description: The agent issues a refund.
      match:
        action: issue_refund
    checks:
      - type: required
        quote: the agent verifies the customer
        match:
          action: verify_identity
`;

describe("every problem is reported", () => {
  it("reports four distinct errors in one file as four diagnostics", () => {
    const result = parseJudgeYaml(readBroken("several-errors.yaml"));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics).toHaveLength(4);
    expect(new Set(result.diagnostics.map((d) => d.path)).size).toBe(4);
  });

  it("keeps going past the first meta-behavior and across every level", () => {
    const text = `version: 3
behavior: ""
metaBehaviors:
  - name: A
    trigger: {description: d, match: {actor: robot}}
    checks: [{type: required, quote: q, match: {action: ""}}]
  - name: B
    trigger: {description: "", semantic: true}
    semanticChecks: [{quote: q}]
`;
    expect(diagnosticsOf(text)).toEqual([
      "judge.yaml:1:10 error: version: must be 1",
      "judge.yaml:2:11 error: behavior: must be a non-empty string",
      "judge.yaml:5:46 error: metaBehaviors[0].trigger.match.actor: must be user, agent, or tool",
      "judge.yaml:6:57 error: metaBehaviors[0].checks[0].match.action: must be a non-empty string",
      "judge.yaml:8:28 error: metaBehaviors[1].trigger.description: must be a non-empty string",
      "judge.yaml:9:22 error: metaBehaviors[1].semanticChecks[0].question: is required",
    ]);
  });

  it("sorts by line and column even when the schema finds them in another order", () => {
    // The unknown top-level key is found after the fields, but it comes first in the file.
    const text = `extra: 1\n${VALID.replace("version: 1", "version: 2")}`;
    expect(diagnosticsOf(text)).toEqual(['judge.yaml:1:1 error: unknown key "extra"', "judge.yaml:2:10 error: version: must be 1"]);
  });

  it("reports every YAML syntax error, and nothing from the schema on a broken document", () => {
    // The version is also wrong, but a document that does not parse is not checked further.
    const text = "version: 2\nbehavior: x: y\nmetaBehaviors:\n  - name: a: b\n";
    expect(diagnosticsOf(text)).toEqual([
      "judge.yaml:2:11 error: invalid YAML: nested mappings are not allowed in compact mappings",
      "judge.yaml:4:11 error: invalid YAML: nested mappings are not allowed in compact mappings",
    ]);
  });
});

describe("misspelled keys", () => {
  it("reports the misspelling once, not also the key it was meant to be", () => {
    const text = VALID.replace("      description:", "      descripton:");
    expect(diagnosticsOf(text)).toEqual([
      'judge.yaml:6:7 error: metaBehaviors[0].trigger: unknown key "descripton" (did you mean "description"?)',
    ]);
  });

  it("lets a misspelled checks key explain the missing checks", () => {
    const text = VALID.replace("    checks:", "    check:");
    expect(diagnosticsOf(text)).toEqual(['judge.yaml:9:5 error: metaBehaviors[0]: unknown key "check" (did you mean "checks"?)']);
  });

  it("still reports the missing key when the unknown key is not a near miss", () => {
    const text = VALID.replace("      description:", "      summary:");
    expect(diagnosticsOf(text)).toEqual([
      "judge.yaml:6:7 error: metaBehaviors[0].trigger.description: is required",
      'judge.yaml:6:7 error: metaBehaviors[0].trigger: unknown key "summary"',
    ]);
  });

  it("locates problems inside bare pairs of a flow sequence", () => {
    const text = VALID.replace("      match:\n        action: issue_refund", "      match: [action: issue_refund, actr: user]");
    expect(diagnosticsOf(text)).toEqual([
      'judge.yaml:7:37 error: metaBehaviors[0].trigger.match[1]: unknown key "actr" (did you mean "actor"?)',
    ]);
  });

  it("suggests camelCase keys for snake_case spellings", () => {
    const text = VALID.replace("          action: verify_identity", "          content_includes: verify");
    expect(diagnosticsOf(text)).toEqual([
      'judge.yaml:13:11 error: metaBehaviors[0].checks[0].match: unknown key "content_includes" (did you mean "contentIncludes"?)',
    ]);
  });

  it("names a key that belongs to another check type", () => {
    const text = VALID.replace("          action: verify_identity", "          action: verify_identity\n        min: 1");
    expect(diagnosticsOf(text)).toEqual([
      'judge.yaml:14:9 error: metaBehaviors[0].checks[0]: "min" is not allowed on required checks (it is allowed on count checks)',
    ]);
  });
});

describe("vocabulary", () => {
  const vocabulary = { actions: ["issue_refund", "verify_identity"], metadataKeys: ["status", "order"] };

  it("accepts a file whose actions are all known", () => {
    expect(parseJudgeYaml(VALID, { vocabulary }).ok).toBe(true);
  });

  it("reports unknown actions with the closest known action", () => {
    const text = VALID.replace("action: verify_identity", "action: verify_identiy");
    expect(diagnosticsOf(text, { vocabulary })).toEqual([
      'judge.yaml:13:19 error: metaBehaviors[0].checks[0].match.action: unknown action "verify_identiy" (did you mean "verify_identity"?)',
    ]);
  });

  it("reports unknown actions without a hint when nothing is close", () => {
    const text = VALID.replace("action: verify_identity", "action: escalate");
    expect(diagnosticsOf(text, { vocabulary })).toEqual([
      'judge.yaml:13:19 error: metaBehaviors[0].checks[0].match.action: unknown action "escalate"',
    ]);
  });

  it("does not check actions without a vocabulary", () => {
    expect(parseJudgeYaml(VALID.replace("action: verify_identity", "action: escalate")).ok).toBe(true);
  });

  it("reports unknown metadata keys, in matchers and in distinctBy", () => {
    const text = VALID.replace(
      "      - type: required\n        quote: the agent verifies the customer\n        match:\n          action: verify_identity\n",
      "      - type: count\n        quote: q\n        match: {metadata: {stauts: passed}}\n        min: 1\n        distinctBy: metadata.ordr\n",
    );
    expect(diagnosticsOf(text, { vocabulary })).toEqual([
      'judge.yaml:12:28 error: metaBehaviors[0].checks[0].match.metadata: unknown metadata key "stauts" (did you mean "status"?)',
      'judge.yaml:14:21 error: metaBehaviors[0].checks[0].distinctBy: unknown metadata key "ordr" (did you mean "metadata.order"?)',
    ]);
  });
});

describe("document-level problems", () => {
  it("rejects a second document", () => {
    expect(diagnosticsOf(`${VALID}---\nversion: 1\n`)).toEqual([
      'judge.yaml:14:1 error: invalid YAML: judge.yaml holds a single document (remove the extra "---")',
    ]);
  });

  it("rejects a document that is not a mapping", () => {
    expect(diagnosticsOf("- version: 1\n")).toEqual(["judge.yaml:1:1 error: must be a mapping with version, behavior and metaBehaviors"]);
  });

  it("rejects __proto__ and collection keys instead of misreading them", () => {
    const text = VALID.replace("    checks:", "    __proto__: {polluted: true}\n    ? [complex]\n    : key\n    checks:");
    expect(diagnosticsOf(text)).toEqual([
      'judge.yaml:9:5 error: metaBehaviors[0]: key "__proto__" is not allowed',
      "judge.yaml:10:7 error: metaBehaviors[0]: mapping keys must be plain strings",
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("uses the given file name", () => {
    expect(diagnosticsOf("", { file: "rules/judge.yaml" })[0]).toMatch(/^rules\/judge\.yaml:1:1 error: /);
  });

  it("shows how to write a matcher when a bare action is given", () => {
    const text = VALID.replace("      match:\n        action: issue_refund", "      match: issue_refund");
    expect(diagnosticsOf(text)).toEqual([
      'judge.yaml:7:14 error: metaBehaviors[0].trigger.match: must be a matcher or a non-empty list of matchers (for example {action: "issue_refund"})',
    ]);
  });

  it("suggests [] for an empty list written as nothing", () => {
    const text = VALID.replace("    checks:\n", "    semanticChecks:\n    checks:\n");
    expect(diagnosticsOf(text)[0]).toBe(
      "judge.yaml:9:5 error: metaBehaviors[0].semanticChecks: must be a list (write [] for an empty list)",
    );
  });

  it("does not suggest [] where an empty list is refused too", () => {
    expect(diagnosticsOf("version: 1\nbehavior: b\nmetaBehaviors: null\n")).toEqual([
      "judge.yaml:3:16 error: metaBehaviors: must be a non-empty list (a judge needs at least one meta-behavior)",
    ]);
    expect(diagnosticsOf("version: 1\nbehavior: b\nmetaBehaviors:\n")).toEqual([
      "judge.yaml:3:1 error: metaBehaviors: must be a non-empty list (a judge needs at least one meta-behavior)",
    ]);
    expect(diagnosticsOf("version: 1\nbehavior: b\nmetaBehaviors: []\n")).toEqual([
      "judge.yaml:3:16 error: metaBehaviors: must be a non-empty list (a judge needs at least one meta-behavior)",
    ]);
    const text = VALID.replace("      match:\n        action: issue_refund", "      match:");
    expect(diagnosticsOf(text)).toEqual([
      "judge.yaml:7:7 error: metaBehaviors[0].trigger.match: must be a matcher or a non-empty list of matchers",
    ]);
  });
});

describe("robustness", () => {
  it("never throws and always locates inside the file, for every truncation of a valid file", () => {
    const lines = VALID.split("\n").length;
    for (let end = 0; end <= VALID.length; end++) {
      const result = parseJudgeYaml(VALID.slice(0, end));
      if (result.ok) continue;
      for (const d of result.diagnostics) {
        expect(d.message).not.toMatch(/internal error/);
        expect(d.line).toBeGreaterThanOrEqual(1);
        expect(d.line).toBeLessThanOrEqual(lines);
        expect(d.col).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it("never throws when any single line is removed or duplicated", () => {
    const lines = VALID.split("\n");
    for (let i = 0; i < lines.length; i++) {
      for (const variant of [
        [...lines.slice(0, i), ...lines.slice(i + 1)],
        [...lines.slice(0, i + 1), ...lines.slice(i)],
      ]) {
        const result = parseJudgeYaml(variant.join("\n"));
        if (!result.ok) expect(result.diagnostics.map((d) => d.message).join("\n")).not.toMatch(/internal error/);
      }
    }
  });
});
