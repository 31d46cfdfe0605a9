/**
 * Validation's fast path against its definition (issue 26). Every judge checks each event with
 * one inlined test (`isNormalEvent`) and sends only the events that fail it through `readEvent`,
 * the exact check that names errors and makes normalized copies; ids are proven unique by their
 * order while they increase, by a Set at the end once they do not. That path must decide exactly
 * what the plain definition decides: `readEvent` on every event in order, then the first repeated
 * id, and for a monitor the same one event at a time. This test runs a corpus of malformed and
 * odd trajectories (every branch of the checks: wrong types at each field, metadata values of
 * every kind, prototypes, own `constructor` keys, inherited and non-enumerable keys, symbols,
 * getters, proxies, huge objects, deep lists, repeated ids in and out of order, several faults in
 * one trajectory) and random mixes of them through `validateTrajectory`, a bundled judge.mjs's
 * `judgeTrajectory` and its monitor's `check` and `push`, and compares every error (class,
 * field, message) and every event returned (the caller's own object, or a copy and its contents)
 * with the definition's.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { isNormalEvent, readEvent, type TrajectoryError, validateTrajectory } from "../../runtime/trajectory.js";
import type { JudgeModule } from "../../runtime/judge.js";
import type { TrajectoryEvent } from "../../runtime/types.js";
import { oracleDuplicate, oracleReadEvent, oracleReadHeader } from "../support/validation-oracle.js";
import { mulberry32 as random } from "../oracle/random.js";

const JUDGE_MJS = join(import.meta.dirname, "..", "..", "examples", "refund-support", "judge.mjs");

/** What one way of validating made of a trajectory: its error, or how each event came back. */
function describeError(error: unknown): string {
  if (error instanceof Error && error.name === "TrajectoryError") {
    return `TrajectoryError field=${JSON.stringify((error as TrajectoryError).field)} ${error.message}`;
  }
  return `${error instanceof Error ? error.name : typeof error}: ${error instanceof Error ? error.message : String(error)}`;
}

function describeEvent(event: TrajectoryEvent, raw: unknown): string {
  if (event === raw) return "as given";
  const metadata = event.metadata;
  const proto = metadata === undefined ? "none" : Object.getPrototypeOf(metadata) === null ? "null" : "other";
  return `copy ${JSON.stringify([event.id, event.actor, event.action, event.content, metadata === undefined ? null : Object.entries(metadata)])} metadata prototype ${proto}`;
}

/** The definition (test/support/validation-oracle.ts): the header, each event checked in order, then the first repeated id. */
function definition(raw: unknown): string[] {
  try {
    const header = oracleReadHeader(raw);
    // A plain loop, not `map`: a hole in a sparse list is an event too (undefined, not an object).
    const events: TrajectoryEvent[] = [];
    for (let i = 0; i < header.events.length; i++) events.push(oracleReadEvent(header.events[i], i));
    const seen = new Set<string>();
    for (let k = 0; k < events.length; k++) {
      if (seen.has(events[k]!.id)) throw oracleDuplicate(k, events[k]!.id);
      seen.add(events[k]!.id);
    }
    return events.map((event, i) => describeEvent(event, header.events[i]));
  } catch (error) {
    return [describeError(error)];
  }
}

/** The definition one event at a time (a monitor): each event checked, then its id against the ones before. */
function definitionOneByOne(events: readonly unknown[]): string {
  const seen = new Set<string>();
  for (let i = 0; i < events.length; i++) {
    try {
      const event = oracleReadEvent(events[i], i);
      if (seen.has(event.id)) throw oracleDuplicate(i, event.id);
      seen.add(event.id);
    } catch (error) {
      return `event ${i}: ${describeError(error)}`;
    }
  }
  return "accepted";
}

function viaValidate(raw: unknown): string[] {
  try {
    const checked = validateTrajectory(raw);
    return checked.events.map((event, i) => describeEvent(event, (raw as { events: unknown[] }).events[i]));
  } catch (error) {
    return [describeError(error)];
  }
}

async function viaJudge(judge: JudgeModule, raw: unknown): Promise<string> {
  try {
    await judge.judgeTrajectory(raw);
    return "judged";
  } catch (error) {
    return describeError(error);
  }
}

