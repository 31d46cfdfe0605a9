/**
 * Golden trajectories of every recorded fixture (IMPORTERS.md): each file of
 * test/fixtures/importers/<format>/ imports, byte for byte, to
 * test/golden/importers/<format>/<file>.jsonl. Refresh with
 * `npm run golden:importers` (UPDATE_GOLDEN=1) and read the diff.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { validateTrajectory } from "../../runtime/trajectory.js";
import { FORMATS, detectFormat, findFormat, importTrace } from "../../importers/index.js";
import { IMPORTER_FIXTURES as FIXTURES, IMPORTER_GOLDEN as GOLDEN, fixtureFiles, readFixture } from "../support/importer-fixtures.js";

const update = process.env.UPDATE_GOLDEN === "1";

function render(trajectories: readonly unknown[]): string {
  return trajectories.map((t) => `${JSON.stringify(t)}\n`).join("");
}

const formats = FORMATS.map((f) => f.name).filter((name) => fixtureFiles(name).length > 0);

test("every format has recorded fixtures", () => {
  // A format added to FORMATS without fixtures would silently skip its goldens.
  expect(formats.sort()).toEqual(FORMATS.map((f) => f.name).sort());
});

for (const format of formats) {
  describe(format, () => {
    for (const file of fixtureFiles(format)) {
      test(`${file} imports to its golden trajectories, the same bytes twice, detected as ${format}`, () => {
        const input = readFixture(join(FIXTURES, format, file));
        const result = findFormat(format)!.importer(input);
        expect(result.errors).toEqual([]);
        expect(result.warnings).toEqual([]);
        expect(result.trajectories.length).toBeGreaterThan(0);
        for (const t of result.trajectories) expect(validateTrajectory(t)).toEqual(t);
        const text = render(result.trajectories);
        const goldenPath = join(GOLDEN, format, file.replace(/\.jsonl?$/, ".jsonl"));
        if (update) {
          mkdirSync(join(GOLDEN, format), { recursive: true });
          writeFileSync(goldenPath, text);
        }
        expect(text).toBe(readFileSync(goldenPath, "utf8"));
        // Importing again (a fresh parse) gives identical bytes.
        expect(render(findFormat(format)!.importer(readFixture(join(FIXTURES, format, file))).trajectories)).toBe(text);
        // Auto-detection picks this format and imports the same.
        expect(detectFormat(input).format).toBe(format);
        expect(render(importTrace(input).trajectories)).toBe(text);
      });
    }
  });
}
