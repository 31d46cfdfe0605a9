/**
 * Claude Code sub-agents (IMPORTERS.md `claude-code`, issue 22): a sub-agent's
 * transcript goes under the Task (or Agent) call that started it, its events
 * marked `@agent` / `@agent_id`, whether its records are in the session's
 * file or in `<session>/subagents/agent-<id>.jsonl` given with it (the
 * folder, or both files); a transcript that is not there is said, naming the
 * call and the file to give.
 */
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { CLAUDE_CODE_FACT, fromClaudeCode } from "../../importers/index.js";
import type { Trajectory } from "../../importers/index.js";
import { runCli } from "../support/cli.js";
import { IMPORTER_FIXTURES, readFixture } from "../support/importer-fixtures.js";

const DIR = join(IMPORTER_FIXTURES, "claude-code");
const FOLDER = join(DIR, "folder");
const SESSION = "55550000-0000-4000-8000-000000000001";
const JUDGE = join(IMPORTER_FIXTURES, "coding-rules.judge.yaml");

/** `actor/action[@agent]` of each event. */
const shape = (t: Trajectory) =>
  t.events.map((e) => `${e.actor}/${e.action}${e.metadata?.["@agent"] === undefined ? "" : `[${e.metadata["@agent"]}]`}`);

const at = (uuid: string, extra: Record<string, unknown>) => ({ uuid, sessionId: "s", ...extra });
const assistant = (uuid: string, id: string, block: unknown, extra: Record<string, unknown> = {}) =>
  at(uuid, { type: "assistant", message: { id, role: "assistant", content: [block] }, ...extra });
const result = (uuid: string, callId: string, content: unknown, extra: Record<string, unknown> = {}) =>
  at(uuid, { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: callId, content }] }, ...extra });
const prompt = (uuid: string, content: string, extra: Record<string, unknown> = {}) =>
  at(uuid, { type: "user", message: { role: "user", content }, ...extra });
const task = (id: string, input: Record<string, unknown>) => ({ type: "tool_use", id, name: "Task", input });
const text = (t: string) => ({ type: "text", text: t });

describe("sub-agents in the session's own file", () => {
  const t = fromClaudeCode(readFixture(join(DIR, "subagents-inline.jsonl")));

  test("each transcript comes right before its Task's result; a background agent's right after its launch result", () => {
    expect(t.errors).toEqual([]);
    expect(t.warnings).toEqual([]);
    expect(shape(t.trajectories[0]!)).toEqual([
      "user/message",
      "agent/message",
      "agent/Task",
      "agent/Task",
      "agent/Grep[Explore]",
      "tool/Grep_result[Explore]",
      "agent/Read[Explore]",
      "tool/Read_result[Explore]",
      "agent/message[Explore]",
      "tool/Task_result",
      "agent/Write[general-purpose]",
      "tool/Write_result[general-purpose]",
      "agent/message[general-purpose]",
      "tool/Task_result",
      "agent/Read",
      "tool/Read_result",
      "agent/Edit",
      "tool/Edit_result",
      "agent/Task",
      "tool/Task_result",
      "agent/Bash[general-purpose]",
      "tool/Bash_result[general-purpose]",
      "agent/message[general-purpose]",
      "agent/message",
    ]);
  });

  test("@agent is the call's subagent_type; @agent_id the agentId its records carry (none for records without one); the prompt is no user message", () => {
    const events = t.trajectories[0]!.events;
    expect(new Set(events.filter((e) => e.metadata?.["@agent"] === "Explore").map((e) => e.metadata![CLAUDE_CODE_FACT.agentId]))).toEqual(
      new Set(["a1b2c3d4"]),
    );
    expect(events.find((e) => e.action === "Write")!.metadata![CLAUDE_CODE_FACT.agentId]).toBeUndefined();
    expect(events.filter((e) => e.actor === "user")).toHaveLength(1);
    // A sub-agent's turns are its own; its Task's result keeps the turn of the call.
    const calls = events.filter((e) => e.action === "Task").map((e) => e.metadata!["@turn"]);
    expect(events.filter((e) => e.action === "Task_result").map((e) => e.metadata!["@turn"])).toEqual(calls);
    expect(events[4]!.metadata!["@turn"]).not.toBe(calls[0]);
  });
});

