/**
 * The worker thread of `judge --workers N` (pool.ts holds the main side).
 * It loads the judge once, then takes jobs: a batch of raw JSONL lines, or a
 * whole .json file. It decodes, parses, imports and judges them as the
 * single-threaded reader would (the same functions of inputs.ts), and posts
 * the results back. The main thread only splits files into lines, puts the
 * results back in input order and writes the outputs.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Clause, TrajectoryJudgment } from "../../runtime/types.js";
import { elementHead, lineHead } from "../report/json.js";
import { printable } from "../report/printable.js";
import { renderTrajectoryText } from "../report/text.js";
import type { InputCase } from "../inputs/case.js";
import { readCases } from "../inputs/inputs.js";
import type { TraceReadOptions } from "../inputs/trace-inputs.js";
import { loadImporters } from "../inputs/importers.js";
import { readJsonlLine } from "../inputs/jsonl.js";
import { judgeOne, type CaseResult, type JudgeCaseOptions, type OutputRender, type RenderedCase } from "./judge-cases.js";
import { importJudgeCode, type JudgeCode, type JudgeModule } from "./load.js";

/** What every worker of a run is started with (structured-cloned: no functions). */
export interface WorkerSetup {
  judge: JudgeCode;
  read: Omit<TraceReadOptions, "onWarning">;
  /** Without a model (pool.ts runs a model on the main thread): verify only. */
  judgeOptions: Pick<JudgeCaseOptions, "verify">;
  /** Send each case's trajectory back (the HTML, JUnit and browser reports show it); otherwise it stays here. */
  keepTrajectories: boolean;
  /** Render each judged case's stdout here (text, `--json` or `--jsonl`), when nothing but stdout and the tally needs its judgment. */
  render?: OutputRender;
}

/** How to judge again a job whose worker died: one case at a time, announced, and without the cases that killed a worker. */
export interface Isolation {
  /** Cases by their ordinal in the job (0-based, in reading order) that a worker died judging, with why. */
  crashed: [number, string][];
  /** Where a worker died reading: those places are not read again, a failed case stands in. */
  unreadable: Unreadable[];
}

/**
 * A place a worker died reading: `unit` is the job's line (lines jobs) or
 * file (files jobs), by its 0-based position in the job, and `ordinal` the
 * ordinal in the job the unit's next case would have had. A line is read in
 * one piece; a file streamed element by element may die after some of its
 * cases came out, and those are kept.
 */
export interface Unreadable {
  unit: number;
  ordinal: number;
  reason: string;
}

/**
 * Consecutive lines of one JSONL file, as bytes without their line breaks:
 * line i is `data[ends[i-1] ?? 0 .. ends[i])`, starts at file offset
 * `offsets[i]` and is line `firstLine + i`. Case indexes in the results
 * count from 0 at the first line; the main thread adds the lines before.
 */
export interface LinesJob {
  id: number;
  kind: "lines";
  file: string;
  data: Uint8Array;
  ends: number[];
  offsets: number[];
  firstLine: number;
  isolation?: Isolation;
}

/** Whole .json files, read one after another (each numbers its cases from 0, as the reader does). */
export interface FileJob {
  id: number;
  kind: "file";
  files: string[];
  isolation?: Isolation;
}

export type Job = LinesJob | FileJob;

/** A JSONL line that is not a trajectory, sent back as it was read: the main thread imports such lines together at the file's end. */
export interface TraceLine {
  bytes: Uint8Array;
  offset: number;
  line: number;
}

export interface JobOutcome {
  results: SentResult[];
  /** Case indexes the job's lines took (lines jobs). */
  consumed: number;
  traces: TraceLine[];
  /** Importer warnings, located, in reading order. */
  warnings: string[];
}

/**
 * An isolated job announces what it does next, so the main thread knows
 * where a worker that dies was: `reading` before it reads on in a unit (a
 * line, a file), `begin` before it judges a case. Messages posted before a
 * worker dies still arrive.
 */
export type WorkerMessage =
  | { kind: "ready" }
  | { kind: "reading"; id: number; unit: number; ordinal: number }
  | { kind: "begin"; id: number; ordinal: number }
  | ({ kind: "done"; id: number } & JobOutcome);

/** The message a case gets when a worker thread died judging it. */
export function crashMessage(reason: string): string {
  return `the worker thread judging this case died (${printable(reason)}); the other cases were judged`;
}

/** The message of a line, or a file, a worker thread died reading (`casesBefore`: what the file gave before). */
export function readCrashMessage(what: "case" | "file", reason: string, casesBefore = 0): string {
  if (what === "case") return `the worker thread reading this case died (${printable(reason)}); the other cases were judged`;
  if (casesBefore === 0) return `the worker thread reading this file died (${printable(reason)}); the other files were judged`;
  return `the worker thread reading this file died after its first ${casesBefore} cases (${printable(reason)}); they were judged, the rest of the file was not read`;
}

