/**
 * `judge --workers N` on one JSONL file (run/ranges.ts): each worker reads a
 * byte range of the file itself. The outputs are byte for byte one thread's
 * in every mode, whatever the ranges, on a file with every kind of line;
 * errors name the file's own line numbers; a worker that dies costs only the
 * lines it was judging. The workers run the build (dist/), which the test
 * setup compiles first.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { Tally } from "../../compiler/analyses/tally.js";
import { byteLines } from "../../compiler/files/byte-lines.js";
import { readCaseBatches } from "../../compiler/inputs/inputs.js";
import { jsonlSink, jsonSink } from "../../compiler/report/json.js";
import { progressSink } from "../../compiler/report/progress.js";
import { runSinks, type OutputSink } from "../../compiler/report/sink.js";
import { textSink } from "../../compiler/report/text.js";
import { judgeCaseBatches, type OutputRender } from "../../compiler/run/judge-cases.js";
import { loadJudgeCode } from "../../compiler/run/load.js";
import { planRanges } from "../../compiler/run/range-plan.js";
import { judgeRanges } from "../../compiler/run/ranges.js";
import { runCli } from "../support/cli.js";

const REFUND = join(import.meta.dirname, "..", "..", "examples", "refund-support");
const JUDGE = join(REFUND, "judge.mjs");

async function* chunks(bytes: Buffer): AsyncGenerator<Uint8Array> {
  yield bytes;
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "bj-ranges-"));
}

/** The refund example's trajectories, bare. */
function trajectories(): { id: string }[] {
  return readdirSync(join(REFUND, "trajectories"))
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => (JSON.parse(readFileSync(join(REFUND, "trajectories", f), "utf8")) as { trajectory: { id: string } }).trajectory);
}

/**
 * A JSONL file with every kind of line, its line breaks "\n", "\r\n" and a
 * lone "\r": a BOM, bare trajectories and labeled cases, blank lines and a
 * line of Unicode white space (blank too, which the ranges' guess of case
 * numbers counts as a case), invalid JSON, invalid UTF-8, a trajectory the
 * judge rejects, ids in several scripts (multi-byte UTF-8, so byte ranges
 * cut near them), a line far longer than the others, chat logs (imported
 * together at the file's end) and a last line without a line break.
 */
function mixedJsonl(dir: string): { file: string; lines: number } {
  const all = trajectories();
  const chat = JSON.stringify(JSON.parse(readFileSync(join(REFUND, "traces", "chat-log.json"), "utf8")));
  const lines: (string | Buffer)[] = [];
  all.forEach((t, i) => {
    const named = { ...t, id: `${t.id}-é—😀-${i}` };
    lines.push(JSON.stringify(i % 2 === 0 ? { trajectory: named, expected: { verdict: "true" } } : named));
    if (i % 3 === 0) lines.push("   ");
    if (i === 1) lines.push("\u00a0\u2003");
    if (i === 3) lines.push(JSON.stringify({ ...t, id: `long-${"ü".repeat(3000)}` }));
    if (i === 4) lines.push(chat);
    if (i === 5) lines.push('{"id": "broken", "events": [}');
    if (i === 6) lines.push(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]));
    if (i === 7) lines.push(JSON.stringify({ id: "no-events" }));
  });
  lines.push(chat);
  lines.push(JSON.stringify({ ...all[0], id: "last, unended" }));
  const breaks = (i: number) => (i === lines.length - 1 ? "" : i % 5 === 1 ? "\r\n" : i === 8 ? "\r" : "\n");
  const parts = lines.flatMap((line, i) => [i === 0 ? Buffer.from("\uFEFF") : Buffer.alloc(0), Buffer.from(line), Buffer.from(breaks(i))]);
  const file = join(dir, "mixed.jsonl");
  writeFileSync(file, Buffer.concat(parts));
  return { file, lines: lines.length };
}

/** The stdout and stderr sinks of `judge` in `mode`, writing to strings. */
function outputs(mode: OutputRender): { sinks: OutputSink[]; out: () => { stdout: string; stderr: string } } {
  let stdout = "";
  let stderr = "";
  const write = (text: string) => void (stdout += text);
  const writeErr = (text: string) => void (stderr += text);
  const usage = { usage: false };
  const main =
    mode === "jsonl" ? jsonlSink(write, writeErr, usage) : mode === "json" ? jsonSink(write, writeErr, usage) : textSink(write, usage);
  return { sinks: [progressSink(writeErr, { tty: false }), main], out: () => ({ stdout, stderr }) };
}

const RULES = async () => (await loadJudgeCode(JUDGE)).judge.rules.map((r) => r.name);

/** One thread's outputs of `file`, and warnings. */
async function oneThread(file: string, mode: OutputRender) {
  const { judge } = await loadJudgeCode(JUDGE);
  const warnings: string[] = [];
  const { sinks, out } = outputs(mode);
  const tally = new Tally(await RULES());
  const read = { from: "auto", onWarning: (w: string) => void warnings.push(w) };
  await runSinks(judgeCaseBatches(judge, readCaseBatches([file], read), {}), sinks, tally);
  return { ...out(), warnings, totals: tally.totals };
}

