/**
 * The gemini-cli importer (IMPORTERS.md `gemini-cli`, issue 22): Gemini CLI
 * sessions as ChatRecordingService writes them. JSONL records are replayed
 * as Gemini CLI's own reader replays them (a message re-appended replaces
 * itself in place, `$rewindTo` drops what follows, `$set.messages` replaces
 * the conversation, said when it drops messages); a tool call record holds
 * the call and its result (emitted call, then `_result`); bad records are
 * located; the CLI reads the JSONL lines as a trace, not as trajectories.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { detectFormat, fromGeminiCli } from "../../importers/index.js";
import type { ImportResult, TrajectoryEvent } from "../../importers/index.js";
import { runCli } from "../support/cli.js";
import { stepsRatio } from "../support/work.js";

const meta = { sessionId: "s-1", projectHash: "abc123", startTime: "2026-05-12T14:02:00.000Z", lastUpdated: "2026-05-12T14:02:00.000Z" };
const user = (id: string, text: string, extra: object = {}) => ({ id, timestamp: "t", type: "user", content: [{ text }], ...extra });
const gemini = (id: string, text: string, toolCalls?: unknown[], extra: object = {}) => ({
  id,
  timestamp: "t",
  type: "gemini",
  content: text,
  model: "gemini-2.5-pro",
  ...(toolCalls === undefined ? {} : { toolCalls }),
  ...extra,
});
const response = (id: string, name: string, r: object) => ({ functionResponse: { id, name, response: r } });
const call = (id: string | undefined, name: string, args: object, output: string | { error: string }, status = "success") => ({
  ...(id === undefined ? {} : { id }),
  name,
  args,
  result: [response(id ?? "", name, typeof output === "string" ? { output } : output)],
  status,
  timestamp: "t",
});

function events(result: ImportResult): readonly TrajectoryEvent[] {
  expect(result.errors).toEqual([]);
  expect(result.trajectories).toHaveLength(1);
  return result.trajectories[0]!.events;
}

function summary(result: ImportResult): string[] {
  return events(result).map(
    (e) => `${e.actor}/${e.action}${e.metadata?.status === "error" ? " (error)" : ""}: ${(e.content ?? "").slice(0, 30)}`,
  );
}

describe("replaying the JSONL records as Gemini CLI does", () => {
  test("a message written again (tokens, then its tool calls) replaces itself in place", () => {
    const first = gemini("g1", "");
    const result = fromGeminiCli([
      meta,
      user("u1", "size the logs"),
      first,
      { $set: { lastUpdated: "t2" } },
      { ...first, tokens: { input: 1, output: 2 } },
      { ...first, toolCalls: [call("c1", "run_shell_command", { command: "du -sh logs" }, "Output: 1.2G")] },
      gemini("g2", "1.2 GB"),
    ]);
    expect(summary(result)).toEqual([
      "user/message: size the logs",
      'agent/run_shell_command: {"command":"du -sh logs"}',
      "tool/run_shell_command_result: Output: 1.2G",
      "agent/message: 1.2 GB",
    ]);
    expect(result.trajectories[0]!.complete).toBe(true);
  });

  test("$rewindTo drops that message and every later one (the user's edit of the conversation), without a warning", () => {
    const result = fromGeminiCli([
      meta,
      user("u1", "delete the logs"),
      gemini("g1", "", [call("c1", "run_shell_command", { command: "rm -rf logs" }, "Output: (empty)")]),
      gemini("g2", "deleted"),
      { $rewindTo: "u1" },
      user("u2", "archive the logs instead"),
      gemini("g3", "archived"),
    ]);
    expect(summary(result)).toEqual(["user/message: archive the logs instead", "agent/message: archived"]);
    expect(result.warnings).toEqual([]);
  });

  test("a rewind to an id no message has drops everything, as Gemini CLI's reader does, and says so", () => {
    const result = fromGeminiCli([meta, user("u1", "a"), gemini("g1", "b"), { $rewindTo: "nope" }, user("u2", "c"), gemini("g2", "d")]);
    expect(summary(result)).toEqual(["user/message: c", "agent/message: d"]);
    expect(result.warnings).toEqual([
      {
        path: "[3]",
        message: '$rewindTo names no message ("nope"): Gemini CLI then drops every message, and so does this import',
        trace: 0,
      },
    ]);
  });

  test("$set.messages is a checkpoint that replaces the conversation; dropping recorded messages is said", () => {
    const masked = fromGeminiCli([
      meta,
      user("u1", "read it"),
      gemini("g1", "", [call("c1", "read_file", { file_path: "a.ts" }, "long text")]),
      { $set: { messages: [user("u1", "read it"), gemini("g1", "", [call("c1", "read_file", { file_path: "a.ts" }, "[masked]")])] } },
      gemini("g2", "done"),
    ]);
    expect(summary(masked)).toEqual([
      "user/message: read it",
      'agent/read_file: {"file_path":"a.ts"}',
      "tool/read_file_result: [masked]",
      "agent/message: done",
    ]);
    expect(masked.warnings).toEqual([]);
    const compressed = fromGeminiCli([
      meta,
      user("u1", "one"),
      gemini("g1", "two"),
      user("u2", "three"),
      { $set: { messages: [user("s1", "<state_snapshot>summary</state_snapshot>"), gemini("s2", "Got it.")] } },
      user("u3", "four"),
      gemini("g3", "five"),
    ]);
    expect(summary(compressed).map((s) => s.slice(0, 28))).toEqual([
      "user/message: <state_snapsho",
      "agent/message: Got it.",
      "user/message: four",
      "agent/message: five",
    ]);
    expect(compressed.warnings).toEqual([
      {
        path: "[4].$set.messages",
        message:
          "$set.messages replaces the conversation: 3 recorded messages are not in it (compressed or rolled back by Gemini CLI) and are dropped, as Gemini CLI drops them on resume",
        trace: 0,
      },
    ]);
  });

  test("$set merges the metadata: a resumed session's new id names the trajectory, the summary describes it", () => {
    const result = fromGeminiCli([meta, user("u1", "a"), gemini("g1", "b"), { $set: { sessionId: "s-2", summary: "Say b" } }]);
    expect(result.trajectories[0]).toMatchObject({ id: "s-2", description: "Say b" });
    expect(fromGeminiCli([meta, user("u1", "a"), gemini("g1", "b")], { id: "mine" }).trajectories[0]!.id).toBe("mine");
  });

  test("the legacy JSON record: its messages as they are; the same events as the JSONL lines", () => {
    const messages = [user("u1", "a"), gemini("g1", "", [call("c1", "read_file", { file_path: "x" }, "y")]), gemini("g2", "b")];
    expect(fromGeminiCli({ ...meta, messages })).toEqual(fromGeminiCli([meta, ...messages]));
    expect(fromGeminiCli([{ ...meta, messages }])).toEqual(fromGeminiCli([meta, ...messages]));
  });
});

describe("a tool call record holds the call and its result", () => {
  test("parallel calls of one response: calls in the model's order, then each result, one turn", () => {
    const ev = events(
      fromGeminiCli([
        meta,
        user("u1", "go"),
        gemini("g1", "Checking both.", [
          call("c1", "read_file", { file_path: "a" }, "A"),
          call("c2", "read_file", { file_path: "b" }, "B"),
        ]),
        gemini("g2", "done"),
      ]),
    );
    expect(ev.map((e) => `${e.actor}/${e.action}@${e.metadata!["@turn"]}:${e.metadata!["@call_id"] ?? ""}`)).toEqual([
      "user/message@1:",
      "agent/message@2:",
      "agent/read_file@2:c1",
      "agent/read_file@2:c2",
      "tool/read_file_result@2:c1",
      "tool/read_file_result@2:c2",
      "agent/message@3:",
    ]);
    expect(ev[2]!.metadata).toMatchObject({ file_path: "a", "@model": "gemini-2.5-pro", "@item_id": "g1" });
  });

  test("calls without ids pair with their own results by name and order", () => {
    const result = fromGeminiCli([
      meta,
      user("u1", "go"),
      gemini("g1", "", [call(undefined, "read_file", { file_path: "a" }, "A"), call(undefined, "read_file", { file_path: "b" }, "B")]),
      gemini("g2", "done"),
    ]);
    expect(summary(result).slice(1, 5)).toEqual([
      'agent/read_file: {"file_path":"a"}',
      'agent/read_file: {"file_path":"b"}',
      "tool/read_file_result: A",
      "tool/read_file_result: B",
    ]);
    expect(result.warnings).toEqual([]);
  });

  test("status error, an error response, a cancelled (declined) call are status error; a running one has no result", () => {
    const result = fromGeminiCli([
      meta,
      user("u1", "go"),
      gemini("g1", "", [
        call("c1", "read_file", { file_path: "a" }, "File not found.", "error"),
        call("c2", "web_fetch", { prompt: "x" }, { error: "[Operation Cancelled] Reason: User did not allow tool call" }, "cancelled"),
        call("c3", "replace", { file_path: "b" }, { error: "Failed to edit: 0 occurrences found" }),
        { id: "c4", name: "run_shell_command", args: { command: "npm start" }, status: "executing", timestamp: "t" },
      ]),
    ]);
    const tools = events(result).filter((e) => e.actor === "tool");
    expect(tools.map((e) => [e.action, e.content, e.metadata!.status])).toEqual([
      ["read_file_result", "File not found.", "error"],
      ["web_fetch_result", "[Operation Cancelled] Reason: User did not allow tool call", "error"],
      ["replace_result", "Failed to edit: 0 occurrences found", "error"],
    ]);
    expect(result.trajectories[0]!.complete).toBe(false);
  });

  test("the tool results sent back as a user message are not a user turn; they answer a call only the content held", () => {
    const result = fromGeminiCli([
      meta,
      user("u1", "go"),
      gemini("g1", "", [call("c1", "read_file", { file_path: "a" }, "A")]),
      { id: "r1", timestamp: "t", type: "user", content: [response("c1", "read_file", { output: "A" })] },
      { id: "g2", timestamp: "t", type: "gemini", content: [{ functionCall: { id: "c9", name: "glob", args: { pattern: "*.ts" } } }] },
      { id: "r2", timestamp: "t", type: "user", content: [response("c9", "glob", { output: "a.ts" })] },
      gemini("g3", "done"),
    ]);
    expect(summary(result)).toEqual([
      "user/message: go",
      'agent/read_file: {"file_path":"a"}',
      "tool/read_file_result: A",
      'agent/glob: {"pattern":"*.ts"}',
      "tool/glob_result: a.ts",
      "agent/message: done",
    ]);
    expect(result.warnings).toEqual([]);
  });

  test("the shell tool's exit code: the current trailer (only when non-zero), the 2025 one (always); not one inside the output", () => {
    const shell = (id: string, out: string) => call(id, "run_shell_command", { command: "x" }, out);
    const result = fromGeminiCli([
      meta,
      user("u1", "go"),
      gemini("g1", "", [
        shell("c1", "Output: boom\nExit Code: 2\nProcess Group PGID: 7702"),
        shell("c2", "Output: fine\nProcess Group PGID: 7703"),
        shell(
          "c3",
          "Command: x\nDirectory: (root)\nOutput: ok\nError: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 1",
        ),
        shell(
          "c4",
          "Command: x\nDirectory: (root)\nOutput: \nError: (none)\nExit Code: 127\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: (none)",
        ),
        shell("c5", "Output: Exit Code: 5\nmore output\nProcess Group PGID: 1"),
      ]),
      gemini("g2", "two failed"),
    ]);
    const tools = events(result).filter((e) => e.actor === "tool");
    expect(tools.map((e) => [e.metadata!["@exit_code"], e.metadata!.status])).toEqual([
      ["2", "error"],
      [undefined, undefined],
      ["0", undefined],
      ["127", "error"],
      [undefined, undefined],
    ]);
  });

  test("binary parts beside a function response are placeholders; a passthrough response object is flattened", () => {
    const ev = events(
      fromGeminiCli([
        meta,
        user("u1", "look"),
        gemini("g1", "", [
          {
            id: "c1",
            name: "read_file",
            args: { file_path: "a.png" },
            status: "success",
            timestamp: "t",
            result: [response("c1", "read_file", { output: "Read image a.png" }), { inlineData: { mimeType: "image/png", data: "iVBO" } }],
          },
          {
            id: "c2",
            name: "mcp_tool",
            args: {},
            status: "success",
            timestamp: "t",
            result: [response("c2", "mcp_tool", { issue: "INV-1" })],
          },
        ]),
        gemini("g2", "ok"),
      ]),
    );
    expect(ev[3]!.content).toBe("Read image a.png\n[image]");
    expect(ev[4]!.metadata).toMatchObject({ issue: "INV-1" });
  });
});

describe("what is not the conversation", () => {
  test("slash commands, ? help, injected session context and empty prompts are not user messages; info and warning notices neither", () => {
    const result = fromGeminiCli([
      meta,
      user("u0", "<session_context>cwd: /repo</session_context>"),
      user("u1", "/compress"),
      user("u2", "?"),
      user("u3", "  "),
      { id: "i1", timestamp: "t", type: "info", content: "Switched model" },
      { id: "w1", timestamp: "t", type: "warning", content: "Low disk" },
      user("u4", "fix it"),
      gemini("g1", "fixed"),
      user("u5", "/quit"),
    ]);
    expect(summary(result)).toEqual(["user/message: fix it", "agent/message: fixed"]);
    expect(result.trajectories[0]!.complete).toBe(true);
  });

  test("the text the user typed (displayContent) rather than the @file expansion sent to the model", () => {
    const result = fromGeminiCli([
      meta,
      user("u1", "Explain @a.ts\n--- Content from referenced files ---\n…", { displayContent: [{ text: "Explain @a.ts" }] }),
      gemini("g1", "It adds."),
    ]);
    expect(summary(result)[0]).toBe("user/message: Explain @a.ts");
  });

  test("thoughts are dropped unless asked for; kept, they are agent/reasoning of the response's turn", () => {
    const lines = [
      meta,
      user("u1", "go"),
      gemini("g1", "answer", undefined, { thoughts: [{ subject: "Planning", description: "Read first.", timestamp: "t" }] }),
    ];
    expect(summary(fromGeminiCli(lines))).toEqual(["user/message: go", "agent/message: answer"]);
    expect(summary(fromGeminiCli(lines, { reasoning: true }))).toEqual([
      "user/message: go",
      "agent/reasoning: Planning\nRead first.",
      "agent/message: answer",
    ]);
  });

  test.each([
    ["the model's answer last", [user("u1", "a"), gemini("g1", "b")], true],
    ["a user prompt last", [user("u1", "a"), gemini("g1", "b"), user("u2", "c")], false],
    ["tool calls last, no answer", [user("u1", "a"), gemini("g1", "", [call("c1", "read_file", {}, "x")])], false],
    [
      "the tool results sent back last",
      [
        user("u1", "a"),
        gemini("g1", "", [call("c1", "read_file", {}, "x")]),
        { id: "r", timestamp: "t", type: "user", content: [response("c1", "read_file", { output: "x" })] },
      ],
      false,
    ],
    [
      "an error shown after the answer",
      [user("u1", "a"), gemini("g1", "b"), { id: "e", timestamp: "t", type: "error", content: "[API Error: quota]" }],
      false,
    ],
    [
      "an info notice after the answer",
      [user("u1", "a"), gemini("g1", "b"), { id: "i", timestamp: "t", type: "info", content: "saved" }],
      true,
    ],
  ])("%s: complete %s", (_name, messages, complete) => {
    expect(fromGeminiCli([meta, ...messages]).trajectories[0]!.complete).toBe(complete);
  });
});

describe("detection and bad records", () => {
  test("both file forms are gemini-cli and nothing else", () => {
    expect(detectFormat({ ...meta, messages: [user("u1", "a")] }).candidates).toEqual(["gemini-cli"]);
    expect(detectFormat([meta, user("u1", "a"), gemini("g1", "b")]).candidates).toEqual(["gemini-cli"]);
    expect(detectFormat([user("u1", "a")]).candidates).not.toContain("gemini-cli");
  });

  test("each bad record is located and listed; unknown records and message types are warned and skipped", () => {
    const result = fromGeminiCli([
      meta,
      7,
      { id: "m1", timestamp: "t", content: "no type" },
      gemini("g1", "", "nope" as unknown as unknown[]),
      gemini("g2", "", [{ id: "c1", args: {} }]),
      { id: "m2", timestamp: "t", type: "user", content: 42 },
      { $set: { messages: ["x"] } },
      { hello: "world" },
      { id: "m3", timestamp: "t", type: "hologram", content: "" },
    ]);
    expect(result.trajectories).toEqual([]);
    expect(result.errors).toEqual([
      { path: "[1]", message: "must be a session record object", trace: 0 },
      { path: "[6].$set.messages[0]", message: "must be a message object", trace: 0 },
    ]);
    expect(result.warnings.map((w) => w.path)).toEqual(["[6].$set.messages", "[7]", "[8]"]);
    expect(result.warnings[1]).toEqual({
      path: "[7]",
      message: "record not imported: not a message, a $set, a $rewindTo or the session's metadata",
      trace: 0,
    });
    const messages = fromGeminiCli([
      meta,
      { id: "m1", timestamp: "t", content: "no type" },
      gemini("g1", "", "nope" as unknown as unknown[]),
      gemini("g2", "", [{ id: "c1", args: {} }]),
      { id: "m2", timestamp: "t", type: "user", content: 42 },
      { id: "m3", timestamp: "t", type: "hologram", content: "" },
    ]);
    expect(messages.errors).toEqual([
      { path: "[1]", message: "missing type", trace: 0 },
      { path: "[2].toolCalls", message: "must be a list", trace: 0 },
      { path: "[3].toolCalls[0]", message: "missing name", trace: 0 },
      { path: "[4].content", message: "must be text or a part object", trace: 0 },
    ]);
    expect(messages.warnings).toEqual([{ path: "[5]", message: 'message of type "hologram" is not imported', trace: 0 }]);
  });

  test("not a session at all", () => {
    expect(fromGeminiCli({ hello: 1 }).errors[0]!.message).toMatch(/^not a Gemini CLI session/);
  });

  test("through the CLI: a session-*.jsonl whose records look like {id, timestamp, type, content} is a trace, not trajectories; errors name file, line and field", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-gemini-"));
    const file = join(dir, "session-2026-05-12T14-02-s1.jsonl");
    const lines = [
      meta,
      { id: "u1", timestamp: "t", type: "user", content: "hi" },
      { id: "g1", timestamp: "t", type: "gemini", content: "hello" },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const ok = runCli(["import", file]);
    expect(ok.stderr).toBe("");
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ id: "s-1", complete: true, events: [{ actor: "user" }, { actor: "agent" }] });
    const bad = join(dir, "session-bad.jsonl");
    writeFileSync(bad, [...lines, gemini("g2", "", [{ id: "c1", args: {} }])].map((l) => JSON.stringify(l)).join("\n") + "\n");
    const run = runCli(["import", bad]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`error: ${bad}:4: case 0: gemini-cli: toolCalls[0]: missing name\n`);
  });

  test("a trajectory line with an id and few keys but no content is still read as a trajectory (and explained)", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-gemini-"));
    const file = join(dir, "t.jsonl");
    writeFileSync(file, JSON.stringify({ id: "t1", description: "x", evnts: [] }) + "\n");
    const run = runCli(["import", file]);
    expect(run.status).toBe(1);
    expect(run.stderr).not.toMatch(/unknown trace format/);
  });
});

describe("size", () => {
  function session(n: number): unknown[] {
    const lines: unknown[] = [meta, user("u0", "go")];
    for (let i = 0; i < n; i += 2) {
      const g = gemini(`g${i}`, "");
      lines.push(g, { ...g, tokens: { input: i, output: 1 } });
      lines.push({
        ...g,
        toolCalls: [
          call(
            `c${i}`,
            "run_shell_command",
            { command: `test ${i}` },
            `Output: x\nExit Code: ${i % 4 === 0 ? 1 : 0}\nProcess Group PGID: 1`,
          ),
          call(`c${i + 1}`, "read_file", { file_path: `f${i}` }, "y"),
        ],
      });
      lines.push({ id: `r${i}`, timestamp: "t", type: "user", content: [response(`c${i}`, "run_shell_command", { output: "x" })] });
      if (i % 1000 === 0) lines.push(user(`x${i}`, "scratch"), { $rewindTo: `x${i}` });
    }
    lines.push(gemini("end", "done"));
    return lines;
  }

  test("100,000 calls (each message written three times, rewinds between): every result after its call; linear", () => {
    const big = fromGeminiCli(session(100_000));
    const ev = events(big);
    expect(ev).toHaveLength(200_002);
    expect(big.trajectories[0]!.complete).toBe(true);
    expect(ev.filter((e) => e.metadata?.status === "error")).toHaveLength(25_000);
    const small = session(5_000);
    const large = session(20_000);
    expect(stepsRatio(fromGeminiCli, large, small)).toBeLessThan(10); // linear: about 4; quadratic: about 16
  });
});
