/** The input reader's importer hook (compiler/inputs/trace-inputs.ts): what is read as is, what is imported, and in which order. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { formatNames } from "../../importers/index.js";
import type { InputCase } from "../../compiler/inputs/case.js";
import { readCases } from "../../compiler/inputs/inputs.js";
import type { TraceReadOptions } from "../../compiler/inputs/trace-inputs.js";

const trajectory = (id: string) => ({ id, complete: true, events: [{ id: "e1", actor: "agent", action: "act" }] });
const chat = (text: string) => ({
  messages: [
    { role: "user", content: text },
    { role: "assistant", content: "ok" },
  ],
});

async function read(name: string, text: string, options: TraceReadOptions = {}): Promise<InputCase[]> {
  const dir = mkdtempSync(join(tmpdir(), "bj-trace-inputs-"));
  writeFileSync(join(dir, name), text);
  const cases: InputCase[] = [];
  for await (const c of readCases([join(dir, name)], options)) cases.push({ ...c, file: c.file.slice(dir.length + 1) });
  return cases;
}

const summary = (cases: InputCase[]) => cases.map((c) => [c.index, c.line, c.error ?? (c.trajectory as { id: string }).id]);

describe("readCases with importers", () => {
  test("JSONL: trajectory lines stream in place, a broken trajectory keeps its place for the validator; chat lines are imported together after them", async () => {
    const lines = [trajectory("t1"), { id: "t2", complete: true }, chat("hi"), trajectory("t3"), chat("again")];
    const cases = await read("mixed.jsonl", lines.map((l) => JSON.stringify(l)).join("\n"));
    expect(cases.map((c) => [c.index, c.line, c.error, (c.trajectory as { id?: string } | undefined)?.id])).toEqual([
      [0, 1, undefined, "t1"],
      [1, 2, undefined, "t2"],
      [2, 4, undefined, "t3"],
      [3, undefined, undefined, "mixed-1"],
      [4, undefined, undefined, "mixed-2"],
    ]);
    // The broken one is handed to the judge as it is (which reports the missing events): no importer guessed at it.
    expect(cases[1]!.trajectory).toEqual({ id: "t2", complete: true });
  });

  test("a JSON array mixing trajectories and a chat log: each element read or imported in place", async () => {
    const cases = await read("mixed.json", JSON.stringify([trajectory("t1"), [{ role: "user", content: "hi" }], trajectory("t2")]));
    expect(summary(cases)).toEqual([
      [0, 1, "t1"],
      [1, 1, "mixed-2"],
      [2, 1, "t2"],
    ]);
  });

  test("something that is neither a trajectory nor a known trace: an error naming the --from values", async () => {
    const [c] = await read("odd.json", JSON.stringify({ rows: [1, 2, 3] }), { formatSetting: "--from" });
    expect(c!.error).toMatch(/^unknown trace format: /);
    // Every format is named, whichever formats the build has.
    expect(c!.error!.endsWith(`pass --from with one of: ${formatNames().join(", ")} (or trajectory)`)).toBe(true);
    // Read by the library (no formatSetting), the message names its from option.
    const [library] = await read("odd.json", JSON.stringify({ rows: [1, 2, 3] }));
    expect(library!.error!.endsWith(`set the from option to one of: ${formatNames().join(", ")} (or trajectory)`)).toBe(true);
  });

  test("--from trajectory never imports; a named format imports even what auto would not guess", async () => {
    const [asIs] = await read("chat.json", JSON.stringify(chat("hi")), { from: "trajectory" });
    expect(asIs!.trajectory).toEqual(chat("hi"));
    const named = await read("chat.json", JSON.stringify([{ role: "user", content: "hi" }]), { from: "anthropic" });
    expect(summary(named)).toEqual([[0, undefined, "chat"]]);
  });

  test("importer warnings reach onWarning, located", async () => {
    const warnings: string[] = [];
    const log = [
      { role: "user", content: "x" },
      { role: "tool", tool_call_id: "ghost", content: "?" },
    ];
    const cases = await read("orphan.json", JSON.stringify(log), { onWarning: (w) => warnings.push(w) });
    expect(cases.map((c) => c.error)).toEqual([undefined]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/\/orphan\.json: openai-chat: trace 0: \[1\]: call id "ghost" answers no earlier call$/);
  });
});
