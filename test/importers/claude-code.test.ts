/**
 * The claude-code importer (IMPORTERS.md `claude-code`, issue 22): what
 * decides whether a rule judges a Claude Code session right. One record per
 * content block merged into one turn, results in file order after their
 * calls, toolUseResult as the structured result, what is no user turn, what
 * makes a session incomplete, located errors that leave the other records
 * in, and the hook's tool call as the same event as the transcript's.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { CLAUDE_CODE_FACT, FORMATS, detectFormat, fromClaudeCode, fromClaudeCodeHook, importTrace } from "../../importers/index.js";
import type { TrajectoryEvent } from "../../importers/index.js";
import { runCli } from "../support/cli.js";
import { IMPORTER_FIXTURES, readFixture } from "../support/importer-fixtures.js";

const DIR = join(IMPORTER_FIXTURES, "claude-code");
const fixture = (name: string): unknown[] => readFixture(join(DIR, name)) as unknown[];

/** A session writer in Claude Code's record shapes (the envelope, one record per block). */
function transcript() {
  const records: Record<string, unknown>[] = [];
  let n = 0;
  let last: string | null = null;
  const add = (type: string, extra: Record<string, unknown>): Record<string, unknown> => {
    const uuid = `u${++n}`;
    const record = { parentUuid: last, isSidechain: false, userType: "external", sessionId: "s-1", type, uuid, ...extra };
    last = uuid;
    records.push(record);
    return record;
  };
  return {
    records,
    prompt: (content: unknown, extra: Record<string, unknown> = {}) => add("user", { message: { role: "user", content }, ...extra }),
    block: (id: string, block: unknown, stop: string | null = null) =>
      add("assistant", { message: { id, type: "message", role: "assistant", model: "claude-x", content: [block], stop_reason: stop } }),
    result: (callId: string, content: unknown, extra: Record<string, unknown> = {}, error = false) =>
      add("user", {
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: callId, content, ...(error ? { is_error: true } : {}) }] },
        ...extra,
      }),
    add,
  };
}
const call = (id: string, name: string, input: unknown) => ({ type: "tool_use", id, name, input });
const text = (t: string) => ({ type: "text", text: t });

function only(records: unknown[], options = {}) {
  const result = fromClaudeCode(records, options);
  expect(result.errors).toEqual([]);
  expect(result.trajectories).toHaveLength(1);
  return { ...result, trajectory: result.trajectories[0]! };
}

const brief = (events: readonly TrajectoryEvent[]) => events.map((e) => `${e.actor}/${e.action}@${e.metadata?.["@turn"]}`);

describe("one API message written as one record per block", () => {
  test("parallel calls of one message.id share @turn and @item_id; results between the blocks stay after their own calls", () => {
    const { trajectory } = only(fixture("parallel-calls-and-errors.jsonl"));
    const reads = trajectory.events.filter((e) => e.action === "Read" || e.action === "Read_result");
    expect(reads.map((e) => `${e.actor}/${e.action}`)).toEqual(["agent/Read", "tool/Read_result", "agent/Read", "tool/Read_result"]);
    expect(new Set(reads.map((e) => e.metadata!["@turn"]))).toEqual(new Set(["2"]));
    const calls = reads.filter((e) => e.actor === "agent");
    expect(calls.map((e) => e.metadata!["@item_id"])).toEqual(["msg_01QbTq8n3JYk4WcDxqXyZ7aA", "msg_01QbTq8n3JYk4WcDxqXyZ7aA"]);
    // Each result follows its own call (paired by tool_use_id).
    expect(reads[1]!.metadata!["@call_id"]).toBe(calls[0]!.metadata!["@call_id"]);
    expect(reads[3]!.metadata!["@call_id"]).toBe(calls[1]!.metadata!["@call_id"]);
    // The text block of the same message is in that turn too; the next message starts the next turn.
    expect(trajectory.events[1]).toMatchObject({ actor: "agent", action: "message", metadata: { "@turn": "2" } });
    expect(trajectory.events.find((e) => e.action === "Edit")!.metadata!["@turn"]).toBe("3");
  });

  test("without merging, the second block would be a turn of its own: the same blocks under two message ids take two turns", () => {
    const t = transcript();
    t.prompt("read both");
    t.block("m1", call("c1", "Read", { file_path: "a" }));
    t.result("c1", "A");
    t.block("m1", call("c2", "Read", { file_path: "b" }));
    t.result("c2", "B");
    t.block("m2", text("done"), "end_turn");
    expect(brief(only(t.records).trajectory.events)).toEqual([
      "user/message@1",
      "agent/Read@2",
      "tool/Read_result@2",
      "agent/Read@2",
      "tool/Read_result@2",
      "agent/message@3",
    ]);
    const split = t.records.map((r, i) => (i === 3 ? { ...r, message: { ...(r.message as object), id: "m1b" } } : r));
    expect(brief(only(split).trajectory.events)[3]).toBe("agent/Read@3");
  });

  test("a longer prefix of a transcript only appends events (a hook or watch reads it as it grows)", () => {
    const records = fixture("parallel-calls-and-errors.jsonl");
    const full = fromClaudeCode(records).trajectories[0]!.events.map((e) => JSON.stringify(e));
    for (let k = 1; k <= records.length; k++) {
      const prefix = fromClaudeCode(records.slice(0, k)).trajectories[0]!.events.map((e) => JSON.stringify(e));
      expect(prefix).toEqual(full.slice(0, prefix.length));
    }
  });

  test("a tool_use block written twice in one message is read once, with a warning", () => {
    const t = transcript();
    t.prompt("go");
    t.block("m1", call("c1", "Bash", { command: "ls" }));
    t.block("m1", call("c1", "Bash", { command: "ls" }));
    t.result("c1", "a.txt");
    t.block("m2", text("ok"), "end_turn");
    const { trajectory, warnings } = only(t.records);
    expect(trajectory.events.filter((e) => e.action === "Bash")).toHaveLength(1);
    expect(warnings).toEqual([
      { path: "[2].message.content[0]", message: 'tool_use "c1" is written twice in message "m1"; read once', trace: 0 },
    ]);
  });
});

