/**
 * Issue 22, "Defects in today's importers": each defect of the existing
 * importers, reproduced on the shape that showed it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { fromAnthropic, fromBedrock, fromLangChain, fromOpenAIChat, fromOpenAIResponses, fromVercelAI } from "../../importers/index.js";
import type { ImportResult } from "../../importers/index.js";
import type { Trajectory } from "../../importers/index.js";
import type { InputCase } from "../../compiler/inputs/case.js";
import { readCases } from "../../compiler/inputs/inputs.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import { runCli } from "../support/cli.js";
import { IMPORTER_FIXTURES } from "../support/importer-fixtures.js";

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

describe("defect 1: a tool result given as text parts is flattened as the string it holds", () => {
  const FOUND = '{"status": "found", "order": {"id": "A-1"}}';
  const expectFlattened = (t: Trajectory): void => {
    const result = t.events.find((e) => e.action === "get_order_result")!;
    expect(result.content).toBe(FOUND);
    expect(result.metadata).toMatchObject({ status: "found", "order.id": "A-1" });
  };
  const chatLog = [
    { role: "user", content: "Refund order A-1." },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "get_order", arguments: '{"order_id": "A-1"}' } }],
    },
    { role: "tool", tool_call_id: "c1", content: [{ type: "text", text: FOUND }] },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c2", type: "function", function: { name: "issue_refund", arguments: '{"order_id": "A-1", "amount": 20}' } }],
    },
    { role: "tool", tool_call_id: "c2", content: '{"status": "denied"}' },
    { role: "assistant", content: "The refund was denied." },
  ];

  test("openai-chat: role tool with content [{type: text}]", () => {
    expectFlattened(only(fromOpenAIChat(chatLog)));
  });

  test("anthropic: tool_result content [{type: text}] (MCP and Claude Agent SDK results)", () => {
    expectFlattened(
      only(
        fromAnthropic([
          { role: "user", content: "Refund order A-1." },
          { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "get_order", input: { order_id: "A-1" } }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: FOUND }] }] },
          { role: "assistant", content: [{ type: "text", text: "Found it." }] },
        ]),
      ),
    );
  });

  test("openai-responses: function_call_output output [{type: input_text}]", () => {
    expectFlattened(
      only(
        fromOpenAIResponses([
          { role: "user", content: "Refund order A-1." },
          { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_order", arguments: '{"order_id": "A-1"}' },
          { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: FOUND }] },
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "Found it." }] },
        ]),
      ),
    );
  });

  test("vercel-ai (already right) reads its content output the same way", () => {
    expectFlattened(
      only(
        fromVercelAI([
          { role: "user", content: "Refund order A-1." },
          {
            role: "assistant",
            content: [{ type: "tool-call", toolCallId: "c1", toolName: "get_order", input: { order_id: "A-1" } }],
          },
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: "c1",
                toolName: "get_order",
                output: { type: "content", value: [{ type: "text", text: FOUND }] },
              },
            ],
          },
        ]),
      ),
    );
  });

  test("a list with an image besides the text is text only (no fields)", () => {
    const t = only(
      fromAnthropic([
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "get_order", input: {} }] },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "t1",
              content: [
                { type: "image", source: { type: "base64", media_type: "image/png", data: "" } },
                { type: "text", text: FOUND },
              ],
            },
          ],
        },
      ]),
    );
    const result = t.events.find((e) => e.action === "get_order_result")!;
    expect(result.content).toBe(`[image]\n${FOUND}`);
    expect(result.metadata!.status).toBeUndefined();
  });

  test("judge: the lookup-before-refund rule passes on the chat log whose lookup result is text parts", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-parts-result-"));
    const file = join(dir, "chat.json");
    writeFileSync(file, JSON.stringify(chatLog));
    const run = runCli(["judge", join(IMPORTER_FIXTURES, "refund-rules.judge.yaml"), file, "--no-verify", "--no-web", "--json"]);
    expect(run.stderr).toBe("");
    const judgments = JSON.parse(run.stdout) as { verdict: string; metaBehaviors: { name: string; verdict: string }[] }[];
    expect(judgments.flatMap((j) => j.metaBehaviors.filter((m) => m.name === "Look the order up before refunding"))).toMatchObject([
      { verdict: "true" },
    ]);
  });
});

describe('defect 6: what completes a chat log (docs/IMPORTERS.md "What completes a trace")', () => {
  /** One conversation in each chat format, built from the same script of turns. */
  type Turn = { user: string } | { reply: string } | { call: string; result?: string };
  interface Format {
    name: string;
    write(turns: Turn[]): unknown;
    read(input: unknown): ImportResult;
  }
  const args = { order_id: "A-1" };
  const FORMATS: Format[] = [
    {
      name: "openai-chat",
      read: fromOpenAIChat,
      write: (turns) =>
        turns.flatMap((t, i): unknown[] =>
          "user" in t
            ? [{ role: "user", content: t.user }]
            : "reply" in t
              ? [{ role: "assistant", content: t.reply }]
              : [
                  {
                    role: "assistant",
                    content: null,
                    tool_calls: [{ id: `c${i}`, type: "function", function: { name: t.call, arguments: JSON.stringify(args) } }],
                  },
                  ...(t.result === undefined ? [] : [{ role: "tool", tool_call_id: `c${i}`, content: t.result }]),
                ],
        ),
    },
    {
      name: "anthropic",
      read: fromAnthropic,
      write: (turns) =>
        turns.flatMap((t, i): unknown[] =>
          "user" in t
            ? [{ role: "user", content: t.user }]
            : "reply" in t
              ? [{ role: "assistant", content: [{ type: "text", text: t.reply }] }]
              : [
                  { role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: t.call, input: args }] },
                  ...(t.result === undefined
                    ? []
                    : [{ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: t.result }] }]),
                ],
        ),
    },
    {
      name: "openai-responses",
      read: fromOpenAIResponses,
      write: (turns) =>
        turns.flatMap((t, i): unknown[] =>
          "user" in t
            ? [{ type: "message", role: "user", content: t.user }]
            : "reply" in t
              ? [{ type: "message", role: "assistant", content: [{ type: "output_text", text: t.reply }] }]
              : [
                  { type: "function_call", call_id: `call_${i}`, name: t.call, arguments: JSON.stringify(args) },
                  ...(t.result === undefined ? [] : [{ type: "function_call_output", call_id: `call_${i}`, output: t.result }]),
                ],
        ),
    },
    {
      name: "vercel-ai",
      read: fromVercelAI,
      write: (turns) =>
        turns.flatMap((t, i): unknown[] =>
          "user" in t
            ? [{ role: "user", content: t.user }]
            : "reply" in t
              ? [{ role: "assistant", content: [{ type: "text", text: t.reply }] }]
              : [
                  { role: "assistant", content: [{ type: "tool-call", toolCallId: `c${i}`, toolName: t.call, input: args }] },
                  ...(t.result === undefined
                    ? []
                    : [
                        {
                          role: "tool",
                          content: [
                            { type: "tool-result", toolCallId: `c${i}`, toolName: t.call, output: { type: "text", value: t.result } },
                          ],
                        },
                      ]),
                ],
        ),
    },
    {
      name: "langchain",
      read: fromLangChain,
      write: (turns) =>
        turns.flatMap((t, i): unknown[] =>
          "user" in t
            ? [{ type: "human", data: { content: t.user } }]
            : "reply" in t
              ? [{ type: "ai", data: { content: t.reply } }]
              : [
                  { type: "ai", data: { content: "", tool_calls: [{ id: `c${i}`, name: t.call, args }] } },
                  ...(t.result === undefined ? [] : [{ type: "tool", data: { content: t.result, tool_call_id: `c${i}` } }]),
                ],
        ),
    },
    {
      name: "bedrock",
      read: fromBedrock,
      write: (turns) =>
        turns.flatMap((t, i): unknown[] =>
          "user" in t
            ? [{ role: "user", content: [{ text: t.user }] }]
            : "reply" in t
              ? [{ role: "assistant", content: [{ text: t.reply }] }]
              : [
                  { role: "assistant", content: [{ toolUse: { toolUseId: `t${i}`, name: t.call, input: args } }] },
                  ...(t.result === undefined
                    ? []
                    : [{ role: "user", content: [{ toolResult: { toolUseId: `t${i}`, content: [{ text: t.result }] } }] }]),
                ],
        ),
    },
  ];
  const LOGS: { name: string; turns: Turn[]; complete: boolean }[] = [
    {
      name: 'ends with the reply ("done")',
      turns: [{ user: "Refund A-1." }, { call: "get_order", result: "found" }, { reply: "Done, refunded." }],
      complete: true,
    },
    {
      name: 'ends with a user message after the reply ("thanks, bye")',
      turns: [{ user: "Refund A-1." }, { call: "get_order", result: "found" }, { reply: "Done, refunded." }, { user: "thanks, bye" }],
      complete: true,
    },
    {
      name: "ends with several user messages after the reply",
      turns: [{ user: "Refund A-1." }, { reply: "Done." }, { user: "thanks" }, { user: "###STOP###" }],
      complete: true,
    },
    {
      name: "ends with a tool result the agent never answered",
      turns: [{ user: "Refund A-1." }, { call: "get_order", result: "found" }],
      complete: false,
    },
    {
      name: "ends with a user message after a result the agent never answered",
      turns: [{ user: "Refund A-1." }, { call: "get_order", result: "found" }, { user: "hello?" }],
      complete: false,
    },
    {
      name: "ends with a call left without a result, then a user message",
      turns: [{ user: "Refund A-1." }, { call: "get_order" }, { user: "hello?" }],
      complete: false,
    },
    { name: "holds user messages only (no reply yet)", turns: [{ user: "Refund A-1." }, { user: "anyone?" }], complete: false },
  ];

  for (const format of FORMATS)
    for (const { name, turns, complete } of LOGS)
      test(`${format.name}: a log that ${name} is ${complete ? "complete" : "incomplete"}`, () => {
        expect(only(format.read(format.write(turns))).complete).toBe(complete);
      });
});

