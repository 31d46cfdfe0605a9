/**
 * `generate --update`: bring an existing judge.yaml up to date with an edited
 * spec while asking as little as possible. Each rule's `source:` is the
 * section body it was confirmed against, so:
 *
 * - a section whose body equals its rule's source is carried over as is: no
 *   question, no model call;
 * - a rule whose section is gone is dropped, with a notice;
 * - a new section is drafted and interviewed like in a first run;
 * - a changed section keeps its trigger and every clause whose quote still
 *   occurs verbatim; only clauses drafted from its new wording are asked,
 *   and the trigger too when the section's occurrence line ("Each X is one
 *   occurrence.") changed: that line says when the rule applies.
 *
 * Sections are matched to rules by heading: a renamed heading reads as one
 * rule removed and one added.
 */
import type { Check, JudgeIR, MetaBehavior, SemanticCheck } from "../ir/types.js";
import type { BehaviorSpec, SpecSection } from "../behavior-md/load.js";
import { sectionSentences } from "./offline/sentences.js";
import type { ClauseRef, Draft, DraftNote, VerdictQuestion } from "./types.js";
import { normalizeWhitespace, quoteOccurs } from "./offline/words.js";

export type SectionPlan =
  | { kind: "unchanged"; section: SpecSection; rule: MetaBehavior }
  | { kind: "added"; section: SpecSection }
  | {
      kind: "changed";
      section: SpecSection;
      previous: MetaBehavior;
      /** Clauses whose quotes occur verbatim in the new body, in their old order. */
      kept: { checks: Check[]; semanticChecks: SemanticCheck[] };
      /** Quotes of the clauses that no longer occur. */
      dropped: string[];
      /** Rule sentences of the new body that the old source does not contain. */
      newSentences: string[];
      /** The occurrence lines differ from the old source's: the trigger is drafted and asked again. */
      triggerChanged: boolean;
    };

export interface UpdatePlan {
  /** One entry per spec section, in spec order. */
  sections: SectionPlan[];
  /** Previous rules whose heading is no longer a section. */
  removed: MetaBehavior[];
  /** What the person should be told: removals, dropped clauses, rules without a source. */
  notices: string[];
}

function sameText(a: string, b: string): boolean {
  return normalizeWhitespace(a) === normalizeWhitespace(b);
}

/** The sentences that say what one occurrence of the rule is, for comparing two versions of a section. */
function occurrenceLines(body: string): string {
  return JSON.stringify(
    sectionSentences(body)
      .filter((s) => s.role === "occurrence")
      .map((s) => s.text),
  );
}

/** Plans the update; pure, so it can be tested without a model or an interview. */
export function planUpdate(spec: BehaviorSpec, previous: JudgeIR): UpdatePlan {
  const notices: string[] = [];
  const byName = new Map(previous.metaBehaviors.map((rule) => [rule.name, rule]));
  const sections = spec.sections.map((section): SectionPlan => {
    const rule = byName.get(section.heading);
    if (rule === undefined) return { kind: "added", section };
    if (rule.source !== undefined && sameText(rule.source, section.body)) return { kind: "unchanged", section, rule };
    if (rule.source === undefined)
      notices.push(
        `${JSON.stringify(rule.name)} has no source: in the previous judge.yaml, so its clauses were checked against the section one by one`,
      );
    const kept = {
      checks: rule.checks.filter((c) => quoteOccurs(c.quote, section.body)),
      semanticChecks: rule.semanticChecks.filter((c) => quoteOccurs(c.quote, section.body)),
    };
    const dropped = [...rule.checks, ...rule.semanticChecks].map((c) => c.quote).filter((q) => !quoteOccurs(q, section.body));
    for (const quote of dropped)
      notices.push(`${JSON.stringify(rule.name)}: dropped the clause quoting ${JSON.stringify(quote)}, which the section no longer says`);
    const oldSource = rule.source ?? "";
    const newSentences = sectionSentences(section.body)
      .filter((s) => s.role === "rule" && !quoteOccurs(s.text, oldSource))
      .map((s) => s.text);
    // Without a source there is nothing to compare with: the trigger stays, as before.
    const triggerChanged = rule.source !== undefined && occurrenceLines(rule.source) !== occurrenceLines(section.body);
    return { kind: "changed", section, previous: rule, kept, dropped, newSentences, triggerChanged };
  });
  const headings = new Set(spec.sections.map((s) => s.heading));
  const removed = previous.metaBehaviors.filter((rule) => !headings.has(rule.name));
  for (const rule of removed)
    notices.push(`dropped the rule ${JSON.stringify(rule.name)}: the spec has no section with that heading any more`);
  return { sections, removed, notices };
}

