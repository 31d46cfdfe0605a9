/**
 * `--workers N` (run/pool.ts): the outputs of a run on worker threads are
 * byte for byte those of the single-threaded run, on the examples, on JSONL
 * files that mix every kind of line, and on judges of the differential
 * corpus; a worker that dies on a case costs that case only. The workers run
 * the build (dist/), which the test setup compiles first.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { compileIR } from "../../compiler/build/compile.js";
import { freeCores, THREADS_FROM_BYTES, threadCount } from "../../compiler/commands/workers.js";
import { readCases } from "../../compiler/inputs/inputs.js";
import { judgeCases, type CaseResult } from "../../compiler/run/judge-cases.js";
import { loadJudgeCode } from "../../compiler/run/load.js";
import { judgeInWorkers } from "../../compiler/run/pool.js";
import { mulberry32, randomCase } from "../oracle/random.js";
import { JUDGES, SEED, TRAJECTORIES_PER_JUDGE } from "../support/differential.js";
import { runCli } from "../support/cli.js";

const EXAMPLES = join(import.meta.dirname, "..", "..", "examples");
const REFUND = join(EXAMPLES, "refund-support");

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "bj-pool-"));
}

function filesOf(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => join(dir, f));
}

/**
 * A JSONL file with every kind of line: labeled cases and bare trajectories,
 * blank lines, a BOM, invalid JSON, invalid UTF-8, a trajectory the judge
 * rejects, and chat logs, which are imported together at the file's end.
 */
function mixedJsonl(dir: string): string {
  const labeled = filesOf(join(REFUND, "trajectories")).map((f) => readFileSync(f, "utf8"));
  const chat = JSON.stringify(JSON.parse(readFileSync(join(REFUND, "traces", "chat-log.json"), "utf8")));
  const lines: (string | Buffer)[] = [];
  labeled.forEach((text, i) => {
    const value = JSON.parse(text) as { trajectory: unknown };
    lines.push(JSON.stringify(i % 2 === 0 ? value : value.trajectory));
    if (i % 3 === 0) lines.push("   ");
    if (i === 4) lines.push(chat);
    if (i === 5) lines.push('{"id": "broken", "events": [}');
    if (i === 6) lines.push(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]));
    if (i === 7) lines.push(JSON.stringify({ id: "no-events" }));
  });
  lines.push(chat);
  const file = join(dir, "mixed.jsonl");
  const parts = lines.flatMap((line, i) => [i === 0 ? Buffer.from("\uFEFF") : Buffer.alloc(0), Buffer.from(line), Buffer.from("\n")]);
  writeFileSync(file, Buffer.concat(parts));
  return file;
}

/** What a result is for the outputs, without the trajectory (kept only for the reports). */
function comparable(result: CaseResult): string {
  const { trajectory: _trajectory, ...input } = result.input;
  return JSON.stringify({ ...result, input });
}

async function collect(results: AsyncIterable<CaseResult>): Promise<string[]> {
  const out: string[] = [];
  for await (const result of results) out.push(comparable(result));
  return out;
}

/** judgeInWorkers against judgeCases over readCases, with batches small enough to split every file. */
async function expectSameResults(judgePath: string, files: string[], batchLines: number, workers = 2): Promise<number> {
  const loaded = await loadJudgeCode(judgePath);
  const warnings: string[][] = [[], []];
  const read = (i: number) => ({ from: "auto", onWarning: (w: string) => void warnings[i]!.push(w) });
  const single = await collect(judgeCases(loaded.judge, readCases(files, read(0)), { verify: true }));
  const parallel = await collect(
    judgeInWorkers(loaded.judge, loaded.code, files, read(1), { verify: true }, { workers, keepTrajectories: false, batchLines }),
  );
  expect(parallel).toEqual(single);
  expect(warnings[1]).toEqual(warnings[0]);
  return single.length;
}

/**
 * stderr without the notice that --workers was capped at the cores available:
 * on a machine with fewer cores than a test asks for, the notice is the one
 * line a run on more threads may add, and what it says is tested below.
 */
function uncapped(stderr: string): string {
  return stderr.replace(/^--workers \d+: this machine has \d+ cores? available, .*\n/m, "");
}

/** The installed command, as a user runs it (its main thread and its workers both from dist/), in a process of its own. */
function cli(...args: string[]) {
  const { status, stdout, stderr } = runCli(args);
  return { code: status, stdout, stderr: uncapped(stderr) };
}

