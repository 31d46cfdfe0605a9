/**
 * A Claude Code session's events, imported again from a checkpoint rather
 * than from the transcript's first line (docs/GUARDS.md): the hook runs as a
 * new process per call, so what it keeps between calls is data.
 *
 * The claude-code importer only ever appends events as a transcript grows,
 * and at some records its state is a fresh one but for its counters: before
 * a new API message (an assistant record whose `message.id` is not the one
 * before it) that follows tool results, with every call answered, and no
 * sub-agent anywhere. There the checkpoint keeps the events so far, the
 * turns so far and the record uuids read (a repeated uuid is skipped), and
 * the next call imports only the records after it, shifting their event ids
 * and turns. Anything else (a sub-agent, a repeated uuid, a file that no
 * longer starts with the bytes the checkpoint saw) imports the whole file.
 */
import { FACT, isRecord } from "../importers/core.js";
import { fromClaudeCode } from "../importers/claude-code.js";
import type { TrajectoryEvent } from "../runtime/types.js";

export interface TranscriptCheckpoint {
  /** Bytes of the transcript before the cut (the file is read from there on). */
  offset: number;
  /** The text of the bytes just before the cut: a file that lacks it there was replaced, and is read whole. */
  tail: string;
  tailBytes: number;
  events: TrajectoryEvent[];
  turns: number;
  uuids: string[];
}

/** How far past the stored checkpoint a new one must be before it is written (each write is the events so far). */
export const CHECKPOINT_EVERY = 64;
const TAIL = 256;
const encoder = new TextEncoder();
const bytes = (text: string): number => encoder.encode(text).length;

/** The transcript's text from a byte offset on (a whole transcript as a string is read through this too). */
export type TranscriptReader = (fromByte: number) => string;

/** A reader over a transcript already in memory. */
export function textReader(text: string): TranscriptReader {
  const all = encoder.encode(text);
  const decoder = new TextDecoder();
  return (from) => (from === 0 ? text : decoder.decode(all.subarray(from)));
}

interface Line {
  value: unknown;
  start: number;
}

/** The complete lines of `text` (which starts at byte `base` of the file), each parsed (a line that is no JSON is kept as text, for the importer to reject), with the byte where it starts. */
function lines(text: string, base: number): Line[] {
  const end = text.endsWith("\n") ? text.length : text.lastIndexOf("\n") + 1;
  const out: Line[] = [];
  let at = 0;
  let byte = base;
  while (at < end) {
    const next = text.indexOf("\n", at);
    const line = text.slice(at, next);
    if (line.trim() !== "") {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        value = line;
      }
      out.push({ value, start: byte });
    }
    byte += bytes(line) + 1;
    at = next + 1;
  }
  return out;
}

const messageId = (r: unknown): string | undefined =>
  isRecord(r) && r.type === "assistant" && isRecord(r.message) && typeof r.message.id === "string" ? r.message.id : undefined;

function blocks(r: unknown): Record<string, unknown>[] {
  if (!isRecord(r) || !isRecord(r.message) || !Array.isArray(r.message.content)) return [];
  return r.message.content.filter(isRecord);
}

/** Records the checkpoint cannot start from or run over: sub-agents (placed across the whole file). */
function blocksCheckpoints(r: unknown): boolean {
  if (!isRecord(r)) return false;
  if (r.isSidechain === true || r.agentId !== undefined) return true;
  return blocks(r).some((b) => b.type === "tool_use" && (b.name === "Task" || b.name === "Agent"));
}

/** Shifts events imported from after a cut to where they stand in the whole session. */
function shifted(events: readonly TrajectoryEvent[], base: number, turns: number): TrajectoryEvent[] {
  return events.map((e, k) => {
    const metadata = { ...e.metadata };
    const turn = metadata[FACT.turn];
    if (turn !== undefined) metadata[FACT.turn] = String(Number(turn) + turns);
    return { ...e, id: `e${base + k + 1}`, metadata };
  });
}

/**
 * The newest record before which a checkpoint may stand, among `records`
 * (from index `first`), with the events before it: null when there is none.
 */
