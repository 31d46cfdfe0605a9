/**
 * SWE-agent `.traj` and mini-swe-agent `.traj.json` (issue 22): what is
 * particular to them (the goldens, detection and round trips are in
 * golden.test.ts and roundtrip.test.ts): commands as calls, observations as
 * results with their exit codes, the runs that end without submitting, bad
 * input located, and the CLI reading a `.traj` file as it is.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { detectFormat, fromSweAgent } from "../../importers/index.js";
import type { Trajectory } from "../../importers/index.js";
import { runCli } from "../support/cli.js";
import { IMPORTER_FIXTURES, readFixture } from "../support/importer-fixtures.js";

const read = (file: string) => readFixture(join(IMPORTER_FIXTURES, "swe-agent", file)) as Record<string, unknown>;
const actions = (t: Trajectory) => t.events.map((e) => `${e.actor}/${e.action}`);

function only(input: unknown): Trajectory {
  const result = fromSweAgent(input);
  expect(result.errors).toEqual([]);
  expect(result.trajectories).toHaveLength(1);
  return result.trajectories[0]!;
}

/** A mini-swe-agent 2 run in text mode, as default.py serializes it. */
function miniRun(messages: unknown[], exitStatus: string): unknown {
  return { info: { exit_status: exitStatus, submission: "", mini_version: "2.0.0" }, messages, trajectory_format: "mini-swe-agent-1.1" };
}
const fence = (command: string) => `THOUGHT: next.\n\n\`\`\`mswea_bash_command\n${command}\n\`\`\``;
const observed = (code: number, out: string) => ({
  role: "user",
  content: `<returncode>${code}</returncode>\n<output>\n${out}</output>`,
  extra: { raw_output: out, returncode: code, exception_info: "" },
});

describe("SWE-agent .traj", () => {
  test("function calling: tool calls keep their names and arguments; the submit the history left out is read from trajectory", () => {
    const t = only(read("6e44b9__sweagenttestrepo-1c2844.traj"));
    expect(actions(t).filter((a) => a.startsWith("agent/") && a !== "agent/message")).toEqual([
      "agent/find_file",
      "agent/open",
      "agent/edit",
      "agent/bash",
      "agent/submit",
    ]);
    expect(t.events.find((e) => e.action === "edit")!.metadata).toMatchObject({ search: "def division(a: float, b: float) -> float" });
    // The tool printed "8.2"; the history's copy adds the prompt's state lines.
    expect(t.events.find((e) => e.action === "bash_result")!.content).toBe("8.2");
    expect(t.id).toBe("SWE-agent__test-repo-i1");
    expect(t.complete).toBe(true);
  });

  test("text mode: SWE-agent's commands are calls of their name, other lines are bash, each with {command}", () => {
    const t = only(read("humanevalfix-python-0.traj"));
    const calls = t.events.filter((e) => e.actor === "agent" && e.action !== "message");
    expect(calls.map((e) => [e.action, e.metadata!.command!.split("\n")[0]])).toEqual([
      ["bash", "ls -a"],
      ["open", "open main.py"],
      ["edit", "edit 15:15"],
      ["bash", "python main.py"],
      ["submit", "submit"],
    ]);
    expect(t.events.at(-1)).toMatchObject({ actor: "tool", action: "submit_result" });
    expect(t.complete).toBe(true);
  });

  test("a run that hit its cost limit and was auto-submitted is incomplete; demonstrations in the history are not the run's", () => {
    const traj = read("6e44b9__sweagenttestrepo-1c2844.traj");
    const history = traj.history as Record<string, unknown>[];
    const demo = [
      {
        role: "user",
        content: "Here is a demonstration of how to solve a task.",
        agent: "main",
        message_type: "demonstration",
        is_demo: true,
      },
      { role: "assistant", content: "ls", thought: "", action: "ls", agent: "main", message_type: "demonstration", is_demo: true },
    ];
    const capped = {
      ...traj,
      history: [history[0], ...demo, ...history.slice(1)],
      info: { ...(traj.info as object), exit_status: "submitted (exit_cost)" },
    };
    const t = only(capped);
    expect(t.complete).toBe(false);
    expect(t.events.filter((e) => e.actor === "user")).toHaveLength(1);
    expect(detectFormat(capped).format).toBe("swe-agent");
  });
});

