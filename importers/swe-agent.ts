/**
 * SWE-agent and mini-swe-agent trajectories (IMPORTERS.md `swe-agent`).
 *
 * SWE-agent writes `<instance_id>.traj`: `{trajectory, history, info,
 * replay_config, environment}` (sweagent/agent/agents.py,
 * `get_trajectory_data`). `history` is the chat the model saw: the system
 * prompt, demonstrations (`is_demo`, `message_type: "demonstration"`), the
 * task as a user message, then per step an assistant message (`thought`,
 * `action`, and with function calling `tool_calls`) and its observation (a
 * user message, or with function calling a `tool` message with
 * `tool_call_ids`). `trajectory` has one entry per step (`action`,
 * `observation` as the tool printed it, `thought`, `response`); older runs
 * left the last step (the `submit`) out of `history`, so steps past the
 * history's last action are read from `trajectory`. A demonstration file
 * (`{history}` only) is read too.
 *
 * mini-swe-agent writes `.traj.json`: `{info: {exit_status, submission, …},
 * messages, trajectory_format: "mini-swe-agent-1" | "mini-swe-agent-1.1"}`
 * (src/minisweagent/agents/default.py `serialize`; v1:
 * run/utils/save.py). Messages are chat messages with an `extra` field: the
 * command is the one fenced block of the assistant's text (```` ```bash ````
 * in v1, ```` ```mswea_bash_command ```` in v2's text mode, or
 * `extra.actions`), or a `bash` tool call (v2's default); the observation is
 * the next user message (`tool` with `tool_call_id` for tool calls), its
 * `extra.returncode` (or the `<returncode>` the template printed) the exit
 * code. The run ends with an `exit` message (v2) or a user message holding
 * the submission (v1), which answers the final `echo
 * COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT` command.
 *
 * Commands written in the text are calls of the command tool, `bash`, with
 * arguments `{command}`; SWE-agent's own commands (`submit`, `edit`,
 * `open`, …) are calls of their own name with `{command}` holding the whole
 * line, and with function calling every call keeps its tool's name and
 * arguments. `complete` is true when the run's `exit_status` is
 * `submitted` (an auto-submission after a limit, `submitted (exit_cost)`,
 * is not) and no call is left without its result.
 */
import {
  ImportError,
  TrajectoryBuilder,
  checkNesting,
  contentText,
  guard,
  importEach,
  isRecord,
  jsonText,
  parseJson,
  traceId,
} from "./core.js";
import type { ImportOptions, ImportResult } from "./core.js";

type Obj = Record<string, unknown>;

/** SWE-agent's own commands in its default tool bundles: a text action starting with one is a call of that name. */
const SWE_AGENT_COMMANDS = new Set([
  "submit",
  "open",
  "goto",
  "scroll_up",
  "scroll_down",
  "create",
  "edit",
  "insert",
  "search_dir",
  "search_file",
  "find_file",
  "str_replace_editor",
  "filemap",
  "view_image",
  "exit_forfeit",
]);

function isSweAgentMessage(m: unknown): boolean {
  return isRecord(m) && typeof m.role === "string" && ("message_type" in m || "agent" in m || "is_demo" in m);
}

/** A SWE-agent `.traj`: steps with action and observation (or none yet), beside a history or info; or a demonstration's history. */
function isSweAgentTraj(value: unknown): boolean {
  if (!isRecord(value)) return false;
  if (Array.isArray(value.trajectory)) {
    const stepsOk = value.trajectory.every((s) => isRecord(s) && "action" in s && "observation" in s);
    return stepsOk && (Array.isArray(value.history) || isRecord(value.info)) && !("expected" in value);
  }
  return Array.isArray(value.history) && value.history.length > 0 && value.history.every(isSweAgentMessage);
}

/** A mini-swe-agent `.traj.json`: messages with its trajectory_format, or its info (exit_status, mini_version). */
function isMiniTraj(value: unknown): boolean {
  if (!isRecord(value) || !Array.isArray(value.messages)) return false;
  if (typeof value.trajectory_format === "string") return value.trajectory_format.startsWith("mini-swe-agent");
  return isRecord(value.info) && "mini_version" in value.info;
}

