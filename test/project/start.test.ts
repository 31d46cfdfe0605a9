/**
 * `npm start` (scripts/start.js) on a machine with no model key: the tax
 * example's calibration cannot agree on the labels only a model decides, so
 * it prints DIFF lines. They must not be the last word: right under them a
 * line says they are expected and what to do, and the run ends with a
 * summary per example (issue 13, the first hour). It runs in a copy of the
 * examples, so it never rewrites the repository's judge.mjs files while other
 * tests read them.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { ROOT } from "../support/cli.js";

const copy = mkdtempSync(join(tmpdir(), "bj-start-"));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

test("npm start explains its DIFF lines right under them and ends with a summary per example", () => {
  // start.js finds the repository from its own path; bin/ resolves to this repository's dist/.
  mkdirSync(join(copy, "scripts"));
  copyFileSync(join(ROOT, "scripts", "start.js"), join(copy, "scripts", "start.js"));
  symlinkSync(join(ROOT, "bin"), join(copy, "bin"));
  cpSync(join(ROOT, "examples"), join(copy, "examples"), { recursive: true });
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  const run = spawnSync(process.execPath, [join(copy, "scripts", "start.js")], {
    cwd: copy,
    encoding: "utf8",
    env: { ...env, BRAINTRUST_API_KEY: "", OPENAI_API_KEY: "" },
    timeout: 300_000,
  });
  expect(run.status).toBe(0);
  const lines = run.stdout.split("\n");
  const lastDiff = lines.map((l) => l.startsWith("DIFF ")).lastIndexOf(true);
  expect(lastDiff).toBeGreaterThan(0);
  // After the DIFF block and its agreement line, the next words are the explanation.
  const after = lines.slice(lastDiff + 1).filter((l) => l !== "" && !/^(ok|DIFF) |^ {5}/.test(l));
  expect(after[0]).toMatch(/^meta agreement \d+\/\d+, file agreement \d+\/\d+$/);
  expect(after[1]).toMatch(
    /^\^ These DIFFs are expected without a model: .* Set BRAINTRUST_API_KEY \(or OPENAI_API_KEY\) and rerun npm start/,
  );
  expect(after.slice(2, 7)).toEqual([
    "Summary:",
    "  refund-support: every label agrees",
    "  staged-rollout: every label agrees",
    "  airline-cancellations: every label agrees",
    "  tax-research: DIFF on the labels only a model can decide (no model key set; expected, see above)",
  ]);
}, 300_000);
