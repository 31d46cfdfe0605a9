/**
 * behavior-judge/guard as shipped: one file with no imports at all (the
 * judge.mjs it is given is its only dependency), whose guards work from it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";

// @ts-expect-error a plain JS build script, without types
const { bundleLibrary, LIBRARIES } = (await import("../../scripts/bundle-importers.js")) as {
  bundleLibrary(library: { source: string; external: string[]; header: string }): Promise<string>;
  LIBRARIES: { source: string; out: string; external: string[]; header: string }[];
};

test("the guard entry bundles with no imports, and refuses a call from the bundle", async () => {
  const library = LIBRARIES.find((l) => l.source === "guard/index.ts")!;
  expect(library.external).toEqual([]);
  const text = await bundleLibrary(library);
  expect(text).not.toMatch(/^\s*import\b/m);
  expect(text).not.toMatch(/\bimport\(/);
  const dir = mkdtempSync(join(tmpdir(), "guard-bundle-"));
  writeFileSync(join(dir, library.out), text);
  const guard = (await import(pathToFileURL(join(dir, library.out)).href)) as typeof import("../../guard/index.js");
  const judge = (await import(
    pathToFileURL(join(import.meta.dirname, "..", "..", "examples", "refund-support", "judge.mjs")).href
  )) as import("../../guard/index.js").GuardJudge;
  const session = new guard.SessionGuard(judge, { id: "bundle", log: false });
  const refused = session.call("issue_refund", { order_id: "A-1" }, "c1");
  expect(refused.allowed).toBe(false);
  expect(refused.allowed ? "" : refused.message).toMatch(
    /^\[behavior-judge guard\] issue_refund was not run: it would break rule "Look up the order/,
  );
  expect(session.call("get_order", { order_id: "A-1" }, "c2").allowed).toBe(true);
});
