/**
 * The model's proposal: the spec's sections, the samples' vocabulary and the
 * judge.yaml rules go to the model, which answers with judge.yaml text. The
 * answer is checked by the same parser `build` uses; its problems go back to
 * the model once. A second failure (or a failed call) falls back to the
 * offline drafter, loudly: the person is told, every rule carries a note,
 * and the interview that follows reviews every rule either way. A proposal
 * that parses is then previewed on the samples (see selfCheck): rules that
 * judge them implausibly go back to the model once more, with the evidence.
 */
import { isDeepStrictEqual } from "node:util";
import type { ChatMessage, SemanticAdapter, SemanticUsage } from "../../runtime/semantic.js";
import { callAdapter, type AdapterAnswer } from "../../runtime/semantic.js";
import { exactValue } from "../ir/values.js";
import type { Trajectory } from "../../runtime/types.js";
import { formatDiagnostic, type Diagnostic } from "../diagnostics.js";
import { parseJudgeYaml } from "../ir/parse.js";
import type { JudgeIR, MetaBehavior, Pattern } from "../ir/types.js";
import type { BehaviorSpec, SpecSection } from "../behavior-md/load.js";
import { draftOffline } from "./offline/draft.js";
import type { ClauseRef, Draft, DraftNote, Vocabulary } from "./types.js";
import { vocabularyNames } from "./vocabulary.js";
import { proposalMessages, proposalRetryMessage } from "./prompt.js";
import { quoteOccurs } from "./offline/words.js";
import { plural } from "../report/plural.js";
import { previewRule, type RulePreview, type VerdictSamples } from "./preview.js";
import type { RuleLabels } from "./offline/synthesize.js";
import { disagreementProblem, labelAgreement, labelEvidence, labelNotes } from "./label-agreement.js";

export { labelAgreement, type LabelAgreement } from "./label-agreement.js";

export interface ProposeInput {
  spec: BehaviorSpec;
  vocabulary: Vocabulary;
  samples: readonly Trajectory[];
  adapter: SemanticAdapter;
  /** The sections to draft (default: all). `generate --update` passes only the new and changed ones. */
  sections?: readonly SpecSection[];
  /** Model calls are booked here (each retry counts). */
  usage?: SemanticUsage | undefined;
  /**
   * Rule verdicts some samples are labeled with (by sample id, then rule name): a model rule that
   * judges a labeled sample otherwise goes back to the model once with those samples, and every
   * rule's notes say how it agrees with its labels (issue 25).
   */
  labels?: RuleLabels;
}

export interface ProposalOutcome {
  draft: Draft;
  /** Requests made to the model, including the retry and any served from cache. */
  calls: number;
  /** Set when the model's proposal could not be used and the offline drafter stood in; says why. */
  fallback?: string;
  /** True when the first answer was unusable and the corrected one was taken. */
  retried?: boolean;
  /** Rules whose preview on the samples sent them back to the model, and whose re-draft was kept. */
  redrafted?: string[];
}

/** A reply in one ```yaml fence is the YAML inside it; anything else is taken as is. */
export function extractYaml(reply: string): string {
  const fenced = /```(?:ya?ml)?[ \t]*\r?\n([\s\S]*?)\r?\n?```/i.exec(reply);
  return fenced === null ? reply.trim() : fenced[1]!;
}

type Checked = { ok: true; ir: JudgeIR; notes: DraftNote[] } | { ok: false; problems: string[]; diagnostics: Diagnostic[] };

const PROPOSAL_FILE = "proposal.yaml";

/**
 * Parses an answer with the real checker. Names outside the vocabulary are
 * worth a retry but not a rejection: the samples may simply not show an
 * action the spec talks about, so on their own they become notes.
 */
