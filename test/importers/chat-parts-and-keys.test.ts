/**
 * Issue 20 item 23: a plain chat whose messages carry text parts
 * (`content: [{type: "text", text}]`) is a chat log, not an unknown shape;
 * and two fields that flatten to the same metadata key both stay, with a
 * warning, instead of the later one silently replacing the earlier.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { detectFormat, flattenInto, fromOpenAIChat, importTrace } from "../../importers/index.js";
import { runCli } from "../support/cli.js";
import { IMPORTER_FIXTURES } from "../support/importer-fixtures.js";

const PARTS_FIRST = [
  { role: "user", content: [{ type: "text", text: "Refund order A-1, please." }] },
  { role: "assistant", content: "Looking it up." },
];

describe("item 23: a chat list whose first message has content parts", () => {
  test("is detected as openai-chat and imports the text", () => {
    expect(detectFormat(PARTS_FIRST)).toEqual({ format: "openai-chat", candidates: ["openai-chat"] });
    const result = importTrace([
      ...PARTS_FIRST,
      {
        role: "assistant",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
    ]);
    expect(result.errors).toEqual([]);
    expect(result.trajectories[0]!.events.map((e) => [e.actor, e.content])).toEqual([
      ["user", "Refund order A-1, please."],
      ["agent", "Looking it up."],
      ["agent", "a\nb"],
    ]);
  });

  test("judge reads it with no --from", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-parts-"));
    const file = join(dir, "chat.json");
    writeFileSync(file, JSON.stringify(PARTS_FIRST));
    const run = runCli(["judge", join(IMPORTER_FIXTURES, "refund-rules.judge.yaml"), file, "--no-verify", "--no-web"]);
    expect(run.stderr).not.toContain("unknown trace format");
    expect(run.stdout).toContain("1 trajectory judged");
    expect(run.status).toBe(0);
  });

  test("parts of other types still leave the shape to the formats that write them", () => {
    expect(detectFormat([{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "x" }] }]).format).toBe("anthropic");
  });
});

describe("item 23: flattened metadata keys that collide", () => {
  test('{"a.b": "1", "a": {"b": "2"}}: both kept ("a.b", "a.b#2"), and a warning names both fields', () => {
    const result = fromOpenAIChat([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c", type: "function", function: { name: "ship", arguments: '{"a.b": "1", "a": {"b": "2"}}' } }],
      },
      { role: "tool", tool_call_id: "c", content: '{"x": {"y": "first"}, "x.y": "second"}' },
    ]);
    const [call, answer] = result.trajectories[0]!.events;
    expect(call!.metadata).toMatchObject({ "a.b": "1", "a.b#2": "2" });
    expect(answer!.metadata).toMatchObject({ "x.y": "first", "x.y#2": "second" });
    expect(result.warnings).toEqual([
      {
        path: "[0].tool_calls[0].function.arguments",
        message: 'arguments of ship: field "a.b" and field "a" → "b" both flatten to metadata key "a.b"; the second is kept as "a.b#2"',
        trace: 0,
      },
      {
        path: "[1]",
        message: 'result of ship: field "x" → "y" and field "x.y" both flatten to metadata key "x.y"; the second is kept as "x.y#2"',
        trace: 0,
      },
    ]);
  });

  test("flattenInto: #n skips keys taken, and a key the target already had is not overwritten", () => {
    const target: Record<string, string> = { "a.b": "kept" };
    const heard: string[] = [];
    flattenInto(target, { a: { b: "1" }, "a.b#2": "2", "a.b": "3" }, "", (c) => heard.push(`${c.key}->${c.kept}`));
    expect(target).toEqual({ "a.b": "kept", "a.b#2": "1", "a.b#2#2": "2", "a.b#3": "3" });
    expect(heard).toEqual(["a.b->a.b#2", "a.b#2->a.b#2#2", "a.b->a.b#3"]);
  });

  test("without collisions nothing changes: order, dot paths, empty values, facts escaped", () => {
    const target: Record<string, string> = {};
    flattenInto(target, { items: [{ sku: "A1", qty: 2 }], ship: {}, "@turn": "x", none: null });
    expect(Object.entries(target)).toEqual([
      ["items.0.sku", "A1"],
      ["items.0.qty", "2"],
      ["ship", "{}"],
      ["@@turn", "x"],
      ["none", "null"],
    ]);
  });
});
