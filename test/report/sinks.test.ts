/** The stdout and stderr sinks of `judge`: what each writes per result and at the end, from the results and the Tally alone. */
import { closeSync, mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emptyUsage } from "../../runtime/semantic.js";
import type { TrajectoryJudgment } from "../../runtime/types.js";
import type { CaseResult } from "../../compiler/run/judge-cases.js";
import { Tally } from "../../compiler/analyses/tally.js";
import { elementHead, elementWithCase, jsonElement, jsonlSink, jsonSink, lineHead, lineWithCase } from "../../compiler/report/json.js";
import { progressSink } from "../../compiler/report/progress.js";
import { CHUNK_CHARS, chunkedWriter, fileWrite, runSinks, type OutputSink } from "../../compiler/report/sink.js";
import { textSink } from "../../compiler/report/text.js";

const judgment = (id: string, verdict: TrajectoryJudgment["verdict"]): TrajectoryJudgment => ({
  behavior: "b",
  trajectoryId: id,
  verdict,
  metaBehaviors: [{ name: "R", verdict, naReason: verdict === "na" ? "not_applicable" : null, triggered: verdict !== "na", clauses: [] }],
});
const usage = { ...emptyUsage(), calls: 1, requests: 1, inputTokens: 100, outputTokens: 20 };
const results: CaseResult[] = [
  { kind: "judged", input: { file: "a.json", index: 0 }, judgment: judgment("t1", "true"), usage },
  { kind: "failed", input: { file: "b.jsonl", index: 1, line: 2 }, message: "events must be an array", usage: emptyUsage() },
  { kind: "judged", input: { file: "b.jsonl", index: 2, line: 3 }, judgment: judgment("t2", "false"), usage },
];

/** Runs the results through one sink, as `judge` does, and returns what it wrote where. */
async function drive(make: (out: (t: string) => void, err: (t: string) => void) => OutputSink): Promise<{ out: string; err: string }> {
  let out = "";
  let err = "";
  const sink = make(
    (t) => (out += t),
    (t) => (err += t),
  );
  expect(await runSinks(results, [sink], new Tally(["R"]))).toEqual([]);
  return { out, err };
}

describe("jsonSink", () => {
  it("streams exactly JSON.stringify(all, null, 2), a failed case in its place, and puts the summary on the other stream", async () => {
    const { out, err } = await drive((o, e) => jsonSink(o, e, { usage: true }));
    // Each judgment carries its input's file and case index after its own fields.
    const expected = [
      { ...judgment("t1", "true"), file: "a.json", case: 0 },
      { file: "b.jsonl", case: 1, line: 2, caseError: "events must be an array" },
      { ...judgment("t2", "false"), file: "b.jsonl", case: 2 },
    ];
    expect(out).toBe(`${JSON.stringify(expected, null, 2)}\n`);
    expect(err).toBe("model calls: 2 answered, 0 from cache, 0 failed; requests sent: 2 (0 failed); tokens: 200 in, 40 out\n");
  });

  it("writes [] for no cases, and no usage line without a model", async () => {
    let out = "";
    let err = "";
    const sink = jsonSink(
      (t) => (out += t),
      (t) => (err += t),
      { usage: false },
    );
    await sink.finish(new Tally());
    expect(out).toBe("[]\n");
    expect(err).toBe("");
  });
});

describe("jsonlSink", () => {
  it("writes line i as --json's element i, one line per case as it comes, and the summary on the other stream", async () => {
    const json = await drive((o, e) => jsonSink(o, e, { usage: true }));
    const jsonl = await drive((o, e) => jsonlSink(o, e, { usage: true }));
    const lines = jsonl.out.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((l) => JSON.parse(l))).toEqual(JSON.parse(json.out));
    expect(lines[1]).toBe('{"file":"b.jsonl","case":1,"line":2,"caseError":"events must be an array"}');
    expect(jsonl.err).toBe(json.err);
  });

  it("writes each line when its case is added, not at the end", () => {
    const writes: string[] = [];
    const sink = jsonlSink(
      (t) => writes.push(t),
      () => {},
      { usage: false },
    );
    sink.add(results[0]!);
    expect(writes).toHaveLength(1);
    sink.add(results[1]!);
    expect(writes).toHaveLength(2);
  });
});

