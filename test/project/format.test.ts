/**
 * The project's own code keeps one layout (.prettierrc.json): `npm run format`
 * rewrites it, this test fails on a file that was not formatted. Generated,
 * recorded and templated files are listed in .prettierignore.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { check, getFileInfo, resolveConfig } from "prettier";
import { expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FOLDERS = ["compiler", "runtime", "importers", "testing", "test", "bench", "scripts", "bin"];

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|js|mjs)$/.test(entry.name)) yield path;
  }
}

test("the project's code is formatted with its prettier config", async () => {
  const unformatted: string[] = [];
  const ignorePath = join(ROOT, ".prettierignore");
  for (const folder of FOLDERS) {
    for (const file of sourceFiles(join(ROOT, folder))) {
      if ((await getFileInfo(file, { ignorePath })).ignored) continue;
      const options = { ...(await resolveConfig(file)), filepath: file };
      if (!(await check(readFileSync(file, "utf8"), options))) unformatted.push(relative(ROOT, file));
    }
  }
  expect(unformatted, "run `npm run format`").toEqual([]);
}, 120_000);
