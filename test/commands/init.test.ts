/**
 * `behavior-judge init` (issue 13 item 1): a working behavior in the current
 * repo, without questions when stdin is not a terminal, never replacing a
 * file, with a test for the repo's runner and a CI workflow.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { defaultBehaviorName, runInit } from "../../compiler/commands/init.js";
import { runCli } from "../support/cli.js";

function repo(pkg?: object): string {
  const dir = mkdtempSync(join(tmpdir(), "bj-init-"));
  if (pkg !== undefined) writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  return dir;
}
const NPM_INIT = { name: "shop-bot", version: "1.0.0", scripts: { test: 'echo "Error: no test specified" && exit 1' } };
const quiet = { interactive: false, log: () => {} };

describe("init", () => {
  test("scaffolds spec, judge, sample, node:test file, test script and workflow in an npm-init repo; the judge passes the sample", async () => {
    const dir = repo(NPM_INIT);
    const result = await runInit(undefined, { ...quiet, cwd: dir });
    expect(result.name).toBe("shop-bot");
    expect(result.runner).toBe("node:test");
    expect(result.written).toEqual([
      ".agents/behaviors/shop-bot/BEHAVIOR.md",
      ".agents/behaviors/shop-bot/judge.yaml",
      ".agents/behaviors/shop-bot/judge.mjs",
      ".agents/behaviors/shop-bot/judge.d.mts",
      ".agents/behaviors/shop-bot/trajectories/asks-before-deleting.json",
      "test/behavior-shop-bot.test.mjs",
      ".github/workflows/behavior-shop-bot.yml",
    ]);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(pkg.scripts.test).toBe("node --test test/behavior-shop-bot.test.mjs");
    expect(pkg.version).toBe("1.0.0");
    const judge = await import(pathToFileURL(join(dir, ".agents/behaviors/shop-bot/judge.mjs")).href);
    const sample = JSON.parse(readFileSync(join(dir, ".agents/behaviors/shop-bot/trajectories/asks-before-deleting.json"), "utf8"));
    expect((await judge.judgeTrajectory(sample)).verdict).toBe("true");
    expect(judge.behavior).toBe("shop-bot");
    expect(readFileSync(join(dir, "test/behavior-shop-bot.test.mjs"), "utf8")).toContain('import { test } from "node:test";');
    const workflow = readFileSync(join(dir, ".github/workflows/behavior-shop-bot.yml"), "utf8");
    expect(workflow).toContain(
      "npx behavior-judge judge .agents/behaviors/shop-bot/judge.mjs .agents/behaviors/shop-bot/trajectories --no-web --fail-on-false --junit behavior-shop-bot.junit.xml",
    );
    expect(workflow).toContain("- run: npm install\n");
    // The spec and judge.yaml line up (lint is clean).
    const lint = runCli(["lint", join(dir, ".agents/behaviors/shop-bot/BEHAVIOR.md")]);
    expect(lint.stderr).toBe("");
    expect(lint.status).toBe(0);
  });

  test("vitest in devDependencies: a vitest test file and `vitest run`; a lock file makes CI use npm ci", async () => {
    const dir = repo({ name: "x", devDependencies: { vitest: "^4" } });
    writeFileSync(join(dir, "package-lock.json"), "{}");
    const result = await runInit("triage", { ...quiet, cwd: dir });
    expect(result.runner).toBe("vitest");
    expect(readFileSync(join(dir, "test/behavior-triage.test.mjs"), "utf8")).toContain('import { test } from "vitest";');
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).scripts.test).toBe("vitest run");
    expect(readFileSync(join(dir, ".github/workflows/behavior-triage.yml"), "utf8")).toContain("- run: npm ci\n");
  });

  test("never overwrites: existing files and a real test script are kept byte for byte", async () => {
    const dir = repo({ name: "x", scripts: { test: "jest" } });
    mkdirSync(join(dir, ".agents/behaviors/triage"), { recursive: true });
    writeFileSync(join(dir, ".agents/behaviors/triage/BEHAVIOR.md"), "mine");
    const before = readFileSync(join(dir, "package.json"), "utf8");
    const lines: string[] = [];
    const result = await runInit("triage", { interactive: false, cwd: dir, log: (l) => lines.push(l) });
    expect(result.kept).toEqual([".agents/behaviors/triage/BEHAVIOR.md"]);
    expect(readFileSync(join(dir, ".agents/behaviors/triage/BEHAVIOR.md"), "utf8")).toBe("mine");
    expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(before);
    expect(lines).toContain("kept .agents/behaviors/triage/BEHAVIOR.md (exists)");
    expect(lines.join("\n")).toContain('kept the test script "jest": make sure it runs test/behavior-triage.test.mjs');
    // A second run writes nothing.
    expect((await runInit("triage", { ...quiet, cwd: dir })).written).toEqual([]);
  });

  test("puts .cache/ in .gitignore: a new file when there is none", async () => {
    const dir = repo(NPM_INIT);
    const lines: string[] = [];
    const result = await runInit(undefined, { interactive: false, cwd: dir, log: (l) => lines.push(l) });
    expect(result.gitignore).toBe("created");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe(".cache/\n");
    expect(lines).toContain("wrote .gitignore with .cache/ (behavior-judge's caches)");
  });

  test("appends .cache/ to an existing .gitignore, keeping every other line byte for byte, and only once", async () => {
    const dir = repo(NPM_INIT);
    writeFileSync(join(dir, ".gitignore"), "node_modules\r\n# build output\r\ndist");
    const result = await runInit(undefined, { ...quiet, cwd: dir });
    expect(result.gitignore).toBe("added");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("node_modules\r\n# build output\r\ndist\r\n.cache/\r\n");
    expect((await runInit(undefined, { ...quiet, cwd: dir })).gitignore).toBe("kept");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("node_modules\r\n# build output\r\ndist\r\n.cache/\r\n");
  });

  test("leaves a .gitignore that already ignores the cache folder alone", async () => {
    for (const line of ["/.cache", ".cache", ".cache/**"]) {
      const dir = repo(NPM_INIT);
      writeFileSync(join(dir, ".gitignore"), `node_modules/\n${line}\n`);
      expect((await runInit(undefined, { ...quiet, cwd: dir })).gitignore).toBe("kept");
      expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe(`node_modules/\n${line}\n`);
    }
  });

  test("a bad name is one clear error, and nothing is written", async () => {
    const dir = repo(NPM_INIT);
    await expect(runInit("Bad Name", { ...quiet, cwd: dir })).rejects.toThrow(
      'behavior name "Bad Name" must be lowercase letters, digits and dashes',
    );
    expect(existsSync(join(dir, ".agents"))).toBe(false);
  });

  test("default names come from package.json (scope dropped) or the folder", () => {
    expect(defaultBehaviorName("@acme/Support_Bot", "/x")).toBe("support-bot");
    expect(defaultBehaviorName(undefined, "/tmp/My Agent")).toBe("my-agent");
    expect(defaultBehaviorName(undefined, "/tmp/___")).toBe("agent");
  });

  test("the CLI runs without questions when stdin is not a terminal", () => {
    const dir = repo(NPM_INIT);
    const run = runCli(["init"], { cwd: dir, input: "" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("wrote .agents/behaviors/shop-bot/BEHAVIOR.md");
    expect(run.stdout).not.toContain("Behavior name");
  });
});
