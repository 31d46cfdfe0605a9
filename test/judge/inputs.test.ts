/** Reading trajectory files (docs/FORMATS.md §2): what producers write is read; what cannot be read is located, never fatal. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { byteLines, lineBatches } from "../../compiler/files/byte-lines.js";
import { describeOrigin, type InputCase } from "../../compiler/inputs/case.js";
import { readCaseBatches, readCases } from "../../compiler/inputs/inputs.js";
import { findJsonSyntaxError } from "../../compiler/files/json-syntax.js";
import { failureMessage, locatedMessage } from "../../compiler/run/judge-cases.js";
import { TrajectoryError } from "../../runtime/trajectory.js";

const trajectory = { id: "t1", complete: true, events: [{ id: "e1", actor: "agent", action: "act" }] };

async function casesOf(files: Record<string, string>, order = Object.keys(files)): Promise<InputCase[]> {
  const dir = mkdtempSync(join(tmpdir(), "bj-inputs-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const cases: InputCase[] = [];
  for await (const c of readCases(order.map((name) => join(dir, name)))) cases.push({ ...c, file: c.file.slice(dir.length + 1) });
  return cases;
}

describe("readCases", () => {
  test("a .json array read whole comes in batches of at most 64 cases, every element once, in order, with its line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-inputs-"));
    const file = join(dir, "many.json");
    const count = 200;
    writeFileSync(file, `[\n${Array.from({ length: count }, (_, i) => JSON.stringify({ ...trajectory, id: `t${i}` })).join(",\n")}\n]\n`);
    const sizes: number[] = [];
    const cases: InputCase[] = [];
    for await (const batch of readCaseBatches([file])) {
      sizes.push(batch.length);
      cases.push(...batch);
    }
    expect(sizes).toEqual([64, 64, 64, 8]);
    expect(cases.map((c) => c.index)).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(cases.map((c) => (c.trajectory as { id: string }).id)).toEqual(Array.from({ length: count }, (_, i) => `t${i}`));
    expect(cases.map((c) => c.line)).toEqual(Array.from({ length: count }, (_, i) => i + 2));
  });

  test("a UTF-8 byte order mark (as Windows editors write it) is not part of the JSON", async () => {
    const bom = "\uFEFF";
    const cases = await casesOf({ "a.json": bom + JSON.stringify(trajectory), "b.jsonl": `${bom}${JSON.stringify(trajectory)}\r\n` });
    expect(cases.map((c) => c.error)).toEqual([undefined, undefined]);
    expect(cases.map((c) => (c.trajectory as { id: string }).id)).toEqual(["t1", "t1"]);
  });

  test("each element of a JSON array knows the line it starts on, strings with brackets and commas notwithstanding", async () => {
    const text = [
      "[",
      `  ${JSON.stringify({ ...trajectory, description: 'a [tricky], {string} with \\" quotes' })},`,
      "",
      "  {",
      `    "trajectory": ${JSON.stringify(trajectory)}`,
      "  }, [1, 2],",
      `  ${JSON.stringify(trajectory)}`,
      "]",
    ].join("\n");
    const cases = await casesOf({ "many.json": text });
    expect(cases.map((c) => [c.index, c.line])).toEqual([
      [0, 2],
      [1, 4],
      [2, 6],
      [3, 7],
    ]);
  });

  test("JSON Lines is recognized by its extension in any case (.jsonl, .JSONL)", async () => {
    const lines = `${JSON.stringify(trajectory)}\n${JSON.stringify({ ...trajectory, id: "t2" })}\n`;
    const cases = await casesOf({ "UPPER.JSONL": lines });
    expect(cases.map((c) => [c.error, c.line])).toEqual([
      [undefined, 1],
      [undefined, 2],
    ]);
  });

  test("a labeled case may carry other keys (notes, tags): like a trajectory's, they are ignored", async () => {
    const expected = { verdict: "true", metaBehaviorVerdicts: {} };
    const [c] = await casesOf({ "a.json": JSON.stringify({ trajectory, expected, notes: "why this label" }) });
    expect(c!.error).toBeUndefined();
    expect(c!.expected).toEqual(expected);
    expect(c!.labeled).toBe(true);
  });

  test("a regular .jsonl file read in chunks: lines across chunk ends, CRLF split between two reads, an invalid line located", async () => {
    // Lines of every length around the 64 KB chunk, so line ends and "\r\n" pairs fall on both sides of a chunk's end.
    const lines: string[] = [];
    for (let i = 0; i < 80; i++)
      lines.push(i === 40 ? "{oops" : JSON.stringify({ ...trajectory, id: `t${i}`, description: "x".repeat((i * 7919) % 20_000) }));
    const text = `${lines.join("\r\n")}\r\n`;
    const cases = await casesOf({ "a.jsonl": text });
    expect(cases).toHaveLength(lines.length);
    expect(cases.map((c) => c.line)).toEqual(lines.map((_, i) => i + 1));
    expect(cases.map((c) => (c.error === undefined ? (c.trajectory as { id: string }).id : "error"))).toEqual(
      lines.map((_, i) => (i === 40 ? "error" : `t${i}`)),
    );
    expect(cases[40]!.error).toContain("JSON");
  });

  test("a .jsonl that cannot be read is an error case; the files after it are still read", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-inputs-"));
    mkdirSync(join(dir, "folder.jsonl"));
    writeFileSync(join(dir, "ok.json"), JSON.stringify(trajectory));
    const cases: InputCase[] = [];
    for await (const c of readCases([join(dir, "folder.jsonl"), join(dir, "ok.json")])) cases.push(c);
    expect(cases).toHaveLength(2);
    expect(cases[0]!.error).toMatch(/^cannot read file: EISDIR/);
    expect(cases[1]!.error).toBeUndefined();
  });
});

describe("invalid JSON is located at file:line:col", () => {
  const located = (c: InputCase) => `${describeOrigin(c)}: ${c.error}`;

  test("a .json file, including the mistakes Node 20 reports without a position (Unexpected token)", async () => {
    const cases = await casesOf({
      "token.json": '{\n  "id": "t1",\n  "complete": }\n',
      "comma.json": '[\n  {"id": 1},\n  {"id": 2},\n]',
      "eof.json": '{"id": "t1",\n "events": [1, 2',
      "string.json": '{"id": "t1\n"}',
    });
    expect(cases.map(located)).toEqual([
      "token.json:3:15: case 0: invalid JSON: expected a value, got '}'",
      "comma.json:4:1: case 0: invalid JSON: expected a value after the comma (JSON allows no trailing comma)",
      "eof.json:2:17: case 0: invalid JSON: unexpected end of the input: a list is not closed",
      "string.json:1:11: case 0: invalid JSON: a string must not hold a line break (write \\n)",
    ]);
    expect(cases.map((c) => c.file)).toEqual(["token.json", "comma.json", "eof.json", "string.json"]);
  });

  test("a JSON Lines line: its own line, the column in it, and the other lines still read", async () => {
    const good = JSON.stringify(trajectory);
    const cases = await casesOf({ "trips.jsonl": `${good}\n\n{"id": "t2", "complete": tru}\n${good}\n` });
    expect(cases.map((c) => (c.error === undefined ? describeOrigin(c) : located(c)))).toEqual([
      "trips.jsonl:1: case 0",
      'trips.jsonl:3:26: case 1: invalid JSON: expected a value, got the bare word "tru" (strings need double quotes)',
      "trips.jsonl:4: case 2",
    ]);
  });

  test("the scanner accepts exactly what JSON.parse accepts, on thousands of one-character mutations", () => {
    const seeds = [
      JSON.stringify({
        id: "t",
        complete: true,
        events: [{ id: "e1", actor: "agent", action: "a", content: 'x\ny \u00e9"', metadata: { k: "v" } }],
        n: [-1.5e3, 0, 12],
      }),
      '[ {"a" : [ ] , "b" : { } } , null , false , "\\u0041\\/" , -0.0E+1 ]',
      '\r\n{"x":[1,[2,[3]]]}\t',
    ];
    const alphabet = ['"', "\\", "{", "}", "[", "]", ",", ":", " ", "\n", "0", "1", "-", "+", ".", "e", "t", "n", "u", "x", "\u0001"];
    let state = 42;
    const random = (n: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % n;
    };
    let invalid = 0;
    for (const seed of seeds) {
      expect(findJsonSyntaxError(seed)).toBeUndefined();
      for (let k = 0; k < 2000; k++) {
        const at = random(seed.length + 1);
        const char = alphabet[random(alphabet.length)]!;
        const kind = random(3);
        const text =
          kind === 0
            ? seed.slice(0, at) + seed.slice(at + 1)
            : kind === 1
              ? seed.slice(0, at) + char + seed.slice(at)
              : seed.slice(0, at) + char + seed.slice(at + 1);
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
          invalid++;
        }
        const found = findJsonSyntaxError(text);
        if (valid !== (found === undefined))
          throw new Error(`disagrees with JSON.parse on ${JSON.stringify(text)}: ${JSON.stringify(found)}`);
        if (found !== undefined) expect(found.offset).toBeLessThanOrEqual(text.length);
      }
    }
    expect(invalid).toBeGreaterThan(1000);
  });

  test("the scanner is iterative: nesting as deep as JSON.parse takes does not overflow it", () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(199_999)}`;
    expect(findJsonSyntaxError(deep)).toEqual({ offset: 399_999, message: "unexpected end of the input: a list is not closed" });
  });
});

describe("invalid UTF-8 is an error with its byte offset, never a silent U+FFFD", () => {
  const located = (c: InputCase) =>
    c.error === undefined ? `${describeOrigin(c)}: ${(c.trajectory as { id: string }).id}` : `${describeOrigin(c)}: ${c.error}`;

  async function casesOfBytes(files: Record<string, Buffer>): Promise<InputCase[]> {
    const dir = mkdtempSync(join(tmpdir(), "bj-inputs-"));
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
    const cases: InputCase[] = [];
    for await (const c of readCases(Object.keys(files).map((name) => join(dir, name))))
      cases.push({ ...c, file: c.file.slice(dir.length + 1) });
    return cases;
  }

  /** A trajectory line whose id holds the given raw bytes. */
  const withId = (id: Buffer) => Buffer.concat([Buffer.from('{"id":"'), id, Buffer.from('","complete":true,"events":[]}')]);

  test("two ids that differ only in their invalid bytes do not both read as the same U+FFFD id", async () => {
    const first = withId(Buffer.from([0x61, 0xff]));
    const second = withId(Buffer.from([0x61, 0xfe]));
    const cases = await casesOfBytes({
      "a.json": Buffer.concat([Buffer.from("[\n"), first, Buffer.from(",\n"), second, Buffer.from("\n]")]),
      "one.json": Buffer.concat([
        Buffer.from('{\n  "id": "caf\u00e9 '),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('",\n  "complete": true, "events": []}'),
      ]),
    });
    expect(cases.map(located)).toEqual([
      "a.json:2:9: case 0: invalid UTF-8 at byte 10: 0xFF",
      "one.json:2:15: case 0: invalid UTF-8 at byte 17: 0xC3 0x28",
    ]);
  });

  test("JSON Lines: each line decoded on its own, the offset counted in the file, the other lines judged", async () => {
    const good = Buffer.from(`${JSON.stringify(trajectory)}\r\n`);
    const bad = withId(Buffer.from([0x65, 0xed, 0xa0, 0x80])); // an encoded surrogate: not UTF-8
    const cut = withId(Buffer.from([0xe2, 0x82])); // a sequence cut short
    const text = Buffer.concat([good, bad, Buffer.from("\r\n"), good, cut, Buffer.from("\n"), good]);
    const cases = await casesOfBytes({ "trips.jsonl": text });
    const offset = good.length;
    expect(cases.map(located)).toEqual([
      "trips.jsonl:1: case 0: t1",
      `trips.jsonl:2:9: case 1: invalid UTF-8 at byte ${offset + 8}: 0xED 0xA0`,
      "trips.jsonl:3: case 2: t1",
      `trips.jsonl:4:8: case 3: invalid UTF-8 at byte ${2 * offset + bad.length + 2 + 7}: 0xE2 0x82 0x22`,
      "trips.jsonl:5: case 4: t1",
    ]);
  });

  test("JSON Lines split across read chunks keep their lines, offsets and line ends (\\n, \\r\\n, lone \\r)", async () => {
    const line = (id: string) => JSON.stringify({ ...trajectory, id, description: "x".repeat(30_000) });
    const big = [line("a"), line("b"), line("c"), line("d")];
    const bytes = Buffer.concat([
      Buffer.from(`${big[0]}\r`),
      Buffer.from(`${big[1]}\r\n\r\n`),
      Buffer.from(`${big[2]}\n`),
      Buffer.from(`${big[3]}`),
      Buffer.from([0x0a, 0x80]),
    ]);
    const cases = await casesOfBytes({ "long.jsonl": bytes });
    expect(cases.map(located)).toEqual([
      "long.jsonl:1: case 0: a",
      "long.jsonl:2: case 1: b",
      "long.jsonl:4: case 2: c",
      "long.jsonl:5: case 3: d",
      `long.jsonl:6:1: case 4: invalid UTF-8 at byte ${bytes.length - 1}: 0x80`,
    ]);
  });
});

