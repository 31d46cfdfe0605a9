/**
 * Claude Code sub-agents (IMPORTERS.md `claude-code`): a `Task` (or `Agent`)
 * call runs a sub-agent whose transcript is written apart from the session's
 * (`<session>/subagents/agent-<id>.jsonl`; older versions wrote
 * `agent-<id>.jsonl` beside the session, or the records into the session's
 * own file), every record with `isSidechain: true` and the agent's
 * `agentId`. Given with the session's records, a transcript is read under its
 * call: its events carry `@agent` (the `subagent_type`) and `@agent_id`, and
 * come right before the call's result (a background agent's right after the
 * launch result), or at the end when the call has none.
 *
 * Which transcript a call started is read from, in this order: the call's
 * record in a `claude -p` stream (`parent_tool_use_id`), the result's
 * `toolUseResult.agentId`, the `agentId: <id>` line Claude Code appends to the
 * result text, an `agentId` on the result's record, and last the call's
 * `prompt` being the transcript's first user text.
 */
import { FACT, KeyedQueues, contentText, isRecord } from "./core.js";
import type { Reading, SessionRecord } from "./claude-code.js";

/** Facts of this format, beside core's FACT (they start with "@", so no flattened field can pass for one). */
export const CLAUDE_CODE_FACT = {
  /** "true" on the user event that records an interruption ("[Request interrupted by user]"). */
  interrupted: "@interrupted",
  /** The slash command a user record runs (`/review`), from its `<command-name>` tag. */
  command: "@command",
  /** The sub-agent's id (`agentId`), on every event of a sub-agent's transcript. */
  agentId: "@agent_id",
} as const;

/** Reads a sub-agent's records into the session's builder, with the facts its events carry; returns its reading. */
export type ReadAgent = (records: readonly SessionRecord[], facts: Record<string, string>, reading: Reading) => Reading;

/** Tools whose call runs a sub-agent. */
const SPAWNERS = new Set(["Task", "Agent"]);

/** The `agentId: <id>` line Claude Code appends to a sub-agent's result. */
const AGENT_ID_LINE = /(?:^|\n)\s*agentId:\s*([A-Za-z0-9_-]+)/;

/** Sub-agents nested deeper than this are read flat, with a warning (each level is a few stack frames). */
const MAX_DEPTH = 200;

/** The facts of a sub-agent's events. */
export function agentMeta(type: unknown, id: unknown): Record<string, string> {
  if (typeof type !== "string" && typeof id !== "string") return {};
  const meta: Record<string, string> = { [FACT.agent]: typeof type === "string" && type !== "" ? type : "general-purpose" };
  if (typeof id === "string" && id !== "") meta[CLAUDE_CODE_FACT.agentId] = id;
  return meta;
}

/** One sub-agent's transcript among the records. */
export interface AgentTranscript {
  /** `agentId`, else the call id of a stream's `parent_tool_use_id`, else the uuid of its first record. */
  key: string;
  agentId: string | undefined;
  /** The call that started it, when its records name it (`parent_tool_use_id`). */
  callId: string | undefined;
  records: SessionRecord[];
  /** Its first user text: the prompt of the call that started it. */
  prompt: string | undefined;
  read: boolean;
  /** A call has it (no second call takes it). */
  claimed: boolean;
}

interface SpawnCall {
  name: string;
  callId: string;
  type: unknown;
  prompt: unknown;
  background: boolean;
  answered: boolean;
  transcript: AgentTranscript | undefined;
  /** The agent id its result named, when no transcript has it. */
  namedAgent: string | undefined;
  /** Where the call is in the input. */
  path: string;
}

/** The first user text of a transcript (the prompt it was given). */
function firstPrompt(records: readonly SessionRecord[]): string | undefined {
  for (const { value } of records) {
    if (value.type !== "user" || !isRecord(value.message)) continue;
    const content = value.message.content;
    if (typeof content === "string") return content;
    if (Array.isArray(content) && content.some((b) => isRecord(b) && b.type === "tool_result")) return undefined;
    return contentText(content);
  }
  return undefined;
}