describe("tool results", () => {
  test("is_error gives status: error; a list of text parts is flattened as a string would be, its JSON into metadata", () => {
    const t = transcript();
    t.prompt("look it up");
    t.block("m1", call("c1", "mcp__shop__get_order", { id: "A-1" }));
    t.result("c1", [text('{"status": "found",'), text('"total": 12}')]);
    t.block("m2", call("c2", "Bash", { command: "false" }));
    t.result("c2", [text("Exit code 1")], { toolUseResult: "Error: Exit code 1" }, true);
    t.block("m3", text("The command failed."), "end_turn");
    const events = only(t.records).trajectory.events;
    expect(events[2]).toMatchObject({ action: "mcp__shop__get_order_result", content: '{"status": "found",\n"total": 12}' });
    expect(events[2]!.metadata).toMatchObject({ status: "found", total: "12" });
    expect(events[4]).toMatchObject({ action: "Bash_result", content: "Exit code 1", metadata: { status: "error", "@call_id": "c2" } });
  });

  test("toolUseResult, when an object, gives the metadata; a string one does not (the text is the content)", () => {
    const { trajectory } = only(fixture("parallel-calls-and-errors.jsonl"));
    const read = trajectory.events.find((e) => e.action === "Read_result")!;
    expect(read.content!.startsWith("     1→export interface Line")).toBe(true);
    expect(read.metadata).toMatchObject({
      type: "text",
      "file.filePath": expect.stringMatching(/\/src\/invoice\.ts$/),
      "file.numLines": "7",
    });
    const failed = trajectory.events.find((e) => e.action === "Bash_result")!;
    expect(Object.keys(failed.metadata!).sort()).toEqual(["@call_id", "@turn", "status"]);
    const passed = trajectory.events.filter((e) => e.action === "Bash_result")[1]!;
    expect(passed.metadata).toMatchObject({ stderr: "", interrupted: "false" });
  });

  test("a record with several tool results: its toolUseResult names none of them, and the warning says so", () => {
    const t = transcript();
    t.prompt("both");
    t.block("m1", call("c1", "Read", { file_path: "a" }));
    t.block("m1", call("c2", "Read", { file_path: "b" }));
    t.add("user", {
      message: {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "c1", content: "A" },
          { type: "tool_result", tool_use_id: "c2", content: "B" },
        ],
      },
      toolUseResult: { file: { filePath: "a" } },
    });
    t.block("m2", text("read"), "end_turn");
    const { trajectory, warnings } = only(t.records);
    expect(trajectory.events.filter((e) => e.actor === "tool").map((e) => e.metadata!["file.filePath"])).toEqual([undefined, undefined]);
    expect(warnings).toEqual([
      {
        path: "[3].toolUseResult",
        message: "the record holds 2 tool results; its toolUseResult belongs to none of them and is not read",
        trace: 0,
      },
    ]);
  });
});