/** The same over ranges of `rangeBytes` on `workers` threads. */
async function inRanges(file: string, mode: OutputRender, workers: number, rangeBytes?: number, readBytes?: number) {
  const loaded = await loadJudgeCode(JUDGE);
  const warnings: string[] = [];
  const { sinks, out } = outputs(mode);
  const tally = new Tally(await RULES());
  const read = { from: "auto", onWarning: (w: string) => void warnings.push(w) };
  const options = {
    workers,
    render: mode,
    ...(rangeBytes !== undefined ? { rangeBytes } : {}),
    ...(readBytes !== undefined ? { readBytes } : {}),
  };
  await runSinks(judgeRanges(loaded.judge, loaded.code, file, read, {}, options), sinks, tally);
  return { ...out(), warnings, totals: tally.totals };
}

describe("planRanges", () => {
  test("ranges cover the file, end after a \\n or at its end, and know their first line", async () => {
    const dir = tempDir();
    const { file } = mixedJsonl(dir);
    const bytes = readFileSync(file);
    // The line each byte offset starts, as the reader splits lines.
    const lineAt = new Map<number, number>();
    let n = 0;
    for await (const { offset } of byteLines(chunks(bytes))) lineAt.set(offset, ++n);
    for (const rangeBytes of [1, 2, 7, 64, 300, 5000, bytes.length, bytes.length * 2]) {
      const ranges = [...planRanges(file, bytes.length, rangeBytes)];
      expect(ranges[0]!.start).toBe(0);
      expect(ranges.at(-1)!.end).toBe(bytes.length);
      ranges.forEach((range, i) => {
        if (i > 0) expect(range.start).toBe(ranges[i - 1]!.end);
        expect(range.end).toBeGreaterThan(range.start);
        if (range.end < bytes.length) expect(bytes[range.end - 1]).toBe(0x0a);
        expect(range.firstLine).toBe(lineAt.get(range.start));
      });
      if (rangeBytes < 300) expect(ranges.length).toBeGreaterThan(10);
    }
    // The line of 3,000 two-byte characters is longer than a range of 300 bytes: its range is longer.
    expect(Math.max(...[...planRanges(file, bytes.length, 300)].map((r) => r.end - r.start))).toBeGreaterThan(6000);
  });
});

describe("judge --workers N on one JSONL file: each worker reads its own byte range", () => {
  test.each(["jsonl", "json", "text"] as const)(
    "--%s: the outputs, warnings and tally of one thread, byte for byte, for ranges of 1 byte to the whole file",
    async (mode) => {
      const dir = tempDir();
      const { file } = mixedJsonl(dir);
      const one = await oneThread(file, mode);
      expect(one.stderr).toContain("invalid JSON");
      expect(one.stderr).toContain("invalid UTF-8");
      expect(one.totals.judged).toBeGreaterThan(10);
      expect(one.totals.errors).toBeGreaterThan(2);
      // Reads of 1, 2 and 7 bytes: lines, "\r\n" and multi-byte characters span reads too.
      for (const [workers, rangeBytes, readBytes] of [
        [1, 1, undefined],
        [2, 1, 2],
        [3, 40, 7],
        [2, 333, 1],
        [3, 2000, undefined],
        [2, undefined, 7],
        [2, undefined, undefined],
      ] as const) {
        expect(
          await inRanges(file, mode, workers, rangeBytes, readBytes),
          `${workers} workers, ranges of ${rangeBytes} bytes, reads of ${readBytes}`,
        ).toEqual(one);
      }
    },
  );

  test("errors name the file's own line numbers, past the line breaks of every kind before them", async () => {
    const dir = tempDir();
    const { file } = mixedJsonl(dir);
    const text = readFileSync(file);
    // Where the invalid JSON is, counted by the reader's own line splitting.
    let line = 0;
    let broken = 0;
    for await (const { bytes } of byteLines(chunks(text))) {
      line++;
      if (Buffer.from(bytes).toString("utf8").includes('"broken"')) broken = line;
    }
    expect(broken).toBeGreaterThan(10);
    const got = await inRanges(file, "jsonl", 2, 1);
    expect(got.stderr).toMatch(new RegExp(`error: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${broken}:\\d+: case \\d+: invalid JSON`));
    const element = got.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { line?: number; caseError?: string })
      .find((e) => e.caseError?.startsWith("invalid JSON"));
    expect(element?.line).toBe(broken);
  });

  test("the CLI: --workers 2 and 3 write what --workers 1 writes, with its exit code, in every mode", () => {
    const dir = tempDir();
    const { file } = mixedJsonl(dir);
    for (const mode of [[], ["--json"], ["--jsonl"]]) {
      const runs = ["1", "2", "3"].map((workers) => runCli(["judge", JUDGE, file, ...mode, "--workers", workers]));
      expect(runs[0]!.status).toBe(1);
      for (const run of runs.slice(1))
        expect({ ...run, stderr: run.stderr.replace(/^--workers \d+: this machine has .*\n/m, "") }).toEqual(runs[0]);
    }
  });
});

