/**
 * Issue 24, "Failures that explain themselves": cited events are listed in
 * trajectory order in every output (a condition clause cited `[e10, e5]`),
 * and an imported event shows the native id it came from next to its
 * synthetic one (`e4 (call call_9)`). The judgment itself keeps its order.
 */
import { describe, expect, test } from "vitest";
import { citationsInOrder, eventOrigin } from "../../runtime/citations.js";
import { formatJudgment, moreCitations } from "../../runtime/format-judgment.js";
import type { Clause, Trajectory, TrajectoryJudgment } from "../../runtime/types.js";
import { renderHtmlReport } from "../../compiler/report/html.js";
import { renderJunit } from "../../compiler/report/junit.js";
import { renderTrajectoryText } from "../../compiler/report/text.js";
import { runCli } from "../support/cli.js";

const AIRLINE = "examples/airline-cancellations";

const trajectory: Trajectory = {
  id: "t1",
  description: "",
  complete: true,
  events: [
    { id: "a", actor: "user", action: "message", content: "cancel both" },
    { id: "b", actor: "agent", action: "lookup", content: "{}", metadata: { "@call_id": "call_7", "@turn": "2" } },
    { id: "c", actor: "tool", action: "lookup_result", content: "ok", metadata: { "@call_id": "call_7", "@span_id": "span9" } },
    { id: "d", actor: "agent", action: "cancel", content: "{}", metadata: { status: "x" } },
  ],
};

const clause: Clause = {
  kind: "predicate",
  check: "condition",
  quote: "cancel only what the fare allows",
  verdict: "false",
  naReason: null,
  citations: [
    { eventId: "d", description: "the cancel" },
    { eventId: "b", description: "the lookup" },
    { eventId: "c", description: "its result" },
  ],
};

const judgment: TrajectoryJudgment = {
  behavior: "airline",
  trajectoryId: "t1",
  verdict: "false",
  metaBehaviors: [{ name: "Fare rule", verdict: "false", naReason: null, triggered: true, clauses: [clause] }],
};

describe("citationsInOrder", () => {
  const positions = new Map([
    ["a", 0],
    ["b", 1],
    ["c", 2],
    ["d", 3],
  ]);

  test("sorts by the event's position, keeps the judgment's order without positions, and events not in the trajectory go last", () => {
    expect(citationsInOrder(clause.citations, positions, 10).map((c) => c.eventId)).toEqual(["b", "c", "d"]);
    expect(citationsInOrder(clause.citations, undefined, 10).map((c) => c.eventId)).toEqual(["d", "b", "c"]);
    const withUnknown = [{ eventId: "zz", description: "" }, ...clause.citations];
    expect(citationsInOrder(withUnknown, positions, 10).map((c) => c.eventId)).toEqual(["b", "c", "d", "zz"]);
  });

  test("shows the first `limit` in trajectory order, not the first `limit` cited", () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ eventId: `e${29 - i}`, description: "" }));
    const order = new Map(Array.from({ length: 30 }, (_, i) => [`e${i}`, i] as const));
    expect(citationsInOrder(many, order, 3).map((c) => c.eventId)).toEqual(["e0", "e1", "e2"]);
  });

  test("the origin is the native call, span and item id, and nothing for an event no importer wrote", () => {
    expect(eventOrigin(trajectory.events[2])).toBe("call call_7, span span9");
    expect(eventOrigin({ id: "x", metadata: { "@item_id": "msg_1" } })).toBe("item msg_1");
    expect(eventOrigin(trajectory.events[3])).toBeUndefined();
    expect(eventOrigin(trajectory.events[0])).toBeUndefined();
  });
});

