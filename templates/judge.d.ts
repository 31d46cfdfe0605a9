// Types of a judge.mjs built by behavior-judge. Generated beside judge.mjs; do not edit.

/** A verdict string, as in the reference output. */
export type Verdict = "true" | "false" | "na";

/** Why a verdict is `na`. */
export type NaReason = "not_applicable" | "insufficient_evidence";

export type Actor = "user" | "agent" | "tool";

export type CheckType = "ordering" | "pairing" | "required" | "forbidden" | "count" | "condition";

/**
 * A trajectory as a producer writes it (docs/FORMATS.md §2), before validation:
 * what `judgeTrajectory` accepts (it takes `unknown` and checks it).
 */
export interface TrajectoryInput {
  id: string;
  description?: string | undefined;
  complete: boolean;
  events: {
    id: string;
    actor: Actor;
    action: string;
    content?: string | undefined;
    metadata?: Record<string, unknown> | undefined;
  }[];
}

export interface Citation {
  eventId: string;
  description: string;
}

export interface Clause {
  kind: "predicate" | "semantic";
  quote: string;
  verdict: Verdict;
  naReason: NaReason | null;
  citations: Citation[];
  /** The model's reasoning, or why no model decided. */
  reasoning?: string;
  verification?: Verification;
  predicateVerdict?: Verdict;
  /** Extension: the deterministic check type, or "trigger" / "question" for semantic clauses. */
  check?: CheckType | "trigger" | "question";
  /** Extension: set when the model could not give a valid answer. */
  error?: string;
  /**
   * Extension: what a false clause of the extended language expected and what
   * it found (a condition's expression and the values it compared, a key and
   * its value, the events that came instead of a follower), in one sentence.
   */
  explanation?: string;
  /**
   * Extension: what a false ordering, forbidden or count clause found, in one
   * sentence (runtime/evidence.ts): the `before` event and the earlier events
   * of `first`'s action that did not match it, or the matches, each with the
   * fields its pattern tests.
   */
  found?: string;
}

/** Whether a model confirmed a deterministic `false` (verify-on-false). */
export type Verification = "confirmed" | "overturned" | "unverified";

export interface MetaBehaviorJudgment {
  name: string;
  verdict: Verdict;
  naReason: NaReason | null;
  /**
   * Extension: set (to true, and only then) when a clause of this rule got no
   * valid model answer. The verdict is then false if a clause is false, else
   * na `insufficient_evidence`: never true (docs/FORMATS.md §4).
   */
  error?: true;
  triggered: boolean;
  clauses: Clause[];
}

/**
 * What model calls cost. Each adapter call (the retry after an invalid
 * answer is one more) is `calls` when the model answered, `cachedCalls` when
 * the host's cache did (at no cost), or `failedCalls` when it threw.
 * `requests` are what the host sent for them, its retries included: every
 * request beyond the one per answered call failed. Tokens are those the
 * provider reported.
 */
