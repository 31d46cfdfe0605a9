/**
 * `behavior-judge init` (issue 13 item 1): a working behavior in the current
 * repo, without questions when stdin is not a terminal, never replacing a
 * file, with a test for the repo's runner and a CI workflow.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { parse as parseYaml } from "yaml";
import { defaultBehaviorName, planTestScript, runInit } from "../../compiler/commands/init.js";
import { ROOT, runCli } from "../support/cli.js";

function repo(pkg?: object): string {
  const dir = mkdtempSync(join(tmpdir(), "bj-init-"));
  if (pkg !== undefined) writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  return dir;
}
const NPM_INIT = { name: "shop-bot", version: "1.0.0", scripts: { test: 'echo "Error: no test specified" && exit 1' } };
const quiet = { interactive: false, log: () => {} };

/** Runs the repo's `node --test` file with behavior-judge resolved to this checkout (its dist/, built by the global setup). */
function runWrittenTest(dir: string, file: string) {
  if (!existsSync(join(dir, "node_modules/behavior-judge"))) {
    mkdirSync(join(dir, "node_modules"), { recursive: true });
    symlinkSync(ROOT, join(dir, "node_modules/behavior-judge"), "dir");
  }
  const run = spawnSync(process.execPath, ["--test", "--test-reporter=tap", file], { cwd: dir, encoding: "utf8", timeout: 60_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const trajectory = (id: string, events: object[]) => ({ id, complete: true, events });
const DELETES_WITHOUT_ASKING = trajectory("deletes-without-asking", [
  { id: "e1", actor: "user", action: "message", content: "tidy up" },
  { id: "e2", actor: "agent", action: "delete_file", content: "rm notes.txt" },
]);
const ASKS = trajectory("asks-first", [
  { id: "e1", actor: "agent", action: "ask_confirmation", content: "Delete notes.txt?" },
  { id: "e2", actor: "agent", action: "delete_file", content: "rm notes.txt" },
]);

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

  test("the written test reads the trajectories folder as `judge` does: an array file is several cases, JSONL lines, a chat log imported, a labeled case", async () => {
    const dir = repo(NPM_INIT);
    await runInit(undefined, { ...quiet, cwd: dir });
    const folder = join(dir, ".agents/behaviors/shop-bot/trajectories");
    // Before issue 24 the test parsed this file as one trajectory and failed `npm test`, while CI's judge step read two cases.
    writeFileSync(join(folder, "batch.json"), JSON.stringify([ASKS, { ...ASKS, id: "asks-again" }], null, 2));
    writeFileSync(
      join(folder, "lines.jsonl"),
      `${JSON.stringify({ ...ASKS, id: "line-1" })}\n${JSON.stringify({ ...ASKS, id: "line-2" })}\n`,
    );
    writeFileSync(
      join(folder, "labeled.json"),
      JSON.stringify({
        trajectory: DELETES_WITHOUT_ASKING,
        expected: { verdict: "false", metaBehaviorVerdicts: { "Ask before deleting a file": "false" } },
      }),
    );
    // An OpenAI chat log: imported, as judge imports it (the tool call is a delete_file action).
    writeFileSync(
      join(folder, "chat.json"),
      JSON.stringify([
        { role: "user", content: "remove notes.txt" },
        { role: "assistant", content: "Delete notes.txt?" },
        { role: "user", content: "yes" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "delete_file", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c1", content: "ok" },
      ]),
    );
    const green = runWrittenTest(dir, "test/behavior-shop-bot.test.mjs");
    expect(green.stdout).toContain("# tests 7");
    expect(green.stdout).toContain("# pass 6");
    // The chat log's agent asked in a message, not with ask_confirmation: it fails, as `judge` says it does.
    expect(green.stdout).toMatch(/^not ok \d+ - shop-bot: trajectories\/chat\.json: case 0$/m);
    for (const name of [
      "batch.json:2: case 0",
      "batch.json:20: case 1",
      "labeled.json: case 0",
      "lines.jsonl:1: case 0",
      "lines.jsonl:2: case 1",
    ])
      expect(green.stdout).toContain(`- shop-bot: trajectories/${name}`);
    const judge = runCli(
      ["judge", ".agents/behaviors/shop-bot/judge.mjs", ".agents/behaviors/shop-bot/trajectories", "--jsonl", "--no-web"],
      {
        cwd: dir,
      },
    );
    const verdicts = judge.stdout
      .trim()
      .split("\n")
      .flatMap((l) => (JSON.parse(l) as { verdict?: string }).verdict ?? []);
    expect(verdicts).toEqual(["true", "true", "true", "false", "false", "true", "true"]);

    // A broken file fails its own test, located; the others still run.
    writeFileSync(join(folder, "broken.json"), "{ oops");
    const red = runWrittenTest(dir, "test/behavior-shop-bot.test.mjs");
    expect(red.status).not.toBe(0);
    expect(red.stdout).toContain("# tests 8");
    expect(red.stdout).toMatch(/trajectories\/broken\.json:1:3: case 0: invalid JSON/);
  });

  test("the workflow's judge step runs (and writes JUnit) also when npm test failed, and the upload finds that file", async () => {
    const dir = repo(NPM_INIT);
    await runInit(undefined, { ...quiet, cwd: dir });
    const workflow = parseYaml(readFileSync(join(dir, ".github/workflows/behavior-shop-bot.yml"), "utf8")) as {
      jobs: Record<string, { steps: { name?: string; run?: string; uses?: string; if?: string; with?: Record<string, unknown> }[] }>;
    };
    const steps = Object.values(workflow.jobs)[0]!.steps;
    const test = steps.findIndex((s) => s.run === "npm test");
    const judge = steps.findIndex((s) => s.run?.startsWith("npx behavior-judge judge ") === true);
    const upload = steps.findIndex((s) => s.uses?.startsWith("actions/upload-artifact@") === true);
    expect(test).toBeGreaterThan(0);
    // After a failed step, GitHub skips every later step without an if: always().
    expect(judge > test ? steps[judge]!.if : "always()").toBe("always()");
    expect(upload).toBeGreaterThan(judge);
    expect(steps[upload]!.if).toBe("always()");
    const args = steps[judge]!.run!.split(/\s+/);
    const junit = args[args.indexOf("--junit") + 1];
    expect(junit).toBe("behavior-shop-bot.junit.xml");
    // Both steps run in the checkout's root (no working-directory): the upload's path is the judge's output.
    expect(steps[judge]).not.toHaveProperty("working-directory");
    expect(steps[upload]!.with!.path).toBe(junit);
    // The judge and folder it names are the ones init wrote.
    for (const path of args.slice(3, 5)) expect(existsSync(join(dir, path)), path).toBe(true);
    // Run as the step runs it, from the repo root: the JUnit file lands where the upload looks.
    const run = runCli(args.slice(2), { cwd: dir });
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(dir, junit!), "utf8")).toContain("<testsuite");
  });

  test("a second behavior's init adds its test to the script init wrote; a third run changes nothing; npm test runs both", async () => {
    const dir = repo(NPM_INIT);
    await runInit("shop-bot", { ...quiet, cwd: dir });
    const lines: string[] = [];
    const second = await runInit("billing", { interactive: false, cwd: dir, log: (l) => lines.push(l) });
    const both = "node --test test/behavior-shop-bot.test.mjs test/behavior-billing.test.mjs";
    expect(second.testScript).toBe(both);
    const pkgText = readFileSync(join(dir, "package.json"), "utf8");
    expect(JSON.parse(pkgText)).toEqual({ ...NPM_INIT, scripts: { test: both } });
    expect(lines).toContain(`added test/behavior-billing.test.mjs to the test script: "test": ${JSON.stringify(both)} in package.json`);
    expect(lines.join("\n")).not.toContain("make sure");
    // Idempotent: a third run (either behavior) leaves package.json byte for byte.
    for (const name of ["billing", "shop-bot"]) {
      const again: string[] = [];
      const third = await runInit(name, { interactive: false, cwd: dir, log: (l) => again.push(l) });
      expect(third.testScript).toBeUndefined();
      expect(third.written).toEqual([]);
      expect(again).toContain(`kept the test script ${JSON.stringify(both)} (it runs test/behavior-${name}.test.mjs)`);
      expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(pkgText);
    }
    // The script runs both behaviors' tests.
    if (!existsSync(join(dir, "node_modules/behavior-judge"))) {
      mkdirSync(join(dir, "node_modules"), { recursive: true });
      symlinkSync(ROOT, join(dir, "node_modules/behavior-judge"), "dir");
    }
    const run = spawnSync(process.execPath, ["--test-reporter=tap", ...both.split(" ").slice(1)], { cwd: dir, encoding: "utf8" });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toContain("- shop-bot: trajectories/asks-before-deleting.json: case 0");
    expect(run.stdout).toContain("- billing: trajectories/asks-before-deleting.json: case 0");
    expect(run.stdout).toContain("# pass 2");
  });

  test("a user's own test script is never rewritten: kept byte for byte, and said so; vitest run already runs every test", async () => {
    for (const script of [
      "jest",
      "node --test test/unit.test.mjs && eslint .",
      "node --test --watch test/a.test.mjs",
      "vitest run --coverage",
    ]) {
      const dir = repo({ name: "x", scripts: { test: script } });
      const before = readFileSync(join(dir, "package.json"), "utf8");
      const lines: string[] = [];
      const result = await runInit("triage", { interactive: false, cwd: dir, log: (l) => lines.push(l) });
      expect(result.testScript).toBeUndefined();
      expect(readFileSync(join(dir, "package.json"), "utf8"), script).toBe(before);
      expect(lines.join("\n")).toContain(`kept the test script ${JSON.stringify(script)} as it is (your own command): make sure it runs`);
    }
    // A plain node --test list the user wrote is extended, and the line says so.
    const listed = repo({ name: "x", scripts: { test: "node --test test/unit.test.mjs" } });
    const lines: string[] = [];
    await runInit("triage", { interactive: false, cwd: listed, log: (l) => lines.push(l) });
    expect(JSON.parse(readFileSync(join(listed, "package.json"), "utf8")).scripts.test).toBe(
      "node --test test/unit.test.mjs test/behavior-triage.test.mjs",
    );
    expect(lines.join("\n")).toContain("added test/behavior-triage.test.mjs to the test script");
    // vitest run finds every *.test.mjs: a second behavior needs nothing.
    const vitestRepo = repo({ name: "x", devDependencies: { vitest: "^4" } });
    await runInit("triage", { ...quiet, cwd: vitestRepo });
    const vitestLines: string[] = [];
    await runInit("billing", { interactive: false, cwd: vitestRepo, log: (l) => vitestLines.push(l) });
    expect(vitestLines).toContain('kept the test script "vitest run" (it runs test/behavior-billing.test.mjs)');
    // `node --test` alone runs every test file it finds.
    expect(planTestScript("node --test", "node:test", "test/behavior-x.test.mjs").script).toBeUndefined();
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
    expect(lines.join("\n")).toContain(
      'kept the test script "jest" as it is (your own command): make sure it runs test/behavior-triage.test.mjs too, e.g. add " && node --test test/behavior-triage.test.mjs"',
    );
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

/** Every entry under `dir` (symlinks not followed): its kind and its bytes or link target. */
function snapshot(dir: string, rel = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const path = join(rel, name);
    const stat = lstatSync(join(dir, path));
    if (stat.isSymbolicLink()) out[path] = `symlink -> ${readlinkSync(join(dir, path))}`;
    else if (stat.isDirectory()) Object.assign(out, { [path]: "dir" }, snapshot(dir, path));
    else out[path] = `file ${readFileSync(join(dir, path)).toString("base64")}`;
  }
  return out;
}

// Item 18 (issue 20): odd files made init crash half-way (a scaffold written,
// then a raw TypeError or EEXIST) or rewrite package.json into nonsense.
describe("init with odd files: one clear line, every file left as it was", () => {
  const odd: [string, (dir: string) => void, string][] = [
    [
      "package.json of null",
      (dir) => writeFileSync(join(dir, "package.json"), "null\n"),
      "init: package.json holds null, not an object; fix it and rerun init",
    ],
    [
      "package.json of a string",
      (dir) => writeFileSync(join(dir, "package.json"), '"shop-bot"\n'),
      "init: package.json holds a string, not an object; fix it and rerun init",
    ],
    [
      "package.json of [1]",
      (dir) => writeFileSync(join(dir, "package.json"), "[1]\n"),
      "init: package.json holds an array, not an object; fix it and rerun init",
    ],
    [
      '"scripts": "oops"',
      (dir) => writeFileSync(join(dir, "package.json"), '{ "name": "shop-bot", "scripts": "oops" }\n'),
      'init: "scripts" in package.json is a string, not an object of script names and commands; fix it and rerun init',
    ],
    [
      '"devDependencies": ["vitest"]',
      (dir) => writeFileSync(join(dir, "package.json"), '{ "name": "shop-bot", "devDependencies": ["vitest"] }\n'),
      'init: "devDependencies" in package.json is an array, not an object of package names and versions; fix it and rerun init',
    ],
    [
      "a dangling .gitignore symlink",
      (dir) => {
        writeFileSync(join(dir, "package.json"), `${JSON.stringify(NPM_INIT)}\n`);
        symlinkSync("missing-ignore-file", join(dir, ".gitignore"));
      },
      "init: .gitignore is a symlink to missing-ignore-file, which does not exist; fix or remove it and rerun init",
    ],
    [
      ".agents being a file",
      (dir) => {
        writeFileSync(join(dir, "package.json"), `${JSON.stringify(NPM_INIT)}\n`);
        writeFileSync(join(dir, ".agents"), "notes\n");
      },
      "init: .agents is a file, not a folder: init writes .agents/behaviors/shop-bot/ inside it; move it and rerun init",
    ],
    [
      "a dangling symlink where the workflow goes",
      (dir) => {
        writeFileSync(join(dir, "package.json"), `${JSON.stringify(NPM_INIT)}\n`);
        mkdirSync(join(dir, ".github/workflows"), { recursive: true });
        symlinkSync("../../nowhere.yml", join(dir, ".github/workflows/behavior-shop-bot.yml"));
      },
      "init: .github/workflows/behavior-shop-bot.yml is a symlink to ../../nowhere.yml, which does not exist; fix or remove it and rerun init",
    ],
  ];

  test.each(odd)("item 18: %s", async (_name, arrange, message) => {
    const dir = repo();
    arrange(dir);
    const before = snapshot(dir);
    const error = await runInit(undefined, { ...quiet, cwd: dir }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.name).toBe("UserError");
    expect(error?.message).toBe(message);
    expect(snapshot(dir)).toEqual(before);
  });

  test("item 18: the CLI prints the one line, exit 1, and writes nothing", () => {
    const dir = repo();
    writeFileSync(join(dir, "package.json"), '{ "name": "shop-bot", "scripts": "oops" }\n');
    const before = snapshot(dir);
    const run = runCli(["init"], { cwd: dir, input: "" });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain('"scripts" in package.json is a string');
    expect(snapshot(dir)).toEqual(before);
  });

  test("item 18: a package.json with a byte-order mark is read as npm reads it, and keeps its mark and its other bytes' meaning", async () => {
    const dir = repo();
    const text = `\ufeff${JSON.stringify(NPM_INIT, null, 2)}\n`;
    writeFileSync(join(dir, "package.json"), text);
    const result = await runInit(undefined, { ...quiet, cwd: dir });
    expect(result.name).toBe("shop-bot");
    const after = readFileSync(join(dir, "package.json"), "utf8");
    expect(after.startsWith("\ufeff{\n")).toBe(true);
    expect(JSON.parse(after.slice(1))).toEqual({ ...NPM_INIT, scripts: { test: "node --test test/behavior-shop-bot.test.mjs" } });
  });

  test("item 18: a .gitignore symlink to a real file is followed (the line lands in the file it points to)", async () => {
    const dir = repo(NPM_INIT);
    writeFileSync(join(dir, "shared-ignore"), "node_modules/\n");
    symlinkSync("shared-ignore", join(dir, ".gitignore"));
    expect((await runInit(undefined, { ...quiet, cwd: dir })).gitignore).toBe("added");
    expect(readFileSync(join(dir, "shared-ignore"), "utf8")).toBe("node_modules/\n.cache/\n");
    expect(lstatSync(join(dir, ".gitignore")).isSymbolicLink()).toBe(true);
  });
});