describe("what is a user turn, an agent message, or neither", () => {
  test("tool-result-only user records, whitespace-only text, injected context and thinking make no user or agent message", () => {
    const t = transcript();
    t.prompt("Caveat: The messages below were generated by the user while running local commands.", { isMeta: true });
    t.prompt("<command-name>/review</command-name>\n<command-args>src</command-args>");
    t.prompt("Review the diff of src/ against the style guide.", { isMeta: true });
    t.prompt("<local-command-stdout>Set model to opus</local-command-stdout>");
    t.prompt("This session is being continued from a previous conversation…", { isCompactSummary: true });
    t.prompt([text("  \n"), text("fix the build")]);
    t.block("m1", { type: "thinking", thinking: "the build script", signature: "x" });
    t.block("m1", text("\n\n"));
    t.block("m1", call("c1", "Bash", { command: "npm run build" }));
    t.result("c1", "ok");
    t.block("m2", text("Built."), "end_turn");
    const { trajectory } = only(t.records);
    expect(trajectory.events.map((e) => `${e.actor}/${e.action}:${e.content}`)).toEqual([
      "user/command:<command-name>/review</command-name>\n<command-args>src</command-args>",
      "user/message:fix the build",
      'agent/Bash:{"command":"npm run build"}',
      "tool/Bash_result:ok",
      "agent/message:Built.",
    ]);
    expect(trajectory.events[0]!.metadata![CLAUDE_CODE_FACT.command]).toBe("/review");
    expect(trajectory.complete).toBe(true);
    // Reasoning is kept only when asked for, in its message's turn.
    const kept = only(t.records, { reasoning: true }).trajectory.events.find((e) => e.action === "reasoning")!;
    expect(kept).toMatchObject({ actor: "agent", content: "the build script", metadata: { "@turn": "2" } });
  });

  test("a prompt typed while the agent works (queued_command) is a user message; a task notification is not", () => {
    const t = transcript();
    t.prompt("tidy up");
    t.block("m1", call("c1", "Bash", { command: "ls" }));
    t.add("attachment", {
      attachment: { type: "queued_command", prompt: "and the docs too", commandMode: "prompt", origin: { kind: "human" } },
    });
    t.add("attachment", { attachment: { type: "queued_command", prompt: "<task-notification>…", commandMode: "task-notification" } });
    t.result("c1", "a b");
    t.block("m2", text("Done, docs too."), "end_turn");
    const users = only(t.records).trajectory.events.filter((e) => e.actor === "user");
    expect(users.map((e) => e.content)).toEqual(["tidy up", "and the docs too"]);
  });
});

describe("complete", () => {
  const ending = (build: (t: ReturnType<typeof transcript>) => void): boolean => {
    const t = transcript();
    t.prompt("go");
    build(t);
    return only(t.records).trajectory.complete;
  };

  test("a reply that ends the turn, then /exit: complete", () => {
    expect(ending((t) => t.block("m1", text("done"), "end_turn"))).toBe(true);
    expect(
      ending((t) => {
        t.block("m1", text("done"));
        t.prompt("<command-name>/exit</command-name>");
        t.prompt("<local-command-stdout>Goodbye!</local-command-stdout>");
      }),
    ).toBe(true);
  });

  test("an interruption anywhere, a call never answered, a prompt never answered, an API error or a cut-off reply at the end: incomplete", () => {
    const interrupted = (t: ReturnType<typeof transcript>) => {
      t.block("m1", text("working"));
      t.prompt([text("[Request interrupted by user]")]);
      t.prompt("go on");
      t.block("m2", text("done"), "end_turn");
    };
    expect(ending(interrupted)).toBe(false);
    expect(ending((t) => t.block("m1", call("c1", "Bash", { command: "sleep 99" })))).toBe(false);
    expect(
      ending((t) => {
        t.block("m1", call("c1", "Bash", { command: "ls" }));
        t.result("c1", "a");
      }),
    ).toBe(false);
    expect(
      ending((t) => {
        t.block("m1", text("done"));
        t.prompt("and now the docs");
      }),
    ).toBe(false);
    expect(
      ending((t) =>
        t.add("assistant", {
          isApiErrorMessage: true,
          message: { id: "e", model: "<synthetic>", role: "assistant", content: [text("API Error: 529 Overloaded")] },
        }),
      ),
    ).toBe(false);
    expect(ending((t) => t.block("m1", text("and the list goes on"), "max_tokens"))).toBe(false);
    // An API error the session recovered from is not its end.
    expect(
      ending((t) => {
        t.add("assistant", {
          isApiErrorMessage: true,
          message: { id: "e", model: "<synthetic>", role: "assistant", content: [text("API Error")] },
        });
        t.block("m1", text("done"), "end_turn");
      }),
    ).toBe(true);
  });

  test("the interruption is a user message, marked @interrupted, as the model read it", () => {
    const events = only(fixture("interrupted-force-push.jsonl")).trajectory.events;
    const marker = events.find((e) => e.metadata?.[CLAUDE_CODE_FACT.interrupted] === "true")!;
    expect(marker).toMatchObject({ actor: "user", action: "message", content: "[Request interrupted by user for tool use]" });
  });
});

