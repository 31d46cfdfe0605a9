/**
 * Round trips through the real CLI (IMPORTERS.md, issue 10 "Done when"), for
 * every format of FORMATS: `behavior-judge judge <judge.yaml> <raw trace
 * files>` gives the verdicts a person expects (verdicts/<format>.json, checked
 * by hand against each fixture), with no conversion step; so does the built
 * judge.mjs; and `import` followed by `judge` on its output gives the same
 * judgments.
 */
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { FORMATS } from "../../importers/index.js";
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
  return {
    id: j.trajectoryId,
    verdict: j.verdict,
    rules: Object.fromEntries(j.metaBehaviors.map((m) => [m.name, m.naReason !== null ? `na (${m.naReason})` : m.verdict])),
  };
}

const VERDICTS = join(import.meta.dirname, "verdicts");

/** `behavior-judge build` of a judge.yaml, once per file (several formats share a judge). */
const builds = new Map<string, string>();
function built(judgeYaml: string): string {
  let mjs = builds.get(judgeYaml);
  if (mjs === undefined) {
    mjs = join(mkdtempSync(join(tmpdir(), "bj-judge-")), "judge.mjs");
    const run = runCli(["build", judgeYaml, "-o", mjs]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    builds.set(judgeYaml, mjs);
  }
  return mjs;
}

test("every format has its expected verdicts", () => {
  // A format added to FORMATS without verdicts would skip its round trip.
  expect(readdirSync(VERDICTS).sort()).toEqual(FORMATS.map((f) => `${f.name}.json`).sort());
});

for (const format of FORMATS.map((f) => f.name)) {
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

    test("the built judge.mjs gives the same verdicts on the first fixture", () => {
      const run = runCli(["judge", built(judge), paths[0]!, "--json", "--no-verify", "--no-web"]);
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      expect((JSON.parse(run.stdout) as Judgment[]).map(summarize)).toEqual(expected.files[files[0]!]);
    });

    test("import, then judge the imported trajectories: the same judgments", () => {
      const out = join(mkdtempSync(join(tmpdir(), "bj-import-")), "all.jsonl");
      const imported = runCli(["import", ...paths, "-o", out]);
      expect(imported.status).toBe(0);
      expect(imported.stderr).toMatch(/^wrote .*all\.jsonl: \d+ trajector(y|ies), \d+ events\n$/);
      const direct = runCli(["judge", judge, ...paths, "--json", "--no-verify", "--no-web"]);
      const viaImport = runCli(["judge", judge, out, "--json", "--no-verify", "--no-web", "--from", "trajectory"]);
      expect(viaImport.status).toBe(0);
      // The same judgments; each says which input it came from (the traces, or the imported file).
      const judgments = (stdout: string) =>
        (JSON.parse(stdout) as Record<string, unknown>[]).map(({ file: _file, case: _case, ...judgment }) => judgment);
      expect(judgments(viaImport.stdout)).toEqual(judgments(direct.stdout));
      expect((JSON.parse(viaImport.stdout) as { file: string }[]).every((j) => j.file === out)).toBe(true);
    });
  });
}