describe("sub-agents in their own files", () => {
  test("the session's folder: its subagents/agent-*.jsonl are read with it (meta.json files are not traces)", () => {
    const run = runCli(["import", FOLDER]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const t = JSON.parse(lines[0]!) as Trajectory;
    expect(t).toMatchObject({ id: SESSION, complete: true });
    const byAgent = t.events
      .filter((e) => e.metadata?.[CLAUDE_CODE_FACT.agentId] !== undefined)
      .map((e) => e.metadata![CLAUDE_CODE_FACT.agentId]);
    expect(byAgent).toEqual(["showcol1", "showcol2", "showcol2", "showcol2"]);
    // Each agent's events come before the result of its own call.
    const results = t.events.filter((e) => e.action === "Agent_result").map((e) => t.events.indexOf(e));
    expect(t.events.findIndex((e) => e.metadata?.[CLAUDE_CODE_FACT.agentId] === "showcol1")).toBeLessThan(results[0]!);
    expect(t.events.findIndex((e) => e.metadata?.[CLAUDE_CODE_FACT.agentId] === "showcol2")).toBeGreaterThan(results[0]!);
  });

  test("both files given: the one agent file is read with the session, and the other agent's missing transcript is said", () => {
    const run = runCli(["import", join(FOLDER, `${SESSION}.jsonl`), join(FOLDER, SESSION, "subagents", "agent-showcol1.jsonl")]);
    expect(run.status).toBe(0);
    const t = JSON.parse(run.stdout) as Trajectory;
    expect(t.events.filter((e) => e.metadata?.[CLAUDE_CODE_FACT.agentId] === "showcol1")).toHaveLength(1);
    expect(run.stderr).toBe(
      `warning: ${join(FOLDER, `${SESSION}.jsonl`)}:8: claude-code: message.content[2]: the sub-agent transcript of Agent call "toolu_sc_showcol2" (agent "showcol2") was not found: import the session's folder, or give subagents/agent-showcol2.jsonl with the session\n`,
    );
  });

  test("the session file alone: read alone, each missing transcript said", () => {
    const run = runCli(["import", join(FOLDER, `${SESSION}.jsonl`)]);
    expect(run.status).toBe(0);
    expect(run.stderr.match(/was not found/g)).toHaveLength(2);
    expect((JSON.parse(run.stdout) as Trajectory).events.some((e) => e.metadata?.["@agent"] !== undefined)).toBe(false);
  });

  test("the older layout: agent-<id>.jsonl beside the session, joined to it by its records' sessionId", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-cc-"));
    cpSync(join(FOLDER, `${SESSION}.jsonl`), join(dir, `${SESSION}.jsonl`));
    cpSync(join(FOLDER, SESSION, "subagents", "agent-showcol1.jsonl"), join(dir, "agent-showcol1.jsonl"));
    cpSync(join(FOLDER, SESSION, "subagents", "agent-showcol2.jsonl"), join(dir, "agent-showcol2.jsonl"));
    const run = runCli(["import", dir]);
    expect(run.stderr).toBe("");
    expect(runCli(["import", FOLDER]).stdout).toBe(run.stdout);
  });

  test("judge reads the folder alike on one thread and on two", () => {
    const judged = (workers: string) => {
      const run = runCli(["judge", JUDGE, FOLDER, "--json", "--no-verify", "--no-web", "--workers", workers]);
      expect(run.stderr).toBe("");
      return (JSON.parse(run.stdout) as { trajectoryId: string; verdict: string }[]).map((j) => [j.trajectoryId, j.verdict]);
    };
    expect(judged("1")).toEqual([[SESSION, "true"]]);
    expect(judged("2")).toEqual(judged("1"));
  });

  test("a bad record in an agent file is located in that file; a sub-agent that writes breaks the rule", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-cc-"));
    cpSync(FOLDER, dir, { recursive: true });
    const agent = join(dir, SESSION, "subagents", "agent-showcol2.jsonl");
    const write = {
      type: "assistant",
      uuid: "showcol2-w",
      isSidechain: true,
      agentId: "showcol2",
      sessionId: SESSION,
      message: {
        id: "msg_w",
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_w", name: "Write", input: { file_path: "jobs.md", content: "x" } }],
      },
    };
    const bad = {
      type: "assistant",
      uuid: "showcol2-bad",
      isSidechain: true,
      agentId: "showcol2",
      sessionId: SESSION,
      message: { id: "m", role: "assistant" },
    };
    writeFileSync(agent, `${JSON.stringify(bad)}\n${JSON.stringify(write)}\n`, { flag: "a" });
    const run = runCli(["judge", JUDGE, dir, "--json", "--no-verify", "--no-web", "--workers", "1"]);
    expect(run.stderr).toContain(`${agent}:5: case 0: claude-code: message: missing content`);
    const judgment = (JSON.parse(run.stdout) as { verdict: string; metaBehaviors: { name: string; verdict: string }[] }[]).find(
      (j) => j.verdict !== undefined && j.metaBehaviors !== undefined,
    )!;
    expect(judgment.metaBehaviors.find((m) => m.name === "Sub-agents do not write files")!.verdict).toBe("false");
  });
});