/** A judge that calls process.exit(7) on the trajectory "exit-here", and a file of 40 cases whose 18th is that one. */
function crashingRun(): { crashing: string; file: string } {
  const dir = tempDir();
  const real = pathToFileURL(JUDGE).href;
  const crashing = join(dir, "crashing-judge.mjs");
  writeFileSync(
    crashing,
    `import * as real from ${JSON.stringify(real)};
export const version = real.version, behavior = real.behavior, irSha256 = real.irSha256, rules = real.rules;
export function judgeTrajectory(trajectory, options) {
  if (String(trajectory.id) === "exit-here") process.exit(7);
  return real.judgeTrajectory(trajectory, options);
}
`,
  );
  const all = trajectories();
  const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ ...all[i % all.length], id: i === 17 ? "exit-here" : `t-${i}` }));
  const file = join(dir, "cases.jsonl");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return { crashing, file };
}

describe("workers started before the judge is loaded (run/range-start.ts)", () => {
  test("the CLI on a file of several ranges: --workers 2 and 3 write what --workers 1 writes, from a judge.mjs and a judge.yaml", () => {
    const dir = tempDir();
    const all = trajectories();
    // About 3 MB: three ranges or more, so the main thread takes one and the workers started early the others.
    const lines: string[] = [];
    for (let i = 0; lines.join("\n").length < 3_000_000 && i < 100_000; i++) {
      const t = all[i % all.length]!;
      lines.push(i % 997 === 5 ? '{"id": "broken", "events": [}' : JSON.stringify({ ...t, id: `${t.id}-${i}` }));
    }
    const file = join(dir, "large.jsonl");
    writeFileSync(file, `${lines.join("\n")}\n`);
    for (const judge of [JUDGE, join(REFUND, "judge.yaml")]) {
      const one = runCli(["judge", judge, file, "--jsonl", "--workers", "1"]);
      expect(one.status).toBe(1);
      expect(one.stdout.split("\n").filter(Boolean)).toHaveLength(lines.length);
      for (const workers of ["2", "3"]) {
        const run = runCli(["judge", judge, file, "--jsonl", "--workers", workers]);
        expect(
          { ...run, stderr: run.stderr.replace(/^--workers \d+: this machine has .*\n/m, "") },
          `${judge}, --workers ${workers}`,
        ).toEqual(one);
      }
    }
  });
});

describe("a range worker that dies", () => {
  test("costs the lines it was judging, said so; the other ranges are judged and the run fails", async () => {
    const { crashing, file } = crashingRun();
    const crashed = runCli(["judge", crashing, file, "--jsonl", "--workers", "2"]);
    const want = runCli(["judge", JUDGE, file, "--jsonl", "--workers", "1"]);
    expect(crashed.status).toBe(1);
    const got = crashed.stdout.split("\n").filter(Boolean);
    const expected = want.stdout.split("\n").filter(Boolean);
    expect(got).toHaveLength(expected.length);
    expect(JSON.parse(got[17]!)).toEqual({
      file,
      case: 17,
      line: 18,
      caseError: "the worker thread judging this case died (it exited with code 7); the other cases were judged",
    });
    expect(got.filter((_, i) => i !== 17)).toEqual(expected.filter((_, i) => i !== 17));
  });
});

describe("the main thread judges ranges too", () => {
  test("a judge that calls process.exit there costs its line as on a worker, and process.exit is the process's again after", async () => {
    const { crashing, file } = crashingRun();
    const exit = process.exit;
    const loaded = await loadJudgeCode(crashing);
    const expected = (await oneThread(file, "jsonl")).stdout.split("\n").filter(Boolean);
    // One thread in all (the main thread judges every range, and a worker is started for the line that exits),
    // then two, with ranges of a line or so, so the line falls to either.
    for (const [workers, rangeBytes] of [
      [1, undefined],
      [1, 100],
      [2, 100],
      [3, 1],
    ] as const) {
      const { sinks, out } = outputs("jsonl");
      const tally = new Tally(await RULES());
      const options = { workers, render: "jsonl" as const, ...(rangeBytes !== undefined ? { rangeBytes } : {}) };
      await runSinks(judgeRanges(loaded.judge, loaded.code, file, { from: "auto" }, {}, options), sinks, tally);
      const got = out().stdout.split("\n").filter(Boolean);
      expect(got, `${workers} threads, ranges of ${rangeBytes} bytes`).toHaveLength(expected.length);
      expect(JSON.parse(got[17]!)).toEqual({
        file,
        case: 17,
        line: 18,
        caseError: "the worker thread judging this case died (it exited with code 7); the other cases were judged",
      });
      expect(got.filter((_, i) => i !== 17)).toEqual(expected.filter((_, i) => i !== 17));
      expect(tally.totals.errors).toBe(1);
      expect(process.exit).toBe(exit);
    }
  });
});
