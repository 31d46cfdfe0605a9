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
 *
 * The runtime's own functions (reading an event, proving its id new, routing
 * it) are optimized while warming, on what warming shows them: an event shape
 * or an id order they never met deoptimizes them in the first real session.
 * So the events vary as a host's do: each actor, content and metadata present
 * or absent (the four shapes an object literal or JSON.parse gives, fields in
 * the order of docs/FORMATS.md), metadata as a plain object, a kept copy's
 * null-prototype map or with a number (which is copied), events no rule names,
 * checks of events under ids other than the next one, and ids out of order.
 */
import type { Judge } from "./judgment.js";
import { startMonitor } from "./monitor.js";

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

/** The round whose ids are not renumbered after the shuffle: pushed out of order, so ids go to a Set. */
const IDS_OUT_OF_ORDER = 5;

const ACTORS = ["agent", "tool", "user"] as const;

/** An action no rule is likely to name: a user's message, which most events of a session are. */
const MESSAGE = "warm:message";

type WarmEvent = { id: string; actor: string; action: string; content?: string; metadata?: object };

/**
 * An event with only the fields given, in docs/FORMATS.md's order, as an object literal: the
 * shape (hidden class) a host's literal or JSON.parse gives an event with these fields.
 */
function eventOf(id: string, actor: string, action: string, content: string | undefined, metadata: object | undefined): WarmEvent {
  if (metadata === undefined) return content === undefined ? { id, actor, action } : { id, actor, action, content };
  return content === undefined ? { id, actor, action, metadata } : { id, actor, action, content, metadata };
}

/**
 * The sample's metadata, each value changed when `near`, and `keys` set to `value`: as a plain
 * object (kind 0), a null-prototype one as a monitor's kept copy is (1), or with the keys'
 * values as numbers (2, which the runtime converts into a copy).
 */
function metadataOf(
  fields: Readonly<Record<string, string>> | undefined,
  keys: readonly string[],
  near: boolean,
  value: string,
  kind: number,
) {
  const metadata = (kind === 1 ? Object.create(null) : {}) as Record<string, string | number>;
  if (fields !== undefined) for (const key of Object.keys(fields)) metadata[key] = near ? `${fields[key]}~` : fields[key]!;
  for (let k = 0; k < keys.length; k++) metadata[keys[k]!] = kind === 2 ? Number(value) : value;
  return metadata;
}

/**
 * Round `round`'s events: each sample as named (and its keys), nearly (every value changed),
 * and bare (its action alone), in shapes that change from one event to the next, and a user's
 * message after every other sample.
 */
function roundEvents(samples: readonly WarmSample[], round: number): WarmEvent[] {
  const events: WarmEvent[] = [];
  // Key values repeat within a round, over a cycle that changes from round to round, so that
  // correlated events sometimes share a key and distinct counts sometimes pass their bounds.
  const cycle = 2 + (round % 5) * 2;
  for (let s = 0; s < samples.length; s++) {
    const sample = samples[round % 2 === 0 ? s : samples.length - 1 - s]!;
    const keys = sample.keys ?? [];
    for (let variant = 0; variant < 3; variant++) {
      const n = events.length + round;
      const id = `warm-${events.length + 1}`;
      // A sample that names no actor is any actor's: each in turn.
      const actor = sample.actor ?? ACTORS[n % 3]!;
      const content = sample.content ?? (n % 2 === 0 ? undefined : "");
      if (variant === 2) events.push(eventOf(id, actor, sample.action, n % 2 === 0 ? undefined : "", undefined));
      else
        events.push(eventOf(id, actor, sample.action, content, metadataOf(sample.metadata, keys, variant === 1, String(n % cycle), n % 3)));
    }
    if (s % 2 === 0) events.push(eventOf(`warm-${events.length + 1}`, "user", MESSAGE, "", undefined));
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
    if (round !== IDS_OUT_OF_ORDER) for (let k = 0; k < events.length; k++) events[k]!.id = `warm-${k + 1}`;
  }
  return events;
}

/**
 * Runs `rounds` throwaway sessions over the samples: each event checked, then
 * pushed, and each session's obligations asked for. Every third round checks
 * each event under an id of its own (a host that checks a call under another
 * id than it pushes it), one that sorts among those pushed already: proving it
 * new searches the list of ids both ways.
 * Returns the number of events pushed.
 */
export function warmJudge(judge: Judge, samples: readonly WarmSample[], rounds = WARM_ROUNDS): number {
  let pushed = 0;
  for (let round = 0; round < rounds; round++) {
    const monitor = startMonitor(judge, { id: "warm" }, {});
    const events = roundEvents(samples, round);
    for (let k = 0; k < events.length; k++) {
      const event = events[k]!;
      monitor.check(round % 3 === 1 ? eventOf(`warm+${k >> 1}`, event.actor, event.action, event.content, event.metadata) : event);
      monitor.push(event);
    }
    monitor.pending();
    pushed += events.length;
  }
  return pushed;
}