describe("judge --workers N: the outputs of one thread, byte for byte", () => {
  test.each(["refund-support", "staged-rollout", "tax-research"])("examples/%s: text, --json, --html, --junit", async (name) => {
    const dir = join(EXAMPLES, name);
    const files = filesOf(join(dir, "trajectories"));
    const out = tempDir();
    const runs = [];
    for (const workers of [1, 2, 3]) {
      const html = join(out, `${workers}.html`);
      const junit = join(out, `${workers}.xml`);
      const text = runCli([
        "judge",
        join(dir, "judge.mjs"),
        ...files,
        "--no-web",
        "--workers",
        String(workers),
        "--html",
        html,
        "--junit",
        junit,
      ]);
      const json = runCli(["judge", join(dir, "judge.yaml"), ...files, "--json", "--workers", String(workers)]);
      // Without a report, the workers render each case's stdout themselves.
      const plain = runCli(["judge", join(dir, "judge.mjs"), ...files, "--workers", String(workers)]);
      const jsonl = runCli(["judge", join(dir, "judge.mjs"), ...files, "--jsonl", "--workers", String(workers)]);
      runs.push({
        text: [
          text.status,
          text.stdout,
          uncapped(text.stderr).replaceAll(out, "OUT").replace(`${workers}.html`, "N.html").replace(`${workers}.xml`, "N.xml"),
        ],
        json: [json.status, json.stdout, uncapped(json.stderr)],
        plain: [plain.status, plain.stdout, uncapped(plain.stderr)],
        jsonl: [jsonl.status, jsonl.stdout, uncapped(jsonl.stderr)],
        html: readFileSync(html, "utf8"),
        junit: readFileSync(junit, "utf8"),
      });
    }
    expect(runs[0]!.json[1]).toContain('"verdict"');
    // Line i of --jsonl is element i of --json, compact.
    const elements = JSON.parse(runs[0]!.json[1] as string) as unknown[];
    expect((runs[0]!.jsonl[1] as string).split("\n").filter(Boolean)).toEqual(elements.map((e) => JSON.stringify(e)));
    for (const run of runs.slice(1)) {
      expect(run.jsonl).toEqual(runs[0]!.jsonl);
      expect(run.text).toEqual(runs[0]!.text);
      expect(run.json).toEqual(runs[0]!.json);
      expect(run.plain).toEqual(runs[0]!.plain);
      expect(run.html).toBe(runs[0]!.html);
      expect(run.junit).toBe(runs[0]!.junit);
    }
  });

  test("a JSONL file with every kind of line, split into batches of 1 to 5 lines", async () => {
    const dir = tempDir();
    const files = [mixedJsonl(dir), ...filesOf(join(REFUND, "trajectories")).slice(0, 3), join(REFUND, "traces", "chat-log.json")];
    for (const batchLines of [1, 2, 5]) expect(await expectSameResults(join(REFUND, "judge.mjs"), files, batchLines)).toBeGreaterThan(15);
    const one = cli("judge", join(REFUND, "judge.mjs"), ...files, "--json", "--workers", "1");
    const two = cli("judge", join(REFUND, "judge.mjs"), ...files, "--json", "--workers", "2");
    expect(one.stdout).toContain('"caseError": "invalid JSON');
    expect(one.stdout).toContain("invalid UTF-8");
    expect(two).toEqual(one);
    const text = ["1", "3"].map((workers) => cli("judge", join(REFUND, "judge.mjs"), ...files, "--workers", workers));
    expect(text[0]!.stdout).toContain("PASS");
    expect(text[1]).toEqual(text[0]);
    const lines = ["1", "2"].map((workers) => cli("judge", join(REFUND, "judge.mjs"), ...files, "--jsonl", "--workers", workers));
    expect(lines[0]!.stdout.split("\n").filter(Boolean)).toEqual((JSON.parse(one.stdout) as unknown[]).map((e) => JSON.stringify(e)));
    expect(lines[1]).toEqual(lines[0]);
  });

  test("a missing file, an empty one and a folder named *.jsonl are located as with one thread", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "empty.jsonl"), "");
    mkdirSync(join(dir, "folder.jsonl"));
    const files = [
      join(dir, "folder.jsonl"),
      join(dir, "missing.jsonl"),
      join(dir, "empty.jsonl"),
      join(dir, "missing.json"),
      filesOf(join(REFUND, "trajectories"))[0]!,
    ];
    await expectSameResults(join(REFUND, "judge.mjs"), files, 1);
  });

  test("judges of the differential corpus (every tenth) over their trajectories as JSONL and as .json files", async () => {
    const rng = mulberry32(SEED);
    const dir = tempDir();
    let compared = 0;
    for (let index = 0; index < JUDGES; index++) {
      // Drawn in the differential corpus's order, so these are its judges and trajectories.
      const { ir } = randomCase(rng, index);
      const trajectories = Array.from(
        { length: TRAJECTORIES_PER_JUDGE },
        (_, t) => randomCase(rng, index * TRAJECTORIES_PER_JUDGE + t).trajectory,
      );
      if (index % 10 !== 0) continue;
      const compiled = await compileIR(ir, JSON.stringify(ir), { typeCheck: false });
      const judgePath = join(dir, `judge-${index}.mjs`);
      writeFileSync(judgePath, compiled.judgeMjs);
      const jsonl = join(dir, `trajectories-${index}.jsonl`);
      writeFileSync(jsonl, trajectories.map((t) => JSON.stringify(t)).join("\n"));
      const single = trajectories.slice(0, 3).map((t, i) => {
        const file = join(dir, `trajectory-${index}-${i}.json`);
        writeFileSync(file, JSON.stringify(t));
        return file;
      });
      compared += await expectSameResults(judgePath, [jsonl, ...single], 7);
    }
    expect(compared).toBe((JUDGES / 10) * (TRAJECTORIES_PER_JUDGE + 3));
  });
});

