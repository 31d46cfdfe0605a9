/**
 * The held-out-2026 set is only worth its figures if its hand-written judges are right: each
 * checks against its spec (quotes verbatim, names equal) and agrees with every hand label.
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../support/in-process.js";
import { HELD_OUT_2026_DIRS, trajectoryFiles } from "./drafting-fixtures.js";

describe("the held-out-2026 specs", () => {
  it("are the six specs in the folder", () => {
    expect(HELD_OUT_2026_DIRS.map((d) => basename(d))).toEqual(readdirSync(join(HELD_OUT_2026_DIRS[0]!, "..")).sort());
  });
  for (const dir of HELD_OUT_2026_DIRS) {
    it(`${basename(dir)}: the hand-written judge lints clean and agrees with every label`, async () => {
      const lint = await runInProcess("lint", join(dir, "BEHAVIOR.md"), join(dir, "judge.yaml"));
      expect(lint.stdout).toMatch(/^ok: checked /);
      expect(lint.stdout + lint.stderr).not.toMatch(/ (error|warning): /);
      expect(lint.code).toBe(0);
      const run = await runInProcess("calibrate", join(dir, "judge.yaml"), ...trajectoryFiles(dir));
      expect(run.stdout).toMatch(/meta agreement (\d+)\/\1, file agreement (\d+)\/\2/);
      expect(run.code).toBe(0);
    }, 60_000);
  }
});
