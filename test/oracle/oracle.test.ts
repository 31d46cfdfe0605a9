import { describe, expect, it } from "vitest";
import type { Actor, Clause, Trajectory, TrajectoryEvent } from "../../runtime/types.js";
import type { Check, JudgeIR, Matcher, MetaBehavior, Pattern, SemanticCheck, Trigger } from "../../compiler/ir/types.js";
import { oracleJudge } from "./evaluate.js";
import { mulberry32, randomCase, randomCases } from "./random.js";

// ---------------------------------------------------------------- builders

function ev(
  id: string,
  action: string,
  opts: { actor?: Actor; content?: string; metadata?: Record<string, string> } = {},
): TrajectoryEvent {
  return {
    id,
    actor: opts.actor ?? "agent",
    action,
    content: opts.content ?? "",
    metadata: opts.metadata ?? {},
  };
}

function traj(events: TrajectoryEvent[], complete = true): Trajectory {
  return { id: "t1", description: "", complete, events };
}

const act = (action: string): Pattern => [{ action }];
const anyEvent: Pattern = [{ actor: "agent" }, { actor: "user" }, { actor: "tool" }];

function meta(checks: Check[], opts: Partial<MetaBehavior> = {}): MetaBehavior {
  const trigger: Trigger = opts.trigger ?? { description: "always", match: anyEvent };
  return {
    name: opts.name ?? "Rule",
    trigger,
    checks,
    semanticChecks: opts.semanticChecks ?? [],
  };
}

function irOf(...metas: MetaBehavior[]): JudgeIR {
  return { version: 1, behavior: "b", metaBehaviors: metas };
}

/** The single clause produced by judging one check under an always-firing trigger. */
function clauseOf(check: Check, trajectory: Trajectory): Clause {
  const judgment = oracleJudge(irOf(meta([check])), trajectory);
  const clause = judgment.metaBehaviors[0]?.clauses[0];
  if (clause === undefined) throw new Error("no clause");
  return clause;
}

/** verdict, reason and cited ids: what the differential test compares. */
function summary(clause: Clause): { verdict: string; naReason: string | null; cited: string[] } {
  return {
    verdict: clause.verdict,
    naReason: clause.naReason,
    cited: clause.citations.map((c) => c.eventId),
  };
}

function judgeCheck(check: Check, trajectory: Trajectory) {
  return summary(clauseOf(check, trajectory));
}

const T = (cited: string[]) => ({ verdict: "true", naReason: null, cited });
const F = (cited: string[]) => ({ verdict: "false", naReason: null, cited });
const NA_NA = { verdict: "na", naReason: "not_applicable", cited: [] };
const NA_IE = { verdict: "na", naReason: "insufficient_evidence", cited: [] };

const sem = (quote: string): SemanticCheck => ({ quote, question: `${quote}?` });

// ---------------------------------------------------------------- matchers

describe("matcher", () => {
  const e = ev("x", "run", {
    actor: "tool",
    content: "All Tests OK",
    metadata: { status: "passed", stage: "canary" },
  });
  const matches = (m: Matcher) => clauseOf({ type: "required", quote: "q", match: [m] }, traj([e])).verdict;

  it("requires every given field to hold", () => {
    expect(matches({ action: "run", actor: "tool" })).toBe("true");
    expect(matches({ action: "run", actor: "agent" })).toBe("false");
    expect(matches({ action: "ru" })).toBe("false");
  });

  it("matches content as a case-sensitive substring", () => {
    expect(matches({ contentIncludes: "Tests OK" })).toBe("true");
    expect(matches({ contentIncludes: "tests ok" })).toBe("false");
  });

  it("compares metadata values exactly, on own keys only", () => {
    expect(matches({ metadata: { status: "passed", stage: "canary" } })).toBe("true");
    expect(matches({ metadata: { status: "pass" } })).toBe("false");
    expect(matches({ metadata: { host: "web-1" } })).toBe("false");
  });

  it("treats a pattern list as any-of", () => {
    const check: Check = { type: "required", quote: "q", match: [{ action: "nope" }, { actor: "tool" }] };
    expect(clauseOf(check, traj([e])).verdict).toBe("true");
  });
});