describe("calibrate --workers N", () => {
  test.each(["refund-support", "staged-rollout"])("examples/%s: the same comparisons, text and --json", async (name) => {
    const dir = join(EXAMPLES, name);
    const files = filesOf(join(dir, "trajectories"));
    const runs = [];
    for (const workers of ["1", "2"]) {
      const text = cli("calibrate", join(dir, "judge.mjs"), ...files, "--workers", workers);
      const json = cli("calibrate", join(dir, "judge.mjs"), ...files, "--json", "--workers", workers);
      runs.push({ text, json });
    }
    expect(runs[0]!.text.stdout).toContain("agree");
    expect(runs[1]).toEqual(runs[0]);
  });
});

describe("a worker thread that dies", () => {
  /** The refund judge, but a trajectory whose id says so ends its thread: process.exit, or an exception thrown outside the case. */
  function crashingJudge(dir: string): string {
    const path = join(dir, "crashing-judge.mjs");
    const real = pathToFileURL(join(REFUND, "judge.mjs")).href;
    writeFileSync(
      path,
      `import * as real from ${JSON.stringify(real)};
export const version = real.version, behavior = real.behavior, irSha256 = real.irSha256, rules = real.rules;
export function judgeTrajectory(trajectory, options) {
  if (String(trajectory.id).includes("exit-here")) process.exit(7);
  if (String(trajectory.id).includes("throw-here")) return new Promise(() => setTimeout(() => { throw new Error("thrown outside the case"); }));
  return real.judgeTrajectory(trajectory, options);
}
`,
    );
    return path;
  }

  test("takes only the case it died on, reported with its location; the rest are judged", async () => {
    const dir = tempDir();
    const trajectories = filesOf(join(REFUND, "trajectories")).map(
      (f) => (JSON.parse(readFileSync(f, "utf8")) as { trajectory: { id: string } }).trajectory,
    );
    const renamed = trajectories.map((t, i) => ({ ...t, id: i === 2 ? "exit-here" : i === 6 ? "throw-here" : t.id }));
    const jsonl = join(dir, "cases.jsonl");
    writeFileSync(jsonl, renamed.map((t) => JSON.stringify(t)).join("\n"));
    const json = join(dir, "one.json");
    writeFileSync(json, JSON.stringify([trajectories[0], { ...trajectories[1], id: "exit-here-too" }]));

    const crashed = cli("judge", crashingJudge(dir), jsonl, json, "--json", "--workers", "2");
    const expected = cli("judge", join(REFUND, "judge.mjs"), jsonl, json, "--json", "--workers", "1");
    expect(crashed.code).toBe(1);
    const got = JSON.parse(crashed.stdout) as Record<string, unknown>[];
    const want = JSON.parse(expected.stdout) as Record<string, unknown>[];
    expect(got).toHaveLength(want.length);
    const died = (file: string, index: number, line: number | undefined, reason: string) => ({
      file,
      case: index,
      ...(line !== undefined ? { line } : {}),
      caseError: `the worker thread judging this case died (${reason}); the other cases were judged`,
    });
    const exited = "it exited with code 7";
    expect(got[2]).toEqual(died(jsonl, 2, 3, exited));
    expect(got[6]).toEqual(died(jsonl, 6, 7, "thrown outside the case"));
    expect(got[want.length - 1]).toEqual(died(json, 1, 1, exited));
    // Every other case is judged as the real judge judges it.
    const others = (list: Record<string, unknown>[]) => list.filter((_, i) => i !== 2 && i !== 6 && i !== want.length - 1);
    expect(others(got)).toEqual(others(want));
    expect(crashed.stderr).toContain(`error: ${jsonl}:3: case 2: the worker thread judging this case died (${exited})`);
  });
});

