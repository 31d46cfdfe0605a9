/**
 * The interview in the terminal (`generate --no-web`). It reads answers one
 * line at a time and writes everything else to stderr by default, so stdout
 * stays clean for whatever the command prints there.
 *
 * Answer format, one line per answer:
 *
 *   At a question (trigger, check or semantic check):
 *     ""  | a | y | accept   accept the clause as drafted (the default; at a question
 *                            answered before, an empty line keeps that answer instead)
 *     e   | edit             field by field, each prefilled (Enter keeps it, "-" clears it)
 *                            and checked by the parser as it is answered; the quote is
 *                            kept verbatim. `type` may be "semantic" (a check becomes a
 *                            question for a model) or a check type (a semantic question
 *                            becomes an event check). Then the edit's verdict preview and
 *                            "save this edit? [Y/n]". Instead of the first field, the
 *                            whole clause as one line of JSON or flow YAML ({…}) is
 *                            taken as it is (an invalid one prints the parser's
 *                            diagnostics and asks the question again).
 *     s   | semantic         then one line: the question for a model ("yes" means satisfied);
 *                            an empty line takes the suggested question. On a trigger this
 *                            makes the trigger semantic (the line is its description); on a
 *                            semantic check it rephrases the question.
 *     d   | drop             drop the clause; dropping a trigger drops the whole rule
 *     w   | widen            when the preview says the trigger never fires where the
 *                            rule's checks have events: widen it to fire there too
 *     b   | back             back to the previous question
 *     f   | forward          on to the next question, keeping the current answer
 *     ?   | help             print this list
 *
 *   At the final review, after the judge.yaml is printed:
 *     ""  | y | yes          write it
 *     n   | no               write nothing (runInterview rejects with InterviewCancelledError)
 *     b   | back             back to the last question
 *
 * When the input ends, every remaining question takes its default (accept,
 * or the answer already given) and the review is confirmed, so
 * `yes "" | … --no-web` and `< /dev/null` both accept the whole draft.
 */
import { createInterface } from "node:readline";
import { printableLines } from "../report/printable.js";
import type { CheckType } from "../../runtime/types.js";
import { excerpt } from "./evidence.js";
import {
  CHECK_TYPES,
  emptyMatcher,
  formSnippet,
  isEmptyMatcher,
  PATTERN_ROLES,
  retype,
  type ClauseForm,
  type MatcherFields,
} from "./fields.js";
import type { VerdictSamples } from "../generate/preview.js";
import type { Evidence } from "./evidence.js";
import { interviewResult, startInterview, step } from "./state.js";
import { formatDiagnostic } from "../diagnostics.js";
import { parseClauseSnippet } from "./snippet.js";
import { InterviewCancelledError } from "../errors.js";
import type { InterviewAction, InterviewState, StepOutcome } from "./state.js";
import { currentView, previewEdit, type ClausePreviewView, type QuestionView, type ReviewView } from "./view.js";
import type { InterviewInput, InterviewResult } from "../generate/types.js";
import { plural } from "../report/plural.js";

export interface TerminalInterviewOptions {
  /** Where answers come from; default process.stdin. */
  input?: NodeJS.ReadableStream | undefined;
  /** Where questions go; default process.stderr. */
  output?: NodeJS.WritableStream | undefined;
}

function questionPrompt(view: QuestionView): string {
  const widen = view.preview.widenedTrigger === undefined ? "" : " / [w]iden the trigger";
  // Back at an answered question, Enter must not silently throw the answer away.
  return view.decision === undefined
    ? `[a]ccept / [e]dit / [s]emantic / [d]rop${widen} / [b]ack (default a): `
    : `[a]ccept the draft / [e]dit / [s]emantic / [d]rop${widen} / [b]ack (default: keep your answer): `;
}
const REVIEW_PROMPT = "write? [Y/n] (b: back): ";

const HELP = [
  "  a or empty line: accept    e: edit field by field (or paste the clause as one line of {JSON})",
  "  s: ask a model instead (then the question)    d: drop (a trigger: the whole rule)",
  "  w: widen the trigger (when the preview says it never fires where its checks' events are)",
  "  b: back    f: forward, keeping the answer    ?: this help",
].join("\n");

/** Runs the interview over a line-oriented input stream. */
export async function runTerminalInterview(input: InterviewInput, options: TerminalInterviewOptions = {}): Promise<InterviewResult> {
  const out = options.output ?? process.stderr;
  const source = options.input ?? process.stdin;
  // A terminal echoes what the person types; piped answers are echoed here so the log reads as a transcript.
  const echo = (source as { isTTY?: boolean }).isTTY !== true;
  const lines = new LineReader(source, echo ? (line) => void out.write(`${printableLines(line)}\n`) : undefined);
  // Trajectory, spec and model text is untrusted: an escape sequence in an event could rewrite the person's terminal.
  const write = (text: string) => void out.write(printableLines(text));
  try {
    let state = startInterview(input);
    while (!state.confirmed) {
      const view = currentView(state);
      state = view.kind === "review" ? await reviewTurn(state, view, lines, write) : await questionTurn(state, view, lines, write);
    }
    return interviewResult(state);
  } finally {
    lines.close();
  }
}

