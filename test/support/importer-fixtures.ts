/** The recorded importer fixtures (test/fixtures/importers/<format>/), read as the CLI reads them. */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

export const IMPORTER_FIXTURES = join(import.meta.dirname, "..", "fixtures", "importers");
export const IMPORTER_GOLDEN = join(import.meta.dirname, "..", "golden", "importers");

/** A fixture file's value: JSON, or JSON Lines as the list of its lines (as the CLI hands them to an importer). */
export function readFixture(path: string): unknown {
  const text = readFileSync(path, "utf8");
  if (path.endsWith(".jsonl"))
    return text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as unknown);
  return JSON.parse(text) as unknown;
}

/** The fixture files of a format folder: recorded traces, not the notes or judges beside them. */
export function fixtureFiles(format: string): string[] {
  const dir = join(IMPORTER_FIXTURES, format);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.(jsonl?|traj)$/.test(f))
    .sort();
}
