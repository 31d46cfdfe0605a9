/**
 * What `judge` loads at start-up (issue 26): a plain run loads the renderer of
 * its own output mode and nothing that only other runs need: not the model
 * layer without a model, not the reports without --html/--junit/the browser,
 * not the judge.yaml reader for a judge.mjs. Through the real CLI (dist/),
 * with every module the process resolves recorded: a static import of any of
 * these, added back anywhere on the way, makes it load again.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { ROOT, runCli } from "../support/cli.js";

const TRACER = pathToFileURL(join(ROOT, "test", "support", "trace-imports.mjs")).href;
const DIST = pathToFileURL(join(ROOT, "dist")).href + "/";
const REFUND = join(ROOT, "examples", "refund-support");
const JUDGE = join(REFUND, "judge.mjs");
/** A session every rule passes or does not apply to: nothing for verify-on-false to ask a model. */
const PASSING = join(REFUND, "trajectories", "clean-single-refund.json");

const dir = mkdtempSync(join(tmpdir(), "bj-startup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The modules of the model layer, the reports and the other output modes that a plain text run must not load. */
/** run/sample.js (with node:crypto) only with --sample. */
const MODEL = [
  "compiler/model/index.js",
  "compiler/model/answer-cache.js",
  "compiler/model/openai.js",
  "compiler/optional.js",
  "compiler/run/sample.js",
];
const REPORTS = ["compiler/report/outputs.js", "compiler/analyses/label.js", "compiler/web/display.js", "compiler/report/html.js"];
const OTHERS = ["compiler/build/judge-yaml.js", "compiler/report/json.js", "compiler/files/atomic-write.js"];

let runs = 0;
/** `judge` with `args` after the judge and the passing session: its exit code, stdout, and the dist/ modules it loaded. */
function judge(args: string[]): { status: number | null; stdout: string; stderr: string; loaded: string[]; builtins: string[] } {
  const trace = join(dir, `trace-${++runs}.txt`);
  writeFileSync(trace, "");
  const run = runCli(["judge", JUDGE, PASSING, "--workers", "1", ...args], {
    nodeArgs: ["--import", TRACER],
    env: { BJ_TRACE_FILE: trace },
  });
  const urls = new Set(readFileSync(trace, "utf8").split("\n"));
  const loaded = [...urls].filter((url) => url.startsWith(DIST)).map((url) => url.slice(DIST.length));
  return { ...run, loaded, builtins: [...urls].filter((url) => url.startsWith("node:")) };
}

describe("a plain judge run loads only what it uses", () => {
  test("text: the text renderer, and none of the model layer, the reports, the JSON renderer or the judge.yaml reader", () => {
    const run = judge([]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("1 trajectory judged: 1 true");
    expect(run.loaded).toContain("compiler/report/text.js");
    expect(run.loaded).toContain("compiler/model/config.js"); // whether a model is configured is still read
    for (const module of [...MODEL, ...REPORTS, ...OTHERS]) expect(run.loaded).not.toContain(module);
    // Node's own modules that only other runs use (--sample's hash; a judge.yaml or a spec read with fs/promises).
    expect(run.builtins).toContain("node:fs");
    for (const module of ["node:crypto", "node:fs/promises"]) expect(run.builtins).not.toContain(module);
  });

  test("--json and --jsonl: the JSON renderer instead of the text one", () => {
    for (const mode of ["--json", "--jsonl"]) {
      const run = judge([mode]);
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('"verdict":');
      expect(run.loaded).toContain("compiler/report/json.js");
      for (const module of ["compiler/report/text.js", ...MODEL, ...REPORTS]) expect(run.loaded).not.toContain(module);
    }
  });

  test("what a run asks for still loads: the reports with --junit, the model layer with a model configured", () => {
    const junit = judge(["--junit", join(dir, "r.xml")]);
    expect(junit.status).toBe(0);
    expect(readFileSync(join(dir, "r.xml"), "utf8")).toContain("<testsuites");
    expect(junit.loaded).toEqual(expect.arrayContaining(["compiler/report/outputs.js", "compiler/analyses/label.js"]));
    // Nothing is sent: every rule passes, so verify-on-false has nothing to ask.
    const model = judge(["--base-url", "http://127.0.0.1:9/v1", "--no-cache"]);
    expect(model.status).toBe(0);
    expect(model.loaded).toEqual(expect.arrayContaining(["compiler/model/index.js", "compiler/model/openai.js", "compiler/optional.js"]));
    // The answer cache loads with the model (its cache is on by default).
    expect(judge(["--base-url", "http://127.0.0.1:9/v1"]).loaded).toContain("compiler/model/answer-cache.js");
  });
});

test("lint without samples loads none of the trajectory readers; with samples it does", () => {
  const lint = (args: string[]): string[] => {
    const trace = join(dir, `trace-${++runs}.txt`);
    writeFileSync(trace, "");
    const run = runCli(["lint", join(REFUND, "BEHAVIOR.md"), ...args], { nodeArgs: ["--import", TRACER], env: { BJ_TRACE_FILE: trace } });
    expect(run.status, run.stderr).toBe(0);
    return [...new Set(readFileSync(trace, "utf8").split("\n"))].filter((url) => url.startsWith(DIST)).map((url) => url.slice(DIST.length));
  };
  const readers = ["compiler/generate/samples.js", "compiler/inputs/inputs.js"];
  const plain = lint([]);
  expect(plain).toContain("compiler/behavior-md/lint.js");
  for (const module of readers) expect(plain).not.toContain(module);
  expect(lint(["--samples", PASSING])).toEqual(expect.arrayContaining(readers));
});
