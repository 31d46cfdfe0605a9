/**
 * Types shared by every compiled judge. This file is inlined into each
 * judge.mjs, so it imports nothing.
 */

/** A verdict string, as in the reference output. */
export type Verdict = "true" | "false" | "na";

/** Why a verdict is `na`. */
export type NaReason = "not_applicable" | "insufficient_evidence";

export type Actor = "user" | "agent" | "tool";

/**
 * One event of a validated trajectory. Absent `content` means "" and absent
 * `metadata` means no keys; present values are strings. Validation reuses the
 * caller's event objects when they are already in this form, so judging a
 * parsed JSON trajectory allocates nothing per event.
 */
export interface TrajectoryEvent {
  readonly id: string;
  readonly actor: Actor;
  readonly action: string;
  readonly content?: string | undefined;
  readonly metadata?: Readonly<Record<string, string>> | undefined;
}

/** A validated trajectory (FORMATS.md §2). */
export interface Trajectory {
  readonly id: string;
  readonly description: string;
  readonly complete: boolean;
  readonly events: readonly TrajectoryEvent[];
}

export interface Citation {
  eventId: string;
  description: string;
}

/** Whether a model confirmed a deterministic `false` (verify-on-false). */
export type Verification = "confirmed" | "overturned" | "unverified";

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
}

export interface MetaBehaviorJudgment {
  name: string;
  verdict: Verdict;
  naReason: NaReason | null;
  /**
   * Extension: set (to true, and only then) when a clause of this rule got no
   * valid model answer. The verdict is then false if a clause is false, else
   * na `insufficient_evidence`: never true (FORMATS.md §4).
   */
  error?: true;
  triggered: boolean;
  clauses: Clause[];
}

export interface TrajectoryJudgment {
  behavior: string;
  trajectoryId: string;
  verdict: Verdict;
  /** Extension: set (to true, and only then) when a rule carries `error` (FORMATS.md §4). */
  error?: true;
  metaBehaviors: MetaBehaviorJudgment[];
}

export type CheckType = "ordering" | "pairing" | "required" | "forbidden" | "count";
