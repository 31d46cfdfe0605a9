/**
 * Verdict questions (issue 25): where the readings of a rule that fit every
 * label disagree on an unlabeled sample, the person is asked about that
 * sample ("In refund-7, did the agent follow …? y/n/n.a."), not about YAML.
 * The answer is a label like any other: the rule is drafted again with it, so
 * the draft is re-chosen among the readings that agree with it, and it is
 * saved as a labeled case (docs/FORMATS.md §2) in the labels folder, beside
 * judge.yaml unless the person named another, so the next `generate` and
 * `calibrate` read it too.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isObject } from "../../runtime/is-object.js";
import type { Trajectory } from "../../runtime/types.js";
import type { BehaviorSpec } from "../behavior-md/load.js";
import { draftOffline, unlabeledRivals } from "./offline/draft.js";
import { judged, keptReading, separatingQuestion, type Judged } from "./verdict-readings.js";
import type { RuleLabels } from "./offline/synthesize.js";
import type { Draft, LabelVerdict, VerdictAsking, VerdictQuestion, Vocabulary } from "./types.js";

/** Answers at most this many verdict questions per rule: each answer may open another. */
export const MAX_VERDICT_QUESTIONS_PER_RULE = 3;

/** The labels with a question's answer added (a new object; the one given is not changed). */
export function withAnswer(labels: RuleLabels, question: Pick<VerdictQuestion, "sample" | "ruleName">, verdict: LabelVerdict): RuleLabels {
  return { ...labels, [question.sample]: { ...labels[question.sample], [question.ruleName]: verdict } };
}

/** A person's answer to a verdict question: y / n / n.a.; undefined for anything else (skip is the caller's). */
export function readVerdictAnswer(answer: string): LabelVerdict | undefined {
  switch (answer.trim().toLowerCase()) {
    case "y":
    case "yes":
    case "true":
      return "true";
    case "n":
    case "no":
    case "false":
      return "false";
    case "na":
    case "n.a.":
    case "n.a":
    case "n/a":
      return "na";
    default:
      return undefined;
  }
}

/** The words a verdict is shown with. */
export function verdictWord(verdict: LabelVerdict): string {
  return verdict === "true" ? "followed" : verdict === "false" ? "broken" : "not applicable";
}

/** The labeled case file a sample's labels go to: its id, made safe for a file name (a hash keeps altered ids apart). */
export function labelFileName(sample: string): string {
  const safe = sample
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .replace(/^\.+/, "_")
    .slice(0, 100);
  if (safe === sample && safe !== "") return `${safe}.json`;
  return `${safe}-${createHash("sha256").update(sample, "utf8").digest("hex").slice(0, 8)}.json`;
}

/**
 * Writes (or adds to) the labeled case of `sample` in `dir`: `{trajectory, expected: {verdict, metaBehaviorVerdicts}}`,
 * the session's `verdict` being what the rule labels in it add up to (kept when a person changed it).
 * A file there that already labels the same trajectory keeps its other labels; one that holds
 * anything else is left alone and the case goes to a numbered name beside it. Returns the path.
 */
export async function saveLabel(dir: string, sample: Trajectory, ruleName: string, verdict: LabelVerdict): Promise<string> {
  await mkdir(dir, { recursive: true });
  const base = labelFileName(sample.id);
  for (let n = 1; ; n++) {
    const path = join(dir, n === 1 ? base : base.replace(/\.json$/, `-${n}.json`));
    let verdicts: Record<string, unknown> = {};
    let expected: Record<string, unknown> = {};
    if (existsSync(path)) {
      let old: unknown;
      try {
        old = JSON.parse(await readFile(path, "utf8"));
      } catch {
        continue;
      }
      if (!isObject(old) || !isObject(old.trajectory) || old.trajectory.id !== sample.id) continue;
      expected = isObject(old.expected) ? old.expected : {};
      verdicts = isObject(expected.metaBehaviorVerdicts) ? expected.metaBehaviorVerdicts : {};
    }
    const metaBehaviorVerdicts = { ...verdicts, [ruleName]: verdict };
    // The session's verdict is what its labels add up to, unless a person wrote another.
    const kept = expected.verdict !== undefined && expected.verdict !== foldVerdicts(Object.values(verdicts));
    const labeled = {
      trajectory: sample,
      expected: { ...expected, verdict: kept ? expected.verdict : foldVerdicts(Object.values(metaBehaviorVerdicts)), metaBehaviorVerdicts },
    };
    await writeFile(path, `${JSON.stringify(labeled, null, 2)}\n`, "utf8");
    return path;
  }
}

/** The session verdict rule verdicts add up to: false if any is, else true if any is, else n.a. */
function foldVerdicts(verdicts: readonly unknown[]): LabelVerdict {
  return verdicts.includes("false") ? "false" : verdicts.includes("true") ? "true" : "na";
}

