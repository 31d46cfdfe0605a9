/**
 * `--from` naming a format the file plainly does not have (issue 24): one
 * line naming the format auto-detection sees, for the whole file, instead
 * of an error per message; the library says `from`, the CLI `--from`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { readCaseFiles } from "../../testing/files.js";
import { ROOT, runCli } from "../support/cli.js";

const JUDGE = join(ROOT, "examples/refund-support/judge.mjs");
const CHAT = readFileSync(join(ROOT, "examples/refund-support/traces/chat-log.json"), "utf8");
const OPENAI = "openai-chat (OpenAI Chat Completions messages (plus a response))";

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "bj-mismatch-"));
  writeFileSync(join(dir, "chat.json"), CHAT);
  // One message per line: a validator error per line before issue 24.
  const { messages } = (JSON.parse(CHAT) as { request: { messages: unknown[] } }).request;
  expect(messages.length).toBeGreaterThan(5);
  writeFileSync(join(dir, "chat.jsonl"), `${messages.map((m) => JSON.stringify(m)).join("\n")}\n`);
  writeFileSync(
    join(dir, "t.json"),
    JSON.stringify({ id: "t1", complete: true, events: [{ id: "e1", actor: "user", action: "message" }] }),
  );
  return dir;
}

/** The stderr lines that are errors (the summary table goes to stdout). */
const errors = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("error: "));

describe("a format given that the file does not have", () => {
  test("--from trajectory on an OpenAI chat log (.json and .jsonl): one line naming openai-chat, not an error per message", () => {
    const dir = folder();
    for (const file of ["chat.json", "chat.jsonl"]) {
      const run = runCli(["judge", JUDGE, file, "--no-web", "--from", "trajectory"], { cwd: dir });
      expect(run.status).toBe(1);
      const where = file === "chat.json" ? "chat.json: case 0" : "chat.jsonl:1: case 0";
      expect(errors(run.stderr)).toEqual([
        `error: ${where}: --from trajectory does not fit: the file looks like ${OPENAI}, not trajectories (docs/FORMATS.md §2); pass --from openai-chat, or --from auto`,
      ]);
    }
  });

  test("--from another format (otel, anthropic): one line naming the format it looks like", () => {
    const dir = folder();
    for (const from of ["otel", "langfuse"]) {
      const run = runCli(["judge", JUDGE, "chat.json", "--no-web", "--from", from], { cwd: dir });
      expect(errors(run.stderr)).toEqual([
        `error: chat.json: case 0: --from ${from} does not fit: the file looks like ${OPENAI}; pass --from openai-chat, or --from auto`,
      ]);
    }
    // The right format, and auto, judge it; a trajectory under any --from is still read as it is.
    for (const from of ["openai-chat", "auto"]) {
      const run = runCli(["judge", JUDGE, "chat.json", "t.json", "--no-web", "--from", from], { cwd: dir });
      expect(errors(run.stderr), from).toEqual([]);
      expect(run.stdout).toContain("2 trajectories judged");
    }
    const asIs = runCli(["judge", JUDGE, "t.json", "--no-web", "--from", "otel"], { cwd: dir });
    expect(asIs.stdout).toContain("1 trajectory judged");
  });

  test("the library names its from option", async () => {
    const dir = folder();
    const [c] = await readCaseFiles("chat.json", { cwd: dir, from: "trajectory" });
    expect(c!.error).toBe(
      `from "trajectory" does not fit: the file looks like ${OPENAI}, not trajectories (docs/FORMATS.md §2); set the from option to "openai-chat", or "auto"`,
    );
    const lines = await readCaseFiles("chat.jsonl", { cwd: dir, from: "trajectory" });
    expect(lines.map((l) => l.where)).toEqual(["chat.jsonl:1: case 0"]);
  });
});
