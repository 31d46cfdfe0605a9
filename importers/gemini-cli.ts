/**
 * Gemini CLI sessions (IMPORTERS.md `gemini-cli`): the files Gemini CLI's
 * ChatRecordingService writes under ~/.gemini/tmp/<project hash>/chats/
 * (google-gemini/gemini-cli packages/core/src/services/chatRecordingService.ts).
 * Older versions wrote one JSON `ConversationRecord` {sessionId, projectHash,
 * messages[]}; newer ones append JSON lines: the session's metadata, each
 * message (again, whole, each time it changes), `{$set}` metadata updates
 * (whose `messages` is a checkpoint that replaces the conversation) and
 * `{$rewindTo: id}` when the user rewinds. The lines are replayed as Gemini
 * CLI replays them on resume. A `gemini` message holds the model's text, its
 * thoughts, and `toolCalls[]`, each a call AND its result in one record.
 */
import { FACT, ImportError, TrajectoryBuilder, checkNesting, guard, isRecord, jsonText, requireString, traceId } from "./core.js";
import type { ImportIssue, ImportOptions, ImportResult } from "./core.js";

/** At most this many bad records are listed one by one; the rest are counted. */
const MAX_LISTED_ERRORS = 20;

/** Tool call statuses that mean the call finished (scheduler CoreToolCallStatus); the others are still running. */
const FINISHED = new Set(["success", "error", "cancelled"]);

/** The session's metadata: the first line of a JSONL file, or the whole legacy JSON record. */
function isMetadataRecord(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && typeof value.sessionId === "string" && typeof value.projectHash === "string";
}