describe("how a transcript is found for its call", () => {
  test("a real in-file sidechain (claude-code-log's, MIT): the result's agentId links it; records no call claims come at the end, said", () => {
    const r = fromClaudeCode(readFixture(join(DIR, "sidechains", "daaain-sidechain-integrated.jsonl")));
    expect(r.errors).toEqual([]);
    expect(r.warnings.map((w) => w.message)).toEqual([
      'call id "toolu_011V1hetiJ3pC79EoLTY53Ni" answers no earlier call',
      'sub-agent transcript "b674eedd-0d9d-49e7-8116-1f092cd750ed" answers no Task or Agent call of this session; its events come at the end',
    ]);
    expect(shape(r.trajectories[0]!)).toEqual([
      "agent/Task",
      "tool/unknown_result[general-purpose]",
      "tool/Task_result",
      "agent/message",
      "agent/message[general-purpose]",
      "agent/Grep[general-purpose]",
    ]);
  });

  test("a claude -p stream's parent_tool_use_id names the call; a nested agent is found by the `agentId:` line of its result", () => {
    const records = [
      prompt("p", "go"),
      assistant("a1", "m1", task("t1", { prompt: "look", subagent_type: "Explore" })),
      // The sub-agent's records in a stream name the call that started them.
      assistant("s1", "sm1", task("t2", { prompt: "deeper", subagent_type: "Plan" }), { parent_tool_use_id: "t1" }),
      at("n1", {
        type: "assistant",
        isSidechain: true,
        agentId: "nest1",
        message: { id: "nm1", role: "assistant", content: [text("found it deep")] },
      }),
      result("s2", "t2", [text("found it deep"), text("agentId: nest1 (use SendMessage to continue)")], { parent_tool_use_id: "t1" }),
      assistant("s3", "sm2", text("found it"), { parent_tool_use_id: "t1" }),
      result("r1", "t1", "found it"),
      assistant("a2", "m2", text("done")),
    ];
    const r = fromClaudeCode(records);
    expect(r.warnings).toEqual([]);
    expect(shape(r.trajectories[0]!)).toEqual([
      "user/message",
      "agent/Task",
      "agent/Task[Explore]",
      "agent/message[Plan]",
      "tool/Task_result[Explore]",
      "agent/message[Explore]",
      "tool/Task_result",
      "agent/message",
    ]);
    expect(r.trajectories[0]!.complete).toBe(true);
  });

  test("a spawn left without a result: its transcript at the end, the trace incomplete", () => {
    const records = [
      prompt("p", "go"),
      assistant("a1", "m1", task("t1", { prompt: "survey", subagent_type: "Explore" })),
      prompt("s0", "survey", { isSidechain: true, agentId: "x1" }),
      assistant("s1", "sm1", text("half way"), { isSidechain: true, agentId: "x1" }),
      prompt("i", "[Request interrupted by user]"),
    ];
    const r = fromClaudeCode(records);
    expect(r.warnings).toEqual([]);
    expect(shape(r.trajectories[0]!)).toEqual(["user/message", "agent/Task", "user/message", "agent/message[Explore]"]);
    expect(r.trajectories[0]!.complete).toBe(false);
  });

  test("two calls with the same prompt take one transcript each, in order", () => {
    const side = (k: string, t: string) => [
      prompt(`${k}0`, "check", { isSidechain: true, parentUuid: null }),
      assistant(`${k}1`, `${k}m`, text(t), { isSidechain: true, parentUuid: `${k}0` }),
    ];
    const records = [
      prompt("p", "twice"),
      assistant("a1", "m1", task("t1", { prompt: "check" })),
      assistant("a2", "m1", task("t2", { prompt: "check" })),
      ...side("x", "first"),
      ...side("y", "second"),
      result("r1", "t1", "first"),
      result("r2", "t2", "second"),
      assistant("a3", "m2", text("both checked")),
    ];
    const events = fromClaudeCode(records).trajectories[0]!.events;
    expect(events.map((e) => e.content)).toEqual([
      "twice",
      '{"prompt":"check"}',
      '{"prompt":"check"}',
      "first",
      "first",
      "second",
      "second",
      "both checked",
    ]);
    expect(events[3]!.metadata!["@agent"]).toBe("general-purpose");
  });
});
