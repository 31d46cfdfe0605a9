/**
 * `judge` as a filter (docs/SCALE.md "Streams: judge as a filter"): `--jsonl`
 * writes one line per input case, in input order, as each is judged; `-`
 * reads the trajectories from stdin.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { BIN, ROOT, runCli } from "../support/cli.js";

const REFUND = join(ROOT, "examples", "refund-support");
const JUDGE = join(REFUND, "judge.mjs");
const refundCases = (): string[] =>
  readdirSync(join(REFUND, "trajectories"))
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => join(REFUND, "trajectories", f));

const trajectory = (id: string, action: string) => ({ id, complete: true, events: [{ id: "e1", actor: "agent", action }] });

/** A .jsonl with a good line, a broken one, a blank one and a failing one: every kind of line out. */
function mixedJsonl(): string {
  const dir = mkdtempSync(join(tmpdir(), "bj-stream-"));
  const file = join(dir, "mixed.jsonl");
  const lines = [
    JSON.stringify(trajectory("a", "lookup_order")),
    '{"id": "b", "complete": tru}',
    "",
    JSON.stringify(trajectory("c", "issue_refund")),
  ];
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

describe("judge --jsonl", () => {
  test("line i is --json's element i (judgments and case errors), with the same stderr and exit code", () => {
    const files = [...refundCases(), mixedJsonl()];
    for (const extra of [[], ["--fail-on-false"]]) {
      const json = runCli(["judge", JUDGE, ...files, "--json", ...extra]);
      const jsonl = runCli(["judge", JUDGE, ...files, "--jsonl", ...extra]);
      const lines = jsonl.stdout.split("\n");
      expect(lines.pop()).toBe("");
      const elements = JSON.parse(json.stdout) as unknown[];
      expect(lines).toHaveLength(elements.length);
      expect(lines.map((l) => JSON.parse(l))).toEqual(elements);
      // Compact: one line each, nothing pretty-printed.
      expect(lines.every((l) => l === JSON.stringify(JSON.parse(l)))).toBe(true);
      expect(jsonl.stderr).toBe(json.stderr);
      expect(jsonl.status).toBe(json.status);
    }
    const failing = runCli(["judge", JUDGE, ...files, "--jsonl", "--fail-on-false"]);
    expect(failing.status).toBe(1);
  });

  test("--jsonl with --json is a usage error (exit 2)", () => {
    const run = runCli(["judge", JUDGE, refundCases()[0]!, "--json", "--jsonl"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--jsonl.*cannot be used with.*--json/);
    expect(run.stdout).toBe("");
  });
});

describe("judge - (stdin)", () => {
  test('JSON Lines on stdin: the same lines out as for the file, with file "-"', () => {
    const file = mixedJsonl();
    const fromFile = runCli(["judge", JUDGE, file, "--jsonl"]);
    const fromStdin = runCli(["judge", JUDGE, "-", "--jsonl"], { input: readFileSync(file, "utf8") });
    expect(fromStdin.status).toBe(fromFile.status);
    const parse = (out: string) =>
      out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { file: string });
    expect(parse(fromStdin.stdout)).toEqual(parse(fromFile.stdout).map((e) => ({ ...e, file: "-" })));
    expect(fromStdin.stderr).toBe(fromFile.stderr.split(file).join("-"));
  });

  test("a JSON array on stdin, between files, in argument order; calibrate reads stdin too", () => {
    const [first, second, third] = refundCases();
    const array = `[${[second!, third!].map((f) => readFileSync(f, "utf8")).join(",")}]`;
    const run = runCli(["judge", JUDGE, first!, "-", first!, "--json"], { input: array });
    expect(run.status).toBe(0);
    const elements = JSON.parse(run.stdout) as { file: string; case: number; trajectoryId: string }[];
    const separately = JSON.parse(runCli(["judge", JUDGE, first!, second!, third!, first!, "--json"]).stdout) as { trajectoryId: string }[];
    expect(elements.map((e) => [e.file, e.case])).toEqual([
      [first, 0],
      ["-", 0],
      ["-", 1],
      [first, 0],
    ]);
    expect(elements.map((e) => e.trajectoryId)).toEqual(separately.map((e) => e.trajectoryId));
    const calibrated = runCli(["calibrate", JUDGE, "-"], { input: array });
    expect(calibrated.status).toBe(0);
    expect(calibrated.stdout).toContain("2/2");
  });

  test("- twice is a usage error (exit 2)", () => {
    const run = runCli(["judge", JUDGE, "-", "-", "--jsonl"], { input: "" });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("- (stdin) may be given only once");
  });

  test("a filter: each line's judgment comes out before the next line goes in", async () => {
    const child = spawn(process.execPath, [BIN, "judge", JUDGE, "-", "--jsonl"], {
      cwd: ROOT,
      env: { ...process.env, BRAINTRUST_API_KEY: "", OPENAI_API_KEY: "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    let out = "";
    let waiting: (() => void) | undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      waiting?.();
    });
    const lines = () => out.split("\n").length - 1;
    const untilLines = (n: number) =>
      new Promise<void>((resolve, reject) => {
        if (lines() >= n) return resolve();
        waiting = () => {
          if (lines() >= n) resolve();
        };
        child.once("close", () => reject(new Error(`the judge ended with ${lines()} lines of output, waiting for ${n}`)));
      });
    const ids = ["one", "two", "three"];
    for (let i = 0; i < ids.length; i++) {
      child.stdin.write(`${JSON.stringify(trajectory(ids[i]!, "lookup_order"))}\n`);
      // Stdin stays open: the line can only come out if the judge answers as it reads.
      await untilLines(i + 1);
    }
    child.stdin.end();
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearTimeout(timer);
    expect(status).toBe(0);
    expect(
      out
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { trajectoryId: string }).trajectoryId),
    ).toEqual(ids);
  });
});
