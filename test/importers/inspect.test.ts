/**
 * What is particular to `inspect` (goldens, detection and round trips are in
 * golden.test.ts and roundtrip.test.ts): one trajectory per sample and epoch,
 * `function` naming a tool message's tool, `error` marking a failed call,
 * attachments, samples halted by an error or a limit, located errors, and an
 * import linear in the calls.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { detectFormat, fromInspect } from "../../importers/index.js";
import { IMPORTER_FIXTURES, readFixture } from "../support/importer-fixtures.js";
import { stepsRatio } from "../support/work.js";

const fixture = (file: string): unknown => readFixture(join(IMPORTER_FIXTURES, "inspect", file));
const sample = (id: unknown, messages: unknown[], extra: Record<string, unknown> = {}) => ({
  id,
  epoch: 1,
  input: "x",
  messages,
  ...extra,
});
const log = (samples: unknown[]) => ({ version: 2, status: "success", eval: { task: "t", model: "m" }, samples });
const user = (content: unknown) => ({ role: "user", content });
const assistant = (content: unknown, calls?: [string, string, unknown][]) => ({
  role: "assistant",
  content,
  ...(calls === undefined ? {} : { tool_calls: calls.map(([id, fn, args]) => ({ id, function: fn, arguments: args })) }),
});
const tool = (id: string, fn: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  role: "tool",
  tool_call_id: id,
  function: fn,
  content,
  ...extra,
});

describe("inspect on real logs (inspect_ai's test logs, MIT) and one built from its source", () => {
  test("browser.json: a web-browsing agent's calls and results, named by function; complete", () => {
    const [t] = fromInspect(fixture("browser.json")).trajectories;
    expect(t!.id).toBe("browser/1/epoch-1");
    expect(t!.events.map((e) => e.action)).toEqual([
      "message",
      "web_browser_go",
      "web_browser_go_result",
      "web_browser_click",
      "web_browser_click_result",
      "web_browser_click",
      "web_browser_click_result",
      "web_browser_click",
      "web_browser_click_result",
      "message",
    ]);
    expect(t!.complete).toBe(true);
  });

  test("popularity-cancelled.json: a cancelled eval's logged samples are each complete (the eval's status is not theirs)", () => {
    const ts = fromInspect(fixture("popularity-cancelled.json")).trajectories;
    expect(ts.map((t) => [t.id, t.complete])).toEqual([
      ["popularity/1/epoch-1", true],
      ["popularity/2/epoch-1", true],
      ["popularity/3/epoch-1", true],
    ]);
  });

  test("refund-desk.json: one trajectory per sample and epoch; error results; a limit or a sample error makes it incomplete", () => {
    const ts = fromInspect(fixture("refund-desk.json")).trajectories;
    expect(ts.map((t) => [t.id, t.complete])).toEqual([
      ["refund_desk/refund-two/epoch-1", true],
      ["refund_desk/refund-two/epoch-2", true],
      ["refund_desk/legal/epoch-1", true],
      ["refund_desk/lamp/epoch-1", false],
      ["refund_desk/policy/epoch-1", false],
    ]);
    expect(ts[0]!.events[0]!.content).toBe(
      "Orders A-1001 and A-1002 arrived broken, see the photo. Refund both; I'm dana@example.com.\n[image]",
    );
    expect(ts[0]!.events[9]).toMatchObject({
      action: "issue_refund_result",
      content: "payment processor timeout",
      metadata: { status: "error" },
    });
    // The handover note's text was stored as an attachment: the call carries the text itself.
    expect(ts[2]!.events[6]!.metadata!.text).toMatch(/^Legal question about refunds under consumer law/);
    expect(ts[2]!.events[1]!.metadata!["@server"]).toBe("provider");
  });
});

describe("inspect shapes", () => {
  test("tool messages with error of each type, the old tool_error string, content parts; a result whose call is missing warns", () => {
    const r = fromInspect(
      log([
        sample(1, [
          user("go"),
          assistant("", [
            ["a", "bash", { cmd: "ls" }],
            ["b", "bash", { cmd: "sleep 99" }],
            ["c", "bash", { cmd: "cat x" }],
          ]),
          tool("a", "bash", "", { error: { type: "parsing", message: "bad json" } }),
          tool("b", "bash", [{ type: "text", text: "partial" }], { error: { type: "timeout", message: "timed out" } }),
          tool("c", "bash", "no such file", { tool_error: "file not found" }),
          tool("z", "python", "orphan"),
          assistant("done"),
        ]),
      ]),
    );
    const results = r.trajectories[0]!.events.filter((e) => e.actor === "tool");
    expect(results.map((e) => [e.action, e.content, e.metadata!.status])).toEqual([
      ["bash_result", "bad json", "error"],
      ["bash_result", "partial", "error"],
      ["bash_result", "no such file", "error"],
      ["python_result", "orphan", undefined],
    ]);
    expect(r.warnings).toEqual([{ path: "samples[0].messages[5]", message: 'call id "z" answers no earlier call', trace: 0 }]);
  });

  test("a missing attachment stays as written, with a warning; a bare sample and a list of samples import too", () => {
    const r = fromInspect(sample("s", [user("attachment://nope"), assistant("ok")], { attachments: {} }));
    expect(r.trajectories[0]!.events[0]!.content).toBe("attachment://nope");
    expect(r.warnings).toEqual([
      { path: "messages[0].content", message: 'attachment "nope" is not in the sample\'s attachments', trace: 0 },
    ]);
    expect(r.trajectories[0]!.id).toBe("s/epoch-1");
    expect(fromInspect([sample(1, [user("a")]), sample(2, [user("b")])]).trajectories).toHaveLength(2);
  });

  test("the user's last word after the answer keeps a sample complete; a tool payload in a user message waits for the model", () => {
    const ends = (messages: unknown[]) => fromInspect(log([sample(1, messages)])).trajectories[0]!.complete;
    expect(ends([user("x"), assistant("done"), user("thanks, bye")])).toBe(true);
    expect(ends([user("x"), assistant("done"), { role: "user", content: "[screenshot]", tool_call_id: ["c1"] }])).toBe(false);
    expect(ends([user("x")])).toBe(false);
  });

  test("detection: eval logs, samples and sample lists are inspect; a chat log is not", () => {
    expect(detectFormat(log([])).format).toBe("inspect");
    expect(detectFormat([sample(1, [user("hi")])]).format).toBe("inspect");
    expect(detectFormat([{ role: "user", content: "hi" }]).format).not.toBe("inspect");
  });
});

describe("inspect bad input: located errors, the other samples still import", () => {
  test("an unknown role, a tool call without function; a header-only log", () => {
    const r = fromInspect(
      log([
        sample(1, [user("a"), assistant("fine")]),
        sample(2, [user("b"), { role: "robot", content: "x" }]),
        sample(3, [user("c"), { role: "assistant", content: "", tool_calls: [{ id: "k", arguments: {} }] }]),
        sample(4, [user("d"), assistant("fine")]),
      ]),
    );
    expect(r.errors).toEqual([
      { path: "samples[1].messages[1]", message: 'unknown role "robot" (expected system, user, assistant or tool)', trace: 1 },
      { path: "samples[2].messages[1].tool_calls[0]", message: "missing function", trace: 2 },
    ]);
    expect(r.trajectories.map((t) => t.id)).toEqual(["t/1/epoch-1", "t/4/epoch-1"]);
    expect(fromInspect({ version: 2, status: "success", eval: { task: "t" } }).errors).toEqual([
      { path: "samples", message: "the log holds no samples (a header-only read, or an eval run with log_samples off)" },
    ]);
  });
});

describe("inspect import is linear in the calls", () => {
  const big = (n: number): unknown => {
    const messages: unknown[] = [user("go")];
    for (let i = 0; i < n; i += 2) {
      messages.push(
        assistant("", [
          [`c${i}`, "lookup", { q: i }],
          [`c${i + 1}`, "lookup", { q: i + 1 }],
        ]),
      );
      messages.push(tool(`c${i + 1}`, "lookup", `{"n": ${i + 1}}`), tool(`c${i}`, "lookup", `{"n": ${i}}`));
    }
    messages.push(assistant("done"));
    return log([sample(1, messages)]);
  };

  test("100,000 calls cost about 4 times 25,000, not 16 times; every result follows its own call", () => {
    const small = big(25_000);
    const large = big(100_000);
    const t = fromInspect(large).trajectories[0]!;
    expect(t.events).toHaveLength(2 + 200_000);
    expect(t.complete).toBe(true);
    const results = t.events.filter((e) => e.actor === "tool");
    expect(results.every((e, i) => e.metadata!.n === String(i % 2 === 0 ? i + 1 : i - 1))).toBe(true);
    fromInspect(small);
    expect(stepsRatio(fromInspect, large, small)).toBeLessThan(8);
  });
});
