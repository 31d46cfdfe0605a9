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
 *   At a verdict question (asked first, when labels leave a rule with several readings):
 *     y | n | n.a.           the rule was followed / broken / does not apply in that sample:
 *                            kept as a label (saved, the interview says where) and the rule
 *                            is drafted again with it
 *     ""  | s | skip         leave the sample unlabeled (the default); the question stays a note
 *
 *   At the final review, after the judge.yaml is printed:
 *     ""  | y | yes          write it
 *     n   | no               write nothing (runInterview rejects with InterviewCancelledError)
 *     b   | back             back to the last question
 *
 * When the input ends, every remaining question takes its default (skip,
 * accept, or the answer already given) and the review is confirmed, so
 * `yes "" | … --no-web` and `< /dev/null` both accept the whole draft.
 */
import { printableLines } from "../report/printable.js";
import { formatDiagnostic } from "../diagnostics.js";
import { InterviewCancelledError } from "../errors.js";
import type { InterviewInput, InterviewResult } from "../generate/types.js";
import { interviewResult, startInterview, step } from "./state.js";
import type { InterviewAction, InterviewState, StepOutcome } from "./state.js";
import { editByField, type Write } from "./terminal-edit.js";
import { LineReader } from "./terminal-lines.js";
import { formatQuestion, formatReview, formatVerdictQuestion, VERDICT_INTRO } from "./terminal-screens.js";
import { VerdictSession } from "./verdicts.js";
import { readVerdictAnswer } from "../generate/verdicts.js";
import { currentView, type QuestionView, type ReviewView } from "./view.js";

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
    const verdicts = new VerdictSession(input);
    if (!verdicts.done) await verdictTurns(verdicts, lines, write);
    let state = startInterview(verdicts.clauseInput());
    while (!state.confirmed) {
      const view = currentView(state);
      state = view.kind === "review" ? await reviewTurn(state, view, lines, write) : await questionTurn(state, view, lines, write);
    }
    const result = interviewResult(state);
    return { ...result, questionsAsked: result.questionsAsked + verdicts.shown };
  } finally {
    lines.close();
  }
}

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

const VERDICT_PROMPT = "[y]es / [n]o / n.a. / [s]kip (default s): ";

/** The verdict questions, before the clauses: each answer is kept as a label and its rule drafted again. */
async function verdictTurns(session: VerdictSession, lines: LineReader, write: Write): Promise<void> {
  write(VERDICT_INTRO);
  for (let view = session.current(); view !== undefined; view = session.current()) {
    write(formatVerdictQuestion(view));
    session.markShown();
    for (;;) {
      write(VERDICT_PROMPT);
      const line = await lines.next();
      if (line === undefined) {
        write("(end of input: skipped; the questions stay notes)\n");
        session.skipRest();
        return;
      }
      const answer = line.trim().toLowerCase();
      const verdict = answer === "" || answer === "s" || answer === "skip" ? "skip" : readVerdictAnswer(answer);
      if (verdict === undefined) {
        write(`unknown answer ${JSON.stringify(line.trim())}: y (followed), n (broken), n.a. (does not apply) or s (skip)\n`);
        continue;
      }
      await session.answer(verdict);
      write(`${session.previous}\n`);
      break;
    }
  }
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
