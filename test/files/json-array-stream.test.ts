/**
 * A JSON array read element by element (files/json-array-stream.ts) against
 * the whole-text reader: the same elements on the same lines, and a mistake
 * located at the same file:line:col with the same words, wherever the chunks
 * are cut. Large .json files (inputs/stream-inputs.ts) give the same cases as
 * small ones, and stdin (`-`) reads JSON Lines or an array as it comes.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { jsonArrayElements, type ArrayStreamItem } from "../../compiler/files/json-array-stream.js";
import type { InputCase } from "../../compiler/inputs/case.js";
import { readCases } from "../../compiler/inputs/inputs.js";
import { jsonFileCases, parseJsonFile } from "../../compiler/inputs/json-file.js";
import { arrayElementLines } from "../../compiler/inputs/json-text.js";
import { readStdinCases } from "../../compiler/inputs/stream-inputs.js";

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  // A fresh buffer per chunk, as a file or pipe read gives.
  for (let at = 0; at < bytes.length; at += size) yield Buffer.from(bytes.subarray(at, at + size));
}

async function streamed(bytes: Uint8Array, size: number): Promise<ArrayStreamItem[]> {
  const items: ArrayStreamItem[] = [];
  for await (const item of jsonArrayElements(chunked(bytes, size))) items.push(item);
  return items;
}

/** What the whole-text reader makes of `bytes`: the elements and their lines, or the one located error. */
function whole(bytes: Uint8Array): { elements: unknown[]; lines: number[] } | { line?: number; col?: number; error: string } {
  const parsed = parseJsonFile("f.json", bytes);
  if (parsed.kind === "failed") {
    const { line, col, error = "" } = parsed.failure;
    return { ...(line !== undefined ? { line } : {}), ...(col !== undefined ? { col } : {}), error };
  }
  const text = Buffer.from(bytes)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  return { elements: JSON.parse(text) as unknown[], lines: arrayElementLines(text) };
}

/** The streamed reading of `bytes` in chunks of `size`, in the whole reader's terms (a mistake: only the mistake). */
async function streamedAsWhole(bytes: Uint8Array, size: number): Promise<ReturnType<typeof whole>> {
  const items = await streamed(bytes, size);
  const last = items[items.length - 1];
  if (last?.kind === "error") {
    const { kind: _k, ...located } = last;
    return located;
  }
  const elements = items.filter((i) => i.kind === "element");
  return { elements: elements.map((e) => e.value), lines: elements.map((e) => e.line) };
}

const CHUNK_SIZES = [1, 2, 3, 7, 64, 1 << 20];

const VALID = [
  "[]",
  "  [ ]  \n",
  '[{"a": "[tricky], {string} with \\" quotes and \\\\"}, 1, -2.5e3, true, false, null, "x", [], {}]',
  '\uFEFF[\r\n  {"id": "t1"},\r\n  {"id": "t2", "s": "\\\\\\""}\r\n]\r\n',
  '[\n  {"é": "ü🙂"}, {"k": "line\\nbreak"},\n\n  [1, [2, [3]]]\n]',
  "[1,2,3]",
  '["a\\u005b]", "\\"]", "\\\\"]',
  "[ 🙂 ]".replace("🙂", '"🙂"'),
];

const BROKEN = [
  "[",
  "[1",
  "[1,",
  "[1,]",
  "[,1]",
  "[1 2]",
  '[{"a": 1]',
  '[{"a": tru}]',
  '[{"a": 1}] x',
  '[{"a": 1}]\n\n  trailing garbage that is long enough to pass the lookahead window of sixty four bytes',
  '[\r\n  {"id": "t1"},\r\n  {"id": "t2",}\r\n]',
  '\uFEFF[{"id": "t1"}, nul]',
  '["unterminated',
  '["line\nbreak"]',
  "[01]",
  "[1.]",
  "[-]",
  '[{"é🙂": "ü"}, {"ü": 1 "x": 2}]',
  '[{"a": "\\x"}]',
  "[[[[]]]",
  '[{"a": 1}}]',
  '["a"b]',
  "[1]]",
  "[] []",
];

const bytesOf = (text: string) => Buffer.from(text, "utf8");

