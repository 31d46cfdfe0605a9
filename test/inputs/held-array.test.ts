/**
 * A `.json` array read an element at a time, its output held back
 * (compiler/inputs/held-array.ts, issue 26): the cases are the whole-file
 * reader's, whatever the layout; a syntax error after valid elements writes
 * nothing of that file (its one error, located as before), in each mode,
 * although those elements were judged; a bad trajectory late in the file
 * names its file, line and field and hides none of the others.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { Tally } from "../../compiler/analyses/tally.js";
import type { FileHold, InputCase } from "../../compiler/inputs/case.js";
import { heldArrayBatches } from "../../compiler/inputs/held-array.js";
import { readCaseBatches, readHeldCaseBatches } from "../../compiler/inputs/inputs.js";
import { jsonlSink, jsonSink } from "../../compiler/report/json.js";
import { progressSink } from "../../compiler/report/progress.js";
import { chunkedWriter, runSinks, writtenBy, type OutputSink } from "../../compiler/report/sink.js";
import { textSink } from "../../compiler/report/text.js";
import { judgeCaseBatches, type OutputRender } from "../../compiler/run/judge-cases.js";
import { loadJudgeCode, type JudgeModule } from "../../compiler/run/load.js";

const REFUND = join(import.meta.dirname, "..", "..", "examples", "refund-support");
const JUDGE = join(REFUND, "judge.mjs");

type Trajectory = { id: string; events: { id?: string | undefined }[] };

/** The refund example's trajectories, bare, over and over to `count` (more than a batch of 64), each given `prefix` in its id. */
function trajectories(prefix: string, count = 150): Trajectory[] {
  const examples = readdirSync(join(REFUND, "trajectories"))
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => (JSON.parse(readFileSync(join(REFUND, "trajectories", f), "utf8")) as { trajectory: Trajectory }).trajectory);
  return Array.from({ length: count }, (_, i) => ({ ...examples[i % examples.length]!, id: `${prefix}-${i}` }));
}

/** One element a line, as bench/cli-floor.js and most writers of large arrays lay them out. */
function oneALine(values: readonly unknown[]): string {
  return `[\n${values.map((v) => JSON.stringify(v)).join(",\n")}\n]\n`;
}

function write(dir: string, name: string, text: string | Buffer): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** The cases a held reader's batches come to: a discarded file's held cases dropped, as runSinks drops their output. */
async function keptCases(batches: AsyncIterable<InputCase[] | FileHold>): Promise<{ cases: InputCase[]; marks: string[] }> {
  const cases: InputCase[] = [];
  const marks: string[] = [];
  let heldFrom: number | undefined;
  for await (const batch of batches) {
    if (Array.isArray(batch)) {
      cases.push(...batch);
      continue;
    }
    marks.push(batch.kind);
    if (batch.kind === "hold") heldFrom = cases.length;
    else if (batch.kind === "discard") cases.length = heldFrom!;
  }
  return { cases, marks };
}

async function wholeCases(file: string): Promise<InputCase[]> {
  const cases: InputCase[] = [];
  for await (const batch of readCaseBatches([file])) cases.push(...batch);
  return cases;
}

/** The plain data of cases (a whole-file case's `line` is a getter). */
const plain = (cases: readonly InputCase[]) => cases.map((c) => ({ ...c }));

