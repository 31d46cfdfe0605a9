import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { InterviewClause } from "../../compiler/interview/evidence.js";
import { clauseData, clauseYaml, parseClauseSnippet } from "../../compiler/interview/snippet.js";
import { parseJudgeYaml, serializeJudgeYaml } from "../../compiler/ir/index.js";
import type { JudgeIR } from "../../compiler/ir/types.js";

/** Every check type, pattern lists, metadata, distinctBy, semantic triggers, and strings that need quoting or escapes. */
const FIXTURES = [
  "golden/all-checks.yaml",
  "golden/hostile-text.yaml",
  "golden/semantic.yaml",
  "ir-valid/tricky-strings.yaml",
  "ir-valid/anchors.yaml",
];

function fixtureIR(name: string): JudgeIR {
  const parsed = parseJudgeYaml(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8"));
  if (!parsed.ok) throw new Error(`${name} does not parse`);
  return parsed.ir;
}

/** Each clause of the IR, with the same clause as the serialized judge.yaml holds it. */
function clausesWithData(ir: JudgeIR): { clause: InterviewClause; data: unknown }[] {
  const written = parseYaml(serializeJudgeYaml(ir)) as {
    metaBehaviors: { trigger: unknown; checks?: unknown[]; semanticChecks?: unknown[] }[];
  };
  return ir.metaBehaviors.flatMap((rule, r) => {
    const data = written.metaBehaviors[r]!;
    return [
      { clause: { kind: "trigger", trigger: rule.trigger } as InterviewClause, data: data.trigger },
      ...rule.checks.map((check, i) => ({ clause: { kind: "check", check } as InterviewClause, data: data.checks![i] })),
      ...rule.semanticChecks.map((semanticCheck, i) => ({
        clause: { kind: "semanticCheck", semanticCheck } as InterviewClause,
        data: data.semanticChecks![i],
      })),
    ];
  });
}

describe("clause snippets", () => {
  for (const name of FIXTURES) {
    it(`writes each clause of ${name} the way the whole judge.yaml writes it, key order included`, () => {
      for (const { clause, data } of clausesWithData(fixtureIR(name))) {
        const own = clauseData(clause);
        expect(own).toEqual(data);
        expect(JSON.stringify(own)).toBe(JSON.stringify(data));
      }
    });

    it(`reads each clause of ${name} back from its snippet, block and one-line JSON alike`, () => {
      for (const { clause } of clausesWithData(fixtureIR(name))) {
        for (const text of [clauseYaml(clause), JSON.stringify(clauseData(clause))]) {
          expect(parseClauseSnippet(clause.kind, text)).toEqual({ ok: true, clause });
        }
      }
    });
  }
});
