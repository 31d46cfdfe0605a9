// node examples/claude-code-guard/demo.mjs
// Replays transcript.jsonl as Claude Code would run the hooks of settings.json
// in it: at each step the transcript as it stood then is written to a
// temporary folder, the hook's JSON goes to `behavior-judge guard judge.mjs
// --claude-code` on stdin, and its answer is printed. Claude Code itself is
// not needed.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const here = import.meta.dirname;
const cli = join(here, "..", "..", "bin", "behavior-judge.js");
const lines = readFileSync(join(here, "transcript.jsonl"), "utf8").split("\n").filter(Boolean);
const dir = mkdtempSync(join(tmpdir(), "claude-code-guard-"));

/** Each hook call: how many transcript lines existed then, and the hook's own fields. */
export const STEPS = [
  { lines: 3, hook: "PreToolUse", tool: "Edit", id: "toolu_01Edit0000000000000001" },
  { lines: 7, hook: "PreToolUse", tool: "Edit", id: "toolu_01Edit0000000000000002" },
  { lines: 8, hook: "PostToolUse", tool: "Edit", id: "toolu_01Edit0000000000000002" },
  { lines: 10, hook: "Stop" },
  { lines: 16, hook: "PreToolUse", tool: "Bash", id: "toolu_01Bash0000000000000003" },
  { lines: 18, hook: "PreToolUse", tool: "Bash", id: "toolu_01Bash0000000000000004" },
  { lines: 20, hook: "Stop" },
];

/** The hook's JSON for a step, as Claude Code sends it (tool_input from the transcript's tool_use block). */
export function hookInput(step, transcriptPath) {
  const input = {
    session_id: "7c0a9e2e-0000-4000-8000-00000000c0de",
    transcript_path: transcriptPath,
    cwd: "/home/dev/shop",
    permission_mode: "default",
    hook_event_name: step.hook,
  };
  if (step.hook === "Stop") return { ...input, stop_hook_active: false };
  const use = lines
    .map((l) => JSON.parse(l))
    .flatMap((r) => (r.type === "assistant" ? r.message.content : []))
    .find((b) => b.type === "tool_use" && b.id === step.id);
  const fields = { ...input, tool_name: step.tool, tool_input: use.input, tool_use_id: step.id };
  return step.hook === "PostToolUse" ? { ...fields, tool_response: { filePath: use.input.file_path } } : fields;
}

if (process.argv[1] === import.meta.filename) {
  for (const step of STEPS) {
    const transcript = join(dir, `transcript-${step.lines}.jsonl`);
    writeFileSync(transcript, lines.slice(0, step.lines).join("\n") + "\n");
    let out;
    let code = 0;
    try {
      out = execFileSync(process.execPath, [cli, "guard", join(here, "judge.mjs"), "--claude-code", "--cache-dir", join(dir, "cache")], {
        input: JSON.stringify(hookInput(step, transcript)),
        encoding: "utf8",
      });
    } catch (error) {
      out = `${error.stdout}${error.stderr}`;
      code = error.status;
    }
    console.log(
      `${step.hook}${step.tool ? ` ${step.tool}` : ""} after line ${step.lines}: exit ${code}, ${out.trim() === "" ? "allowed in silence" : out.trim()}`,
    );
  }
}