describe("item 4: a worker thread that dies reading a case", () => {
  /** The refund example's trajectories, renamed t0, t1, … so each case is told apart. */
  function trajectoryLines(count: number): string[] {
    const examples = filesOf(join(REFUND, "trajectories")).map(
      (f) => (JSON.parse(readFileSync(f, "utf8")) as { trajectory: { id: string } }).trajectory,
    );
    return Array.from({ length: count }, (_, i) => JSON.stringify({ ...examples[i % examples.length], id: `t${i}` }));
  }
  /** A line no worker can parse under a small heap: a million small objects (7 MB of JSON, far more once parsed). */
  const HUGE = `{"id":"huge","events":[${Array.from({ length: 1_000_000 }, () => '{"a":0}').join(",")}]}`;
  /** A run whose workers have a heap too small for HUGE; its main thread never parses a line. */
  const smallHeap = (cwd: string, ...args: string[]) => runCli(args, { cwd, nodeArgs: ["--max-old-space-size=32"] });

  test("a line that runs a worker out of memory costs that line only, and case i stays element i", () => {
    const lines = trajectoryLines(50);
    const crashing = tempDir();
    const reference = tempDir();
    // Line 26 of 51, in the same batch as the 25 lines before it (the batch ends at 64 KB).
    writeFileSync(join(crashing, "cases.jsonl"), [...lines.slice(0, 25), HUGE, ...lines.slice(25)].join("\n") + "\n");
    writeFileSync(join(reference, "cases.jsonl"), [...lines.slice(0, 25), '{"id": "placeholder"}', ...lines.slice(25)].join("\n") + "\n");

    const got = smallHeap(crashing, "judge", join(REFUND, "judge.mjs"), "cases.jsonl", "--json", "--workers", "2");
    const want = runCli(["judge", join(REFUND, "judge.mjs"), "cases.jsonl", "--json", "--workers", "1"], { cwd: reference });
    expect(got.status).toBe(1);
    const gotCases = JSON.parse(got.stdout) as Record<string, unknown>[];
    const wantCases = JSON.parse(want.stdout) as Record<string, unknown>[];
    expect(gotCases).toHaveLength(51);
    expect(gotCases[25]).toEqual({
      file: "cases.jsonl",
      case: 25,
      line: 26,
      caseError: expect.stringMatching(/^the worker thread reading this case died \(.*memory.*\); the other cases were judged$/),
    });
    // Every other case is judged, under its own index, as one thread judges it.
    const others = (list: Record<string, unknown>[]) => list.filter((_, i) => i !== 25);
    expect(others(gotCases)).toEqual(others(wantCases));
    expect(got.stderr).toContain("error: cases.jsonl:26: case 25: the worker thread reading this case died");
  }, 120_000);

  test("in a group of .json files, the file a worker died reading is named and the others are judged", () => {
    const lines = trajectoryLines(3);
    const dir = tempDir();
    // a, b and huge travel as one job (the group ends once it passes 64 KB); c is the next.
    const names = ["a.json", "b.json", "huge.json", "c.json"];
    [lines[0]!, lines[1]!, HUGE, lines[2]!].forEach((text, i) => writeFileSync(join(dir, names[i]!), text));
    const got = smallHeap(dir, "judge", join(REFUND, "judge.mjs"), ...names, "--json", "--workers", "2");
    expect(got.status).toBe(1);
    const cases = JSON.parse(got.stdout) as Record<string, unknown>[];
    expect(cases.map((c) => [c.file, c.case, c.trajectoryId ?? c.caseError])).toEqual([
      ["a.json", 0, "t0"],
      ["b.json", 0, "t1"],
      ["huge.json", 0, expect.stringMatching(/^the worker thread reading this file died \(.*memory.*\); the other files were judged$/)],
      ["c.json", 0, "t2"],
    ]);
  }, 120_000);
});

