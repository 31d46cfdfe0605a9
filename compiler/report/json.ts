/** `judge --json` (docs/FORMATS.md §6): one JSON array on stdout, element i for input case i. */
import type { TrajectoryJudgment } from "../../runtime/types.js";
import type { FailedCase } from "../judge/judge-cases.js";
import { caseErrorOf } from "./outputs.js";
import type { OutputSink, Write } from "./sink.js";
import { renderRunSummary } from "./summary.js";

/**
 * The `--json` element of a case that could not be judged: it keeps the
 * case's place, so element i is always input case i. It has no `verdict`;
 * its message is `caseError` (not `error`, which on a judgment marks a failed
 * model call).
 */
export interface JsonCaseError {
  file: string;
  case: number;
  line?: number;
  caseError: string;
}

export function jsonCaseError(result: FailedCase): JsonCaseError {
  const { file, caseIndex, line, message } = caseErrorOf(result);
  return { file, case: caseIndex, ...(line !== undefined ? { line } : {}), caseError: message };
}

/**
 * JSON output streams one element at a time yet is byte-identical to
 * `JSON.stringify(all, null, 2)`, so large corpora never sit in memory.
 */
class JsonArrayWriter {
  private count = 0;
  constructor(private readonly write: Write) {}
  push(value: TrajectoryJudgment | JsonCaseError): void {
    const body = JSON.stringify(value, null, 2).replace(/\n/g, "\n  ");
    this.write(`${this.count === 0 ? "[\n  " : ",\n  "}${body}`);
    this.count++;
  }
  end(): void {
    this.write(this.count === 0 ? "[]\n" : "\n]\n");
  }
}

/**
 * The judgments as one JSON document on `write` (stdout); the run's summary
 * lines go to `writeSummary` (stderr), so stdout stays one JSON document that
 * depends only on the inputs.
 */
export function jsonSink(write: Write, writeSummary: Write, options: { usage: boolean }): OutputSink {
  const array = new JsonArrayWriter(write);
  return {
    add(result) {
      array.push(result.kind === "judged" ? result.judgment : jsonCaseError(result));
    },
    async finish(tally) {
      array.end();
      for (const line of renderRunSummary(tally, options)) writeSummary(`${line}\n`);
      return [];
    },
  };
}
