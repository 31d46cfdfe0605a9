/**
 * `npm test` in a fresh clone must not depend on, or talk about, anything
 * outside the clone (issue 13, the first hour): a test that reads a folder
 * beside the repository skips in a user's clone and prints that folder's
 * absolute path. Every path a test builds from its own location must stay
 * inside the repository, and no test names a machine's absolute folders.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TEST = join(ROOT, "test");

function* testSources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== join(TEST, "fixtures") && path !== join(TEST, "golden")) yield* testSources(path);
    } else if (/\.(ts|mjs|js)$/.test(entry.name)) yield path;
  }
}

/** `join(import.meta.dirname, "..", "x")` and `new URL("../x", import.meta.url)`: where each points. */
function pathsFromOwnLocation(file: string, text: string): string[] {
  const paths: string[] = [];
  for (const m of text.matchAll(/join\(\s*import\.meta\.dirname((?:\s*,\s*"[^"]*")+)\s*\)/g)) {
    const parts = [...m[1]!.matchAll(/"([^"]*)"/g)].map((p) => p[1]!);
    paths.push(resolve(dirname(file), ...parts));
  }
  for (const m of text.matchAll(/new URL\(\s*"([^"]*)"\s*,\s*import\.meta\.url\s*\)/g)) paths.push(resolve(dirname(file), m[1]!));
  return paths;
}

test("no test reads outside the repository or names a machine's folders", () => {
  const outside: string[] = [];
  for (const file of testSources(TEST)) {
    const text = readFileSync(file, "utf8");
    const name = relative(ROOT, file);
    for (const path of pathsFromOwnLocation(file, text)) {
      if (path !== ROOT.replace(/[\\/]$/, "") && !path.startsWith(ROOT.endsWith(sep) ? ROOT : ROOT + sep)) outside.push(`${name}: ${path}`);
    }
    for (const m of text.matchAll(/["'`](\/(?:work|home|Users|root)\/[^"'`]*)["'`]/g)) outside.push(`${name}: ${m[1]}`);
  }
  expect(outside).toEqual([]);
});
