/**
 * The hook's checkpoints (guard/claude-code-checkpoint.ts): a session's
 * events imported from a checkpoint are, for every prefix of every recorded
 * transcript, exactly what importing the whole prefix gives; and in a long
 * session the checkpoint is used, so a call imports only the records after it.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { CHECKPOINT_EVERY, importTranscript, type TranscriptCheckpoint } from "../../guard/claude-code-checkpoint.js";
import { fromClaudeCode } from "../../importers/claude-code.js";

const ROOT = join(import.meta.dirname, "..", "..");
const FIXTURES = join(ROOT, "test", "fixtures", "importers", "claude-code");

function whole(text: string) {
  const records = text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => {
      try {
        return JSON.parse(l) as unknown;
      } catch {
        return l;
      }
    });
  return fromClaudeCode(records, { id: "s" }).trajectories[0]!.events;
}

/** A long session: a prompt, then Read/Edit/Bash calls, each API message one record per block, now and then a word first. */
function longSession(calls: number): string {
  const lines: string[] = [JSON.stringify({ type: "user", uuid: "u0", message: { role: "user", content: "Tidy every module." } })];
  for (let k = 1; k <= calls; k++) {
    const id = `toolu_${k}`;
    const msg = { model: "claude-sonnet-4-5", id: `msg_${k}`, type: "message", role: "assistant", stop_reason: "tool_use" };
    if (k % 7 === 0)
      lines.push(
        JSON.stringify({ type: "assistant", uuid: `t${k}`, message: { ...msg, content: [{ type: "text", text: `módulo ${k} ✓ 🚀` }] } }),
      );
    const name = ["Read", "Edit", "Bash"][k % 3]!;
    lines.push(
      JSON.stringify({
        type: "assistant",
        uuid: `a${k}`,
        message: { ...msg, content: [{ type: "tool_use", id, name, input: { file_path: `/m${k % 5}.js` } }] },
      }),
    );
    if (k % 11 === 0) lines.push(JSON.stringify({ type: "user", uuid: `p${k}`, message: { role: "user", content: `keep going (${k})` } }));
    lines.push(
      JSON.stringify({
        type: "user",
        uuid: `r${k}`,
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: id, content: "ok", ...(k % 13 === 0 ? { is_error: true } : {}) }],
        },
      }),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Every prefix in turn, as the hook meets them, the checkpoint carried from call to call. */
function replayPrefixes(text: string): { used: number } {
  const lines = text.split("\n").filter((l) => l !== "");
  let checkpoint: TranscriptCheckpoint | undefined;
  let used = 0;
  for (let n = 1; n <= lines.length; n++) {
    const prefix = `${lines.slice(0, n).join("\n")}\n`;
    const before = checkpoint;
    const out = importTranscript(prefix, "s", checkpoint);
    if (before !== undefined && before.offset > 0) used++;
    expect(out.events, `prefix of ${n} lines`).toEqual(whole(prefix));
    checkpoint = out.checkpoint;
  }
  return { used };
}

describe("importTranscript from a checkpoint", () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith(".jsonl"));
  test.each([...files, "../../../../examples/claude-code-guard/transcript.jsonl"])(
    "every prefix of %s imports as the whole prefix does",
    (file) => {
      replayPrefixes(readFileSync(join(FIXTURES, file), "utf8"));
    },
  );

  test("a long session is imported from its checkpoints, and gives the same events", () => {
    const text = longSession(200);
    const { used } = replayPrefixes(text);
    const lineCount = text.split("\n").length - 1;
    expect(used).toBeGreaterThan(lineCount * 0.95);
    const last = importTranscript(text, "s", undefined).checkpoint!;
    // The checkpoint after a whole read sits at the last cut: what a call imports after it is a few records.
    expect(text.length - last.offset).toBeLessThan(600);
    const again = importTranscript(text, "s", last);
    expect(again.events).toEqual(whole(text));
    expect(again.checkpoint).toBe(last);
  });

  test("a file that no longer holds the checkpoint's text there (another session at the same path) is read whole", () => {
    const cp = importTranscript(longSession(40), "s", undefined).checkpoint!;
    expect(cp.offset).toBeGreaterThan(0);
    const other = longSession(60).replaceAll('"content":"ok"', '"content":"OK"');
    expect(importTranscript(other, "s", cp).events).toEqual(whole(other));
    expect(CHECKPOINT_EVERY).toBeGreaterThan(1);
  });
});
