/**
 * A Claude Code (and Claude Agent SDK) hook (docs/GUARDS.md): the hook's JSON
 * in, the documented hook output and exit code out.
 *
 * - `PreToolUse`: the session's events are rebuilt from its transcript with
 *   the claude-code importer; the call is the importer's own event for its
 *   `tool_use` block when the transcript has it already (what the finished
 *   trace will hold), else the hook's call as that importer maps it. Calls the
 *   guard refused earlier (their result carries the refusal's mark, or the
 *   session's cache names them) and their results are left out: they never
 *   ran. A call that would break a deterministic clause is denied
 *   (`permissionDecision: "deny"`, the reason naming the rule, its quote and
 *   the cited events: Claude reads it); any other is allowed in silence.
 * - `PostToolUse`: a violation the call's events made certain is fed back
 *   (`decision: "block"`, the tool has run); what the call left owed
 *   (a pairing's answer, a required step) is added to Claude's context.
 * - `Stop` / `SubagentStop`: what a finished trace would fail (pairings,
 *   required steps, counts below their minimum) blocks the stop once, with
 *   the list as the reason; when Claude is already continuing from a stop
 *   hook it is only shown (`systemMessage`), so the session cannot loop.
 *
 * Failures (input that is no hook JSON, a transcript that cannot be read, a
 * judge that cannot be loaded) write one line to stderr and exit 1, which
 * Claude Code shows and lets the call go on; with `failClosed` they exit 2,
 * which blocks the call (and a stop) and gives Claude the line.
 */
import { FACT, flattenInto, isRecord, jsonText } from "../importers/core.js";
import { fromClaudeCodeHook } from "../importers/claude-code.js";
import type { TrajectoryEvent, Violation } from "../runtime/types.js";
import { REFUSAL_MARK, feedbackMessage, refusalMessage } from "./refusal.js";
import type { GuardJudge } from "./session.js";
import { importTranscript, type TranscriptCheckpoint } from "./claude-code-checkpoint.js";

/** The hook input fields read here (Claude Code's hooks reference). */
export interface ClaudeCodeHookInput {
  session_id: string;
  transcript_path: string;
  hook_event_name: string;
  tool_name?: string;
  tool_input?: unknown;
  tool_use_id?: string;
  tool_response?: unknown;
  stop_hook_active?: boolean;
  agent_id?: string;
  agent_type?: string;
}

/** What the hook command prints and how it exits. */
export interface HookAnswer {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Per-session memory kept between calls (under .cache/ by the command). */
export interface HookCache {
  /** tool_use ids this guard denied, with the rules: left out of the events even when the transcript does not show the refusal. */
  refused: Record<string, string[]>;
  /** Where the next call may start importing the transcript (claude-code-checkpoint.ts). */
  checkpoint?: (TranscriptCheckpoint & { path: string }) | undefined;
}

export interface HookOptions {
  failClosed?: boolean;
  /** The transcript's text (throws when it cannot be read). */
  readTranscript: (path: string) => string;
  /** The transcript's text from a byte offset on: given, a call from a checkpoint reads only the bytes after it. */
  readTranscriptFrom?: (path: string, fromByte: number) => string;
  cache?: HookCache;
}

/** A failure: one line on stderr, exit 1 (Claude Code goes on) or, fail-closed, 2 (it blocks). */
export function hookFailure(message: string, failClosed: boolean): HookAnswer {
  const line = message.replace(/\s+/g, " ").trim();
  const policy = failClosed ? "failing closed: the call is blocked" : "failing open: the call goes on";
  return { exitCode: failClosed ? 2 : 1, stdout: "", stderr: `behavior-judge guard: ${line} (${policy})\n` };
}

const ok = (stdout = ""): HookAnswer => ({ exitCode: 0, stdout, stderr: "" });
const json = (value: unknown): HookAnswer => ok(`${JSON.stringify(value)}\n`);

/** Reads the hook's JSON; throws a sentence saying what is wrong. */
export function readHookInput(text: string): ClaudeCodeHookInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`hook input is not JSON: ${(error as Error).message}`);
  }
  if (!isRecord(value)) throw new Error("hook input must be a JSON object");
  for (const key of ["session_id", "transcript_path", "hook_event_name"])
    if (typeof value[key] !== "string" || value[key] === "") throw new Error(`hook input has no ${key}`);
  const event = value.hook_event_name as string;
  if ((event === "PreToolUse" || event === "PostToolUse") && (typeof value.tool_name !== "string" || value.tool_name === ""))
    throw new Error(`${event} hook input has no tool_name`);
  return value as unknown as ClaudeCodeHookInput;
}