/** Whether a changed section needs the drafter: it says something new, or nothing of its rule survived. */
function needsDrafting(entry: SectionPlan): boolean {
  if (entry.kind === "unchanged") return false;
  if (entry.kind === "added") return true;
  return entry.newSentences.length > 0 || entry.triggerChanged || entry.kept.checks.length + entry.kept.semanticChecks.length === 0;
}

/** The sections a drafter must see: added ones, and changed ones with new wording. */
export function sectionsToDraft(plan: UpdatePlan): SpecSection[] {
  return plan.sections.filter(needsDrafting).map((p) => p.section);
}

/** Drafts the given sections (offline or through the model); `calls` counts model requests. */
export type SectionDrafter = (sections: readonly SpecSection[]) => Promise<{ draft: Draft; calls: number; fallback?: string }>;

export interface UpdateDraft {
  /** The whole judge.yaml to interview, in spec order. */
  draft: Draft;
  /** Rules the interview asks about (added and changed). */
  ask: number[];
  /** Clauses of asked rules that need no question: a changed rule's trigger and its kept clauses. */
  settled: { rule: number; clause: ClauseRef }[];
  /** Questions the plan calls for: every clause of an added rule (trigger included), the new clauses of a changed one. */
  plannedQuestions: number;
  /** Model requests made while drafting (0 when nothing changed or when drafting offline). */
  calls: number;
  fallback?: string;
}

/** A clause is new when the old source did not already say it. */
function isNewClause(quote: string, oldSource: string | undefined): boolean {
  return oldSource === undefined || !quoteOccurs(quote, oldSource);
}

function remapNote(note: DraftNote, rule: number, clause: ClauseRef | undefined): DraftNote {
  const { clause: _old, ...rest } = note;
  return { ...rest, rule, ...(clause === undefined ? {} : { clause }) };
}

/**
 * Merges one changed section: the old trigger (the drafted one when the
 * occurrence line changed) and kept clauses first, then the drafted clauses
 * the old source did not contain.
 */
function mergeChanged(plan: Extract<SectionPlan, { kind: "changed" }>, drafted: MetaBehavior, draftedNotes: DraftNote[], rule: number) {
  const oldSource = plan.previous.source;
  const newChecks = drafted.checks.map((c, i) => ({ c, i })).filter(({ c }) => isNewClause(c.quote, oldSource));
  const newSemantic = drafted.semanticChecks.map((c, i) => ({ c, i })).filter(({ c }) => isNewClause(c.quote, oldSource));
  const merged: MetaBehavior = {
    name: plan.section.heading,
    trigger: plan.triggerChanged ? drafted.trigger : plan.previous.trigger,
    checks: [...plan.kept.checks, ...newChecks.map(({ c }) => c)],
    semanticChecks: [...plan.kept.semanticChecks, ...newSemantic.map(({ c }) => c)],
    source: plan.section.body,
  };
  const notes: DraftNote[] = [];
  for (const note of draftedNotes) {
    const clause = note.clause;
    if (clause?.kind === "check") {
      const at = newChecks.findIndex(({ i }) => i === clause.index);
      if (at >= 0) notes.push(remapNote(note, rule, { kind: "check", index: plan.kept.checks.length + at }));
    } else if (clause?.kind === "semanticCheck") {
      const at = newSemantic.findIndex(({ i }) => i === clause.index);
      if (at >= 0) notes.push(remapNote(note, rule, { kind: "semanticCheck", index: plan.kept.semanticChecks.length + at }));
    } else if (plan.triggerChanged || note.kind === "model-redraft") notes.push(remapNote(note, rule, clause));
  }
  const settled: ClauseRef[] = [
    ...(plan.triggerChanged ? [] : [{ kind: "trigger" } as const]),
    ...plan.kept.checks.map((_, index): ClauseRef => ({ kind: "check", index })),
    ...plan.kept.semanticChecks.map((_, index): ClauseRef => ({ kind: "semanticCheck", index })),
  ];
  return { merged, notes, settled, questions: newChecks.length + newSemantic.length + (plan.triggerChanged ? 1 : 0) };
}