/** A cheap shape test: a legacy `{sessionId, projectHash, messages}` record, or JSONL lines starting with the session's metadata. */
export function detectGeminiCli(input: unknown): boolean {
  if (isMetadataRecord(input)) return Array.isArray(input.messages);
  return Array.isArray(input) && input.length > 0 && isMetadataRecord(input[0]);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

type Part = Record<string, unknown>;

/** A PartListUnion (a string, a part, or a list of either) as a list of parts. */
function partsOf(content: unknown, path: string): Part[] {
  if (content === undefined || content === null) return [];
  if (typeof content === "string") return [{ text: content }];
  const list = Array.isArray(content) ? content : [content];
  return list.map((part, i) => {
    if (typeof part === "string") return { text: part };
    if (!isRecord(part)) throw new ImportError(Array.isArray(content) ? `${path}[${i}]` : path, "must be text or a part object");
    return part;
  });
}

/** Placeholder of a binary part: `[image]`, `[audio]`, `[video]`, `[file]`. */
function binaryText(part: Part): string | undefined {
  const data = isRecord(part.inlineData) ? part.inlineData : isRecord(part.fileData) ? part.fileData : undefined;
  if (data === undefined) return undefined;
  const mime = typeof data.mimeType === "string" ? data.mimeType : "";
  for (const kind of ["image", "audio", "video"]) if (mime.startsWith(`${kind}/`)) return `[${kind}]`;
  return "[file]";
}

/** The text of parts as Gemini CLI joins it (no separator), thoughts left out; binary parts as placeholders. */
function textOf(parts: readonly Part[]): string {
  let text = "";
  for (const part of parts) {
    if (typeof part.text === "string") {
      if (part.thought !== true) text += part.text;
    } else text += binaryText(part) ?? "";
  }
  return text;
}

/** User content Gemini CLI never sends as a prompt (sessionUtils `isIgnoredUserContent`): empty, slash and `?` commands, injected context. */
function isIgnoredUserText(text: string): boolean {
  const t = text.trim();
  return t === "" || t.startsWith("/") || t.startsWith("?") || t.startsWith("<session_context>") || t.startsWith("<hook_context>");
}

/** A function response's result: its `output` text, else its `error` (a failure), else the response object. */
function responseResult(response: unknown): { content: unknown; error: boolean } {
  if (!isRecord(response)) return { content: response ?? "", error: false };
  if (typeof response.output === "string") return { content: response.output, error: false };
  if (response.error !== undefined && response.error !== null)
    return { content: typeof response.error === "string" ? response.error : jsonText(response.error), error: true };
  return { content: response, error: false };
}

/** A tool call's recorded result (parts with its functionResponse, perhaps with binary parts beside it). */
function toolResult(result: unknown, path: string): { content: unknown; error: boolean } {
  const parts = partsOf(result, path);
  const response = (p: Part): Part | undefined => (isRecord(p.functionResponse) ? p.functionResponse : undefined);
  if (parts.length === 1 && response(parts[0]!) !== undefined) return responseResult(response(parts[0]!)!.response);
  let error = false;
  const texts: string[] = [];
  for (const part of parts) {
    const fr = response(part);
    if (fr === undefined) {
      const text = typeof part.text === "string" ? part.text : (binaryText(part) ?? "");
      if (text !== "") texts.push(text);
      continue;
    }
    const r = responseResult(fr.response);
    error ||= r.error;
    texts.push(typeof r.content === "string" ? r.content : jsonText(r.content));
  }
  return { content: texts.join("\n"), error };
}

/** The exit code the shell tool reports after its output (`Exit Code: 1`, then perhaps Signal, Background PIDs, PGID lines). */
export function shellExitCode(content: unknown): number | undefined {
  if (typeof content !== "string") return undefined;
  const tail = content.slice(-400);
  const match = /(?:^|\n)Exit Code: (-?\d+)((?:\n(?:Signal|Background PIDs|Process Group PGID): [^\n]*)*)\s*$/.exec(tail);
  return match === null ? undefined : Number(match[1]);
}

interface Stored {
  value: Record<string, unknown>;
  path: string;
}

/**
 * The messages after replaying the JSONL records as Gemini CLI's
 * loadConversationRecord does: a message record replaces an earlier one with
 * its id in place; `$rewindTo` drops that message and all after it (every
 * message when the id is unknown); `$set` merges metadata, and its `messages`
 * replace the conversation. Order is kept in an array with positions by id,
 * so a rewind costs what it removes.
 */
class Replay {
  metadata: Record<string, unknown> = {};
  private readonly order: (string | undefined)[] = [];
  private readonly byId = new Map<string, { stored: Stored; at: number }>();

  constructor(readonly warn: (path: string, message: string) => void) {}

  get messages(): Stored[] {
    const out: Stored[] = [];
    for (const id of this.order) if (id !== undefined) out.push(this.byId.get(id)!.stored);
    return out;
  }

  put(value: Record<string, unknown>, path: string): void {
    const id = value.id as string;
    const known = this.byId.get(id);
    if (known !== undefined) known.stored = { value, path };
    else {
      this.byId.set(id, { stored: { value, path }, at: this.order.length });
      this.order.push(id);
    }
  }

  rewind(id: string, path: string): void {
    const known = this.byId.get(id);
    if (known === undefined)
      this.warn(path, `$rewindTo names no message (${JSON.stringify(id)}): Gemini CLI then drops every message, and so does this import`);
    const from = known?.at ?? 0;
    for (let i = from; i < this.order.length; i++) if (this.order[i] !== undefined) this.byId.delete(this.order[i]!);
    this.order.length = from;
  }

  checkpoint(messages: unknown[], path: string): void {
    const kept = new Set(messages.map((m) => (isRecord(m) ? m.id : undefined)));
    let dropped = 0;
    for (const id of this.byId.keys()) if (!kept.has(id)) dropped++;
    if (dropped > 0)
      this.warn(
        path,
        `$set.messages replaces the conversation: ${dropped} recorded message${dropped === 1 ? " is" : "s are"} not in it (compressed or rolled back by Gemini CLI) and ${dropped === 1 ? "is" : "are"} dropped, as Gemini CLI drops them on resume`,
      );
    this.byId.clear();
    this.order.length = 0;
    messages.forEach((m, k) => this.add(m, `${path}[${k}]`));
  }

  /** A message of a checkpoint or a legacy record: a message object with an id. */
  add(value: unknown, path: string): void {
    if (!isRecord(value)) throw new ImportError(path, "must be a message object");
    if (typeof value.id !== "string") throw new ImportError(path, "missing id");
    this.put(value, path);
  }
}

/** One session being mapped onto the builder. */
class Session {
  /** Calls emitted whose result has not come, by id (a tool response message may answer them). */
  private readonly waiting = new Set<string>();
  /** Whether the last conversation message is the model's answer (text, every call answered). */
  lastIsAnswer = false;

  constructor(readonly b: TrajectoryBuilder) {}

  message(value: Record<string, unknown>, path: string): void {
    checkNesting(value, path);
    const type = value.type;
    if (type === "user") return this.user(value, path);
    if (type === "gemini") return this.gemini(value, path);
    if (type === "info" || type === "warning") return; // the UI's notices, never sent to the model
    if (type === "error") {
      this.lastIsAnswer = false; // an error shown to the user: the turn did not finish
      return;
    }
    if (typeof type !== "string") throw new ImportError(path, "missing type");
    this.b.warn(path, `message of type ${JSON.stringify(type)} is not imported`);
  }

  private user(value: Record<string, unknown>, path: string): void {
    const parts = partsOf(value.content, `${path}.content`);
    const responses = parts.filter((p) => isRecord(p.functionResponse)).map((p) => p.functionResponse as Part);
    if (responses.length > 0) {
      // The tool results sent back to the model; each call's own record already holds its result.
      for (const fr of responses) {
        const id = str(fr.id);
        if (id === undefined || !this.waiting.has(id)) continue;
        const r = responseResult(fr.response);
        this.finishCall(id, typeof fr.name === "string" ? fr.name : undefined, r.content, r.error, path);
      }
      this.lastIsAnswer = false;
      return;
    }
    if (isIgnoredUserText(textOf(parts))) return;
    const shown = value.displayContent !== undefined ? partsOf(value.displayContent, `${path}.displayContent`) : parts;
    this.b.user(textOf(shown), { [FACT.itemId]: value.id as string });
    this.lastIsAnswer = false;
  }

  private gemini(value: Record<string, unknown>, path: string): void {
    const meta: Record<string, string> = { [FACT.itemId]: value.id as string };
    if (typeof value.model === "string" && value.model !== "") meta[FACT.model] = value.model;
    this.b.turn();
    if (Array.isArray(value.thoughts))
      for (const t of value.thoughts)
        if (isRecord(t)) {
          const text = [t.subject, t.description].filter((s) => typeof s === "string" && s !== "").join("\n");
          if (text !== "") this.b.reasoning(text, meta);
        }
    const parts = partsOf(value.content, `${path}.content`);
    for (const part of parts)
      if (part.thought === true && typeof part.text === "string" && part.text !== "") this.b.reasoning(part.text, meta);
    const text = textOf(parts);
    if (text.trim() !== "") this.b.agentMessage(text, meta);
    const calls = value.toolCalls;
    if (calls !== undefined && !Array.isArray(calls)) throw new ImportError(`${path}.toolCalls`, "must be a list");
    const records = (calls ?? []).map((call, j) => {
      const at = `${path}.toolCalls[${j}]`;
      if (!isRecord(call)) throw new ImportError(at, "must be a tool call object");
      return { call, at, name: requireString(call, "name", at), id: str(call.id) };
    });
    // Calls first, in the model's order; then each one's result (the record holds both).
    const recorded = new Set(records.map((r) => r.id));
    for (const r of records) this.b.call(r.name, jsonText(r.call.args ?? {}), r.id, meta, `${r.at}.args`);
    // A function call only the content holds (a turn synced from the model's history): a call whose result comes later, if at all.
    for (const part of parts) {
      const fc = isRecord(part.functionCall) ? part.functionCall : undefined;
      if (fc === undefined || typeof fc.name !== "string" || recorded.has(str(fc.id))) continue;
      this.b.call(fc.name, jsonText(fc.args ?? {}), str(fc.id), meta, path);
      if (str(fc.id) !== undefined) this.waiting.add(str(fc.id)!);
    }
    for (const r of records) {
      const status = r.call.status;
      if (typeof status === "string" && !FINISHED.has(status) && (r.call.result === undefined || r.call.result === null)) {
        if (r.id !== undefined) this.waiting.add(r.id); // still running when the file was written
        continue;
      }
      const result = toolResult(r.call.result, `${r.at}.result`);
      // A cancelled call (the user declined it) did not do its work: a failure too.
      this.finishCall(r.id, r.name, result.content, result.error || status === "error" || status === "cancelled", r.at);
    }
    this.lastIsAnswer = text.trim() !== "" && this.waiting.size === 0 && !this.b.hasOpenCalls;
  }

  private finishCall(id: string | undefined, name: string | undefined, content: unknown, error: boolean, path: string): void {
    const code = name === "run_shell_command" ? shellExitCode(content) : undefined;
    this.b.result(id, content, {
      name,
      error: error || (code !== undefined && code !== 0),
      path,
      meta: code === undefined ? undefined : { [FACT.exitCode]: String(code) },
    });
    if (id !== undefined) this.waiting.delete(id);
  }
}

/** Imports a Gemini CLI session: one trajectory per file; every bad record is a located error (and the session is not imported). */
export function fromGeminiCli(input: unknown, options: ImportOptions = {}): ImportResult {
  return guard(() => importSession(input, options));
}

function importSession(input: unknown, options: ImportOptions): ImportResult {
  if (!isMetadataRecord(input) && !Array.isArray(input))
    return {
      trajectories: [],
      errors: [
        {
          path: "",
          message:
            "not a Gemini CLI session: expected a session-*.json record {sessionId, projectHash, messages} or the lines of a session-*.jsonl file",
        },
      ],
      warnings: [],
    };
  const warnings: ImportIssue[] = [];
  const errors: ImportIssue[] = [];
  let unlisted = 0;
  const attempt = (run: () => void): void => {
    try {
      run();
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      if (errors.length < MAX_LISTED_ERRORS) errors.push({ path: error.path, message: error.reason, trace: 0 });
      else unlisted++;
    }
  };
  const replay = new Replay((path, message) => warnings.push({ path, message, trace: 0 }));
  if (isMetadataRecord(input)) {
    replay.metadata = input;
    (input.messages as unknown[]).forEach((m, k) => attempt(() => replay.add(m, `messages[${k}]`)));
  } else input.forEach((line, i) => attempt(() => replayLine(replay, line, `[${i}]`)));
  const facts = replay.metadata;
  const b = new TrajectoryBuilder(traceId(options, facts.sessionId, 0, 1), options);
  if (typeof facts.summary === "string") b.description = facts.summary;
  const session = new Session(b);
  for (const { value, path } of replay.messages) attempt(() => session.message(value, path));
  if (unlisted > 0)
    errors.push({ path: "", message: `${unlisted} more bad records (the first ${MAX_LISTED_ERRORS} are listed)`, trace: 0 });
  warnings.push(...b.warnings.map((w) => ({ ...w, trace: 0 })));
  if (errors.length > 0) return { trajectories: [], errors, warnings };
  b.finish(session.lastIsAnswer);
  return { trajectories: [b.trajectory], errors: [], warnings };
}

/** One JSONL record, in the order Gemini CLI's reader tests them. */
function replayLine(replay: Replay, line: unknown, path: string): void {
  if (!isRecord(line)) throw new ImportError(path, "must be a session record object");
  if (typeof line.$rewindTo === "string") return replay.rewind(line.$rewindTo, path);
  if (typeof line.id === "string") return replay.put(line, path);
  if (isRecord(line.$set)) {
    if (Array.isArray(line.$set.messages)) replay.checkpoint(line.$set.messages, `${path}.$set.messages`);
    const { messages: _messages, ...rest } = line.$set;
    void _messages;
    replay.metadata = { ...replay.metadata, ...rest };
    return;
  }
  if (isMetadataRecord(line)) {
    const { messages, ...rest } = line;
    replay.metadata = { ...replay.metadata, ...rest };
    if (Array.isArray(messages)) messages.forEach((m, k) => replay.add(m, `${path}.messages[${k}]`));
    return;
  }
  replay.warn(path, "record not imported: not a message, a $set, a $rewindTo or the session's metadata");
}
