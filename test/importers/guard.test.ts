/**
 * Every importer runs its whole input under the per-trace guard (issue 20
 * item 5): what one malformed trace throws becomes that trace's located
 * error, the other traces still import, and nothing depends on the thread's
 * stack. Deep nesting is a located error naming the path and the limit
 * (item 16), never "Maximum call stack size exceeded".
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  MAX_NESTING,
  fromAnthropic,
  fromLangChain,
  fromOpenAIAgents,
  fromOpenAIChat,
  fromOpenAIResponses,
  fromOtel,
  fromVercelAI,
  importTrace,
} from "../../importers/index.js";
import { runCli } from "../support/cli.js";
import { IMPORTER_FIXTURES } from "../support/importer-fixtures.js";

const JUDGE = join(IMPORTER_FIXTURES, "refund-rules.judge.yaml");
const TRACE_A = "0123456789abcdef0123456789abcdef";
const TRACE_B = "fedcba9876543210fedcba9876543210";

function toolSpan(trace: string, id: string, attrs: { key: string; value: unknown }[]): Record<string, unknown> {
  return {
    traceId: trace,
    spanId: id,
    name: "tool",
    startTimeUnixNano: "1",
    endTimeUnixNano: "2",
    attributes: [
      { key: "gen_ai.operation.name", value: { stringValue: "execute_tool" } },
      { key: "gen_ai.tool.name", value: { stringValue: "issue_refund" } },
      ...attrs,
    ],
  };
}

/** Nested lists `depth` deep around `inner`. */
function nested(depth: number, inner: unknown = 1): unknown {
  let value = inner;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe("item 5: one malformed trace never aborts the others", () => {
  test('otel: an attribute {"intValue": {"toString": "x"}} fails its own trace, located; the other trace imports', () => {
    const input = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                toolSpan(TRACE_A, "0000000000000001", [{ key: "amount", value: { intValue: { toString: "x" } } }]),
                toolSpan(TRACE_B, "0000000000000002", [{ key: "amount", value: { intValue: "42" } }]),
              ],
            },
          ],
        },
      ],
    };
    const result = fromOtel(input);
    expect(result.errors).toEqual([
      {
        path: "resourceSpans[0].scopeSpans[0].spans[0].attributes[2].value.intValue",
        message: "must be a number or a decimal string, not an object",
        trace: 0,
      },
    ]);
    expect(result.trajectories.map((t) => t.id)).toEqual([TRACE_B]);
  });

  test("no importer throws, whatever the input: each gives a result with errors", () => {
    const hostile: unknown[] = [
      { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: TRACE_A, attributes: [{ key: "k", value: { doubleValue: [] } }] }] }] }] },
      [{ run_type: "tool", name: "t", inputs: {}, child_runs: "no" }],
      [{ role: "user", content: nested(5000) }],
    ];
    for (const importer of [fromOpenAIChat, fromAnthropic, fromOpenAIResponses, fromVercelAI, fromOpenAIAgents, fromOtel, fromLangChain])
      for (const input of hostile) {
        const result = importer(input);
        expect(result.trajectories.length + result.errors.length).toBeGreaterThan(0);
      }
  });

  test("judge --json: a malformed OTel export beside a good chat log is one located error case; the array is whole, no stack trace", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-guard-"));
    const bad = join(dir, "bad.otlp.json");
    const good = join(dir, "good.json");
    writeFileSync(
      bad,
      JSON.stringify({
        resourceSpans: [
          { scopeSpans: [{ spans: [toolSpan(TRACE_A, "0000000000000001", [{ key: "n", value: { intValue: { toString: "x" } } }])] }] },
        ],
      }),
    );
    writeFileSync(
      good,
      JSON.stringify([
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
      ]),
    );
    const run = runCli(["judge", JUDGE, bad, good, "--json", "--no-verify"]);
    expect(run.status).toBe(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).toContain("attributes[2].value.intValue: must be a number or a decimal string");
    const cases = JSON.parse(run.stdout) as unknown[];
    expect(cases).toHaveLength(2);
  });

  test("a LangSmith run tree nested 5,000 deep judges alike on one thread and on two", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-deep-"));
    // Written as text: JSON.stringify itself overflows on a value this deep.
    let text = '{"id":"r4999","run_type":"tool","name":"issue_refund","inputs":{}}';
    for (let i = 4998; i >= 0; i--)
      text = `{"id":"r${i}","run_type":"chain","name":"step","inputs":{}${i === 0 ? ',"end_time":"2025-01-01T00:00:01"' : ""},"child_runs":[${text}]}`;
    const file = join(dir, "deep.json");
    writeFileSync(file, text);
    const one = runCli(["judge", JUDGE, file, "--json", "--no-verify", "--workers", "1"]);
    const two = runCli(["judge", JUDGE, file, "--json", "--no-verify", "--workers", "2"]);
    expect(one.stderr).toBe("");
    // The refund at the bottom of the tree is judged: no lookup before it.
    expect((JSON.parse(one.stdout) as { verdict: string }[])[0]!.verdict).toBe("false");
    expect(two.stdout).toBe(one.stdout);
    expect(two.status).toBe(one.status);
  });
});

