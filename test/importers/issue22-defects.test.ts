/**
 * Issue 22, "Defects in today's importers": each defect of the existing
 * importers, reproduced on the shape that showed it.
 */
import { describe, expect, test } from "vitest";
import { fromAnthropic, fromOpenAIChat, fromOpenAIResponses } from "../../importers/index.js";
import type { Trajectory } from "../../importers/index.js";

function only(result: { trajectories: Trajectory[]; errors: unknown[] }): Trajectory {
  expect(result.errors).toEqual([]);
  expect(result.trajectories).toHaveLength(1);
  return result.trajectories[0]!;
}

const actions = (t: Trajectory): string[] => t.events.map((e) => `${e.actor}/${e.action}`);

describe("defect 4: whitespace-only text is no agent message", () => {
  test('anthropic: a "\\n\\n" text block before a tool_use becomes no event', () => {
    const t = only(
      fromAnthropic([
        { role: "user", content: "Refund order A-1." },
        {
          role: "assistant",
          content: [
            { type: "text", text: "\n\n" },
            { type: "tool_use", id: "toolu_1", name: "lookup", input: { order: "A-1" } },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "found" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Done." },
            { type: "text", text: " \n\t" },
          ],
        },
      ]),
    );
    expect(actions(t)).toEqual(["user/message", "agent/lookup", "tool/lookup_result", "agent/message"]);
    expect(t.events.at(-1)!.content).toBe("Done.");
  });

  test("openai-chat and openai-responses: whitespace-only assistant content becomes no event", () => {
    const chat = only(
      fromOpenAIChat([
        { role: "user", content: "hi" },
        { role: "assistant", content: "\n\n", tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: "ok" },
        { role: "assistant", content: "All set." },
      ]),
    );
    expect(actions(chat)).toEqual(["user/message", "agent/lookup", "tool/lookup_result", "agent/message"]);
    const responses = only(
      fromOpenAIResponses({
        request: { input: [{ role: "user", content: "hi" }] },
        response: {
          id: "resp_1",
          object: "response",
          status: "completed",
          output: [
            { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "\n \n" }] },
          ],
        },
      }),
    );
    expect(actions(responses)).toEqual(["user/message"]);
  });
});
