/**
 * One agent session under a guard (docs/GUARDS.md): the trace as it happens,
 * built with the importers' own event conventions (a call is an `agent`
 * event named after the tool with its arguments flattened into metadata, its
 * result `<tool>_result`), and the judge's monitor fed the same events.
 *
 * A call is checked before it runs. An allowed call is pushed to the monitor
 * and later its result. A refused call never ran: the trace keeps it, with
 * the refusal as its error result (so the trace judged afterwards shows what
 * the agent tried and what it was told), but the monitor never sees either,
 * so it keeps judging the session the world saw, and refuses the same call
 * again if it comes again. Only deterministic clauses refuse: semantic ones
 * run when the session ends, never before a call.
 */
import { TrajectoryBuilder } from "../importers/core.js";
import type { Monitor, MonitorHeader, Obligation, Trajectory, TrajectoryEvent, TrajectoryJudgment, Violation } from "../runtime/types.js";
import { refusalMessage } from "./refusal.js";

/** What a guard needs of a judge: what every judge.mjs exports. */
export interface GuardJudge {
  createMonitor(header: MonitorHeader, options?: Record<string, unknown>): Monitor;
  /** The judge's `warm()` (docs/MONITOR.md "Warming up"); a judge built before it existed has none. */
  warm?(): number;
}

export interface SessionGuardOptions {
  /** The trajectory's id (a session, conversation or run id). */
  id: string;
  description?: string;
  /**
   * Where each refusal is also written, one line (default: `console.warn`,
   * the host's log). `false` writes none.
   */
  log?: ((line: string) => void) | false;
  /** Options for the monitor, as for `judgeTrajectory` (a model adapter runs semantic clauses at `end`). */
  judgeOptions?: Record<string, unknown>;
  /**
   * Calls the judge's `warm()` first (once per loaded judge: later sessions find it warm), so the
   * first calls of a fresh process do not pay for rule code V8 has never run. Default false: worth
   * it in a process that guards many calls, not in one that answers one call and exits.
   */
  warm?: boolean;
}

/** A guard's answer for one call. */
export type Decision =
  { allowed: true; event: TrajectoryEvent } | { allowed: false; event: TrajectoryEvent; violations: Violation[]; message: string };

/** Arguments as JSON text, as a model writes them (a string is taken as already being that text). */
function argsText(args: unknown): string {
  if (typeof args === "string") return args;
  return JSON.stringify(args ?? {}) ?? "{}";
}

export class SessionGuard {
  readonly monitor: Monitor;
  private readonly builder: TrajectoryBuilder;
  private readonly byId = new Map<string, TrajectoryEvent>();
  /** Calls refused, by call id: their results are the refusals, already in the trace. */
  private readonly refused = new Set<string>();
  private readonly log: ((line: string) => void) | undefined;
  private seen = 0;
  private calls = 0;

  constructor(judge: GuardJudge, options: SessionGuardOptions) {
    if (options.warm === true) judge.warm?.();
    this.monitor = judge.createMonitor({ id: options.id, description: options.description ?? "" }, options.judgeOptions ?? {});
    this.builder = new TrajectoryBuilder(options.id);
    this.builder.description = options.description ?? "";
    this.log = options.log === false ? undefined : (options.log ?? ((line) => console.warn(line)));
  }

  /** The events the builder wrote since the last look: new ones are kept by id, and pushed unless `hold`. */
  private take(hold = false): TrajectoryEvent[] {
    const events = this.builder.finish(false).events;
    const fresh = events.slice(this.seen);
    this.seen = events.length;
    for (const event of fresh) {
      this.byId.set(event.id, event);
      if (!hold) this.monitor.push(event);
    }
    return fresh;
  }

  /** The event with this id, as the trace has it. */
  event(id: string): TrajectoryEvent | undefined {
    return this.byId.get(id);
  }

  /** A user message. */
  user(text: string): void {
    this.builder.user(text);
    this.take();
  }

  /** The agent's own text (a reply, not a call). */
  agentMessage(text: string): void {
    this.builder.agentMessage(text);
    this.take();
  }

  /**
   * Checks a tool call before it runs. Allowed, it is recorded; refused, it
   * is recorded with the refusal as its result, the refusal is logged, and
   * the monitor is left as it was.
   */
  call(name: string, args: unknown, callId?: string): Decision {
    const id = callId ?? `guard_call_${++this.calls}`;
    this.builder.call(name, argsText(args), id);
    const event = this.take(true)[0]!;
    const violations = this.monitor.check(event);
    if (violations.length === 0) {
      this.monitor.push(event);
      return { allowed: true, event };
    }
    const message = refusalMessage(name, violations, (k) => this.byId.get(k) ?? (k === event.id ? event : undefined));
    this.refused.add(id);
    this.builder.result(id, message, { error: true });
    this.take(true);
    this.log?.(`${message} (session ${JSON.stringify(this.builderId)})`);
    return { allowed: false, event, violations, message };
  }

  private get builderId(): string {
    return this.builder.id;
  }

  /** A call's result (a JSON object's fields become metadata); `error` marks a failed call. */
  result(callId: string, output: unknown, options: { error?: boolean } = {}): Violation[] {
    if (this.refused.has(callId)) return [];
    this.builder.result(callId, output, { error: options.error === true });
    const event = this.take(true)[0];
    return event === undefined ? [] : this.monitor.push(event);
  }

  /** What the session still owes (pairings, required, counts below their minimum). */
  pending(): Obligation[] {
    return this.monitor.pending();
  }

  /** The trace so far, refused calls and their refusals included. */
  trajectory(complete = false): Trajectory {
    const t = this.builder.finish(complete);
    return { id: t.id, description: t.description, complete, events: [...t.events] };
  }

  /** Ends the session: the judgment of what ran (the monitor's, semantic clauses included when a model is given). */
  end(complete = true): Promise<TrajectoryJudgment> {
    return this.monitor.end({ complete });
  }
}