export function checkProposal(
  text: string,
  spec: BehaviorSpec,
  vocabulary: Vocabulary,
  sections: readonly SpecSection[],
  final: boolean,
): Checked {
  const yaml = extractYaml(text);
  // A guessed vocabulary is no reason to ask again about a name: nothing says the traces use it.
  const strict =
    vocabulary.guessed === true
      ? parseJudgeYaml(yaml, { file: PROPOSAL_FILE })
      : parseJudgeYaml(yaml, { file: PROPOSAL_FILE, vocabulary: vocabularyNames(vocabulary) });
  const loose = strict.ok ? strict : parseJudgeYaml(yaml, { file: PROPOSAL_FILE });
  if (!loose.ok) return { ok: false, problems: loose.diagnostics.map(formatDiagnostic), diagnostics: loose.diagnostics };
  const problems: string[] = [];
  // A wrong behavior name is worth mentioning in a retry, never worth rejecting: it is set from the spec.
  if (!final && loose.ir.behavior !== spec.name) problems.push(`behavior must be ${JSON.stringify(spec.name)}`);
  const wanted = sections.map((s) => s.heading);
  const names = loose.ir.metaBehaviors.map((m) => m.name);
  for (const name of names)
    if (!wanted.includes(name)) problems.push(`${JSON.stringify(name)} is not one of the section headings; use the headings exactly`);
  for (const heading of wanted) if (!names.includes(heading)) problems.push(`there is no rule for the section ${JSON.stringify(heading)}`);
  const vocabularyProblems = strict.ok ? [] : strict.diagnostics.map(formatDiagnostic);
  const quoteProblems = unverbatimQuotes(loose.ir, sections).map(
    (q) => `${JSON.stringify(q.quote)} in ${JSON.stringify(q.rule)} is not copied verbatim from its section`,
  );
  if (!final && (problems.length > 0 || vocabularyProblems.length > 0)) {
    return {
      ok: false,
      problems: [...problems, ...vocabularyProblems, ...quoteProblems],
      diagnostics: strict.ok ? [] : strict.diagnostics,
    };
  }
  if (problems.some((p) => !p.startsWith("there is no rule"))) return { ok: false, problems, diagnostics: [] };
  const ir = { ...loose.ir, behavior: spec.name };
  const nameNotes = vocabulary.guessed === true ? [] : vocabularyNotes(ir, vocabulary);
  return { ok: true, ir, notes: [...nameNotes, ...quoteNotes(ir, sections)] };
}

interface QuoteProblem {
  rule: string;
  ruleIndex: number;
  clause: ClauseRef;
  quote: string;
}

/** Quotes that do not occur (up to whitespace) in the body of their rule's section. */
export function unverbatimQuotes(ir: JudgeIR, sections: readonly SpecSection[]): QuoteProblem[] {
  const problems: QuoteProblem[] = [];
  ir.metaBehaviors.forEach((rule, ruleIndex) => {
    const body = sections.find((s) => s.heading === rule.name)?.body;
    if (body === undefined) return;
    rule.checks.forEach((c, index) => {
      if (!quoteOccurs(c.quote, body)) problems.push({ rule: rule.name, ruleIndex, clause: { kind: "check", index }, quote: c.quote });
    });
    rule.semanticChecks.forEach((c, index) => {
      if (!quoteOccurs(c.quote, body))
        problems.push({ rule: rule.name, ruleIndex, clause: { kind: "semanticCheck", index }, quote: c.quote });
    });
  });
  return problems;
}

function quoteNotes(ir: JudgeIR, sections: readonly SpecSection[]): DraftNote[] {
  return unverbatimQuotes(ir, sections).map((q) => ({
    rule: q.ruleIndex,
    clause: q.clause,
    kind: "quote-not-verbatim",
    message: `the quote ${JSON.stringify(q.quote)} is not in the section as written: copy the spec's words`,
  }));
}

