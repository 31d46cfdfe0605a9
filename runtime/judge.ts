/**
 * `createJudge`: what a generated judge.ts calls to become a judge. Both ways
 * of feeding it, an array (`judgeTrajectory`) and one event at a time
 * (`createMonitor`), drive the same generated steppers.
 */
import type { formatJudgment } from "./format-judgment.js";
import { conclude, type Judge, type JudgeOptions } from "./judgment.js";
import { startMonitor } from "./monitor.js";
import type { Steppers } from "./stepper.js";
import { readEvents, readTrajectoryHeader, type TrajectoryError } from "./trajectory.js";
import type { Monitor, MonitorHeader, RuleInfo, Trajectory, TrajectoryJudgment } from "./types.js";
import { warmJudge, type WarmSample } from "./warm.js";

export type { JudgeOptions, RuleInfo };

/** What generated code hands `createJudge`. */
export interface JudgeDefinition {
  readonly behavior: string;
  readonly rules: readonly RuleInfo[];
  /** A fresh set of steppers, one per rule, in their initial state. */
  readonly steppers: () => Steppers;
  /**
   * Whether a stepper keeps events themselves (a condition's bindings), not
   * only their ids: a monitor then copies each pushed event, so the caller
   * cannot change what a later event is judged against. Absent: false.
   */
  readonly keepsEvents?: boolean;
  /** Events shaped like those the rules' patterns name, for `warm` (compiler/codegen/warm.ts). Absent: none. */
  readonly warmEvents?: readonly WarmSample[];
}

/** What every judge.mjs exports (judge.d.mts declares the same, checked by test/artifact.test.ts). */
export interface JudgeModule {
  /** The behavior-judge version that generated the judge. */
  readonly version: string;
  /** The spec name (judge.yaml `behavior`). */
  readonly behavior: string;
  /** sha256 (hex) of the judge.yaml text the judge was built from. */
  readonly judgeYamlSha256: string;
  /** The same hash under its first name; it hashes the judge.yaml text, not the IR. */
  readonly irSha256: string;
  /** Each rule as judge.yaml states it: name, line, trigger, checks. */
  readonly rules: readonly RuleInfo[];
  /** The judgment of one trajectory (docs/FORMATS.md §2), validated first: a bad one throws TrajectoryError. */
  judgeTrajectory(trajectory: unknown, options?: JudgeOptions): Promise<TrajectoryJudgment>;
  /**
   * `judgeTrajectory` of a trajectory given as JSON text, parsed here with the JSON.parse the
   * judge found when it was loaded: the same judgment and the same errors (a SyntaxError for
   * text that is not JSON), with less to check, since no other code can reach what that
   * JSON.parse made before it is validated (docs/ARCHITECTURE.md, "Input JSON.parse made").
   */
  judgeJson(text: string, options?: JudgeOptions): Promise<TrajectoryJudgment>;
  /** A monitor for one trajectory, given its header; `options` as for `judgeTrajectory`. */
  createMonitor(header: MonitorHeader, options?: JudgeOptions): Monitor;
  /**
   * Runs every rule's code over synthetic events in monitors of its own, so
   * that the first checks of a real monitor do not pay for code V8 has never
   * run (docs/MONITOR.md). Changes no monitor and no result; calls no model.
   * Returns the number of synthetic events pushed: 0 when this judge was warmed already.
   */
  warm(): number;
  readonly TrajectoryError: typeof TrajectoryError;
  readonly formatJudgment: typeof formatJudgment;
}

/**
 * JSON.parse as it was when the judge was loaded: `judgeJson` trusts what this function makes,
 * so a later replacement of the global does not reach it.
 */
const parseJson = JSON.parse;

/** `judgeTrajectory` and `createMonitor` of a generated judge: one set of steppers per trajectory, fed either way. */
export function createJudge(definition: JudgeDefinition): Pick<JudgeModule, "judgeTrajectory" | "judgeJson" | "createMonitor" | "warm"> {
  const judge: Judge = {
    behavior: definition.behavior,
    rules: definition.rules.map((rule) => ({
      name: rule.name,
      semanticTrigger: rule.trigger.kind === "semantic",
      triggerDescription: rule.trigger.description,
      checks: rule.checks.map((c) => ({ type: c.type, quote: c.quote, expected: c.expected })),
      semanticChecks: rule.semanticChecks.map((c) => ({ quote: c.quote, question: c.question })),
    })),
    steppers: definition.steppers,
    keepsEvents: definition.keepsEvents === true,
    semantic: definition.rules.some((rule) => rule.trigger.kind === "semantic" || rule.semanticChecks.length > 0),
  };
  /** A trajectory's judgment; `parsed` as for readEvents: only `judgeJson`, which made `input` itself, sets it. */
  const judgeInput = (input: unknown, options: JudgeOptions, parsed: boolean): Promise<TrajectoryJudgment> => {
    const header = readTrajectoryHeader(input);
    const steppers = judge.steppers();
    const events = readEvents(header.events, steppers, parsed);
    const trajectory: Trajectory = { id: header.id, description: header.description, complete: header.complete, events };
    return conclude(judge, trajectory, events.length, steppers, options);
  };
  let warmed = false;
  // Methods, not named functions: the names are the exports' own, with no twin in the bundle for esbuild to rename.
  return {
    async judgeTrajectory(input: unknown, options: JudgeOptions = {}): Promise<TrajectoryJudgment> {
      return judgeInput(input, options, false);
    },
    async judgeJson(text: string, options: JudgeOptions = {}): Promise<TrajectoryJudgment> {
      // Only a string: anything else would reach JSON.parse through a toString of the caller's.
      if (typeof text !== "string") throw new TypeError("judgeJson takes the trajectory's JSON text (a string)");
      // What parseJson returns is held only here until readEvents has checked it: the trust
      // boundary (docs/ARCHITECTURE.md). Never hand `parsed: true` anything else.
      return judgeInput(parseJson(text), options, true);
    },
    createMonitor(header: MonitorHeader, options: JudgeOptions = {}): Monitor {
      return startMonitor(judge, header, options);
    },
    warm(): number {
      if (warmed) return 0;
      warmed = true;
      return warmJudge(judge, definition.warmEvents ?? []);
    },
  };
}
