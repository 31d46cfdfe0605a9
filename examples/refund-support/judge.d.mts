// Types of a judge.mjs built by behavior-judge. Generated beside judge.mjs; do not edit.

export type Verdict = "true" | "false" | "na";
export type NaReason = "not_applicable" | "insufficient_evidence";
export type Actor = "user" | "agent" | "tool";
export type CheckType = "ordering" | "pairing" | "required" | "forbidden" | "count" | "condition";

/** A trajectory as docs/FORMATS.md §2 describes it; validated by `judgeTrajectory`. */
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
  reasoning?: string;
  verification?: "confirmed" | "overturned" | "unverified";
  predicateVerdict?: Verdict;
  check?: CheckType | "trigger" | "question";
  error?: string;
  /** On a false deterministic clause: what the check looked for (for the extended rule language, also what it found). */
  explanation?: string;
  /** On a false ordering, forbidden or count clause: what it found (the `before` event and the near misses before it, or the matches), in one sentence. */
  found?: string;
}

export interface MetaBehaviorJudgment {
  name: string;
  verdict: Verdict;
  naReason: NaReason | null;
  /** Present (true) only when a clause got no valid model answer; the verdict is then false or na, never true. */
  error?: true;
  triggered: boolean;
  clauses: Clause[];
}

/** What model calls cost, booked into `JudgeOptions.usage` (never part of a judgment). */
export interface SemanticUsage {
  /** Adapter calls the model answered (the retry after an invalid answer is one more). */
  calls: number;
  /** Answers the host served from its cache, at no cost. */
  cachedCalls: number;
  /** Adapter calls that threw. */
  failedCalls: number;
  /** Requests the host sent, its own retries included (as `AdapterReply.requests` or the error's `requests` say; else 1 per call). */
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

export interface TrajectoryJudgment {
  behavior: string;
  trajectoryId: string;
  verdict: Verdict;
  /** Present (true) only when a rule carries `error`. */
  error?: true;
  metaBehaviors: MetaBehaviorJudgment[];
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface AdapterReply {
  text: string;
  usage?: { inputTokens: number; outputTokens: number };
  cached?: boolean;
  /** Requests sent for this answer, the host's retries included (default 1); a thrown error may carry `requests` too. */
  requests?: number;
  /** Called once the text validated: a host cache stores only answers it was told were accepted. */
  accept?: () => void | Promise<void>;
}

/** The semantic-call adapter: chat messages in, the model's text out. */
export type SemanticAdapter = (messages: ChatMessage[]) => Promise<string | AdapterReply>;

export interface JudgeOptions {
  /** Without an adapter, semantic clauses come out na `insufficient_evidence`. */
  complete?: SemanticAdapter;
  /** Ask the model to confirm each deterministic false (default true). */
  verify?: boolean;
  /** Model calls of the judgment are added to this (kept out of the judgment, whose bytes depend only on the inputs). */
  usage?: SemanticUsage;
}

export interface RuleInfo {
  readonly name: string;
  /** The judge.yaml line the rule starts on (absent when built from an IR without positions). */
  readonly line?: number;
  readonly trigger: { readonly description: string; readonly kind: "match" | "semantic" };
  /** Each check's type, quote, what it looks for in words (shown under a false clause that has no explanation of its own), and line. */
  readonly checks: readonly { readonly type: CheckType; readonly quote: string; readonly expected?: string; readonly line?: number }[];
  readonly semanticChecks: readonly { readonly quote: string; readonly question: string }[];
}

/** A deterministic clause that became certainly false while a monitor ran; `eventIds` are what it cites so far. */
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

/** What a triggered rule still needs (a follower, a required match, a count below `min`), with the events that created it. */
export interface Obligation {
  rule: string;
  checkIndex: number;
  type: CheckType;
  quote: string;
  eventIds: string[];
}

/** The trajectory a monitor watches: everything but `complete` and `events`. */
export interface MonitorHeader {
  id: string;
  description?: string | null;
}

/** A judge fed one event at a time, beside a live agent. */
export interface Monitor {
  /** Adds the next event; returns the violations it made certain (or added citations to). Throws TrajectoryError for a bad event or a repeated id, changing nothing. */
  push(event: unknown): Violation[];
  /** What `push(event)` would return, changing nothing: ask before a tool call runs. */
  check(event: unknown): Violation[];
  /** What is still owed, by rules whose match trigger has fired. */
  pending(): Obligation[];
  /** The judgment `judgeTrajectory` gives for the same events and options. The monitor takes no more events. */
  end(options: { complete: boolean }): Promise<TrajectoryJudgment>;
}

/** Thrown for a trajectory that breaks the format; `field` names the offending path (`events[3].actor`). */
export declare class TrajectoryError extends Error {
  readonly field: string;
  constructor(field: string, message: string);
}

/** The behavior-judge version that generated this judge. */
export declare const version: string;
/** The spec name (judge.yaml `behavior`). */
export declare const behavior: string;
/** sha256 of the judge.yaml text this judge was built from. */
export declare const judgeYamlSha256: string;
/** `judgeYamlSha256` under its first name, kept for compatibility: it hashes the judge.yaml text, not the IR. */
export declare const irSha256: string;
export declare const rules: readonly RuleInfo[];
export declare function judgeTrajectory(trajectory: unknown, options?: JudgeOptions): Promise<TrajectoryJudgment>;
/** A monitor for one trajectory, given its header; `options` as for `judgeTrajectory`. */
export declare function createMonitor(header: MonitorHeader, options?: JudgeOptions): Monitor;
/**
 * A judgment as text for a failed test: the headline verdict (with undecided clauses counted),
 * then each failing or undecided rule with its clauses' type, quote and cited events (by id,
 * actor/action and clipped content when `trajectory` is given). The same text as
 * `behavior-judge/testing`'s AssertionError.
 */
export declare function formatJudgment(judgment: TrajectoryJudgment, options?: { trajectory?: { readonly events?: readonly TrajectoryInput["events"][number][] }; clip?: number }): string;
