/**
 * Lowering of patterns (any-of lists of matchers): every valid pattern gives
 * code that type-checks, redundant matchers are left out, and the judge still
 * decides exactly as the oracle does.
 */
import { describe, expect, test } from "vitest";
import { generateJudgeModule } from "../../compiler/codegen/emit.js";
import { Constants } from "../../compiler/codegen/constants.js";
import { lowerMatcher, lowerPattern, withoutRedundantMatchers } from "../../compiler/codegen/match.js";
import { typeCheckJudgeTs } from "../../compiler/codegen/typecheck.js";
import type { JudgeIR, Pattern } from "../../compiler/ir/types.js";
import type { Trajectory } from "../../runtime/types.js";
import { oracleJudge } from "../oracle/evaluate.js";
import { compileYaml, importBundled } from "../support/judges.js";

/**
 * The two patterns of issue 8, defect 1: an actor repeated after a matcher
 * naming only that actor, and all three actors followed by an action. TypeScript
 * narrowed `e.actor` across the generated `||` and rejected the first with TS2367.
 */
const ISSUE_JUDGE = `version: 1
behavior: narrowing
metaBehaviors:
  - name: Repeated actor
    trigger:
      description: The agent does something.
      match: [{actor: agent}, {actor: agent, action: b}]
    checks:
      - type: required
        quote: the agent or someone says z
        match: [{actor: agent}, {actor: user}, {actor: tool}, {action: z}]
      - type: forbidden
        quote: no b by the agent after the user speaks
        match: [{actor: agent, action: b}, {actor: agent, action: b}]
        after: [{actor: user}, {actor: user, contentIncludes: stop}]
      - type: count
        quote: at most two agent turns
        match: [{actor: agent, action: b}, {actor: agent}]
        max: 2
`;

function event(id: string, actor: "user" | "agent" | "tool", action: string, content = "") {
  return { id, actor, action, content };
}

const TRAJECTORIES: Trajectory[] = [
  { id: "empty", description: "", complete: true, events: [] },
  { id: "user-only", description: "", complete: true, events: [event("u1", "user", "say")] },
  { id: "agent-b-after-user", description: "", complete: true, events: [event("u1", "user", "say", "stop"), event("a1", "agent", "b")] },
  {
    id: "three-agent-turns",
    description: "",
    complete: false,
    events: [event("a1", "agent", "x"), event("t1", "tool", "z"), event("a2", "agent", "b"), event("a3", "agent", "y")],
  },
];

describe("patterns that repeat an actor (issue 8, defect 1)", () => {
  test("build, type-check and judge as the oracle does", async () => {
    const { ir, compiled } = await compileYaml(ISSUE_JUDGE);
    const judge = await importBundled(compiled);
    for (const trajectory of TRAJECTORIES) {
      const actual = await judge.judgeTrajectory(trajectory);
      const expected = oracleJudge(ir, trajectory);
      const essence = (j: typeof actual) =>
        j.metaBehaviors.map((m) => [m.verdict, m.triggered, m.clauses.map((c) => [c.verdict, c.citations.map((x) => x.eventId)])]);
      expect(essence(actual), trajectory.id).toEqual(essence(expected));
    }
  });

  test("a matcher implied by another in the same pattern is left out", () => {
    expect(String(lowerPattern([{ actor: "agent" }, { actor: "agent", action: "b" }], new Constants()))).toBe('(e.actor === "agent")');
    // Order is kept; of two equal matchers the first stays.
    expect(
      withoutRedundantMatchers([
        { action: "a", metadata: { k: "v", j: "w" } },
        { actor: "tool" },
        { metadata: { j: "w" } },
        { actor: "tool" },
        { actor: "tool", contentIncludes: "x" },
      ]),
    ).toEqual([{ actor: "tool" }, { metadata: { j: "w" } }]);
  });

  test("only matchers implied by another are dropped", () => {
    const pattern: Pattern = [
      { actor: "agent", action: "a" },
      { actor: "agent", action: "b" },
      { action: "a", contentIncludes: "x" },
      { metadata: { k: "v" } },
      { metadata: { k: "w" } },
      { actor: "user" },
      { actor: "agent" },
      { actor: "tool" },
      { action: "z" },
    ];
    expect(withoutRedundantMatchers(pattern)).toEqual([pattern[2], pattern[3], pattern[4], pattern[5], pattern[6], pattern[7], pattern[8]]);
  });

  test("actor comparisons cannot be narrowed away by an earlier matcher", () => {
    // Without the simplification (lowerMatcher alone): the repeated actor still type-checks,
    // because a stepper reads the event as a StepEvent, whose actor is a plain string that
    // TypeScript cannot narrow away (a TrajectoryEvent's actor is a union, and would be).
    const anyOf = (pattern: Pattern) => pattern.map((m) => `(${lowerMatcher(m, new Constants())})`).join(" || ");
    const code = (type: string) => `import type { ${type} } from "behavior-judge/runtime";
export const repeated = (e: ${type}): boolean => ${anyOf([{ actor: "agent" }, { actor: "agent", action: "b" }])};
export const everyActor = (e: ${type}): boolean => ${anyOf([{ actor: "agent" }, { actor: "user" }, { actor: "tool" }, { actor: "agent", action: "z" }])};
`;
    expect(() => typeCheckJudgeTs(code("StepEvent"))).not.toThrow();
    expect(() => typeCheckJudgeTs(code("TrajectoryEvent"))).toThrow(/TS2367/);
  });
});

describe("the type check of long patterns (issue 8, defect 15)", () => {
  test("50 patterns of 64 metadata matchers on one key compare with a call, and type-check", () => {
    // Compared with ===, TypeScript re-narrowed every earlier comparison for each later one:
    // this judge took 19 s to type-check (108 s on a loaded machine, against 6 s with Object.is;
    // `x === ("v" as unknown)` and `(x as unknown) === "v"` took 91 and 45 s, `metadataIs` 12),
    // and a 1 MB judge.yaml of such patterns 8 minutes. The checker's own counters (types,
    // instantiations, relations) are the same either way, so the test pins the cause, not a
    // time: no metadata value is compared with ===. bench/large-judge.js writes judges to time `build` on.
    const pattern: Pattern = Array.from({ length: 64 }, (_, k) => ({ metadata: { status: `v${k}` } }));
    const ir: JudgeIR = {
      version: 1,
      behavior: "metadata",
      metaBehaviors: Array.from({ length: 50 }, (_, r) => ({
        name: `r${r}`,
        trigger: { description: "d", match: [{ action: "a" }] },
        checks: [{ type: "forbidden" as const, quote: "q", match: pattern }],
        semanticChecks: [],
      })),
    };
    const code = String(generateJudgeModule(ir, { judgeYamlSha256: "0".repeat(64), file: "judge.yaml" }).module);
    // Each pattern twice: in the rule's step and in its check (a monitor's, lower-check.ts).
    expect(code.match(/metadataIs\(e\.metadata\?\.\["status"\], "v\d+"\)/g)).toHaveLength(2 * 50 * 64);
    expect(code).not.toMatch(/metadata\?\.\[[^\]]*\]\s*===/);
    expect(() => typeCheckJudgeTs(code)).not.toThrow();
  }, 300_000);
});