describe("defect 2: a `trajectory` or `events` key alone does not make a labeled case or a trajectory", () => {
  const adkSession = JSON.parse(readFileSync(join(IMPORTER_FIXTURES, "adk", "refund-session.api.json"), "utf8")) as Record<string, unknown>;
  const chat = [
    { role: "user", content: "Refund A-1." },
    { role: "assistant", content: "Done." },
  ];

  async function casesOf(files: Record<string, string>, from?: string): Promise<InputCase[]> {
    const dir = mkdtempSync(join(tmpdir(), "bj-case-keys-"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const cases: InputCase[] = [];
    for await (const c of readCases(
      Object.keys(files).map((name) => join(dir, name)),
      from === undefined ? {} : { from },
    ))
      cases.push({ ...c, file: c.file.slice(dir.length + 1) });
    return cases;
  }
  /** Each case's error, or the id of its trajectory as the judge's validator reads it (a raw trace fails there). */
  const ids = (cases: InputCase[]): unknown[] =>
    cases.map((c) => {
      if (c.error !== undefined) return c.error;
      try {
        return validateTrajectory(c.trajectory).id;
      } catch (error) {
        return `invalid: ${(error as Error).message}`;
      }
    });

  test("an ADK session (id and events, ADK's events) on a JSONL line is imported, not validated as a trajectory", async () => {
    const cases = await casesOf({ "sessions.jsonl": `${JSON.stringify(adkSession)}\n${JSON.stringify({ ...adkSession, id: "s2" })}\n` });
    expect(ids(cases)).toEqual([adkSession.id, "s2"]);
  });

  test("a labeled case wrapping an ADK session imports the session", async () => {
    const cases = await casesOf({ "case.json": JSON.stringify({ trajectory: adkSession, expected: { verdict: "true" } }) });
    expect(ids(cases)).toEqual([adkSession.id]);
    expect(cases[0]!.expected).toMatchObject({ verdict: "true" });
  });

  test("an object whose own field is called trajectory, and no expected, is a trace when a format reads it (auto and --from)", async () => {
    const line = JSON.stringify({ id: "run-17", trajectory: "refund-desk/run-17", messages: chat });
    for (const from of [undefined, "openai-chat"]) {
      const cases = await casesOf({ "export.json": line, "export.jsonl": `${line}\n` }, from);
      expect(ids(cases)).toEqual(["run-17", "run-17"]);
      expect(cases.every((c) => c.labeled !== true)).toBe(true);
    }
  });

  test("with expected it is a labeled case, its trajectory imported", async () => {
    const cases = await casesOf({
      "case.json": JSON.stringify({ trajectory: { id: "c1", messages: chat }, expected: { verdict: "true" } }),
    });
    expect(ids(cases)).toEqual(["c1"]);
    expect(cases[0]!.labeled).toBe(true);
  });

  test("unlabeled {trajectory: <a trajectory>} stays a case (so a misspelled expected still shows)", async () => {
    const native = { id: "t1", complete: true, events: [{ id: "e1", actor: "agent", action: "act" }] };
    const cases = await casesOf({ "a.json": JSON.stringify({ trajectory: native, expeted: { verdict: "true" } }) });
    expect(ids(cases)).toEqual(["t1"]);
    expect(cases[0]!.labeled).toBe(true);
  });

  test("a shape no format knows with a trajectory field (a .traj whose importer is missing) is an unknown trace, said of the object", async () => {
    const cases = await casesOf({ "run.traj.json": JSON.stringify({ trajectory: [{ step: 1, observation: "ls" }], info: {} }) });
    expect(cases).toHaveLength(1);
    expect(cases[0]!.error).toMatch(/^unknown trace format: .*a labeled case only with "expected"/);
  });

  test("a trajectory with a mistake (no complete, no actor) is still read as one, for the validator to explain", async () => {
    const cases = await casesOf({
      "a.json": JSON.stringify({ id: "t1", events: [{ id: "e1", actor: "agent", action: "act" }] }),
      "b.json": JSON.stringify({ id: "t2", complete: true, events: [{ id: "e1", action: "act" }] }),
    });
    expect(ids(cases)).toEqual(["invalid: complete must be true or false", "invalid: events[0].actor must be user, agent, or tool"]);
  });
});

describe("defect 5: Anthropic request/response pairs of one agent loop chain into one trajectory", () => {
  // The API's responses, as a proxy or an SDK hook logs them.
  const r1 = {
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [
      { type: "text", text: "Let me look that order up." },
      { type: "tool_use", id: "toolu_01", name: "lookup_order", input: { order: "A-1" } },
    ],
    stop_reason: "tool_use",
    stop_sequence: null,
  };
  const r2 = {
    id: "msg_02",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [{ type: "tool_use", id: "toolu_02", name: "issue_refund", input: { order: "A-1", amount: 20 } }],
    stop_reason: "tool_use",
    stop_sequence: null,
  };
  const r3 = {
    id: "msg_03",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [{ type: "text", text: "Refunded $20." }],
    stop_reason: "end_turn",
    stop_sequence: null,
  };
  const user = { role: "user", content: "Refund order A-1, it arrived broken." };
  const result = (id: string, text: string) => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: text }] });
  // The Python SDK sends the response's content blocks back as its models dump them: fields in declaration order, `citations: null`.
  const resent1 = {
    role: "assistant",
    content: [
      { citations: null, text: "Let me look that order up.", type: "text" },
      { id: "toolu_01", input: { order: "A-1" }, name: "lookup_order", type: "tool_use" },
    ],
  };
  const resent2 = {
    role: "assistant",
    content: [{ id: "toolu_02", input: { order: "A-1", amount: 20 }, name: "issue_refund", type: "tool_use" }],
  };
  const exchange = (messages: unknown[], response: unknown) => ({
    request: { model: "claude-sonnet-4-5", max_tokens: 1024, messages },
    response,
  });
  const log = [
    exchange([user], r1),
    exchange([user, resent1, result("toolu_01", '{"status": "found"}')], r2),
    exchange([user, resent1, result("toolu_01", '{"status": "found"}'), resent2, result("toolu_02", '{"status": "refunded"}')], r3),
  ];
  const WHOLE = [
    "user/message",
    "agent/message",
    "agent/lookup_order",
    "tool/lookup_order_result",
    "agent/issue_refund",
    "tool/issue_refund_result",
    "agent/message",
  ];

  test("each request repeats the history as the SDK re-serialized it: one trajectory, the user message once, complete", () => {
    const t = only(fromAnthropic(log));
    expect(actions(t)).toEqual(WHOLE);
    expect(t.id).toBe("msg_03");
    expect(t.complete).toBe(true);
  });

  test("in any order of the lines, and with a one-text reply sent back as a string", () => {
    const stringReply = [
      exchange([user], { ...r3, id: "msg_a" }),
      exchange([user, { role: "assistant", content: "Refunded $20." }, { role: "user", content: "Thanks! And order B-2?" }], {
        ...r3,
        id: "msg_b",
        content: [{ type: "text", text: "B-2 is on its way." }],
      }),
    ];
    expect(actions(only(fromAnthropic(stringReply)))).toEqual(["user/message", "agent/message", "user/message", "agent/message"]);
    expect(actions(only(fromAnthropic([log[2], log[0], log[1]])))).toEqual(WHOLE);
  });

  test("two loops in one log stay two trajectories", () => {
    const other = { role: "user", content: "Cancel order C-3." };
    const result2 = fromAnthropic([...log, exchange([other], { ...r3, id: "msg_c", content: [{ type: "text", text: "Cancelled." }] })]);
    expect(result2.errors).toEqual([]);
    expect(result2.trajectories.map((t) => t.id)).toEqual(["msg_03", "msg_c"]);
  });
});

