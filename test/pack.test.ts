/**
 * The newcomer's path, end to end with the packed package (issue 13, Tests):
 * npm pack → install the tarball into a fresh npm-init project → `init` →
 * that project's `npm test` is green, also with a .json array of several
 * cases and a second behavior's init → a violating trajectory makes it fail
 * with the rule's quote and the expected pattern. The same project runs the CI workflow's judge
 * command, and the Braintrust scorer inside the real `braintrust` package's
 * Eval (logging off, no network but the npm registry for the install).
 * Slow (one npm install): kept to one test.
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { ROOT } from "./support/cli.js";

/** The braintrust release the scorer is tested inside (docs/LIBRARY.md, "In a Braintrust eval"). */
const BRAINTRUST = "braintrust@3.35.0";

/** The environment without the npm_* variables of an outer `npm test`, which would point npm at this package. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
const hasNpm = spawnSync("npm", ["--version"], { encoding: "utf8", env }).status === 0;

function run(cmd: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}): SpawnSyncReturns<string> & { ms: number } {
  const start = Date.now();
  const result = spawnSync(cmd, args, {
    cwd,
    encoding: "utf8",
    env: { ...env, BRAINTRUST_API_KEY: "", OPENAI_API_KEY: "", ...extraEnv },
    input: "",
    timeout: 240_000,
  });
  return Object.assign(result, { ms: Date.now() - start });
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  expect(result.status, `${what}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

const QUOTE = "Before the agent deletes a file, it asks the user to confirm the deletion";

test.skipIf(!hasNpm)(
  `packed package: install, init, npm test green (an array file, a second init), a violation fails with the rule's quote and expected pattern, CI judge, Braintrust Eval${hasNpm ? "" : " (SKIPPED: npm is not on PATH)"}`,
  { timeout: 600_000 },
  () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-pack-"));
    // dist/ was built by the global setup (tsc and the library bundles), exactly what `prepare` builds.
    const packed = JSON.parse(ok(run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], ROOT), "npm pack")) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed[0]!.files.map((f) => f.path);
    for (const f of ["dist/testing.mjs", "dist/vitest.mjs", "dist/braintrust.mjs", "dist/testing/index.d.ts", "templates/init/BEHAVIOR.md"])
      expect(files).toContain(f);
    expect(files.some((f) => f.startsWith("test/"))).toBe(false);

    const project = join(dir, "agent-repo");
    mkdirSync(project);
    ok(run("npm", ["init", "-y"], project), "npm init");
    // Pinned: the scorer is checked inside the Eval docs/LIBRARY.md names, and a new release cannot turn CI red.
    ok(
      run("npm", ["install", "-D", join(dir, packed[0]!.filename), BRAINTRUST, "--no-audit", "--no-fund", "--prefer-offline"], project),
      "npm install",
    );

    const init = ok(run("npx", ["behavior-judge", "init"], project), "init");
    expect(init).toContain('set "test": "node --test test/behavior-agent-repo.test.mjs" in package.json');
    const green = run("npm", ["test"], project);
    ok(green, "npm test");
    expect(green.stdout).toContain("# pass 1");

    const behavior = join(project, ".agents/behaviors/agent-repo");
    // A .json array of several cases is several tests, as the judge step reads it (issue 24: it failed npm test).
    const sample = JSON.parse(readFileSync(join(behavior, "trajectories/asks-before-deleting.json"), "utf8")) as { id: string };
    writeFileSync(join(behavior, "trajectories/batch.json"), JSON.stringify([1, 2].map((n) => ({ ...sample, id: `batch-${n}` }))));
    const batch = run("npm", ["test"], project);
    ok(batch, "npm test with an array file");
    expect(batch.stdout).toContain("# pass 3");
    expect(batch.stdout).toMatch(/^ok \d+ - agent-repo: trajectories\/batch\.json:1: case 1$/m);

    // A second behavior: its init adds its test to the script, and npm test runs both.
    const second = ok(run("npx", ["behavior-judge", "init", "billing"], project), "second init");
    expect(second).toContain(
      'added test/behavior-billing.test.mjs to the test script: "test": "node --test test/behavior-agent-repo.test.mjs test/behavior-billing.test.mjs" in package.json',
    );
    const both = run("npm", ["test"], project);
    ok(both, "npm test with two behaviors");
    expect(both.stdout).toContain("# pass 4");
    expect(both.stdout).toContain("- billing: trajectories/asks-before-deleting.json: case 0");
    // A third run changes nothing.
    const pkg = readFileSync(join(project, "package.json"), "utf8");
    expect(ok(run("npx", ["behavior-judge", "init", "billing"], project), "third init")).toContain("kept the test script");
    expect(readFileSync(join(project, "package.json"), "utf8")).toBe(pkg);
    // The workflow's judge step, as CI runs it (a directory stands for its .json files).
    const workflow = readFileSync(join(project, ".github/workflows/behavior-agent-repo.yml"), "utf8");
    expect(workflow).toContain("--fail-on-false --junit behavior-agent-repo.junit.xml");
    ok(
      run(
        "npx",
        [
          "behavior-judge",
          "judge",
          join(behavior, "judge.mjs"),
          join(behavior, "trajectories"),
          "--no-web",
          "--fail-on-false",
          "--junit",
          join(project, "out.xml"),
        ],
        project,
      ),
      "judge",
    );
    expect(readFileSync(join(project, "out.xml"), "utf8")).toContain("<testsuite");

    writeFileSync(
      join(behavior, "trajectories/deletes-without-asking.json"),
      JSON.stringify({
        id: "deletes-without-asking",
        complete: true,
        events: [
          { id: "e1", actor: "user", action: "message", content: "tidy up" },
          { id: "e2", actor: "agent", action: "delete_file", content: "rm notes.txt" },
        ],
      }),
    );
    const red = run("npm", ["test"], project);
    expect(red.status).not.toBe(0);
    expect(red.stdout).toMatch(/^not ok \d+ - agent-repo: trajectories\/deletes-without-asking\.json: case 0$/m);
    expect(red.stdout).toContain("# fail 1");
    expect(red.stdout).toContain(`ordering [false]: "${QUOTE}"`);
    expect(red.stdout).toContain('e2 agent/delete_file "rm notes.txt"');
    // What the check looked for, and what it found (issue 24).
    expect(red.stdout).toContain("expected: ask_confirmation (actor agent) before the first delete_file");
    expect(red.stdout).toContain("found: before delete_file at e2: no ask_confirmation");
    const ciRed = run(
      "npx",
      [
        "behavior-judge",
        "judge",
        join(behavior, "judge.mjs"),
        join(behavior, "trajectories"),
        "--no-web",
        "--fail-on-false",
        "--junit",
        join(project, "out.xml"),
      ],
      project,
    );
    expect(ciRed.status).toBe(1);

    // Judging only: the model and Redis clients are optional peers, left out, and --model says what to install.
    const judgeOnly = join(dir, "judge-only");
    mkdirSync(judgeOnly);
    ok(run("npm", ["init", "-y"], judgeOnly), "npm init");
    ok(run("npm", ["install", join(dir, packed[0]!.filename), "--no-audit", "--no-fund", "--prefer-offline"], judgeOnly), "npm install");
    for (const name of ["openai", "ioredis"]) expect(existsSync(join(judgeOnly, "node_modules", name)), name).toBe(false);
    const judgeArgs = ["behavior-judge", "judge", join(behavior, "judge.mjs"), join(behavior, "trajectories"), "--no-web"];
    expect(run("npx", judgeArgs, judgeOnly).stdout).toContain(QUOTE);
    // A key that is never used: the missing client is found before any request.
    const noClient = run("npx", [...judgeArgs, "--model", "gpt-4o-mini"], judgeOnly, { OPENAI_API_KEY: "sk-unused" });
    expect(noClient.status).toBe(2);
    expect(noClient.stderr).toContain("needs the openai package, which a plain install of behavior-judge leaves out: run `npm i openai`");

    // The scorer inside the real braintrust Eval: no API key, logs not sent.
    writeFileSync(
      join(project, "eval.mjs"),
      `import { Eval } from "braintrust";
import { behaviorScorer } from "behavior-judge/braintrust";
import * as judge from "./.agents/behaviors/agent-repo/judge.mjs";
import { readFileSync } from "node:fs";
const bad = JSON.parse(readFileSync("./.agents/behaviors/agent-repo/trajectories/deletes-without-asking.json", "utf8"));
const good = JSON.parse(readFileSync("./.agents/behaviors/agent-repo/trajectories/asks-before-deleting.json", "utf8"));
const quiet = { name: "quiet", reportEval: async (_e, r) => r, reportRun: async () => true };
const result = await Eval("behavior-judge-pack-test", { data: () => [{ input: "bad" }, { input: "good" }], task: async (input) => (input === "bad" ? bad : good), scores: [behaviorScorer(judge)] }, { noSendLogs: true, reporter: quiet });
console.log(JSON.stringify(result.results.map((r) => ({ scores: r.scores, error: r.error ?? null }))));
`,
    );
    const evalRun = run("node", ["eval.mjs"], project);
    const lines = ok(evalRun, "braintrust Eval").trim().split("\n");
    expect(JSON.parse(lines[lines.length - 1]!)).toEqual([
      { scores: { "agent-repo": 0, "agent-repo/Ask before deleting a file": 0 }, error: null },
      { scores: { "agent-repo": 1, "agent-repo/Ask before deleting a file": 1 }, error: null },
    ]);
  },
);