describe("mini-swe-agent .traj.json", () => {
  test("text mode: the one fenced command is a bash call; its exit code is a field, non-zero an error; the exit message answers the last command", () => {
    const t = only(
      miniRun(
        [
          { role: "system", content: "You are a helpful assistant." },
          { role: "user", content: "Fix the bug." },
          { role: "assistant", content: fence("pytest -q"), extra: { actions: [{ command: "pytest -q" }] } },
          observed(1, "1 failed\n"),
          { role: "assistant", content: fence("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff"), extra: { actions: [] } },
          { role: "exit", content: "diff --git a/x b/x\n", extra: { exit_status: "Submitted", submission: "diff --git a/x b/x\n" } },
        ],
        "Submitted",
      ),
    );
    expect(t.events.map((e) => `${e.actor}/${e.action}: ${(e.content ?? "").split("\n")[0]}`)).toEqual([
      "user/message: Fix the bug.",
      "agent/message: THOUGHT: next.",
      'agent/bash: {"command":"pytest -q"}',
      "tool/bash_result: <returncode>1</returncode>",
      "agent/message: THOUGHT: next.",
      'agent/bash: {"command":"echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff"}',
      "tool/bash_result: diff --git a/x b/x",
    ]);
    expect(t.events[3]!.metadata).toMatchObject({ returncode: "1", status: "error" });
    expect(t.complete).toBe(true);
  });

  test("a format error (no command, or two) makes no call: the harness's reply is a user message; LimitsExceeded is incomplete", () => {
    const t = only(
      miniRun(
        [
          { role: "user", content: "Fix the bug." },
          { role: "assistant", content: `${fence("ls")}\n${fence("pwd")}` },
          {
            role: "user",
            content: "Please always provide EXACTLY ONE action in triple backticks, found 2 actions.",
            extra: { interrupt_type: "FormatError" },
          },
          { role: "exit", content: "", extra: { exit_status: "LimitsExceeded", submission: "" } },
        ],
        "LimitsExceeded",
      ),
    );
    expect(actions(t)).toEqual(["user/message", "agent/message", "user/message"]);
    expect(t.complete).toBe(false);
  });

  test("tool calls: the observation pairs on tool_call_id, whatever order the results came in", () => {
    const t = only(read("slugify-toolcalls.mini.traj.json"));
    const results = t.events.filter((e) => e.actor === "tool");
    expect(results.map((e) => e.metadata!["@call_id"])).toEqual(["call_Q3mT0b", "call_Vb81xe", "call_h2LqP0", "call_Zr9wEk"]);
    expect(results[0]!.metadata).toMatchObject({ returncode: "1", status: "error" });
    expect(t.complete).toBe(true);
  });

  test("it is not read as a chat log: detection names swe-agent alone", () => {
    for (const file of ["github-issue.mini.traj.json", "slugify-toolcalls.mini.traj.json"])
      expect(detectFormat(read(file))).toEqual({ format: "swe-agent", candidates: ["swe-agent"] });
  });
});

describe("bad input is located; the other runs still import", () => {
  test("an assistant tool call without a name, a message of an unknown role, and something that is no run", () => {
    const good = read("slugify-toolcalls.mini.traj.json");
    const messages = structuredClone(good.messages) as Record<string, unknown>[];
    ((messages[2]!.tool_calls as Record<string, unknown>[])[0]!.function as Record<string, unknown>).name = "";
    const oddRole = structuredClone(good.messages) as Record<string, unknown>[];
    oddRole[3]!.role = "observer";
    const result = fromSweAgent([{ ...good, messages }, { ...good, messages: oddRole }, good, { steps: [] }]);
    expect(result.errors).toEqual([
      { path: "[0].messages[2].tool_calls[0].function", message: "missing name", trace: 0 },
      {
        path: "[1].messages[3].role",
        message: 'unknown role "observer" (expected system, user, assistant, tool or exit)',
        trace: 1,
      },
      {
        path: "[3]",
        message: "expected a SWE-agent .traj ({trajectory, history, info}) or a mini-swe-agent .traj.json ({info, messages})",
        trace: 3,
      },
    ]);
    expect(result.trajectories).toHaveLength(1);
  });
});

describe("the CLI", () => {
  test("import --from swe-agent and auto-detection read a .traj file as it is", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-swe-"));
    const file = join(dir, "astropy__astropy-12907.traj");
    writeFileSync(file, JSON.stringify(read("humanevalfix-python-0.traj")));
    for (const from of [["--from", "swe-agent"], []]) {
      const run = runCli(["import", file, ...from]);
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      const t = JSON.parse(run.stdout) as Trajectory;
      expect(t.events.at(-2)).toMatchObject({ actor: "agent", action: "submit" });
    }
  });
});