/** A monitor fed the events one by one, each `check`ed first: `check` must throw what `push` throws, and change nothing. */
function viaMonitor(judge: JudgeModule, events: readonly unknown[]): string {
  const monitor = judge.createMonitor({ id: "t" });
  for (let i = 0; i < events.length; i++) {
    let checked = "ok";
    try {
      monitor.check(events[i]);
    } catch (error) {
      checked = describeError(error);
    }
    try {
      monitor.push(events[i]);
    } catch (error) {
      const pushed = describeError(error);
      return checked === pushed ? `event ${i}: ${pushed}` : `check and push differ at event ${i}: ${checked} / ${pushed}`;
    }
    if (checked !== "ok") return `check threw but push did not at event ${i}: ${checked}`;
  }
  return "accepted";
}

// Odd values, each a way for one field to be off normal (or normal in an unusual way).
class Meta {
  k = "v";
}
class WithGetter {
  k = "v";
  get status(): string {
    return "approved";
  }
}
const inherited = (): Record<string, unknown> => Object.assign(Object.create({ inheritedKey: "x" }) as object, { k: "v" });
const nullProto = (entries: Record<string, unknown>): Record<string, unknown> => Object.assign(Object.create(null) as object, entries);
const withHidden = (): Record<string, unknown> => Object.defineProperty({ k: "v" }, "hidden", { value: 7, enumerable: false });
const withSymbol = (): Record<string | symbol, unknown> => ({ k: "v", [Symbol("s")]: 1 });
const withGetter = (value: unknown): Record<string, unknown> =>
  Object.defineProperty({ a: "x" }, "g", { get: () => value, enumerable: true });
const throwingGetter = (): Record<string, unknown> =>
  Object.defineProperty({ a: "x" }, "g", {
    get: () => {
      throw new Error("getter failed");
    },
    enumerable: true,
  });
const nested = (depth: number): unknown => {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
const huge = (n: number, last: unknown): Record<string, unknown> => {
  const object: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) object[`k${i}`] = `v${i}`;
  object.last = last;
  return object;
};
const fromJson = (text: string): unknown => JSON.parse(text);

const METADATA: [string, () => unknown][] = [
  ["absent", () => undefined],
  ["null", () => null],
  ["strings", () => ({ status: "approved", order_id: "A-1" })],
  ["empty", () => ({})],
  ["a number value", () => ({ a: "x", n: 1 })],
  ["a boolean value", () => ({ b: true })],
  ["a null value", () => ({ z: null })],
  ["an undefined value", () => ({ u: undefined })],
  ["an object value", () => ({ o: { p: "q" } })],
  ["a list value", () => ({ l: [1, "two", [3]] })],
  ["a symbol value", () => ({ s: Symbol("v") })],
  ["a bigint value", () => ({ n: 10n })],
  ["a function value", () => ({ f: () => 1 })],
  ["a list nested 101 deep", () => ({ ok: "v", deep: nested(101) })],
  ["a list nested 100 deep", () => ({ deep: nested(100) })],
  ["a value String() cannot convert", () => fromJson('{"k":[{"toString":1}]}')],
  ["a key that is not a name, non-string", () => ({ "a b": 2 })],
  ["an own constructor key, a string", () => fromJson('{"constructor":"x","k":"v"}')],
  ["an own constructor key, Object", () => ({ constructor: Object, k: "v" })],
  ["a __proto__ key from JSON", () => fromJson('{"__proto__":"p","k":"v"}')],
  ["a __proto__ key from JSON, a number", () => fromJson('{"__proto__":5}')],
  ["index keys", () => ({ 0: "a", 1: "b", k: "v" })],
  ["an index key, a number", () => ({ 0: 1 })],
  ["a null prototype", () => nullProto({ k: "v" })],
  ["a null prototype, a number value", () => nullProto({ k: 1 })],
  ["a class instance", () => new Meta()],
  ["a class instance with a getter", () => new WithGetter()],
  ["an inherited enumerable key", inherited],
  ["a non-enumerable own key", withHidden],
  ["a symbol key", withSymbol],
  ["a getter giving a string", () => withGetter("s")],
  ["a getter giving a number", () => withGetter(3)],
  ["a getter that throws", throwingGetter],
  ["a proxy of strings", () => new Proxy({ k: "v" }, {})],
  ["a frozen object", () => Object.freeze({ k: "v" })],
  ["a Map", () => new Map([["k", "v"]])],
  ["a Date", () => new Date(0)],
  ["a list", () => ["a"]],
  ["a string", () => "x"],
  ["a number", () => 3],
  ["true", () => true],
  ["a function", () => () => "x"],
  ["10,000 strings", () => huge(10_000, "v")],
  ["10,000 strings and a number last", () => huge(10_000, 1)],
];

