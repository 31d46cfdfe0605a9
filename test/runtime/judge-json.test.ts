/**
 * `judgeJson(text)` (issue 26, round 19): a judge's entry for a trajectory given as JSON text. It
 * parses the text with the JSON.parse it found when it was loaded and validates what that made
 * without the metadata's prototype test (`readEvents(…, parsed: true)`): JSON.parse's objects are
 * ordinary by construction, and nothing but the runtime holds them before they are checked
 * (docs/ARCHITECTURE.md, "Input JSON.parse made"). It must judge every text as
 * `judgeTrajectory(JSON.parse(text))` does: the same judgment, the same error.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import type { JudgeModule } from "../../runtime/judge.js";
import { readEvents } from "../../runtime/trajectory.js";
import { mulberry32 as random } from "../oracle/random.js";

const EXAMPLE = join(import.meta.dirname, "..", "..", "examples", "refund-support");
const judge = import(pathToFileURL(join(EXAMPLE, "judge.mjs")).href) as Promise<JudgeModule>;

/** An example file's trajectory as JSON text: a labeled case's `trajectory`, or the file's value. */
function exampleText(name: string): string {
  const value = JSON.parse(readFileSync(join(EXAMPLE, "trajectories", name), "utf8")) as { trajectory?: unknown };
  return JSON.stringify(value.trajectory ?? value);
}

