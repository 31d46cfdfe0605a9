/**
 * Where a run's results go as they come. Every output of `judge` is a sink:
 * the text or JSON on stdout, progress and failures on stderr, the HTML and
 * JUnit files, the browser report. The command picks its sinks once, adds
 * every result to each, and finishes them with the run's Tally.
 */
import type { CaseResult } from "../judge/judge-cases.js";
import type { Tally } from "../judge/tally.js";

export interface OutputSink {
  add(result: CaseResult): void;
  /** Ends this output once every result is in; returns the paths of the files it wrote. */
  finish(tally: Tally): Promise<string[]>;
}

/** Text goes to a writer (process.stdout or stderr in the CLI, a string in tests). */
export type Write = (text: string) => void;

/**
 * Adds each result to the tally, then to every sink, in order; once all are
 * in, finishes the sinks in order. Returns the files they wrote.
 */
export async function runSinks(
  results: AsyncIterable<CaseResult> | Iterable<CaseResult>,
  sinks: readonly OutputSink[],
  tally: Tally,
): Promise<string[]> {
  for await (const result of results) {
    tally.add(result);
    for (const sink of sinks) sink.add(result);
  }
  const written: string[] = [];
  for (const sink of sinks) written.push(...(await sink.finish(tally)));
  return written;
}