describe("every output lists citations in trajectory order, with the native ids", () => {
  test("the text report", () => {
    const text = renderTrajectoryText(judgment, "t.json", { model: false, events: trajectory.events });
    expect(text).toContain(`[b (call call_7), c (call call_7, span span9), d]`);
    // Without the trajectory (watch keeps no events), the judgment's order, and no origins.
    expect(renderTrajectoryText(judgment, "t.json", { model: false })).toContain(` [d, b, c]`);
  });

  test("the text report given the raw trajectory: only the cited ids are looked up, with the order and origins of its events", () => {
    expect(renderTrajectoryText(judgment, "t.json", { model: false, trajectory })).toContain(
      `[b (call call_7), c (call call_7, span span9), d]`,
    );
    // An id's position is its last event's (as a map of every event gave), entries that are not events are skipped, an id
    // no event has goes last, and a second clause reads the same lookup.
    const raw = {
      id: "t1",
      events: [
        { id: "c", metadata: { "@call_id": "early" } },
        null,
        "d",
        { id: 7 },
        ...trajectory.events,
        { id: "b", metadata: { "@item_id": "late" } },
      ],
    };
    const second: Clause = { ...clause, citations: [{ eventId: "a", description: "" }, ...clause.citations] };
    const cited = { ...clause, citations: [{ eventId: "zz", description: "" }, ...clause.citations] };
    const two: TrajectoryJudgment = { ...judgment, metaBehaviors: [{ ...judgment.metaBehaviors[0]!, clauses: [cited, second] }] };
    const lines = renderTrajectoryText(two, "t.json", { model: false, trajectory: raw }).split("\n");
    expect(lines[2]).toContain(`[c (call call_7, span span9), d, b (item late), zz]`);
    expect(lines[3]).toContain(`[a, c (call call_7, span span9), d, b (item late)]`);
    // A trajectory without events to read keeps the judgment's order.
    expect(renderTrajectoryText(judgment, "t.json", { model: false, trajectory: { id: "t1" } })).toContain(` [d, b, c]`);
  });

  test("the text report shows what eventOrigin gives for each native id alone, and of many citations in order the first ten", () => {
    // eventOrigin reads each native id first and tests it is own only when it is a string (docs/SPEED.md, eighth round).
    const metadata = [{ "@call_id": "c1" }, { "@span_id": "s1" }, { "@item_id": "i1" }, { "@turn": "3" }, { "@call_id": "" }];
    const more = [{ "@span_id": 5 }, {}, undefined, { "@item_id": "i2", "@call_id": "c2" }, { "@span_id": "s3" }, { x: "@call_id" }];
    const events = [...metadata, ...more].map((m, i) => ({
      id: `x${i}`,
      actor: "agent",
      action: "a",
      content: "",
      ...(m ? { metadata: m } : {}),
    }));
    const shown = (e: (typeof events)[number]) => (eventOrigin(e) === undefined ? e.id : `${e.id} (${eventOrigin(e)})`);
    const many: Clause = { ...clause, citations: [...events, { id: "zz" }].map((e) => ({ eventId: e.id, description: "" })) };
    const one: TrajectoryJudgment = { ...judgment, metaBehaviors: [{ ...judgment.metaBehaviors[0]!, clauses: [many] }] };
    const text = renderTrajectoryText(one, "t.json", { model: false, trajectory: { id: "t1", events } });
    expect(text).toContain(` [${events.slice(0, 10).map(shown).join(", ")}, ${moreCitations(2)}]`);
    expect(text).toContain("x1 (span s1), x2 (item i1), x3, x4, x5, x6, x7, x8 (call c2, item i2), x9 (span s3)");
  });

  test("an event whose metadata is null (valid input: none) is cited by its id alone in every output", () => {
    // A trajectory validates with `metadata: null`; the reports read the events as given, so a
    // cited event's null metadata once threw in the text report and formatJudgment.
    const nulled = { ...trajectory, events: trajectory.events.map((e) => ({ ...e, metadata: null })) };
    expect(eventOrigin({ id: "b", metadata: null })).toBeUndefined();
    expect(renderTrajectoryText(judgment, "t.json", { model: false, trajectory: nulled })).toContain(` [b, c, d]`);
    expect(renderTrajectoryText(judgment, "t.json", { model: false, events: nulled.events })).toContain(` [b, c, d]`);
    const html = renderHtmlReport({ rules: [], results: [{ file: "t.json", judgment, trajectory: nulled as unknown as Trajectory }] });
    expect(html).toContain(`<code class="event-id">c</code> <span class="actor">`);
    const nulledTrajectory = nulled as unknown as Trajectory;
    const xml = renderJunit({ files: [{ file: "t.json", judgments: [judgment], trajectories: [nulledTrajectory] }], model: false });
    expect(xml).toContain(`- b agent/lookup "{}" (the lookup)`);
    expect(formatJudgment(judgment, { trajectory: nulledTrajectory })).toMatch(/- b agent\/lookup[^\n]*\n\s+- c tool\/lookup_result/);
  });

  test("the HTML report", () => {
    const html = renderHtmlReport({ rules: [], results: [{ file: "t.json", judgment, trajectory }] });
    const evidence = html.slice(html.indexOf(`<details class="evidence"`));
    const ids = [...evidence.matchAll(/<code class="event-id">([^<]*)<\/code>/g)].map((m) => m[1]);
    expect(ids.slice(0, 3)).toEqual(["b", "c", "d"]);
    expect(evidence).toContain(`<code class="event-id">c</code> <span class="origin">call call_7, span span9</span> <span class="actor">`);
    expect(evidence).toContain(`<code class="event-id">d</code> <span class="actor">`);
  });

  test("the JUnit report", () => {
    const xml = renderJunit({ files: [{ file: "t.json", judgments: [judgment], trajectories: [trajectory] }], model: false });
    const lines = xml.split("\n").filter((l) => /^\s+- /.test(l));
    expect(lines.map((l) => l.trim().replace(/<\/failure>$/, ""))).toEqual([
      `- b (call call_7) agent/lookup "{}" (the lookup)`,
      `- c (call call_7, span span9) tool/lookup_result "ok" (its result)`,
      `- d agent/cancel "{}" (the cancel)`,
    ]);
  });

  test("formatJudgment, and without a trajectory the judgment's order", () => {
    const message = formatJudgment(judgment, { trajectory });
    expect(message).toMatch(/- b \(call call_7\) agent\/lookup[^\n]*\n\s+- c \(call call_7, span span9\)[^\n]*\n\s+- d agent\/cancel/);
    const bare = formatJudgment(judgment);
    expect(bare.split("\n").filter((l) => l.trim().startsWith("- "))).toEqual([
      "      - d (the cancel)",
      "      - b (the lookup)",
      "      - c (its result)",
    ]);
    // The judgment itself is not reordered: only what is printed.
    expect(clause.citations.map((c) => c.eventId)).toEqual(["d", "b", "c"]);
  });
});

describe("through the command, on the main thread and on worker threads", () => {
  const run = (workers: string) =>
    runCli(["judge", `${AIRLINE}/judge.mjs`, `${AIRLINE}/trajectories/task41-run41.json`, "--no-web", "--workers", workers]);

  test.each(["1", "2"])("--workers %s: a condition clause cited [e10, e5] is listed [e5, e10], each with its call id", (workers) => {
    const { stdout } = run(workers);
    expect(stdout).toContain(`[e5 (call call_5daiGzHrLJhKKy6URqKDvO1G), e10 (call call_HpnsUVr01FHdHv0sjv83BNfk)]`);
  });

  test("--json keeps the judgment's own order", () => {
    const json = runCli(["judge", `${AIRLINE}/judge.mjs`, `${AIRLINE}/trajectories/task41-run41.json`, "--json"]);
    const [result] = JSON.parse(json.stdout) as TrajectoryJudgment[];
    const condition = result!.metaBehaviors.flatMap((m) => m.clauses).find((c) => c.check === "condition");
    expect(condition!.citations.map((c) => c.eventId)).toEqual(["e10", "e5"]);
  });
});
