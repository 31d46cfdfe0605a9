/**
 * `generate` as a library call: spec + sample trajectories → vocabulary →
 * draft (the model, or the offline drafter) → a person's interview →
 * judge.yaml, with `source:` on every rule, checked by the parser and
 * compiled before it is written. With `update`, only what the spec changed
 * is drafted and asked (see update.ts).
 *
 * The interviewer and the model adapter are passed in, so tests can script
 * both; the CLI passes the browser or terminal interview and the host model.
 */
import { existsSync } from "node:fs";
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { SemanticAdapter, SemanticUsage } from "../../runtime/semantic.js";
import type { Trajectory } from "../../runtime/types.js";
import { JudgeYamlError, SpecError } from "../diagnostics.js";
import { parseJudgeYaml } from "../ir/parse.js";
import { serializeJudgeYaml } from "../ir/serialize.js";
import type { JudgeIR } from "../ir/types.js";
import { readJudgeYaml } from "../build/judge-yaml.js";
import { loadBehaviorSpec, type BehaviorSpec, type SpecSection } from "../behavior-md/load.js";
import { draftOffline } from "./offline/draft.js";
import type { RuleLabels } from "./offline/synthesize.js";
import { previewJudge } from "./preview.js";
import { ruleQuotes, uncoveredObligations } from "./coverage.js";
import { proposeDraft } from "./propose.js";
import { loadLabeledSamples } from "./samples.js";
import type { TraceReadOptions } from "../inputs/trace-inputs.js";
import type { Draft, InterviewInput, InterviewResult, Interviewer, Vocabulary } from "./types.js";
import { draftUpdate, planUpdate, type SectionDrafter } from "./update.js";
import { buildVocabulary, guessVocabulary } from "./vocabulary.js";
import { editJudgeYaml } from "./yaml-edit.js";
import { verdictAsking } from "./verdicts.js";

/** Said once when `generate` runs without sample trajectories. */
export const NO_SAMPLES_NOTICE =
  "no sample trajectories: the vocabulary was guessed from the spec's wording and verdict previews are unavailable; check every action name against your traces";

export interface GenerateOptions {
  /** BEHAVIOR.md or its folder. */
  spec: string;
  /** Sample trajectory files (.json / .jsonl); none guesses the vocabulary from the spec. */
  samples: readonly string[];
  /** How the sample files are read: `from` imports agent traces (IMPORTERS.md). */
  read?: TraceReadOptions;
  /** Where to write judge.yaml. */
  out: string;
  /** A previous judge.yaml to update: unchanged sections are carried over without questions. */
  update?: string | undefined;
  /** The model; undefined drafts offline. */
  adapter?: SemanticAdapter | undefined;
  /** Confirms the draft with a person. */
  interviewer: Interviewer;
  /** Messages for the person (stderr in the CLI): fallbacks, removed rules, dropped clauses. */
  notice?: (message: string) => void;
  /** Model usage is booked here. */
  usage?: SemanticUsage | undefined;
  /**
   * Where the answers to verdict questions are saved, as labeled cases (one file a sample);
   * default: `labels/` beside `out`.
   */
  labelsDir?: string | undefined;
  /** Compile the result before writing (default true); only tests of other steps turn it off. */
  compile?: boolean;
}

export interface GenerateResult {
  out: string;
  yaml: string;
  ir: JudgeIR;
  /** Rules written; of them, carried over from --update without a question. */
  rules: number;
  carried: number;
  questionsAsked: number;
  /** Requests made to the model (retries included). */
  modelCalls: number;
  drafter: "model" | "offline" | "none";
  /** Why the model's proposal was not used, when it was not. */
  fallback?: string;
  /** Where the judge.yaml that was replaced now is. */
  backup?: string;
  /**
   * The written rules that carry warnings, each with them: the drafter's notes on the rule (a
   * clause it could not map, a name no sample shows), the section's obligations no clause quotes,
   * and the preview's warnings on the samples. `generate` lists them when nobody reviewed the draft.
   */
  warnings: { rule: string; messages: string[] }[];
}

/** What is worth a look in each written rule, as GenerateResult.warnings says. */
export function ruleWarnings(ir: JudgeIR, draft: Draft, spec: BehaviorSpec, samples: readonly Trajectory[]): GenerateResult["warnings"] {
  const preview = samples.length === 0 ? undefined : previewJudge(ir, samples);
  return ir.metaBehaviors.flatMap((rule, r) => {
    const drafted = draft.ir.metaBehaviors.findIndex((d) => d.name === rule.name);
    const notes = draft.notes.filter((n) => n.rule === drafted && n.kind !== "uncovered-sentence").map((n) => n.message);
    const body = spec.sections.find((s) => s.heading === rule.name)?.body;
    const uncovered =
      body === undefined ? [] : uncoveredObligations(body, ruleQuotes(rule)).map((o) => `not covered: ${JSON.stringify(o.text)}`);
    const previewed = preview?.rules[r]?.warnings.map((w) => w.message) ?? [];
    const messages = [...new Set([...notes, ...uncovered, ...previewed])];
    return messages.length === 0 ? [] : [{ rule: rule.name, messages }];
  });
}

