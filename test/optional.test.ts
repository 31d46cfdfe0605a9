/**
 * Issue 24, install weight: the model and Redis clients are optional peer
 * dependencies, left out of `npm i behavior-judge`. A command that needs one
 * says which package to install, as a usage error, before it starts; the
 * packed-install test (test/pack.test.ts) runs it where openai is absent.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { EXIT_USAGE, UserError } from "../compiler/errors.js";
import { OPTIONAL_PACKAGES, requireInstalled } from "../compiler/optional.js";
import { ROOT } from "./support/cli.js";

test("a missing optional package is a usage error naming what needs it and the install command", () => {
  const missing = () => false;
  for (const name of ["openai", "ioredis"] as const) {
    let error: unknown;
    try {
      requireInstalled(name, missing);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).exitCode).toBe(EXIT_USAGE);
    expect((error as Error).message).toBe(
      `${OPTIONAL_PACKAGES[name]} needs the ${name} package, which a plain install of behavior-judge leaves out: run \`npm i ${name}\` in this project`,
    );
  }
  expect(() => requireInstalled("openai")).not.toThrow();
  expect(() => requireInstalled("ioredis")).not.toThrow();
});

test("package.json: openai and ioredis are optional peers (and dev dependencies for the tests), not dependencies", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  for (const name of Object.keys(OPTIONAL_PACKAGES)) {
    expect(pkg.dependencies[name]).toBeUndefined();
    expect(pkg.peerDependencies[name]).toBeDefined();
    expect(pkg.peerDependenciesMeta[name]).toEqual({ optional: true });
    expect(pkg.peerDependencies[name]).toBe(`^${pkg.devDependencies[name]}`);
  }
});
