/** Trajectory validation inside every judge (docs/FORMATS.md §2): errors name the field; normal input is not copied. */
import { describe, expect, test } from "vitest";
import { EventIds, TrajectoryError, validateTrajectory } from "../../runtime/trajectory.js";

const event = (id: string, extra: Record<string, unknown> = {}) => ({ id, actor: "agent", action: "act", ...extra });
const trajectory = (events: unknown[], extra: Record<string, unknown> = {}) => ({ id: "t", complete: true, events, ...extra });

function fieldOf(raw: unknown): string {
  try {
    validateTrajectory(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(TrajectoryError);
    return `${(error as TrajectoryError).field}: ${(error as Error).message}`;
  }
  return "valid";
}

describe("validateTrajectory", () => {
  test.each([
    [[], "", "a trajectory must be a JSON object"],
    [{ complete: true, events: [] }, "id", "id must be a non-empty string"],
    [{ id: "t", events: [] }, "complete", "complete must be true or false"],
    [{ id: "t", complete: "yes", events: [] }, "complete", "complete must be true or false"],
    [{ id: "t", complete: true }, "events", "events must be an array"],
    [{ id: "t", complete: true, events: [], description: 3 }, "description", "description must be a string"],
    [trajectory(["x"]), "events[0]", "events[0] must be an object"],
    [trajectory([event("e1"), { actor: "agent", action: "a" }]), "events[1].id", "events[1].id must be a non-empty string"],
    [trajectory([event("e1", { actor: "robot" })]), "events[0].actor", "events[0].actor must be user, agent, or tool"],
    [trajectory([event("e1", { action: "" })]), "events[0].action", "events[0].action must be a non-empty string"],
    [trajectory([event("e1", { metadata: [1] })]), "events[0].metadata", "events[0].metadata must be an object of key: value pairs"],
    [trajectory([event("e1", { metadata: "x" })]), "events[0].metadata", "events[0].metadata must be an object of key: value pairs"],
  ])("rejects %j at %s", (raw, field, message) => {
    expect(fieldOf(raw)).toBe(`${field}: ${message}`);
  });

  test("duplicate ids are found whether or not ids come in order", () => {
    expect(fieldOf(trajectory([event("e1"), event("e2"), event("e2")]))).toBe(
      'events[2].id: events[2].id duplicates the id "e2" of an earlier event',
    );
    expect(fieldOf(trajectory([event("b"), event("a"), event("c"), event("a")]))).toBe(
      'events[3].id: events[3].id duplicates the id "a" of an earlier event',
    );
    expect(fieldOf(trajectory([event("e9"), event("e10"), event("e11")]))).toBe("valid");
    expect(fieldOf(trajectory([event("z"), event("y"), event("x")]))).toBe("valid");
  });

  test("normal events are used as they are; others are normalized copies", () => {
    const normal = event("e1", { content: "hi", metadata: { k: "v" } });
    const bare = event("e2");
    const raw = trajectory([normal, bare]);
    const checked = validateTrajectory(raw);
    expect(checked.events).toBe(raw.events);
    expect(checked.events[0]).toBe(normal);
    expect(checked.description).toBe("");

    const odd = event("e3", { content: 7, metadata: { n: 1, b: true, z: null } });
    const copied = validateTrajectory(trajectory([normal, odd]));
    expect(copied.events[0]).toBe(normal);
    expect(copied.events[1]).toEqual({ id: "e3", actor: "agent", action: "act", content: "", metadata: { n: "1", b: "true", z: "null" } });
    expect((odd as unknown as { content: unknown }).content).toBe(7);
  });

  // The validation loop takes events in normal form as they are without calling readEvent; each
  // way of being one field off normal must still reach readEvent and come back a normalized copy.
  test.each([
    ["content a number", { content: 7 }, { content: "", metadata: undefined }],
    ["content null", { content: null }, { content: "", metadata: undefined }],
    ["metadata null", { metadata: null }, { content: "", metadata: undefined }],
    ["a metadata value a number", { content: "c", metadata: { a: "x", n: 1 } }, { content: "c", metadata: { a: "x", n: "1" } }],
    ["a metadata value null", { metadata: { z: null } }, { content: "", metadata: { z: "null" } }],
    ["metadata with a null prototype", { metadata: Object.assign(Object.create(null), { k: "v" }) }, { content: "", metadata: { k: "v" } }],
    [
      "metadata a class instance",
      {
        metadata: new (class Meta {
          k = "v";
        })(),
      },
      { content: "", metadata: { k: "v" } },
    ],
  ])("an event with %s is copied in normal form", (_what, extra, normal) => {
    const odd = event("e2", extra);
    const checked = validateTrajectory(trajectory([event("e1"), odd]));
    expect(checked.events[1]).not.toBe(odd);
    expect({ ...checked.events[1]! }).toEqual({ id: "e2", actor: "agent", action: "act", ...normal });
    const metadata = checked.events[1]!.metadata;
    if (metadata !== undefined) expect(Object.getPrototypeOf(metadata)).toBe(null);
  });

  test("null content, metadata and description count as absent, as in a JSON producer's output", () => {
    const checked = validateTrajectory(trajectory([event("e1", { content: null, metadata: null })]));
    expect(checked.events[0]).toEqual({ id: "e1", actor: "agent", action: "act", content: "", metadata: undefined });
    expect(fieldOf(trajectory([event("e1", { metadata: null })]))).toBe("valid");
    expect(validateTrajectory(trajectory([], { description: null })).description).toBe("");
  });

  test("a metadata value nested too deep to convert is a located error that states the limit", () => {
    // String(v) flattens an array one recursion per level: 200,000 levels overflowed the stack.
    const nested = (depth: number): unknown => {
      let value: unknown = "x";
      for (let i = 0; i < depth; i++) value = [value];
      return value;
    };
    const deep = JSON.parse(
      `{"id":"t","complete":true,"events":[{"id":"e1","actor":"tool","action":"a","metadata":{"ok":"v","a b":${"[".repeat(200_000)}${"]".repeat(200_000)}}}]}`,
    );
    expect(fieldOf(deep)).toBe(
      'events[0].metadata["a b"]: events[0].metadata["a b"] nests lists more than 100 deep (metadata values are compared as strings)',
    );
    expect(fieldOf(trajectory([event("e1"), event("e2", { metadata: { k: nested(101) } })]))).toBe(
      "events[1].metadata.k: events[1].metadata.k nests lists more than 100 deep (metadata values are compared as strings)",
    );
    expect(validateTrajectory(trajectory([event("e1", { metadata: { k: [nested(99), 2] } })])).events[0]!.metadata).toEqual({ k: "x,2" });
  });

  test("a metadata value String(v) cannot convert is a located error", () => {
    const raw = JSON.parse(
      '{"id":"t","complete":true,"events":[{"id":"e1","actor":"tool","action":"a","metadata":{"k":[{"toString":1}]}}]}',
    );
    expect(fieldOf(raw)).toBe("events[0].metadata.k: events[0].metadata.k cannot be converted to a string");
  });

  test("a metadata key named __proto__ stays an ordinary key", () => {
    const raw = JSON.parse('{"id":"t","complete":true,"events":[{"id":"e1","actor":"tool","action":"a","metadata":{"__proto__":5}}]}');
    const md = validateTrajectory(raw).events[0]!.metadata!;
    expect(Object.keys(md)).toEqual(["__proto__"]);
    expect(md["__proto__"]).toBe("5");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("createJudge", () => {
  test("keeps its own copy of the rules: mutating the table it was given changes nothing", async () => {
    const { createJudge } = await import("../../runtime/judge.js");
    const semanticChecks = [{ quote: "q", question: "Is it so?" }];
    const rules = [{ name: "r", trigger: { description: "d", kind: "match" as const }, checks: [], semanticChecks }];
    const noChecks = { step() {}, finish: () => [], violations() {}, obligations() {}, check() {} };
    const asked: string[] = [];
    const judge = createJudge({
      behavior: "b",
      rules,
      steppers: () => ({ all: [noChecks], stepper: () => noChecks, step() {}, concerned: () => [0], reporting: () => [0] }),
    });
    semanticChecks[0]!.question = "Tampered?";
    rules[0]!.name = "renamed";
    const judgment = await judge.judgeTrajectory(
      { id: "t", complete: true, events: [{ id: "e1", actor: "agent", action: "a" }] },
      {
        complete: async (messages) => {
          asked.push(messages.map((m) => m.content).join("\n"));
          return JSON.stringify({ verdict: "true", na_reason: null, reasoning: "r", citations: [{ event_id: "e1", description: "d" }] });
        },
      },
    );
    expect(asked.join("")).toContain("Is it so?");
    expect(asked.join("")).not.toContain("Tampered?");
    expect(judgment.metaBehaviors[0]!.name).toBe("r");
  });
});

describe("EventIds (a monitor's ids, one at a time)", () => {
  const isNew = (ids: EventIds, id: string): boolean => {
    try {
      ids.assertNew(id, 0);
      return true;
    } catch (error) {
      expect((error as Error).message).toBe(`events[0].id duplicates the id ${JSON.stringify(id)} of an earlier event`);
      return false;
    }
  };
  // Ids added in shortlex order, then asked about out of order (what a `check` of an event
  // numbered otherwise does): every repeat is found, every other id is new, and asking changes nothing.
  const added = ["e1", "e2", "e3", "e9", "e10", "e11", "e100", "f1"];
  const others = ["", "a", "e", "e0", "e4", "e12", "e99", "e101", "f", "f0", "f2", "z", "c1"];

  test("in order: a repeat anywhere in the list is found, and an id out of order is looked up, not added", () => {
    const ids = new EventIds();
    for (const id of added) {
      expect(isNew(ids, id)).toBe(true);
      ids.add(id);
    }
    for (let round = 0; round < 2; round++) {
      for (const id of added) expect(isNew(ids, id)).toBe(false);
      for (const id of others) expect(isNew(ids, id)).toBe(true);
    }
  });

  test("an id added out of order: repeats of it and of every earlier id are still found", () => {
    const ids = new EventIds();
    for (const id of added) ids.add(id);
    ids.add("c1");
    ids.add("g1");
    for (const id of [...added, "c1", "g1"]) expect(isNew(ids, id)).toBe(false);
    for (const id of others.filter((id) => id !== "c1")) expect(isNew(ids, id)).toBe(true);
  });
});