describe("jsonArrayElements, against the whole-text reader", () => {
  test.each(VALID)("valid %j: the same elements on the same lines, wherever the chunks are cut", async (text) => {
    const expected = whole(bytesOf(text));
    expect("elements" in expected).toBe(true);
    for (const size of CHUNK_SIZES) expect(await streamedAsWhole(bytesOf(text), size)).toEqual(expected);
  });

  test.each(BROKEN)("broken %j: the same file:line:col and message, wherever the chunks are cut", async (text) => {
    const expected = whole(bytesOf(text));
    expect("error" in expected).toBe(true);
    for (const size of CHUNK_SIZES) expect(await streamedAsWhole(bytesOf(text), size)).toEqual(expected);
  });

  test("invalid UTF-8 in an element: the same byte offset, line and column", async () => {
    const bytes = Buffer.concat([bytesOf('[\n  {"a": 1},\n  {"b": "x'), Buffer.from([0xff]), bytesOf('"}\n]')]);
    const expected = whole(bytes);
    expect(expected).toMatchObject({ error: "invalid UTF-8 at byte 24: 0xFF" });
    for (const size of CHUNK_SIZES) expect(await streamedAsWhole(bytes, size)).toEqual(expected);
  });

  test("thousands of one-character mutations of an array: the same verdict, elements and located mistake", async () => {
    const seed = '[\n  {"id": "t\\"[1]", "n": [-1.5e3, 0]},\r\n  "é🙂", null, {"x": {"y": [true, false]}}\n]\n';
    const alphabet = ['"', "\\", "{", "}", "[", "]", ",", ":", " ", "\n", "\r", "0", "1", "-", ".", "e", "t", "n", "x", "é", "🙂"];
    let state = 7;
    const random = (n: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % n;
    };
    let broken = 0;
    let compared = 0;
    for (let k = 0; k < 3000; k++) {
      const chars = [...seed];
      const at = random(chars.length + 1);
      const char = alphabet[random(alphabet.length)]!;
      const kind = random(3);
      if (kind === 0) chars.splice(at, 1);
      else if (kind === 1) chars.splice(at, 0, char);
      else chars.splice(at, 1, char);
      const text = chars.join("");
      if (!/^\s*\[/.test(text)) continue;
      const expected = whole(bytesOf(text));
      if ("error" in expected) broken++;
      const size = [1, 5, 13, 4096][random(4)]!;
      const got = await streamedAsWhole(bytesOf(text), size);
      if (JSON.stringify(got) !== JSON.stringify(expected))
        throw new Error(`differs on ${JSON.stringify(text)} (chunks of ${size}): ${JSON.stringify(got)} vs ${JSON.stringify(expected)}`);
      compared++;
    }
    expect(compared).toBeGreaterThan(2500);
    expect(broken).toBeGreaterThan(1000);
  });
});

describe("a .json file past the streaming threshold", () => {
  const saved = process.env.BEHAVIOR_JUDGE_JSON_STREAM_BYTES;
  afterEach(() => {
    if (saved === undefined) delete process.env.BEHAVIOR_JUDGE_JSON_STREAM_BYTES;
    else process.env.BEHAVIOR_JUDGE_JSON_STREAM_BYTES = saved;
  });

  async function casesOf(path: string, threshold: string | undefined, from?: string): Promise<InputCase[]> {
    if (threshold === undefined) delete process.env.BEHAVIOR_JUDGE_JSON_STREAM_BYTES;
    else process.env.BEHAVIOR_JUDGE_JSON_STREAM_BYTES = threshold;
    const cases: InputCase[] = [];
    for await (const c of readCases([path], from === undefined ? {} : { from })) cases.push(c);
    return cases;
  }

  const trajectory = (id: string) => ({ id, complete: true, events: [{ id: "e1", actor: "agent", action: "a", content: '[x], {y} " z' }] });
  const labeled = { trajectory: trajectory("l"), expected: { verdict: "true", metaBehaviorVerdicts: {} } };
  const files: Record<string, string> = {
    "plain.json": JSON.stringify([trajectory("a"), trajectory("b")], null, 2),
    "bom-crlf.json": `\uFEFF${JSON.stringify([trajectory("a"), labeled, trajectory("c")], null, 2).replace(/\n/g, "\r\n")}\r\n`,
    "one-line.json": JSON.stringify([trajectory("a"), labeled, { id: "bad" }]),
    "broken.json": `[\n${JSON.stringify(trajectory("a"))},\n{"id": "b", "complete": tru}\n]`,
    "garbage.json": `${JSON.stringify([trajectory("a")])}\n]`,
    "unlabeled-expected.json": JSON.stringify([{ trajectory: trajectory("a"), expected: { verdict: "maybe" } }]),
    "not-cases.json": JSON.stringify([
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ]),
    "numbers.json": "[1, 2, 3]",
    "empty.json": "[]",
    "object.json": JSON.stringify(trajectory("o")),
  };

  test("gives exactly the cases the whole-file reader gives, for valid, broken and non-trajectory arrays", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-stream-json-"));
    for (const [name, text] of Object.entries(files)) {
      const path = join(dir, name);
      writeFileSync(path, text);
      for (const from of [undefined, "trajectory"]) {
        const small = await casesOf(path, undefined, from);
        const large = await casesOf(path, "0", from);
        expect(large, `${name} --from ${from}`).toEqual(small);
      }
    }
    // Located as before: the error's line and column, not the first element's.
    const broken = await casesOf(join(dir, "broken.json"), "0");
    expect(broken).toEqual([
      {
        file: join(dir, "broken.json"),
        index: 0,
        line: 3,
        col: 25,
        error: expect.stringMatching(/^invalid JSON: expected a value, got the bare word "tru"/),
      },
    ]);
  });
});