/** The session's events, and the call ids whose results are this guard's refusals. */
function sessionEvents(input: ClaudeCodeHookInput, options: HookOptions): { events: TrajectoryEvent[]; refused: Set<string> } {
  const path = input.transcript_path;
  const from = options.readTranscriptFrom;
  const stored = options.cache?.checkpoint;
  const { events, checkpoint } = importTranscript(
    from !== undefined ? (byte: number) => from(path, byte) : options.readTranscript(path),
    input.session_id,
    stored !== undefined && stored.path === input.transcript_path ? stored : undefined,
  );
  if (options.cache !== undefined && checkpoint !== undefined && checkpoint !== stored)
    options.cache.checkpoint = { ...checkpoint, path: input.transcript_path };
  const refused = new Set(Object.keys(options.cache?.refused ?? {}));
  for (const e of events)
    if (e.actor === "tool" && e.metadata?.status === "error" && (e.content ?? "").includes(REFUSAL_MARK)) {
      const callId = e.metadata[FACT.callId];
      if (callId !== undefined) refused.add(callId);
    }
  return { events, refused };
}

const callIdOf = (e: TrajectoryEvent): string | undefined => e.metadata?.[FACT.callId];

/** Answers one hook call. Never throws: a failure is `hookFailure`'s answer. */
export function answerClaudeCodeHook(judge: GuardJudge, stdin: string, options: HookOptions): HookAnswer {
  const failClosed = options.failClosed === true;
  let input: ClaudeCodeHookInput;
  try {
    input = readHookInput(stdin);
  } catch (error) {
    return hookFailure((error as Error).message, failClosed);
  }
  let events: TrajectoryEvent[];
  let refused: Set<string>;
  try {
    ({ events, refused } = sessionEvents(input, options));
  } catch (error) {
    return hookFailure(`cannot read the transcript ${input.transcript_path}: ${(error as Error).message}`, failClosed);
  }
  try {
    switch (input.hook_event_name) {
      case "PreToolUse":
        return preToolUse(judge, input, events, refused, options);
      case "PostToolUse":
        return postToolUse(judge, input, events, refused);
      case "Stop":
      case "SubagentStop":
        return stop(judge, input, events, refused);
      default:
        return ok();
    }
  } catch (error) {
    return hookFailure(`the judge failed: ${(error as Error).message}`, failClosed);
  }
}

/** A monitor fed the events that ran (refused calls and their refusals left out); returns it and what each push reported. */
function replay(judge: GuardJudge, input: ClaudeCodeHookInput, events: readonly TrajectoryEvent[], refused: ReadonlySet<string>) {
  const monitor = judge.createMonitor({ id: input.session_id, description: "" });
  const reported: Violation[][] = [];
  for (const e of events) {
    const callId = callIdOf(e);
    reported.push(callId !== undefined && refused.has(callId) ? [] : monitor.push(e));
  }
  return { monitor, reported };
}

function lookupIn(events: readonly TrajectoryEvent[], extra?: TrajectoryEvent): (id: string) => TrajectoryEvent | undefined {
  const byId = new Map(events.map((e) => [e.id, e]));
  if (extra !== undefined) byId.set(extra.id, extra);
  return (id) => byId.get(id);
}

function preToolUse(
  judge: GuardJudge,
  input: ClaudeCodeHookInput,
  events: TrajectoryEvent[],
  refused: Set<string>,
  options: HookOptions,
): HookAnswer {
  const at = events.findIndex((e) => e.actor === "agent" && input.tool_use_id !== undefined && callIdOf(e) === input.tool_use_id);
  const before = at === -1 ? events : events.slice(0, at);
  const last = before[before.length - 1];
  const lastTurn = Number(last?.metadata?.[FACT.turn] ?? 0);
  const candidate =
    at !== -1
      ? events[at]!
      : fromClaudeCodeHook(
          {
            tool_name: input.tool_name!,
            tool_input: input.tool_input,
            tool_use_id: input.tool_use_id,
            agent_id: input.agent_id,
            agent_type: input.agent_type,
          },
          { id: `e${events.length + 1}`, turn: last?.actor === "agent" ? lastTurn : lastTurn + 1 },
        );
  const { monitor } = replay(judge, input, before, refused);
  const violations = monitor.check(candidate);
  if (violations.length === 0) return ok();
  const reason = refusalMessage(input.tool_name!, violations, lookupIn(before, candidate));
  if (options.cache !== undefined && input.tool_use_id !== undefined)
    options.cache.refused[input.tool_use_id] = violations.map((v) => v.rule);
  return json({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason },
    systemMessage: reason,
  });
}