describe("JSON of judgments of any shape (issue 26: stringified without copying)", () => {
  // What a judge.mjs could return: its own `file` or `case`, a toJSON, nothing at all, an inherited field.
  const odd: Record<string, unknown>[] = [
    { ...judgment("plain", "true") },
    { ...judgment("own-file", "true"), file: "mine.json" },
    { case: 7, ...judgment("own-case", "false") },
    { ...judgment("to-json", "true"), toJSON: () => ({ replaced: true }) },
    Object.assign(Object.create({ toJSON: () => "inherited" }) as object, judgment("inherited-to-json", "na")),
    Object.assign(Object.create({ file: "proto.json" }) as object, judgment("inherited-file", "na")),
    {},
    { verdict: "true", nested: { file: "deep", list: [], empty: {} } },
  ];
  const oddResults: CaseResult[] = odd.map((j, index) => ({
    kind: "judged",
    input: { file: `dir/"quoted"\u2028.json`, index },
    judgment: j as unknown as TrajectoryJudgment,
  }));

  it("--jsonl writes JSON.stringify of the copy with file and case, line by line", async () => {
    let out = "";
    const sink = jsonlSink(
      (t) => (out += t),
      () => {},
      { usage: false },
    );
    // Added as runSinks adds them (the tally needs real judgments).
    for (const r of oddResults) sink.add(r);
    expect(await sink.finish(new Tally())).toEqual([]);
    expect(out).toBe(oddResults.map((r) => `${JSON.stringify(jsonElement(r))}\n`).join(""));
  });

  it("--json writes JSON.stringify(all, null, 2) of the copies", async () => {
    let out = "";
    const sink = jsonSink(
      (t) => (out += t),
      () => {},
      { usage: false },
    );
    // Added as runSinks adds them (the tally needs real judgments).
    for (const r of oddResults) sink.add(r);
    expect(await sink.finish(new Tally())).toEqual([]);
    expect(out).toBe(`${JSON.stringify(oddResults.map(jsonElement), null, 2)}\n`);
  });

  it("what a worker thread renders (lineHead, elementHead) completes to the same bytes, or is left to the main thread", () => {
    for (const r of oddResults) {
      if (r.kind !== "judged") continue;
      const line = lineHead(r.judgment, r.input.file);
      if (line !== undefined) expect(lineWithCase(line, r.input.index)).toBe(JSON.stringify(jsonElement(r)));
      const head = elementHead(r.judgment, r.input.file);
      if (head !== undefined) expect(elementWithCase(head, r.input.index)).toBe(JSON.stringify([jsonElement(r)], null, 2).slice(4, -2));
    }
    // A judgment's own file or case, or a toJSON, is rendered from the copy on the main thread.
    expect(odd.slice(1, 5).map((j) => lineHead(j as unknown as TrajectoryJudgment, "f"))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("each case names its own file, whichever file came before (the quoted name is kept from case to case)", () => {
    const files = ["a.json", `dir/"quoted"\u2028.json`, "a.json", ["a", "json"].join("."), "b\\c.jsonl", "", "a.json"];
    const j = judgment("t", "true");
    files.forEach((file, index) => {
      const r: CaseResult = { kind: "judged", input: { file, index }, judgment: j };
      expect(lineWithCase(lineHead(j, file)!, index)).toBe(JSON.stringify(jsonElement(r)));
      expect(elementWithCase(elementHead(j, file)!, index)).toBe(JSON.stringify([jsonElement(r)], null, 2).slice(4, -2));
    });
  });
});

describe("runSinks over batches (issue 26)", () => {
  it("adds a batch's results in order, as the same results one by one", async () => {
    const flat = await drive((o, e) => jsonlSink(o, e, { usage: true }));
    let out = "";
    let err = "";
    const sink = jsonlSink(
      (t) => (out += t),
      (t) => (err += t),
      { usage: true },
    );
    const tally = new Tally(["R"]);
    expect(await runSinks([[results[0]!, results[1]!], results[2]!], [sink], tally)).toEqual([]);
    expect({ out, err }).toEqual(flat);
    expect(tally.totals).toMatchObject({ judged: 2, errors: 1 });
  });

  it("holds back the next batch, not the rest of this one, while a sink is not drained", async () => {
    let pulled = 0;
    const added: number[] = [];
    async function* source(): AsyncGenerator<CaseResult[]> {
      pulled++;
      yield [results[0]!, results[1]!];
      pulled++;
      yield [results[2]!];
    }
    let release: () => void = () => {};
    let blocked = true;
    const sink: OutputSink = {
      add: (r) => void added.push(r.input.index),
      async finish() {
        return [];
      },
      drained: () => (blocked ? new Promise<void>((resolve) => (release = resolve)) : undefined),
    };
    const run = runSinks(source(), [sink], new Tally());
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect([pulled, added]).toEqual([1, [0, 1]]);
    blocked = false;
    release();
    expect(await run).toEqual([]);
    expect([pulled, added]).toEqual([2, [0, 1, 2]]);
  });
});

describe("runSinks and a slow reader", () => {
  it("reads no further result while a sink is not drained, and goes on once it is", async () => {
    let pulled = 0;
    async function* source(): AsyncGenerator<CaseResult> {
      for (const r of results) {
        pulled++;
        yield r;
      }
    }
    let release: () => void = () => {};
    let blocked = true;
    const sink: OutputSink = {
      add() {},
      async finish() {
        return [];
      },
      drained: () => (blocked ? new Promise<void>((resolve) => (release = resolve)) : undefined),
    };
    const run = runSinks(source(), [sink], new Tally());
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(pulled).toBe(1);
    blocked = false;
    release();
    expect(await run).toEqual([]);
    expect(pulled).toBe(3);
  });
});

describe("textSink", () => {
  it("writes each judged trajectory with its cost, then the table, totals and summary; a failed case is not its business", async () => {
    const { out, err } = await drive((o) => textSink(o, { usage: true }));
    expect(err).toBe("");
    expect(out).toContain("PASS  t1  (a.json)\n");
    expect(out).toContain("  model calls: 1 answered");
    expect(out).not.toContain("events must be an array");
    expect(
      out.endsWith(
        "2 trajectories judged: 1 true, 1 false, 0 na; 1 could not be judged\nmodel calls: 2 answered, 0 from cache, 0 failed; requests sent: 2 (0 failed); tokens: 200 in, 40 out\n",
      ),
    ).toBe(true);
    expect(out).toMatch(/\nRule +Passed +Failed +Didn't apply +No verdict\n-+ +-+ +-+ +-+ +-+\nR +1 +1 +0 +0\n/);
  });
});

describe("progressSink", () => {
  it("names each failed case with its place; shows no count off a terminal", async () => {
    const { out, err } = await drive((_o, e) => progressSink(e, { tty: false }));
    expect(out).toBe("");
    expect(err).toBe("error: b.jsonl:2: case 1: events must be an array\n");
  });

  it("on a terminal, clears its count before an error line and at the end", async () => {
    let err = "";
    const sink = progressSink((t) => (err += t), { tty: true });
    for (let i = 0; i < 100; i++) sink.add(results[0]!);
    sink.add(results[1]!);
    await sink.finish(new Tally());
    expect(err).toBe("\rjudged 100 trajectories…\r\x1b[K" + "error: b.jsonl:2: case 1: events must be an array\n" + "\r\x1b[K");
  });
});

describe("chunkedWriter (issue 26)", () => {
  const stream = () => {
    const writes: string[] = [];
    return {
      writes,
      writableNeedDrain: false,
      destroyed: false,
      once: () => {},
      off: () => {},
      write: (text: string) => void writes.push(text),
    };
  };

  it("gathers small writes into one, written once the run waits, and flushes the rest", async () => {
    const s = stream();
    const out = chunkedWriter(s);
    out.write("a");
    out.write("b");
    expect(s.writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.writes).toEqual(["ab"]);
    out.write("c");
    out.flush();
    out.flush();
    expect(s.writes).toEqual(["ab", "c"]);
  });

  it("writes as soon as CHUNK_CHARS have gathered, every character in order", () => {
    const s = stream();
    const out = chunkedWriter(s);
    const pieces = Array.from({ length: 3000 }, (_, i) => `${i},`.repeat(20));
    for (const piece of pieces) out.write(piece);
    expect(s.writes.length).toBeGreaterThan(1);
    expect(s.writes.every((w) => w.length >= CHUNK_CHARS)).toBe(true);
    out.flush();
    expect(s.writes.join("")).toBe(pieces.join(""));
  });

  it("fileWrite writes on a file's descriptor, and leaves pipes and terminals to the stream", () => {
    const path = join(mkdtempSync(join(tmpdir(), "bj-sink-")), "out.txt");
    const fd = openSync(path, "w");
    const write = fileWrite({ fd, isTTY: false })!;
    write("é, ");
    write("then more\n");
    closeSync(fd);
    expect(readFileSync(path, "utf8")).toBe("é, then more\n");
    expect(fileWrite({ fd: 1, isTTY: true })).toBeUndefined();
    expect(fileWrite({})).toBeUndefined();
  });
});
