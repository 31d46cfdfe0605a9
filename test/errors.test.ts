/**
 * How an error reaches the person: a UserError is its message and its exit
 * code, nothing more; anything else is a bug in behavior-judge and keeps its
 * stack. The CLI tells them apart with `instanceof`, so errors.ts must stay
 * free of imports (cli.ts loads it before any command).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { main } from "../compiler/cli.js";
import { JudgeYamlError, SpecError, type Diagnostic } from "../compiler/diagnostics.js";
import {
  EXIT_INVALID,
  EXIT_USAGE,
  InterviewCancelledError,
  JudgeLoadError,
  ModelCallError,
  SamplesError,
  UsageError,
  UserError,
} from "../compiler/errors.js";
import { ROOT, runCli } from "./support/cli.js";

// `build` is the command that throws whatever a test puts here.
const thrown = vi.hoisted(() => ({ error: undefined as unknown }));
vi.mock("../compiler/commands/build.js", () => ({
  buildJudgeFile: async () => {
    throw thrown.error;
  },
}));

const located: Diagnostic = { file: "judge.yaml", line: 1, col: 10, path: "version", severity: "error", message: "must be 1" };

describe("the user-facing errors", () => {
  test("are UserErrors with the exit code of their kind", () => {
    const cases: [UserError<unknown>, number][] = [
      [new UsageError("u"), EXIT_USAGE],
      [new JudgeLoadError("l"), EXIT_INVALID],
      [new SamplesError(["a.json: case 0: complete must be true or false"]), EXIT_INVALID],
      [new InterviewCancelledError(), EXIT_INVALID],
      [new ModelCallError("HTTP 401: bad key", 1), EXIT_INVALID],
      [new JudgeYamlError([located]), EXIT_INVALID],
      [
        new SpecError([{ ...located, file: "BEHAVIOR.md", path: "", code: "heading-empty", message: "an H2 heading needs text" }]),
        EXIT_INVALID,
      ],
    ];
    for (const [error, exitCode] of cases) {
      expect(error).toBeInstanceOf(UserError);
      expect(error.exitCode, error.name).toBe(exitCode);
    }
    expect(new UserError("plain").exitCode).toBe(EXIT_INVALID);
  });

  test("an error with diagnostics is one formatted line per diagnostic, and keeps them", () => {
    const second: Diagnostic = { ...located, line: 2, col: 11, path: "behavior", message: "must be a non-empty string" };
    const error = new JudgeYamlError([located, second]);
    expect(error.message).toBe("judge.yaml:1:10 error: version: must be 1\njudge.yaml:2:11 error: behavior: must be a non-empty string");
    expect(error.diagnostics).toEqual([located, second]);
    expect(new SamplesError(["a", "b"]).diagnostics).toEqual([]);
  });

  test("errors.ts imports nothing, so loading it up front costs the lazy commands nothing", () => {
    const source = readFileSync(join(ROOT, "compiler", "errors.ts"), "utf8");
    expect(source).not.toMatch(/^\s*(import|export)\b[^\n]*\bfrom\b|\bimport\s*\(|\brequire\s*\(/m);
  });
});

describe("the CLI", () => {
  let stderr: string;
  beforeEach(() => {
    stderr = "";
    process.exitCode = undefined;
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  async function exitCodeOf(error: unknown): Promise<number | string | undefined> {
    thrown.error = error;
    await main(["build", "judge.yaml"]);
    return process.exitCode;
  }

  test("prints a user error as one line with no stack and exits 1", async () => {
    expect(await exitCodeOf(new JudgeLoadError("notes.txt: a judge is a built judge.mjs or a judge.yaml"))).toBe(1);
    expect(stderr).toBe("behavior-judge: notes.txt: a judge is a built judge.mjs or a judge.yaml\n");
  });

  test("exits 2 for a usage error", async () => {
    expect(await exitCodeOf(new UsageError("baseline needs a model"))).toBe(2);
    expect(stderr).toBe("behavior-judge: baseline needs a model\n");
  });

  test("prints located diagnostics as they are, one per line, escaped", async () => {
    const hidden: Diagnostic = { ...located, line: 2, path: "behavior", message: 'unknown key "a\u202eb"' };
    expect(await exitCodeOf(new JudgeYamlError([located, hidden]))).toBe(1);
    expect(stderr).toBe('judge.yaml:1:10 error: version: must be 1\njudge.yaml:2:10 error: behavior: unknown key "a\\u202eb"\n');
  });

  test("a model call that failed is a user error too, not a crash", async () => {
    expect(await exitCodeOf(new ModelCallError("HTTP 401: invalid api key (after 3 attempts)", 3))).toBe(1);
    expect(stderr).toBe("behavior-judge: HTTP 401: invalid api key (after 3 attempts)\n");
  });

  test("keeps the stack of anything else: it is a bug", async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'checks')");
    expect(await exitCodeOf(bug)).toBe(1);
    expect(stderr).toBe(`behavior-judge: ${bug.stack}\n`);
    expect(stderr).toMatch(/\n\s+at /);
  });

  test("the installed command: bad samples read the same from lint and generate (it used to print them bare in lint)", () => {
    const bad = join(mkdtempSync(join(tmpdir(), "bj-errors-")), "bad.json");
    writeFileSync(bad, JSON.stringify({ id: "t", complete: "yes", events: [] }));
    const spec = join(ROOT, "examples", "refund-support");
    const expected = `behavior-judge: ${bad}: case 0: complete must be true or false\n`;
    const lint = runCli(["lint", spec, "--samples", bad]);
    expect([lint.status, lint.stderr]).toEqual([1, expected]);
    const generate = runCli(["generate", spec, bad, "--offline", "--no-web", "-o", join(bad, "..", "judge.yaml")]);
    expect([generate.status, generate.stderr]).toEqual([1, expected]);
  });

  test("the installed command: a usage error exits 2 with one line and no stack", () => {
    const spec = join(ROOT, "examples", "refund-support");
    const run = runCli(["baseline", spec, join(spec, "trajectories", "clean-single-refund.json")]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^behavior-judge: baseline needs a model; no model configured[^\n]*\n$/);
  });
});
