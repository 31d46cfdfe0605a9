/**
 * The contract between generated code and the runtime. Each rule of a judge
 * is generated as a resumable stepper: a class whose fields are the rule's
 * state (the ids of the events that matter), with `step(event)` specialized to
 * the rule's patterns and `finish(complete)` building its clauses. One
 * generated `Steppers` object steps every rule; the runtime validates each
 * event once and hands it over. `judgeTrajectory` feeds it an array, a
 * monitor one event at a time: the same code either way.
 */
import type { Clause } from "./types.js";

/**
 * An event as a stepper reads it: a validated event in normal form. `actor`
 * is typed as a plain string on purpose: compared against a union type in an
 * any-of pattern (`actor === "agent" || (actor === "agent" && …)`), TypeScript
 * would narrow it across `||` and reject a valid pattern (TS2367).
 */
export interface StepEvent {
  readonly id: string;
  readonly actor: string;
  readonly action: string;
  readonly content?: string | undefined;
  readonly metadata?: Readonly<Record<string, string>> | undefined;
}

/**
 * Reports check `check` of rule `rule` (their indexes) with the ids it cites,
 * and for a violation of a check that can say why (ordering with on or
 * fresh, pairing within, condition), what was expected of the newest event
 * reported and what came instead.
 */
export type Found = (rule: number, check: number, eventIds: string[], explanation?: string) => void;

/** One rule's stepper. */
export interface RuleStepper {
  /** Advances the state by one event. */
  step(e: StepEvent): void;
  /** The rule's predicate clauses in judge.yaml order, or null when its match trigger never fired. */
  finish(complete: boolean): Clause[] | null;
  /**
   * Reports each clause that is certainly false now and cites more events
   * than when last reported (so each event that makes or worsens a violation
   * reports it once). Nothing while a match trigger has not fired; nothing
   * for a semantic trigger, which only a model decides, at the end.
   */
  violations(found: Found): void;
  /** Reports what the rule still needs (pairing, required, count below `min`), once its match trigger fired. */
  obligations(found: Found): void;
  /**
   * Reports what `step(e)` then `violations(found)` would report, and leaves the
   * state as it was: a monitor's `check`. Generated to decide from the few
   * fields the event can change where the rule's checks allow (compiler/codegen/lower-check.ts).
   */
  check(e: StepEvent, found: Found): void;
}

/** Every rule's stepper of one judge, stepped together. */
export interface Steppers {
  /**
   * The rules' steppers, in judge.yaml order. A rule's stepper is made when
   * an event first concerns the rule: until then its entry is undefined and
   * the rule's state is the initial one (untriggered, nothing found, nothing
   * owed), so a short trajectory costs a large judge only the rules it touches.
   * A judge of a few rules makes every stepper at once (compiler/codegen/emit.ts,
   * UP_FRONT_STEPPERS_LIMIT); an untouched one is then in that same initial state.
   */
  readonly all: readonly (RuleStepper | undefined)[];
  /** The stepper of rule `r`, made now (in its initial state) if no event has concerned the rule yet. */
  stepper(r: number): RuleStepper;
  /** Steps with one event the rules its action concerns (a rule whose patterns cannot match it stays as it was). */
  step(e: StepEvent): void;
  /**
   * The indexes, ascending, of the rules an event with this action may
   * change: the ones `step` steps. Every other rule is left as it was, so a
   * monitor asks only these what the event changed.
   */
  concerned(action: string): readonly number[];
  /**
   * The indexes, ascending, of the rules an event with this action may make
   * report a violation (a subset of `concerned`): its action is one their
   * match trigger or a check that can become certainly false while running
   * names. Every other rule would report nothing new, so a monitor's `check`
   * need not step it.
   */
  reporting(action: string): readonly number[];
}