describe("stdin (readStdinCases)", () => {
  async function stdinCases(text: string | Uint8Array, size = 5, from?: string): Promise<InputCase[]> {
    const bytes = typeof text === "string" ? bytesOf(text) : text;
    const cases: InputCase[] = [];
    for await (const c of readStdinCases(from === undefined ? {} : { from }, chunked(bytes, size))) cases.push(c);
    return cases;
  }
  const t = (id: string) => ({ id, complete: true, events: [{ id: "e1", actor: "agent", action: "a" }] });
  const brief = (c: InputCase) =>
    c.error !== undefined
      ? `${c.file}:${c.line}:${c.col}: case ${c.index}: ${c.error}`
      : `${c.file}:${c.line}: case ${c.index}: ${(c.trajectory as { id: string }).id}`;

  test("JSON Lines unless the first character is [: lines, blank lines, a broken line, all as a .jsonl file reads them", async () => {
    const text = `\uFEFF${JSON.stringify(t("a"))}\r\n\n{"id": "b", "complete": tru}\n${JSON.stringify(t("c"))}`;
    expect((await stdinCases(text)).map(brief)).toEqual([
      "-:1: case 0: a",
      '-:3:25: case 1: invalid JSON: expected a value, got the bare word "tru" (strings need double quotes)',
      "-:4: case 2: c",
    ]);
  });

  test("a JSON array (after whitespace and a byte order mark) is read element by element, each on its line", async () => {
    const text = `\uFEFF \n[\n  ${JSON.stringify(t("a"))},\n  {"trajectory": ${JSON.stringify(t("b"))}}\n]\n`;
    for (const size of [1, 4, 1000]) expect((await stdinCases(text, size)).map(brief)).toEqual(["-:3: case 0: a", "-:4: case 1: b"]);
  });

  test("a mistake in an array ends it: the cases before it, then the mistake located as in a file", async () => {
    const text = `[\n  ${JSON.stringify(t("a"))},\n  {"id": "b",}\n]`;
    const cases = await stdinCases(text);
    const file = whole(bytesOf(text));
    expect(cases.map(brief)).toEqual([
      "-:2: case 0: a",
      "-:3:14: case 1: invalid JSON: expected a property name after the comma (JSON allows no trailing comma)",
    ]);
    expect(file).toMatchObject({ line: 3, col: 14 });
  });

  test("an array that is not trajectories (a trace export) is read as a whole .json file's value; nothing on stdin is no case", async () => {
    const chat = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ];
    const fromStdin = await stdinCases(JSON.stringify(chat));
    const fromFile = [...(await jsonFileCases("-", bytesOf(JSON.stringify(chat)), {}))];
    expect(fromStdin).toEqual(fromFile);
    expect(fromStdin.length).toBeGreaterThan(0);
    expect(await stdinCases("")).toEqual([]);
    expect(await stdinCases(" \n \n")).toEqual([]);
  });
});
