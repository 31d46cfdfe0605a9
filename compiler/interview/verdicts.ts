/**
 * The verdict questions of an interview (issue 25), asked before the clauses
 * by both front ends: "In refund-7, did the agent follow …? y/n/n.a.", with
 * the sample's events and the rule's section to answer from. Each answer goes
 * to InterviewInput.verdicts (the pipeline keeps it as a label and re-drafts
 * the rule); a skipped question is not asked again. When none is left, the
 * clause interview starts on the draft the answers left.
 */
import type { Trajectory } from "../../runtime/types.js";
import type { Draft, InterviewInput, LabelVerdict, VerdictQuestion } from "../generate/types.js";
import { verdictWord } from "../generate/verdicts.js";
import { excerpt } from "./evidence.js";
import { sectionBody } from "./state.js";

/** Events of the sample shown with a question; the rest are counted. */
const EVENTS_SHOWN = 60;

/** One verdict question as the front ends show it. */
export interface VerdictView {
  kind: "verdict";
  /** This question's number among those asked, and how many are open now (this one included). */
  number: number;
  open: number;
  text: string;
  rule: { name: string; section: string };
  /** What the drafted reading and the other reading that fits every label say on this sample. */
  readings: { draft: string; other: string };
  sample: {
    id: string;
    complete: boolean;
    events: { id: string; actor: string; action: string; metadata: Record<string, string>; excerpt: string }[];
    omitted: number;
  };
  /** What became of the previous answer (where the label went, how the rule now agrees), or "". */
  previous: string;
}

/** A person's answer: a verdict, or skip (the question stays a note). */
export type VerdictAnswer = LabelVerdict | "skip";

export class VerdictSession {
  #input: InterviewInput;
  #open: VerdictQuestion[];
  #skipped = new Set<string>();
  #previous = "";
  draft: Draft;
  /** Questions shown to the person, and answers kept as labels. */
  shown = 0;
  answered = 0;
  /** Where each kept answer was saved, in order. */
  saved: string[] = [];

  constructor(input: InterviewInput) {
    this.#input = input;
    this.draft = input.draft;
    this.#open = input.verdicts?.questions ?? [];
  }

  get done(): boolean {
    return this.#open.length === 0;
  }

  /** The question to show now; undefined when none is left. Counts it as shown the first time. */
  current(): VerdictView | undefined {
    const question = this.#open[0];
    if (question === undefined) return undefined;
    const sample = this.#input.samples.find((s) => s.id === question.sample);
    return {
      kind: "verdict",
      number: this.shown + (this.#counted === question ? 0 : 1),
      open: this.#open.length,
      text: question.text,
      rule: { name: question.ruleName, section: sectionBody(this.#input, question.ruleName) ?? "" },
      readings: { draft: verdictWord(question.readings.draft), other: verdictWord(question.readings.other) },
      sample: sampleView(sample, question.sample),
      previous: this.#previous,
    };
  }

  #counted: VerdictQuestion | undefined;

  /** Marks the current question as put to the person (once). */
  markShown(): void {
    const question = this.#open[0];
    if (question !== undefined && this.#counted !== question) {
      this.#counted = question;
      this.shown++;
    }
  }

  /** Takes the answer to the current question; the next one (if any) is current afterwards. */
  async answer(answer: VerdictAnswer): Promise<void> {
    const question = this.#open[0];
    if (question === undefined) throw new Error("interview: there is no verdict question to answer");
    this.markShown();
    if (answer === "skip" || this.#input.verdicts === undefined) {
      this.#skipped.add(key(question));
      this.#open = this.#open.slice(1);
      this.#previous = `Skipped: ${question.sample} is not labeled, and the question stays a note on ${JSON.stringify(question.ruleName)}.`;
      return;
    }
    const result = await this.#input.verdicts.answer(question, answer);
    this.answered++;
    if (result.savedTo !== undefined) this.saved.push(result.savedTo);
    this.draft = result.draft;
    this.#open = result.questions.filter((q) => !this.#skipped.has(key(q)));
    const index = this.draft.ir.metaBehaviors.findIndex((r) => r.name === question.ruleName);
    const agreement = this.draft.notes.find((n) => n.rule === index && n.kind === "labels")?.message;
    const where = result.savedTo === undefined ? "kept for this run only (not saved)" : `saved to ${result.savedTo}`;
    this.#previous = `${question.sample}: ${verdictWord(answer)}, kept as a label, ${where}. ${JSON.stringify(question.ruleName)} was drafted again with it${agreement === undefined ? "" : `: ${agreement}`}.`;
  }

  /** What became of the last answer, or "". */
  get previous(): string {
    return this.#previous;
  }

  /** Leaves every open question unasked (the input ended): they stay notes. */
  skipRest(): void {
    this.#open = [];
  }

  /** What the clause interview starts from: the draft the answers left, no verdict questions. */
  clauseInput(): InterviewInput {
    const { verdicts: _done, ...rest } = this.#input;
    return { ...rest, draft: this.draft };
  }
}

function key(q: VerdictQuestion): string {
  return JSON.stringify([q.ruleName, q.sample]);
}

function sampleView(sample: Trajectory | undefined, id: string): VerdictView["sample"] {
  if (sample === undefined) return { id, complete: true, events: [], omitted: 0 };
  const events = sample.events.slice(0, EVENTS_SHOWN).map((e) => ({
    id: e.id,
    actor: e.actor,
    action: e.action,
    metadata: Object.fromEntries(Object.entries(e.metadata ?? {}).map(([k, v]) => [k, String(v)])),
    excerpt: excerpt(typeof e.content === "string" ? e.content : ""),
  }));
  return { id, complete: sample.complete, events, omitted: sample.events.length - events.length };
}
