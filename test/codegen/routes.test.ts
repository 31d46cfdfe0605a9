/**
 * Routing by action (issue 26): which rules an event's action concerns.
 */
import { describe, expect, test } from "vitest";
import { GROUPS_PER_SWITCH, LITERAL_STEPPERS_LIMIT, UP_FRONT_STEPPERS_LIMIT } from "../../compiler/codegen/emit.js";
import { reportingActions, routeRules, ruleActions } from "../../compiler/codegen/routes.js";
import type { Trajectory } from "../../runtime/types.js";
import { oracleJudge } from "../oracle/evaluate.js";
import { mulberry32 } from "../oracle/random.js";
import { compileYaml, importBundled, parseOrThrow } from "../support/judges.js";

const yaml = (rules: string) => `version: 1\nbehavior: routes\nmetaBehaviors:\n${rules}`;
const rule = (name: string, trigger: string, checks: string) =>
  `  - name: ${name}\n    trigger:\n      description: d\n      match: ${trigger}\n    checks:\n${checks}    semanticChecks: []\n`;
const forbidden = (match: string) => `      - type: forbidden\n        quote: q\n        match: ${match}\n`;

describe("ruleActions", () => {
  test("the actions every pattern names, from strings, equals and in", () => {
    const { ir } = parseOrThrow(
      yaml(rule("a", "{action: pay}", forbidden("[{action: {in: [x, y]}}, {action: {equals: z}, actor: agent}]"))),
    );
    expect([...(ruleActions(ir.metaBehaviors[0]!) as Set<string>)]).toEqual(["pay", "x", "y", "z"]);
  });

  test.each([
    ["a matcher without an action", "{actor: agent}"],
    ["a regex on the action", "{action: {matches: '^pa'}}"],
    ["a negated action", "{action: {not: pay}}"],
  ])("%s makes the rule see every event", (_, match) => {
    const { ir } = parseOrThrow(yaml(rule("a", "{action: pay}", forbidden(match))));
    expect(ruleActions(ir.metaBehaviors[0]!)).toBe("every");
  });

  test("pairing within counts every event", () => {
    const check = `      - type: pairing\n        quote: q\n        each: {action: pay}\n        followedBy: {action: mail}\n        within: 3\n`;
    const { ir } = parseOrThrow(yaml(rule("a", "{action: pay}", check)));
    expect(ruleActions(ir.metaBehaviors[0]!)).toBe("every");
  });

  test("rules with the same actions share a group; a semantic-only rule is in none", () => {
    const semantic = `  - name: s\n    trigger:\n      description: d\n      semantic: true\n    checks: []\n    semanticChecks: [{quote: q, question: Is it?}]\n`;
    const { ir } = parseOrThrow(
      yaml(
        rule("a", "{action: pay}", forbidden("{action: pay}")) +
          rule("b", "{action: pay}", forbidden("{actor: user}")) +
          semantic +
          rule("c", "{action: mail}", forbidden("{action: pay}")),
      ),
    );
    expect(routeRules(ir.metaBehaviors)).toEqual({
      groups: [
        { actions: ["pay"], rules: [0, 3] },
        { actions: ["mail"], rules: [3] },
      ],
      every: [1],
      reporting: {
        actions: [
          { action: "pay", rules: [0, 1, 3] },
          { action: "mail", rules: [1, 3] },
        ],
        every: [1],
      },
    });
  });
});