/** The draft with one rule replaced by its re-draft (a one-rule draft), its notes and question with it. */
export function spliceRule(draft: Draft, index: number, redraft: Draft): Draft {
  const questions = [
    ...(draft.questions ?? []).filter((q) => q.rule !== index),
    ...(redraft.questions ?? []).map((q) => ({ ...q, rule: index })),
  ].sort((a, b) => a.rule - b.rule);
  const metaBehaviors = draft.ir.metaBehaviors.slice();
  metaBehaviors[index] = redraft.ir.metaBehaviors[0]!;
  const fresh = redraft.notes.map((m) => ({ ...m, rule: index }));
  const notes = draft.notes.flatMap((n, i) => {
    if (n.rule !== index) return [n];
    // The re-draft's notes take the place of the first of the old ones.
    const first = draft.notes.findIndex((m) => m.rule === index) === i;
    return first ? fresh : [];
  });
  // A rule that had no note gets its re-draft's after the notes of the rules before it.
  if (!draft.notes.some((n) => n.rule === index)) notes.splice(notes.filter((n) => n.rule < index).length, 0, ...fresh);
  const { questions: _old, ...rest } = draft;
  return { ...rest, ir: { ...draft.ir, metaBehaviors }, notes, ...(questions.length > 0 ? { questions } : {}) };
}

export interface VerdictAskingOptions {
  spec: BehaviorSpec;
  vocabulary: Vocabulary;
  samples: readonly Trajectory[];
  /** The labels the draft was made with; answers are added to them. */
  labels: RuleLabels;
  draft: Draft;
  /** The rules the interview asks about (undefined: all). */
  ask?: readonly number[] | undefined;
  /** Where answers are saved as labeled cases; undefined keeps them in memory only. */
  labelsDir?: string | undefined;
  /** Told of every new draft, so the caller writes and reports on what the person saw last. */
  onDraft?: (draft: Draft, labels: RuleLabels) => void;
}

/**
 * The interview's verdict questions over an offline draft made with labels: each answer is
 * saved, added to the labels, and the rule is drafted again with them (at most
 * MAX_VERDICT_QUESTIONS_PER_RULE answers a rule). Undefined when the draft has no question.
 */
export function verdictAsking(options: VerdictAskingOptions): VerdictAsking | undefined {
  let labels = options.labels;
  let draft = options.draft;
  const answered = new Map<number, number>();
  const asked = options.ask === undefined ? undefined : new Set(options.ask);
  const asking = (rule: number) => asked === undefined || asked.has(rule);
  // The readings each asked rule's question weighs against its draft (verdict-readings.ts).
  const rivals = new Map<number, Judged[]>();
  for (const q of draft.questions ?? []) if (q.other !== undefined) rivals.set(q.rule, [judged(q.other, options.samples)]);
  // A rule no label speaks of is asked between the readings its words support (offline/rivals.ts).
  const fromWords = wordsQuestions(options, draft, labels, asking, rivals);
  if (fromWords.length > 0) draft = { ...draft, questions: [...(draft.questions ?? []), ...fromWords].sort((a, b) => a.rule - b.rule) };
  const open = (): VerdictQuestion[] =>
    (draft.questions ?? []).filter((q) => asking(q.rule) && (answered.get(q.rule) ?? 0) < MAX_VERDICT_QUESTIONS_PER_RULE);
  const questions = open();
  if (questions.length === 0) return undefined;
  return {
    questions,
    async answer(question, verdict) {
      const sample = options.samples.find((s) => s.id === question.sample);
      const section = options.spec.sections.find((s) => s.heading === question.ruleName);
      if (sample === undefined || section === undefined) throw new RangeError(`no verdict question on ${question.sample}`);
      const savedTo = options.labelsDir === undefined ? undefined : await saveLabel(options.labelsDir, sample, question.ruleName, verdict);
      labels = withAnswer(labels, question, verdict);
      answered.set(question.rule, (answered.get(question.rule) ?? 0) + 1);
      const redraft = draftOffline({ spec: options.spec, vocabulary: options.vocabulary, samples: options.samples, labels }, [section]);
      draft = afterAnswer(draft, question, redraft, labels, options.samples, rivals);
      options.onDraft?.(draft, labels);
      return { draft, questions: open(), ...(savedTo !== undefined ? { savedTo } : {}) };
    },
  };
}

/**
 * Questions on the rules no label speaks of (each drafted offline and asked): where a reading the
 * rule's words support judges an unlabeled sample otherwise than the draft. The readings are kept
 * in `rivals` for the answers.
 */
