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
import { draftOffline } from "./offline/draft.js";
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
  const notes = draft.notes.flatMap((n, i) => {
    if (n.rule !== index) return [n];
    // The re-draft's notes take the place of the first of the old ones.
    const first = draft.notes.findIndex((m) => m.rule === index) === i;
    return first ? redraft.notes.map((m) => ({ ...m, rule: index })) : [];
  });
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
  const open = (): VerdictQuestion[] =>
    (draft.questions ?? []).filter(
      (q) => (asked === undefined || asked.has(q.rule)) && (answered.get(q.rule) ?? 0) < MAX_VERDICT_QUESTIONS_PER_RULE,
    );
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
      draft = spliceRule(draft, question.rule, redraft);
      options.onDraft?.(draft, labels);
      return { draft, questions: open(), ...(savedTo !== undefined ? { savedTo } : {}) };
    },
  };
}