describe("records that are not conversation", () => {
  test("unknown record types are skipped and counted, and the warning says when they held calls", () => {
    const t = transcript();
    t.prompt("go");
    t.add("telemetry", { data: 1 });
    t.add("telemetry", { data: 2 });
    t.add("assistant-v9", { message: { content: [call("c9", "Bash", { command: "rm -rf build" })] } });
    t.block("m1", text("done"), "end_turn");
    const { warnings } = only(t.records);
    expect(warnings).toEqual([
      { path: "[1]", message: 'skipped 2 records of unknown type "telemetry"', trace: 0 },
      {
        path: "[3]",
        message: 'skipped 1 record of unknown type "assistant-v9"; 1 of them hold tool_use or tool_result blocks, which the trace lacks',
        trace: 0,
      },
    ]);
  });

  test("a resumed session's copies of earlier records (same uuid) are read once, with one warning", () => {
    const records = fixture("simonw-sample-session.jsonl");
    const copy = [...records.slice(0, 4), ...records.slice(1, 4), ...records.slice(4)];
    const { trajectory, warnings } = only(copy);
    expect(trajectory.events).toEqual(only(records).trajectory.events);
    expect(warnings).toEqual([
      {
        path: "[4]",
        message: "3 records repeat the uuid of an earlier record (a resumed session's copy); each uuid is read once",
        trace: 0,
      },
    ]);
  });

  test("the description is the session's title or summary; the id is its sessionId", () => {
    const { trajectory } = only(fixture("simonw-sample-session.jsonl"));
    expect(trajectory).toMatchObject({ id: "test-session-id", description: "Test session for JSONL parsing" });
    const titled = [
      ...fixture("simonw-sample-session.jsonl"),
      { type: "custom-title", customTitle: "hello world", sessionId: "test-session-id" },
    ];
    expect(only(titled).trajectory.description).toBe("hello world");
  });
});

describe("bad input", () => {
  test("each bad record is a located error in input order; the others are imported, and the trace is incomplete", () => {
    // daaain/claude-code-log's edge-case file (MIT): strings, numbers and lists as lines, a misspelled field, a string message.
    const result = fromClaudeCode(readFixture(join(DIR, "bad", "daaain-edge-cases.jsonl")));
    expect(result.errors).toEqual([
      { path: "[9].message", message: "missing content", trace: 0 },
      { path: "[10]", message: "message must be an object", trace: 0 },
      { path: "[12]", message: "must be a transcript record (an object)", trace: 0 },
      { path: "[13]", message: "missing type", trace: 0 },
      { path: "[14]", message: "must be a transcript record (an object)", trace: 0 },
      { path: "[15]", message: "must be a transcript record (an object)", trace: 0 },
      { path: "[17].message.content[0]", message: "must be a content block object", trace: 0 },
    ]);
    const trajectory = result.trajectories[0]!;
    expect(trajectory.complete).toBe(false);
    // A broken record does not hide the good record after it with the same uuid (edge_011).
    expect(trajectory.events.some((e) => e.content?.startsWith("Testing special characters"))).toBe(true);
    expect(trajectory.events).toHaveLength(11);
  });

  test("a record with a bad block leaves none of its blocks behind", () => {
    const t = transcript();
    t.prompt("go");
    t.add("assistant", { message: { id: "m1", role: "assistant", content: [text("first"), { type: "tool_use", id: "c1", input: {} }] } });
    t.block("m2", text("done"), "end_turn");
    const result = fromClaudeCode(t.records);
    expect(result.errors).toEqual([{ path: "[1].message.content[1]", message: "missing name", trace: 0 }]);
    expect(result.trajectories[0]!.events.map((e) => e.content)).toEqual(["go", "done"]);
  });

  test("the CLI names file, line and field, imports the rest, and exits 1", () => {
    const run = runCli(["import", join(DIR, "bad", "daaain-edge-cases.jsonl")]);
    expect(run.status).toBe(1);
    expect(run.stderr.split("\n")[0]).toBe(
      `error: ${join(DIR, "bad", "daaain-edge-cases.jsonl")}:10: case 0: claude-code: message: missing content`,
    );
    expect(run.stderr).toContain("daaain-edge-cases.jsonl:18: case 6: claude-code: message.content[0]: must be a content block object");
    expect(JSON.parse(run.stdout)).toMatchObject({ id: "edge_cases", complete: false });
  });
});

