/**
 * The sizes judge.yaml accepts (issue 8, defects 4 and 15): each bound is far
 * above any real spec, a file past one is refused with a located diagnostic
 * that says which bound, and a file at every bound still builds.
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostic, parseJudgeYaml } from "../../compiler/ir/index.js";
import { LIMITS } from "../../compiler/ir/schema.js";
import { compileYaml } from "../support/judges.js";
import { largeJudgeYaml } from "../support/large-judge.js";
import { countingWork } from "../support/work.js";

function diagnosticsOf(text: string): string[] {
  const result = parseJudgeYaml(text);
  return result.ok ? ["<parsed without errors>"] : result.diagnostics.map(formatDiagnostic);
}

/** One rule with one forbidden check whose fields are given as YAML flow text. */
function judgeWith({ quote = "q", match = "{action: a}", extraChecks = "", rules = "" } = {}): string {
  return `version: 1
behavior: limits
metaBehaviors:
  - name: r
    trigger:
      description: d
      match: {action: a}
    checks:
      - type: forbidden
        quote: ${quote}
        match: ${match}
${extraChecks}${rules}`;
}

const metadataPattern = (fields: number) => `{metadata: {${Array.from({ length: fields }, (_, k) => `k${k}: v`).join(", ")}}}`;

describe("judge.yaml size bounds", () => {
  it("are the documented ones", () => {
    expect(LIMITS).toEqual({
      fileCharacters: 1_000_000,
      textCharacters: 1_000_000,
      stringCharacters: 10_000,
      metaBehaviors: 1_000,
      checks: 1_000,
      semanticChecks: 1_000,
      patternFields: 64,
    });
  });

  it("refuse a string longer than 10,000 characters, where it is", () => {
    expect(diagnosticsOf(judgeWith({ quote: "x".repeat(10_001) }))).toEqual([
      "judge.yaml:10:16 error: metaBehaviors[0].checks[0].quote: is 10,001 characters long; at most 10,000 are accepted",
    ]);
    expect(diagnosticsOf(judgeWith({ match: `{metadata: {${"k".repeat(10_001)}: v}}` }))).toEqual([
      "judge.yaml:11:28 error: metaBehaviors[0].checks[0].match.metadata: a metadata key is 10,001 characters long; at most 10,000 are accepted",
    ]);
    expect(diagnosticsOf(judgeWith({ quote: "x".repeat(10_000) }))).toEqual(["<parsed without errors>"]);
  });

  it("refuse a pattern testing more than 64 fields, at the pattern", () => {
    expect(
      diagnosticsOf(
        judgeWith({ match: `[${metadataPattern(60)}, {action: a, actor: agent, contentIncludes: c}, {action: b, actor: user}]` }),
      ),
    ).toEqual([
      "judge.yaml:11:16 error: metaBehaviors[0].checks[0].match: tests 65 fields (action, actor, contentIncludes and metadata entries of its matchers); at most 64 are accepted",
    ]);
  });

  it("refuse more than 1,000 checks, semantic checks or rules, at the list", () => {
    const check = "      - {type: required, quote: q, match: {action: a}}\n";
    expect(diagnosticsOf(judgeWith({ extraChecks: check.repeat(1_000) }))).toEqual([
      "judge.yaml:9:7 error: metaBehaviors[0].checks: holds 1,001 items; at most 1,000 are accepted",
    ]);
    const semantic = `    semanticChecks:\n${"      - {quote: q, question: q?}\n".repeat(1_001)}`;
    expect(diagnosticsOf(judgeWith({ extraChecks: semantic }))).toEqual([
      "judge.yaml:13:7 error: metaBehaviors[0].semanticChecks: holds 1,001 items; at most 1,000 are accepted",
    ]);
    const rules = Array.from(
      { length: 1_000 },
      (_, i) => `  - {name: r${i + 1}, trigger: {description: d, semantic: true}, semanticChecks: [{quote: q, question: q?}]}\n`,
    ).join("");
    expect(diagnosticsOf(judgeWith({ rules }))).toEqual([
      "judge.yaml:4:3 error: metaBehaviors: holds 1,001 items; at most 1,000 are accepted",
    ]);
  });

  it("refuse a file longer than 1,000,000 characters before parsing it, where the limit is crossed", () => {
    const text = largeJudgeYaml("bytes", 5_000_000);
    // Before parsing: the work is a pass over the first million characters for the line number (counted
    // steps, test/support/work.ts), not a parse of five million.
    const { result: diagnostics, steps } = countingWork(() => diagnosticsOf(text));
    expect(steps).toBeLessThan(1.1 * LIMITS.fileCharacters);
    const line = text.slice(0, 1_000_000).split("\n").length;
    expect(diagnostics).toEqual([
      `judge.yaml:${line}:${1_000_001 - (text.lastIndexOf("\n", 999_999) + 1)} error: the file is 5,000,000 characters long; at most 1,000,000 are accepted`,
    ]);
  });

  it("refuse aliases that expand to more than 1,000,000 characters of text", () => {
    const long = "x".repeat(9_000);
    const checks = Array.from({ length: 120 }, () => "      - {type: required, quote: *q, match: {action: a}}\n").join("");
    const text = judgeWith({ quote: `&q ${long}`, extraChecks: checks });
    expect(diagnosticsOf(text)).toEqual([
      "judge.yaml:1:1 error: the text of this judge.yaml (its strings, with aliases expanded) is 1,092,586 characters long; at most 1,000,000 are accepted",
    ]);
  });
});

describe("a judge at the bounds builds", () => {
  it("a quote of 10,000 characters and a pattern of 64 fields", async () => {
    const { compiled } = await compileYaml(
      judgeWith({ quote: "x".repeat(10_000), match: `[${metadataPattern(62)}, {action: a, actor: agent}]` }),
    );
    expect(compiled.judgeTs).toContain(`"${"x".repeat(10_000)}"`);
  });

  // 1,000 checks in one rule (the bound) and 500 are built in test/codegen/scale.test.ts.
});