const CONTENT: [string, () => unknown][] = [
  ["absent", () => undefined],
  ["a string", () => "hello"],
  ["empty", () => ""],
  ["null", () => null],
  ["a number", () => 7],
  ["an object", () => ({ text: "hi" })],
  ["a list", () => ["hi"]],
  ["false", () => false],
];

const ACTOR: unknown[] = ["agent", "tool", "user", "Agent", "robot", "", 1, null, undefined, ["agent"]];
const ACTION: unknown[] = ["issue_refund", "send_email", "message", "", 0, null, undefined, {}, "get_order_result"];
const ID: unknown[] = ["e1", "", 1, null, undefined, ["e1"], "x"];

/** An event of `id`, normal but for the given fields. */
function event(id: unknown, fields: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = { id, actor: "agent", action: "message" };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) delete base[key];
    else base[key] = value;
  }
  return base;
}

function trajectory(events: unknown[]): Record<string, unknown> {
  return { id: "t", complete: true, events };
}

/** Single-fault trajectories: every odd value at each field of the middle of three events. */
function singleFaults(): [string, () => Record<string, unknown>][] {
  const cases: [string, () => Record<string, unknown>][] = [];
  const around = (name: string, middle: () => unknown) =>
    cases.push([name, () => trajectory([event("e1"), middle(), event("e3", { metadata: { k: "v" } })])]);
  for (const [name, metadata] of METADATA) around(`metadata ${name}`, () => event("e2", { metadata: metadata(), content: "c" }));
  for (const [name, content] of CONTENT) around(`content ${name}`, () => event("e2", { content: content() }));
  for (const actor of ACTOR) around(`actor ${String(actor)}`, () => event("e2", { actor }));
  for (const action of ACTION) around(`action ${String(action)}`, () => event("e2", { action }));
  for (const id of ID) around(`id ${String(id)}`, () => event(id));
  for (const [name, value] of [
    ["null", null],
    ["a string", "e2"],
    ["a number", 2],
    ["a list", [event("e2")]],
    ["undefined", undefined],
    ["a class instance", Object.assign(new Meta(), event("e2"))],
    ["a null-prototype object", nullProto(event("e2"))],
    ["a getter for its action", Object.defineProperty(event("e2"), "action", { get: () => "send_email", enumerable: true })],
  ] as [string, unknown][])
    around(`the event ${name}`, () => value);
  return cases;
}

/** Trajectories with several faults, repeated ids and odd headers: which error comes first. */
function combinations(): [string, () => unknown][] {
  return [
    ["a repeat in order", () => trajectory([event("e1"), event("e2"), event("e2")])],
    ["a repeat out of order", () => trajectory([event("b"), event("a"), event("c"), event("a")])],
    ["a repeat, then a bad event", () => trajectory([event("e1"), event("e1"), event("e3", { actor: "robot" })])],
    [
      "ids out of order, a repeat, then a bad event",
      () => trajectory([event("z"), event("y"), event("y"), event("x", { content: 1, metadata: { d: nested(200) } })]),
    ],
    ["two bad events", () => trajectory([event("e1", { metadata: [1] }), event("", { actor: "robot" })])],
    ["a converted event repeating an id", () => trajectory([event("e1", { content: 3 }), event("e1", { metadata: { n: 1 } })])],
    ["shortlex order: e9, e10, e11", () => trajectory([event("e9"), event("e10"), event("e11")])],
    ["shortlex order broken by length", () => trajectory([event("e10"), event("e9"), event("e10")])],
    [
      "the same id at the end of a long run",
      () => trajectory([...Array.from({ length: 300 }, (_, i) => event(`e${i + 1}`)), event("e150")]),
    ],
    ["no events", () => trajectory([])],
    ["a header that is a list", () => []],
    ["a header that is null", () => null],
    ["no id", () => ({ complete: true, events: [] })],
    ["a description that is a number", () => ({ id: "t", complete: true, events: [], description: 3 })],
    ["a description that is null", () => ({ id: "t", complete: true, events: [event("e1")], description: null })],
    ["complete a string", () => ({ id: "t", complete: "yes", events: [] })],
    ["events an object", () => ({ id: "t", complete: true, events: {} })],
    ["a sparse event list", () => ({ id: "t", complete: true, events: [event("e1"), , event("e3")] })], // eslint-disable-line no-sparse-arrays
  ];
}

