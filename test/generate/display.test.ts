/**
 * `generate` without `--no-web` on a machine with no display (an SSH
 * session, a container, CI) must not serve a page nobody can open and wait
 * forever: like `judge`, it checks for a display, and without one asks in
 * the terminal. Whenever it does serve the page, the URL is printed first.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canShowBrowser } from "../../compiler/web/display.js";
import { BIN, ROOT } from "../support/cli.js";
import { EXAMPLE_DIRS, trajectoryFiles } from "./drafting-fixtures.js";

const REFUND = EXAMPLE_DIRS[0]!;
const refundCases = trajectoryFiles(REFUND);

/** The environment of the test run without any display or browser variable. */
function headlessEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !["DISPLAY", "WAYLAND_DISPLAY", "BROWSER"].includes(key)) env[key] = value;
  }
  return { ...env, BRAINTRUST_API_KEY: "", OPENAI_API_KEY: "", ...extra };
}

describe("the display check", () => {
  it("is the same check for judge and generate: a display variable on Linux, always on macOS and Windows", () => {
    expect(canShowBrowser({}, "linux")).toBe(false);
    expect(canShowBrowser({ DISPLAY: "" }, "linux")).toBe(false);
    expect(canShowBrowser({ DISPLAY: ":0" }, "linux")).toBe(true);
    expect(canShowBrowser({ WAYLAND_DISPLAY: "wayland-0" }, "freebsd")).toBe(true);
    expect(canShowBrowser({ BROWSER: "w3m" }, "linux")).toBe(true);
    expect(canShowBrowser({}, "darwin")).toBe(true);
    expect(canShowBrowser({}, "win32")).toBe(true);
  });
});

describe("generate on a machine without a display", () => {
  it("falls back to the terminal interview instead of serving a page and waiting (stdin not a TTY: the draft is taken)", () => {
    const out = join(mkdtempSync(join(tmpdir(), "bj-generate-display-")), "judge.yaml");
    const started = Date.now();
    // A bounded wait: before the fix this run never ended on its own.
    const run = spawnSync(process.execPath, [BIN, "generate", join(REFUND, "BEHAVIOR.md"), ...refundCases, "--offline", "-o", out], {
      cwd: ROOT,
      encoding: "utf8",
      env: headlessEnv(),
      input: "",
      timeout: 30_000,
    });
    expect(run.signal).toBeNull();
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(run.stderr).not.toContain("http://127.0.0.1");
    expect(run.stderr).toContain("no display");
    expect(run.stderr).toContain("asking in the terminal");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^wrote .*judge\.yaml: 4 rules/);
    expect(existsSync(out)).toBe(true);
  });

  it("with a display it serves the page and prints its URL before it waits", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "bj-generate-display-")), "judge.yaml");
    const child = spawn(process.execPath, [BIN, "generate", join(REFUND, "BEHAVIOR.md"), ...refundCases, "--offline", "-o", out], {
      cwd: ROOT,
      env: headlessEnv({ DISPLAY: ":99" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = "";
        const timer = setTimeout(() => reject(new Error(`no URL printed; stderr: ${stderr}`)), 30_000);
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          stderr += chunk;
          const match = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(stderr);
          if (match !== null) {
            clearTimeout(timer);
            resolve(match[0]);
          }
        });
        child.on("exit", () => reject(new Error(`exited without serving; stderr: ${stderr}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(existsSync(out)).toBe(false);
    } finally {
      child.kill();
    }
  });
});
