/**
 * The Claude Code hook (`guard judge.mjs --claude-code`): the documented hook
 * input (session_id, transcript_path, hook_event_name, tool_name, tool_input,
 * tool_use_id) and a recorded transcript in, the documented hook output and
 * exit code out. examples/claude-code-guard holds the transcript as it stands
 * after the guard ran in it: each denial recorded there is what the guard
 * answers for that call.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { answerClaudeCodeHook, claudeAgentHook, type HookCache } from "../../guard/claude-code.js";
import type { GuardJudge } from "../../guard/session.js";
import { runCli } from "../support/cli.js";

const EXAMPLE = join(import.meta.dirname, "..", "..", "examples", "claude-code-guard");
const JUDGE = join(EXAMPLE, "judge.mjs");
const judge = (await import(pathToFileURL(JUDGE).href)) as GuardJudge;
const LINES = readFileSync(join(EXAMPLE, "transcript.jsonl"), "utf8").split("\n").filter(Boolean);
const RECORDS = LINES.map((l) => JSON.parse(l) as { type: string; message: { content: unknown } });
const SESSION = "7c0a9e2e-0000-4000-8000-00000000c0de";
const dir = mkdtempSync(join(tmpdir(), "claude-code-hook-"));

/** The transcript's first `n` lines, as a file. */
function prefix(n: number, lines = LINES): string {
  const path = join(dir, `t-${n}-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, lines.slice(0, n).join("\n") + "\n");
  return path;
}

/** The tool_use block with this id, and the text of the tool_result answering it. */
function toolUse(id: string): { input: unknown; resultText: string | undefined } {
  const blocks = RECORDS.flatMap(
    (r) => r.message.content as { type: string; id?: string; tool_use_id?: string; input?: unknown; content?: string }[],
  );
  return {
    input: blocks.find((b) => b.type === "tool_use" && b.id === id)!.input,
    resultText: blocks.find((b) => b.tool_use_id === id)?.content,
  };
}

function pre(transcript: string, tool: string, id: string, input = toolUse(id).input) {
  return JSON.stringify({
    session_id: SESSION,
    transcript_path: transcript,
    cwd: "/srv/shop",
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: input,
    tool_use_id: id,
  });
}

const read = (path: string) => readFileSync(path, "utf8");
const answer = (stdin: string, cache?: HookCache) =>
  answerClaudeCodeHook(judge, stdin, { readTranscript: read, ...(cache ? { cache } : {}) });

describe("PreToolUse", () => {
  test("an edit of a file not read yet is denied with the reason the transcript recorded; after the read, allowed in silence", () => {
    const denied = answer(pre(prefix(3), "Edit", "toolu_01Edit0000000000000001"));
    expect(denied.exitCode).toBe(0);
    const out = JSON.parse(denied.stdout) as { hookSpecificOutput: Record<string, string>; systemMessage: string };
    expect(out.hookSpecificOutput.hookEventName).toBe("PreToolUse");
    expect(out.hookSpecificOutput.permissionDecision).toBe("deny");
    const reason = out.hookSpecificOutput.permissionDecisionReason!;
    expect(reason).toContain('rule "Read a file before editing it"');
    expect(reason).toContain('"every file Claude edits was read first"');
    expect(reason).toContain("cites e3 (agent Edit:");
    expect(reason).toBe(toolUse("toolu_01Edit0000000000000001").resultText);
    expect(out.systemMessage).toBe(reason);

    const allowed = answer(pre(prefix(7), "Edit", "toolu_01Edit0000000000000002"));
    expect(allowed).toEqual({ exitCode: 0, stdout: "", stderr: "" });
  });

  test("a force push is denied, the pull request after it allowed; the same input gives the same answer", () => {
    const stdin = pre(prefix(16), "Bash", "toolu_01Bash0000000000000003");
    const first = answer(stdin);
    expect(JSON.parse(first.stdout).hookSpecificOutput.permissionDecisionReason).toBe(toolUse("toolu_01Bash0000000000000003").resultText);
    expect(answer(stdin)).toEqual(first);
    expect(answer(pre(prefix(18), "Bash", "toolu_01Bash0000000000000004")).stdout).toBe("");
  });

  test("a refused call never ran: the same edit asked again (a call the transcript does not have yet) is denied again", () => {
    const again = pre(prefix(4), "Edit", "toolu_01EditAgain", toolUse("toolu_01Edit0000000000000001").input);
    const out = JSON.parse(answer(again).stdout).hookSpecificOutput;
    expect(out.permissionDecision).toBe("deny");
    expect(out.permissionDecisionReason).toContain("cites e5 (agent Edit:");
  });

  test("a refusal the transcript does not show as the guard's is known from the session's cache", () => {
    const lines = [...LINES];
    lines[3] = lines[3]!.replace(/\[behavior-judge guard\][^"]*(?:\\"[^"]*)*/, "Blocked by a hook");
    expect(lines[3]).not.toContain("behavior-judge guard");
    const cache: HookCache = { refused: {} };
    const first = answer(pre(prefix(3, lines), "Edit", "toolu_01Edit0000000000000001"), cache);
    expect(JSON.parse(first.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    expect(cache.refused).toEqual({ toolu_01Edit0000000000000001: ["Read a file before editing it"] });
    const again = pre(prefix(4, lines), "Edit", "toolu_01EditAgain", toolUse("toolu_01Edit0000000000000001").input);
    expect(JSON.parse(answer(again, cache).stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  });
});

describe("PostToolUse and Stop", () => {
  const stopInput = (n: number, active = false) =>
    JSON.stringify({ session_id: SESSION, transcript_path: prefix(n), hook_event_name: "Stop", stop_hook_active: active });

  test("after an edit, what the session owes is added to Claude's context", () => {
    const stdin = JSON.stringify({
      ...JSON.parse(pre(prefix(8), "Edit", "toolu_01Edit0000000000000002")),
      hook_event_name: "PostToolUse",
      tool_response: { filePath: "/srv/shop/src/discount.js" },
    });
    const out = JSON.parse(answer(stdin).stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe("PostToolUse");
    expect(out.hookSpecificOutput.additionalContext).toContain(
      'rule "Run the tests after editing" (required: "after an edit Claude runs the tests") cites e7',
    );
  });

  test("a stop right after a failed command is blocked once with the unanswered failure; a stop at the end is allowed", () => {
    const blocked = JSON.parse(answer(stopInput(10)).stdout) as { decision: string; reason: string };
    expect(blocked.decision).toBe("block");
    expect(blocked.reason).toContain('rule "Say when a command fails" (pairing');
    expect(blocked.reason).toContain("cites e10 (tool Bash_result: Exit code 1");
    const shown = JSON.parse(answer(stopInput(10, true)).stdout) as Record<string, string>;
    expect(shown.decision).toBeUndefined();
    expect(shown.systemMessage).toBe(blocked.reason);
    expect(answer(stopInput(20))).toEqual({ exitCode: 0, stdout: "", stderr: "" });
  });
});

describe("as a Claude Agent SDK hook callback", () => {
  test("the same answers as objects; a failure fails open ({}) or, fail-closed, denies naming it", async () => {
    const hook = claudeAgentHook(judge, { readTranscript: read });
    const stdin = pre(prefix(16), "Bash", "toolu_01Bash0000000000000003");
    expect(await hook(JSON.parse(stdin))).toEqual(JSON.parse(answer(stdin).stdout));
    expect(await hook(JSON.parse(pre(prefix(18), "Bash", "toolu_01Bash0000000000000004")))).toEqual({});

    const missing = JSON.parse(pre(join(dir, "no-such.jsonl"), "Bash", "toolu_01Bash0000000000000003"));
    const logged: string[] = [];
    expect(await claudeAgentHook(judge, { readTranscript: read, log: (l) => logged.push(l) })(missing)).toEqual({});
    const closed = await claudeAgentHook(judge, { readTranscript: read, failClosed: true, log: (l) => logged.push(l) })(missing);
    expect(closed).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: logged[1] },
    });
    expect(logged[0]).toMatch(/^behavior-judge guard: cannot read the transcript .*failing open/);
    expect(logged[1]).toMatch(/failing closed: the call is blocked\)$/);
  });
});

describe("the command", () => {
  const cacheDir = join(dir, "cache");

  test("denies through the real command, and remembers the refusal under the cache folder with a log line", () => {
    const run = runCli(["guard", JUDGE, "--claude-code", "--cache-dir", cacheDir], {
      input: pre(prefix(16), "Bash", "toolu_01Bash0000000000000003"),
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    const memory = JSON.parse(read(join(cacheDir, `${SESSION}.json`))) as HookCache;
    expect(memory.refused).toEqual({ toolu_01Bash0000000000000003: ["Never force-push"] });
    // Where the next call starts importing: a checkpoint in this transcript, before the call.
    expect(memory.checkpoint!.offset).toBeGreaterThan(0);
    expect(memory.checkpoint!.events.length).toBeLessThan(16);
    expect(read(join(cacheDir, "guard.log"))).toContain(`session ${SESSION} denied: [behavior-judge guard] Bash was not run`);
  });

  test("input that is no hook JSON: one stderr line and exit 1 (the call goes on), or 2 with --fail-closed (it is blocked)", () => {
    const open = runCli(["guard", JUDGE, "--claude-code", "--cache-dir", cacheDir], { input: "{not json" });
    expect(open.status).toBe(1);
    expect(open.stdout).toBe("");
    expect(open.stderr.trim().split("\n")).toHaveLength(1);
    expect(open.stderr).toMatch(/^behavior-judge guard: hook input is not JSON: .*failing open/);
    const closed = runCli(["guard", JUDGE, "--claude-code", "--fail-closed", "--cache-dir", cacheDir], { input: "{not json" });
    expect(closed.status).toBe(2);
    expect(closed.stderr).toMatch(/failing closed: the call is blocked\)\n$/);
  });

  test("an unreadable transcript and a judge that fails to load never allow with --fail-closed", () => {
    const missing = pre(join(dir, "no-such-transcript.jsonl"), "Bash", "toolu_01Bash0000000000000003");
    const closed = runCli(["guard", JUDGE, "--claude-code", "--fail-closed", "--cache-dir", cacheDir], { input: missing });
    expect(closed.status).toBe(2);
    expect(closed.stderr).toContain("cannot read the transcript");
    const broken = join(dir, "broken-judge.mjs");
    writeFileSync(broken, "export const rules = ;\n");
    const input = pre(prefix(16), "Bash", "toolu_01Bash0000000000000003");
    const noJudge = runCli(["guard", broken, "--claude-code", "--fail-closed", "--cache-dir", cacheDir], { input });
    expect(noJudge.status).toBe(2);
    expect(noJudge.stderr).toMatch(/^behavior-judge guard: cannot load the judge .*failing closed/);
    expect(noJudge.stderr.trim().split("\n")).toHaveLength(1);
    const open = runCli(["guard", broken, "--claude-code", "--cache-dir", cacheDir], { input });
    expect(open.status).toBe(1);
  });
});