// ---------------------------------------------------------------- checks

describe("ordering", () => {
  const check: Check = { type: "ordering", quote: "search before answer", first: act("search"), before: act("answer") };

  it("is true when the first first-match precedes the first before-match, citing both", () => {
    const t = traj([ev("1", "x"), ev("2", "search"), ev("3", "answer"), ev("4", "search"), ev("5", "answer")]);
    expect(judgeCheck(check, t)).toEqual(T(["2", "3"]));
  });

  it("is false when a before-match has no earlier first-match, even if incomplete", () => {
    const events = [ev("1", "answer"), ev("2", "search"), ev("3", "answer")];
    expect(judgeCheck(check, traj(events, true))).toEqual(F(["1"]));
    expect(judgeCheck(check, traj(events, false))).toEqual(F(["1"]));
  });

  it("is false when only before-matches exist", () => {
    expect(judgeCheck(check, traj([ev("1", "answer")]))).toEqual(F(["1"]));
  });

  it("is na(c) without a before-match", () => {
    const events = [ev("1", "search")];
    expect(judgeCheck(check, traj(events, true))).toEqual(NA_NA);
    expect(judgeCheck(check, traj(events, false))).toEqual(NA_IE);
  });

  it("does not let an event matching both sides precede itself", () => {
    const both: Check = { type: "ordering", quote: "q", first: [{ actor: "agent" }], before: act("answer") };
    expect(judgeCheck(both, traj([ev("1", "answer")]))).toEqual(F(["1"]));
    expect(judgeCheck(both, traj([ev("1", "answer", { actor: "user" }), ev("2", "answer")]))).toEqual(F(["1"]));
    expect(judgeCheck(both, traj([ev("1", "think"), ev("2", "answer")]))).toEqual(T(["1", "2"]));
  });
});

describe("pairing", () => {
  const check: Check = { type: "pairing", quote: "each call gets a result", each: act("call"), followedBy: act("result") };

  it("is true when every each-match has a later follower, citing pairs without duplicates", () => {
    const t = traj([ev("1", "call"), ev("2", "call"), ev("3", "result"), ev("4", "call"), ev("5", "result")]);
    expect(judgeCheck(check, t)).toEqual(T(["1", "3", "2", "4", "5"]));
  });

  it("is false when complete and some each-match has no later follower, citing the unmatched", () => {
    const t = traj([ev("1", "call"), ev("2", "result"), ev("3", "call"), ev("4", "call")]);
    expect(judgeCheck(check, t)).toEqual(F(["3", "4"]));
  });

  it("needs a strictly later follower", () => {
    expect(judgeCheck(check, traj([ev("1", "result"), ev("2", "call")]))).toEqual(F(["2"]));
  });

  it("is na insufficient_evidence when unmatched but incomplete", () => {
    expect(judgeCheck(check, traj([ev("1", "call")], false))).toEqual(NA_IE);
  });

  it("is na(c) without an each-match", () => {
    expect(judgeCheck(check, traj([ev("1", "result")], true))).toEqual(NA_NA);
    expect(judgeCheck(check, traj([ev("1", "result")], false))).toEqual(NA_IE);
  });

  it("lets an event be both an each-match and a follower, never its own follower", () => {
    // Every agent event must be followed by a later agent event or a tool event.
    const both: Check = { type: "pairing", quote: "q", each: [{ actor: "agent" }], followedBy: [{ actor: "agent" }, { actor: "tool" }] };
    const followed = traj([ev("1", "a"), ev("2", "b"), ev("3", "c", { actor: "tool" })]);
    expect(judgeCheck(both, followed)).toEqual(T(["1", "2", "3"]));
    expect(judgeCheck(both, traj([ev("1", "a"), ev("2", "b")]))).toEqual(F(["2"]));
  });
});

