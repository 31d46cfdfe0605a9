/**
 * The record shapes of a Claude Code transcript (IMPORTERS.md `claude-code`):
 * which records hold conversation, which user texts Claude Code injects,
 * the shape test, and the session's id and title. claude-code.ts reads them.
 */
import { isRecord } from "./core.js";
import type { SessionRecord } from "./claude-code.js";

/** Record types that hold no conversation: read for the description or skipped, without a word. */
export const QUIET_TYPES = new Set([
  "system",
  "summary",
  "custom-title",
  "ai-title",
  "file-history-snapshot",
  "progress",
  "queue-operation",
  "last-prompt",
  "mode",
  "permission-mode",
  "tag",
  "pr-link",
  "agent-setting",
  "agent-name",
  "cost-state",
]);

export const INTERRUPTION = /^\[Request interrupted by user( for tool use)?\]$/;

/** Text Claude Code injects as a user record that no person typed: dropped as context. */
export const INJECTED = /^\s*<(local-command-stdout|local-command-stderr|local-command-caveat|bash-stdout|bash-stderr|task-notification)>/;

/** A slash command (`<command-name>/review</command-name>`) or a shell command (`<bash-input>`) the user ran: a user event that asks for no reply. */
export const COMMAND = /<command-name>\s*([^<]*?)\s*<\/command-name>/;
export const BASH_INPUT = /^\s*<bash-input>/;

/** Stop reasons of a reply that was cut off. */
export const CUT_OFF = new Set(["max_tokens", "model_context_window_exceeded"]);

/** A record in the shape only Claude Code writes: a user or assistant record with its envelope fields. */
function isConversationRecord(value: Record<string, unknown>): boolean {
  return (
    (value.type === "user" || value.type === "assistant") &&
    isRecord(value.message) &&
    ("uuid" in value || "sessionId" in value || "parentUuid" in value || "isSidechain" in value)
  );
}

/** Top-level keys of other formats' records: an element with one is no transcript record. */
const FOREIGN_KEYS = ["role", "messages", "events", "resourceSpans", "trajectory", "payload", "run_type", "lc", "steps", "object"];

/**
 * A cheap shape test: transcript records (a JSONL file's lines), at least one
 * of them a user or assistant record with Claude Code's envelope, and none
 * shaped like another format's. A line that is no object, or an object that
 * is none of Claude Code's, does not stop the file from being a transcript:
 * the importer names it as a located error and reads the others.
 */
export function detectClaudeCode(input: unknown): boolean {
  const records = Array.isArray(input) ? input : [input];
  let conversation = false;
  for (const record of records) {
    if (!isRecord(record)) continue;
    if (FOREIGN_KEYS.some((key) => key in record)) return false;
    if (!conversation && isConversationRecord(record)) conversation = true;
  }
  return conversation;
}

/** What one text of a user record is. */
export function classifyUserText(text: string): "none" | "interruption" | "injected" | "command" | "prompt" {
  if (text.trim() === "") return "none";
  if (INTERRUPTION.test(text.trim())) return "interruption";
  if (INJECTED.test(text)) return "injected";
  if (COMMAND.test(text) || BASH_INPUT.test(text)) return "command";
  return "prompt";
}

/** Whether an unknown record could have held calls the trace now lacks. */
export function holdsCalls(value: Record<string, unknown>): boolean {
  const message = value.message;
  return (
    isRecord(message) &&
    Array.isArray(message.content) &&
    message.content.some((b) => isRecord(b) && (b.type === "tool_use" || b.type === "tool_result"))
  );
}

/** The trajectory's description: the session's title or summary, when it has one. */
export function description(records: readonly SessionRecord[]): string {
  let title: string | undefined;
  let aiTitle: string | undefined;
  let summary: string | undefined;
  for (const { value } of records) {
    if (value.type === "custom-title" && typeof value.customTitle === "string") title = value.customTitle;
    else if (value.type === "ai-title" && typeof value.aiTitle === "string") aiTitle = value.aiTitle;
    else if (value.type === "summary" && typeof value.summary === "string" && summary === undefined) summary = value.summary;
  }
  return title ?? aiTitle ?? summary ?? "";
}

/** The session's id: the `sessionId` of its last record that has one (a resumed session's file starts with the records it continues). */
export function sessionId(records: readonly SessionRecord[]): string | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const id = records[i]!.value.sessionId ?? records[i]!.value.session_id;
    if (typeof id === "string" && id !== "") return id;
  }
  return undefined;
}