/** Every pattern of a rule, with the clause it belongs to. */
export function rulePatterns(rule: MetaBehavior): { clause: ClauseRef; pattern: Pattern }[] {
  const out: { clause: ClauseRef; pattern: Pattern }[] = [];
  if (rule.trigger.match !== undefined) out.push({ clause: { kind: "trigger" }, pattern: rule.trigger.match });
  rule.checks.forEach((check, index) => {
    const fields = check as unknown as Record<string, unknown>;
    for (const key of ["first", "before", "each", "followedBy", "match", "after"]) {
      const pattern = fields[key] as Pattern | undefined;
      if (pattern !== undefined) out.push({ clause: { kind: "check", index }, pattern });
    }
    // A condition's names match events too.
    if (check.type === "condition")
      for (const binding of Object.values(check.with ?? {}))
        out.push({ clause: { kind: "check", index }, pattern: binding.latest ?? binding.first });
  });
  return out;
}

/** Notes for actions and metadata keys the samples never show. */
export function vocabularyNotes(ir: JudgeIR, vocabulary: Vocabulary): DraftNote[] {
  const { actions, metadataKeys } = vocabularyNames(vocabulary);
  const notes: DraftNote[] = [];
  ir.metaBehaviors.forEach((rule, ruleIndex) => {
    const seen = new Set<string>();
    for (const { clause, pattern } of rulePatterns(rule)) {
      for (const matcher of pattern) {
        const action = exactValue(matcher.action);
        if (action !== undefined && !actions.includes(action) && !seen.has(`a:${action}`)) {
          seen.add(`a:${action}`);
          notes.push({
            rule: ruleIndex,
            clause,
            kind: "unknown-action",
            message: `the samples never show the action ${JSON.stringify(action)}`,
          });
        }
        for (const key of Object.keys(matcher.metadata ?? {})) {
          if (!metadataKeys.includes(key) && !seen.has(`k:${key}`)) {
            seen.add(`k:${key}`);
            notes.push({
              rule: ruleIndex,
              clause,
              kind: "unknown-metadata-key",
              message: `the samples never show the metadata key ${JSON.stringify(key)}`,
            });
          }
        }
      }
    }
    rule.checks.forEach((check, index) => {
      const key =
        check.type === "count" && check.distinctBy?.startsWith("metadata.") ? check.distinctBy.slice("metadata.".length) : undefined;
      if (key !== undefined && !metadataKeys.includes(key) && !seen.has(`k:${key}`)) {
        seen.add(`k:${key}`);
        notes.push({
          rule: ruleIndex,
          clause: { kind: "check", index },
          kind: "unknown-metadata-key",
          message: `the samples never show the metadata key ${JSON.stringify(key)}`,
        });
      }
    });
  });
  return notes;
}

/**
 * Puts the model's rules in section order with `source:` set, and fills any
 * section the model left out from the offline drafter (with a note).
 */
function assembleDraft(input: ProposeInput, sections: readonly SpecSection[], ir: JudgeIR, notes: DraftNote[]): Draft {
  const missing = sections.filter((s) => !ir.metaBehaviors.some((m) => m.name === s.heading));
  const offline = missing.length === 0 ? undefined : draftOffline(input, missing);
  const metaBehaviors: MetaBehavior[] = [];
  const origins: Draft["origins"] = [];
  const outNotes: DraftNote[] = [];
  sections.forEach((section, index) => {
    const fromModel = ir.metaBehaviors.findIndex((m) => m.name === section.heading);
    if (fromModel >= 0) {
      metaBehaviors.push({ ...ir.metaBehaviors[fromModel]!, source: section.body });
      origins.push("model");
      for (const note of notes) if (note.rule === fromModel) outNotes.push({ ...note, rule: index });
      return;
    }
    const offlineIndex = missing.indexOf(section);
    metaBehaviors.push(offline!.ir.metaBehaviors[offlineIndex]!);
    origins.push("offline");
    outNotes.push({
      rule: index,
      kind: "model-retry",
      message: "the model proposed no rule for this section; the offline drafter wrote this one",
    });
    for (const note of offline!.notes) if (note.rule === offlineIndex) outNotes.push({ ...note, rule: index });
  });
  return { ir: { version: 1, behavior: input.spec.name, metaBehaviors }, notes: outNotes, origins };
}

