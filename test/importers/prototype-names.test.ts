/**
 * Prototype names in the fields importers look things up by (issue 20 item
 * 17): a `type`, `role`, class name, tool name or attribute key such as
 * `constructor`, `__proto__` or `toString` is a name like any other. Every
 * importer is fuzzed with them over every recorded fixture: no exception, no
 * event whose action or content is a function of Object.prototype, every
 * metadata value a string, and Object.prototype untouched.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { FORMATS, fromLangChain, fromOpenAIChat, fromOpenAIResponses, fromOtel, importTrace } from "../../importers/index.js";
import type { ImportResult } from "../../importers/index.js";
import { IMPORTER_FIXTURES, fixtureFiles, readFixture } from "../support/importer-fixtures.js";

const PROTOTYPE_NAMES = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "prototype"];
/** The fuzz uses fewer, one of each kind: a function of Object.prototype, the accessor, a method. */
const FUZZ_NAMES = ["constructor", "__proto__", "toString"];

/** The fields whose value an importer uses as a name, a kind or a key. */
const NAMED_FIELDS = new Set([
  "type",
  "role",
  "name",
  "id",
  "object",
  "run_type",
  "key",
  "toolName",
  "call_id",
  "tool_call_id",
  "tool_use_id",
  "toolCallId",
  "parent_id",
  "parentSpanId",
  "parent_run_id",
  "stop_reason",
  "finish_reason",
  "finishReason",
  "status",
  "stringValue",
  "from_agent",
  "to_agent",
]);

/** Every place a named field holds a string (or, for lc class paths, an element of an `id` list). */
function namedPlaces(value: unknown): (string | number)[][] {
  const places: (string | number)[][] = [];
  const stack: { v: unknown; path: (string | number)[] }[] = [{ v: value, path: [] }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (Array.isArray(v)) v.forEach((child, i) => stack.push({ v: child, path: [...path, i] }));
    else if (typeof v === "object" && v !== null)
      for (const [key, child] of Object.entries(v)) {
        if (typeof child === "string" && NAMED_FIELDS.has(key)) places.push([...path, key]);
        if (key === "id" && Array.isArray(child)) child.forEach((_, i) => places.push([...path, key, i]));
        stack.push({ v: child, path: [...path, key] });
      }
  }
  return places;
}

function setAt(root: unknown, path: readonly (string | number)[], value: string): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  // defineProperty: `__proto__` becomes an own value, as JSON.parse writes it.
  Object.defineProperty(node, path[path.length - 1]!, { value, enumerable: true, writable: true, configurable: true });
}

/** What must hold for any result: plain strings everywhere, nothing from Object.prototype (checked by hand: expect() per value is slow). */
function expectSane(result: ImportResult, label: string): void {
  const problems: string[] = [];
  if (JSON.stringify(result).includes("[native code]")) problems.push("a function's source in the output");
  for (const t of result.trajectories)
    for (const e of t.events) {
      if (typeof e.action !== "string" || typeof e.content !== "string") problems.push(`${e.id}: action or content is no string`);
      if (e.metadata === undefined) continue;
      if (Object.getPrototypeOf(e.metadata) !== Object.prototype) problems.push(`${e.id}: metadata's prototype replaced`);
      for (const v of Object.values(e.metadata)) if (typeof v !== "string") problems.push(`${e.id}: a metadata value is no string`);
    }
  for (const issue of [...result.errors, ...result.warnings])
    if (typeof issue.message !== "string") problems.push("an issue without a message");
  if (problems.length > 0) expect(problems, label).toEqual([]);
}

const prototypeKeys = (): string => Object.getOwnPropertyNames(Object.prototype).sort().join(",");