describe("reportingActions: where a monitor's check must step a rule", () => {
  const actionsOf = (trigger: string, checks: string) => {
    const { ir } = parseOrThrow(yaml(rule("a", trigger, checks)));
    const actions = reportingActions(ir.metaBehaviors[0]!);
    return actions === "every" ? "every" : [...actions].sort();
  };
  const check = (type: string, fields: string) =>
    `      - type: ${type}\n        quote: q\n${fields
      .split("; ")
      .map((f) => `        ${f}\n`)
      .join("")}`;

  test.each([
    [
      "an ordering: its `before` and the trigger, not its `first`",
      check("ordering", "first: {action: look}; before: {action: pay}"),
      ["go", "pay"],
    ],
    [
      "a forbidden check: its `match`, not the `after` that opens its window",
      check("forbidden", "match: {action: pay}; after: {action: stop}"),
      ["go", "pay"],
    ],
    ["a count with max: its `match`", check("count", "match: {action: pay}; max: 2"), ["go", "pay"]],
    ["a count with only min: none, trigger or not", check("count", "match: {action: pay}; min: 1"), []],
    ["a pairing: none", check("pairing", "each: {action: pay}; followedBy: {action: mail}"), []],
    ["a required check: none", check("required", "match: {action: note}; after: {action: stop}"), []],
    [
      "an extended form: every pattern it tests",
      check("ordering", "first: {action: look}; before: {action: pay}; fresh: true"),
      ["go", "look", "pay"],
    ],
    ["pairing within: every event", check("pairing", "each: {action: pay}; followedBy: {action: mail}; within: 2"), "every"],
    ["a `before` that names no action: every event", check("ordering", "first: {action: look}; before: {actor: agent}"), "every"],
  ])("%s", (_, checks, expected) => {
    expect(actionsOf("{action: go}", checks)).toEqual(expected);
  });

  test("a plain check's rule reports in `violations` exactly when reportingActions names an action for it", async () => {
    // reportingActions reads the check types; this ties it to what their lowering reports.
    const plain = [
      check("ordering", "first: {action: look}; before: {action: pay}"),
      check("pairing", "each: {action: pay}; followedBy: {action: mail}"),
      check("required", "match: {action: note}; after: {action: stop}"),
      check("forbidden", "match: {action: pay}; after: {action: stop}"),
      check("count", "match: {action: pay}; max: 2"),
      check("count", "match: {action: pay}; min: 1; distinctBy: metadata.order"),
    ];
    const { ir } = parseOrThrow(yaml(plain.map((c, i) => rule(`r${i}`, "{action: go}", c)).join("")));
    const { compiled } = await compileYaml(yaml(plain.map((c, i) => rule(`r${i}`, "{action: go}", c)).join("")));
    plain.forEach((_, i) => {
      const body = compiled.judgeTs.split(`class Rule${i} `)[1]!.split("violations(found: Found): void {")[1]!.split("\n  }\n")[0]!;
      const actions = reportingActions(ir.metaBehaviors[i]!);
      expect(body.includes("found("), `rule ${i}`).toBe(actions === "every" || actions.size > 0);
    });
  });

  test("a semantic trigger reports nothing while running", () => {
    const semantic = `  - name: s\n    trigger:\n      description: d\n      semantic: true\n    checks:\n${check("forbidden", "match: {action: pay}")}    semanticChecks: []\n`;
    const { ir } = parseOrThrow(yaml(semantic));
    expect([...(reportingActions(ir.metaBehaviors[0]!) as Set<string>)]).toEqual([]);
  });

  test("a clause false before its trigger fires is reported by a check of the trigger's event; a lookup's check steps nothing", async () => {
    const checks = check("forbidden", "match: {action: pay}") + check("ordering", "first: {action: look}; before: {action: pay}");
    const judge = await importBundled((await compileYaml(yaml(rule("a", "{action: go}", checks)))).compiled);
    const monitor = judge.createMonitor({ id: "t" });
    expect(monitor.push({ id: "e1", actor: "agent", action: "pay" })).toEqual([]);
    const go = { id: "e2", actor: "agent" as const, action: "go" };
    const would = monitor.check(go).map((v) => `${v.checkIndex}: ${v.eventIds.join(",")}`);
    expect(would).toEqual(["0: e1", "1: e1"]);
    expect(monitor.check({ id: "e2", actor: "tool", action: "look" })).toEqual([]);
    expect(monitor.push(go).map((v) => `${v.checkIndex}: ${v.eventIds.join(",")}`)).toEqual(would);
  });
});

