/**
 * `judge … | head -1`: a reader that closes its end of the pipe early must
 * not crash the CLI with an unhandled EPIPE. The run ends quietly, with the
 * exit code it would have had anyway, and still writes its report files.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { BIN, ROOT, runCli } from "../support/cli.js";

const REFUND = join(ROOT, "examples", "refund-support");
const refundCases = (): string[] =>
  readdirSync(join(REFUND, "trajectories"))
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => join(REFUND, "trajectories", f));

interface EarlyClose {
  status: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** What the reader got before it closed. */
  read: string;
}

/**
 * Spawns the CLI with stdout piped to a reader that keeps `keep` bytes (0:
 * closes at once, before the first write) and then closes the pipe.
 */
function runWithEarlyClose(args: string[], keep: number): Promise<EarlyClose> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, BRAINTRUST_API_KEY: "", OPENAI_API_KEY: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let read = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    if (keep === 0) child.stdout.destroy();
    else
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        read += chunk;
        if (read.length >= keep) child.stdout.destroy();
      });
    child.on("error", reject);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stderr, read });
    });
  });
}

describe("a closed stdout", () => {
  test("judge --json with the reader gone before the first write: no EPIPE crash, usual exit code, reports still written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-pipe-"));
    const html = join(dir, "report.html");
    const args = ["judge", join(REFUND, "judge.mjs"), ...refundCases(), "--json", "--html", html];
    const full = runCli(args);
    expect(full.status).toBe(0);
    const run = await runWithEarlyClose(args, 0);
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
    expect(run.stderr).toBe(full.stderr);
    expect(run.signal).toBeNull();
    expect(run.status).toBe(full.status);
    expect(existsSync(html)).toBe(true);
  });

  test("text output larger than the pipe, read one line like head -1: the exit code is the usual one (1 for --fail-on-false)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-pipe-"));
    // A few thousand trajectories, some failing, make far more output than a pipe buffers.
    const lines = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({
        id: `t${i}`,
        complete: true,
        events: [{ id: "e1", actor: "agent", action: i % 2 === 0 ? "issue_refund" : "lookup_order" }],
      }),
    );
    writeFileSync(join(dir, "many.jsonl"), `${lines.join("\n")}\n`);
    const args = ["judge", join(REFUND, "judge.mjs"), join(dir, "many.jsonl"), "--fail-on-false"];
    const full = runCli(args);
    expect(full.stdout.length).toBeGreaterThan(1 << 18); // a pipe buffers 64 KiB
    expect(full.status).toBe(1);
    const run = await runWithEarlyClose(args, 1);
    expect(run.read.length).toBeLessThan(full.stdout.length);
    expect(run.stderr).toBe("");
    expect(run.signal).toBeNull();
    expect(run.status).toBe(1);
  });
});