function fallBack(input: ProposeInput, sections: readonly SpecSection[], reason: string, calls: number): ProposalOutcome {
  const draft = draftOffline(input, sections);
  const notes: DraftNote[] = [
    ...draft.notes,
    ...draft.ir.metaBehaviors.map((_, rule) => ({ rule, kind: "model-retry" as const, message: `drafted offline: ${reason}` })),
  ];
  return { draft: { ...draft, notes }, calls, fallback: reason };
}

/**
 * Asks the model for a judge.yaml and checks it; one retry with the problems
 * spelled out. Never throws for a bad answer or a failed call: the outcome
 * then carries the offline draft and `fallback` says why.
 */
export async function proposeDraft(input: ProposeInput): Promise<ProposalOutcome> {
  const sections = input.sections ?? input.spec.sections;
  const messages = proposalMessages(input.spec, input.vocabulary, sections);
  let calls = 0;
  const ask = async (conversation: ChatMessage[]) => {
    calls++;
    return callAdapter(input.adapter, conversation, input.usage);
  };
  // Only a proposal that passed its checks is accepted (and so stored by the answer cache).
  let first: AdapterAnswer;
  try {
    first = await ask(messages);
  } catch (error) {
    return fallBack(input, sections, `the model call failed (${describe(error)})`, calls);
  }
  const firstCheck = checkProposal(first.text, input.spec, input.vocabulary, sections, false);
  if (firstCheck.ok) {
    await first.accept();
    const draft = assembleDraft(input, sections, firstCheck.ir, firstCheck.notes);
    const checked = await labelChecked(input, sections, draft, [...messages, { role: "assistant", content: first.text }], ask);
    return { draft: checked.draft, calls, ...redraftedField(checked.redrafted) };
  }
  const retry: ChatMessage[] = [...messages, { role: "assistant", content: first.text }, proposalRetryMessage(firstCheck.problems)];
  let second: AdapterAnswer;
  try {
    second = await ask(retry);
  } catch (error) {
    return fallBack(input, sections, `the model's first proposal was unusable and the retry failed (${describe(error)})`, calls);
  }
  const secondCheck = checkProposal(second.text, input.spec, input.vocabulary, sections, true);
  if (!secondCheck.ok) {
    const shown = secondCheck.problems.slice(0, 3).join("; ");
    return fallBack(
      input,
      sections,
      `the model's proposal was invalid twice (${shown}${secondCheck.problems.length > 3 ? "; …" : ""})`,
      calls,
    );
  }
  await second.accept();
  const draft = assembleDraft(input, sections, secondCheck.ir, secondCheck.notes);
  const checked = await labelChecked(input, sections, draft, [...retry, { role: "assistant", content: second.text }], ask);
  return { draft: checked.draft, calls, retried: true, ...redraftedField(checked.redrafted) };
}

function redraftedField(names: string[]): { redrafted?: string[] } {
  return names.length === 0 ? {} : { redrafted: names };
}

/** Why the preview sends a drafted rule back: a clause that fails every sample, a trigger that never fires. Empty when nothing does. */
export function selfCheckProblems(preview: RulePreview, rule: MetaBehavior, samples: number): string[] {
  const problems: string[] = [];
  if (rule.trigger.match !== undefined && samples > 0 && preview.triggered.length === 0)
    problems.push("the trigger never fires: no sample has an event it matches, so no check of the rule is ever judged");
  const clauseFails = preview.warnings.some((w) => w.kind === "fails-every-sample" && w.clause.kind !== "rule");
  for (const warning of preview.warnings) {
    // A rule that fails every sample because one of its clauses does is said once, by the clause.
    if (warning.kind === "fails-every-sample" && (warning.clause.kind !== "rule" || !clauseFails)) problems.push(warning.message);
    if (warning.kind === "trigger-misses-check-events") problems.push(warning.message);
  }
  return problems;
}