describe("byteLines", () => {
  async function split(chunks: string[]): Promise<string[]> {
    async function* source() {
      for (const chunk of chunks) yield Buffer.from(chunk, "latin1");
    }
    const lines: string[] = [];
    for await (const { bytes, offset } of byteLines(source())) lines.push(`${offset}:${Buffer.from(bytes).toString("latin1")}`);
    return lines;
  }

  test("splits where readline does, wherever the chunks are cut, with each line's offset", async () => {
    const text = "ab\r\ncd\ref\n\ngh\r\r\nij";
    const expected = ["0:ab", "4:cd", "7:ef", "10:", "11:gh", "14:", "16:ij"];
    // Every way of cutting the text in two and in three.
    for (let a = 0; a <= text.length; a++) {
      expect(await split([text.slice(0, a), text.slice(a)])).toEqual(expected);
      for (let b = a; b <= text.length; b++) expect(await split([text.slice(0, a), text.slice(a, b), text.slice(b)])).toEqual(expected);
    }
    expect(await split(["x\n"])).toEqual(["0:x"]);
    expect(await split(["", "x", "", "y\r"])).toEqual(["0:xy"]);
  });
});

describe("lineBatches", () => {
  /** Each line as byteLines gives it, `offset:text`: decoded where lineBatches decoded it, else its bytes read as latin1 (marked). */
  async function split(chunks: Buffer[]): Promise<string[]> {
    async function* source() {
      // One buffer for every chunk, as the file reader reads: what a batch keeps of a chunk would be overwritten.
      const shared = Buffer.alloc(Math.max(1, ...chunks.map((c) => c.length)));
      for (const chunk of chunks) {
        chunk.copy(shared);
        yield shared.subarray(0, chunk.length);
      }
    }
    const lines: string[] = [];
    let offset = 0;
    for await (const batch of lineBatches(source())) {
      if (batch.text)
        for (const text of batch.lines) {
          lines.push(`${offset}:${text}`);
          offset = NaN; // a text line has no offset of its own; the next byte line says where it is
        }
      else for (const { bytes, offset: at } of batch.lines) lines.push(`${at}:bytes ${Buffer.from(bytes).toString("latin1")}`);
    }
    return lines;
  }
  const byteSplit = async (bytes: Buffer): Promise<string[]> => {
    const lines: string[] = [];
    async function* one() {
      yield bytes;
    }
    for await (const { bytes: line, offset } of byteLines(one())) lines.push(`${offset}:${Buffer.from(line).toString("latin1")}`);
    return lines;
  };

  test("the lines and line ends of byteLines wherever the chunks are cut; bytes that are not UTF-8 keep their offsets", async () => {
    const text = Buffer.concat([Buffer.from("ab\r\ncd\ref\n\ngh\r"), Buffer.from([0xff]), Buffer.from("\r\nij\u00e9k\nl")]);
    const expected = await byteSplit(text);
    expect(expected).toEqual(["0:ab", "4:cd", "7:ef", "10:", "11:gh", "14:\xff", "17:ij\xc3\xa9k", "23:l"]);
    for (let a = 0; a <= text.length; a++)
      for (let b = a; b <= text.length; b++) {
        const lines = await split([text.subarray(0, a), text.subarray(a, b), text.subarray(b)]);
        // The same lines in the same order: a text line is the UTF-8 of the bytes, a byte line has the offset byteLines gives.
        expect(lines).toHaveLength(expected.length);
        lines.forEach((line, i) => {
          const [at, ...rest] = expected[i]!.split(":");
          const bytes = Buffer.from(rest.join(":"), "latin1");
          if (line.includes(":bytes ")) expect(line).toBe(`${at}:bytes ${bytes.toString("latin1")}`);
          else expect(line.slice(line.indexOf(":") + 1)).toBe(bytes.toString("utf8"));
        });
        // The line holding 0xFF comes as bytes, wherever it falls.
        expect(lines[5]).toBe("14:bytes \xff");
      }
  });
});

describe("failureMessage", () => {
  test("names file, case and field; a labeled case's fields start at trajectory", () => {
    const plain = { file: "a.json", index: 2 };
    const labeled = { file: "b.jsonl", index: 0, line: 3, labeled: true };
    const actor = new TrajectoryError("events[0].actor", "must be user, agent, or tool");
    const whole = new TrajectoryError("", "a trajectory must be a JSON object");
    expect(failureMessage(plain, actor)).toBe("events[0].actor must be user, agent, or tool");
    expect(failureMessage(labeled, actor)).toBe("trajectory.events[0].actor must be user, agent, or tool");
    expect(failureMessage(plain, whole)).toBe("a trajectory must be a JSON object");
    expect(failureMessage(labeled, whole)).toBe("trajectory: a trajectory must be a JSON object");
    // The place is added in one place, in front.
    expect(locatedMessage(plain, failureMessage(plain, actor))).toBe("a.json: case 2: events[0].actor must be user, agent, or tool");
    expect(locatedMessage(labeled, failureMessage(labeled, whole))).toBe(
      "b.jsonl:3: case 0: trajectory: a trajectory must be a JSON object",
    );
  });
});
