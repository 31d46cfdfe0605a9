/**
 * The codex importer (IMPORTERS.md `codex`, issue 22): Codex CLI rollouts as
 * the CLI writes them (codex-rs/protocol `RolloutLine`): injected context is
 * not a user turn, a shell call's non-zero exit code is `status: error`, the
 * turn lifecycle decides `complete`, Codex's id-less items pair, unknown line
 * types are said, bad lines are located by file, line and field, and the
 * import is linear.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { detectFormat, fromCodex, fromOpenAIResponses, importTrace } from "../../importers/index.js";
import type { ImportResult, TrajectoryEvent } from "../../importers/index.js";
import { runCli } from "../support/cli.js";
import { IMPORTER_FIXTURES } from "../support/importer-fixtures.js";
import { stepsRatio } from "../support/work.js";

const line = (type: string, payload: unknown) => ({ timestamp: "2025-11-20T09:14:02.118Z", type, payload });
const item = (payload: unknown) => line("response_item", payload);
const event = (payload: unknown) => line("event_msg", payload);
const meta = line("session_meta", { id: "s-1", cwd: "/repo", cli_version: "0.63.0" });
const user = (text: string) => item({ type: "message", role: "user", content: [{ type: "input_text", text }] });
const answer = (text: string) => item({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });
const call = (name: string, args: unknown, callId: string) =>
  item({ type: "function_call", name, arguments: JSON.stringify(args), call_id: callId });
const output = (callId: string, out: unknown) => item({ type: "function_call_output", call_id: callId, output: out });
const structured = (code: number, out: string) => JSON.stringify({ output: out, metadata: { exit_code: code, duration_seconds: 0.1 } });

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

describe("injected context is not the user's turn", () => {
  test.each([
    "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nbe brief\n</INSTRUCTIONS>",
    "<user_instructions>\n\nbe brief\n\n</user_instructions>",
    "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>",
    "  <ENVIRONMENT_CONTEXT><cwd>/repo</cwd></ENVIRONMENT_CONTEXT>",
    "<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>",
    "<user_shell_command>\n<command>ls</command>\n</user_shell_command>",
    "<skill>\n<name>pdf</name>\n</skill>",
    "<subagent_notification>{}</subagent_notification>",
  ])("%j is dropped; the real request after it is the user's message", (context) => {
    const result = fromCodex([meta, user(context), user("fix the test"), answer("done")]);
    expect(summary(result)).toEqual(["user/message: fix the test", "agent/message: done"]);
    expect(result.warnings).toEqual([]);
  });

  test("a user message that only mentions a marker later is the user's", () => {
    const result = fromCodex([meta, user("what does <environment_context> hold?"), answer("the cwd")]);
    expect(events(result)[0]).toMatchObject({ actor: "user", content: "what does <environment_context> hold?" });
  });

  test("developer messages (permissions) are dropped as system prompts are", () => {
    const dev = item({ type: "message", role: "developer", content: [{ type: "input_text", text: "<permissions instructions>x" }] });
    expect(summary(fromCodex([meta, dev, user("hi"), answer("hello")]))).toEqual(["user/message: hi", "agent/message: hello"]);
  });
});

describe("exit codes", () => {
  test("the JSON form of any tool: a non-zero exit_code is status error, with @exit_code and the flattened output", () => {
    const result = fromCodex([
      meta,
      user("check"),
      call("shell", { command: ["bash", "-lc", "false"] }, "c1"),
      output("c1", structured(2, "boom\n")),
      call("shell", { command: ["bash", "-lc", "true"] }, "c2"),
      output("c2", structured(0, "")),
      answer("the first failed"),
    ]);
    const [, , failed, , ok] = events(result);
    expect(failed!.metadata).toMatchObject({ status: "error", "@exit_code": "2", output: "boom\n", "metadata.exit_code": "2" });
    expect(ok!.metadata).toMatchObject({ "@exit_code": "0" });
    expect(ok!.metadata!.status).toBeUndefined();
  });

  test("the text headers of the exec tools: Exit code: N (shell_command, apply_patch), Process exited with code N (exec_command)", () => {
    const result = fromCodex([
      meta,
      user("go"),
      call("shell_command", { command: "make" }, "c1"),
      output("c1", "Exit code: 1\nWall time: 0.4 seconds\nOutput:\nmake: *** No rule to make target\n"),
      call("exec_command", { cmd: "npm test" }, "c2"),
      output("c2", "Chunk ID: ab12\nWall time: 1.0000 seconds\nProcess exited with code 3\nOriginal token count: 2\nOutput:\nno\n"),
      call("exec_command", { cmd: "npm start" }, "c3"),
      output("c3", "Chunk ID: cd34\nWall time: 10.0000 seconds\nProcess running with session ID 7\nOutput:\nlistening\n"),
      item({ type: "custom_tool_call", call_id: "c4", name: "apply_patch", input: "*** Begin Patch\n*** End Patch\n" }),
      item({ type: "custom_tool_call_output", call_id: "c4", output: "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess.\n" }),
      answer("make and the tests failed"),
    ]);
    const results = events(result).filter((e) => e.actor === "tool");
    expect(results.map((e) => [e.action, e.metadata!.status, e.metadata!["@exit_code"]])).toEqual([
      ["shell_command_result", "error", "1"],
      ["exec_command_result", "error", "3"],
      ["exec_command_result", undefined, undefined],
      ["apply_patch_result", undefined, "0"],
    ]);
  });

  test("another tool's text that happens to start with Exit code: is not read as one; nor is Exit code: after the Output: line", () => {
    const result = fromCodex([
      meta,
      user("go"),
      call("lookup", {}, "c1"),
      output("c1", "Exit code: 1\nOutput:\nx"),
      call("shell_command", { command: "cat log" }, "c2"),
      output("c2", "Exit code: 0\nWall time: 0 seconds\nOutput:\nExit code: 1\n"),
      answer("ok"),
    ]);
    const results = events(result).filter((e) => e.actor === "tool");
    expect(results.map((e) => [e.metadata!.status, e.metadata!["@exit_code"]])).toEqual([
      [undefined, undefined],
      [undefined, "0"],
    ]);
  });

  test("failures only the event lines tell: a rejected patch, an MCP error result, an MCP call that did not run", () => {
    const result = fromCodex([
      meta,
      user("go"),
      item({ type: "custom_tool_call", call_id: "p1", name: "apply_patch", input: "*** Begin Patch" }),
      event({ type: "patch_apply_end", call_id: "p1", stdout: "", stderr: "context not found", success: false }),
      item({ type: "custom_tool_call_output", call_id: "p1", output: "apply_patch verification failed: context not found" }),
      call("mcp__linear__get", { id: "X" }, "m1"),
      output("m1", '[{"type":"text","text":"no such issue"}]'),
      event({ type: "mcp_tool_call_end", call_id: "m1", result: { Ok: { content: [], isError: true } } }),
      call("mcp__linear__get", { id: "Y" }, "m2"),
      event({ type: "mcp_tool_call_end", call_id: "m2", result: { Err: "server not running" } }),
      output("m2", "err: server not running"),
      call("mcp__linear__get", { id: "Z" }, "m3"),
      event({ type: "mcp_tool_call_end", call_id: "m3", result: { Ok: { content: [], isError: false } } }),
      output("m3", '{"id":"Z"}'),
      answer("two failed"),
    ]);
    expect(
      events(result)
        .filter((e) => e.actor === "tool")
        .map((e) => e.metadata!.status),
    ).toEqual(["error", "error", "error", undefined]);
  });

  test("an early Rust version's {content, success: false} output is the content, status error", () => {
    const [, , result] = events(
      fromCodex([meta, user("go"), call("shell", {}, "c1"), output("c1", { content: "denied", success: false })]),
    );
    expect(result).toMatchObject({ content: "denied", metadata: { status: "error" } });
  });
});

describe("complete", () => {
  const turn = [user("go"), call("shell", {}, "c1"), output("c1", structured(0, "")), answer("done")];
  test.each([
    ["task_complete after the last turn", [meta, event({ type: "task_started" }), ...turn, event({ type: "task_complete" })], true],
    ["turn_complete (the v2 spelling)", [meta, event({ type: "turn_started" }), ...turn, event({ type: "turn_complete" })], true],
    [
      "a turn started after the last task_complete",
      [meta, event({ type: "task_started" }), ...turn, event({ type: "task_complete" }), event({ type: "task_started" }), user("more")],
      false,
    ],
    [
      "turn_aborted last",
      [meta, event({ type: "task_started" }), ...turn.slice(0, 2), event({ type: "turn_aborted", reason: "interrupted" })],
      false,
    ],
    [
      "an aborted turn, then a new one that completed",
      [
        meta,
        event({ type: "task_started" }),
        user("a"),
        event({ type: "turn_aborted", reason: "replaced" }),
        event({ type: "task_started" }),
        ...turn,
        event({ type: "task_complete" }),
      ],
      true,
    ],
    ["no lifecycle events (before late 2025): ends on an answer", [meta, ...turn, event({ type: "token_count" })], true],
    ["no lifecycle events: ends on a tool output", [meta, ...turn.slice(0, 3)], false],
    ["no lifecycle events: ends on the user's message", [meta, ...turn, user("and now?")], false],
    ["no lifecycle events: aborted after the answer", [meta, ...turn, event({ type: "turn_aborted", reason: "interrupted" })], false],
    [
      "no lifecycle events: an error event after the answer",
      [meta, ...turn, event({ type: "error", message: "stream disconnected" })],
      false,
    ],
    [
      "a call left without output",
      [meta, event({ type: "task_started" }), user("go"), call("shell", {}, "c1"), event({ type: "task_complete" })],
      false,
    ],
  ])("%s: complete %s", (_name, lines, complete) => {
    expect(fromCodex(lines).trajectories[0]!.complete).toBe(complete);
  });
});

describe("Codex's own item forms", () => {
  test("parallel calls of one response share a turn; each output follows in arrival order", () => {
    const ev = events(
      fromCodex([
        meta,
        user("go"),
        call("exec_command", { cmd: "a" }, "c1"),
        call("exec_command", { cmd: "b" }, "c2"),
        output("c2", "x"),
        output("c1", "y"),
        answer("done"),
      ]),
    );
    expect(ev.map((e) => `${e.action}@${e.metadata!["@turn"]}:${e.metadata!["@call_id"] ?? ""}`)).toEqual([
      "message@1:",
      "exec_command@2:c1",
      "exec_command@2:c2",
      "exec_command_result@2:c2",
      "exec_command_result@2:c1",
      "message@3:",
    ]);
  });

  test("a local_shell_call with only the chat-completions id pairs with its output on that id", () => {
    const result = fromCodex([
      meta,
      user("go"),
      item({ type: "local_shell_call", id: "ls_1", status: "completed", action: { type: "exec", command: ["ls"] } }),
      output("ls_1", structured(1, "nope")),
      answer("it failed"),
    ]);
    expect(summary(result)).toEqual([
      "user/message: go",
      'agent/local_shell: {"type":"exec","command":["ls"',
      'tool/local_shell_result (error): {"output":"nope","metadata":{"',
      "agent/message: it failed",
    ]);
    expect(result.warnings).toEqual([]);
  });

  test("web searches without an id (Codex never writes one) carry their own outcome; a failed one is status error", () => {
    const result = fromCodex([
      meta,
      user("look it up"),
      item({ type: "web_search_call", status: "completed", action: { type: "search", query: "a" } }),
      item({ type: "web_search_call", status: "failed", action: { type: "search", query: "b" } }),
      item({ type: "web_search_call", action: { type: "search", query: "c" } }),
      answer("found a and c"),
    ]);
    expect(summary(result)).toEqual([
      "user/message: look it up",
      'agent/web_search: {"type":"search","query":"a"}',
      "tool/web_search_result: ",
      'agent/web_search: {"type":"search","query":"b"}',
      "tool/web_search_result (error): ",
      'agent/web_search: {"type":"search","query":"c"}',
      "tool/web_search_result: ",
      "agent/message: found a and c",
    ]);
    expect(result.warnings).toEqual([]);
    expect(new Set(events(result).map((e) => e.metadata!["@turn"]))).toEqual(new Set(["1", "2"]));
  });

  test("tool search, an inter-agent message, and bookkeeping items (ghost snapshots, compaction) that are not conduct", () => {
    const result = fromCodex([
      meta,
      user("go"),
      item({ type: "ghost_snapshot", ghost_commit: { id: "abc" } }),
      item({ type: "tool_search_call", call_id: "t1", execution: "client", arguments: { query: "calendar" } }),
      item({ type: "tool_search_output", call_id: "t1", status: "completed", execution: "client", tools: [] }),
      item({ type: "compaction", encrypted_content: "gAAA" }),
      item({ type: "agent_message", author: "planner", recipient: "root", content: [{ type: "input_text", text: "plan ready" }] }),
      answer("done"),
    ]);
    expect(summary(result)).toEqual([
      "user/message: go",
      'agent/tool_search: {"query":"calendar"}',
      "tool/tool_search_result: []",
      "agent/message: plan ready",
      "agent/message: done",
    ]);
    expect(events(result)[3]!.metadata!["@agent"]).toBe("planner");
    expect(result.warnings).toEqual([]);
  });

  test("event_msg echoes of the conversation, turn_context, compacted and a fork's second session_meta add nothing", () => {
    const plain = fromCodex([meta, user("go"), answer("done")]);
    const noisy = fromCodex([
      meta,
      line("session_meta", { id: "parent-session", cwd: "/elsewhere" }),
      line("turn_context", { cwd: "/repo", model: "gpt-5.1-codex" }),
      user("go"),
      event({ type: "user_message", message: "go" }),
      event({ type: "agent_reasoning", text: "thinking" }),
      answer("done"),
      event({ type: "agent_message", message: "done" }),
      line("compacted", { message: "summary", replacement_history: [{ type: "message", role: "user", content: "go" }] }),
      event({ type: "context_compacted" }),
    ]);
    expect(noisy).toEqual(plain);
    expect(plain.trajectories[0]).toMatchObject({ id: "s-1", description: "/repo", complete: true });
  });

  test("reasoning is dropped unless asked for", () => {
    const lines = [
      meta,
      user("go"),
      item({ type: "reasoning", summary: [{ type: "summary_text", text: "**Plan**" }], encrypted_content: "x" }),
      answer("done"),
    ];
    expect(summary(fromCodex(lines))).toEqual(["user/message: go", "agent/message: done"]);
    expect(summary(fromCodex(lines, { reasoning: true }))).toEqual([
      "user/message: go",
      "agent/reasoning: **Plan**",
      "agent/message: done",
    ]);
  });

  test("the TypeScript CLI's {session, items} file: the session id, Responses items with their ids", () => {
    const result = fromCodex({
      session: { id: "ts-1", timestamp: "2025-05-14T08:31:07.512Z", instructions: "" },
      items: [
        { id: "msg_1", type: "message", role: "user", content: [{ type: "input_text", text: "go" }] },
        { id: "fc_1", type: "function_call", name: "shell", arguments: '{"command":["ls"]}', call_id: "c1" },
        { type: "function_call_output", call_id: "c1", output: structured(1, "x") },
      ],
    });
    expect(result.trajectories[0]!.id).toBe("ts-1");
    expect(summary(result)).toEqual([
      "user/message: go",
      'agent/shell: {"command":["ls"]}',
      'tool/shell_result (error): {"output":"x","metadata":{"exi',
    ]);
    expect(result.trajectories[0]!.complete).toBe(false);
  });

  test("an unknown line type is said (a later Codex may put calls there); an unknown item type too", () => {
    const result = fromCodex([
      meta,
      line("tool_journal", { calls: [] }),
      user("go"),
      item({ type: "hologram_call", id: "h1" }),
      answer("ok"),
    ]);
    expect(result.warnings).toEqual([
      { path: "[1]", message: 'line of type "tool_journal" is not imported', trace: 0 },
      { path: "[3].payload", message: 'item of type "hologram_call" is not imported', trace: 0 },
    ]);
    expect(summary(result)).toEqual(["user/message: go", "agent/message: ok"]);
  });

  test("--id names the trajectory; without session_meta the id falls back", () => {
    expect(fromCodex([meta, user("a"), answer("b")], { id: "mine" }).trajectories[0]!.id).toBe("mine");
    expect(fromCodex([user("a"), answer("b")]).trajectories[0]!.id).toBe("trace-1");
  });
});

describe("detection", () => {
  test("a rollout is detected as codex and nothing else; a Responses item list is not codex", () => {
    expect(detectFormat([meta, user("a"), answer("b")]).candidates).toEqual(["codex"]);
    expect(detectFormat({ session: { id: "x" }, items: [] }).candidates).toEqual(["codex"]);
    const responses = [
      { type: "function_call", name: "f", call_id: "c", arguments: "{}" },
      { type: "function_call_output", call_id: "c", output: "x" },
    ];
    expect(detectFormat(responses).candidates).toEqual(["openai-responses"]);
    expect(importTrace([meta, user("a"), answer("b")]).format).toBe("codex");
  });

  test("the items of a rollout are the openai-responses importer's: the same events as the bare item list", () => {
    const items = [
      { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] },
      { type: "function_call", name: "get", arguments: '{"id":"A"}', call_id: "c1" },
      { type: "function_call_output", call_id: "c1", output: '{"status":"found"}' },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "found" }] },
    ];
    const viaCodex = fromCodex(items.map((i) => item(i)));
    const viaResponses = fromOpenAIResponses(items);
    expect(viaCodex.trajectories[0]!.events).toEqual(viaResponses.trajectories[0]!.events);
  });
});

describe("bad lines", () => {
  test("each bad line is located (line index, field) and listed; the session is not imported from a broken file", () => {
    const result = fromCodex([
      meta,
      user("go"),
      42,
      { timestamp: "t", payload: {} },
      line("response_item", "nope"),
      item({ type: "function_call", name: "shell", arguments: "{}" }),
      item({ type: "function_call_output", output: "x" }),
      item({ type: "message", role: "robot", content: "x" }),
      answer("done"),
    ]);
    expect(result.trajectories).toEqual([]);
    expect(result.errors).toEqual([
      { path: "[2]", message: "must be a rollout line object ({timestamp, type, payload})", trace: 0 },
      { path: "[3]", message: "missing type", trace: 0 },
      { path: "[4]", message: "payload must be an object", trace: 0 },
      { path: "[5].payload", message: "missing call_id", trace: 0 },
      { path: "[6].payload", message: "missing call_id", trace: 0 },
      { path: "[7].payload", message: 'unknown role "robot" (expected user, assistant, system or developer)', trace: 0 },
    ]);
  });

  test("past 20 bad lines the rest are counted, not listed", () => {
    const bad = Array.from({ length: 25 }, () => 7);
    const result = fromCodex([meta, ...bad]);
    expect(result.errors).toHaveLength(21);
    expect(result.errors[20]).toEqual({ path: "", message: "5 more bad lines (the first 20 are listed)", trace: 0 });
  });

  test("not a rollout at all", () => {
    expect(fromCodex({ hello: 1 }).errors).toEqual([
      {
        path: "",
        message:
          "not a Codex rollout: expected the lines of a rollout-*.jsonl file ({timestamp, type, payload}) or a {session, items} file",
      },
    ]);
  });

  test("through the CLI: file, line and field; an invalid JSON line and an unknown line type are said too", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-codex-"));
    const file = join(dir, "rollout-2025-11-20T09-14-02-s-1.jsonl");
    const lines = [meta, user("go"), item({ type: "function_call", name: "shell", arguments: "{}" }), line("mystery", {}), answer("ok")];
    writeFileSync(file, [...lines.map((l) => JSON.stringify(l)), "{oops"].join("\n") + "\n");
    const run = runCli(["import", file]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`error: ${file}:3: case 1: codex: payload: missing call_id\n`);
    expect(run.stderr).toContain(`warning: ${file}:4: codex: line of type "mystery" is not imported\n`);
    expect(run.stderr).toContain(`error: ${file}:6:2: case 0: invalid JSON`);
  });

  test("through the CLI: the fixtures import with --from codex and auto-detected alike", () => {
    const file = join(IMPORTER_FIXTURES, "codex", "fix-failing-test.jsonl");
    const auto = runCli(["import", file]);
    const named = runCli(["import", file, "--from", "codex"]);
    expect(auto.status).toBe(0);
    expect(auto.stderr).toBe("");
    expect(named.stdout).toBe(auto.stdout);
  });
});

describe("size", () => {
  /** A session of `n` shell calls, each answered, the outputs of one response after its calls. */
  function rollout(n: number, outputBytes = 40): unknown[] {
    const lines: unknown[] = [meta, event({ type: "task_started" }), user("go")];
    const body = "x".repeat(outputBytes);
    for (let i = 0; i < n; i += 2) {
      lines.push(call("exec_command", { cmd: `test ${i}` }, `c${i}`), call("exec_command", { cmd: `test ${i + 1}` }, `c${i + 1}`));
      lines.push(
        output(`c${i + 1}`, `Chunk ID: a\nWall time: 0.1000 seconds\nProcess exited with code ${i % 4 === 0 ? 1 : 0}\nOutput:\n${body}`),
      );
      lines.push(output(`c${i}`, structured(0, body)));
    }
    lines.push(answer("done"), event({ type: "task_complete" }));
    return lines;
  }

  test("100,000 calls import, every output after its call; 4 times the calls cost about 4 times the time, not 16", () => {
    const big = fromCodex(rollout(100_000));
    const ev = events(big);
    expect(ev).toHaveLength(200_002);
    expect(big.trajectories[0]!.complete).toBe(true);
    expect(ev.filter((e) => e.metadata?.status === "error")).toHaveLength(25_000);
    const small = rollout(10_000);
    const large = rollout(40_000);
    const ratio = stepsRatio(fromCodex, large, small);
    expect(ratio).toBeLessThan(10); // linear: about 4; quadratic: about 16
  });

  test("a 5 MB command output is one result event, its exit code read from the header", () => {
    const ev = events(fromCodex(rollout(2, 5_000_000)));
    expect(ev[3]!.content!.length).toBeGreaterThan(5_000_000);
    expect(ev[3]!.metadata).toMatchObject({ "@exit_code": "1", status: "error" });
  });
});