describe("heldArrayBatches: the whole-file reader's cases", () => {
  const dir = mkdtempSync(join(tmpdir(), "bj-held-"));
  const all = trajectories("t", 9);
  const layouts: [string, string | Buffer, string[]][] = [
    ["one a line", oneALine(all), ["hold", "commit"]],
    ["brackets beside the first and last", `[${all.map((t) => JSON.stringify(t)).join(",\n")}]`, ["hold", "commit"]],
    [
      "\\r\\n and blanks around",
      `  [ \r\n${all.map((t) => `  ${JSON.stringify(t)} ,  `).join("\r\n")}\r\n]  \r\n`.replace(/,\s+\r\n\]/, "\r\n]"),
      ["hold", "commit"],
    ],
    ["a byte order mark", `\uFEFF${oneALine(all)}`, ["hold", "commit"]],
    ["one element", `[${JSON.stringify(all[0])}]`, ["hold", "commit"]],
    // Read whole from the start, or read again whole after what was held is dropped:
    ["pretty-printed", JSON.stringify(all, null, 2), ["hold", "discard"]],
    ["two elements a line", `[\n${JSON.stringify(all[0])}, ${JSON.stringify(all[1])}\n]`, ["hold", "discard"]],
    ["blank lines between elements", `[\n${JSON.stringify(all[0])},\n\n \r\n${JSON.stringify(all[1])}\n]`, ["hold", "commit"]],
    ["a labeled case late", oneALine([...all, { trajectory: all[0], expected: { verdict: "true" } }]), ["hold", "discard"]],
    ["a chat log late", oneALine([...all, { messages: [{ role: "user", content: "hi" }] }]), ["hold", "discard"]],
    ["no-break space before an element", `[\n${JSON.stringify(all[0])},\n\u00a0${JSON.stringify(all[1])}\n]`, ["hold", "discard"]],
    ["something after the array", `${oneALine(all)}x`, ["hold", "discard"]],
    ["a trailing comma", `[\n${all.map((t) => JSON.stringify(t)).join(",\n")},\n]`, ["hold", "discard"]],
    ["an unclosed array", `[\n${all.map((t) => JSON.stringify(t)).join(",\n")}\n`, ["hold", "discard"]],
    ["an empty array", "[\n]\n", []],
    ["one trajectory", JSON.stringify(all[0]), []],
    ["invalid UTF-8", Buffer.concat([Buffer.from(oneALine(all)), Buffer.from([0xff])]), []],
  ];
  for (const [name, text, marks] of layouts) {
    test(name, async () => {
      const file = write(dir, `${name.replace(/\W+/g, "-")}.json`, text);
      const held = await keptCases(readHeldCaseBatches([file]));
      expect(held.marks).toEqual(marks);
      expect(plain(held.cases)).toEqual(plain(await wholeCases(file)));
    });
  }

  test("a late syntax error: the elements before it come, then a discard, then the one error case", async () => {
    const lines = oneALine(all).split("\n");
    lines[lines.length - 3] = lines[lines.length - 3]!.replace('"events":', '"events"');
    const file = write(dir, "broken.json", lines.join("\n"));
    const batches = heldArrayBatches(file, readFileSync(file), {}, 2);
    const seen: (string | number)[] = [];
    for (let next = batches.next(); next.done !== true; next = batches.next())
      seen.push(Array.isArray(next.value) ? next.value.length : next.value.kind);
    expect(seen).toEqual(["hold", ...Array<number>(Math.floor((all.length - 1) / 2)).fill(2), "discard"]);
    const held = await keptCases(readHeldCaseBatches([file]));
    expect(held.cases).toHaveLength(1);
    expect(plain(held.cases)).toEqual(plain(await wholeCases(file)));
    expect(held.cases[0]).toMatchObject({ file, index: 0, line: all.length + 1, error: expect.stringMatching(/^invalid JSON: /) });
  });

  test("`from` other than auto or trajectory reads the file whole", () => {
    const file = write(dir, "from.json", oneALine(all));
    const batches = heldArrayBatches(file, readFileSync(file), { from: "openai" }, 64);
    expect(batches.next()).toEqual({ done: true, value: "whole" });
    expect(heldArrayBatches(file, readFileSync(file), { from: "trajectory" }, 64).next().value).toEqual({ kind: "hold" });
  });
});

/** A writer that keeps what reaches it; a stream that never needs draining. */
function output() {
  let text = "";
  const stream = { writableNeedDrain: false, destroyed: false, once: () => stream, off: () => stream, write: () => true };
  const out = chunkedWriter(stream, (t) => void (text += t));
  return { out, text: () => text };
}