describe("a routed judge", () => {
  test("past 16 actions it switches on the routes table, and judges and monitors as before", async () => {
    const rules = Array.from({ length: 10 }, (_, i) =>
      rule(`r${i}`, `{action: pay_${i}}`, forbidden(`{action: void_${i}}`) + forbidden(`{action: pay_${i}, metadata: {status: bad}}`)),
    );
    const { compiled } = await compileYaml(yaml(rules.join("")));
    expect(compiled.judgeTs).toMatch(/switch \(routes\.get\(e\.action\)\)/);
    expect(compiled.judgeTs).not.toContain("stepGroups");
    const judge = await importBundled(compiled);
    const events = [
      { id: "e1", actor: "agent" as const, action: "pay_3" },
      { id: "e2", actor: "agent" as const, action: "pay_7", metadata: { status: "bad" } },
      { id: "e3", actor: "agent" as const, action: "other" },
    ];
    const judgment = await judge.judgeTrajectory({ id: "t", complete: true, events });
    expect(judgment.metaBehaviors.map((m) => m.verdict).filter((v) => v !== "na")).toEqual(["true", "false"]);
    expect(judgment.metaBehaviors[7]!.verdict).toBe("false");
    const monitor = judge.createMonitor({ id: "t" });
    expect(monitor.push(events[0])).toEqual([]);
    expect(monitor.check(events[1]).map((v) => v.rule)).toEqual(["r7"]);
    expect(monitor.push(events[1]).map((v) => v.rule)).toEqual(["r7"]);
    expect(monitor.push(events[2])).toEqual([]);
  });

  test(`past ${GROUPS_PER_SWITCH} groups, blocks of them in methods of their own judge as the oracle does`, async () => {
    // 40 rules of every plain check type, each about actions of its own (40 groups: three blocks),
    // and two rules stepped at every event; random sessions over all their actions.
    const types = [
      (i: number) => `      - type: ordering\n        quote: q\n        first: {action: look_${i}}\n        before: {action: pay_${i}}\n`,
      (i: number) => `      - type: required\n        quote: q\n        match: {action: mail_${i}}\n        after: {action: pay_${i}}\n`,
      (i: number) => `      - type: forbidden\n        quote: q\n        match: {action: pay_${i}}\n        after: {action: look_${i}}\n`,
      (i: number) => `      - type: count\n        quote: q\n        match: {action: pay_${i}}\n        max: 2\n`,
      (i: number) => `      - type: pairing\n        quote: q\n        each: {action: pay_${i}}\n        followedBy: {action: mail_${i}}\n`,
    ];
    const rules = Array.from({ length: 40 }, (_, i) => rule(`r${i}`, `{action: pay_${i}}`, types[i % types.length]!(i)));
    rules.push(rule("user", "{actor: user}", types[3]!(0).replace("{action: pay_0}", "{actor: user}")));
    rules.push(rule("late", "{action: pay_39}", `      - type: forbidden\n        quote: q\n        match: {actor: tool}\n`));
    const { ir, compiled } = await compileYaml(yaml(rules.join("")));
    expect(compiled.judgeTs).toContain("stepGroups0(all, e, g)");
    expect(compiled.judgeTs).toContain("private stepGroups2(");
    const judge = await importBundled(compiled);
    const rng = mulberry32(20261206);
    const actors = ["agent", "tool", "user"] as const;
    const essence = (j: Awaited<ReturnType<typeof judge.judgeTrajectory>>) =>
      j.metaBehaviors.map((m) => [m.verdict, m.triggered, m.clauses.map((c) => [c.verdict, c.citations.map((x) => x.eventId)])]);
    let triggered = 0;
    for (let t = 0; t < 60; t++) {
      const events = Array.from({ length: 80 }, (_, k) => {
        const tool = Math.floor(rng() * 40);
        const action = ["look", "pay", "mail"][Math.floor(rng() * 3)]!;
        return { id: `e${k}`, actor: actors[Math.floor(rng() * 3)]!, action: rng() < 0.1 ? "other" : `${action}_${tool}` };
      });
      const trajectory: Trajectory = { id: `t${t}`, description: "d", complete: rng() < 0.7, events };
      const judgment = await judge.judgeTrajectory(trajectory);
      expect(essence(judgment), `trajectory ${t}`).toEqual(essence(oracleJudge(ir, trajectory)));
      triggered += judgment.metaBehaviors.filter((m) => m.triggered).length;
      const monitor = judge.createMonitor({ id: trajectory.id });
      for (const e of events) monitor.push(e);
      expect(JSON.stringify(await monitor.end({ complete: trajectory.complete }))).toBe(JSON.stringify(judgment));
    }
    // About half the rules fire in a session (every tool is named by 80 events drawn from 121 actions), or the agreement would say little.
    expect(triggered).toBeGreaterThan(60 * 15);
  });
});

