/**
 * The data that flows through `generate`: sample vocabulary → a draft
 * judge.yaml (from a model or the offline drafter) → an interview in which a
 * person confirms each rule → the judge.yaml written. Shared by the drafters
 * and the interview front ends (browser and terminal).
 */
import type { Actor, Trajectory } from "../../runtime/types.js";
import type { Check, JudgeIR, MetaBehavior, SemanticCheck } from "../ir/types.js";
import type { BehaviorSpec } from "../behavior-md/load.js";

/** What the sample trajectories show: the words a judge.yaml may use. */
export interface Vocabulary {
  /** Every action seen, with the actors that performed it and how often (sorted by action). */
  actions: { action: string; actors: Actor[]; count: number }[];
  /** Every metadata key seen, with up to five example values (sorted by key). */
  metadataKeys: { key: string; values: string[]; count: number }[];
  /** Up to three content samples per action (sorted by action). */
  contentSamples: { action: string; samples: string[] }[];
  /**
   * Per action, each metadata key it carries with its most frequent values
   * (sorted by action, then key). Lets a drafter see that `status: found`
   * belongs to `get_order_result`. Optional: hand-made vocabularies may omit it.
   */
  actionMetadata?: ActionMetadata[];
  /**
   * Set when no sample trajectories were given: the names were guessed from
   * the spec's wording (its code spans), so nothing says a trace uses them,
   * and there are no samples to preview a draft on.
   */
  guessed?: true;
}

/** One metadata key as one action uses it. */
export interface ActionMetadata {
  action: string;
  key: string;
  /** Events of this action that carry the key. */
  count: number;
  /** Distinct values seen. */
  distinct: number;
  /** Up to ten values, most frequent first (ties in code-point order). */
  values: { value: string; count: number }[];
}

/** Where in a rule a note points. `index` is within `checks` or `semanticChecks`. */
export type ClauseRef = { kind: "trigger" } | { kind: "check"; index: number } | { kind: "semanticCheck"; index: number };

/** Something the person should look at before accepting a rule. */
export interface DraftNote {
  /** Index into `ir.metaBehaviors`. */
  rule: number;
  clause?: ClauseRef;
  kind:
    | "unknown-action"
    | "unknown-metadata-key"
    | "unmapped-clause"
    | "quote-not-verbatim"
    | "model-retry"
    | "model-redraft"
    /** A sentence (or sub-clause) of the section that states an obligation no clause quotes (coverage.ts). */
    | "uncovered-sentence"
    /** A name or `key: value` the spec writes in backticks, used as written though no sample shows it. */
    | "not-in-samples"
    /** How the rule agrees with the labels given, its runner-up readings, and the verdict question that separates them. */
    | "labels";
  message: string;
}

/** A proposed judge.yaml before a person has confirmed it. Every rule carries `source`. */
export interface Draft {
  ir: JudgeIR;
  notes: DraftNote[];
  /** Who drafted each rule, by rule index: the model, the offline drafter, or carried over by --update. */
  origins: ("model" | "offline" | "carried")[];
  /**
   * Verdict questions that would settle a reading (issue 25): for a rule re-read from labels, an
   * unlabeled sample on which the readings that fit the labels disagree. The answer is a label:
   * draft again with it (verdicts.ts: withAnswer) and the rule is re-chosen among the readings
   * that agree with it. Only the offline drafter with labels sets it.
   */
  questions?: VerdictQuestion[];
}

/** A rule verdict a person gives a sample: followed, broken, or not applicable. */
export type LabelVerdict = "true" | "false" | "na";

/** "In refund-7, did the agent follow 'Look up the order first'? y/n/n.a.": a question about a sample, not about YAML. */
export interface VerdictQuestion {
  /** Index into the draft's rules. */
  rule: number;
  ruleName: string;
  /** The sample's trajectory id. */
  sample: string;
  /** The question as asked: `In <sample>, did the agent follow "<rule>"? y/n/n.a.` */
  text: string;
  /** The drafted reading's verdict on the sample, and the runner-up's: the answer picks between them (or neither). */
  readings: { draft: LabelVerdict; other: LabelVerdict };
  /** The other reading itself, when the drafter has it: an answer for it may pick it (verdict-readings.ts). */
  other?: MetaBehavior;
  /** Asked of a rule no label speaks of, between readings its words support: no note on the rule says so. */
  fromWords?: true;
}

/** What the interview needs to show a person. */
export interface InterviewInput {
  spec: BehaviorSpec;
  draft: Draft;
  vocabulary: Vocabulary;
  /** The sample trajectories, for evidence: the events each trigger and check would match. */
  samples: Trajectory[];
  /**
   * Rule indexes to ask about; the others are carried over without a question
   * (generate --update). Undefined means every rule.
   */
  ask?: number[];
  /**
   * Clauses of asked rules that are already settled and need no question
   * (generate --update: a changed rule's trigger and the clauses whose quotes
   * survived the edit). A front end may show them for context. Additive:
   * front ends that ignore it ask about the whole rule.
   */
  settled?: { rule: number; clause: ClauseRef }[];
  /**
   * Verdict questions to ask before the clauses (issue 25), and what to do with an answer. A front
   * end without a person to ask (scripted use) leaves it alone: the questions stay notes.
   */
  verdicts?: VerdictAsking;
}

/** The verdict questions of a draft, and the answer's effect: the rule re-drafted, the label kept. */
export interface VerdictAsking {
  questions: VerdictQuestion[];
  /**
   * Keeps the answer as a label (saved where `savedTo` says) and re-drafts the question's rule
   * with it; resolves with the whole draft and the questions still open, for the rules asked.
   */
  answer(question: VerdictQuestion, verdict: LabelVerdict): Promise<{ draft: Draft; questions: VerdictQuestion[]; savedTo?: string }>;
}

/** A person's decision on one clause. */
export type ClauseDecision =
  | { action: "accept" }
  | { action: "edit"; check: Check }
  | { action: "edit-semantic"; semanticCheck: SemanticCheck }
  | { action: "to-semantic"; question: string }
  | { action: "drop" };

/** The interview's result: the confirmed judge.yaml IR and how many questions were asked. */
export interface InterviewResult {
  ir: JudgeIR;
  questionsAsked: number;
}

/** A front end: the browser interview (default) or the terminal one (`--no-web`). */
export type Interviewer = (input: InterviewInput) => Promise<InterviewResult>;