/** Where a job's reading stands: announced to the main thread when isolated; the places not to read again. */
interface ReadingPlace {
  /** Posts where the worker reads next (isolated jobs only). */
  announce: (unit: number, ordinal: number) => void;
  unreadable: readonly Unreadable[];
  /** Cases yielded so far in the job: the ordinal of the next. */
  ordinal: number;
}

function unreadableAt(place: ReadingPlace, unit: number): Unreadable | undefined {
  return place.unreadable.find((u) => u.unit === unit);
}

async function* linesOf(
  job: LinesJob,
  read: TraceReadOptions,
  traces: TraceLine[],
  counted: { consumed: number },
  place: ReadingPlace,
): AsyncGenerator<InputCase> {
  let start = 0;
  for (let i = 0; i < job.ends.length; i++) {
    const end = job.ends[i]!;
    const bytes = job.data.subarray(start, end);
    start = end;
    const line = job.firstLine + i;
    place.announce(i, place.ordinal);
    const died = unreadableAt(place, i);
    if (died !== undefined) {
      // Not read again: the line takes its one index, as any line that is a case does.
      place.ordinal++;
      yield { file: job.file, index: counted.consumed++, line, error: readCrashMessage("case", died.reason) };
      continue;
    }
    const lineRead = readJsonlLine(bytes, job.offsets[i]!, { file: job.file, index: counted.consumed, line }, read);
    if (lineRead.kind === "blank") continue;
    if (lineRead.kind === "trace") {
      traces.push({ bytes: bytes.slice(), offset: job.offsets[i]!, line });
      continue;
    }
    counted.consumed++;
    for (const input of lineRead.cases) {
      place.ordinal++;
      yield input;
    }
  }
}

/**
 * The cases of a files job, file by file. A file a worker died reading is
 * read again only up to the case it died after (a streamed array), then a
 * failed case stands for the rest.
 */
async function* filesOf(job: FileJob, read: TraceReadOptions, place: ReadingPlace): AsyncGenerator<InputCase> {
  for (let f = 0; f < job.files.length; f++) {
    const file = job.files[f]!;
    const died = unreadableAt(place, f);
    let next = 0;
    let given = 0;
    place.announce(f, place.ordinal);
    if (died === undefined || died.ordinal > place.ordinal) {
      for await (const input of readCases([file], read)) {
        place.ordinal++;
        given++;
        next = input.index + 1;
        yield input;
        if (died !== undefined && place.ordinal >= died.ordinal) break;
        place.announce(f, place.ordinal);
      }
    }
    if (died === undefined) continue;
    place.ordinal++;
    yield { file, index: next, error: readCrashMessage("file", died.reason, given) };
  }
}

/** What is sent back of a result: the trajectory only when a report will show it; with `render`, the stdout instead of the whole judgment. */
function sendable(result: CaseResult, setup: WorkerSetup, ruleNames: readonly string[], oneFile: boolean): SentResult {
  const rendered =
    setup.render !== undefined && result.kind === "judged"
      ? renderedCase(result.judgment, result.input.file, setup.render, result.input.trajectory)
      : undefined;
  if (rendered !== undefined && result.kind === "judged" && result.usage === undefined) {
    const code = tallyCode(result.judgment, ruleNames);
    if (code !== undefined) {
      // A lines job's cases share its file, which the main thread knows. Nothing reads a rendered case's
      // line, which an array element finds only when asked (inputs/json-file.ts): it is not asked here.
      const { file, index, expected, labeled } = result.input;
      const input: CompactCase["input"] = oneFile ? { index } : { file, index };
      if (expected !== undefined) input.expected = expected;
      if (labeled !== undefined) input.labeled = labeled;
      return { kind: "compact", input, rendered, trajectoryId: result.judgment.trajectoryId, code };
    }
  }
  const sent = rendered === undefined || result.kind !== "judged" ? result : { ...result, judgment: tallied(result.judgment), rendered };
  if (setup.keepTrajectories || sent.input.trajectory === undefined) return sent;
  const { trajectory: _trajectory, ...input } = sent.input;
  return { ...sent, input };
}

/**
 * A judged case whose stdout a worker rendered, sent as little as can be: a
 * judgment is mostly clauses and names, and cloning them cost a quarter of
 * a run's CPU. `code` holds what the tally reads (pool.ts expands it): the
 * trajectory's verdict and error marker, then per rule, in the judge's
 * order, its verdict, na reason, error marker and whether it triggered.
 */
export interface CompactCase {
  kind: "compact";
  input: Omit<InputCase, "file" | "trajectory"> & { file?: string };
  rendered: RenderedCase;
  trajectoryId: string;
  code: string;
}

export type SentResult = CaseResult | CompactCase;

export const VERDICT_CODES: Record<string, string> = { true: "t", false: "f", na: "n" };
export const NA_REASON_CODES: Record<string, string> = { not_applicable: "a", insufficient_evidence: "i" };

