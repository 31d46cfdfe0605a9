/**
 * `warm()`: runs every rule's code before the first real event, so a guard's
 * first checks do not pay for it (docs/MONITOR.md, "Warming up"). Right after
 * a judge is loaded, each rule's stepper is code V8 has never run: the first
 * calls of each method are compiled, interpreted and fill their inline caches,
 * and with many rules that shows in the slowest checks for the first thousands
 * of events. `warm` pushes and checks synthetic events, made from the judge's
 * own patterns (the generated `warmEvents`), through monitors of its own that
 * it then drops: no real monitor is touched, no model adapter is given (so none
 * is called), nothing is returned but a count. The judge's code and its module
 * data are the same after it (a regex's cached states aside, which only save
 * work), so every judgment and every monitor's answer is too.
 */
import type { Judge } from "./judgment.js";
import { startMonitor } from "./monitor.js";
import type { TrajectoryEvent } from "./types.js";

/** One sample of the generated `warmEvents` table (compiler/codegen/warm.ts). */
export interface WarmSample {
  readonly actor?: string;
  readonly action: string;
  readonly content?: string;
  readonly metadata?: Readonly<Record<string, string>>;
  /** Metadata keys the rule correlates or counts by: `warm` gives them values of its own. */
  readonly keys?: readonly string[];
}

/** Throwaway monitors, each a session over every sample in another order. */
export const WARM_ROUNDS = 12;

/** `metadata` as a monitor's kept copy has it (runtime/monitor.ts keptCopy): a null-prototype map. */
function metadataOf(fields: Readonly<Record<string, string>> | undefined, keys: readonly string[], near: boolean, value: string) {
  const metadata = Object.create(null) as Record<string, string>;
  if (fields !== undefined) for (const key of Object.keys(fields)) metadata[key] = near ? `${fields[key]}~` : fields[key]!;
  for (let k = 0; k < keys.length; k++) metadata[keys[k]!] = value;
  return metadata;
}

/** Round `round`'s events: each sample as named (and its keys), nearly (every value changed), and bare (its action alone). */
function roundEvents(samples: readonly WarmSample[], round: number): TrajectoryEvent[] {
  const events: TrajectoryEvent[] = [];
  // Key values repeat within a round, over a cycle that changes from round to round, so that
  // correlated events sometimes share a key and distinct counts sometimes pass their bounds.
  const cycle = 2 + (round % 5) * 2;
  for (let s = 0; s < samples.length; s++) {
    const sample = samples[round % 2 === 0 ? s : samples.length - 1 - s]!;
    const actor = sample.actor ?? "agent";
    const keys = sample.keys ?? [];
    for (let variant = 0; variant < 3; variant++) {
      const value = String((events.length + round) % cycle);
      const bare = variant === 2;
      events.push({
        id: `warm-${events.length + 1}`,
        actor: actor as TrajectoryEvent["actor"],
        action: sample.action,
        content: bare ? undefined : (sample.content ?? ""),
        metadata: bare ? undefined : metadataOf(sample.metadata, keys, variant === 1, value),
      });
    }
  }
  // From the third round on, a fixed shuffle (xorshift): other orders reach other branches.
  if (round >= 2) {
    let seed = 2463534242 + round;
    for (let k = events.length - 1; k > 0; k--) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      const j = (seed >>> 0) % (k + 1);
      const swap = events[k]!;
      events[k] = events[j]!;
      events[j] = swap;
    }
    for (let k = 0; k < events.length; k++) (events[k] as { id: string }).id = `warm-${k + 1}`;
  }
  return events;
}

/**
 * Runs `rounds` throwaway sessions over the samples: each event checked, then
 * pushed, and each session's obligations asked for. Returns the number of events pushed.
 */
export function warmJudge(judge: Judge, samples: readonly WarmSample[], rounds = WARM_ROUNDS): number {
  let pushed = 0;
  for (let round = 0; round < rounds; round++) {
    const monitor = startMonitor(judge, { id: "warm" }, {});
    const events = roundEvents(samples, round);
    for (let k = 0; k < events.length; k++) {
      monitor.check(events[k]);
      monitor.push(events[k]);
    }
    monitor.pending();
    pushed += events.length;
  }
  return pushed;
}
