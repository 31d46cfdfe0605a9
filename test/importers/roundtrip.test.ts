/**
 * Round trips through the real CLI (IMPORTERS.md, issue 10 "Done when"):
 * `behavior-judge judge <judge.yaml> <raw trace files>` gives the verdicts a
 * person expects, with no conversion step; and `import` followed by `judge`
 * on its output gives the same judgments.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { IMPORTER_FIXTURES, fixtureFiles } from "../support/importer-fixtures.js";

interface Expected {
  judge: string;
  files: Record<string, { id: string; verdict: string; rules: Record<string, string> }[]>;
}

interface Judgment {
  trajectoryId: string;
  verdict: string;
  metaBehaviors: { name: string; verdict: string; naReason: string | null }[];
}

function summarize(j: Judgment): Expected["files"][string][number] {
  return { id: j.trajectoryId, verdict: j.verdict, rules: Object.fromEntries(j.metaBehaviors.map((m) => [m.name, m.naReason !== null ? `na (${m.naReason})` : m.verdict])) };
}

const VERDICTS = join(import.meta.dirname, "verdicts");

for (const format of ["openai-chat", "openai-responses", "anthropic", "vercel-ai"]) {
  describe(format, () => {
    const expected = JSON.parse(readFileSync(join(VERDICTS, `${format}.json`), "utf8")) as Expected;
    const judge = join(IMPORTER_FIXTURES, expected.judge);
    const files = fixtureFiles(format);
    const paths = files.map((f) => join(IMPORTER_FIXTURES, format, f));

    test("judge reads every fixture as it is and gives the expected verdicts", () => {
      expect(Object.keys(expected.files).sort()).toEqual(files);
      const run = runCli(["judge", judge, ...paths, "--json", "--no-verify", "--no-web"]);
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      const judgments = (JSON.parse(run.stdout) as Judgment[]).map(summarize);
      expect(judgments).toEqual(files.flatMap((f) => expected.files[f]!));
    });

    test("import, then judge the imported trajectories: the same judgments", () => {
      const out = join(mkdtempSync(join(tmpdir(), "bj-import-")), "all.jsonl");
      const imported = runCli(["import", ...paths, "-o", out]);
      expect(imported.status).toBe(0);
      expect(imported.stderr).toMatch(/^wrote .*all\.jsonl: \d+ trajector(y|ies), \d+ events\n$/);
      const direct = runCli(["judge", judge, ...paths, "--json", "--no-verify", "--no-web"]);
      const viaImport = runCli(["judge", judge, out, "--json", "--no-verify", "--no-web", "--from", "trajectory"]);
      expect(viaImport.status).toBe(0);
      expect(viaImport.stdout).toBe(direct.stdout);
    });
  });
}