/** The session's own records and its sub-agents' transcripts, found by `isSidechain`, `agentId` and the parent chain. */
function partition(records: readonly SessionRecord[]): { main: SessionRecord[]; transcripts: AgentTranscript[] } {
  const main: SessionRecord[] = [];
  const transcripts: AgentTranscript[] = [];
  const byKey = new Map<string, AgentTranscript>();
  const keyOfUuid = new Map<string, string>();
  for (const record of records) {
    const v = record.value;
    const parentCall = typeof v.parent_tool_use_id === "string" && v.parent_tool_use_id !== "" ? v.parent_tool_use_id : undefined;
    if (v.isSidechain !== true && parentCall === undefined) {
      main.push(record);
      continue;
    }
    const uuid = typeof v.uuid === "string" ? v.uuid : undefined;
    const parent = typeof v.parentUuid === "string" ? keyOfUuid.get(v.parentUuid) : undefined;
    const agentId = typeof v.agentId === "string" && v.agentId !== "" ? v.agentId : undefined;
    const key = agentId ?? (parentCall !== undefined ? `call:${parentCall}` : (parent ?? uuid ?? `at:${record.path}`));
    let transcript = byKey.get(key);
    if (transcript === undefined) {
      transcript = { key, agentId, callId: parentCall, records: [], prompt: undefined, read: false, claimed: false };
      byKey.set(key, transcript);
      transcripts.push(transcript);
    }
    transcript.records.push(record);
    if (uuid !== undefined) keyOfUuid.set(uuid, key);
  }
  for (const t of transcripts) t.prompt = firstPrompt(t.records);
  return { main, transcripts };
}

/** Where the session's sub-agents go: it hears of each spawning call and result as the session is read. */
export class AgentPlan {
  readonly main: SessionRecord[];
  private readonly transcripts: AgentTranscript[];
  private readonly byAgentId = new Map<string, AgentTranscript>();
  private readonly byCall = new Map<string, AgentTranscript>();
  /** Transcripts no record ties to a call, by the prompt they start with. */
  private readonly byPrompt = new KeyedQueues<AgentTranscript>();
  private readonly calls = new Map<string, SpawnCall>();
  private readonly order: SpawnCall[] = [];
  /** Background agents to read once their launch result is read. */
  private after: SpawnCall[] = [];
  private depth = 0;

  constructor(
    records: readonly SessionRecord[],
    private readonly read: ReadAgent,
  ) {
    const { main, transcripts } = partition(records);
    this.main = main;
    this.transcripts = transcripts;
    for (const t of transcripts) {
      if (t.agentId !== undefined) this.byAgentId.set(t.agentId, t);
      if (t.callId !== undefined) this.byCall.set(t.callId, t);
      else if (t.prompt !== undefined) this.byPrompt.add(t.prompt, t);
    }
  }

  /** A `tool_use` was read: a `Task` or `Agent` call is remembered. */
  called(name: string, callId: string, input: unknown, path: string): void {
    if (!SPAWNERS.has(name) || this.calls.has(callId)) return;
    const args = isRecord(input) ? input : {};
    const call: SpawnCall = {
      name,
      callId,
      type: args.subagent_type,
      prompt: args.prompt,
      background: args.run_in_background === true,
      answered: false,
      transcript: this.claim(this.byCall.get(callId)),
      namedAgent: undefined,
      path,
    };
    this.calls.set(callId, call);
    this.order.push(call);
  }

  private claim(t: AgentTranscript | undefined): AgentTranscript | undefined {
    if (t !== undefined) t.claimed = true;
    return t;
  }

  /** A tool result was read (after its sub-agent, if it is a spawning call's). */
  answered(callId: string): void {
    const call = this.calls.get(callId);
    if (call === undefined) return;
    call.answered = true;
    if (call.background && call.transcript !== undefined && !call.transcript.read) this.after.push(call);
  }

  /** The agent id a spawning call's result names: structured, in the text's last line, or on its record. */
  private static namedAgent(record: Record<string, unknown>, block: Record<string, unknown>): string | undefined {
    if (isRecord(record.toolUseResult) && typeof record.toolUseResult.agentId === "string") return record.toolUseResult.agentId;
    const line = AGENT_ID_LINE.exec(contentText(block.content));
    if (line !== null) return line[1];
    if (record.isSidechain !== true && typeof record.agentId === "string") return record.agentId;
    return undefined;
  }

