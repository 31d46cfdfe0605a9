/** Reading trajectory files (FORMATS.md §2): what producers write is read; what cannot be read is located, never fatal. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { readCases, type InputCase } from "../compiler/inputs.js";
import { caseErrorMessage } from "../compiler/run.js";
import { TrajectoryError } from "../runtime/trajectory.js";

const trajectory = { id: "t1", complete: true, events: [{ id: "e1", actor: "agent", action: "act" }] };

async function casesOf(files: Record<string, string>, order = Object.keys(files)): Promise<InputCase[]> {
  const dir = mkdtempSync(join(tmpdir(), "bj-inputs-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const cases: InputCase[] = [];
  for await (const c of readCases(order.map((name) => join(dir, name)))) cases.push({ ...c, file: c.file.slice(dir.length + 1) });
  return cases;
}

describe("readCases", () => {
  test("a UTF-8 byte order mark (as Windows editors write it) is not part of the JSON", async () => {
    const bom = "\uFEFF";
    const cases = await casesOf({ "a.json": bom + JSON.stringify(trajectory), "b.jsonl": `${bom}${JSON.stringify(trajectory)}\r\n` });
    expect(cases.map((c) => c.error)).toEqual([undefined, undefined]);
    expect(cases.map((c) => (c.trajectory as { id: string }).id)).toEqual(["t1", "t1"]);
  });

  test("each element of a JSON array knows the line it starts on, strings with brackets and commas notwithstanding", async () => {
    const text = [
      "[",
      `  ${JSON.stringify({ ...trajectory, description: "a [tricky], {string} with \\\" quotes" })},`,
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

describe("caseErrorMessage", () => {
  test("names file, case and field; a labeled case's fields start at trajectory", () => {
    const plain = { file: "a.json", index: 2 };
    const labeled = { file: "b.jsonl", index: 0, line: 3, labeled: true };
    const actor = new TrajectoryError("events[0].actor", "must be user, agent, or tool");
    const whole = new TrajectoryError("", "a trajectory must be a JSON object");
    expect(caseErrorMessage(plain, actor)).toBe("a.json: case 2: events[0].actor must be user, agent, or tool");
    expect(caseErrorMessage(labeled, actor)).toBe("b.jsonl:3: case 0: trajectory.events[0].actor must be user, agent, or tool");
    expect(caseErrorMessage(plain, whole)).toBe("a.json: case 2: a trajectory must be a JSON object");
    expect(caseErrorMessage(labeled, whole)).toBe("b.jsonl:3: case 0: trajectory: a trajectory must be a JSON object");
  });
});