describe("watch --from claude-code: a transcript read record by record", () => {
  const JUDGE = join(IMPORTER_FIXTURES, "coding-rules.judge.yaml");

  test("every record is taken (events only ever appended) and the judgment is judge's", () => {
    const file = join(DIR, "parallel-calls-and-errors.jsonl");
    const watched = runCli(["watch", JUDGE, "--from", "claude-code", file, "--json", "--complete", "true"]);
    expect(watched.stderr).toBe("");
    expect(watched.status).toBe(0);
    const lines = watched.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, { verdict?: string }>);
    expect(lines).toHaveLength(1);
    const judged = JSON.parse(runCli(["judge", JUDGE, file, "--json", "--no-verify", "--no-web"]).stdout) as { verdict: string }[];
    expect(lines[0]!.judgment!.verdict).toBe(judged[0]!.verdict);
  });

  test("the force push is a violation at the line of its tool_use record, as it arrives", () => {
    const watched = runCli(["watch", JUDGE, "--from", "claude-code", join(DIR, "interrupted-force-push.jsonl"), "--json"]);
    const first = JSON.parse(watched.stdout.split("\n")[0]!) as { violation: { rule: string; at: { line: number } } };
    expect(first.violation).toMatchObject({ rule: "Never force-push", at: { line: 3 } });
  });
});

describe("detection", () => {
  test("every fixture is claude-code, and no other format takes a transcript", () => {
    for (const name of [
      "parallel-calls-and-errors.jsonl",
      "interrupted-force-push.jsonl",
      "simonw-sample-session.jsonl",
      join("bad", "daaain-edge-cases.jsonl"),
    ]) {
      const records = fixture(name);
      expect(detectFormat(records)).toEqual({ format: "claude-code", candidates: ["claude-code"] });
      for (const f of FORMATS) if (f.name !== "claude-code") expect(f.detect(records)).toBe(false);
    }
  });

  test("chat logs and message lists are not transcripts", () => {
    expect(detectFormat([{ role: "user", content: "hi" }]).candidates).not.toContain("claude-code");
    expect(detectFormat([{ type: "user", message: { role: "user", content: "hi" } }]).candidates).not.toContain("claude-code");
    expect(importTrace([{ type: "human", data: { content: "hi" } }]).format).not.toBe("claude-code");
  });
});

describe("hook input: the same event as the transcript's tool_use", () => {
  test("tool_name, tool_input and tool_use_id give the importer's event for that call (flattened arguments, @call_id, @turn)", () => {
    const { trajectory } = only(fixture("parallel-calls-and-errors.jsonl"));
    const records = fixture("parallel-calls-and-errors.jsonl") as Record<
      string,
      { content?: { type: string; name: string; input: unknown; id: string }[] }
    >[];
    const edit = records.find((r) => r.message?.content?.[0]?.name === "Edit")!.message!.content![0]!;
    const imported = trajectory.events.find((e) => e.action === "Edit")!;
    const hook = fromClaudeCodeHook(
      { tool_name: edit.name, tool_input: edit.input, tool_use_id: edit.id },
      { id: imported.id, turn: Number(imported.metadata!["@turn"]), itemId: imported.metadata!["@item_id"] },
    );
    expect(JSON.stringify(hook)).toBe(JSON.stringify(imported));
  });

  test("a sub-agent's hook call carries @agent and @agent_id; no id and no input are fine; a missing tool_name is an error", () => {
    expect(
      fromClaudeCodeHook({ tool_name: "Read", tool_input: { file_path: "a" }, tool_use_id: "t1", agent_id: "ab12", agent_type: "Explore" }),
    ).toEqual({
      id: "e1",
      actor: "agent",
      action: "Read",
      content: '{"file_path":"a"}',
      metadata: { file_path: "a", "@call_id": "t1", "@agent": "Explore", [CLAUDE_CODE_FACT.agentId]: "ab12", "@turn": "1" },
    });
    expect(fromClaudeCodeHook({ tool_name: "TodoRead" })).toEqual({
      id: "e1",
      actor: "agent",
      action: "TodoRead",
      content: "{}",
      metadata: { "@turn": "1" },
    });
    expect(() => fromClaudeCodeHook({ tool_input: {} } as never)).toThrow("missing tool_name");
  });
});
