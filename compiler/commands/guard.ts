/**
 * `guard`: a judge's monitor where an agent asks before it runs a tool
 * (docs/GUARDS.md). `--claude-code` is a Claude Code / Claude Agent SDK hook
 * command (guard/claude-code.ts); `--mcp` a stdio MCP server in front of
 * another (guard/mcp.ts).
 */
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { answerClaudeCodeHook, hookFailure, readHookInput, type HookAnswer, type HookCache } from "../../guard/claude-code.js";
import type { GuardJudge } from "../../guard/session.js";
import { loadJudge } from "../run/load.js";
import { UserError } from "../errors.js";

export interface GuardCommandOptions {
  claudeCode?: boolean;
  mcp?: boolean;
  failClosed?: boolean;
  cacheDir?: string;
}

/** Where the guard keeps each session's memory and its log: .cache/behavior-judge/guard in the project. */
function cacheDir(options: GuardCommandOptions): string {
  if (options.cacheDir !== undefined) return resolve(options.cacheDir);
  return join(process.env.CLAUDE_PROJECT_DIR ?? process.cwd(), ".cache", "behavior-judge", "guard");
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function loadGuardJudge(path: string): Promise<GuardJudge> {
  const judge = (await loadJudge(path)) as Partial<GuardJudge>;
  if (typeof judge.createMonitor !== "function")
    throw new Error(`${path} has no createMonitor: it was built by an older behavior-judge; rebuild it with \`behavior-judge build\``);
  return judge as GuardJudge;
}

/** A session's file name: its id with anything but letters, digits, `-` and `_` replaced. */
function sessionFile(dir: string, sessionId: string): string {
  return join(dir, `${sessionId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 200)}.json`);
}

function readCache(path: string): HookCache {
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as Partial<HookCache>;
    if (value !== null && typeof value === "object" && typeof value.refused === "object" && value.refused !== null)
      return { refused: { ...value.refused }, checkpoint: value.checkpoint };
  } catch {
    // No memory yet, or a broken file: the transcript still shows the refusals.
  }
  return { refused: {} };
}

/** A file's bytes from `from` on, as text: what a call from a checkpoint reads. */
function readFrom(path: string, from: number): string {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.max(0, size - from));
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, from + read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** One Claude Code hook call: stdin in, the hook's answer out. Never lets an error through as a crash. */
async function claudeCodeHook(judgePath: string, options: GuardCommandOptions): Promise<HookAnswer> {
  const failClosed = options.failClosed === true;
  const stdin = await readStdin();
  let judge: GuardJudge;
  try {
    judge = await loadGuardJudge(judgePath);
  } catch (error) {
    return hookFailure(`cannot load the judge ${judgePath}: ${(error as Error).message}`, failClosed);
  }
  const dir = cacheDir(options);
  let sessionId: string | undefined;
  try {
    sessionId = readHookInput(stdin).session_id;
  } catch {
    // answerClaudeCodeHook says what is wrong with the input.
  }
  const file = sessionId === undefined ? undefined : sessionFile(dir, sessionId);
  const cache = file === undefined ? { refused: {} } : readCache(file);
  const refusedBefore = Object.keys(cache.refused).length;
  const checkpointBefore = cache.checkpoint;
  const answer = answerClaudeCodeHook(judge, stdin, {
    failClosed,
    cache,
    readTranscript: (path) => readFileSync(path, "utf8"),
    readTranscriptFrom: readFrom,
  });
  const refused = Object.keys(cache.refused).length !== refusedBefore;
  if (file !== undefined && (refused || cache.checkpoint !== checkpointBefore)) {
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, `${JSON.stringify(cache)}\n`);
      // The log a person reads: one line per refusal, in the project's cache.
      const reason = refused ? ((JSON.parse(answer.stdout) as { systemMessage?: string }).systemMessage ?? "") : "";
      if (refused) appendFileSync(join(dir, "guard.log"), `${new Date().toISOString()} session ${sessionId} denied: ${reason}\n`);
    } catch {
      // The decision stands without its memory: the transcript keeps the refusal's mark.
    }
  }
  return answer;
}

/** Returns the exit code. */
export async function runGuardCommand(judgePath: string, server: readonly string[], options: GuardCommandOptions): Promise<number> {
  if (options.claudeCode === true && options.mcp === true)
    throw new UserError("guard: give --claude-code or --mcp, not both", { exitCode: 2 });
  if (options.claudeCode === true) {
    const answer = await claudeCodeHook(judgePath, options);
    process.stdout.write(answer.stdout);
    process.stderr.write(answer.stderr);
    return answer.exitCode;
  }
  if (options.mcp === true) {
    if (server.length === 0)
      throw new UserError("guard --mcp: give the MCP server's command after --, e.g. guard judge.mjs --mcp -- node server.js", {
        exitCode: 2,
      });
    const { runMcpProxy } = await import("../../guard/mcp.js");
    return runMcpProxy(await loadGuardJudge(judgePath), server, { failClosed: options.failClosed === true });
  }
  throw new UserError("guard: say where the agent runs: --claude-code (a hook command) or --mcp -- <server command…>", { exitCode: 2 });
}
