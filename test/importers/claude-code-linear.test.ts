/**
 * The claude-code import is linear in the records (issue 22 "every importer
 * is linear"): 100,000 calls, written as Claude Code writes them (one record
 * per block, four parallel calls per message with their results between the
 * blocks), some of them Task calls whose sub-agent transcripts come in the
 * same input. 25,000 calls against 100,000: a linear import takes about 4
 * times as long, a quadratic one about 16.
 */
import { expect, test } from "vitest";
import { fromClaudeCode } from "../../importers/index.js";
import { stepsRatio } from "../support/work.js";

/** A session of `n` calls; every 50th message is a Task whose sub-agent makes two calls of its own. */
function session(n: number): unknown[] {
  const main: unknown[] = [{ type: "user", uuid: "p", sessionId: "s", message: { role: "user", content: "go" } }];
  const agents: unknown[] = [];
  let calls = 0;
  for (let m = 0; calls < n; m++) {
    const id = `msg_${m}`;
    if (m % 50 === 49) {
      const agentId = `a${m}`;
      main.push({
        type: "assistant",
        uuid: `t${m}`,
        sessionId: "s",
        message: {
          id,
          role: "assistant",
          content: [{ type: "tool_use", id: `task_${m}`, name: "Task", input: { prompt: `survey ${m}`, subagent_type: "Explore" } }],
        },
      });
      main.push({
        type: "user",
        uuid: `tr${m}`,
        sessionId: "s",
        message: {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: `task_${m}`,
              content: [
                { type: "text", text: "found it" },
                { type: "text", text: `agentId: ${agentId}` },
              ],
            },
          ],
        },
      });
      agents.push({
        type: "user",
        uuid: `${agentId}-u`,
        isSidechain: true,
        agentId,
        sessionId: "s",
        message: { role: "user", content: `survey ${m}` },
      });
      for (let k = 0; k < 2; k++) {
        agents.push({
          type: "assistant",
          uuid: `${agentId}-a${k}`,
          isSidechain: true,
          agentId,
          sessionId: "s",
          message: {
            id: `${agentId}_m${k}`,
            role: "assistant",
            content: [{ type: "tool_use", id: `${agentId}_c${k}`, name: "Grep", input: { pattern: String(k) } }],
          },
        });
        agents.push({
          type: "user",
          uuid: `${agentId}-r${k}`,
          isSidechain: true,
          agentId,
          sessionId: "s",
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: `${agentId}_c${k}`, content: "x" }] },
        });
      }
      calls += 3;
      continue;
    }
    for (let k = 0; k < 4; k++) {
      const callId = `c${m}_${k}`;
      main.push({
        type: "assistant",
        uuid: `a${m}_${k}`,
        sessionId: "s",
        message: { id, role: "assistant", content: [{ type: "tool_use", id: callId, name: "Read", input: { file_path: `f${k}` } }] },
      });
      main.push({
        type: "user",
        uuid: `r${m}_${k}`,
        sessionId: "s",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: callId, content: `{"n": ${calls}}` }] },
        toolUseResult: { n: calls },
      });
      calls++;
    }
  }
  main.push({
    type: "assistant",
    uuid: "end",
    sessionId: "s",
    message: { id: "last", role: "assistant", content: [{ type: "text", text: "done" }], stop_reason: "end_turn" },
  });
  return [...main, ...agents];
}

test("claude-code: 100,000 calls cost about 4 times 25,000, not 16 times; parallel calls share a turn, sub-agents sit under their Task", () => {
  const small = session(25_000);
  const large = session(100_000);
  const result = fromClaudeCode(large);
  expect(result.errors).toEqual([]);
  expect(result.warnings).toEqual([]);
  const t = result.trajectories[0]!;
  expect(t.complete).toBe(true);
  const calls = t.events.filter((e) => e.actor === "agent" && e.action !== "message");
  expect(calls.length).toBeGreaterThanOrEqual(100_000);
  // The four reads of the first message share its turn; the first Task's sub-agent events come before its result.
  expect(new Set(t.events.slice(1, 9).map((e) => e.metadata!["@turn"])).size).toBe(1);
  const taskResult = t.events.findIndex((e) => e.action === "Task_result");
  expect(t.events.slice(taskResult - 4, taskResult).every((e) => e.metadata!["@agent"] === "Explore")).toBe(true);
  fromClaudeCode(small); // warm up
  const ratio = stepsRatio(fromClaudeCode, large, small);
  expect(ratio).toBeLessThan(8);
});
