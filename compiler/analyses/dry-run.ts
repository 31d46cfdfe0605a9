/**
 * `--dry-run`: how many model calls a run would make, from the answer cache
 * as it is now, without making any. The real judge runs over every case with
 * an adapter that never touches the network: a question the cache answers
 * gets that answer (counted as cached), any other is counted as a call the
 * run would make. Its answer is unknown, and what a judge asks next depends
 * on it (a semantic trigger that comes out false asks nothing more; a
 * deterministic failure the model confirms skips the rule's semantic
 * checks), so each case is judged twice: every unknown answer "true", then
 * every unknown answer "false".
 *
 * Those two passes bound every real run. Rules are judged independently, and
 * at each point where an answer decides what comes next, "true" (or "na")
 * asks at least as much as "false": a trigger that holds goes on to the
 * checks, and an overturned failure lets the semantic checks run. So the
 * all-true pass asks a superset of what any real answers lead to, and the
 * all-false pass a subset.
 *
 * Not counted: the second request after an answer that fails validation, and
 * transport retries (429, 5xx, timeouts). Both depend on the provider.
 */
import type { ChatMessage, SemanticAdapter } from "../../runtime/semantic.js";
import { answerCacheKey, readCachedAnswer, type AnswerCacheOptions } from "../model/answer-cache.js";
import { UNLABELED } from "./calibrate.js";
import type { InputCase } from "../inputs/case.js";
import { judgeOne, locatedMessage, type CaseResult } from "../run/judge-cases.js";
import type { JudgeModule } from "../run/load.js";
import { caseInSample } from "../run/sample.js";

/** A count that depends on answers the dry run cannot know. */
export interface Range {
  atLeast: number;
  atMost: number;
}

export interface DryRunCounts {
  /** Cases read, including those that cannot be judged. */
  cases: number;
  /** Cases judged (a trajectory each). */
  trajectories: number;
  /** Judged trajectories that get the model: all of them, or those `--sample` picks; 0 without a model. */
  withModel: number;
  /** Triggers and semantic checks the run would ask the model (cache misses). */
  semantic: Range;
  /** Verify-on-false questions the run would ask the model (cache misses). */
  verify: Range;
  /** Questions the cache would answer. */
  cached: Range;
  /** Cases that cannot be read or judged, each with its place: `file:line: case N: message`. */
  failures: string[];
}

export interface DryRunOptions {
  /** The model's cache (`undefined` with `--no-cache`); without `model` no question is asked at all. */
  model?: { cache: AnswerCacheOptions | undefined };
  /** `--no-verify` makes it false. */
  verify?: boolean;
  sample?: number;
  /** calibrate: a case without labels is judged (its calls count) but fails. */
  requireLabels?: boolean;
  /** Cases judged at once: the cache reads overlap (default 16). */
  concurrency?: number;
}

/** What one pass books. */
interface PassCounts {
  semantic: number;
  verify: number;
  cached: number;
}

function emptyPass(): PassCounts {
  return { semantic: 0, verify: 0, cached: 0 };
}

/**
 * The verify task's wording (runtime/semantic.ts): only a verify-on-false
 * question says a deterministic check found the clause violated. A judge.mjs
 * built by a version that words it differently has its verify calls counted
 * as semantic ones; the total stays right.
 */
const VERIFY_WORDING = "which matches event actions and fields literally, found this clause violated";

export function isVerifyQuestion(messages: readonly { content: string }[]): boolean {
  return messages.some((m) => m.content.includes(VERIFY_WORDING));
}

/** The id of the trajectory's first event: a citation every answer to a question about it may carry. */
function firstEventId(trajectory: unknown): string | undefined {
  const events = (trajectory as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) return undefined;
  const id = (events[0] as { id?: unknown } | null | undefined)?.id;
  return typeof id === "string" ? id : undefined;
}

/** A valid answer standing in for the model's, so the judge goes on as it would after that verdict. */
function supposedAnswer(verdict: "true" | "false", eventId: string | undefined): string {
  return JSON.stringify({
    verdict,
    na_reason: null,
    reasoning: `Dry run: the answer is supposed to be ${verdict}.`,
    citations: eventId === undefined ? [] : [{ event_id: eventId, description: "dry run" }],
  });
}

/** A question's cache key and stored answer (undefined on a miss). */
type CacheLookup = (messages: ChatMessage[]) => Promise<{ key: string; text: string | undefined }>;

/** The cache lookups of one case: both passes mostly ask the same questions, so each is read once. */
function caseLookup(cache: AnswerCacheOptions): CacheLookup {
  const reads = new Map<string, Promise<string | undefined>>();
  return async (messages) => {
    const key = answerCacheKey(cache.model, messages, cache.temperature);
    let read = reads.get(key);
    if (read === undefined) reads.set(key, (read = readCachedAnswer(cache, messages, key)));
    return { key, text: await read };
  };
}