/** The tally's view of a judgment as a code, or undefined when it does not fit one (then the judgment goes as it is). */
function tallyCode(judgment: TrajectoryJudgment, ruleNames: readonly string[]): string | undefined {
  const flag = (value: unknown, mark: string) => (value === undefined || value === false ? "-" : value === true ? mark : undefined);
  const metas = judgment.metaBehaviors;
  if (metas.length !== ruleNames.length) return undefined;
  let code = `${VERDICT_CODES[judgment.verdict] ?? "?"}${flag(judgment.error, "E") ?? "?"}`;
  for (let i = 0; i < metas.length; i++) {
    const meta = metas[i]!;
    if (meta.name !== ruleNames[i] || meta.clauses.some(countsInTally)) return undefined;
    const naReason = meta.naReason === null ? "-" : NA_REASON_CODES[meta.naReason];
    code += `${VERDICT_CODES[meta.verdict] ?? "?"}${naReason ?? "?"}${flag(meta.error, "E") ?? "?"}${flag(meta.triggered, "T") ?? "?"}`;
  }
  return code.includes("?") ? undefined : code;
}

/** Workers never have a model (pool.ts), so the text is rendered as a run without one renders it. */
function renderedCase(judgment: TrajectoryJudgment, file: string, render: OutputRender, trajectory: unknown): RenderedCase | undefined {
  if (render === "text") return { text: renderTrajectoryText(judgment, file, { model: false, trajectory }) };
  if (render === "jsonl") {
    const head = lineHead(judgment, file);
    return head === undefined ? undefined : { lineHead: head };
  }
  const jsonHead = elementHead(judgment, file);
  return jsonHead === undefined ? undefined : { jsonHead };
}

/**
 * What the run's tally reads of a judgment (tally.ts): the verdicts, na
 * reasons and error markers of the trajectory and its rules, and of clauses
 * only their error markers and verifications. Workers run without a model,
 * so clauses have neither and go (they are most of what would be sent
 * back); a clause that has one keeps its place, without its evidence.
 */
function tallied(judgment: TrajectoryJudgment): TrajectoryJudgment {
  return {
    ...judgment,
    metaBehaviors: judgment.metaBehaviors.map((meta) => ({
      ...meta,
      clauses: meta.clauses.filter(countsInTally).map(({ reasoning: _reasoning, ...clause }) => ({ ...clause, quote: "", citations: [] })),
    })),
  };
}

function countsInTally(clause: Clause): boolean {
  return clause.error !== undefined || clause.verification === "confirmed" || clause.verification === "overturned";
}

async function runJob(judge: JudgeModule, setup: WorkerSetup, job: Job, post: (message: WorkerMessage) => void): Promise<void> {
  const warnings: string[] = [];
  const read: TraceReadOptions = { ...setup.read, onWarning: (message) => void warnings.push(message) };
  const traces: TraceLine[] = [];
  const counted = { consumed: 0 };
  const place: ReadingPlace = {
    // Only an isolated job announces: a message per line would cost the common run.
    announce: job.isolation === undefined ? () => {} : (unit, ordinal) => post({ kind: "reading", id: job.id, unit, ordinal }),
    unreadable: job.isolation?.unreadable ?? [],
    ordinal: 0,
  };
  const cases = job.kind === "lines" ? linesOf(job, read, traces, counted, place) : filesOf(job, read, place);
  const crashed = new Map(job.isolation?.crashed ?? []);
  const results: SentResult[] = [];
  const ruleNames = judge.rules.map((rule) => rule.name);
  let ordinal = 0;
  for await (const input of cases) {
    const died = crashed.get(ordinal);
    if (died !== undefined) results.push(sendable({ kind: "failed", input, message: died }, setup, ruleNames, job.kind === "lines"));
    else {
      // Isolated: say which case is being judged, so a worker that dies now names it (messages posted before a crash arrive).
      if (job.isolation !== undefined) post({ kind: "begin", id: job.id, ordinal });
      results.push(sendable(await judgeOne(judge, input, setup.judgeOptions), setup, ruleNames, job.kind === "lines"));
    }
    ordinal++;
  }
  post({ kind: "done", id: job.id, results, consumed: counted.consumed, traces, warnings });
}

async function main(): Promise<void> {
  const port = parentPort!;
  const setup = workerData as WorkerSetup;
  const judge = await importJudgeCode(setup.judge);
  // The readers of a worker take any line as it comes (readJsonlLine): the importers are at hand from the start.
  await loadImporters();
  const post = (message: WorkerMessage) => port.postMessage(message);
  // Jobs run one after another, in the order they came: the main thread knows which one a crash stopped.
  let chain = Promise.resolve();
  port.on("message", (job: Job) => {
    chain = chain.then(() => runJob(judge, setup, job, post));
  });
  post({ kind: "ready" });
}

if (parentPort !== null) await main();
