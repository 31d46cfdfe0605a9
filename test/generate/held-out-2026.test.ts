/**
 * The held-out-2026 set is only worth its figures if its hand-written judges are right: each
 * checks against its spec (quotes verbatim, names equal) and agrees with every hand label.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { runInProcess } from "../support/in-process.js";
import { HELD_OUT_2026_DIRS, loadReferenceCase, trajectoryFiles } from "./drafting-fixtures.js";

describe("the held-out-2026 specs", () => {
  it("are the eleven specs in the folder", () => {
    expect(HELD_OUT_2026_DIRS.map((d) => basename(d))).toEqual(readdirSync(join(HELD_OUT_2026_DIRS[0]!, "..")).sort());
  });
  for (const dir of HELD_OUT_2026_DIRS) {
    it(`${basename(dir)}: the hand-written judge lints clean and agrees with every label`, async () => {
      const lint = await runInProcess("lint", join(dir, "BEHAVIOR.md"), join(dir, "judge.yaml"));
      // Lint's only warnings on a hand-written judge: sentences it leaves unquoted (issue 25).
      expect(lint.stdout).toMatch(/^(?:ok|0 errors, \d+ warnings?): checked /m);
      expect(
        (lint.stdout + lint.stderr)
          .split("\n")
          .filter((l) => /:\d+:\d+ (?:error|warning): /.test(l) && !/warning: uncovered-sentence:/.test(l)),
      ).toEqual([]);
      expect(lint.code).toBe(0);
      const run = await runInProcess("calibrate", join(dir, "judge.yaml"), ...trajectoryFiles(dir));
      expect(run.stdout).toMatch(/meta agreement (\d+)\/\1, file agreement (\d+)\/\2/);
      expect(run.code).toBe(0);
    }, 60_000);
  }
});

describe("the offline draft accepted as proposed, on the held-out-2026 labels", () => {
  it("agrees on at least 331 of the 347 rule verdicts (issue 14 asks for 80%; the first pair written blind went from 35/80 out of sample to 80/80 once the drafter was changed looking at them; the second pair, never shown to whoever changed it, from 64/80 to 66/80)", () => {
    // previewJudge gives the built judge's verdicts (test/generate/preview.test.ts), without a compile per spec.
    let agree = 0;
    let total = 0;
    for (const dir of HELD_OUT_2026_DIRS) {
      const c = loadReferenceCase(dir);
      const draft = draftOffline({ spec: c.spec, vocabulary: c.vocabulary, samples: c.samples });
      const preview = previewJudge(draft.ir, c.samples);
      const labeled = trajectoryFiles(dir).flatMap(
        (f) =>
          JSON.parse(readFileSync(f, "utf8")) as {
            trajectory: { id: string };
            expected: { metaBehaviorVerdicts: Record<string, string> };
          }[],
      );
      for (const { trajectory, expected } of labeled) {
        for (const rule of preview.rules) {
          const verdict = rule.rule.pass.includes(trajectory.id) ? "true" : rule.rule.fail.includes(trajectory.id) ? "false" : "na";
          total++;
          if (expected.metaBehaviorVerdicts[rule.name] === verdict) agree++;
        }
      }
    }
    expect(total).toBe(347);
    expect(agree).toBeGreaterThanOrEqual(331);
  });
});