function counts(samples: VerdictSamples): string {
  const named = (ids: string[]) => (ids.length === 0 ? "" : ` (${ids.slice(0, 8).join(", ")}${ids.length > 8 ? ", …" : ""})`);
  return `pass ${samples.pass.length}${named(samples.pass)}, fail ${samples.fail.length}${named(samples.fail)}, n.a. ${samples.na.length}`;
}

/** The evidence for one rule, as the model reads it: the sample counts of the rule, its trigger and each clause, then the problems. */
export function ruleEvidence(rule: MetaBehavior, preview: RulePreview, samples: number, problems: readonly string[]): string {
  const lines = [
    `Rule ${JSON.stringify(rule.name)}:`,
    `- the trigger fires on ${preview.triggered.length} of ${samples} ${plural(samples, "sample")}${rule.trigger.semantic === true ? " (a semantic trigger is not run here)" : ""}`,
    `- the rule: ${counts(preview.rule)}`,
  ];
  for (const clause of preview.clauses) {
    if (clause.clause.kind === "check") {
      const check = rule.checks[clause.clause.index]!;
      lines.push(`- checks[${clause.clause.index}] (${check.type}, ${JSON.stringify(check.quote)}): ${counts(clause.samples)}`);
    }
  }
  lines.push("Problems:", ...problems.map((p) => `- ${p}`));
  return lines.join("\n");
}

/** The follow-up that sends flagged rules back to the model with the preview's evidence (and the labels they disagree with). */
export function redraftMessage(evidence: readonly string[], names: readonly string[], samples: number, labeled = false): ChatMessage {
  return {
    role: "user",
    content: [
      `Your judge.yaml was run on the ${samples} sample ${plural(samples, "trajectory", "trajectories")}. The samples mix sessions that follow the rules and sessions that break them, so a check that fails every sample, or a trigger that never fires, has most likely misread the spec (a pattern on the wrong event, a call where the spec means its result, a forbidden action that is allowed in other contexts).`,
      ...(labeled
        ? [
            "A person labeled some samples with the verdict each rule should give (followed, broken, or not applicable); a rule that judges a labeled sample otherwise has misread the spec. The labeled samples it disagrees with are shown with their events.",
          ]
        : []),
      "",
      evidence.join("\n\n"),
      "",
      "Reply with a judge.yaml document (same format, same behavior) holding only these rules, corrected where the evidence shows a misreading; repeat a rule unchanged if it is right as drafted:",
      ...names.map((name) => `- ${JSON.stringify(name)}`),
    ].join("\n"),
  };
}

/** selfCheck, then each model rule's agreement with its labels as notes. */
async function labelChecked(
  input: ProposeInput,
  sections: readonly SpecSection[],
  draft: Draft,
  conversation: ChatMessage[],
  ask: (conversation: ChatMessage[]) => Promise<AdapterAnswer>,
): Promise<{ draft: Draft; redrafted: string[] }> {
  const labels = input.labels ?? {};
  const sentBack = new Set(
    draft.ir.metaBehaviors
      .filter((rule, i) => draft.origins[i] === "model" && (labelAgreement(rule, input.samples, labels)?.disagree.length ?? 0) > 0)
      .map((rule) => rule.name),
  );
  const checked = await selfCheck(input, sections, draft, conversation, ask);
  if (input.labels === undefined || input.samples.length === 0) return checked;
  return { ...checked, draft: labelNotes(checked.draft, input.samples, labels, sentBack) };
}

/**
 * The model path checks itself: the model's rules are previewed on the
 * samples, and those with a clause that fails every sample or a trigger that
 * never fires go back to the model once, with the evidence. A re-drafted rule
 * replaces its first draft only if the answer parses; either way the
 * interview is told (a note on the rule).
 */
