#!/usr/bin/env node
// The guard's own cost per tool call (issue 27). Not a test: machines here
// are shared and noisy, so read the figures as orders of size; each is the
// median of its runs.
//
//   npm run build:cli && node bench/guard-hosts.js [--events 1000] [--runs 20]
//
// 1. Claude Code hook, in process (guard/claude-code.ts through dist/): one
//    PreToolUse answer for the last call of a session of N events, which
//    reads the transcript, imports it with the claude-code importer, replays
//    the events into a fresh monitor and checks the call; split into those
//    parts. Then the same call from the checkpoint the previous call left
//    (guard/claude-code-checkpoint.ts), as the command runs it.
// 2. The same, as Claude Code runs it: `behavior-judge guard judge.mjs
//    --claude-code` as a new process per call (node's start-up included).
// 3. The library guard (SessionGuard, as guardTools / guardAgent use it) in a
//    session that already holds N events: one call checked and recorded.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const EVENTS = arg("--events", 1000);
const RUNS = arg("--runs", 20);
const judgePath = join(root, "examples", "claude-code-guard", "judge.mjs");
const judge = await import(pathToFileURL(judgePath).href);
const { answerClaudeCodeHook } = await import(pathToFileURL(join(root, "dist", "guard", "claude-code.js")).href);
const { fromClaudeCode } = await import(pathToFileURL(join(root, "dist", "importers", "claude-code.js")).href);
const { SessionGuard } = await import(pathToFileURL(join(root, "dist", "guard", "session.js")).href);

/** A Claude Code transcript of about `events` events: a prompt, then Read/Edit/Bash calls with their results, and a word now and then. */
function transcript(events) {
  const lines = [];
  let n = 0;
  let parent = null;
  const record = (type, message, extra = {}) => {
    n++;
    const uuid = `b0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        userType: "external",
        cwd: "/repo",
        sessionId: "bench",
        version: "2.1.63",
        message,
        type,
        uuid,
        timestamp: "2026-11-02T09:00:00.000Z",
        ...extra,
      }),
    );
    parent = uuid;
  };
  record("user", { role: "user", content: "Tidy up every module and keep the tests green." });
  let count = 1;
  let k = 0;
  const tools = [
    (i) => ["Read", { file_path: `/repo/src/m${i}.js` }, `     1\texport const m${i} = ${i};\n`.repeat(20)],
    (i) => [
      "Edit",
      { file_path: `/repo/src/m${i}.js`, old_string: `${i};`, new_string: `${i} + 0;` },
      `The file /repo/src/m${i}.js has been updated.`,
    ],
    () => ["Bash", { command: "npm test", description: "Run the tests" }, "42 passing"],
  ];
  while (count < events - 2) {
    k++;
    const [name, input, output] = tools[k % 3](Math.floor(k / 3));
    const id = `toolu_bench${String(k).padStart(6, "0")}`;
    const content = [];
    if (k % 10 === 0) {
      content.push({ type: "text", text: `Done with module ${Math.floor(k / 3)}; moving on.` });
      count++;
    }
    content.push({ type: "tool_use", id, name, input });
    record("assistant", {
      model: "claude-sonnet-4-5-20250929",
      id: `msg_bench${k}`,
      type: "message",
      role: "assistant",
      content,
      stop_reason: "tool_use",
    });
    record("user", { role: "user", content: [{ tool_use_id: id, type: "tool_result", content: output }] });
    count += 2;
  }
  const last = "toolu_bench_last";
  const input = { command: "git push origin HEAD", description: "Push" };
  record("assistant", {
    model: "claude-sonnet-4-5-20250929",
    id: "msg_bench_last",
    type: "message",
    role: "assistant",
    content: [{ type: "tool_use", id: last, name: "Bash", input }],
    stop_reason: "tool_use",
  });
  return {
    text: `${lines.join("\n")}\n`,
    hook: {
      session_id: "bench",
      transcript_path: "",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: input,
      tool_use_id: last,
    },
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(runs, fn) {
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}
const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`);

const dir = mkdtempSync(join(tmpdir(), "bench-guard-"));
const { text, hook } = transcript(EVENTS);
const path = join(dir, "session.jsonl");
writeFileSync(path, text);
hook.transcript_path = path;
const stdin = JSON.stringify(hook);
const read = (p) => readFileSync(p, "utf8");

const imported = fromClaudeCode(
  text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l)),
  { id: "bench" },
).trajectories[0];
const answer = answerClaudeCodeHook(judge, stdin, { readTranscript: read });
if (answer.exitCode !== 0 || answer.stdout !== "") throw new Error(`the bench's last call should be allowed: ${JSON.stringify(answer)}`);
console.log(
  `session: ${imported.events.length} events, ${text.split("\n").length - 1} transcript lines, ${(text.length / 1024).toFixed(0)} KiB`,
);

