/**
 * `behavior-judge lint`: a spec's own diagnostics, then how a judge.yaml
 * beside it (or given) lines up with it (after warnings about empty sections
 * and setext headings, which Markdown shows as H2s that are not sections): rule names that are not headings,
 * quotes the section does not contain (up to whitespace), sections no rule
 * covers, sentences stating an obligation no clause quotes (`uncovered-sentence`),
 * rules whose `source:` is stale, and, given sample trajectories,
 * every action or metadata key they never show. Every finding is located.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Trajectory } from "../../runtime/types.js";
import { didYouMean } from "../ir/did-you-mean.js";
import { compareDiagnostics, JudgeYamlError, type Diagnostic, type Severity } from "../diagnostics.js";
import { parseJudgeYaml, type IRPositions } from "../ir/parse.js";
import type { JudgeIR } from "../ir/types.js";
import { vocabularyWarnings } from "../ir/warnings.js";
import { normalizeWhitespace, quoteOccurs } from "../generate/offline/words.js";
import { ruleQuotes, uncoveredObligations } from "../generate/coverage.js";
import { readJudgeYaml } from "../build/judge-yaml.js";
import { readBehaviorSpec, resolveSpecPath, setextHeadingLines, type BehaviorSpec } from "./load.js";

export interface LintResult {
  /** The spec file and the judge.yaml that were checked (judge undefined when there is none). */
  spec: string;
  judge?: string;
  /** Each with a code: the spec's own (`duplicate-heading`, …) or `quote-not-verbatim`, `rule-not-a-section`, …. */
  findings: Diagnostic[];
  errors: number;
  warnings: number;
}

export interface LintOptions {
  /** judge.yaml to check; default `judge.yaml` beside the spec when it exists. */
  judge?: string;
  /** Sample trajectories: their vocabulary is what actions and metadata keys may name. */
  samples?: readonly Trajectory[];
}

function finding(severity: Severity, code: string, d: Omit<Diagnostic, "col" | "severity" | "code"> & { col?: number }): Diagnostic {
  return { col: 1, ...d, severity, code };
}

/** Lints a spec (file or folder) and the judge.yaml that goes with it. */
export async function lintSpec(specPath: string, options: LintOptions = {}): Promise<LintResult> {
  const file = await resolveSpecPath(specPath);
  const parsed = await readBehaviorSpec(specPath);
  if (!parsed.ok) {
    return { spec: file, findings: parsed.diagnostics, errors: parsed.diagnostics.length, warnings: 0 };
  }
  const findings: Diagnostic[] = [];
  if (parsed.spec.sections.length === 0) {
    findings.push(
      finding("warning", "no-sections", {
        file,
        line: 1,
        path: "",
        message: "the spec has no ## sections, so there is no meta-behavior to judge",
      }),
    );
  }
  for (const section of parsed.spec.sections) {
    if (section.body === "")
      findings.push(
        finding("warning", "section-empty", {
          file,
          line: section.line,
          path: "",
          message: `the section ${JSON.stringify(section.heading)} is empty, so there is nothing to judge in it`,
        }),
      );
  }
  for (const line of setextHeadingLines(await readFile(file, "utf8"))) {
    findings.push(
      finding("warning", "setext-heading", {
        file,
        line,
        path: "",
        message:
          "Markdown shows this underlined line as an H2 heading, but only ## headings are meta-behaviors: it belongs to the section before it",
        hint: "write it as a ## heading, or leave a blank line above the ---",
      }),
    );
  }
  const judge = options.judge ?? defaultJudgeBeside(file);
  if (judge !== undefined) findings.push(...(await lintJudge(parsed.spec, judge, options.samples)));
  findings.sort(compareDiagnostics);
  const errors = findings.filter((f) => f.severity === "error").length;
  return { spec: file, ...(judge !== undefined ? { judge } : {}), findings, errors, warnings: findings.length - errors };
}

function defaultJudgeBeside(specFile: string): string | undefined {
  const candidate = join(dirname(specFile), "judge.yaml");
  return existsSync(candidate) ? candidate : undefined;
}

