/**
 * What is particular to `pydantic-ai` (goldens, detection and round trips are
 * in golden.test.ts and roundtrip.test.ts): the output tool ends a run without
 * a result of its own, retry prompts, finish reasons, old spellings, located
 * errors, and an import linear in the calls.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { detectFormat, fromPydanticAI } from "../../importers/index.js";
import { IMPORTER_FIXTURES, readFixture } from "../support/importer-fixtures.js";
import { stepsRatio } from "../support/work.js";

const fixture = (file: string): unknown => readFixture(join(IMPORTER_FIXTURES, "pydantic-ai", file));
const req = (...parts: unknown[]) => ({ kind: "request", parts });
const res = (parts: unknown[], finish_reason: string | null = null) => ({ kind: "response", parts, finish_reason });
const prompt = (content: unknown) => ({ part_kind: "user-prompt", content });
const call = (tool_name: string, args: unknown, tool_call_id?: string) => ({ part_kind: "tool-call", tool_name, args, tool_call_id });
const ret = (tool_name: string, content: unknown, tool_call_id?: string) => ({
  part_kind: "tool-return",
  tool_name,
  content,
  tool_call_id,
});
const say = (content: string) => ({ part_kind: "text", content });
const complete = (history: unknown[]): boolean => fromPydanticAI(history).trajectories[0]!.complete;

describe("pydantic-ai on histories built from its published source", () => {
  test("refund-structured-output.json: final_result is the run's answer (a call, its fields flattened), answered 'Final result processed.'", () => {
    const [t] = fromPydanticAI(fixture("refund-structured-output.json")).trajectories;
    expect(t!.id).toBe("0198a1b2-0000-7000-8000-000000000001");
    expect(t!.events[0]!.content).toBe(
      "Orders A-1001 and A-1002 arrived broken, see the photo. Refund both; I'm dana@example.com.\n[image]",
    );
    expect(t!.events[9]).toMatchObject({
      action: "issue_refund_result",
      content: "payment processor timeout, try again later",
      metadata: { status: "error" },
    });
    expect(t!.events.at(-2)).toMatchObject({ action: "final_result", metadata: { "refunded.0": "A-1001", "failed.0": "A-1002" } });
    expect(t!.complete).toBe(true);
  });

  test("streamed-final-result.json: a history that stops at the final_result call, with no return, is complete", () => {
    const [t] = fromPydanticAI(fixture("streamed-final-result.json")).trajectories;
    expect(t!.events.at(-1)!.action).toBe("final_result");
    expect(t!.complete).toBe(true);
  });

  test("several-runs.jsonl: one history per line; finish_reason length and an unanswered call are incomplete", () => {
    const ts = fromPydanticAI(fixture("several-runs.jsonl")).trajectories;
    expect(ts.map((t) => [t.id.slice(-2), t.complete])).toEqual([
      ["03", true],
      ["04", true],
      ["05", false],
      ["06", true],
      ["07", true],
      ["08", false],
      ["09", true],
    ]);
    expect(ts[1]!.events[2]).toMatchObject({
      actor: "user",
      content: "Please return an integer number of days.",
      metadata: { "@retry": "true" },
    });
    expect(ts[3]!.events[1]!.metadata!["@server"]).toBe("anthropic");
  });
});

describe("pydantic-ai shapes", () => {
  test("final_result called beside another tool (answered 'Tool not executed') ends the run; final_result_<Type> is an output tool too", () => {
    expect(
      complete([
        req(prompt("x")),
        res([call("lookup", {}, "a"), call("final_result", { ok: true }, "b")], "tool_call"),
        req(
          ret("lookup", "Tool not executed - a final result was already processed.", "a"),
          ret("final_result", "Final result processed.", "b"),
        ),
      ]),
    ).toBe(true);
    expect(complete([req(prompt("x")), res([call("final_result_Refund", { ok: true }, "b")])])).toBe(true);
    expect(complete([req(prompt("x")), res([call("lookup", {}, "a")], "tool_call")])).toBe(false);
    expect(complete([req(prompt("x")), res([call("lookup", {}, "a")]), req(ret("lookup", "1", "a"))])).toBe(false);
  });

  test("the user's last word after a finished answer keeps the history complete; a history with no response is not", () => {
    expect(complete([req(prompt("x")), res([say("done")], "stop"), req(prompt("thanks, bye"))])).toBe(true);
    expect(complete([req(prompt("x"))])).toBe(false);
    expect(complete([req(prompt("x")), res([say("About a month.")]), req({ part_kind: "retry-prompt", content: "a number" })])).toBe(false);
  });

  test("a retry-prompt naming a tool is that call's error result; after it the model must answer again", () => {
    const t = fromPydanticAI([
      req(prompt("x")),
      res([call("lookup", '{"q": 1}', "a")]),
      req({
        part_kind: "retry-prompt",
        tool_name: "lookup",
        tool_call_id: "a",
        content: [{ type: "missing", loc: ["q"], msg: "Field required" }],
      }),
    ]).trajectories[0]!;
    expect(t.events[2]).toMatchObject({ action: "lookup_result", metadata: { status: "error", "@call_id": "a" } });
    expect(t.events[2]!.content).toContain("Field required");
    expect(t.complete).toBe(false);
  });

  test("old spellings: args as {args_json} / {args_dict} (0.0.x), no finish_reason; a tool return without an id pairs by name", () => {
    const t = fromPydanticAI([
      req(prompt("x")),
      res([call("f", { args_json: '{"a": 1}' }, "c1"), call("g", { args_dict: { b: 2 } })]),
      req(ret("g", { n: 2 }), ret("f", "one", "c1")),
      res([say("done")]),
    ]).trajectories[0]!;
    expect(t.events.map((e) => [e.action, e.content])).toEqual([
      ["message", "x"],
      ["f", '{"a": 1}'],
      ["g", '{"b":2}'],
      ["g_result", '{"n":2}'],
      ["f_result", "one"],
      ["message", "done"],
    ]);
    expect(t.events[3]!.metadata!.n).toBe("2");
    expect(t.complete).toBe(true);
  });

  test("detection: histories and lists of histories are pydantic-ai; other formats' messages are not", () => {
    expect(detectFormat([req(prompt("hi")), res([say("ok")])]).format).toBe("pydantic-ai");
    expect(detectFormat([[req(prompt("hi"))], [req(prompt("ho"))]]).format).toBe("pydantic-ai");
    expect(detectFormat([{ role: "user", content: "hi" }]).format).not.toBe("pydantic-ai");
  });
});

describe("pydantic-ai bad input: located errors, the other histories still import", () => {
  test("a call without tool_name, a message of an unknown kind, a part without part_kind; an unknown part kind is a warning", () => {
    const good = [req(prompt("a")), res([say("fine")])];
    const r = fromPydanticAI([
      good,
      [req(prompt("b")), res([{ part_kind: "tool-call", args: {} }])],
      [req(prompt("c")), { kind: "note", parts: [] }],
      [req(prompt("d")), res([{ content: "x" }])],
      [req(prompt("e")), res([{ part_kind: "hologram" }, say("ok")])],
    ]);
    expect(r.errors).toEqual([
      { path: "[1][1].parts[0]", message: "missing tool_name", trace: 1 },
      { path: "[2][1]", message: 'unknown kind "note" (expected request or response)', trace: 2 },
      { path: "[3][1].parts[0]", message: "missing part_kind", trace: 3 },
    ]);
    expect(r.warnings).toEqual([{ path: "[4][1].parts[0]", message: 'part of kind "hologram" is not imported', trace: 4 }]);
    expect(r.trajectories).toHaveLength(2);
  });

  test("not a history at all", () => {
    expect(fromPydanticAI({ hello: 1 }).errors).toEqual([
      { path: "", message: "not a Pydantic AI message history: expected a list of {kind, parts} messages" },
    ]);
  });
});

describe("pydantic-ai import is linear in the calls", () => {
  const history = (n: number): unknown[] => {
    const messages: unknown[] = [req(prompt("go"))];
    for (let i = 0; i < n; i += 2) {
      messages.push(res([call("lookup", { q: i }, `c${i}`), call("lookup", `{"q": ${i + 1}}`, `c${i + 1}`)], "tool_call"));
      messages.push(req(ret("lookup", { n: i + 1 }, `c${i + 1}`), ret("lookup", { n: i }, `c${i}`)));
    }
    messages.push(res([call("final_result", { ok: true }, "final")], "tool_call"));
    return messages;
  };

  test("100,000 calls cost about 4 times 25,000, not 16 times; every result follows its own call", () => {
    const small = history(25_000);
    const large = history(100_000);
    const t = fromPydanticAI(large).trajectories[0]!;
    expect(t.events).toHaveLength(2 + 200_000);
    expect(t.complete).toBe(true);
    const results = t.events.filter((e) => e.actor === "tool");
    expect(results.every((e, i) => e.metadata!.n === String(i % 2 === 0 ? i + 1 : i - 1))).toBe(true);
    fromPydanticAI(small);
    expect(stepsRatio(fromPydanticAI, large, small)).toBeLessThan(8);
  });
});