/** A judgment, or the error that took its place: class, field and message. */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    return `judged ${JSON.stringify(await run())}`;
  } catch (error) {
    const field = (error as { field?: unknown }).field;
    return `${error instanceof Error ? error.name : typeof error} ${JSON.stringify(field)} ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Metadata as JSON text: what the library path copies (own `constructor` and `__proto__` keys,
 * values that are not strings) beside what it takes as is, with the keys the refund judge's
 * rules read, so that the copies and the originals are judged, not only validated.
 */
const METADATA = [
  "",
  ',"metadata":null',
  ',"metadata":{}',
  ',"metadata":{"status":"approved","order_id":"A-1"}',
  ',"metadata":{"status":"declined","order_id":"A-2"}',
  ',"metadata":{"template":"refund_confirmation"}',
  ',"metadata":{"kind":"handover"}',
  ',"metadata":{"constructor":"x","status":"approved","order_id":"A-1"}',
  ',"metadata":{"status":"found","constructor":"Object","order_id":"A-1"}',
  ',"metadata":{"constructor":5,"order_id":"A-1"}',
  ',"metadata":{"__proto__":"x","status":"approved","order_id":"A-1"}',
  ',"metadata":{"__proto__":{"status":"approved"},"order_id":"A-1"}',
  ',"metadata":{"toString":"x","hasOwnProperty":"y","order_id":"A-1"}',
  ',"metadata":{"toString":1,"order_id":"A-1"}',
  ',"metadata":{"order_id":7,"amount":19.5,"ok":true,"none":null}',
  ',"metadata":{"order_id":["A-1",["A-2"]],"status":{"a":1}}',
  ',"metadata":"status"',
  ',"metadata":[]',
  ',"metadata":3',
];
const ACTIONS = [
  '"issue_refund"',
  '"get_order_result"',
  '"issue_refund_result"',
  '"send_email"',
  '"escalate_to_supervisor"',
  '"add_case_note"',
  '"message"',
  '""',
  "5",
];
const ACTORS = ['"agent"', '"tool"', '"user"', '"robot"', "null"];
const CONTENTS = ["", ',"content":"c"', ',"content":null', ',"content":4', ',"content":{"a":"b"}'];

/** A random trajectory as JSON text: mostly valid events, ids mostly in order, some repeated, some not strings. */
function randomText(seed: number): string {
  const next = random(seed);
  const pick = (items: readonly string[]): string => items[Math.floor(next() * items.length)]!;
  const odd = (rate: number, normal: string, items: readonly string[]): string => (next() < rate ? pick(items) : normal);
  const count = Math.floor(next() * 14);
  const events: string[] = [];
  for (let i = 0; i < count; i++) {
    const roll = next();
    const id =
      roll < 0.03
        ? "5"
        : roll < 0.05
          ? '""'
          : roll < 0.12
            ? `"e${Math.floor(next() * (i + 1)) + 1}"`
            : roll < 0.16
              ? `"z${count - i}"`
              : `"e${i + 1}"`;
    const actor = odd(0.05, pick(['"agent"', '"tool"', '"user"']), ACTORS);
    const action = odd(0.05, pick(ACTIONS.slice(0, 7)), ACTIONS);
    const content = odd(0.1, next() < 0.7 ? ',"content":"c"' : "", CONTENTS);
    events.push(`{"id":${id},"actor":${actor},"action":${action}${content}${pick(METADATA)}}`);
  }
  const header = next() < 0.03 ? '"id":"","complete":true' : `"id":"t${seed}","complete":${next() < 0.8}`;
  const event = (next() < 0.02 ? "[1," : "[") + events.join(",") + "]";
  return next() < 0.01 ? `[${event}]` : `{${header},"events":${event}}`;
}

describe("judgeJson: judgeTrajectory of JSON.parse's value, with less to check", () => {
  test("every example trajectory of the refund judge", async () => {
    const { judgeJson, judgeTrajectory } = await judge;
    const files = readdirSync(join(EXAMPLE, "trajectories")).filter((name) => name.endsWith(".json"));
    expect(files.length).toBeGreaterThan(5);
    for (const name of files) {
      const text = exampleText(name);
      expect(await outcome(() => judgeTrajectory(JSON.parse(text))), name).toMatch(/^judged/);
      expect(await outcome(() => judgeJson(text)), name).toBe(await outcome(() => judgeTrajectory(JSON.parse(text))));
    }
  });

  test("3,000 random texts, valid and not: the same judgment or the same error", async () => {
    const { judgeJson, judgeTrajectory } = await judge;
    const seen = { judged: 0, copied: 0, errors: 0 };
    for (let seed = 1; seed <= 3000; seed++) {
      const text = randomText(seed);
      const expected = await outcome(() => judgeTrajectory(JSON.parse(text)));
      expect(await outcome(() => judgeJson(text)), text).toBe(expected);
      if (expected.startsWith("judged")) seen.judged++;
      else seen.errors++;
      if (expected.startsWith("judged") && /"constructor":"|"__proto__":"/.test(text)) seen.copied++;
    }
    // Both outcomes, and judged trajectories whose metadata the library path copies and judgeJson does not.
    expect(seen.judged).toBeGreaterThan(800);
    expect(seen.errors).toBeGreaterThan(800);
    expect(seen.copied).toBeGreaterThan(200);
  });

  test("text that is not JSON throws JSON.parse's SyntaxError; anything but a string is refused before parsing", async () => {
    const { judgeJson } = await judge;
    await expect(judgeJson('{"id":"t",')).rejects.toThrow(SyntaxError);
    const text = { toString: () => '{"id":"t","complete":true,"events":[]}' };
    await expect(judgeJson(text as unknown as string)).rejects.toThrow(TypeError);
  });

  test("a JSON.parse put in the global's place after the judge was loaded does not reach it", async () => {
    const { judgeJson, judgeTrajectory } = await judge;
    const text = exampleText("clean-single-refund.json");
    const expected = await outcome(() => judgeTrajectory(JSON.parse(text)));
    expect(expected).toMatch(/^judged/);
    const original = JSON.parse;
    // A replacement that hands back what JSON text cannot hold: metadata of a class, behind a getter.
    class Status {
      get status(): string {
        throw new Error("read a getter");
      }
    }
    JSON.parse = ((source: string) => {
      const value = original(source) as { events: { metadata?: unknown }[] };
      for (const event of value.events) event.metadata = new Status();
      return value;
    }) as typeof JSON.parse;
    let judged: Promise<string>;
    try {
      judged = outcome(() => judgeJson(text));
    } finally {
      JSON.parse = original;
    }
    expect(await judged).toBe(expected);
  });
});

describe("readEvents of events JSON.parse made (parsed: true)", () => {
  test("a metadata object with its own constructor key is used as it is, where the library path copies it", () => {
    const events = JSON.parse('[{"id":"e1","actor":"agent","action":"a","metadata":{"constructor":"x","k":"v"}}]') as unknown[];
    expect(readEvents(events, undefined, true)[0]).toBe(events[0]);
    const copied = readEvents(events)[0]!;
    expect(copied).not.toBe(events[0]);
    expect(copied.metadata).toEqual({ constructor: "x", k: "v" });
  });

  test("a value that is not a string is still converted, and a wrong field still named", () => {
    const events = JSON.parse('[{"id":"e1","actor":"agent","action":"a","metadata":{"n":5}}]') as unknown[];
    expect(readEvents(events, undefined, true)[0]!.metadata!.n).toBe("5");
    const bad = JSON.parse('[{"id":"e1","actor":"agent","action":"a","metadata":[]}]') as unknown[];
    expect(() => readEvents(bad, undefined, true)).toThrow("events[0].metadata must be an object of key: value pairs");
  });
});
