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

// @ts-expect-error a plain JS recording helper, without types
const { NEUTRAL_ROOT, scrubPaths } = (await import("../../scripts/record-fixtures/scrub-paths.mjs")) as {
  NEUTRAL_ROOT: string;
  scrubPaths(text: string, root?: string): string;
};

describe("recorded fixtures name no path of the machine that recorded them", () => {
  test("the recording scripts' scrubPaths rewrites the checkout in plain paths and file URLs, and nothing else", () => {
    const text = "at f (file:///srv/repo/scripts/x.mjs:1:2)\n at g (/srv/repo/node_modules/y.js:3:4) /srv/repo-2/z /srv/repo";
    expect(scrubPaths(text, "/srv/repo")).toBe(
      `at f (file://${NEUTRAL_ROOT}/scripts/x.mjs:1:2)\n at g (${NEUTRAL_ROOT}/node_modules/y.js:3:4) /srv/repo-2/z ${NEUTRAL_ROOT}`,
    );
  });

  test.each(formats.flatMap((format) => fixtureFiles(format).map((file) => join(format, file))))(
    "%s: stack frames point under the neutral root",
    (file) => {
      const text = readFileSync(join(FIXTURES, file), "utf8");
      // A frame is "at fn (/abs/path:line:col)", "at /abs/path:line:col" or a file URL.
      const paths = [...text.matchAll(/(?:file:\/\/|\(|\bat )(\/[^\s:()"\\]+)/g)].map((m) => m[1]!);
      expect(paths.filter((path) => !path.startsWith(`${NEUTRAL_ROOT}/`))).toEqual([]);
    },
  );
});

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
        const goldenPath = join(GOLDEN, format, file.replace(/\.(jsonl?|traj)$/, ".jsonl"));
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