describe("required", () => {
  const check: Check = { type: "required", quote: "must test", match: act("test") };
  const windowed: Check = { type: "required", quote: "test after edit", match: act("test"), after: act("edit") };

  it("is true when a match exists, citing the first", () => {
    expect(judgeCheck(check, traj([ev("1", "x"), ev("2", "test"), ev("3", "test")]))).toEqual(T(["2"]));
  });

  it("is false with no match in a complete trace, citing nothing", () => {
    expect(judgeCheck(check, traj([ev("1", "x")], true))).toEqual(F([]));
  });

  it("is na insufficient_evidence with no match in an incomplete trace", () => {
    expect(judgeCheck(check, traj([ev("1", "x")], false))).toEqual(NA_IE);
  });

  it("looks only strictly after the FIRST after-match", () => {
    const t = traj([ev("1", "test"), ev("2", "edit"), ev("3", "edit"), ev("4", "test")]);
    expect(judgeCheck(windowed, t)).toEqual(T(["4"]));
    expect(judgeCheck(windowed, traj([ev("1", "test"), ev("2", "edit")]))).toEqual(F([]));
  });

  it("is na(c) when the after window never opens", () => {
    expect(judgeCheck(windowed, traj([ev("1", "test")], true))).toEqual(NA_NA);
    expect(judgeCheck(windowed, traj([ev("1", "test")], false))).toEqual(NA_IE);
  });
});

describe("forbidden", () => {
  const check: Check = { type: "forbidden", quote: "never delete", match: act("delete") };
  const windowed: Check = { type: "forbidden", quote: "no delete after lock", match: act("delete"), after: act("lock") };

  it("is true with no match, citing nothing", () => {
    expect(judgeCheck(check, traj([ev("1", "x")], true))).toEqual(T([]));
    expect(judgeCheck(check, traj([ev("1", "x")], false))).toEqual(T([]));
  });

  it("is false on any match, even if incomplete, citing all matches", () => {
    const events = [ev("1", "delete"), ev("2", "x"), ev("3", "delete")];
    expect(judgeCheck(check, traj(events, true))).toEqual(F(["1", "3"]));
    expect(judgeCheck(check, traj(events, false))).toEqual(F(["1", "3"]));
  });

  it("ignores matches up to and including the first after-match", () => {
    const both: Check = { type: "forbidden", quote: "q", match: [{ actor: "agent" }], after: act("lock") };
    const t = traj([ev("1", "lock"), ev("2", "x", { actor: "user" })]);
    expect(judgeCheck(both, t)).toEqual(T([]));
    expect(judgeCheck(windowed, traj([ev("1", "delete"), ev("2", "lock"), ev("3", "delete")]))).toEqual(F(["3"]));
  });

  it("is na(c) only when the after window never opens", () => {
    expect(judgeCheck(windowed, traj([ev("1", "delete")], true))).toEqual(NA_NA);
    expect(judgeCheck(windowed, traj([ev("1", "delete")], false))).toEqual(NA_IE);
  });
});