// 1. In process, and its parts.
time(3, () => answerClaudeCodeHook(judge, stdin, { readTranscript: read }));
const whole = time(RUNS, () => answerClaudeCodeHook(judge, stdin, { readTranscript: read }));
const readParse = time(RUNS, () =>
  read(path)
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l)),
);
const records = read(path)
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l));
const importing = time(RUNS, () => fromClaudeCode(records, { id: "bench" }));
const events = imported.events.slice(0, -1);
const replay = time(RUNS, () => {
  const m = judge.createMonitor({ id: "bench", description: "" });
  for (const e of events) m.push(e);
  m.check(imported.events.at(-1));
});
console.log(
  `hook, in process: ${fmt(whole)} per call (read+parse ${fmt(readParse)}, import ${fmt(importing)}, replay ${events.length} events + check ${fmt(replay)})`,
);

// 1b. The same call from the checkpoint the command keeps between calls: the previous call saw
// the transcript without its last two records.
const earlier = text.trim().split("\n").slice(0, -2).join("\n") + "\n";
const earlierPath = join(dir, "earlier.jsonl");
writeFileSync(earlierPath, earlier);
const cache = { refused: {} };
answerClaudeCodeHook(judge, JSON.stringify({ ...hook, transcript_path: earlierPath, tool_use_id: "none" }), {
  readTranscript: read,
  cache,
});
cache.checkpoint.path = path;
const stored = JSON.stringify(cache);
const readFrom = (p, from) => readFileSync(p).subarray(from).toString("utf8");
const fromCheckpoint = time(RUNS, () => answerClaudeCodeHook(judge, stdin, { readTranscript: read, readTranscriptFrom: readFrom, cache }));
const cacheRead = time(RUNS, () => JSON.parse(stored));
console.log(
  `hook, in process, from the checkpoint (${cache.checkpoint.events.length} events kept, ${(stored.length / 1024).toFixed(0)} KiB): ${fmt(fromCheckpoint)} per call, + reading the session's memory ${fmt(cacheRead)}`,
);

// 2. As Claude Code runs it: a new process per call.
const cli = join(root, "bin", "behavior-judge.js");
const spawnRuns = Math.max(3, Math.min(RUNS, 7));
const spawned = time(spawnRuns, () =>
  execFileSync(process.execPath, [cli, "guard", judgePath, "--claude-code", "--cache-dir", join(dir, "cache")], { input: stdin }),
);
const bare = time(spawnRuns, () => execFileSync(process.execPath, ["-e", ""]));
console.log(`hook command, new process per call: ${fmt(spawned)} (node starting and exiting alone: ${fmt(bare)})`);

// 3. The library guard with N events already in the session.
const guard = new SessionGuard(judge, { id: "bench", log: false });
guard.user("Tidy up every module.");
let i = 0;
while (guard.trajectory().events.length < EVENTS) {
  i++;
  guard.call("Read", { file_path: `/repo/src/m${i}.js` }, `r${i}`);
  guard.result(`r${i}`, "ok");
}
const perCall = time(RUNS * 50, () => {
  i++;
  guard.call("Read", { file_path: `/repo/src/m${i}.js` }, `r${i}`);
  guard.result(`r${i}`, "ok");
});
console.log(
  `library guard (guardTools / guardAgent), session of ${EVENTS}+ events: ${fmt(perCall)} per call checked and its result recorded`,
);
