/**
 * The importers load only when an input needs one (issue 26): `judge` over
 * trajectories loads none of them, and a trace met anywhere (after
 * trajectories in a JSONL file, in an array, on stdin, wrapped in a labeled
 * case, under --from) is imported exactly as when they were loaded from the
 * start. Through the real CLI (dist/), each run a fresh process, so the first
 * trace of a run is the one that loads them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { ROOT, runCli } from "../support/cli.js";
import { IMPORTER_FIXTURES } from "../support/importer-fixtures.js";

const JUDGE = join(IMPORTER_FIXTURES, "refund-rules.judge.yaml");
const TRACER = pathToFileURL(join(ROOT, "test", "support", "trace-imports.mjs")).href;
const IMPORTERS = pathToFileURL(join(ROOT, "dist", "importers")).href + "/";

const dir = mkdtempSync(join(tmpdir(), "bj-lazy-importers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const trajectory = (id: string) => ({
  id,
  complete: true,
  events: [
    { id: "e1", actor: "user", action: "message", content: "refund A-1 please" },
    { id: "e2", actor: "agent", action: "issue_refund", content: "Refunding", metadata: { order_id: "A-1" } },
  ],
});
const chat = {
  messages: [
    { role: "user", content: "refund A-1 please" },
    { role: "assistant", content: "Done, refunded." },
  ],
};
const write = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const lines = (...values: unknown[]) => values.map((v) => JSON.stringify(v)).join("\n") + "\n";

/** A chat log read first, so the importers are loaded before anything else is read. */
const PRELOAD = write("first-a-chat.json", JSON.stringify(chat));

/** `judge --jsonl` of `files`: its lines, and the dist/importers files it loaded. */
function judge(files: string[], options: { input?: string; flags?: string[] } = {}): { out: string[]; err: string; loaded: string[] } {
  const trace = join(mkdtempSync(join(dir, "trace-")), "loaded.txt");
  writeFileSync(trace, "");
  const run = runCli(["judge", JUDGE, ...files, "--jsonl", "--no-verify", "--workers", "1", ...(options.flags ?? [])], {
    nodeArgs: ["--import", TRACER],
    env: { BJ_TRACE_FILE: trace },
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  expect(run.status, run.stderr).toBe(0);
  const loaded = [...new Set(readFileSync(trace, "utf8").split("\n"))].filter((url) => url.startsWith(IMPORTERS));
  return { out: run.stdout.split("\n").filter((l) => l !== ""), err: run.stderr, loaded: loaded.map((url) => url.slice(IMPORTERS.length)) };
}

/** The lines of `files` judged with the importers loaded from the start (after PRELOAD's own line). */
function preloaded(files: string[], options: { input?: string; flags?: string[] } = {}): string[] {
  const run = judge([PRELOAD, ...files], options);
  expect(run.loaded).toContain("detect.js");
  return run.out.filter((line) => (JSON.parse(line) as { file: string }).file !== PRELOAD);
}

describe("judge loads the importers only for a trace", () => {
  test("trajectories (JSONL, a .json array, labeled cases) load none of them but the format names", () => {
    const jsonl = write("plain.jsonl", lines(trajectory("t1"), trajectory("t2")));
    const array = write("plain.json", JSON.stringify([trajectory("t3"), { trajectory: trajectory("t4"), expected: { verdict: "true" } }]));
    const run = judge([jsonl, array]);
    expect(run.out).toHaveLength(4);
    expect(run.loaded).toEqual(["formats.js"]);
  });

  test("a trace after trajectories in a JSONL file is imported as with the importers loaded first", () => {
    const mixed = write("mixed.jsonl", lines(trajectory("t1"), trajectory("t2"), chat, trajectory("t3")));
    const run = judge([mixed]);
    expect(run.loaded).toContain("openai-chat.js");
    expect(run.out).toEqual(preloaded([mixed]));
    expect(run.out.map((l) => (JSON.parse(l) as { trajectoryId: string }).trajectoryId)).toEqual(["t1", "t2", "t3", "mixed"]);
  });

  test("a trace in a .json array, a labeled case wrapping a trace, and a trace on stdin", () => {
    const array = write("array.json", JSON.stringify([trajectory("t1"), chat]));
    const labeled = write("labeled.json", JSON.stringify({ trajectory: chat, expected: { verdict: "true" } }));
    for (const files of [[array], [labeled]]) {
      const run = judge(files);
      expect(run.loaded).toContain("openai-chat.js");
      expect(run.out).toEqual(preloaded(files));
      expect(run.out.length).toBeGreaterThan(0);
    }
    const input = lines(trajectory("t1"), chat);
    const stdin = judge(["-"], { input });
    expect(stdin.loaded).toContain("openai-chat.js");
    expect(stdin.out).toEqual(preloaded(["-"], { input }));
    expect(stdin.out).toHaveLength(2);
  });

  test("under --from a named format or trajectory, as with the importers loaded first", () => {
    const chats = write("chats.jsonl", lines(chat, chat));
    const named = judge([chats], { flags: ["--from", "openai-chat"] });
    expect(named.out).toEqual(preloaded([chats], { flags: ["--from", "openai-chat"] }));
    expect(named.out).toHaveLength(2);
    // An empty array under --from trajectory: nothing to judge, and whether it looks like a format is still asked.
    const empty = write("empty.json", "[]");
    const none = judge([empty], { flags: ["--from", "trajectory"] });
    expect(none.out).toEqual([]);
    expect(none.loaded).toContain("detect.js");
  });
});
