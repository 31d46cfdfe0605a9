/**
 * What the terminal interview prints: a question with its drafted clause,
 * evidence and verdict preview, and the final review. Pure functions of the
 * views (view.ts); the terminal escapes what they return before writing it.
 */
import type { VerdictSamples } from "../generate/preview.js";
import { plural } from "../report/plural.js";
import { excerpt, type Evidence } from "./evidence.js";
import type { ClausePreviewView, QuestionView, ReviewView } from "./view.js";
import type { VerdictView } from "./verdicts.js";

export const VERDICT_INTRO =
  "\n── Verdict questions ── the labels given fit more than one reading of a rule: say what a sample\nshould get, and your answer is kept as a label and picks the reading.\n";

/** A verdict question: the rule's section, the sample's events, what the readings say, then the question. */
export function formatVerdictQuestion(view: VerdictView): string {
  const { sample } = view;
  const out = [
    "",
    `── Verdict question ${view.number} (${view.open} open) ── rule: ${view.rule.name}`,
    "  the spec section:",
    indent(view.rule.section === "" ? "(empty)" : view.rule.section, "    "),
    `  ${sample.id}${sample.complete ? "" : " (incomplete)"}, ${sample.events.length + sample.omitted} ${plural(sample.events.length + sample.omitted, "event")}:`,
  ];
  for (const event of sample.events) {
    const metadata = Object.entries(event.metadata)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    const content = event.excerpt === "" ? "" : ` ${JSON.stringify(excerpt(event.excerpt, 80))}`;
    out.push(`    ${event.id} ${event.actor} ${event.action}${metadata === "" ? "" : ` {${metadata}}`}${content}`);
  }
  if (sample.omitted > 0) out.push(`    … ${sample.omitted} more`);
  out.push(`  the draft reads the rule as ${view.readings.draft} here; another reading that fits every label, as ${view.readings.other}`);
  out.push(view.text);
  return `${out.join("\n")}\n`;
}

/** The question as the terminal shows it: rule, clause, quote, the drafted YAML, evidence, notes. */
export function formatQuestion(view: QuestionView): string {
  const out: string[] = [
    "",
    `── Question ${view.number} of ${view.total} ── rule ${view.rule.number} of ${view.rule.total}: ${view.rule.name}`,
    `${view.label}${view.decision === undefined ? "" : ` (your answer so far: ${view.decisionLabel})`}`,
  ];
  if (view.quote !== undefined) out.push(`  quote: ${JSON.stringify(view.quote)}`);
  out.push("  drafted:", indent(view.draftedYaml, "    "));
  if (view.currentYaml !== undefined && view.currentYaml !== view.draftedYaml)
    out.push("  with your answer:", indent(view.currentYaml, "    "));
  out.push(...formatEvidence(view.evidence));
  out.push(...formatPreview(view.preview, "as your answers leave the rule"));
  for (const note of view.notes) out.push(`  note: ${note}`);
  for (const warning of view.warnings) out.push(`  warning: ${warning}`);
  return `${out.join("\n")}\n`;
}

/**
 * The verdict preview: where the trigger fires, the rule's and this clause's
 * pass / fail / n.a. with the samples named, and each warning on a line of
 * its own that starts with "!!", so a person scrolling past cannot miss it.
 */
export function formatPreview(preview: ClausePreviewView, when: string): string[] {
  const out = [`  preview on ${preview.samples.length} ${plural(preview.samples.length, "sample")} (${when}):`];
  if (preview.rule === undefined) {
    out.push(`    the rule is dropped: ${preview.dropped ?? ""}`);
    return out;
  }
  const { trigger } = preview;
  out.push(
    trigger.semantic
      ? "    the trigger is semantic: a model decides where the rule applies, so without one the rule is n.a."
      : `    the trigger fires on ${trigger.fires.length}${names(trigger.fires)}; not on ${trigger.silent.length}${names(trigger.silent)}`,
  );
  out.push(`    the rule:   ${verdictLine(preview.rule)}`);
  if (preview.clause !== undefined) out.push(`    this clause: ${verdictLine(preview.clause)}`);
  for (const warning of preview.warnings) out.push(`  !! WARNING: ${warning.message}`);
  if (preview.widenedTrigger !== undefined) out.push(`  !! [w]iden at the question makes the trigger match: ${preview.widenedTrigger}`);
  return out;
}

function verdictLine(samples: VerdictSamples): string {
  return `pass ${samples.pass.length}${names(samples.pass)} · fail ${samples.fail.length}${names(samples.fail)} · n.a. ${samples.na.length}${names(samples.na)}`;
}

const NAMES_SHOWN = 6;

function names(ids: readonly string[]): string {
  if (ids.length === 0) return "";
  const shown = ids.slice(0, NAMES_SHOWN).join(", ");
  return ` (${shown}${ids.length > NAMES_SHOWN ? `, … ${ids.length - NAMES_SHOWN} more` : ""})`;
}

// The terminal scrolls; a few samples show what a pattern catches, the browser shows them all.
const EVENTS_PER_SAMPLE = 4;
const SAMPLES_SHOWN = 5;

function formatEvidence(evidence: Evidence): string[] {
  if (evidence.semantic) return ["  evidence: a model answers this when judging"];
  const roles = evidence.roles.map((r) => `${r.role} ${r.matches}`).join(", ");
  const total = evidence.groups.length + evidence.samplesWithoutMatches;
  const out = [`  evidence: matching sample events (${roles}); ${evidence.groups.length} of ${total} samples`];
  for (const group of evidence.groups.slice(0, SAMPLES_SHOWN)) {
    const shown = group.events.slice(0, EVENTS_PER_SAMPLE);
    const more = group.events.length - shown.length + group.omitted;
    out.push(`    ${group.trajectoryId}${group.complete ? "" : " (incomplete)"}:`);
    for (const event of shown) {
      const metadata = Object.entries(event.metadata)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ");
      const content = event.excerpt === "" ? "" : ` ${JSON.stringify(excerpt(event.excerpt, 80))}`;
      out.push(
        `      [${event.roles.join(",")}] ${event.id} ${event.actor} ${event.action}${metadata === "" ? "" : ` {${metadata}}`}${content}`,
      );
    }
    if (more > 0) out.push(`      … ${more} more`);
  }
  const hidden = evidence.groups.length - SAMPLES_SHOWN;
  if (hidden > 0) out.push(`    … ${hidden} more ${plural(hidden, "sample")} with matching events`);
  return out;
}

export function formatReview(view: ReviewView): string {
  const out = ["", "── Review ── the judge.yaml to write:", "", view.yaml.trimEnd(), ""];
  if (view.preview.length > 0) out.push(`Preview on the ${view.samples} ${plural(view.samples, "sample")}:`);
  for (const rule of view.preview) {
    out.push(`  ${rule.name}: ${verdictLine(rule.rule)}`);
    for (const clause of rule.clauses) out.push(`    ${clause.label}: ${verdictLine(clause.samples)}`);
    for (const warning of rule.warnings) out.push(`  !! WARNING: ${warning.message}`);
  }
  if (view.preview.length > 0) out.push("");
  for (const notice of view.notices) out.push(`  ${notice}`);
  for (const problem of view.problems) out.push(`! ${problem}`);
  return `${out.join("\n")}\n`;
}

export function indent(text: string, prefix: string): string {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => prefix + line)
    .join("\n");
}
