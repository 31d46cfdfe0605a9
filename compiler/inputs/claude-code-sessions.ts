/**
 * A Claude Code session and its sub-agents' transcripts, read as one trace
 * (IMPORTERS.md `claude-code`). Claude Code writes a sub-agent's records to
 * a file of its own: `<dir>/<session>/subagents/agent-<id>.jsonl` (older
 * versions: `<dir>/agent-<id>.jsonl`, its records carrying the session's
 * `sessionId`). When the session's folder is given, or the session file and
 * an agent file, the agent files are read with their session file: their
 * records go to the importer after the session's, which places each
 * transcript under the call that started it. Given alone, a session file is
 * read alone (the importer says which transcripts it did not find).
 */
import { closeSync, existsSync, openSync, readSync, readdirSync, statSync } from "node:fs";
import { createReadStream } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { ImportIssue } from "../../importers/index.js";
import { byteLines } from "../files/byte-lines.js";
import { readError, type InputCase } from "./case.js";
import { loadImporters } from "./importers.js";
import { readJsonlLine } from "./jsonl.js";
import type { TraceReadOptions } from "./trace-inputs.js";

const AGENT_FILE = /^agent-[^/\\]+\.jsonl$/i;

/** The sub-agent files Claude Code keeps for a session file: `<session>/subagents/agent-*.jsonl`, sorted by name. */
export function subagentFiles(sessionFile: string): string[] {
  if (!/\.jsonl$/i.test(sessionFile)) return [];
  const folder = join(dirname(sessionFile), basename(sessionFile).replace(/\.jsonl$/i, ""), "subagents");
  let names: string[];
  try {
    if (!statSync(folder).isDirectory()) return [];
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => AGENT_FILE.test(name))
    .sort()
    .map((name) => join(folder, name))
    .filter((path) => {
      try {
        return statSync(path).isFile();
      } catch {
        return false;
      }
    });
}

/** The `sessionId` of a legacy agent file's first record (its first 64 KB), if it has one. */
function firstSessionId(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buffer = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const line = buffer.subarray(0, n).toString("utf8").split(/\r?\n/)[0]!;
    const value = JSON.parse(line) as unknown;
    if (typeof value === "object" && value !== null && typeof (value as { sessionId?: unknown }).sessionId === "string")
      return (value as { sessionId: string }).sessionId;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return undefined;
}

/** One file to read, with the agent files read together with it. */
export interface SessionGroup {
  file: string;
  companions: string[];
}

/**
 * The files in order, each agent file moved under its session file when
 * that is in the list too: `<S>/subagents/agent-*.jsonl` under `<S>.jsonl`,
 * a legacy `agent-*.jsonl` under the `<sessionId>.jsonl` beside it. An agent
 * file whose session is not in the list stays a file of its own.
 */
export function groupSessions(files: readonly string[], options: TraceReadOptions = {}): SessionGroup[] {
  const from = options.from ?? "auto";
  if (from !== "auto" && from !== "claude-code") return files.map((file) => ({ file, companions: [] }));
  const groups: SessionGroup[] = [];
  const byFile = new Map<string, SessionGroup>();
  const sessionOf = (agentFile: string): SessionGroup | undefined => {
    const dir = dirname(agentFile);
    if (basename(dir) === "subagents") return byFile.get(`${dirname(dir)}.jsonl`);
    if (!AGENT_FILE.test(basename(agentFile))) return undefined;
    const id = firstSessionId(agentFile);
    return id === undefined ? undefined : byFile.get(join(dir, `${id}.jsonl`));
  };
  const agentFiles: string[] = [];
  for (const file of files) {
    if (AGENT_FILE.test(basename(file)) && existsSync(file)) agentFiles.push(file);
    else if (/\.jsonl$/i.test(file) && !byFile.has(file)) byFile.set(file, { file, companions: [] });
  }
  const attached = new Set<string>();
  for (const agent of agentFiles) {
    const session = sessionOf(agent);
    if (session !== undefined && session.file !== agent && !session.companions.includes(agent)) {
      session.companions.push(agent);
      attached.add(agent);
    }
  }
  const listed = new Set<SessionGroup>();
  for (const file of files) {
    if (attached.has(file)) continue;
    const group = byFile.get(file);
    if (group !== undefined) {
      if (listed.has(group)) continue;
      listed.add(group);
      groups.push(group);
    } else groups.push({ file, companions: [] });
  }
  return groups;
}

/** One record's place: its file and line. */
interface RecordOrigin {
  file: string;
  line: number;
}

/**
 * The cases of a session read with its agent files: one trajectory (or the
 * importer's errors, each at the file and line of its record). A line that
 * is no JSON is its own located error, as in any JSONL file.
 */
export async function* sessionCases(group: SessionGroup, options: TraceReadOptions): AsyncGenerator<InputCase> {
  // A session is always imported: the importers are loaded before its lines are read.
  const { formatIssue, importTrace } = await loadImporters();
  const values: unknown[] = [];
  const origins: RecordOrigin[] = [];
  let index = 0;
  for (const file of [group.file, ...group.companions]) {
    let lineNumber = 0;
    try {
      for await (const { bytes, offset } of byteLines(createReadStream(file))) {
        lineNumber++;
        const read = readJsonlLine(bytes, offset, { file, index, line: lineNumber }, { ...options, from: "claude-code" });
        if (read.kind === "blank") continue;
        if (read.kind === "trace") {
          values.push(read.value);
          origins.push({ file, line: lineNumber });
          continue;
        }
        // An invalid line (or a trajectory line, which a transcript has none of) is its own case.
        for (const c of read.cases) {
          index++;
          yield c;
        }
      }
    } catch (error) {
      index++;
      yield { file, index, line: lineNumber + 1, error: readError(error) };
    }
  }
  if (values.length === 0) return;
  const result = importTrace(values, { from: options.from ?? "auto", complete: options.complete, reasoning: options.reasoning });
  const format = result.format === undefined ? "" : `${result.format}: `;
  const locate = (issue: ImportIssue): { file: string; line?: number; text: string } => {
    const match = /^\[(\d+)\]\.?(.*)$/.exec(issue.path);
    const origin = match === null ? undefined : origins[Number(match[1])];
    if (match === null || origin === undefined)
      return { file: group.file, text: formatIssue({ path: issue.path, message: issue.message }) };
    return { file: origin.file, line: origin.line, text: formatIssue({ path: match[2]!, message: issue.message }) };
  };
  for (const issue of result.errors) {
    const at = locate(issue);
    yield { file: at.file, index: index++, ...(at.line === undefined ? {} : { line: at.line }), error: `${format}${at.text}` };
  }
  for (const trajectory of result.trajectories) yield { file: group.file, index: index++, trajectory };
  for (const warning of result.warnings) {
    const at = locate(warning);
    options.onWarning?.(`${at.file}${at.line === undefined ? "" : `:${at.line}`}: ${format}${at.text}`);
  }
}
