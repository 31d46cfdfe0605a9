/**
 * User text must reach generated code as data, never as code: names, quotes,
 * actions and metadata containing quote characters, template holes, comment
 * terminators, line breaks and script tags build, load, and come back exactly.
 */
import { describe, expect, test } from "vitest";
import { describeCheck } from "../compiler/ir/describe-check.js";
import { compileIR } from "../compiler/build/compile.js";
import { serializeJudgeYaml, parseJudgeYaml } from "../compiler/ir/index.js";
import type { JudgeIR } from "../compiler/ir/types.js";
import { importBundled, importGeneratedTs } from "./support/judges.js";

const HOSTILE = [
  'double "quote"',
  "single 'quote'",
  "back`tick`",
  "${process.exit(1)}",
  "*/ process.exit(1); /*",
  "line\nbreak\r\nand\ttab",
  "sep\u2028and\u2029para",
  "</script><script>process.exit(1)</script>",
  "process.exit(1)",
  "back\\slash \\u0041 \\n",
  "// comment",
  "\u0000nul",
];

function hostileIR(text: string): JudgeIR {
  return {
    version: 1,
    behavior: `behavior ${text}`,
    metaBehaviors: [
      {
        name: `rule ${text}`,
        trigger: { description: `trigger ${text}`, match: [{ action: `act ${text}` }] },
        checks: [
          { type: "required", quote: `quote ${text}`, match: [{ action: `act ${text}`, metadata: { [`key ${text}`]: `value ${text}` } }] },
          { type: "count", quote: `count ${text}`, match: [{ contentIncludes: text }], max: 0, distinctBy: `metadata.key ${text}` },
        ],
        semanticChecks: [{ quote: `semantic ${text}`, question: `question ${text}?` }],
      },
    ],
  };
}

function trajectoryFor(text: string) {
  return {
    id: `trajectory ${text}`,
    complete: true,
    events: [
      {
        id: `e1 ${text}`,
        actor: "agent",
        action: `act ${text}`,
        content: `has ${text} inside`,
        metadata: { [`key ${text}`]: `value ${text}` },
      },
    ],
  };
}

describe("hostile user text", () => {
  for (const text of HOSTILE) {
    test(`round-trips ${JSON.stringify(text)}`, async () => {
      const ir = hostileIR(text);
      // The IR serializer must keep the text too: parse(serialize(ir)) is ir.
      const yamlText = serializeJudgeYaml(ir);
      const reparsed = parseJudgeYaml(yamlText);
      expect(reparsed.ok && reparsed.ir).toEqual(ir);

      const compiled = await compileIR(ir, yamlText);
      expect(compiled.judgeMjs).not.toMatch(/<\/script/i);
      expect(compiled.judgeMjs).not.toMatch(/[\u2028\u2029]/);
      for (const judge of [await importBundled(compiled), await importGeneratedTs(compiled)]) {
        expect(judge.behavior).toBe(ir.behavior);
        expect(judge.rules[0]).toEqual({
          name: `rule ${text}`,
          trigger: { description: `trigger ${text}`, kind: "match" },
          // What each check looks for, built from the same hostile text, arrives intact.
          checks: [
            { type: "required", quote: `quote ${text}`, expected: describeCheck(ir.metaBehaviors[0]!.checks[0]!) },
            { type: "count", quote: `count ${text}`, expected: describeCheck(ir.metaBehaviors[0]!.checks[1]!) },
          ],
          semanticChecks: [{ quote: `semantic ${text}`, question: `question ${text}?` }],
        });
        const judgment = await judge.judgeTrajectory(trajectoryFor(text));
        const rule = judgment.metaBehaviors[0]!;
        expect(rule.name).toBe(`rule ${text}`);
        expect(rule.triggered).toBe(true);
        // The matcher matched the exact text: required finds the event, the count sees one distinct value over max 0.
        expect(rule.clauses.map((c) => [c.quote, c.verdict])).toEqual([
          [`quote ${text}`, "true"],
          [`count ${text}`, "false"],
        ]);
        expect(rule.clauses[0]!.citations[0]!.eventId).toBe(`e1 ${text}`);
        expect(rule.clauses[1]!.explanation).toBe(
          `at most 0 of any event (content including ${JSON.stringify(text)}), counting distinct key ${text}`,
        );
      }
    });
  }
});