type Write = (text: string) => void;

async function questionTurn(state: InterviewState, view: QuestionView, lines: LineReader, write: Write): Promise<InterviewState> {
  write(formatQuestion(view));
  for (;;) {
    const answered = view.decision !== undefined;
    write(questionPrompt(view));
    const line = await lines.next();
    if (line === undefined) {
      write(answered ? "(end of input: answer kept)\n" : "(end of input: accepted)\n");
      return apply(state, { type: answered ? "forward" : "accept" }, write);
    }
    const answer = line.trim() === "" && answered ? "f" : line.trim().toLowerCase();
    const action = await questionAction(answer, state, view, lines, write);
    if (action === "again") continue;
    if (action === undefined) {
      write(`unknown answer ${JSON.stringify(line.trim())}\n${HELP}\n`);
      continue;
    }
    const outcome = step(state, action);
    if (outcome.ok) return outcome.state;
    reportRefusal(outcome, write);
  }
}

/** The action an answer asks for; "again" re-prompts without a message (help shown, an edit cancelled). */
async function questionAction(
  answer: string,
  state: InterviewState,
  view: QuestionView,
  lines: LineReader,
  write: Write,
): Promise<InterviewAction | "again" | undefined> {
  switch (answer) {
    case "":
    case "a":
    case "y":
    case "accept":
      return { type: "accept" };
    case "d":
    case "drop":
      return { type: "drop" };
    case "b":
    case "back":
      return { type: "back" };
    case "f":
    case "forward":
      return { type: "forward" };
    case "?":
    case "h":
    case "help":
      write(`${HELP}\n`);
      return "again";
    case "w":
    case "widen":
      return { type: "widen" };
    case "e":
    case "edit":
      return editByField(state, view, lines, write);
    case "s":
    case "semantic": {
      write(`${semanticPrompt(view)} (default: ${view.suggestedQuestion}): `);
      const text = await lines.next();
      if (text === undefined) return { type: "accept" };
      return { type: "semantic", question: text.trim() === "" ? view.suggestedQuestion : text };
    }
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------
// Editing field by field

/** One field of the form: where it is (the parser's path for it), and how to read and set it. */
interface Field {
  path: string;
  hint?: string;
  get(): string;
  set(value: string): void;
}

type Form = ClauseForm;

/**
 * Walks the person through the clause's fields, each prefilled. Every answer
 * is checked by the parser at once (the form as it stands, written with the
 * quote kept); a value it refuses is undone and the field asked again. Once
 * the form parses, its preview is shown and the person saves it or not.
 */
async function editByField(state: InterviewState, view: QuestionView, lines: LineReader, write: Write): Promise<InterviewAction | "again"> {
  let form: Form = structuredClone(view.forms[view.formKind] ?? view.forms.trigger!);
  const quote = view.quote ?? "";
  write(`current: ${view.editOneLine}\n`);
  write(
    'Edit field by field: Enter keeps the value in [brackets], "-" clears it; or type the whole clause as one line of JSON or flow YAML ({…}).\n',
  );
  if (view.quote !== undefined) write(`  quote (kept verbatim): ${JSON.stringify(quote)}\n`);
  let first = true;
  for (;;) {
    for (let i = 0; ; i++) {
      // The list is rebuilt after each answer: a new type brings other fields.
      const fields = formFields(form, view, (next) => (form = next));
      const field = fields[i];
      if (field === undefined) break;
      const before = structuredClone(form);
      write(`  ${field.path}${field.hint === undefined ? "" : ` (${field.hint})`} [${field.get()}]: `);
      const line = await lines.next();
      if (line === undefined) return { type: "accept" };
      if (first && line.trim().startsWith("{")) return { type: "edit", text: line, as: pastedKind(view, line) };
      first = false;
      if (line.trim() === "") continue;
      field.set(line.trim() === "-" ? "" : line.trim());
      const problems = fieldProblems(form, quote, field.path);
      if (problems.length > 0) {
        for (const d of problems) write(`!   ${formatDiagnostic(d)}\n`);
        form = before;
        i--;
        continue;
      }
      // Go on after this field in the form as it is now; a field the answer took away (semantic: no) is not skipped past.
      const at = formFields(form, view, (next) => (form = next)).findIndex((f) => f.path === field.path);
      i = at >= 0 ? at : i - 1;
    }
    form = withoutClearedAlternatives(form);
    const text = formSnippet(form, quote);
    const preview = previewEdit(state, text, form.kind);
    if (!preview.ok) {
      write("! the edit is not a valid clause yet:\n");
      for (const d of preview.diagnostics) write(`!   ${formatDiagnostic({ ...d, line: 0, col: 0 })}\n`);
      write("  the fields again, with your values:\n");
      continue;
    }
    write(`  your edit:\n${indent(preview.yaml, "    ")}\n`);
    write(`${formatPreview(preview.preview, "with your edit").join("\n")}\n`);
    for (const warning of preview.warnings) write(`  warning: ${warning}\n`);
    write("save this edit? [Y/n] (e: the fields again): ");
    const answer = (await lines.next())?.trim().toLowerCase();
    if (answer === "e") continue;
    if (answer === "n" || answer === "no") return "again";
    return { type: "edit", text, as: form.kind };
  }
}

/** A whole clause typed at a check or semantic check's question is an event check when it has a type, else a question. */
function pastedKind(view: QuestionView, line: string): QuestionView["formKind"] {
  if (view.clause.kind === "trigger") return "trigger";
  return /(?:^|[{,\s])["']?type["']?\s*:/.test(line) ? "check" : "semanticCheck";
}

/** The parser's problems with the field just answered; the rest wait until the whole form is answered. */
function fieldProblems(form: Form, quote: string, path: string) {
  const kind = form.kind;
  const parsed = parseClauseSnippet(kind, formSnippet(form, quote));
  if (parsed.ok) return [];
  return parsed.diagnostics
    .filter((d) => d.path === path || d.path.startsWith(`${path}.`) || d.path.startsWith(`${path}[`))
    .map((d) => ({ ...d, line: 0, col: 0 }));
}

/** An alternative whose every field was cleared is gone, unless it was the only one. */
function withoutClearedAlternatives(form: Form): Form {
  const prune = (matchers: MatcherFields[]) => {
    const kept = matchers.filter((m) => !isEmptyMatcher(m));
    return kept.length === 0 ? matchers.slice(0, 1) : kept;
  };
  if (form.kind === "trigger") return { ...form, match: prune(form.match) };
  if (form.kind !== "check") return form;
  const patterns: Record<string, MatcherFields[]> = {};
  for (const [role, matchers] of Object.entries(form.patterns)) patterns[role] = prune(matchers);
  return { ...form, patterns, after: form.after.filter((m) => !isEmptyMatcher(m)) };
}

/** The fields of a form in the order they are asked. `replace` swaps the whole form (a change of type or kind). */
function formFields(form: Form, view: QuestionView, replace: (form: Form) => void): Field[] {
  const text = (path: string, get: () => string, set: (v: string) => void, hint?: string): Field => ({
    path,
    get,
    set,
    ...(hint === undefined ? {} : { hint }),
  });
  if (form.kind === "trigger") {
    const fields = [
      text(
        "description",
        () => form.description,
        (v) => (form.description = v),
      ),
    ];
    // A semantic trigger may get events to match again (s makes a trigger semantic).
    if (form.semantic) {
      fields.push(
        text(
          "semantic",
          () => "yes",
          (v) => {
            if (/^(?:n|no)$/i.test(v))
              replace({ ...form, semantic: false, match: form.match.length === 0 ? [emptyMatcher()] : form.match });
          },
          "no: match events instead",
        ),
      );
    }
    if (!form.semantic) fields.push(...matcherFields("match", form.match));
    return fields;
  }
  const types = `${CHECK_TYPES.join(", ")}, or semantic`;
  const typeField = text(
    "type",
    () => (form.kind === "check" ? form.type : "semantic"),
    (v) => {
      const next = v.toLowerCase();
      if (next === "semantic") {
        if (form.kind === "check") replace(structuredClone(view.forms.semanticCheck!));
        return;
      }
      // Not a type: left for the parser, whose message lists the types.
      const type = next as CheckType;
      if (!CHECK_TYPES.includes(type)) {
        if (form.kind === "check") replace({ ...form, type });
        else replace({ ...structuredClone(view.forms.check!), type } as Form);
        return;
      }
      const asCheck = form.kind === "check" ? form : (structuredClone(view.forms.check!) as Extract<Form, { kind: "check" }>);
      replace(retype(asCheck, type));
    },
    types,
  );
  if (form.kind === "semanticCheck")
    return [
      typeField,
      text(
        "question",
        () => form.question,
        (v) => (form.question = v),
      ),
    ];
  if (!CHECK_TYPES.includes(form.type)) return [typeField];
  const fields = [typeField];
  for (const role of PATTERN_ROLES[form.type]) fields.push(...matcherFields(role, form.patterns[role]!));
  if (PATTERN_ROLES[form.type].length === 1) {
    // No window yet: one empty alternative to fill in, left out again when it stays empty.
    if (form.after.length === 0) form.after.push(emptyMatcher());
    fields.push(...matcherFields("after", form.after, "a window: only events after its first match count; empty for none"));
  }
  if (form.type === "count") {
    fields.push(
      text(
        "min",
        () => form.min,
        (v) => (form.min = v),
      ),
      text(
        "max",
        () => form.max,
        (v) => (form.max = v),
      ),
      text(
        "distinctBy",
        () => form.distinctBy,
        (v) => (form.distinctBy = v),
        "content or metadata.<key>",
      ),
    );
  }
  return fields;
}

function matcherFields(role: string, matchers: MatcherFields[], hint?: string): Field[] {
  return matchers.flatMap((matcher, i) =>
    (["action", "actor", "contentIncludes", "metadata"] as const).map((key, k): Field => {
      const fieldHint = key === "actor" ? "user, agent or tool" : key === "metadata" ? "key: value, …" : k === 0 ? hint : undefined;
      return {
        path: `${role}[${i}].${key}`,
        get: () => matcher[key],
        set: (v) => (matcher[key] = v),
        ...(fieldHint === undefined ? {} : { hint: fieldHint }),
      };
    }),
  );
}

function semanticPrompt(view: QuestionView): string {
  return view.clause.kind === "trigger" ? "when the rule applies, for a model to decide" : "question for a model";
}

async function reviewTurn(state: InterviewState, view: ReviewView, lines: LineReader, write: Write): Promise<InterviewState> {
  write(formatReview(view));
  for (;;) {
    write(view.canConfirm ? REVIEW_PROMPT : "nothing can be written; [b]ack or [n] to stop: ");
    const line = await lines.next();
    const answer = line?.trim().toLowerCase();
    if (answer === undefined || answer === "" || answer === "y" || answer === "yes") {
      if (!view.canConfirm) {
        if (answer === undefined) throw new Error(`interview: input ended, and ${view.problems.join(" ")}`);
        continue;
      }
      return apply(state, { type: "confirm" }, write);
    }
    if (answer === "n" || answer === "no") throw new InterviewCancelledError();
    if (answer === "b" || answer === "back") {
      const outcome = step(state, { type: "back" });
      if (outcome.ok) return outcome.state;
      reportRefusal(outcome, write);
      continue;
    }
    write(`unknown answer ${JSON.stringify(line!.trim())}: y writes judge.yaml, n stops, b goes back\n`);
  }
}

/** For answers that cannot be refused here (accept, confirm on a valid review); a refusal would be a bug worth seeing. */
function apply(state: InterviewState, action: InterviewAction, write: Write): InterviewState {
  const outcome = step(state, action);
  if (!outcome.ok) {
    reportRefusal(outcome, write);
    throw new Error(`interview: ${outcome.error}`);
  }
  return outcome.state;
}

function reportRefusal(outcome: Extract<StepOutcome, { ok: false }>, write: Write): void {
  write(`! ${outcome.error}\n`);
  for (const d of outcome.diagnostics) write(`!   ${formatDiagnostic(d)}\n`);
}

// ---------------------------------------------------------------------------
// Formatting

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

function indent(text: string, prefix: string): string {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => prefix + line)
    .join("\n");
}

// ---------------------------------------------------------------------------
// Input

const HIGH_WATER = 64;
const LOW_WATER = 16;

/**
 * Lines from a stream, one at a time, without losing any that arrive before
 * they are asked for. The stream is paused while enough lines wait, because
 * `yes "" | …` never stops writing.
 */
class LineReader {
  private readonly queue: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private ended = false;
  private paused = false;
  private readonly rl;

  constructor(
    input: NodeJS.ReadableStream,
    private readonly onRead?: (line: string) => void,
  ) {
    this.rl = createInterface({ input, crlfDelay: Infinity, terminal: false });
    this.rl.on("line", (line) => this.push(line));
    this.rl.on("close", () => {
      this.ended = true;
      this.flush();
    });
  }

  async next(): Promise<string | undefined> {
    const line = await this.take();
    if (line !== undefined) this.onRead?.(line);
    return line;
  }

  private take(): Promise<string | undefined> {
    const line = this.queue.shift();
    if (this.paused && this.queue.length < LOW_WATER) {
      this.paused = false;
      this.rl.resume();
    }
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  close(): void {
    this.rl.close();
  }

  private push(line: string): void {
    this.queue.push(line);
    this.flush();
    if (!this.paused && this.queue.length >= HIGH_WATER) {
      this.paused = true;
      this.rl.pause();
    }
  }

  private flush(): void {
    const waiting = this.waiting;
    if (waiting === undefined) return;
    if (this.queue.length > 0) {
      this.waiting = undefined;
      waiting(this.queue.shift());
    } else if (this.ended) {
      this.waiting = undefined;
      waiting(undefined);
    }
  }
}