describe("count", () => {
  const retries = (bounds: { min?: number; max?: number }, complete = true, extra: Partial<Check> = {}) => {
    const check = { type: "count", quote: "q", match: act("retry"), ...bounds, ...extra } as Check;
    return (events: TrajectoryEvent[]) => judgeCheck(check, traj(events, complete));
  };
  const three = [ev("1", "retry"), ev("2", "x"), ev("3", "retry"), ev("4", "retry")];

  it("is true within bounds, citing the counted matches", () => {
    expect(retries({ min: 1, max: 3 })(three)).toEqual(T(["1", "3", "4"]));
    expect(retries({ max: 0 })([ev("1", "x")])).toEqual(T([]));
  });

  it("is false above max, even if incomplete, citing the counted matches", () => {
    expect(retries({ max: 2 }, true)(three)).toEqual(F(["1", "3", "4"]));
    expect(retries({ max: 2 }, false)(three)).toEqual(F(["1", "3", "4"]));
  });

  it("is false below min when complete, na insufficient_evidence when incomplete", () => {
    expect(retries({ min: 4 }, true)(three)).toEqual(F(["1", "3", "4"]));
    expect(retries({ min: 4 }, false)(three)).toEqual(NA_IE);
    expect(retries({ min: 1 }, true)([ev("1", "x")])).toEqual(F([]));
  });

  it("lets max win over an unmet min in an incomplete trace", () => {
    expect(retries({ min: 5, max: 2 }, false)(three)).toEqual(F(["1", "3", "4"]));
  });

  it("counts only inside the after window, na(c) when it never opens", () => {
    const after = { after: act("x") } as Partial<Check>;
    expect(retries({ max: 1 }, true, after)(three)).toEqual(F(["3", "4"]));
    expect(retries({ max: 1 }, true, after)([ev("1", "retry")])).toEqual(NA_NA);
    expect(retries({ max: 1 }, false, after)([ev("1", "retry")])).toEqual(NA_IE);
  });

  it("distinctBy content keeps the first match per content", () => {
    const events = [
      ev("1", "retry", { content: "a" }),
      ev("2", "retry", { content: "b" }),
      ev("3", "retry", { content: "a" }),
      ev("4", "retry"),
      ev("5", "retry"),
    ];
    expect(retries({ max: 3 }, true, { distinctBy: "content" } as Partial<Check>)(events)).toEqual(T(["1", "2", "4"]));
    expect(retries({ max: 2 }, true, { distinctBy: "content" } as Partial<Check>)(events)).toEqual(F(["1", "2", "4"]));
  });

  it("distinctBy metadata.<key> drops matches lacking the key", () => {
    const events = [
      ev("1", "retry"),
      ev("2", "retry", { metadata: { host: "web-1" } }),
      ev("3", "retry", { metadata: { host: "web-2" } }),
      ev("4", "retry", { metadata: { host: "web-1" } }),
      ev("5", "retry", { metadata: { stage: "web-3" } }),
    ];
    const byHost = { distinctBy: "metadata.host" } as Partial<Check>;
    expect(retries({ min: 2, max: 2 }, true, byHost)(events)).toEqual(T(["2", "3"]));
    expect(retries({ min: 3 }, true, byHost)(events)).toEqual(F(["2", "3"]));
    // An inherited property is not a metadata key.
    const byCtor = { distinctBy: "metadata.constructor" } as Partial<Check>;
    expect(retries({ min: 1 }, true, byCtor)(events)).toEqual(F([]));
  });
});

// ---------------------------------------------------------------- clauses and metas

