/**
 * `behavior-judge watch`, spawned for real: violations printed as they become
 * certain (while the input is still being written), bad lines refused with
 * their line and the rest still read, and the final judgment the batch judge
 * gives for the same events.
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import type { BuiltJudge } from "../../compiler/run/load.js";
import { watchLines, type ViolationAt } from "../../compiler/watch/watch.js";
import type { TrajectoryJudgment } from "../../runtime/types.js";
import { BIN, ROOT, runCli } from "../support/cli.js";
import { countingWorkAsync } from "../support/work.js";

const REFUND = join(ROOT, "examples", "refund-support");
const JUDGE = join(REFUND, "judge.mjs");
const refundJudge = async () => (await import(pathToFileURL(JUDGE).href)) as BuiltJudge;

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const EVENTS = [
  { id: "e1", actor: "user", action: "message", content: "My mug arrived broken" },
  { id: "e2", actor: "agent", action: "issue_refund", metadata: { order_id: "A" } },
  { id: "e3", actor: "tool", action: "get_order_result", metadata: { status: "found" } },
  { id: "e4", actor: "agent", action: "escalate_to_supervisor" },
  { id: "e5", actor: "agent", action: "issue_refund", metadata: { order_id: "B" } },
];

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("watch", () => {
  test("prints each violation at the event that makes it certain, refuses bad lines, and ends with judgeTrajectory's judgment", async () => {
    const input = [
      line({ trajectory: { id: "live-1" } }),
      line(EVENTS[0]),
      line(EVENTS[1]),
      line({ id: "e9", actor: "robot", action: "x" }),
      "not json\n",
      line(EVENTS[2]),
      line(EVENTS[3]),
      line(EVENTS[4]),
      line({ end: { complete: true } }),
      line({ id: "after-the-end", actor: "agent", action: "issue_refund" }),
    ].join("");
    const run = runCli(["watch", JUDGE, "-", "--json"], { input });
    expect(run.stderr).toBe(
      [
        "stdin:4: events[2].actor must be user, agent, or tool",
        'stdin:5: invalid JSON at column 1: expected a value, got the bare word "not" (strings need double quotes)',
        "",
      ].join("\n"),
    );
    expect(run.status).toBe(1);
    const out = jsonLines(run.stdout);
    expect(out.slice(0, -1)).toEqual([
      {
        violation: {
          rule: "Look up the order before paying anything out",
          checkIndex: 0,
          type: "ordering",
          quote: expect.any(String),
          eventIds: ["e2"],
          at: { index: 1, eventId: "e2", line: 3 },
        },
      },
      {
        violation: {
          rule: "Stop paying out once escalated",
          checkIndex: 0,
          type: "forbidden",
          quote: expect.any(String),
          eventIds: ["e5"],
          at: { index: 4, eventId: "e5", line: 8 },
        },
      },
    ]);
    const expected = await (await refundJudge()).judgeTrajectory({ id: "live-1", complete: true, events: EVENTS });
    expect(JSON.stringify(out.at(-1))).toBe(JSON.stringify({ judgment: expected }));
  });

  test("the text report names the rule, the check, the quote and the cited events", () => {
    const run = runCli(["watch", JUDGE], { input: EVENTS.map(line).join("") });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      'VIOLATION at e2 (event 1, line 2): Look up the order before paying anything out — ordering "Before the agent issues',
    );
    // Without an end line the input may have been cut off: the trajectory is judged as incomplete.
    expect(run.stdout).toMatch(/^FAIL {2}stdin {2}\(stdin\)$/m);
    expect(run.stdout).toContain("N/A   Email a confirmation for every approved refund (insufficient_evidence) — not triggered");
    expect(run.stdout).toContain('na    required: "it writes a handover note for the supervisor" (insufficient_evidence)');
    const complete = runCli(["watch", JUDGE, "--complete", "true", "--id", "t-9", "--fail-on-false"], { input: EVENTS.map(line).join("") });
    expect(complete.status).toBe(1);
    expect(complete.stdout).toMatch(/^FAIL {2}t-9 {2}\(stdin\)$/m);
    // No model could have verified the failure, so it does not say "(unverified)".
    expect(complete.stdout).toContain('false required: "it writes a handover note for the supervisor"\n');
  });

  test("follows a growing file: a violation is printed before the rest is written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-watch-"));
    const file = join(dir, "session.jsonl");
    writeFileSync(file, line(EVENTS[0]));
    const child = spawn(process.execPath, [BIN, "watch", JUDGE, file, "--follow", "--json"], {
      cwd: ROOT,
      env: { ...process.env, OPENAI_API_KEY: "", BRAINTRUST_API_KEY: "" },
    });
    let stdout = "";
    const seen = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${text}; got ${stdout}`)), 30_000);
        const look = () => {
          if (stdout.includes(text)) {
            clearTimeout(timer);
            resolve();
          } else setTimeout(look, 50);
        };
        look();
      });
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    appendFileSync(file, line(EVENTS[1]));
    await seen('"eventId":"e2"');
    // The violation is out; the session goes on.
    expect(stdout).not.toContain('"judgment"');
    appendFileSync(file, line(EVENTS[2]) + line({ end: { complete: false } }));
    expect(await exited).toBe(0);
    const out = jsonLines(stdout);
    expect(out).toHaveLength(2);
    expect((out[1]!.judgment as TrajectoryJudgment).metaBehaviors[0]!.verdict).toBe("false");
  }, 60_000);

  test("replays a .json trajectory, and reads a trace format with --from", async () => {
    const file = join(REFUND, "trajectories", "payout-after-escalation.json");
    const run = runCli(["watch", JUDGE, file, "--json"]);
    expect(run.status).toBe(0);
    const out = jsonLines(run.stdout);
    const trajectory = (JSON.parse(readFileSync(file, "utf8")) as { trajectory: { id: string } }).trajectory;
    expect(JSON.stringify(out.at(-1))).toBe(JSON.stringify({ judgment: await (await refundJudge()).judgeTrajectory(trajectory) }));
    expect(out.filter((o) => "violation" in o).map((o) => (o.violation as { rule: string }).rule)).toEqual([
      "Stop paying out once escalated",
    ]);

    // A chat log written one request at a time: each record repeats the conversation so far.
    const call = {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "issue_refund", arguments: '{"order_id":"C-9"}' } }],
    };
    const first = [{ role: "user", content: "Refund order C-9 now." }, call];
    const chat =
      line({ messages: first }) +
      line({
        messages: [
          ...first,
          { role: "tool", tool_call_id: "call_1", content: '{"status":"approved"}' },
          { role: "assistant", content: "Done." },
        ],
      });
    const imported = runCli(["watch", JUDGE, "-", "--from", "openai-chat", "--json"], { input: chat });
    expect(imported.stderr).toBe("");
    const lines = jsonLines(imported.stdout);
    expect(lines[0]).toMatchObject({ violation: { type: "ordering", at: { eventId: "e2", line: 1 } } });
    expect((lines.at(-1)!.judgment as TrajectoryJudgment).metaBehaviors.map((m) => m.verdict)).toEqual(["false", "false", "na", "true"]);
  });
});

describe("watch, hardening round 3 (issue 20)", () => {
  test("item 2: watch --from reports a rejected record with its line, leaves it out and judges the records after it", () => {
    const records = [
      { role: "user", content: "Refund order C-9 now." },
      // No tool name: the importer rejects this record.
      { role: "assistant", content: null, tool_calls: [{ id: "c0", type: "function", function: { arguments: "{}" } }] },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "issue_refund", arguments: '{"order_id":"C-9"}' } }],
      },
    ];
    const run = runCli(["watch", JUDGE, "-", "--from", "openai-chat", "--json"], { input: records.map(line).join("") });
    expect(run.stderr).toBe("stdin:2: openai-chat: tool_calls[0].function: missing name\n");
    expect(run.status).toBe(1);
    const out = jsonLines(run.stdout);
    expect(out[0]).toMatchObject({ violation: { type: "ordering", at: { index: 1, eventId: "e2", line: 3 } } });
    expect((out.at(-1)!.judgment as TrajectoryJudgment).metaBehaviors[0]!.verdict).toBe("false");
  });

  test("item 6: watch --follow reads a file again after truncation and after rotation (rename + new file)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-rotate-"));
    const file = join(dir, "session.jsonl");
    writeFileSync(file, line(EVENTS[0]));
    const child = spawn(process.execPath, [BIN, "watch", JUDGE, file, "--follow", "--json"], {
      cwd: ROOT,
      env: { ...process.env, OPENAI_API_KEY: "", BRAINTRUST_API_KEY: "" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const seen = (text: string, where: () => string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${text}; got ${stdout} / ${stderr}`)), 20_000);
        const look = () => {
          if (where().includes(text)) {
            clearTimeout(timer);
            resolve();
          } else setTimeout(look, 50);
        };
        look();
      });
    try {
      appendFileSync(file, line(EVENTS[1]));
      await seen('"eventId":"e2"', () => stdout);
      // Copy-truncate: the writer starts the file over; what it writes next must be read.
      writeFileSync(file, "");
      await seen("was truncated", () => stderr);
      appendFileSync(file, line(EVENTS[2]) + line(EVENTS[3]) + line(EVENTS[4]));
      await seen('"eventId":"e5"', () => stdout);
      // Rotation: the file is renamed away and a new one takes its path.
      renameSync(file, `${file}.1`);
      writeFileSync(
        file,
        line({ id: "e6", actor: "agent", action: "issue_refund", metadata: { order_id: "C" } }) + line({ end: { complete: true } }),
      );
      expect(await exited).toBe(0);
    } finally {
      child.kill();
    }
    expect(stderr).toBe(
      `behavior-judge: note: ${file} was truncated: reading it again from its start (line numbers start again at 1)\n` +
        `behavior-judge: note: ${file} was replaced by a new file: reading the new file from its start (line numbers start again at 1)\n`,
    );
    const out = jsonLines(stdout);
    expect(out.filter((o) => "violation" in o).map((o) => (o.violation as { at: unknown }).at)).toEqual([
      { index: 1, eventId: "e2", line: 2 },
      { index: 4, eventId: "e5", line: 3 },
      { index: 5, eventId: "e6", line: 1 },
    ]);
    const judgment = out.at(-1)!.judgment as TrajectoryJudgment;
    expect(judgment.metaBehaviors.find((m) => m.name === "Stop paying out once escalated")!.verdict).toBe("false");
  }, 60_000);

  test("item 11: watch --from imports the records that arrive together once: 4,001 lines in seconds, violations at their own lines", async () => {
    // One chat message per line: a lookup and its result, again and again; an escalation at line 1,500
    // and a refund after it at line 3,001, which the refund judge forbids.
    const call = (id: string, name: string, args: unknown) => ({
      role: "assistant",
      content: null,
      tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
    });
    const recordsOf = (count: number) => {
      const records: unknown[] = [{ role: "user", content: "Refund order C-9 now." }];
      for (let i = 1; records.length < count; i++) {
        const line = records.length + 1;
        if (line === 1500) records.push(call(`call_${i}`, "escalate_to_supervisor", {}));
        else if (line === 3001) records.push(call(`call_${i}`, "issue_refund", { order_id: "C-9" }));
        else {
          records.push(call(`call_${i}`, "get_order", { order_id: `C-${i}` }));
          records.push({ role: "tool", tool_call_id: `call_${i}`, content: JSON.stringify({ status: "found" }) });
        }
      }
      return records;
    };
    const watch = async (records: unknown[]) => {
      async function* lines() {
        for (let i = 0; i < records.length; i++) yield { line: i + 1, text: JSON.stringify(records[i]) };
      }
      const violations: ViolationAt[] = [];
      const refused: string[] = [];
      const judge = await refundJudge();
      // The work, counted (test/support/work.ts), not timed.
      const { result, steps } = await countingWorkAsync(() =>
        watchLines(
          judge,
          lines(),
          { fallbackId: "chat", from: "openai-chat", complete: true, judge: {} },
          { violation: (_v, at) => violations.push(at), refused: (line, message) => refused.push(`${line}: ${message}`) },
        ),
      );
      return { result, steps, violations, refused };
    };
    const { result, steps, violations, refused } = await watch(recordsOf(4001));
    expect(refused).toEqual([]);
    expect(result.events).toBeGreaterThan(4000);
    // One import per line took 120 s here (4,001 lines, a loaded machine); the groups take under 2 s. Twice the
    // lines (the same escalation and refund, 4,000 more lookups) cost 1.24 times the steps here, and at most
    // twice; an import of everything so far at every line would cost about four times.
    expect((await watch(recordsOf(8001))).steps / steps).toBeLessThan(2.6);
    expect(violations.map((v) => v.line)).toEqual([3001]);
    expect(result.judgment.metaBehaviors.find((m) => m.name === "Stop paying out once escalated")!.verdict).toBe("false");
  }, 120_000);
});