function sectionDrafter(
  spec: BehaviorSpec,
  vocabulary: Vocabulary,
  samples: readonly Trajectory[],
  options: GenerateOptions,
  labels?: RuleLabels,
): SectionDrafter {
  const { adapter } = options;
  if (adapter === undefined)
    return async (sections) => ({
      draft: draftOffline({ spec, vocabulary, samples, ...(labels !== undefined ? { labels } : {}) }, sections),
      calls: 0,
    });
  return async (sections) => {
    const outcome = await proposeDraft({
      spec,
      vocabulary,
      samples,
      adapter,
      sections,
      usage: options.usage,
      ...(labels !== undefined ? { labels } : {}),
    });
    if (outcome.redrafted !== undefined)
      options.notice?.(
        `the preview on the samples sent ${outcome.redrafted.map((name) => JSON.stringify(name)).join(", ")} back to the model once; the interview shows why`,
      );
    return { draft: outcome.draft, calls: outcome.calls, ...(outcome.fallback !== undefined ? { fallback: outcome.fallback } : {}) };
  };
}

async function readPreviousJudge(path: string): Promise<{ ir: JudgeIR; text: string }> {
  const text = await readJudgeYaml(path);
  const parsed = parseJudgeYaml(text, { file: path });
  if (!parsed.ok) throw new JudgeYamlError(parsed.diagnostics);
  return { ir: parsed.ir, text };
}

interface Drafted {
  draft: Draft;
  /** Sections handed to the drafter (all of them, or only the added and changed ones). */
  draftedSections: number;
  ask?: number[];
  settled?: InterviewInput["settled"];
  calls: number;
  fallback?: string;
  /** The judge.yaml text --update read: the result is written into it in place. */
  previousText?: string;
}

async function draftAll(spec: BehaviorSpec, drafter: SectionDrafter, options: GenerateOptions): Promise<Drafted> {
  if (options.update === undefined) {
    const { draft, calls, fallback } = await drafter(spec.sections);
    return { draft, draftedSections: spec.sections.length, calls, ...(fallback !== undefined ? { fallback } : {}) };
  }
  const previous = await readPreviousJudge(options.update);
  const plan = planUpdate(spec, previous.ir);
  for (const notice of plan.notices) options.notice?.(notice);
  let draftedSections = 0;
  const counting: SectionDrafter = (sections) => {
    draftedSections = sections.length;
    return drafter(sections);
  };
  const updated = await draftUpdate(spec, plan, counting);
  return {
    draft: updated.draft,
    previousText: previous.text,
    draftedSections,
    ask: updated.ask,
    settled: updated.settled,
    calls: updated.calls,
    ...(updated.fallback !== undefined ? { fallback: updated.fallback } : {}),
  };
}

/** Every rule's source is its section's body as the person confirmed it; an empty section has none (judge.yaml forbids ""). */
function withSources(ir: JudgeIR, sections: readonly SpecSection[]): JudgeIR {
  return {
    ...ir,
    metaBehaviors: ir.metaBehaviors.map((rule) => {
      const section = sections.find((s) => s.heading === rule.name);
      if (section === undefined) return rule;
      const { source: _old, ...rest } = rule;
      return section.body === "" ? rest : { ...rest, source: section.body };
    }),
  };
}

/** Re-parses and compiles the text to write; throws JudgeYamlError if it would not build. */
async function checkBuildable(yaml: string, out: string, compile: boolean): Promise<JudgeIR> {
  const parsed = parseJudgeYaml(yaml, { file: out });
  if (!parsed.ok) throw new JudgeYamlError(parsed.diagnostics);
  if (compile) {
    const { compileIR } = await import("../build/compile.js");
    await compileIR(parsed.ir, yaml, { file: basename(out), positions: parsed.positions });
  }
  return parsed.ir;
}

/** JSON with every object's keys sorted: two IRs built in different key orders compare equal. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The same judge up to the order of rules and of clauses within a rule (an edited file keeps its own order). */
export function sameJudge(a: JudgeIR, b: JudgeIR): boolean {
  const canonical = (ir: JudgeIR) =>
    stableJson({
      ...ir,
      metaBehaviors: ir.metaBehaviors
        .map((rule) => ({
          ...rule,
          checks: rule.checks.map(stableJson).sort(),
          semanticChecks: rule.semanticChecks.map(stableJson).sort(),
        }))
        .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0)),
    });
  return canonical(a) === canonical(b);
}

/**
 * The text to write. An update edits the judge.yaml it read in place, so the
 * person's layout (comments, flow style, key order, quoting) survives and the
 * diff shows only what changed; if that edit would not read back as the same
 * judge, a fresh serialization is written instead, and the person is told.
 */