describe("how many threads", () => {
  const small = join(REFUND, "trajectories", "clean-escalation.json");

  test("the default starts none for small inputs; --workers N is obeyed; a model keeps one, with a notice", () => {
    const notices: string[] = [];
    const notice = (line: string) => void notices.push(line);
    expect(threadCount({}, [small], false, notice)).toBe(1);
    expect(threadCount({ workers: 3 }, [small], false, notice, 4)).toBe(3);
    expect(notices).toEqual([]);
    expect(threadCount({ workers: 4 }, [small], true, notice)).toBe(1);
    expect(notices).toEqual(["--workers 4: a model is configured, so judging stays on one thread (--concurrency overlaps its calls)"]);
  });

  test("--workers above the cores available is capped at them, with a notice (issue 20, item 24)", () => {
    const notices: string[] = [];
    const notice = (line: string) => void notices.push(line);
    expect(threadCount({ workers: 64 }, [small], false, notice, 2)).toBe(2);
    expect(threadCount({ workers: 2 }, [small], false, notice, 2)).toBe(2);
    expect(threadCount({ workers: 3 }, [small], false, notice, 1)).toBe(1);
    expect(notices).toEqual([
      "--workers 64: this machine has 2 cores available, so judging runs on 2 threads (more threads than cores only cost memory)",
      "--workers 3: this machine has 1 core available, so judging runs on 1 thread (more threads than cores only cost memory)",
    ]);
  });

  test("judge --workers 64 says it runs on the cores available, and judges every case", () => {
    const got = runCli(["judge", join(REFUND, "judge.mjs"), small, "--workers", "64", "--json"]);
    const cores = availableParallelism();
    if (cores < 64) expect(got.stderr).toContain(`--workers 64: this machine has ${cores} `);
    expect((JSON.parse(got.stdout) as unknown[]).length).toBe(1);
  });

  test("a large JSONL file judge reads in ranges gets a thread per free core, when three or more are free (issue 26)", () => {
    const dir = tempDir();
    const big = join(dir, "big.jsonl");
    writeFileSync(big, Buffer.alloc(THREADS_FROM_BYTES, 0x20));
    const smaller = join(dir, "smaller.jsonl");
    writeFileSync(smaller, Buffer.alloc(THREADS_FROM_BYTES - 1, 0x20));
    const bigJson = join(dir, "big.json");
    writeFileSync(bigJson, Buffer.alloc(THREADS_FROM_BYTES, 0x20));
    const none = () => {};
    const ranges = (cores: number, load: number, files = [big]) => threadCount({}, files, false, none, cores, load, true);
    // Idle cores: one thread each, from three; two free cores judge on one thread, which
    // measured faster than two there (docs/SPEED.md "Threads on two free cores").
    expect(ranges(2, 0)).toBe(1);
    expect(ranges(3, 0)).toBe(3);
    expect(ranges(8, 0.3)).toBe(8);
    // Other work leaves fewer cores: fewer threads, and one when fewer than three are free.
    expect(ranges(8, 3)).toBe(5);
    expect(ranges(8, 5.6)).toBe(1);
    expect(ranges(2, 1)).toBe(1);
    expect(ranges(2, 18)).toBe(1);
    // Too small to repay the workers' start, or not one JSONL file: one thread.
    expect(ranges(2, 0, [smaller])).toBe(1);
    expect(ranges(2, 0, [bigJson])).toBe(1);
    expect(ranges(2, 0, [bigJson, small])).toBe(1);
    expect(ranges(2, 0, [big, small])).toBe(1);
    // Where no range can be read (a report, calibrate, label), the default is one thread.
    expect(threadCount({}, [big], false, none, 2, 0)).toBe(1);
    // --workers N is obeyed whatever the load.
    expect(threadCount({ workers: 2 }, [big], false, none, 2, 18)).toBe(2);
    expect(freeCores(2, 0.4)).toBe(2);
    expect(freeCores(2, 0.6)).toBe(1);
    expect(freeCores(4, 9)).toBe(0);
  });

  test("a judge no worker can load stops the run with why, rather than hanging", async () => {
    const loaded = await loadJudgeCode(join(REFUND, "judge.mjs"));
    const missing = { path: join(tempDir(), "gone.mjs") };
    const run = judgeInWorkers(
      loaded.judge,
      missing,
      [join(REFUND, "trajectories", "clean-escalation.json")],
      {},
      {},
      { workers: 2, keepTrajectories: false },
    );
    await expect(collect(run)).rejects.toThrow(/a worker thread could not start: .*gone\.mjs/);
  });
});