/** A cheap shape test: a SWE-agent `.traj`, a mini-swe-agent `.traj.json`, or a list of them. */
export function detectSweAgent(input: unknown): boolean {
  if (isSweAgentTraj(input) || isMiniTraj(input)) return true;
  return Array.isArray(input) && input.length > 0 && input.every((v) => isSweAgentTraj(v) || isMiniTraj(v));
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The one fenced command of a text reply (as the harness parses it: exactly one block, else none), and the text around it. */
function fencedCommand(text: string): { command: string; rest: string } | undefined {
  for (const fence of [/```mswea_bash_command\s*\n([\s\S]*?)\n```/g, /```bash\n([\s\S]*?)\n```/g]) {
    const found = [...text.matchAll(fence)];
    if (found.length === 0) continue;
    if (found.length !== 1) return undefined;
    const match = found[0]!;
    const rest = (text.slice(0, match.index) + text.slice(match.index + match[0].length)).trim();
    return { command: match[1]!.trim(), rest };
  }
  return undefined;
}

/** The exit code of an observation: `extra.returncode`, else the `<returncode>N</returncode>` mini-swe-agent's template prints. */
function returnCode(message: Obj, text: string): number | undefined {
  const extra = isRecord(message.extra) ? message.extra : undefined;
  if (typeof extra?.returncode === "number") return extra.returncode;
  const printed = /^\s*<returncode>(-?\d+)<\/returncode>/.exec(text);
  return printed === null ? undefined : Number(printed[1]);
}

interface Call {
  name: string;
  args: string;
  id: string | undefined;
}

/** The calls of an assistant message: its tool calls, else its text's command. */
function callsOf(message: Obj, mini: boolean, path: string): { calls: Call[]; text: string } {
  const content = contentText(message.content);
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  if (toolCalls.length > 0) {
    const calls = toolCalls.map((c, i): Call => {
      const at = `${path}.tool_calls[${i}]`;
      if (!isRecord(c) || !isRecord(c.function)) throw new ImportError(at, "must be a tool call {id, function: {name, arguments}}");
      const name = str(c.function.name);
      if (name === undefined) throw new ImportError(`${at}.function`, "missing name");
      return { name, args: jsonText(c.function.arguments ?? ""), id: str(c.id) };
    });
    return { calls, text: str(message.thought) ?? content };
  }
  // mini-swe-agent v2 keeps the commands it parsed.
  const extra = isRecord(message.extra) ? message.extra : undefined;
  if (mini && Array.isArray(extra?.actions) && extra.actions.length > 0) {
    const calls = extra.actions
      .filter(isRecord)
      .map((a) => ({ name: "bash", args: JSON.stringify({ command: String(a.command ?? "") }), id: str(a.tool_call_id) }));
    return { calls, text: fencedCommand(content)?.rest ?? content };
  }
  const action = typeof message.action === "string" ? message.action.trim() : undefined;
  if (!mini && action !== undefined) {
    if (action === "") return { calls: [], text: str(message.thought) ?? content };
    return { calls: [textCall(action)], text: str(message.thought) ?? content };
  }
  const fenced = fencedCommand(content);
  if (fenced === undefined) return { calls: [], text: content };
  return { calls: [{ name: "bash", args: JSON.stringify({ command: fenced.command }), id: undefined }], text: fenced.rest };
}

/** A SWE-agent text action: one of its commands by name, else a shell command. */
function textCall(action: string): Call {
  const word = /^\S+/.exec(action)?.[0] ?? "";
  return { name: SWE_AGENT_COMMANDS.has(word) ? word : "bash", args: JSON.stringify({ command: action }), id: undefined };
}

/** The native id of a run: SWE-agent's problem statement id (in replay_config), mini-swe-agent's instance id. */
function nativeId(value: Obj): string | undefined {
  const info = isRecord(value.info) ? value.info : undefined;
  if (str(info?.instance_id) !== undefined) return str(info!.instance_id);
  const replay = typeof value.replay_config === "string" ? parseJson(value.replay_config) : value.replay_config;
  if (isRecord(replay) && isRecord(replay.problem_statement)) return str(replay.problem_statement.id);
  return undefined;
}

function isDemo(m: Obj): boolean {
  return m.is_demo === true || m.message_type === "demonstration";
}

function importRun(value: unknown, path: string, options: ImportOptions, index: number, count: number): TrajectoryBuilder {
  const at = (key: string): string => (path === "" ? key : `${path}.${key}`);
  if (!isRecord(value) || !(isSweAgentTraj(value) || isMiniTraj(value)))
    throw new ImportError(
      path,
      "expected a SWE-agent .traj ({trajectory, history, info}) or a mini-swe-agent .traj.json ({info, messages})",
    );
  checkNesting(value, path);
  const mini = isMiniTraj(value);
  const b = new TrajectoryBuilder(traceId(options, nativeId(value), index, count), options);
  const info = isRecord(value.info) ? value.info : undefined;
  const key = mini ? "messages" : "history";
  const messages = Array.isArray(value[key]) ? (value[key] as unknown[]) : [];
  const steps = !mini && Array.isArray(value.trajectory) ? value.trajectory.filter(isRecord) : [];
  /** Calls waiting for an observation, oldest first (a text observation answers the oldest). */
  const waiting: Call[] = [];
  let step = 0;
  let lastCall: string | undefined;
  let lastAction = "";

  const answer = (call: Call | undefined, text: string, message: Obj | undefined, where: string, raw?: unknown): void => {
    const code = message === undefined ? undefined : returnCode(message, text);
    const content = raw !== undefined ? raw : text;
    // The exit code joins the fields a JSON object result has of its own.
    const parsed = typeof content === "string" ? parseJson(content) : undefined;
    const fields: Record<string, unknown> | undefined =
      code === undefined ? undefined : { ...(isRecord(parsed) ? parsed : {}), returncode: code };
    b.result(call?.id, content, { name: call?.name, error: code !== undefined && code !== 0, fields, path: where });
  };

  messages.forEach((raw, i) => {
    const where = `${at(key)}[${i}]`;
    if (!isRecord(raw)) throw new ImportError(where, "must be a message object");
    if (isDemo(raw)) return;
    const role = raw.role;
    const text = contentText(raw.content);
    switch (role) {
      case "system":
        return;
      case "assistant": {
        const { calls, text: said } = callsOf(raw, mini, where);
        if (said.trim() !== "") b.agentMessage(said.trim());
        for (const call of calls) {
          b.call(call.name, call.args, call.id, undefined, where);
          waiting.push(call);
          lastCall = call.name;
        }
        if (!mini && (calls.length > 0 || str(raw.action) !== undefined)) {
          step++;
          lastAction = typeof raw.action === "string" ? raw.action.trim() : "";
        }
        return;
      }
      case "tool": {
        const ids = Array.isArray(raw.tool_call_ids) ? raw.tool_call_ids.map(str) : [str(raw.tool_call_id)];
        const id = ids.find((x) => x !== undefined);
        const k = waiting.findIndex((c) => id !== undefined && c.id === id);
        const call = k >= 0 ? waiting.splice(k, 1)[0] : waiting.shift();
        answer(call ?? { name: "unknown", args: "", id }, text, raw, where, observation(steps, step - 1, lastAction));
        return;
      }
      case "user":
      case "exit": {
        // An observation answers the command waiting for it; the exit message answers the final command with the submission.
        if (waiting.length > 0) {
          const call = waiting.shift()!;
          answer(call, text, raw, where, observation(steps, step - 1, lastAction));
        } else if (role === "user" && text.trim() !== "") b.user(text);
        return;
      }
      default:
        throw new ImportError(
          `${where}.role`,
          role === undefined ? "missing role" : `unknown role ${JSON.stringify(role)} (expected system, user, assistant, tool or exit)`,
        );
    }
  });
  // The history's last action without its observation (a run saved as it submitted): the step has it.
  if (waiting.length > 0 && steps.length > 0) {
    const seen = observation(steps, step - 1, lastAction);
    if (seen !== undefined) answer(waiting.shift(), seen, undefined, `${at("trajectory")}[${step - 1}]`);
  }
  // Steps the history does not hold (older SWE-agent left the final submit out of it).
  for (let k = step; k < steps.length; k++) {
    const s = steps[k]!;
    const where = `${at("trajectory")}[${k}]`;
    const thought = contentText(s.thought);
    if (thought.trim() !== "") b.agentMessage(thought.trim());
    const action = typeof s.action === "string" ? s.action.trim() : "";
    if (action === "") continue;
    const call = textCall(action);
    b.call(call.name, call.args, undefined, undefined, where);
    lastCall = call.name;
    b.result(undefined, contentText(s.observation), { name: call.name, path: where });
  }
  const status = str(info?.exit_status);
  const endedNormally = status !== undefined ? status.toLowerCase() === "submitted" : lastCall === "submit";
  b.finish(endedNormally);
  return b;
}

/** Step k's own observation (what the tool printed, without the history's template), when step k ran the history's action. */
function observation(steps: Obj[], k: number, action: string): string | undefined {
  const s = k >= 0 ? steps[k] : undefined;
  if (s === undefined || typeof s.observation !== "string" || typeof s.action !== "string" || s.action.trim() !== action) return undefined;
  return s.observation;
}

export function fromSweAgent(input: unknown, options: ImportOptions = {}): ImportResult {
  return guard(() => {
    const runs = Array.isArray(input) ? input.map((v, i) => ({ v, path: `[${i}]` })) : [{ v: input, path: "" }];
    if (runs.length === 0) throw new ImportError("", "expected a SWE-agent .traj or a mini-swe-agent .traj.json, not an empty list");
    return importEach(runs, (r, i) => importRun(r.v, r.path, options, i, runs.length));
  });
}