/** `judge`'s stdout and stderr sinks in `mode` as the CLI makes them (chunkedWriter, writtenBy), writing to strings. */
function cliSinks(mode: OutputRender): { sinks: OutputSink[]; stdout: () => string; stderr: () => string } {
  const stdout = output();
  let stderr = "";
  const writeErr = (t: string) => void (stderr += t);
  const usage = { usage: false };
  const write = stdout.out.write;
  const main =
    mode === "jsonl" ? jsonlSink(write, writeErr, usage) : mode === "json" ? jsonSink(write, writeErr, usage) : textSink(write, usage);
  return { sinks: [progressSink(writeErr, { tty: false }), writtenBy(main, stdout.out)], stdout: stdout.text, stderr: () => stderr };
}

/** A run over `files` in `mode`, held (as `judge --workers 1` reads) or not (the whole-file reader); the ids the judge was given. */
async function run(files: string[], mode: OutputRender, held: boolean) {
  const { judge } = await loadJudgeCode(JUDGE);
  const judged: string[] = [];
  const watched: JudgeModule = {
    ...judge,
    judgeTrajectory: (t, o) => {
      judged.push(String((t as { id?: unknown }).id));
      return judge.judgeTrajectory(t, o);
    },
  };
  const { sinks, stdout, stderr } = cliSinks(mode);
  const tally = new Tally(judge.rules.map((r) => r.name));
  const batches = held ? readHeldCaseBatches(files) : readCaseBatches(files);
  await runSinks(judgeCaseBatches(watched, batches, {}), sinks, tally);
  for (const sink of sinks) sink.flush?.();
  return { stdout: stdout(), stderr: stderr(), totals: { ...tally.totals }, rows: tally.ruleRows(), judged };
}

describe("held output: a file's cases written only once it is all read", () => {
  const dir = mkdtempSync(join(tmpdir(), "bj-held-run-"));
  const before = write(dir, "before.json", oneALine(trajectories("before")));
  const after = write(dir, "after.json", oneALine(trajectories("after")));
  const brokenLines = oneALine(trajectories("broken")).split("\n");
  // The last element loses a colon: a syntax error after every other element was parsed and judged.
  brokenLines[brokenLines.length - 3] = brokenLines[brokenLines.length - 3]!.replace('"events":', '"events"');
  const broken = write(dir, "broken.json", brokenLines.join("\n"));
  const bad = trajectories("bad");
  // A valid JSON element that is a bad trajectory, late: its event has no id.
  bad[bad.length - 2] = { ...bad[bad.length - 2]!, events: [{ ...bad[bad.length - 2]!.events[0], id: undefined }] };
  const badFile = write(dir, "bad.json", oneALine(bad));

  for (const mode of ["text", "json", "jsonl"] as const) {
    test(`${mode}: a syntax error after valid elements writes nothing of that file but its error`, async () => {
      const held = await run([before, broken, after], mode, true);
      // Those elements were judged, one at a time, before the error was met…
      // (the whole batches of 64 among the 149 before it; the 21 of the last were parsed, not yet judged)…
      expect(held.judged.filter((id) => id.startsWith("broken-")).length).toBe(128);
      // …and nothing of them is written: the outputs are the whole-file reader's, which never judges them.
      expect(held.stdout).not.toContain("broken-");
      expect(held.stderr).not.toContain("broken-");
      const whole = await run([before, broken, after], mode, false);
      expect(whole.judged.some((id) => id.startsWith("broken-"))).toBe(false);
      expect({ ...held, judged: [] }).toEqual({ ...whole, judged: [] });
      expect(held.stderr).toMatch(
        new RegExp(`^error: ${broken.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${brokenLines.length - 2}:\\d+: case 0: invalid JSON`, "m"),
      );
      expect(held.totals.errors).toBe(1);
      expect(held.totals.judged).toBe(2 * (brokenLines.length - 3));
    });

    test(`${mode}: a bad trajectory late names its line and field, the others judged`, async () => {
      const held = await run([before, badFile, after], mode, true);
      const whole = await run([before, badFile, after], mode, false);
      expect({ ...held, judged: [] }).toEqual({ ...whole, judged: [] });
      expect(held.stderr).toContain(`${badFile}:${bad.length}: case ${bad.length - 2}: events[0].id`);
      expect(held.totals).toMatchObject({ errors: 1, judged: 3 * bad.length - 1 });
    });
  }
});
