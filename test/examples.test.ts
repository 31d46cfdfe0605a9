/**
 * The project's own examples: every labeled case judged by the in-process
 * compiled module and by the bundled judge.mjs loaded from a folder with no
 * node_modules. Deterministic examples must agree with every label; the
 * tax example on every rule that needs no model. The committed judge.mjs
 * must be what `build` produces today.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { disagreements, isDeterministicRule, loadCorpus } from "./support/corpus.js";

const EXAMPLES = join(import.meta.dirname, "..", "examples");

describe.each(["refund-support", "staged-rollout", "tax-research", "airline-cancellations"])("examples/%s", (name) => {
  const dir = join(EXAMPLES, name);
  const corpus = loadCorpus(dir);

  test("the committed judge.mjs is up to date", async () => {
    expect(readFileSync(join(dir, "judge.mjs"), "utf8")).toBe((await corpus).judgeMjs);
  });

  test("every labeled case agrees, both loadings give identical judgments", async () => {
    const { ir, judges, cases } = await corpus;
    const deterministicOnly = ir.metaBehaviors.every((m) => isDeterministicRule(ir, m.name));
    if (deterministicOnly) expect(cases.length).toBeGreaterThanOrEqual(9);
    const problems: string[] = [];
    let compared = 0;
    for (const c of cases) {
      const results = [];
      for (const { judge } of judges) results.push(await judge.judgeTrajectory(c.trajectory));
      expect(JSON.stringify(results[1])).toBe(JSON.stringify(results[0]));
      problems.push(...disagreements(c, results[0]!, (rule) => isDeterministicRule(ir, rule)));
      compared++;
    }
    expect(problems).toEqual([]);
    expect(compared).toBe(cases.length);
  });
});
