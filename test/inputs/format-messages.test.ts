/**
 * Issue 24, messages: a .csv file is named as such (not a JSON syntax error
 * at 1:1), and an input no format fits points to the trajectory format in
 * docs/FORMATS.md §2.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { readCases } from "../../compiler/inputs/inputs.js";

async function firstError(name: string, text: string): Promise<string | undefined> {
  const file = join(mkdtempSync(join(tmpdir(), "bj-format-")), name);
  writeFileSync(file, text);
  for await (const c of readCases([file])) return c.error;
  return undefined;
}

test("a .csv file is named as CSV, with where the formats are", async () => {
  expect(await firstError("cases.csv", "id,actor,action\ne1,user,message\n")).toBe(
    "a .csv file: behavior-judge reads trajectories as JSON or JSONL (docs/FORMATS.md §2) and traces in the formats docs/IMPORTERS.md lists, not CSV",
  );
});

test("an unknown format points to the trajectory format in docs/FORMATS.md §2", async () => {
  expect(await firstError("odd.json", '{"foo": 1}')).toContain(
    "unknown trace format: not a trajectory (docs/FORMATS.md §2: id, complete, events with actor and action)",
  );
});