/** The judge.yaml half of lint: parse, then compare with the spec and the samples. */
export async function lintJudge(spec: BehaviorSpec, judgeFile: string, samples?: readonly Trajectory[]): Promise<Diagnostic[]> {
  let text: string;
  try {
    text = await readJudgeYaml(judgeFile);
  } catch (error) {
    if (error instanceof JudgeYamlError) return error.diagnostics.map((d) => finding("error", "judge-invalid", d));
    throw error;
  }
  const parsed = parseJudgeYaml(text, { file: judgeFile });
  if (!parsed.ok) return parsed.diagnostics.map((d) => finding("error", "judge-invalid", d));
  const findings = [...compareWithSpec(spec, parsed.ir, parsed.positions, judgeFile)];
  if (samples !== undefined) findings.push(...vocabularyWarnings(text, judgeFile, samples));
  return findings.sort(compareDiagnostics);
}

/** Rule names, quotes and sources against the spec's sections. */
export function compareWithSpec(spec: BehaviorSpec, ir: JudgeIR, positions: IRPositions, judgeFile: string): Diagnostic[] {
  const findings: Diagnostic[] = [];
  const headings = spec.sections.map((s) => s.heading);
  if (ir.behavior !== spec.name) {
    findings.push(
      finding("error", "behavior-mismatch", {
        file: judgeFile,
        line: 2,
        path: "behavior",
        message: `behavior is ${JSON.stringify(ir.behavior)} but the spec's name is ${JSON.stringify(spec.name)}`,
      }),
    );
  }
  ir.metaBehaviors.forEach((rule, i) => {
    const where = positions.metaBehaviors[i];
    const section = spec.sections.find((s) => s.heading === rule.name);
    if (section === undefined) {
      const hint = didYouMean(rule.name, headings);
      findings.push(
        finding("error", "rule-not-a-section", {
          file: judgeFile,
          line: where?.line ?? 1,
          path: `metaBehaviors[${i}].name`,
          message: `${JSON.stringify(rule.name)} is not an H2 heading of ${spec.file}`,
          ...(hint !== undefined ? { hint } : {}),
        }),
      );
      return;
    }
    const quoteProblem = (quote: string, line: number | undefined, path: string) => {
      if (quoteOccurs(quote, section.body)) return;
      findings.push(
        finding("error", "quote-not-verbatim", {
          file: judgeFile,
          line: line ?? where?.line ?? 1,
          path,
          message: `the quote ${JSON.stringify(quote)} does not occur in the section ${JSON.stringify(section.heading)} (line ${section.line})`,
          hint: "copy the spec's words exactly; only whitespace may differ",
        }),
      );
    };
    rule.checks.forEach((c, j) => quoteProblem(c.quote, where?.checks[j], `metaBehaviors[${i}].checks[${j}].quote`));
    rule.semanticChecks.forEach((c, j) =>
      quoteProblem(c.quote, where?.semanticChecks[j], `metaBehaviors[${i}].semanticChecks[${j}].quote`),
    );
    // What the section demands that no clause quotes is judged by nothing: said, not dropped silently.
    for (const obligation of uncoveredObligations(section.body, ruleQuotes(rule))) {
      findings.push(
        finding("warning", "uncovered-sentence", {
          file: judgeFile,
          line: where?.line ?? 1,
          path: `metaBehaviors[${i}]`,
          message: `no clause of ${JSON.stringify(rule.name)} quotes ${JSON.stringify(obligation.text)}`,
          hint: "add a check or a semantic question that quotes it, or leave it out knowingly",
        }),
      );
    }
    if (rule.source !== undefined && normalizeWhitespace(rule.source) !== normalizeWhitespace(section.body)) {
      findings.push(
        finding("warning", "source-stale", {
          file: judgeFile,
          line: where?.line ?? 1,
          path: `metaBehaviors[${i}].source`,
          message: `the section ${JSON.stringify(section.heading)} changed since this rule was made`,
          hint: "run generate --update to review the changed clauses",
        }),
      );
    }
  });
  for (const section of spec.sections) {
    if (!ir.metaBehaviors.some((r) => r.name === section.heading)) {
      findings.push(
        finding("warning", "section-without-rule", {
          file: spec.file,
          line: section.line,
          path: "",
          message: `no rule in ${judgeFile} judges the section ${JSON.stringify(section.heading)}`,
        }),
      );
    }
  }
  return findings;
}