/**
 * Turns a plan into the draft to interview. The drafter is called once, for
 * the added and changed sections only, and not at all when there are none.
 */
export async function draftUpdate(spec: BehaviorSpec, plan: UpdatePlan, drafter: SectionDrafter): Promise<UpdateDraft> {
  const toDraft = sectionsToDraft(plan);
  const drafted = toDraft.length === 0 ? undefined : await drafter(toDraft);
  const metaBehaviors: MetaBehavior[] = [];
  const origins: Draft["origins"] = [];
  const notes: DraftNote[] = [];
  const questions: VerdictQuestion[] = [];
  const ask: number[] = [];
  const settled: UpdateDraft["settled"] = [];
  let plannedQuestions = 0;
  plan.sections.forEach((entry, rule) => {
    if (entry.kind === "unchanged") {
      metaBehaviors.push(entry.rule);
      origins.push("carried");
      return;
    }
    if (entry.kind === "changed" && !needsDrafting(entry)) {
      // Only wording around the clauses changed (or clauses were removed): carry what survives, ask nothing.
      metaBehaviors.push({
        ...entry.previous,
        checks: entry.kept.checks,
        semanticChecks: entry.kept.semanticChecks,
        source: entry.section.body,
      });
      origins.push("carried");
      return;
    }
    const draftedIndex = toDraft.indexOf(entry.section);
    const draftedRule = drafted!.draft.ir.metaBehaviors[draftedIndex]!;
    const draftedNotes = drafted!.draft.notes.filter((n) => n.rule === draftedIndex);
    const origin = drafted!.draft.origins[draftedIndex] ?? "offline";
    if (entry.kind === "changed") {
      const merged = mergeChanged(entry, draftedRule, draftedNotes, rule);
      if (merged.merged.checks.length + merged.merged.semanticChecks.length > 0) {
        metaBehaviors.push(merged.merged);
        origins.push(merged.questions > 0 ? origin : "carried");
        notes.push(...merged.notes);
        if (merged.questions > 0) {
          ask.push(rule);
          settled.push(...merged.settled.map((clause) => ({ rule, clause })));
          plannedQuestions += merged.questions;
        }
        return;
      }
      // Nothing of the old rule survived and nothing new was drafted: interview the fresh draft whole.
    }
    ask.push(rule);
    metaBehaviors.push({ ...draftedRule, source: entry.section.body });
    origins.push(origin);
    notes.push(...draftedNotes.map((n) => ({ ...n, rule })));
    // The rule is the fresh draft whole, so its verdict questions hold as they are (an answer re-drafts
    // the section, which is what this rule is). A merged rule's are left: a re-draft would drop what it kept.
    questions.push(...(drafted!.draft.questions ?? []).filter((q) => q.rule === draftedIndex).map((q) => ({ ...q, rule })));
    plannedQuestions += 1 + draftedRule.checks.length + draftedRule.semanticChecks.length;
  });
  return {
    draft: { ir: { version: 1, behavior: spec.name, metaBehaviors }, notes, origins, ...(questions.length > 0 ? { questions } : {}) },
    ask,
    settled,
    plannedQuestions,
    calls: drafted?.calls ?? 0,
    ...(drafted?.fallback !== undefined ? { fallback: drafted.fallback } : {}),
  };
}