describe("steppers made when an event first concerns their rule", () => {
  test("untouched rules are untriggered, a semantic-trigger rule still gets its clauses, and a monitor agrees", async () => {
    const semantic =
      `  - name: s\n    trigger:\n      description: d\n      semantic: true\n    checks:\n` +
      `      - type: required\n        quote: needs a note\n        match: {action: note}\n    semanticChecks: []\n`;
    const rules = Array.from({ length: 30 }, (_, i) => rule(`r${i}`, `{action: pay_${i}}`, forbidden(`{action: void_${i}}`)));
    const { compiled } = await compileYaml(yaml(rules.join("") + semantic));
    expect(compiled.judgeTs).toContain("(all[4] ??= new Rule4()).step(e);");
    const judge = await importBundled(compiled);
    const events = [
      { id: "e1", actor: "agent" as const, action: "pay_4" },
      { id: "e2", actor: "agent" as const, action: "void_4" },
    ];
    const judgment = await judge.judgeTrajectory({ id: "t", complete: true, events });
    const byName = new Map(judgment.metaBehaviors.map((m) => [m.name, m]));
    expect(judgment.metaBehaviors).toHaveLength(31);
    expect(byName.get("r4")).toMatchObject({ verdict: "false", triggered: true });
    expect(byName.get("r5")).toEqual({ name: "r5", verdict: "na", naReason: "not_applicable", triggered: false, clauses: [] });
    // No event concerns the semantic rule's check: its stepper is made at the end, in its initial state.
    expect(byName.get("s")!.clauses.map((c) => c.verdict)).toEqual(["na"]);

    const monitor = judge.createMonitor({ id: "t" });
    expect(monitor.check({ id: "c1", actor: "agent", action: "void_9" })).toEqual([]);
    expect(monitor.push(events[0])).toEqual([]);
    expect(monitor.check({ id: "c2", actor: "agent", action: "void_4" }).map((v) => v.rule)).toEqual(["r4"]);
    expect(monitor.pending()).toEqual([]);
    expect(monitor.push(events[1]).map((v) => v.rule)).toEqual(["r4"]);
    expect(JSON.stringify(await monitor.end({ complete: true }))).toBe(JSON.stringify(judgment));
  });
});

describe("Rules.all's first value", () => {
  test("one undefined per rule in a literal up to LITERAL_STEPPERS_LIMIT rules, `fill` past it; the last rule judged either way", async () => {
    for (const count of [LITERAL_STEPPERS_LIMIT, LITERAL_STEPPERS_LIMIT + 1]) {
      const rules = Array.from({ length: count }, (_, i) =>
        rule(`r${i}`, `{action: pay_${i}}`, `      - type: required\n        quote: q\n        match: {action: note_${i}}\n`),
      );
      const { compiled } = await compileYaml(yaml(rules.join("")));
      // As prettier laid it out, without its white space and trailing commas.
      const first = /readonly all: \(RuleStepper \| undefined\)\[\] = ([^;]*);/
        .exec(compiled.judgeTs)![1]!
        .replace(/\s+/g, "")
        .replace(/,([)\]])/g, "$1");
      expect(first).toBe(
        count <= LITERAL_STEPPERS_LIMIT
          ? `[${Array.from({ length: count }, () => "undefined").join(",")}]`
          : `newArray<RuleStepper|undefined>(${count}).fill(undefined)`,
      );
      // And the last rule's stepper is made and owes its match, whichever way `all` starts.
      const judge = await importBundled(compiled);
      const monitor = judge.createMonitor({ id: "t" });
      monitor.push({ id: "e1", actor: "agent", action: `pay_${count - 1}` });
      expect(monitor.pending().map((o) => o.rule)).toEqual([`r${count - 1}`]);
    }
  });
});

describe("steppers made up front in a judge of few rules", () => {
  test("up to UP_FRONT_STEPPERS_LIMIT rules every stepper is made with `Rules`, and judgments and a monitor's reports are those of steppers made lazily", async () => {
    const count = UP_FRONT_STEPPERS_LIMIT;
    const checks = [
      forbidden("{action: void}"),
      `      - type: required\n        quote: q\n        match: {action: note}\n        after: {action: stop}\n`,
      `      - type: ordering\n        quote: q\n        first: {action: look}\n        before: {action: pay}\n`,
      `      - type: pairing\n        quote: q\n        each: {action: pay}\n        followedBy: {action: mail}\n`,
      `      - type: count\n        quote: q\n        match: {action: pay}\n        max: 2\n`,
    ];
    const semantic =
      `  - name: s\n    trigger:\n      description: d\n      semantic: true\n    checks:\n` +
      `      - type: required\n        quote: needs a note\n        match: {action: note}\n    semanticChecks: []\n`;
    const rules = Array.from({ length: count - 1 }, (_, i) =>
      rule(`r${i}`, `{action: ${["pay", "stop", "look"][i % 3]}}`, checks[i % checks.length]!),
    );
    const { compiled } = await compileYaml(yaml(rules.join("") + semantic));
    const madeUpFront = /all = \[([^\]]*)\];/.exec(compiled.judgeMjs)!;
    expect(madeUpFront[1]!.replace(/\s+/g, "").replace(/,$/, "")).toBe(Array.from({ length: count }, (_, r) => `newRule${r}()`).join(","));
    const upFront = await importBundled(compiled);
    // The same judge with its steppers made when an event first concerns their rule, as past the limit.
    const lazyMjs = compiled.judgeMjs.replace(madeUpFront[0], `all = [${"void 0, ".repeat(count)}];`);
    const lazy = await importBundled({ ...compiled, judgeMjs: lazyMjs });

    const rng = mulberry32(18);
    const actions = ["pay", "stop", "look", "void", "note", "mail", "chat"];
    for (let session = 0; session < 200; session++) {
      // Short sessions, so that most leave some rules untouched.
      const events = Array.from({ length: Math.floor(rng() * 6) }, (_, i) => ({
        id: `e${i + 1}`,
        actor: "agent" as const,
        action: actions[Math.floor(rng() * actions.length)]!,
      }));
      const trajectory = { id: `t${session}`, complete: rng() < 0.5, events };
      const judged = JSON.stringify(await upFront.judgeTrajectory(trajectory));
      expect(judged).toBe(JSON.stringify(await lazy.judgeTrajectory(trajectory)));
      const monitors = [upFront, lazy].map((judge) => judge.createMonitor({ id: trajectory.id }));
      for (const e of events) {
        const [a, b] = monitors.map((m) => JSON.stringify([m.check(e), m.push(e), m.pending()]));
        expect(a).toBe(b);
      }
      const [a, b] = await Promise.all(monitors.map(async (m) => JSON.stringify(await m.end({ complete: trajectory.complete }))));
      expect(a).toBe(judged);
      expect(b).toBe(judged);
    }
  });
});