/** The result event of the hook's call when the transcript does not have it yet (built from `tool_response`). */
function responseEvent(input: ClaudeCodeHookInput, events: readonly TrajectoryEvent[], call: TrajectoryEvent): TrajectoryEvent {
  const metadata: Record<string, string> = {};
  const response = input.tool_response;
  if (isRecord(response)) flattenInto(metadata, response);
  if (input.tool_use_id !== undefined) metadata[FACT.callId] = input.tool_use_id;
  const turn = call.metadata?.[FACT.turn];
  if (turn !== undefined) metadata[FACT.turn] = turn;
  const content = typeof response === "string" ? response : jsonText(response ?? "");
  return { id: `e${events.length + 1}`, actor: "tool", action: `${input.tool_name}_result`, content, metadata };
}

function postToolUse(judge: GuardJudge, input: ClaudeCodeHookInput, events: TrajectoryEvent[], refused: Set<string>): HookAnswer {
  const id = input.tool_use_id;
  if (id !== undefined && refused.has(id)) return ok();
  const call = events.find((e) => e.actor === "agent" && id !== undefined && callIdOf(e) === id);
  const all = [...events];
  if (call !== undefined && !events.some((e) => e.actor === "tool" && callIdOf(e) === id)) all.push(responseEvent(input, events, call));
  const { monitor, reported } = replay(judge, input, all, refused);
  const mine = new Set(all.filter((e) => id !== undefined && callIdOf(e) === id).map((e) => e.id));
  const now = all.flatMap((e, k) => (mine.has(e.id) ? reported[k]! : []));
  const owed = monitor.pending().filter((o) => o.eventIds.some((e) => mine.has(e)));
  const lookup = lookupIn(all);
  if (now.length > 0) {
    const reason = feedbackMessage(`${input.tool_name} ran, and broke:`, now, lookup);
    return json({ decision: "block", reason, systemMessage: reason });
  }
  if (owed.length === 0) return ok();
  const context = feedbackMessage(`after this ${input.tool_name} call the session still owes:`, owed, lookup);
  return json({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: context } });
}

function stop(judge: GuardJudge, input: ClaudeCodeHookInput, events: TrajectoryEvent[], refused: Set<string>): HookAnswer {
  const { monitor } = replay(judge, input, events, refused);
  const owed = monitor.pending();
  if (owed.length === 0) return ok();
  const reason = feedbackMessage("the session cannot end yet: a finished session would fail", owed, lookupIn(events));
  if (input.stop_hook_active === true) return json({ systemMessage: reason });
  return json({ decision: "block", reason, systemMessage: reason });
}

/** What a Claude Agent SDK hook callback returns: the hook output, as an object ({} allows in silence). */
export type HookOutput = Record<string, unknown>;

/**
 * The same guard as a Claude Agent SDK hook callback (`options.hooks:
 * { PreToolUse: [{ hooks: [callback] }], PostToolUse: …, Stop: … }`): the
 * hook input object in, the answer the command would print, as an object.
 * The SDK has no exit codes: a failure is logged (one line, `log`, default
 * `console.warn`) and, with `failClosed`, answered as a denial (or a blocked
 * stop) naming it; otherwise the call goes on.
 */
export function claudeAgentHook(
  judge: GuardJudge,
  options: HookOptions & { log?: (line: string) => void },
): (input: unknown) => Promise<HookOutput> {
  const log = options.log ?? ((line: string) => console.warn(line));
  return async (input) => {
    const answer = answerClaudeCodeHook(judge, JSON.stringify(input) ?? "", options);
    if (answer.exitCode === 0) return answer.stdout === "" ? {} : (JSON.parse(answer.stdout) as HookOutput);
    const line = answer.stderr.trim();
    log(line);
    if (answer.exitCode !== 2) return {};
    const event = isRecord(input) ? input.hook_event_name : undefined;
    if (event === "PreToolUse")
      return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: line } };
    return { decision: "block", reason: line };
  };
}