describe("item 16: deep nesting is an error naming the path and the limit", () => {
  test("raw input nested past the limit, in every importer, is located at the spot (shortened) with the limit", () => {
    const deep = nested(MAX_NESTING + 5);
    const chat = fromOpenAIChat([
      { role: "user", content: "x" },
      { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: deep } }] },
    ]);
    expect(chat.errors).toHaveLength(1);
    expect(chat.errors[0]!.path).toMatch(/^\[1\]\.tool_calls\[0\]\.function\.arguments\[0\]\[0\]/);
    expect(chat.errors[0]!.path.endsWith("…")).toBe(true);
    expect(chat.errors[0]!.message).toBe(`nests objects and lists more than ${MAX_NESTING} levels deep (the importers' limit)`);
    const inputs: [string, unknown][] = [
      ["anthropic", [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: deep }] }]],
      ["openai-responses", [{ type: "function_call", name: "f", call_id: "c", arguments: deep }]],
      ["vercel-ai", { steps: [{ content: [{ type: "tool-call", toolName: "f", toolCallId: "c", input: deep }], finishReason: "stop" }] }],
      ["openai-agents", [{ object: "trace.span", trace_id: "t", id: "s", span_data: { type: "function", name: "f", input: deep } }]],
      ["otel", { resourceSpans: [{ scopeSpans: [{ spans: [toolSpan(TRACE_A, "0000000000000001", [{ key: "x", value: deep }])] }] }] }],
      ["langchain", { run_type: "tool", name: "f", inputs: { q: deep } }],
    ];
    for (const [from, input] of inputs) {
      const result = importTrace(input, { from });
      expect(
        result.errors.map((e) => e.message),
        from,
      ).toEqual([`nests objects and lists more than ${MAX_NESTING} levels deep (the importers' limit)`]);
    }
  });

  test("JSON text nested past the limit (a tool's arguments, a result, an OTel attribute) names its field and the limit", () => {
    const text = JSON.stringify({ a: nested(MAX_NESTING + 5) });
    const chat = fromOpenAIChat([
      { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "lookup", arguments: text } }] },
    ]);
    expect(chat.errors).toEqual([
      {
        path: "[0].tool_calls[0].function.arguments",
        message: expect.stringMatching(
          /^arguments of lookup: JSON nested more than 1000 levels deep \(at a\[0\]\[0\].*…; the importers' limit\)$/,
        ) as string,
        trace: 0,
      },
    ]);
    const result = fromAnthropic([
      { role: "assistant", content: [{ type: "tool_use", id: "t", name: "lookup", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: text }] },
    ]);
    expect(result.errors[0]).toMatchObject({
      path: "[1].content[0]",
      message: expect.stringContaining("result of lookup: JSON nested more than 1000 levels deep") as string,
    });
    const otel = fromOtel({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: TRACE_A,
                  spanId: "0000000000000001",
                  name: "chat",
                  attributes: [
                    { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
                    {
                      key: "gen_ai.input.messages",
                      value: { stringValue: JSON.stringify([{ role: "user", parts: nested(MAX_NESTING + 5) }]) },
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    expect(otel.errors[0]).toMatchObject({
      path: "resourceSpans[0].scopeSpans[0].spans[0].attributes",
      message: expect.stringContaining("attribute gen_ai.input.messages: JSON nested more than 1000 levels deep") as string,
    });
  });

  test("nesting up to the limit imports", () => {
    const text = JSON.stringify({ a: nested(MAX_NESTING - 10) });
    const chat = fromOpenAIChat([
      { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "lookup", arguments: text } }] },
    ]);
    expect(chat.errors).toEqual([]);
    expect(Object.keys(chat.trajectories[0]!.events[0]!.metadata!)[0]).toMatch(/^a\.0\.0\.0/);
  });
});