describe("meta-behaviors", () => {
  const failing: Check = { type: "forbidden", quote: "never x", match: act("x") };
  const passing: Check = { type: "required", quote: "some x", match: act("x") };
  const naCheck: Check = { type: "required", quote: "edit then y", match: act("y"), after: act("edit") };

  it("marks every false predicate clause unverified and only those", () => {
    const m = oracleJudge(irOf(meta([failing, passing, naCheck])), traj([ev("1", "x")])).metaBehaviors[0];
    expect(m?.clauses.map((c) => c.verification)).toEqual(["unverified", undefined, undefined]);
    expect(m?.clauses.map((c) => c.kind)).toEqual(["predicate", "predicate", "predicate"]);
    expect(m?.clauses.map((c) => c.quote)).toEqual(["never x", "some x", "edit then y"]);
    expect(m?.verdict).toBe("false");
    expect(m?.naReason).toBeNull();
  });

  it("adds semantic checks as na clauses when no predicate is false", () => {
    const m = oracleJudge(irOf(meta([passing], { semanticChecks: [sem("cites sources"), sem("is polite")] })), traj([ev("1", "x")]))
      .metaBehaviors[0];
    expect(m?.clauses.map((c) => [c.kind, c.quote, c.verdict, c.naReason])).toEqual([
      ["predicate", "some x", "true", null],
      ["semantic", "cites sources", "na", "insufficient_evidence"],
      ["semantic", "is polite", "na", "insufficient_evidence"],
    ]);
    expect(m?.clauses[1]?.reasoning).toMatch(/\S/);
    expect(m?.clauses[1]?.citations).toEqual([]);
    // [true, na, na] folds to true.
    expect(m?.verdict).toBe("true");
    expect(m?.triggered).toBe(true);
  });

  it("short-circuits semantic checks after a false predicate", () => {
    const m = oracleJudge(irOf(meta([failing], { semanticChecks: [sem("s")] })), traj([ev("1", "x")])).metaBehaviors[0];
    expect(m?.clauses.map((c) => c.kind)).toEqual(["predicate"]);
    expect(m?.verdict).toBe("false");
  });

  it("folds a meta with only semantic checks to na insufficient_evidence", () => {
    const m = oracleJudge(irOf(meta([], { semanticChecks: [sem("s")] })), traj([ev("1", "x")])).metaBehaviors[0];
    expect(m).toMatchObject({ verdict: "na", naReason: "insufficient_evidence", triggered: true });
  });

  it("takes the reason of the first na clause when all clauses are na", () => {
    const m = oracleJudge(irOf(meta([naCheck], { semanticChecks: [sem("s")] })), traj([ev("1", "x")], true)).metaBehaviors[0];
    expect(m?.clauses.map((c) => c.naReason)).toEqual(["not_applicable", "insufficient_evidence"]);
    expect(m).toMatchObject({ verdict: "na", naReason: "not_applicable", triggered: true });
  });

  it("stops at a match trigger that never fires, with na(c) and no clauses", () => {
    const gated = meta([failing], { trigger: { description: "on deploy", match: act("deploy") } });
    for (const complete of [true, false]) {
      const m = oracleJudge(irOf(gated), traj([ev("1", "x")], complete)).metaBehaviors[0];
      expect(m).toEqual({
        name: "Rule",
        verdict: "na",
        naReason: complete ? "not_applicable" : "insufficient_evidence",
        triggered: false,
        clauses: [],
      });
    }
  });

  it("lets a fired trigger judge the whole trajectory, not just what follows it", () => {
    const gated = meta([failing], { trigger: { description: "on deploy", match: act("deploy") } });
    const m = oracleJudge(irOf(gated), traj([ev("1", "x"), ev("2", "deploy")])).metaBehaviors[0];
    expect(m?.verdict).toBe("false");
    expect(m?.clauses[0]?.citations.map((c) => c.eventId)).toEqual(["1"]);
  });

  it("stops at a semantic trigger without a model, recording one semantic clause", () => {
    const gated = meta([failing], {
      trigger: { description: "when tax is discussed", semantic: true },
      semanticChecks: [sem("s")],
    });
    const m = oracleJudge(irOf(gated), traj([ev("1", "x")], true)).metaBehaviors[0];
    expect(m).toMatchObject({ verdict: "na", naReason: "insufficient_evidence", triggered: false });
    expect(m?.clauses).toHaveLength(1);
    expect(m?.clauses[0]).toMatchObject({
      kind: "semantic",
      quote: "when tax is discussed",
      verdict: "na",
      naReason: "insufficient_evidence",
      citations: [],
    });
    expect(m?.clauses[0]?.reasoning).toMatch(/model/i);
  });
});

describe("file verdict", () => {
  const yes: Check = { type: "required", quote: "some x", match: act("x") };
  const no: Check = { type: "forbidden", quote: "never x", match: act("x") };
  const untriggered = (checks: Check[]) => meta(checks, { name: "Gated", trigger: { description: "d", match: act("never") } });

  it("folds [true, na] to true", () => {
    const j = oracleJudge(irOf(meta([yes], { name: "A" }), untriggered([no])), traj([ev("1", "x")]));
    expect(j.metaBehaviors.map((m) => m.verdict)).toEqual(["true", "na"]);
    expect(j.verdict).toBe("true");
  });

  it("folds any false to false and all na to na", () => {
    const x = traj([ev("1", "x")]);
    expect(oracleJudge(irOf(meta([yes], { name: "A" }), meta([no], { name: "B" })), x).verdict).toBe("false");
    expect(oracleJudge(irOf(untriggered([yes])), x).verdict).toBe("na");
  });

  it("carries the behavior and trajectory id", () => {
    const j = oracleJudge({ version: 1, behavior: "refunds", metaBehaviors: [meta([yes])] }, traj([ev("1", "x")]));
    expect(j).toMatchObject({ behavior: "refunds", trajectoryId: "t1" });
  });

  it("makes every meta na insufficient_evidence on an empty trajectory, even complete", () => {
    const semanticGate = meta([yes], { name: "S", trigger: { description: "d", semantic: true } });
    const j = oracleJudge(irOf(meta([no], { name: "A" }), semanticGate), traj([], true));
    expect(j.verdict).toBe("na");
    for (const m of j.metaBehaviors) {
      expect(m).toMatchObject({ verdict: "na", naReason: "insufficient_evidence", triggered: false, clauses: [] });
    }
  });
});