async function selfCheck(
  input: ProposeInput,
  sections: readonly SpecSection[],
  draft: Draft,
  conversation: ChatMessage[],
  ask: (conversation: ChatMessage[]) => Promise<AdapterAnswer>,
): Promise<{ draft: Draft; redrafted: string[] }> {
  const flagged: { index: number; problems: string[]; evidence: string }[] = [];
  // Without samples there is nothing to preview.
  if (input.samples.length === 0) return { draft, redrafted: [] };
  const labels = input.labels ?? {};
  let labeled = false;
  draft.ir.metaBehaviors.forEach((rule, index) => {
    if (draft.origins[index] !== "model") return;
    const preview = previewRule(rule, input.samples);
    const problems = selfCheckProblems(preview, rule, input.samples.length);
    const disagreement = labelAgreement(rule, input.samples, labels);
    if (disagreement !== undefined && disagreement.disagree.length > 0) problems.push(disagreementProblem(disagreement));
    if (problems.length === 0) return;
    let evidence = ruleEvidence(rule, preview, input.samples.length, problems);
    if (disagreement !== undefined && disagreement.disagree.length > 0) {
      labeled = true;
      evidence += `\n${labelEvidence(disagreement, input.samples)}`;
    }
    flagged.push({ index, problems, evidence });
  });
  if (flagged.length === 0) return { draft, redrafted: [] };
  const names = flagged.map((f) => draft.ir.metaBehaviors[f.index]!.name);
  const why = (problems: readonly string[]) => problems.join("; ");
  const keptFirst = (reason: string): { draft: Draft; redrafted: string[] } => ({
    draft: {
      ...draft,
      notes: [
        ...draft.notes,
        ...flagged.map(({ index, problems }) => ({
          rule: index,
          kind: "model-redraft" as const,
          message: `the model was asked once to re-draft this rule because ${why(problems)}, but ${reason}: this is its first draft`,
        })),
      ],
    },
    redrafted: [],
  });
  let answer: AdapterAnswer;
  try {
    answer = await ask([
      ...conversation,
      redraftMessage(
        flagged.map((f) => f.evidence),
        names,
        input.samples.length,
        labeled,
      ),
    ]);
  } catch (error) {
    return keptFirst(`the request failed (${describe(error)})`);
  }
  // Checked against every section: a model that repeats the whole document is not wrong, only its flagged rules are taken.
  const checked = checkProposal(answer.text, input.spec, input.vocabulary, sections, true);
  if (!checked.ok) return keptFirst(`its answer did not parse (${checked.problems.slice(0, 2).join("; ")})`);
  await answer.accept();
  const metaBehaviors = [...draft.ir.metaBehaviors];
  const replaced = new Set<number>();
  const notes: DraftNote[] = [];
  for (const { index, problems } of flagged) {
    const section = sections.find((s) => s.heading === metaBehaviors[index]!.name)!;
    const from = checked.ir.metaBehaviors.findIndex((m) => m.name === section.heading);
    if (from < 0) {
      notes.push({
        rule: index,
        kind: "model-redraft",
        message: `the model was asked once to re-draft this rule because ${why(problems)}, but left it out of its answer: this is its first draft`,
      });
      continue;
    }
    const redraft = { ...checked.ir.metaBehaviors[from]!, source: section.body };
    const unchanged = isDeepStrictEqual(redraft, metaBehaviors[index]);
    metaBehaviors[index] = redraft;
    replaced.add(index);
    notes.push({
      rule: index,
      kind: "model-redraft",
      message: unchanged
        ? `the model was shown once that ${why(problems)}, and kept this draft`
        : `re-drafted by the model: its first draft was sent back once because ${why(problems)}`,
    });
    for (const note of checked.notes) if (note.rule === from) notes.push({ ...note, rule: index });
  }
  return {
    draft: {
      ...draft,
      ir: { ...draft.ir, metaBehaviors },
      // The first draft's notes on a replaced rule were about clauses that are gone.
      notes: [...draft.notes.filter((n) => !replaced.has(n.rule)), ...notes],
    },
    redrafted: [...replaced].map((i) => metaBehaviors[i]!.name),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