describe("defect 7: traces without a native id are named after their file; --id names them", () => {
  const chat = (text: string) => [
    { role: "user", content: text },
    { role: "assistant", content: "Done." },
  ];
  const dir = mkdtempSync(join(tmpdir(), "bj-ids-"));
  writeFileSync(join(dir, "monday.json"), JSON.stringify(chat("Refund A-1.")));
  writeFileSync(join(dir, "tuesday.json"), JSON.stringify(chat("Refund B-2.")));
  writeFileSync(join(dir, "week.jsonl"), [chat("one"), chat("two")].map((c) => JSON.stringify(c)).join("\n") + "\n");
  const idsOf = (stdout: string) =>
    stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as Trajectory).id);

  test("import: each file's name, -<n> for the traces of a file holding several; no two alike", () => {
    const run = runCli(["import", join(dir, "monday.json"), join(dir, "tuesday.json"), join(dir, "week.jsonl")]);
    expect(run.status).toBe(0);
    expect(idsOf(run.stdout)).toEqual(["monday", "tuesday", "week-1", "week-2"]);
  });

  test("a native id still wins, and stdin, which has no name, keeps trace-<n>", () => {
    const native = join(dir, "native.json");
    writeFileSync(native, JSON.stringify({ messages: chat("hi"), response: undefined, id: "req-42" }));
    expect(idsOf(runCli(["import", native]).stdout)).toEqual(["req-42"]);
    expect(idsOf(runCli(["import", "-"], { input: JSON.stringify(chat("hi")) }).stdout)).toEqual(["trace-1"]);
  });

  test("--id on import and on judge: that id, -<n> for several", () => {
    expect(idsOf(runCli(["import", join(dir, "monday.json"), "--id", "ticket-7"]).stdout)).toEqual(["ticket-7"]);
    expect(idsOf(runCli(["import", join(dir, "week.jsonl"), "--id", "ticket-7"]).stdout)).toEqual(["ticket-7-1", "ticket-7-2"]);
    const judge = join(IMPORTER_FIXTURES, "refund-rules.judge.yaml");
    const run = runCli(["judge", judge, join(dir, "monday.json"), "--id", "ticket-7", "--json", "--no-verify", "--no-web"]);
    expect(run.stderr).toBe("");
    expect((JSON.parse(run.stdout) as { trajectoryId: string }[]).map((j) => j.trajectoryId)).toEqual(["ticket-7"]);
    const plain = runCli(["judge", judge, join(dir, "monday.json"), join(dir, "tuesday.json"), "--json", "--no-verify", "--no-web"]);
    expect((JSON.parse(plain.stdout) as { trajectoryId: string }[]).map((j) => j.trajectoryId)).toEqual(["monday", "tuesday"]);
  });
});