// ---------------------------------------------------------------- random cases

/** docs/FORMATS.md §3 constraints, checked independently of the real schema. */
function irProblems(ir: JudgeIR): string[] {
  const problems: string[] = [];
  const nonEmpty = (value: unknown, where: string) => {
    if (typeof value !== "string" || value.length === 0) problems.push(`${where}: empty or not a string`);
  };
  const checkPattern = (pattern: Pattern | undefined, where: string) => {
    if (!Array.isArray(pattern) || pattern.length === 0) return problems.push(`${where}: empty pattern`);
    pattern.forEach((m, i) => {
      const at = `${where}[${i}]`;
      const keys = Object.keys(m);
      if (keys.length === 0) problems.push(`${at}: empty matcher`);
      for (const k of keys) {
        if (!["action", "actor", "contentIncludes", "metadata"].includes(k)) problems.push(`${at}: unknown ${k}`);
      }
      if (m.action !== undefined) nonEmpty(m.action, `${at}.action`);
      if (m.contentIncludes !== undefined) nonEmpty(m.contentIncludes, `${at}.contentIncludes`);
      if (m.actor !== undefined && !["user", "agent", "tool"].includes(m.actor)) problems.push(`${at}: actor`);
      if (m.metadata !== undefined) {
        const entries = Object.entries(m.metadata);
        if (entries.length === 0) problems.push(`${at}: empty metadata`);
        for (const [k, v] of entries) {
          nonEmpty(k, `${at}.metadata key`);
          nonEmpty(v, `${at}.metadata.${k}`);
        }
      }
    });
    return 0;
  };
  const isBound = (n: unknown) => n === undefined || (Number.isInteger(n) && (n as number) >= 0);

  if (ir.version !== 1) problems.push("version");
  nonEmpty(ir.behavior, "behavior");
  if (ir.metaBehaviors.length === 0) problems.push("no metaBehaviors");
  const names = ir.metaBehaviors.map((m) => m.name);
  if (new Set(names).size !== names.length) problems.push("duplicate names");
  ir.metaBehaviors.forEach((m, mi) => {
    const at = `metaBehaviors[${mi}]`;
    nonEmpty(m.name, `${at}.name`);
    nonEmpty(m.trigger.description, `${at}.trigger.description`);
    if (m.trigger.semantic === true) {
      if (m.trigger.match !== undefined) problems.push(`${at}: trigger has both match and semantic`);
    } else checkPattern(m.trigger.match, `${at}.trigger.match`);
    if (m.checks.length + m.semanticChecks.length === 0) problems.push(`${at}: no checks`);
    m.semanticChecks.forEach((s, si) => {
      nonEmpty(s.quote, `${at}.semanticChecks[${si}].quote`);
      nonEmpty(s.question, `${at}.semanticChecks[${si}].question`);
    });
    m.checks.forEach((c, ci) => {
      const cat = `${at}.checks[${ci}]`;
      nonEmpty(c.quote, `${cat}.quote`);
      switch (c.type) {
        case "ordering":
          checkPattern(c.first, `${cat}.first`);
          checkPattern(c.before, `${cat}.before`);
          break;
        case "pairing":
          checkPattern(c.each, `${cat}.each`);
          checkPattern(c.followedBy, `${cat}.followedBy`);
          break;
        case "required":
        case "forbidden":
          checkPattern(c.match, `${cat}.match`);
          if ("after" in c) checkPattern(c.after, `${cat}.after`);
          break;
        case "count":
          checkPattern(c.match, `${cat}.match`);
          if ("after" in c) checkPattern(c.after, `${cat}.after`);
          if (c.min === undefined && c.max === undefined) problems.push(`${cat}: no bound`);
          if (!isBound(c.min) || !isBound(c.max)) problems.push(`${cat}: bad bound`);
          if (c.distinctBy !== undefined && !/^(content|metadata\..+)$/.test(c.distinctBy)) {
            problems.push(`${cat}: bad distinctBy ${c.distinctBy}`);
          }
          break;
      }
    });
  });
  return problems;
}

