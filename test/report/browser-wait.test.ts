/**
 * `judge` on an interactive terminal with DISPLAY set serves the report and
 * waits for a browser to show it. With no usable browser (a DISPLAY that no X
 * server answers, an opener that hangs) it used to wait forever; now the URL
 * is printed before the first trajectory is judged and the wait ends on its
 * own (issue 13, the first hour).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { reportSinks } from "../../compiler/report/outputs.js";
import { runSinks } from "../../compiler/report/sink.js";
import { Tally } from "../../compiler/analyses/tally.js";
import type { CaseResult } from "../../compiler/run/judge-cases.js";
import { BIN, ROOT } from "../support/cli.js";

const dir = mkdtempSync(join(tmpdir(), "bj-browser-wait-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A bin folder whose `xdg-open` runs `body` (a POSIX shell script), first on PATH. */
function fakeOpener(name: string, body: string): string {
  const bin = join(dir, name);
  rmSync(bin, { recursive: true, force: true });
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, "xdg-open"), 0o755);
  return bin;
}

function envWith(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !["WAYLAND_DISPLAY", "BROWSER"].includes(key)) env[key] = value;
  }
  return { ...env, BRAINTRUST_API_KEY: "", OPENAI_API_KEY: "", ...extra };
}

describe("judge with DISPLAY set and no usable browser", () => {
  it("prints the URL before judging and ends without waiting once the opener fails (as xdg-open does with a dead DISPLAY)", () => {
    // `script` gives the command a terminal, so judge serves the report as it would for a person.
    const bin = fakeOpener("failing", "exit 4");
    const transcript = join(dir, "failing.txt");
    const judge = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} judge examples/refund-support/judge.mjs examples/refund-support/trajectories`;
    const started = Date.now();
    const run = spawnSync("script", ["-qec", judge, transcript], {
      cwd: ROOT,
      encoding: "utf8",
      env: envWith({ DISPLAY: ":99", PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` }),
      input: "",
      timeout: 30_000,
    });
    expect(run.error, "util-linux's `script` runs the command on a terminal").toBeUndefined();
    // Before the fix the run waited for a browser that never came, until killed.
    expect(run.signal).toBeNull();
    expect(Date.now() - started).toBeLessThan(30_000);
    // The transcript's first line is script's header, which repeats the command.
    const output = readFileSync(transcript, "utf8").split("\n").slice(1).join("\n");
    const url = output.search(/report: http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    expect(url).toBeGreaterThanOrEqual(0);
    // The first trajectory's report comes after the URL.
    expect(url).toBeLessThan(output.indexOf("refund-"));
    expect(output).toContain("report: no browser could be opened (xdg-open exited with code 4); not waiting");
    expect(output).toContain("12 trajectories judged");
  });

  it("stops waiting after the bound when the opener hangs and no page ever asks for the report", async () => {
    const pidFile = join(dir, "hanging.pid");
    const bin = fakeOpener("hanging", `echo $$ > ${JSON.stringify(pidFile)}\nexec sleep 60`);
    const path = process.env.PATH;
    const display = process.env.DISPLAY;
    process.env.PATH = `${bin}${delimiter}${path ?? ""}`;
    process.env.DISPLAY = ":99";
    let stderr = "";
    const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
    try {
      const sinks = await reportSinks("b", [], { web: true, browserWaitMs: 300 });
      expect(stderr).toMatch(/^report: http:\/\/127\.0\.0\.1:\d+\/\?token=\S+\n$/);
      const judged: CaseResult = {
        kind: "judged",
        input: { file: "t.json", index: 0, trajectory: { id: "t1", complete: true, events: [] } },
        judgment: { behavior: "b", trajectoryId: "t1", verdict: "true", metaBehaviors: [] },
      };
      const started = Date.now();
      expect(await runSinks([judged], sinks, new Tally())).toEqual([]);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(stderr).toContain("report: waiting up to 300 ms for the browser to show the final report");
      expect(stderr).toContain("report: no browser showed the report within 300 ms; stopped waiting");
    } finally {
      err.mockRestore();
      process.env.PATH = path;
      if (display === undefined) delete process.env.DISPLAY;
      else process.env.DISPLAY = display;
      try {
        process.kill(Number(readFileSync(pidFile, "utf8")));
      } catch {
        // Not started, or already gone.
      }
    }
  });
});