export interface SemanticUsage {
  calls: number;
  cachedCalls: number;
  failedCalls: number;
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

export interface TrajectoryJudgment {
  behavior: string;
  trajectoryId: string;
  verdict: Verdict;
  /** Extension: set (to true, and only then) when a rule carries `error` (docs/FORMATS.md §4). */
  error?: true;
  metaBehaviors: MetaBehaviorJudgment[];
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface AdapterReply {
  text: string;
  usage?: AdapterUsage;
  /** True when the host served the answer from its cache. */
  cached?: boolean;
  /**
   * Requests the host sent for this answer, its own retries included
   * (default 1). A host that throws may set `requests` on the error too.
   */
  requests?: number;
  /**
   * Set by a host that stores answers (an answer cache): called once the
   * text validated, so that only answers the judge accepted are stored and
   * a bad reply is asked again on the next run instead of replayed.
   */
  accept?: () => void | Promise<void>;
}

/** Token usage as the provider reported it, when it did. */
export interface AdapterUsage {
  inputTokens: number;
  outputTokens: number;
}

/** The host's semantic-call adapter: chat messages in, the model's text out. */
export type SemanticAdapter = (messages: ChatMessage[]) => Promise<string | AdapterReply>;

export interface JudgeOptions {
  /** The semantic-call adapter. Without it, semantic clauses are na `insufficient_evidence`. */
  complete?: SemanticAdapter;
  /** Ask the model to confirm each deterministic false (default true). */
  verify?: boolean;
  /**
   * Where the model calls of this judgment are booked (added to, so one
   * object may total several judgments). What the calls cost depends on the
   * run (a cache hit is free), so it is kept out of the judgment, whose
   * bytes must depend only on the inputs (docs/FORMATS.md §6).
   */
  usage?: SemanticUsage;
}

/** The public description of one rule, exported by every judge as `rules`. */
export interface RuleInfo {
  readonly name: string;
  /** The judge.yaml line the rule starts on (1-based); absent when the judge was compiled from an IR without positions. */
  readonly line?: number;
  readonly trigger: {
    readonly description: string;
    readonly kind: "match" | "semantic";
  };
  /** Each check's type, quote, what it looks for in words (shown under a false clause that has no explanation of its own), and line. */
  readonly checks: readonly {
    readonly type: CheckType;
    readonly quote: string;
    readonly expected?: string;
    readonly line?: number;
  }[];
  readonly semanticChecks: readonly {
    readonly quote: string;
    readonly question: string;
  }[];
}

/**
 * A deterministic clause that became certainly false while a monitor ran
 * (docs/FORMATS.md §9): no continuation of the trajectory can
 * change its verdict. `eventIds` are the ids the clause cites so far; the
 * final judgment's clause cites at least these.
 */
export interface Violation {
  /** The meta-behavior's name. */
  rule: string;
  /** The check's index in the rule's `checks`. */
  checkIndex: number;
  type: CheckType;
  quote: string;
  eventIds: string[];
  /**
   * What was expected of the newest event reported and what came instead, for
   * the checks that can say so (ordering with `on` or `fresh`, pairing with
   * `within`, condition: its expression, the bound events and the values
   * compared); absent for the others, whose quote and events say it.
   */
  explanation?: string;
}

/**
 * What a rule still needs from the rest of a trajectory: an `each` match with
 * no follower yet (pairing), a required match not seen yet, a count below its
 * `min`. Each fails only if the trajectory ends complete without it.
 * `eventIds` are the events that created it: the waiting `each` matches, the
 * event that opened an `after:` window, the matches counted so far.
 */
export interface Obligation {
  rule: string;
  checkIndex: number;
  type: CheckType;
  quote: string;
  eventIds: string[];
}

/** The trajectory a monitor watches, as its header: everything but `complete` and `events`. */
export interface MonitorHeader {
  id: string;
  description?: string | null;
}

/**
 * A judge running beside a live agent (docs/FORMATS.md §9):
 * events are pushed one at a time, and a violation is reported at the first
 * event that makes it certain. `push` and `check` are synchronous.
 */
export interface Monitor {
  /**
   * Adds the next event; returns the violations it made certain, or added
   * citations to.
   * @throws TrajectoryError (field `events[<n>]…`) for an event that breaks the format or repeats an id; the monitor is then unchanged.
   */
  push(event: unknown): Violation[];
  /** What `push(event)` would return, changing nothing: ask before a tool call runs. */
  check(event: unknown): Violation[];
  /** What is still owed, by rules whose match trigger has fired. */
  pending(): Obligation[];
  /**
   * Ends the trajectory: the judgment `judgeTrajectory` gives for the same
   * header, events and options, model calls included. The monitor takes no
   * more events.
   */
  end(options: { complete: boolean }): Promise<TrajectoryJudgment>;
}

export interface FormatJudgmentOptions {
  /** The judged trajectory: cited events are then shown by id, action and clipped content. */
  trajectory?:
    | {
        readonly events?: readonly TrajectoryInput["events"][number][];
      }
    | undefined;
  /** Characters of event content shown per cited event (default 80). */
  clip?: number;
}

/** The behavior-judge version that generated the judge. */
export declare const version: string;

/** The spec name (judge.yaml `behavior`). */
export declare const behavior: string;

/** sha256 (hex) of the judge.yaml text the judge was built from. */
export declare const judgeYamlSha256: string;

/** The same hash under its first name; it hashes the judge.yaml text, not the IR. */
export declare const irSha256: string;

/** Each rule as judge.yaml states it: name, line, trigger, checks. */
export declare const rules: readonly RuleInfo[];

/** The judgment of one trajectory (docs/FORMATS.md §2), validated first: a bad one throws TrajectoryError. */
export declare function judgeTrajectory(trajectory: unknown, options?: JudgeOptions): Promise<TrajectoryJudgment>;

/** A monitor for one trajectory, given its header; `options` as for `judgeTrajectory`. */
export declare function createMonitor(header: MonitorHeader, options?: JudgeOptions): Monitor;

/**
 * Runs every rule's code over synthetic events in monitors of its own, so
 * that the first checks of a real monitor do not pay for code V8 has never
 * run (docs/MONITOR.md). Changes no monitor and no result; calls no model.
 * Returns the number of synthetic events pushed: 0 when this judge was warmed already.
 */
export declare function warm(): number;

/** A trajectory that breaks docs/FORMATS.md §2; `field` is a path like `events[3].actor`. */
export declare class TrajectoryError extends Error {
  readonly field: string;
  constructor(field: string, message: string);
}

/**
 * The text of a judgment: a headline with the verdict, then every rule that
 * failed or could not be decided, with its failing (or undecided) clauses.
 */
export declare function formatJudgment(judgment: TrajectoryJudgment, options?: FormatJudgmentOptions): string;