  /** The transcript of a call: by its id, by the agent its result names, else the first unclaimed one its prompt started. */
  private find(call: SpawnCall): AgentTranscript | undefined {
    if (call.transcript !== undefined) return call.transcript;
    let found = call.namedAgent === undefined ? undefined : this.byAgentId.get(call.namedAgent);
    if (found !== undefined && found.claimed) found = undefined;
    if (found === undefined && typeof call.prompt === "string") found = this.byPrompt.first(call.prompt, (t) => !t.claimed);
    if (found !== undefined) found.claimed = true;
    call.transcript = found;
    return found;
  }

  /** Before each record: background agents launched by the record before, then the agents whose call this record answers. */
  before(record: SessionRecord, reading: Reading): void {
    this.flushAfter(reading);
    const message = record.value.message;
    if (record.value.type !== "user" || !isRecord(message) || !Array.isArray(message.content)) return;
    for (const block of message.content) {
      if (!isRecord(block) || block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
      const call = this.calls.get(block.tool_use_id);
      if (call === undefined || call.answered) continue;
      call.namedAgent ??= AgentPlan.namedAgent(record.value, block);
      const transcript = this.find(call);
      if (transcript !== undefined && !transcript.read && !call.background) this.readAgent(call, transcript, reading);
    }
  }

  private flushAfter(reading: Reading): void {
    if (this.after.length === 0) return;
    const waiting = this.after;
    this.after = [];
    for (const call of waiting) if (call.transcript !== undefined && !call.transcript.read) this.readAgent(call, call.transcript, reading);
  }

  /** Reads a sub-agent's transcript into the builder, with its facts; what goes wrong in it counts for the session. */
  private readAgent(call: SpawnCall | undefined, transcript: AgentTranscript, reading: Reading): void {
    transcript.read = true;
    const first = transcript.records[0]!;
    const meta = agentMeta(call?.type ?? first.value.agentType ?? (call === undefined ? undefined : "general-purpose"), transcript.agentId);
    const facts = Object.keys(meta).length > 0 ? meta : { [FACT.agent]: "general-purpose" };
    if (this.depth >= MAX_DEPTH) {
      reading.b.warn(
        first.path,
        `sub-agents nest more than ${MAX_DEPTH} deep; transcript ${JSON.stringify(transcript.key)} is read at that depth`,
      );
    }
    this.depth++;
    let sub: Reading;
    try {
      sub = this.read(transcript.records, facts, reading);
    } finally {
      this.depth--;
    }
    reading.errors.push(...sub.errors);
    reading.interrupted ||= sub.interrupted;
    reading.rejected ||= sub.rejected;
    for (const [type, seen] of sub.unknown) {
      const mine = reading.unknown.get(type);
      if (mine === undefined) reading.unknown.set(type, seen);
      else {
        mine.count += seen.count;
        mine.calls += seen.calls;
      }
    }
    // The session's next block starts a turn of its own: the sub-agent's turns came in between.
    reading.message = undefined;
  }

  /** At the session's end: agents of calls left without a result, then transcripts no call claimed; and the calls whose transcript is missing. */
  finish(reading: Reading): void {
    this.flushAfter(reading);
    for (const call of this.order) {
      if (call.answered) continue;
      const transcript = this.find(call);
      if (transcript !== undefined && !transcript.read) this.readAgent(call, transcript, reading);
    }
    for (const t of this.transcripts) {
      if (t.read) continue;
      reading.b.warn(
        t.records[0]!.path,
        `sub-agent transcript ${JSON.stringify(t.key)} answers no Task or Agent call of this session; its events come at the end`,
      );
      this.readAgent(undefined, t, reading);
    }
    for (const call of this.order) {
      if (call.transcript !== undefined) continue;
      const agent = call.namedAgent === undefined ? "" : ` (agent ${JSON.stringify(call.namedAgent)})`;
      const file = call.namedAgent === undefined ? "its subagents/agent-<id>.jsonl" : `subagents/agent-${call.namedAgent}.jsonl`;
      reading.b.warn(
        call.path,
        `the sub-agent transcript of ${call.name} call ${JSON.stringify(call.callId)}${agent} was not found: import the session's folder, or give ${file} with the session`,
      );
    }
  }
}

export function planAgents(records: readonly SessionRecord[], read: ReadAgent): AgentPlan {
  return new AgentPlan(records, read);
}
