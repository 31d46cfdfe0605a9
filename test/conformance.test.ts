/**
 * Compatibility with the reference implementation's examples, when its
 * corpus is beside the project (`../shared/conformance/upstream`, as in this
 * workplace's CI). A user's clone has no such folder: then this file skips,
 * saying so.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { disagreements, isDeterministicRule, loadCorpus } from "./support/corpus.js";

const UPSTREAM = join(import.meta.dirname, "..", "..", "shared", "conformance", "upstream");
const present = existsSync(UPSTREAM);
if (!present) console.warn(`conformance: ${UPSTREAM} not found; the reference corpus checks are skipped`);

const CORPORA: [string, { metas: number; files: number }][] = [
  ["verified-refund-support", { metas: 36, files: 9 }],
  ["staged-rollout-deploys", { metas: 36, files: 9 }],
  ["primary-source-tax-research", { metas: 6, files: 0 }],
];

describe.skipIf(!present)("reference corpus", () => {
  test.each(CORPORA)("%s agrees offline on every rule that needs no model", async (name, want) => {
    const { ir, judges, cases } = await loadCorpus(join(UPSTREAM, name));
    for (const { judge } of judges) {
      let metas = 0;
      let files = 0;
      const problems: string[] = [];
      for (const c of cases) {
        const judgment = await judge.judgeTrajectory(c.trajectory);
        const select = (rule: string) => isDeterministicRule(ir, rule);
        problems.push(...disagreements(c, judgment, select));
        metas += judgment.metaBehaviors.filter((m) => select(m.name)).length;
        if (judgment.metaBehaviors.every((m) => select(m.name))) files++;
      }
      expect(problems).toEqual([]);
      expect({ metas, files }).toEqual(want);
    }
  });
});
