/** The build cache of `judge judge.yaml`: a changed generator must never serve an old build. */
import { basename } from "node:path";
import { describe, expect, test } from "vitest";
import { generatorSources } from "../compiler/build-cache.js";

describe("build cache key", () => {
  test("covers the runtime, the code generator, the bundler step and the judge.d.ts template", () => {
    const names = generatorSources().map((file) => basename(file).replace(/\.js$/, ".ts"));
    for (const name of ["checks.ts", "judge.ts", "semantic.ts", "lower.ts", "match.ts", "quote.ts", "generate.ts", "build.ts", "bundle.ts", "judge.d.ts"]) {
      expect(names).toContain(name);
    }
  });
});
