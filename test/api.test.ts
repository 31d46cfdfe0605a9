/** The library entry (package.json "main") exposes the pipeline end to end. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import * as api from "../compiler/index.js";

test("parse → compile → import → judge → calibrate through the library API", async () => {
  const dir = join(import.meta.dirname, "..", "examples", "staged-rollout");
  const text = readFileSync(join(dir, "judge.yaml"), "utf8");
  const parsed = api.parseJudgeYaml(text);
  if (!parsed.ok) throw new Error(parsed.diagnostics.map(api.formatDiagnostic).join("\n"));
  const compiled = await api.compileIR(parsed.ir, text);
  expect(compiled.irSha256).toBe(api.sha256(text));
  const judge = await api.importJudgeSource(compiled.judgeMjs);
  expect(judge.behavior).toBe("staged-rollout");
  const files = [join(dir, "trajectories", "clean-three-stage-rollout.json")];
  const result = await api.calibrate(judge, api.readCases(files));
  expect(api.calibrationPassed(result)).toBe(true);
  expect(result.totals.fileTotal).toBe(1);
  expect(JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")).version).toBe(api.VERSION);
});
