/**
 * The monitor: a judge fed one event at a time (docs/FORMATS.md §9). It
 * drives the same generated steppers as `judgeTrajectory` and ends in the
 * same `conclude`, so the two cannot drift apart.
 */
import { conclude, type Judge, type JudgeOptions } from "./judgment.js";
import type { Found } from "./stepper.js";
import { EventIds, isNormalEvent, readEvent, readMonitorHeader, TrajectoryError } from "./trajectory.js";
import type { CheckType, Monitor, Obligation, TrajectoryEvent, TrajectoryJudgment, Violation } from "./types.js";

/**
 * A copy the caller cannot change after `push`: the model's prompts at
 * `end()` must show the events as they were judged, and a stepper that keeps
 * an event (a condition's binding) must see it as it was pushed.
 */
function keptCopy(event: TrajectoryEvent): TrajectoryEvent {
  const { id, actor, action, content, metadata } = event;
  return {
    id,
    actor,
    action,
    content,
    metadata: metadata === undefined ? undefined : Object.assign(Object.create(null) as Record<string, string>, metadata),
  };
}

/** A violation or an obligation: the same fields, named from the judge's own copy of the rules. */
function entry(judge: Judge, rule: number, check: number, eventIds: string[]): Violation & Obligation {
  const r = judge.rules[rule]!;
  const c = r.checks[check]!;
  const type: CheckType = c.type;
  return { rule: r.name, checkIndex: check, type, quote: c.quote, eventIds };
}

export function startMonitor(judge: Judge, rawHeader: unknown, options: JudgeOptions): Monitor {
  const { id, description } = readMonitorHeader(rawHeader);
  const steppers = judge.steppers();
  const ids = new EventIds();
  // The events themselves are needed only for the model's prompts; citations
  // need only the ids, which the steppers hold. Without an adapter no prompt is built.
  const kept: TrajectoryEvent[] | undefined = options.complete === undefined ? undefined : [];
  let count = 0;
  let ended = false;

  // One collector reused by every call: `found` pushes into the current `out`.
  let out: Violation[] = [];
  const found: Found = (rule, check, eventIds, explanation) => {
    const violation: Violation = entry(judge, rule, check, eventIds);
    if (explanation !== undefined) violation.explanation = explanation;
    out.push(violation);
  };
  // Only a rule the event changed can have something new to report, so only those are asked.
  const violationsNow = (affected: readonly number[]): Violation[] => {
    out = [];
    for (let k = 0; k < affected.length; k++) steppers.stepper(affected[k]!).violations(found);
    return out;
  };

  /** The next event, checked: a bad event or a repeated id throws before anything changes. */
  const read = (raw: unknown): TrajectoryEvent => {
    if (ended) throw new Error("this monitor has ended: create a new one for the next trajectory");
    const event = isNormalEvent(raw) ? raw : readEvent(raw, count);
    ids.assertNew(event.id, count);
    return event;
  };

  return {
    push(raw: unknown): Violation[] {
      // A stepper that keeps the event itself (a condition's bound events), and the model's prompts,
      // need a copy the caller cannot change later; steppers that keep ids need none.
      const checked = read(raw);
      const event = kept !== undefined || judge.keepsEvents ? keptCopy(checked) : checked;
      ids.add(event.id);
      if (kept !== undefined) kept.push(event);
      count++;
      steppers.step(event);
      return violationsNow(steppers.concerned(event.action));
    },

    check(raw: unknown): Violation[] {
      const event = read(raw);
      // A rule's violations depend on its own state only, and only the rules the event may make
      // report anything need asking (most events, such as a lookup, can make no rule certainly
      // false): each of those says what the event would make it report, changing nothing.
      const affected = steppers.reporting(event.action);
      out = [];
      for (let k = 0; k < affected.length; k++) steppers.stepper(affected[k]!).check(event, found);
      return out;
    },

    pending(): Obligation[] {
      const owed: Obligation[] = [];
      const add: Found = (rule, check, eventIds) => {
        owed.push(entry(judge, rule, check, eventIds));
      };
      // A rule no event concerned has no stepper yet: untriggered, it owes nothing.
      const all = steppers.all;
      for (let r = 0; r < all.length; r++) all[r]?.obligations(add);
      return owed;
    },

    end(endOptions: { complete: boolean }): Promise<TrajectoryJudgment> {
      if (ended) return Promise.reject(new Error("this monitor has ended already"));
      const complete = (endOptions as { complete?: unknown } | null | undefined)?.complete;
      if (typeof complete !== "boolean") return Promise.reject(new TrajectoryError("complete", "must be true or false"));
      ended = true;
      return conclude(judge, { id, description, complete, events: kept ?? [] }, count, steppers, options);
    },
  };
}
