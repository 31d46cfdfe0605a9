/**
 * Golden files: for each fixture judge.yaml the exact judge.ts is committed
 * and compared byte for byte. Refresh them deliberately with
 * `npm run golden:update` and review the diff: users diff their judge.mjs too.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { compileYaml } from "./support/judges.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "golden");
const GOLDEN = join(import.meta.dirname, "golden");
const update = process.env.UPDATE_GOLDEN === "1";

describe("golden judge.ts", () => {
  for (const name of readdirSync(FIXTURES)
    .filter((f) => f.endsWith(".yaml"))
    .sort()) {
    test(name, async () => {
      const text = readFileSync(join(FIXTURES, name), "utf8");
      const { compiled } = await compileYaml(text, name);
      const goldenPath = join(GOLDEN, name.replace(/\.yaml$/, ".judge.ts"));
      if (update) writeFileSync(goldenPath, compiled.judgeTs);
      expect(compiled.judgeTs).toBe(readFileSync(goldenPath, "utf8"));
    });
  }

  test("building twice gives byte-identical judge.ts and judge.mjs", async () => {
    const text = readFileSync(join(FIXTURES, "all-checks.yaml"), "utf8");
    const a = await compileYaml(text);
    const b = await compileYaml(text);
    expect(b.compiled.judgeTs).toBe(a.compiled.judgeTs);
    expect(b.compiled.judgeMjs).toBe(a.compiled.judgeMjs);
  });
});