/** Random trajectories: mostly normal events, each field of some drawn from the odd values above, ids sometimes repeated or out of order. */
function randomTrajectory(seed: number): unknown {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const count = Math.floor(next() * 12);
  const events: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const odd = next() < 0.25;
    const idRoll = next();
    const id =
      idRoll < 0.05 ? pick(ID) : idRoll < 0.12 ? `e${Math.floor(next() * (i + 1)) + 1}` : idRoll < 0.15 ? `z${count - i}` : `e${i + 1}`;
    const fields: Record<string, unknown> = {
      actor: pick(["agent", "tool", "user"]),
      action: pick(["issue_refund", "send_email", "message", "get_order_result"]),
    };
    if (next() < 0.7) fields.content = "c";
    if (next() < 0.6) fields.metadata = { status: pick(["approved", "found", "declined"]), order_id: "A-1" };
    if (odd) {
      const which = Math.floor(next() * 4);
      if (which === 0) fields.metadata = pick(METADATA)[1]();
      else if (which === 1) fields.content = pick(CONTENT)[1]();
      else if (which === 2) fields.actor = pick(ACTOR);
      else fields.action = pick(ACTION);
    }
    events.push(event(id, fields));
  }
  return trajectory(events);
}

describe("validation: the fast path decides what the definition decides", () => {
  const judge = import(pathToFileURL(JUDGE_MJS).href) as Promise<JudgeModule>;

  async function compare(name: string, make: () => unknown): Promise<void> {
    const expected = definition(make());
    expect(viaValidate(make()), name).toEqual(expected);
    const judged = await viaJudge(await judge, make());
    expect(judged, name).toBe(
      expected.length === 1 && !expected[0]!.startsWith("as given") && !expected[0]!.startsWith("copy") ? expected[0] : "judged",
    );
    const raw = make() as { events?: unknown };
    if (raw !== null && typeof raw === "object" && Array.isArray(raw.events)) {
      expect(viaMonitor(await judge, raw.events), name).toBe(definitionOneByOne(raw.events));
    }
  }

  test.each(singleFaults())("one event off normal: %s", async (name, make) => {
    await compare(name, make);
  });

  test.each(combinations())("several faults, repeats and headers: %s", async (name, make) => {
    await compare(name, make);
  });

  test("2,000 random trajectories, each judged, validated and monitored as the definition says", async () => {
    let errors = 0;
    let copies = 0;
    for (let seed = 1; seed <= 2000; seed++) {
      const expected = definition(randomTrajectory(seed));
      if (expected.length === 1 && expected[0]!.startsWith("TrajectoryError")) errors++;
      if (expected.some((line) => line.startsWith("copy"))) copies++;
      await compare(`seed ${seed}`, () => randomTrajectory(seed));
    }
    // The mix reaches both outcomes often: the comparison is not of valid trajectories only.
    expect(errors).toBeGreaterThan(300);
    expect(copies).toBeGreaterThan(100);
  });

  test("the fast path only ever accepts what the definition returns as is, and readEvent agrees with the definition", () => {
    for (const [, metadata] of METADATA) {
      for (const [, content] of CONTENT) {
        const raw = event("e1", { metadata: metadata(), content: content() });
        let exact: unknown;
        try {
          exact = oracleReadEvent(raw, 0);
        } catch (error) {
          exact = describeError(error);
        }
        let fast: unknown;
        try {
          fast = isNormalEvent(raw);
        } catch (error) {
          // What throws from a getter throws the same from both.
          fast = describeError(error);
          expect(exact).toBe(fast);
        }
        if (fast === true) expect(exact).toBe(raw);
        let runtime: unknown;
        try {
          runtime = readEvent(raw, 0);
        } catch (error) {
          runtime = describeError(error);
        }
        expect(typeof runtime === "string" ? runtime : describeEvent(runtime as TrajectoryEvent, raw)).toBe(
          typeof exact === "string" ? exact : describeEvent(exact as TrajectoryEvent, raw),
        );
      }
    }
  });
});