function wordsQuestions(
  options: VerdictAskingOptions,
  draft: Draft,
  labels: RuleLabels,
  asking: (rule: number) => boolean,
  rivals: Map<number, Judged[]>,
): VerdictQuestion[] {
  const out: VerdictQuestion[] = [];
  const input = { spec: options.spec, vocabulary: options.vocabulary, samples: options.samples };
  draft.ir.metaBehaviors.forEach((rule, index) => {
    if (!asking(index) || draft.origins[index] !== "offline" || (draft.questions ?? []).some((q) => q.rule === index)) return;
    if (Object.values(labels).some((v) => v[rule.name] !== undefined)) return;
    const section = options.spec.sections.find((s) => s.heading === rule.name);
    if (section === undefined) return;
    const own = judged(rule, options.samples);
    const found = unlabeledRivals(input, rule, section).map((r) => judged(r, options.samples));
    const { rivals: left } = keptReading([own, ...found], labels, rule.name);
    const question = separatingQuestion(index, own, left, labels, options.samples);
    if (question === undefined) return;
    rivals.set(index, left);
    out.push({ ...question, fromWords: true });
  });
  return out;
}

/**
 * The draft after an answer: the reading kept among the previous one, the re-draft (with its
 * runner-up) and the rule's rivals (verdict-readings.ts keptReading), with the question that
 * separates it from the rivals left, if any.
 */
function afterAnswer(
  draft: Draft,
  question: VerdictQuestion,
  redraft: Draft,
  labels: RuleLabels,
  samples: readonly Trajectory[],
  rivals: Map<number, Judged[]>,
): Draft {
  const index = question.rule;
  const previous = judged(draft.ir.metaBehaviors[index]!, samples);
  const again = judged(redraft.ir.metaBehaviors[0]!, samples);
  const runnerUp = (redraft.questions ?? []).flatMap((q) => (q.other === undefined ? [] : [judged(q.other, samples)]));
  const choice = keptReading([previous, again, ...runnerUp, ...(rivals.get(index) ?? [])], labels, question.ruleName);
  const { rivals: left } = choice;
  // The re-draft that reads the rule as before is the reading kept, with its notes and question.
  const kept = JSON.stringify(choice.kept.rule) === JSON.stringify(again.rule) ? again : choice.kept;
  rivals.set(index, left);
  // The re-draft's notes say how its own reading agrees with the labels, and its own question
  // separates it from its runner-up; otherwise the question separates the reading kept from the rivals left.
  const own = kept === again ? (redraft.questions ?? []).map((q) => ({ ...q, rule: index })) : [];
  const asked =
    own.length > 0 ? own : [separatingQuestion(index, kept, left, labels, samples)].flatMap((q) => (q === undefined ? [] : [q]));
  let next: Draft;
  if (kept === again) next = spliceRule(draft, index, redraft);
  else {
    // The previous reading kept (the answer confirmed it, or the search's pick fits no more labels):
    // its notes stay, but for how it agrees with the labels now. A rival the answers picked: the
    // re-draft's notes on its clauses were about another reading.
    const notes =
      kept === previous
        ? ruleNotes(draft, index).filter((n) => n.kind !== "labels")
        : redraft.notes.filter((n) => n.clause === undefined && n.kind !== "labels");
    const agree = [...labelsFor(labels, question.ruleName)].filter(([id, v]) => kept.verdicts.get(id) === v);
    const total = labelsFor(labels, question.ruleName).size;
    const how = kept === previous && ruleNotes(draft, index).some((n) => n.kind === "labels" && n.message.startsWith(REREAD)) ? REREAD : "";
    notes.push({ rule: 0, kind: "labels", message: `${how}agrees with ${agree.length} of the ${total} labels given for this rule` });
    for (const q of asked) notes.push({ rule: 0, kind: "labels", message: `${q.text} (label it to settle the reading)` });
    next = spliceRule(draft, index, { ...redraft, ir: { ...redraft.ir, metaBehaviors: [kept.rule] }, notes, questions: [] });
  }
  const { questions: _dropped, ...rest } = next;
  const questions = [...(next.questions ?? []).filter((q) => q.rule !== index), ...asked].sort((a, b) => a.rule - b.rule);
  return { ...rest, ...(questions.length > 0 ? { questions } : {}) };
}

/** How the drafter's note on a rule re-read from its labels begins (offline/draft.ts withLabels). */
const REREAD = "re-read from the labels: ";

/** The labels given for one rule, by sample id. */
function labelsFor(labels: RuleLabels, ruleName: string): Map<string, LabelVerdict> {
  return new Map(Object.entries(labels).flatMap(([id, v]) => (v[ruleName] === undefined ? [] : [[id, v[ruleName]!] as const])));
}

/** A rule's notes, as a one-rule draft carries them (rule 0). */
function ruleNotes(draft: Draft, index: number): Draft["notes"] {
  return draft.notes.filter((n) => n.rule === index).map((n) => ({ ...n, rule: 0 }));
}