describe("item 17: prototype names in type fields", () => {
  test("fuzz: every importer, every fixture, every named field set to each prototype name", () => {
    const before = prototypeKeys();
    let runs = 0;
    for (const format of FORMATS) {
      for (const file of fixtureFiles(format.name)) {
        const original = readFixture(join(IMPORTER_FIXTURES, format.name, file));
        const places = namedPlaces(original);
        // Up to 25 places per fixture, spread over the file.
        const step = Math.max(1, Math.floor(places.length / 25));
        for (let p = 0; p < places.length; p += step) {
          for (const name of FUZZ_NAMES) {
            const input = structuredClone(original);
            setAt(input, places[p]!, name);
            const label = `${format.name}/${file} ${places[p]!.join(".")} = ${name}`;
            expectSane(format.importer(input), label);
            if (runs % 10 === 0) expectSane(importTrace(input), `${label} (auto)`);
            runs++;
          }
        }
      }
    }
    expect(runs).toBeGreaterThan(500);
    expect(prototypeKeys()).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("a content part of type constructor or toString is a placeholder naming it, not Object's source", () => {
    const result = fromOpenAIChat([
      { role: "user", content: [{ type: "constructor" }, { type: "toString" }, { type: "text", text: "hi" }] },
    ]);
    expect(result.trajectories[0]!.events[0]!.content).toBe("[constructor]\n[toString]\nhi");
  });

  test("langchain: a message of type constructor is an error, not silently dropped; an lc class toString likewise", () => {
    const result = fromLangChain([
      { type: "human", content: "refund" },
      { type: "constructor", content: "dropped before" },
    ]);
    expect(result.errors).toEqual([
      { path: "[1]", message: "not a LangChain message (expected {type, data}, an lc-serialized message, or {type, content})", trace: 0 },
    ]);
    const lc = fromLangChain([{ lc: 1, type: "constructor", id: ["langchain_core", "messages", "toString"], kwargs: { content: "x" } }]);
    expect(lc.errors).toHaveLength(1);
  });

  test("openai-responses: an item of type constructor is an unknown item with a warning, not a call of Object", () => {
    const result = fromOpenAIResponses({
      input: [
        { type: "constructor", id: "x" },
        { type: "function_call", name: "f", call_id: "c", arguments: "{}" },
      ],
      output: [],
    });
    expect(result.trajectories[0]!.events.map((e) => e.action)).toEqual(["f"]);
    expect(result.warnings).toEqual([{ path: "input[0]", message: 'item of type "constructor" is not imported', trace: 0 }]);
  });

  test("tool names, argument and result keys, OTel attribute keys named after the prototype are kept as they are", () => {
    for (const name of PROTOTYPE_NAMES) {
      const result = fromOpenAIChat([
        { role: "user", content: "x" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c", type: "function", function: { name, arguments: `{"${name}": "a"}` } }],
        },
        { role: "tool", tool_call_id: "c", content: `{"${name}": {"${name}": "b"}}` },
      ]);
      const [, call, answer] = result.trajectories[0]!.events;
      expect([call!.action, answer!.action]).toEqual([name, `${name}_result`]);
      expect(Object.getOwnPropertyDescriptor(call!.metadata, name)?.value).toBe("a");
      expect(Object.getOwnPropertyDescriptor(answer!.metadata, `${name}.${name}`)?.value).toBe("b");
      const otel = fromOtel({
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: "0123456789abcdef0123456789abcdef",
                    spanId: "0000000000000001",
                    name: "chat",
                    attributes: [
                      { key: "openinference.span.kind", value: { stringValue: "LLM" } },
                      { key: `llm.output_messages.0.message.${name}`, value: { stringValue: "x" } },
                      { key: "llm.output_messages.0.message.role", value: { stringValue: "assistant" } },
                      { key: "llm.output_messages.0.message.content", value: { stringValue: "hello" } },
                      { key: name, value: { kvlistValue: { values: [{ key: "gen_ai.tool.name", value: { stringValue: "evil" } }] } } },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      });
      expect(otel.trajectories[0]!.events.map((e) => [e.action, e.content])).toEqual([["message", "hello"]]);
    }
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });
});
