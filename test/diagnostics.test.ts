/**
 * The one formatter: every kind of located problem (judge.yaml, BEHAVIOR.md,
 * lint, the interview) is written by formatDiagnostic from its fields, and
 * each producer's real output comes out as its CLI has always printed it.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintSpec } from "../compiler/behavior-md/lint.js";
import { parseBehaviorMd } from "../compiler/behavior-md/load.js";
import { compareDiagnostics, formatDiagnostic, type Diagnostic } from "../compiler/diagnostics.js";
import { parseClauseSnippet } from "../compiler/interview/snippet.js";
import { parseJudgeYaml } from "../compiler/ir/parse.js";
import { ROOT } from "./support/cli.js";

const base: Diagnostic = {
  file: "judge.yaml",
  line: 12,
  col: 9,
  path: "metaBehaviors[0].checks[1].type",
  severity: "error",
  message: 'unknown check type "orderng"',
};

describe("formatDiagnostic", () => {
  describe("judge.yaml: file:line:col error: path: message", () => {
    it("writes the path before the message", () => {
      expect(formatDiagnostic(base)).toBe('judge.yaml:12:9 error: metaBehaviors[0].checks[1].type: unknown check type "orderng"');
    });

    it("appends the hint in parentheses", () => {
      expect(formatDiagnostic({ ...base, hint: 'did you mean "ordering"?' })).toBe(
        'judge.yaml:12:9 error: metaBehaviors[0].checks[1].type: unknown check type "orderng" (did you mean "ordering"?)',
      );
    });

    it("omits the path part for document-level problems", () => {
      expect(formatDiagnostic({ ...base, path: "", message: "the document is empty" })).toBe(
        "judge.yaml:12:9 error: the document is empty",
      );
    });

    it("is what parseJudgeYaml's diagnostics print", () => {
      const parsed = parseJudgeYaml("version: 2\nbehavior: b\nmetaBehaviors: []\n", { file: "j.yaml" });
      expect(parsed.ok ? [] : parsed.diagnostics.map(formatDiagnostic)).toContain("j.yaml:1:10 error: version: must be 1");
    });
  });

  describe("BEHAVIOR.md: file:line:col error: code: message", () => {
    it("writes the code before the message", () => {
      const d: Diagnostic = {
        file: "BEHAVIOR.md",
        line: 7,
        col: 1,
        path: "",
        code: "duplicate-heading",
        severity: "error",
        message: 'the heading "A" already appears on line 5',
      };
      expect(formatDiagnostic(d)).toBe('BEHAVIOR.md:7:1 error: duplicate-heading: the heading "A" already appears on line 5');
    });

    it("is what the spec loader's diagnostics print, hint included", () => {
      const parsed = parseBehaviorMd("---\nname: x\ndescription: d\n---\n\n## A\n\n## A\n", "spec.md");
      expect(parsed.ok ? [] : parsed.diagnostics.map(formatDiagnostic)).toEqual([
        'spec.md:8:1 error: duplicate-heading: the heading "A" already appears on line 6 (each H2 names one meta-behavior; merge the sections or rename one)',
      ]);
    });
  });

  describe("lint: file:line:col severity: code: path: message", () => {
    it("writes the severity, the code, then the path", () => {
      const d: Diagnostic = {
        ...base,
        line: 40,
        col: 1,
        path: "metaBehaviors[2].semanticChecks[0].quote",
        code: "quote-not-verbatim",
        message: "the quote does not occur",
      };
      expect(formatDiagnostic(d)).toBe(
        "judge.yaml:40:1 error: quote-not-verbatim: metaBehaviors[2].semanticChecks[0].quote: the quote does not occur",
      );
      expect(formatDiagnostic({ ...d, severity: "warning", code: "source-stale" })).toMatch(/^judge\.yaml:40:1 warning: source-stale: /);
    });

    it("is what lintSpec's findings print", async () => {
      const dir = join(ROOT, "test", "fixtures", "spec", "lint");
      const lines = (await lintSpec(dir)).findings.map(formatDiagnostic);
      expect(lines).toContain(
        `${dir}/BEHAVIOR.md:11:1 warning: section-without-rule: no rule in ${dir}/judge.yaml judges the section "Confirm every refund"`,
      );
      expect(lines).toContain(
        `${dir}/judge.yaml:21:1 error: rule-not-a-section: metaBehaviors[1].name: "Confirm every refunds" is not an H2 heading of ${dir}/BEHAVIOR.md (did you mean "Confirm every refund"?)`,
      );
    });
  });

  describe("the interview: text with no file is located in words", () => {
    it("writes line and column, no file and no severity", () => {
      expect(
        formatDiagnostic({
          ...base,
          file: "",
          line: 3,
          col: 1,
          path: "first.action",
          message: 'unknown key "acton"',
          hint: 'did you mean "action"?',
        }),
      ).toBe('line 3, col 1: first.action: unknown key "acton" (did you mean "action"?)');
    });

    it("writes no location for a problem with the whole text", () => {
      expect(formatDiagnostic({ ...base, file: "", line: 0, col: 0, path: "", message: "write the check as YAML or JSON" })).toBe(
        "write the check as YAML or JSON",
      );
    });

    it("is what a refused edit's diagnostics print", () => {
      const parsed = parseClauseSnippet("check", "type: ordering\nquote: q\nfirts: {action: a}\nbefore: {action: b}");
      expect(parsed.ok ? [] : parsed.diagnostics.map(formatDiagnostic)).toEqual([
        'line 3, col 1: unknown key "firts" (did you mean "first"?)',
      ]);
      const empty = parseClauseSnippet("check", "  \n");
      expect(empty.ok ? [] : empty.diagnostics.map(formatDiagnostic)).toEqual(["write the check as YAML or JSON"]);
    });
  });

  it("escapes what a terminal would act on, whatever the kind", () => {
    const hidden = 'unknown key "a\u202eb\u001b[2J"';
    expect(formatDiagnostic({ ...base, path: "", message: hidden })).toBe('judge.yaml:12:9 error: unknown key "a\\u202eb\\u001b[2J"');
    expect(formatDiagnostic({ ...base, file: "", line: 1, col: 1, path: "", message: hidden })).toBe(
      'line 1, col 1: unknown key "a\\u202eb\\u001b[2J"',
    );
  });
});

describe("compareDiagnostics", () => {
  it("orders by file, line, then column", () => {
    const at = (file: string, line: number, col: number): Diagnostic => ({ ...base, file, line, col });
    const sorted = [at("b", 1, 1), at("a", 2, 1), at("a", 1, 5), at("a", 1, 2)].sort(compareDiagnostics);
    expect(sorted.map((d) => `${d.file}:${d.line}:${d.col}`)).toEqual(["a:1:2", "a:1:5", "a:2:1", "b:1:1"]);
  });
});