/**
 * The adapter of one pass over one case. `asked`, in the all-false pass with
 * the cache on, holds the questions already counted as calls: the same
 * question again (the same trajectory twice in the input) would be answered
 * from the cache by then, at the least. The all-true pass counts it again,
 * since both may be in flight at once and miss together.
 */
function countingAdapter(
  verdict: "true" | "false",
  trajectory: unknown,
  cache: CacheLookup | undefined,
  counts: PassCounts,
  asked: Set<string> | undefined,
): SemanticAdapter {
  const eventId = firstEventId(trajectory);
  return async (messages) => {
    if (cache !== undefined) {
      const { key, text } = await cache(messages);
      if (text !== undefined) {
        counts.cached++;
        return { text, cached: true };
      }
      if (asked !== undefined) {
        // 64 bits of the key tell a million questions apart (a clash would lower the lower count by one) at half the memory.
        const short = key.slice(0, 16);
        if (asked.has(short)) {
          counts.cached++;
          return { text: supposedAnswer(verdict, eventId), cached: true };
        }
        asked.add(short);
      }
    }
    if (isVerifyQuestion(messages)) counts.verify++;
    else counts.semantic++;
    return { text: supposedAnswer(verdict, eventId) };
  };
}

/** One case under both suppositions; the failure (the same in both) from the first. */
async function countCase(
  judge: JudgeModule,
  input: InputCase,
  options: DryRunOptions,
  passes: { high: PassCounts; low: PassCounts; lowAsked: Set<string> | undefined },
): Promise<CaseResult> {
  const base = {
    ...(options.verify === false ? { verify: false } : {}),
    ...(options.sample !== undefined ? { sample: options.sample } : {}),
  };
  if (options.model === undefined) return judgeOne(judge, input, base);
  const lookup = options.model.cache !== undefined ? caseLookup(options.model.cache) : undefined;
  const [high] = await Promise.all([
    judgeOne(judge, input, { ...base, complete: countingAdapter("true", input.trajectory, lookup, passes.high, undefined) }),
    judgeOne(judge, input, { ...base, complete: countingAdapter("false", input.trajectory, lookup, passes.low, passes.lowAsked) }),
  ]);
  return high;
}

/** Judges every case both ways, at most `concurrency` at once, and adds up what the run would ask. */
export async function countModelCalls(
  judge: JudgeModule,
  cases: AsyncIterable<InputCase>,
  options: DryRunOptions = {},
): Promise<DryRunCounts> {
  const passes = { high: emptyPass(), low: emptyPass(), lowAsked: options.model?.cache !== undefined ? new Set<string>() : undefined };
  const counts: DryRunCounts = {
    cases: 0,
    trajectories: 0,
    withModel: 0,
    semantic: { atLeast: 0, atMost: 0 },
    verify: { atLeast: 0, atMost: 0 },
    cached: { atLeast: 0, atMost: 0 },
    failures: [],
  };
  const book = (result: CaseResult) => {
    counts.cases++;
    const failure =
      result.kind === "failed"
        ? result.message
        : options.requireLabels === true && result.input.expected === undefined
          ? UNLABELED
          : undefined;
    if (failure !== undefined) counts.failures.push(locatedMessage(result.input, failure));
    if (result.kind === "failed") return;
    counts.trajectories++;
    if (options.model !== undefined && (options.sample === undefined || caseInSample(result.input, options.sample))) counts.withModel++;
  };
  const inFlight: Promise<CaseResult>[] = [];
  const limit = Math.max(1, options.concurrency ?? 16);
  for await (const input of cases) {
    inFlight.push(countCase(judge, input, options, passes));
    if (inFlight.length >= limit) book(await inFlight.shift()!);
  }
  while (inFlight.length > 0) book(await inFlight.shift()!);
  for (const key of ["semantic", "verify"] as const) counts[key] = { atLeast: passes.low[key], atMost: passes.high[key] };
  // A repeated question is a call in the all-true pass and a cache hit in the all-false one, so either pass may see more hits.
  const hits = [passes.low.cached, passes.high.cached];
  counts.cached = { atLeast: Math.min(...hits), atMost: Math.max(...hits) };
  return counts;
}

/** The counts of `runs` runs without the cache (`calibrate --runs`): every run asks the same questions anew. */
export function timesRuns(counts: DryRunCounts, runs: number): DryRunCounts {
  const times = (r: Range): Range => ({ atLeast: r.atLeast * runs, atMost: r.atMost * runs });
  return { ...counts, semantic: times(counts.semantic), verify: times(counts.verify), cached: times(counts.cached) };
}