function trajectoryProblems(t: Trajectory): string[] {
  const problems: string[] = [];
  if (t.id.length === 0) problems.push("trajectory id");
  const ids = t.events.map((e) => e.id);
  if (new Set(ids).size !== ids.length) problems.push("duplicate event ids");
  for (const e of t.events) {
    if (e.id.length === 0 || e.action.length === 0) problems.push(`event ${e.id}: empty field`);
    // Content and metadata may be absent or non-string on purpose (docs/FORMATS.md §2 defaults), but
    // metadata must be an object when present, or the trajectory would be invalid.
    if (e.metadata !== undefined && (typeof e.metadata !== "object" || e.metadata === null)) problems.push(`event ${e.id}: metadata`);
  }
  return problems;
}

describe("random cases", () => {
  const cases = randomCases(20240601, 400);

  it("are deterministic for a fixed seed and differ across seeds", () => {
    expect(JSON.stringify(randomCases(20240601, 400))).toBe(JSON.stringify(cases));
    expect(JSON.stringify(randomCases(7, 50))).not.toBe(JSON.stringify(cases.slice(0, 50)));
    const a = mulberry32(1);
    const b = mulberry32(1);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
    expect(JSON.stringify(randomCase(mulberry32(3)))).toBe(JSON.stringify(randomCase(mulberry32(3))));
  });

  it("produce IR and trajectories that satisfy the format constraints", () => {
    for (const [i, c] of cases.entries()) {
      expect([i, ...irProblems(c.ir), ...trajectoryProblems(c.trajectory)]).toEqual([i]);
    }
  });

  it("reach every verdict of every check type, empty and incomplete traces, and odd text", () => {
    const seen = new Set<string>();
    let empty = 0;
    let incomplete = 0;
    let odd = 0;
    for (const { ir, trajectory } of cases) {
      if (trajectory.events.length === 0) empty++;
      if (!trajectory.complete) incomplete++;
      const texts = ir.metaBehaviors.flatMap((m) => [m.name, ...m.checks.map((c) => c.quote)]);
      if (texts.some((t) => /["\\\n\u2028]|\$\{|[^\x00-\x7f]/.test(t))) odd++;
      const judgment = oracleJudge(ir, trajectory);
      ir.metaBehaviors.forEach((m, mi) => {
        const judged = judgment.metaBehaviors[mi];
        if (judged?.triggered !== true) return;
        m.checks.forEach((check, ci) => {
          const clause = judged.clauses[ci];
          if (clause !== undefined) seen.add(`${check.type}:${clause.verdict}:${clause.naReason}`);
        });
      });
    }
    expect(empty).toBeGreaterThan(0);
    expect(incomplete).toBeGreaterThan(0);
    expect(odd).toBeGreaterThan(0);
    const expected = [
      "ordering:true:null",
      "ordering:false:null",
      "ordering:na:not_applicable",
      "ordering:na:insufficient_evidence",
      "pairing:true:null",
      "pairing:false:null",
      "pairing:na:not_applicable",
      "pairing:na:insufficient_evidence",
      "required:true:null",
      "required:false:null",
      "required:na:not_applicable",
      "required:na:insufficient_evidence",
      "forbidden:true:null",
      "forbidden:false:null",
      "forbidden:na:not_applicable",
      "forbidden:na:insufficient_evidence",
      "count:true:null",
      "count:false:null",
      "count:na:not_applicable",
      "count:na:insufficient_evidence",
    ];
    expect([...seen].filter((s) => expected.includes(s)).sort()).toEqual([...expected].sort());
  });
});
