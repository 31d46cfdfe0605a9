import { describe, expect, test } from "vitest";
import { validateTrajectory } from "../../runtime/trajectory.js";
import {
  FACT,
  ImportError,
  TrajectoryBuilder,
  contentText,
  flattenInto,
  formatIssue,
  importEach,
  parseJson,
  requireString,
  traceId,
} from "../../importers/core.js";

describe("flattenInto", () => {
  test("top-level by name, nested by dot path with array indexes, scalars with String", () => {
    const meta: Record<string, string> = {};
    flattenInto(meta, { status: "found", n: 3, ok: true, none: null, items: [{ sku: "A1", qty: 2 }], deep: { a: { b: "c" } } });
    expect(meta).toEqual({ status: "found", n: "3", ok: "true", none: "null", "items.0.sku": "A1", "items.0.qty": "2", "deep.a.b": "c" });
  });

  test("empty containers keep their key; a bare scalar has no key", () => {
    const meta: Record<string, string> = {};
    flattenInto(meta, { tags: [], opts: {} });
    flattenInto(meta, "lonely");
    expect(meta).toEqual({ tags: "[]", opts: "{}" });
  });

  test("keys starting with @ are escaped so they never pass for importer facts", () => {
    const meta: Record<string, string> = {};
    flattenInto(meta, { "@turn": "99", "@x": { y: 1 }, a: { "@b": 2 } });
    expect(meta).toEqual({ "@@turn": "99", "@@x.y": "1", "a.@b": "2" });
    expect(meta[FACT.turn]).toBeUndefined();
  });

  test("__proto__ stays an ordinary key", () => {
    const meta: Record<string, string> = {};
    flattenInto(meta, JSON.parse('{"__proto__": "x", "a": 1}'));
    expect(Object.keys(meta)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
  });

  test("a circular live object does not loop; a Date is written as JSON would", () => {
    const a: Record<string, unknown> = { name: "a", when: new Date(0) };
    a.self = a;
    const meta: Record<string, string> = {};
    flattenInto(meta, a);
    expect(meta).toEqual({ name: "a", when: "1970-01-01T00:00:00.000Z", self: "[circular]" });
  });
});

describe("contentText", () => {
  test("strings, part arrays, placeholders for non-text parts", () => {
    expect(contentText("hi")).toBe("hi");
    expect(contentText(null)).toBe("");
    expect(
      contentText([
        { type: "text", text: "look" },
        { type: "image_url", image_url: { url: "data:" } },
        { type: "input_file", file_id: "f" },
        { type: "input_audio", input_audio: {} },
        { type: "output_text", text: "done" },
        { type: "refusal", refusal: "no" },
        { type: "weird_thing" },
      ]),
    ).toBe("look\n[image]\n[file]\n[audio]\ndone\nno\n[weird_thing]");
  });

  test("a plain object is JSON; a single part is its text", () => {
    expect(contentText({ status: "ok" })).toBe('{"status":"ok"}');
    expect(contentText({ type: "image", source: {} })).toBe("[image]");
    expect(contentText(42)).toBe("42");
  });
});

describe("TrajectoryBuilder", () => {
  test("ids by position, parallel calls share a turn, results follow in arrival order with their call's turn", () => {
    const b = new TrajectoryBuilder("t", {});
    b.user("weather in Paris and Rome?");
    b.call("get_weather", '{"city":"Paris"}', "c1");
    b.call("get_weather", '{"city":"Rome"}', "c2");
    b.result("c2", '{"temp": 20}');
    b.result("c1", "sunny");
    b.agentMessage("Paris sunny, Rome 20");
    const t = b.finish(true);
    expect(validateTrajectory(t)).toEqual(t);
    expect(t).toEqual({
      id: "t",
      description: "",
      complete: true,
      events: [
        { id: "e1", actor: "user", action: "message", content: "weather in Paris and Rome?", metadata: { "@turn": "1" } },
        {
          id: "e2",
          actor: "agent",
          action: "get_weather",
          content: '{"city":"Paris"}',
          metadata: { city: "Paris", "@call_id": "c1", "@turn": "2" },
        },
        {
          id: "e3",
          actor: "agent",
          action: "get_weather",
          content: '{"city":"Rome"}',
          metadata: { city: "Rome", "@call_id": "c2", "@turn": "2" },
        },
        {
          id: "e4",
          actor: "tool",
          action: "get_weather_result",
          content: '{"temp": 20}',
          metadata: { temp: "20", "@call_id": "c2", "@turn": "2" },
        },
        { id: "e5", actor: "tool", action: "get_weather_result", content: "sunny", metadata: { "@call_id": "c1", "@turn": "2" } },
        { id: "e6", actor: "agent", action: "message", content: "Paris sunny, Rome 20", metadata: { "@turn": "3" } },
      ],
    });
  });

  test("turn() starts a new turn for consecutive responses", () => {
    const b = new TrajectoryBuilder("t", {});
    b.agentMessage("a");
    b.agentMessage("b");
    b.turn();
    b.agentMessage("c");
    const turns = b.finish(true).events.map((e) => e.metadata?.["@turn"]);
    expect(turns).toEqual(["1", "1", "2"]);
  });

  test("an inline (provider-run) result keeps the agent's next event in the same turn", () => {
    const b = new TrajectoryBuilder("t", {});
    b.call("web_search", "{}", "s1");
    b.result("s1", "hits", { inline: true });
    b.call("get_order", "{}", "c1");
    b.result("c1", "found");
    b.agentMessage("done");
    expect(b.finish(true).events.map((e) => e.metadata?.["@turn"])).toEqual(["1", "1", "1", "1", "2"]);
  });

  test("a call without result makes the trajectory incomplete; --complete overrides", () => {
    const b = new TrajectoryBuilder("t", {});
    b.call("search", "{}", "c1");
    expect(b.hasOpenCalls).toBe(true);
    expect(b.finish(true).complete).toBe(false);
    const forced = new TrajectoryBuilder("t", { complete: true });
    forced.call("search", "{}", "c1");
    expect(forced.finish(false).complete).toBe(true);
    const notEnded = new TrajectoryBuilder("t", {});
    notEnded.agentMessage("cut off");
    expect(notEnded.finish(false).complete).toBe(false);
  });

  test("error results carry status error unless the result has its own status", () => {
    const b = new TrajectoryBuilder("t", {});
    b.call("a", "{}", "1");
    b.call("b", "{}", "2");
    b.result("1", "boom", { error: true });
    b.result("2", { status: "retry_later" }, { error: true });
    const [, , r1, r2] = b.finish(true).events;
    expect(r1!.metadata).toEqual({ status: "error", "@call_id": "1", "@turn": "1" });
    expect(r2!.metadata).toEqual({ status: "retry_later", "@call_id": "2", "@turn": "1" });
    expect(r2!.content).toBe('{"status":"retry_later"}');
  });

  test("a result whose call is unknown keeps its named action, or unknown_result, with a warning", () => {
    const b = new TrajectoryBuilder("t", {});
    b.result("zz", "x", { name: "lookup", path: "messages[3]" });
    b.result("yy", "y");
    const t = b.finish(true);
    expect(t.events.map((e) => e.action)).toEqual(["lookup_result", "unknown_result"]);
    expect(b.warnings).toEqual([
      { path: "messages[3]", message: 'call id "zz" answers no earlier call' },
      { path: "", message: 'call id "yy" answers no earlier call' },
    ]);
  });

  test("results without ids pair with the earliest open call of that name (legacy function messages)", () => {
    const b = new TrajectoryBuilder("t", {});
    b.call("a", "{}", undefined);
    b.call("b", "{}", undefined);
    b.result(undefined, "rb", { name: "b" });
    b.result(undefined, "ra", { name: "a" });
    const t = b.finish(true);
    expect(t.events.map((e) => e.action)).toEqual(["a", "b", "b_result", "a_result"]);
    expect(t.complete).toBe(true);
    expect(b.warnings).toEqual([]);
  });

  test("a second result for an answered call keeps the action and warns", () => {
    const b = new TrajectoryBuilder("t", {});
    b.call("a", "{}", "1");
    b.result("1", "first");
    b.result("1", "again");
    expect(b.finish(true).events.map((e) => e.action)).toEqual(["a", "a_result", "a_result"]);
    expect(b.warnings[0]!.message).toBe('second result for call id "1"');
  });

  test("non-object or broken JSON arguments stay content without metadata fields", () => {
    const b = new TrajectoryBuilder("t", {});
    b.call("a", "[1,2]", undefined);
    b.call("b", '{"broken', undefined);
    const [a, c] = b.finish(false).events;
    expect(a!.content).toBe("[1,2]");
    expect(c!.content).toBe('{"broken');
    expect(Object.keys(c!.metadata!)).toEqual(["@turn"]);
  });

  test("reasoning is dropped unless asked for", () => {
    const off = new TrajectoryBuilder("t", {});
    off.reasoning("hmm");
    expect(off.finish(true).events).toEqual([]);
    const on = new TrajectoryBuilder("t", { reasoning: true });
    on.reasoning("hmm");
    expect(on.finish(true).events).toEqual([{ id: "e1", actor: "agent", action: "reasoning", content: "hmm", metadata: { "@turn": "1" } }]);
  });

  test("handoff and guardrail", () => {
    const b = new TrajectoryBuilder("t", {});
    b.handoff("triage", "billing", { [FACT.agent]: "triage" });
    b.guardrail("no_pii", false);
    expect(b.finish(true).events).toEqual([
      {
        id: "e1",
        actor: "agent",
        action: "handoff",
        content: "",
        metadata: { from: "triage", to: "billing", "@agent": "triage", "@turn": "1" },
      },
      { id: "e2", actor: "agent", action: "guardrail", content: "", metadata: { name: "no_pii", triggered: "false", "@turn": "1" } },
    ]);
  });
});

describe("importEach and helpers", () => {
  test("a bad trace is a located error and the other traces still import", () => {
    const result = importEach([{ ok: true }, { ok: false }, { ok: true }], (unit, i) => {
      const b = new TrajectoryBuilder(`t${i}`, {});
      if (!unit.ok) requireString({}, "name", `[${i}].messages[7].tool_calls[0].function`);
      b.result("x", "orphan");
      b.finish(true);
      return b;
    });
    expect(result.trajectories.map((t) => t.id)).toEqual(["t0", "t2"]);
    expect(result.errors).toEqual([{ path: "[1].messages[7].tool_calls[0].function", message: "missing name", trace: 1 }]);
    expect(result.warnings.map((w) => w.trace)).toEqual([0, 2]);
    expect(formatIssue(result.errors[0]!)).toBe("trace 1: [1].messages[7].tool_calls[0].function: missing name");
  });

  test("ImportError shows path: message", () => {
    expect(new ImportError("messages[2]", "bad role").message).toBe("messages[2]: bad role");
  });

  test("traceId", () => {
    expect(traceId({}, "native", 0, 1)).toBe("native");
    expect(traceId({}, undefined, 1, 3)).toBe("trace-2");
    expect(traceId({ id: "mine" }, "native", 0, 1)).toBe("mine");
    expect(traceId({ id: "mine" }, "native", 2, 3)).toBe("mine-3");
  });
});

describe("parseJson", () => {
  test("every JSON value parses, after JSON whitespace; plain text is undefined without a parse attempt", () => {
    for (const text of ['{"a":1}', " \n\t[1, 2]", '"s"', "-1.5", "0", "true", "false", "null", "\r\n  {}"])
      expect(parseJson(text)).toEqual(JSON.parse(text));
    for (const text of ["", "   ", "Exit code: 1\nOutput:\n", "Output: (empty)", "{oops", "\u00a0{}", "\ufeff{}", "undefined"])
      expect(parseJson(text)).toBeUndefined();
  });
});
