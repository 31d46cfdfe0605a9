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

/** `judgeTrajectory` and `createMonitor` of a generated judge: one set of steppers per trajectory, fed either way. */
export function createJudge(definition: JudgeDefinition): Pick<JudgeModule, "judgeTrajectory" | "createMonitor" | "warm"> {
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
  let warmed = false;
  // Methods, not named functions: the names are the exports' own, with no twin in the bundle for esbuild to rename.
  return {
    async judgeTrajectory(input: unknown, options: JudgeOptions = {}): Promise<TrajectoryJudgment> {
      const header = readTrajectoryHeader(input);
      const steppers = judge.steppers();
      const events = readEvents(header.events, steppers);
      const trajectory: Trajectory = { id: header.id, description: header.description, complete: header.complete, events };
      return conclude(judge, trajectory, events.length, steppers, options);
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