describe("settled rules are stepped no more", () => {
  const check = (type: string, fields: string) =>
    `      - type: ${type}\n        quote: q\n${fields
      .split("; ")
      .map((f) => `        ${f}\n`)
      .join("")}`;
  const judgeYaml = yaml(
    rule("ordering", "{action: pay}", check("ordering", "first: {action: look}; before: {action: pay}")) +
      rule("required", "{action: stop}", check("required", "match: {action: note}; after: {action: stop}")) +
      rule("forbidden", "{action: pay}", check("forbidden", "match: {action: pay}; after: {action: stop}")),
  );
  const events = ["look", "pay", "pay", "look", "stop", "note", "note", "pay", "look"].map((action, i) => ({
    id: `e${i + 1}`,
    actor: "agent" as const,
    action,
  }));

  /** The bundled judge with a count of each rule's `step` calls (`counts[r]`), kept on globalThis under `key`. */
  const counted = async (key: string) => {
    const { compiled } = await compileYaml(judgeYaml);
    let judgeMjs = compiled.judgeMjs;
    for (let r = 0; r < 3; r++) {
      const at = judgeMjs.indexOf(`var Rule${r} = class {`);
      const stepAt = judgeMjs.indexOf("  step(e) {\n", at) + "  step(e) {\n".length;
      judgeMjs = `${judgeMjs.slice(0, stepAt)}globalThis[${JSON.stringify(key)}][${r}]++;\n${judgeMjs.slice(stepAt)}`;
    }
    const counts = [0, 0, 0];
    (globalThis as Record<string, unknown>)[key] = counts;
    return { judge: await importBundled({ ...compiled, judgeMjs }), counts, judgeTs: compiled.judgeTs };
  };

  test("an ordering past its `before` and a required check past its match, trigger fired, cost no more steps", async () => {
    const { judge, counts, judgeTs } = await counted("__settledSteps");
    expect(judgeTs).toContain("if (!rule0.settled) rule0.step(e);");
    expect(judgeTs).toContain("if (this.triggered && this.before0 !== undefined) this.settled = true;");
    expect(judgeTs).toContain("if (this.triggered && this.match0 !== undefined) this.settled = true;");
    // A forbidden check's matches grow at every `pay`: it never settles.
    expect(judgeTs).toContain("(all[2] ??= new Rule2()).step(e);");
    const judgment = await judge.judgeTrajectory({ id: "t", complete: true, events });
    // ordering: look, pay (settled); required: stop, note (settled); forbidden: every pay and stop.
    expect(counts).toEqual([2, 2, 4]);
    expect(judgment.metaBehaviors.map((m) => m.verdict)).toEqual(["true", "true", "false"]);

    // A monitor's pushes step the same, and its checks decide from a plain rule's fields without stepping it.
    counts.fill(0);
    const monitor = judge.createMonitor({ id: "t" });
    for (const event of events) {
      monitor.check({ ...event, id: `c-${event.id}` });
      monitor.push(event);
    }
    expect(counts.slice(0, 2)).toEqual([2, 2]);
    expect(JSON.stringify(await monitor.end({ complete: true }))).toBe(JSON.stringify(judgment));
  });
});
