/**
 * The interview's entry point for `generate`: a person confirms each drafted
 * rule, in the browser (default) or in the terminal (`--no-web`), and gets
 * back the judge.yaml IR to write. Both front ends drive the same state
 * machine (state.ts, view.ts); neither calls a model.
 */
import { startWebInterview } from "./web.js";
import { runTerminalInterview } from "./terminal.js";
import type { InterviewInput, InterviewResult } from "../generate/types.js";

export { InterviewCancelledError } from "../errors.js";

export interface RunInterviewOptions {
  /** true: serve the interview page on 127.0.0.1; false: ask in the terminal. */
  web: boolean;
  /** Terminal answers; default process.stdin. */
  input?: NodeJS.ReadableStream;
  /** Terminal questions; default process.stderr, so stdout stays clean. */
  output?: NodeJS.WritableStream;
  /** Receives the page's URL (token included) once the server listens; without it the URL is written to `output`. */
  onUrl?: (url: string) => void;
}

/**
 * Interviews a person about the draft and resolves with the confirmed IR and
 * the number of questions shown. Rules outside `input.ask` are carried over
 * unchanged. Rejects with InterviewCancelledError when the person declines to
 * write (terminal).
 */
export async function runInterview(input: InterviewInput, options: RunInterviewOptions): Promise<InterviewResult> {
  if (!options.web) {
    return runTerminalInterview(input, { input: options.input, output: options.output });
  }
  const interview = await startWebInterview(input);
  if (options.onUrl !== undefined) options.onUrl(interview.url);
  else (options.output ?? process.stderr).write(`Confirm the judge in your browser: ${interview.url}\n`);
  return interview.result;
}