export function judgeYamlText(ir: JudgeIR, previousText: string | undefined, notice: GenerateOptions["notice"]): string {
  if (previousText === undefined) return serializeJudgeYaml(ir);
  try {
    const edited = editJudgeYaml(previousText, ir);
    const parsed = parseJudgeYaml(edited);
    if (parsed.ok && sameJudge(parsed.ir, ir)) return edited;
  } catch {
    // Falls through to the fresh serialization below.
  }
  notice?.(
    "could not edit the previous judge.yaml in place: it is rewritten in the standard layout (comments and formatting are not kept)",
  );
  return serializeJudgeYaml(ir);
}

/** Runs the whole of `generate` and writes judge.yaml. */
export async function generateJudgeYaml(options: GenerateOptions): Promise<GenerateResult> {
  const spec = await loadBehaviorSpec(options.spec);
  if (spec.sections.length === 0) {
    throw new SpecError([
      {
        file: spec.file,
        line: 1,
        col: 1,
        path: "",
        code: "no-sections",
        severity: "error",
        message: "the spec has no ## sections: there is no meta-behavior to draft",
      },
    ]);
  }
  // Without samples the vocabulary is guessed from the spec, and there is nothing to preview a draft on.
  const loaded = options.samples.length === 0 ? { samples: [], labels: {} } : await loadLabeledSamples(options.samples, options.read);
  const { samples } = loaded;
  // Labeled cases steer the offline drafter: a rule that disagrees with its labels is re-read from them.
  const labels = Object.keys(loaded.labels).length > 0 ? loaded.labels : undefined;
  const vocabulary = samples.length === 0 ? guessVocabulary(spec) : buildVocabulary(samples);
  if (samples.length === 0) options.notice?.(NO_SAMPLES_NOTICE);
  const drafted = await draftAll(spec, sectionDrafter(spec, vocabulary, samples, options, labels), options);
  if (drafted.fallback !== undefined) options.notice?.(`drafted offline instead: ${drafted.fallback}`);
  // The verdict questions the labels leave: each answer is saved as a labeled case and re-drafts its rule.
  let draft = drafted.draft;
  const verdicts =
    // Only the offline drafter asks (a model's draft carries no questions; its fallback may). With
    // samples and no labels, it asks where the readings a rule's words support disagree (verdicts.ts).
    samples.length === 0
      ? undefined
      : verdictAsking({
          spec,
          vocabulary,
          samples,
          labels: labels ?? {},
          draft,
          ask: drafted.ask,
          labelsDir: options.labelsDir ?? join(dirname(options.out), "labels"),
          onDraft: (next) => {
            draft = next;
          },
        });
  const input: InterviewInput = {
    spec,
    draft,
    vocabulary,
    samples,
    ...(drafted.ask !== undefined ? { ask: drafted.ask } : {}),
    ...(drafted.settled !== undefined && drafted.settled.length > 0 ? { settled: drafted.settled } : {}),
    ...(verdicts !== undefined ? { verdicts } : {}),
  };
  // An update that changed nothing has nothing to ask: no interview at all.
  const result: InterviewResult =
    drafted.ask !== undefined && drafted.ask.length === 0 ? { ir: draft.ir, questionsAsked: 0 } : await options.interviewer(input);
  if (result.ir.metaBehaviors.length === 0) throw new Error("every rule was dropped in the interview: there is no judge.yaml to write");
  const ir = withSources({ ...result.ir, behavior: spec.name }, spec.sections);
  const yaml = judgeYamlText(ir, drafted.previousText, options.notice);
  const written = await checkBuildable(yaml, options.out, options.compile !== false);
  await mkdir(dirname(options.out), { recursive: true });
  // A judge.yaml being replaced (hand-written, or the one --update read) is kept beside it.
  const backup = existsSync(options.out) ? `${options.out}.bak` : undefined;
  if (backup !== undefined) await copyFile(options.out, backup);
  await writeFile(options.out, yaml, "utf8");
  const askedNames = new Set((drafted.ask ?? draft.ir.metaBehaviors.map((_, i) => i)).map((i) => draft.ir.metaBehaviors[i]?.name));
  const drafter =
    drafted.draftedSections === 0 ? "none" : options.adapter === undefined || drafted.fallback !== undefined ? "offline" : "model";
  return {
    out: options.out,
    yaml,
    ir: written,
    rules: written.metaBehaviors.length,
    carried: written.metaBehaviors.filter((r) => !askedNames.has(r.name)).length,
    questionsAsked: result.questionsAsked,
    modelCalls: drafted.calls,
    drafter,
    ...(drafted.fallback !== undefined ? { fallback: drafted.fallback } : {}),
    ...(backup !== undefined ? { backup } : {}),
    // The notes of the draft the person saw last (after any verdict answers).
    warnings: ruleWarnings(written, draft, spec, samples),
  };
}
