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
 *     e   | edit             then one line: the clause as a JSON or flow-YAML object,
 *                            e.g. {"type":"required","quote":"…","match":{"action":"add_case_note"}}
 *                            (an empty line cancels; an invalid one prints the parser's
 *                            diagnostics and asks the question again)
 *     s   | semantic         then one line: the question for a model ("yes" means satisfied);
 *                            an empty line takes the suggested question. On a trigger this
 *                            makes the trigger semantic (the line is its description); on a
 *                            semantic check it rephrases the question.
 *     d   | drop             drop the clause; dropping a trigger drops the whole rule
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
import { excerpt } from "./evidence.js";
import type { Evidence } from "./evidence.js";
import { interviewResult, startInterview, step } from "./state.js";
import { formatDiagnostic } from "../diagnostics.js";
import { InterviewCancelledError } from "../errors.js";
import type { InterviewAction, InterviewState, StepOutcome } from "./state.js";
import { currentView, type QuestionView, type ReviewView } from "./view.js";
import type { InterviewInput, InterviewResult } from "../generate/types.js";
import { plural } from "../report/plural.js";

export interface TerminalInterviewOptions {
  /** Where answers come from; default process.stdin. */
  input?: NodeJS.ReadableStream | undefined;
  /** Where questions go; default process.stderr. */
  output?: NodeJS.WritableStream | undefined;
}

const QUESTION_PROMPT = "[a]ccept / [e]dit / [s]emantic / [d]rop / [b]ack (default a): ";
// Back at an answered question, Enter must not silently throw the answer away.
const ANSWERED_PROMPT = "[a]ccept the draft / [e]dit / [s]emantic / [d]rop / [b]ack (default: keep your answer): ";
const REVIEW_PROMPT = "write? [Y/n] (b: back): ";

const HELP = [
  "  a or empty line: accept    e: edit (then one line of JSON or flow YAML)",
  "  s: ask a model instead (then the question)    d: drop (a trigger: the whole rule)",
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
    write(answered ? ANSWERED_PROMPT : QUESTION_PROMPT);
    const line = await lines.next();
    if (line === undefined) {
      write(answered ? "(end of input: answer kept)\n" : "(end of input: accepted)\n");
      return apply(state, { type: answered ? "forward" : "accept" }, write);
    }
    const answer = line.trim() === "" && answered ? "f" : line.trim().toLowerCase();
    const action = await questionAction(answer, view, lines, write);
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
    case "e":
    case "edit": {
      write(`current: ${view.editOneLine}\n${editPrompt(view)}`);
      const text = await lines.next();
      if (text === undefined) return { type: "accept" };
      return text.trim() === "" ? "again" : { type: "edit", text };
    }
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

function editPrompt(view: QuestionView): string {
  const what = view.clause.kind === "trigger" ? "trigger" : view.clause.kind === "check" ? "check" : "semantic check";
  return `${what} as one line of JSON or flow YAML (empty line: keep the question open): `;
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
  for (const note of view.notes) out.push(`  note: ${note}`);
  for (const warning of view.warnings) out.push(`  warning: ${warning}`);
  return `${out.join("\n")}\n`;
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