function newestCut(
  records: readonly Line[],
  events: readonly TrajectoryEvent[],
  first: number,
): { index: number; eventCount: number; turns: number } | null {
  const open = new Set<string>();
  let sidechain = false;
  let lastMessage: string | undefined;
  let best: { index: number; eventCount: number; turns: number } | null = null;
  const firstEvent = new Map<string, number>();
  events.forEach((e, k) => {
    const item = e.metadata?.[FACT.itemId];
    if (item !== undefined && !firstEvent.has(item)) firstEvent.set(item, k);
  });
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!.value;
    if (blocksCheckpoints(r)) sidechain = true;
    const id = messageId(r);
    const before = records[i - 1]?.value;
    const afterResults = before !== undefined && blocks(before).length > 0 && blocks(before).every((b) => b.type === "tool_result");
    if (i >= first && !sidechain && id !== undefined && id !== lastMessage && afterResults && open.size === 0) {
      const at = firstEvent.get(id);
      const turn = at === undefined ? NaN : Number(events[at]!.metadata?.[FACT.turn]);
      if (at !== undefined && Number.isInteger(turn)) best = { index: i, eventCount: at, turns: turn - 1 };
    }
    if (id !== undefined && isRecord(r) && isRecord(r.message) && r.message.model !== "<synthetic>") lastMessage = id;
    for (const b of blocks(r)) {
      if (b.type === "tool_use" && typeof b.id === "string") open.add(b.id);
      if (b.type === "tool_result" && typeof b.tool_use_id === "string") open.delete(b.tool_use_id);
    }
  }
  return best;
}

/**
 * The session's events for the transcript `text`, from `checkpoint` when it
 * still holds, and the checkpoint to keep (a newer one, the same, or none).
 */
export function importTranscript(
  source: string | TranscriptReader,
  sessionId: string,
  checkpoint: TranscriptCheckpoint | undefined,
): { events: TrajectoryEvent[]; checkpoint: TranscriptCheckpoint | undefined } {
  const read = typeof source === "string" ? textReader(source) : source;
  if (checkpoint !== undefined) {
    const tailStart = checkpoint.offset - checkpoint.tailBytes;
    const chunk = read(tailStart);
    if (chunk.startsWith(checkpoint.tail)) {
      const rest = chunk.slice(checkpoint.tail.length);
      const records = lines(rest, checkpoint.offset);
      const seen = new Set(checkpoint.uuids);
      const usable = records.every((l) => !blocksCheckpoints(l.value) && !(isRecord(l.value) && seen.has(l.value.uuid as string)));
      if (usable) {
        const imported = fromClaudeCode(
          records.map((l) => l.value),
          { id: sessionId },
        );
        const own = (imported.trajectories[0]?.events ?? []) as TrajectoryEvent[];
        const events = [...checkpoint.events, ...shifted(own, checkpoint.events.length, checkpoint.turns)];
        return { events, checkpoint: advance(rest, checkpoint.offset, records, own, checkpoint, events) };
      }
    }
  }
  const text = read(0);
  const records = lines(text, 0);
  const imported = fromClaudeCode(
    records.map((l) => l.value),
    { id: sessionId },
  );
  const events = (imported.trajectories[0]?.events ?? []) as TrajectoryEvent[];
  return { events, checkpoint: advance(text, 0, records, events, undefined, events) };
}

/** The text of up to TAIL bytes before byte `at` of `text` (`at` is a line start, so a character boundary). */
function tailBefore(text: string, at: number): { tail: string; tailBytes: number } {
  const head = encoder.encode(text).subarray(0, at);
  const tail = head.subarray(Math.max(0, head.length - TAIL));
  return { tail: new TextDecoder().decode(tail), tailBytes: tail.length };
}

/** A checkpoint further on when the records read allow one far enough past the current one. */
function advance(
  text: string,
  textStart: number,
  records: readonly Line[],
  own: readonly TrajectoryEvent[],
  current: TranscriptCheckpoint | undefined,
  all: readonly TrajectoryEvent[],
): TranscriptCheckpoint | undefined {
  const cut = newestCut(records, own, current === undefined ? 1 : CHECKPOINT_EVERY);
  if (cut === null || (current !== undefined && cut.index < CHECKPOINT_EVERY)) return current;
  const base = current?.events.length ?? 0;
  const offset = records[cut.index]!.start;
  const uuids = [...(current?.uuids ?? [])];
  for (const l of records.slice(0, cut.index)) if (isRecord(l.value) && typeof l.value.uuid === "string") uuids.push(l.value.uuid);
  return {
    offset,
    ...tailBefore(text, offset - textStart),
    events: all.slice(0, base + cut.eventCount) as TrajectoryEvent[],
    turns: (current?.turns ?? 0) + cut.turns,
    uuids,
  };
}
