/**
 * A Redis Streams worker: reads trajectory entries with a consumer group,
 * judges them, writes each result to the results stream and acknowledges an
 * entry only after its result was written. Entries that another consumer has
 * held longer than `claimAfterMs` (a worker that died) are claimed first.
 *
 * The order of a batch is: XREADGROUP (or XAUTOCLAIM) → judge → XADD every
 * result (checked) → XACK. A worker killed anywhere in between leaves its
 * entries pending, so they are judged again by whoever claims them; a result
 * written twice carries the same key and `collect` keeps one.
 *
 * An entry that kills the worker judging it (out of memory, a judge that
 * exits) must not take others with it, nor come back forever. So claimed
 * entries (a dead or stalled worker's) are claimed and judged one at a time:
 * the neighbours of the entry that killed their batch are judged on their
 * own. And an entry delivered more than `maxDeliveries` times (Redis counts
 * deliveries per pending entry) is not judged again: it is written as a case
 * error and acknowledged.
 */
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { failureLine, judgeCases, type CaseResult, type RunOptions } from "../run/judge-cases.js";
import type { JudgeModule } from "../run/load.js";
import { jsonElement } from "../report/json.js";
import { checkedReplies, fieldsOf, type RedisConnection, type StreamEntry } from "./redis.js";
import { inputCaseOfEntry, judgesKey, resultJudge, resultKey, type ResultJudge } from "./records.js";

export interface WorkerOptions {
  stream: string;
  group: string;
  results: string;
  /** Claim entries another consumer has held (unacknowledged) this long. */
  claimAfterMs: number;
  /** Stop once the group has nothing new and nothing pending; otherwise wait for work forever. */
  untilEmpty: boolean;
  /** Entries read per call. */
  batch: number;
  /** An entry delivered more often than this without being acknowledged is written as a case error, not judged again. */
  maxDeliveries: number;
  /** How long one read waits for new entries. */
  blockMs: number;
  consumer?: string;
  /** How cases are judged: the judge's options, the sample, and the cases (so model calls) in flight; the judge itself is synchronous. */
  run: RunOptions;
  onCaseError?: (message: string) => void;
}

export interface WorkerTotals {
  consumer: string;
  /** Results written and acknowledged. */
  acknowledged: number;
  /** Of those, entries claimed from another consumer. */
  claimed: number;
  caseErrors: number;
}

/** The group starts at the stream's first entry, so entries enqueued before any worker ran are read too. */
async function ensureGroup(redis: RedisConnection, stream: string, group: string): Promise<void> {
  await redis.run(`XGROUP CREATE ${stream} ${group}`, async (client) => {
    try {
      await client.xgroup("CREATE", stream, group, "0", "MKSTREAM");
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith("BUSYGROUP"))) throw error;
    }
  });
}

function resultFields(result: CaseResult, key: string, judge: ResultJudge, source: string): string[] {
  const { input } = result;
  const fields = ["key", key, "judge", judge.sha, "behavior", judge.behavior, "judgeYamlSha256", judge.judgeYamlSha256];
  fields.push("judgeVersion", judge.version, "source", source, "file", input.file, "case", String(input.index));
  if (input.line !== undefined) fields.push("line", String(input.line));
  // The same element `judge --json` gives for the case.
  fields.push(result.kind === "judged" ? "judgment" : "caseError", JSON.stringify(jsonElement(result)));
  return fields;
}

/** How often the group has delivered a pending entry (XPENDING's extended form; XAUTOCLAIM does not say). */
async function deliveries(redis: RedisConnection, stream: string, group: string, id: string): Promise<number> {
  const pending = (await redis.run(`XPENDING ${stream} ${group}`, (client) => client.xpending(stream, group, id, id, 1))) as [
    string,
    string,
    number,
    number,
  ][];
  return Number(pending[0]?.[3] ?? 1);
}

/** The case error of an entry over the delivery limit: what happened, and that it is not judged again. */
function overDeliveredResult(entry: ReturnType<typeof inputCaseOfEntry>, id: string, delivered: number, max: number): CaseResult {
  const message = `stream entry ${id} was delivered ${delivered} times and no worker acknowledged it (each died or was stopped while judging it); over --max-deliveries ${max}, it is not judged again`;
  return { kind: "failed", input: { ...entry.input, error: message }, message };
}

export async function runWorker(judge: JudgeModule, redis: RedisConnection, options: WorkerOptions): Promise<WorkerTotals> {
  const consumer = options.consumer ?? `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
  const totals: WorkerTotals = { consumer, acknowledged: 0, claimed: 0, caseErrors: 0 };
  const identity = resultJudge(judge);
  const { sha } = identity;
  const { stream, group } = options;
  await ensureGroup(redis, stream, group);
  // Registered before any result is written: collect reads the registry to tell judges apart before it writes a line.
  await redis.run(`HSET ${judgesKey(options.results)}`, (client) => client.hset(judgesKey(options.results), sha, JSON.stringify(identity)));
  let claimCursor = "0-0";

  /** Judges entries (or takes the results given), writes every result, then acknowledges them. */
  const handle = async (
    entries: StreamEntry[],
    claimed: boolean,
    given?: (entry: ReturnType<typeof inputCaseOfEntry>, id: string) => CaseResult,
  ): Promise<void> => {
    const decoded = entries.map(([id, fields]) => ({ id, ...inputCaseOfEntry(id, fieldsOf(fields)) }));
    const results: CaseResult[] = [];
    async function* inputs() {
      for (const d of decoded) yield d.input;
    }
    if (given !== undefined) for (const d of decoded) results.push(given(d, d.id));
    else for await (const result of judgeCases(judge, inputs(), options.run)) results.push(result);
    // Every write is checked before anything is acknowledged: an entry is acknowledged only once its result is stored.
    await redis.run(`XADD ${options.results}`, async (client) => {
      const pipeline = client.pipeline();
      results.forEach((result, i) =>
        pipeline.xadd(options.results, "*", ...resultFields(result, resultKey(sha, decoded[i]!.text), identity, decoded[i]!.id)),
      );
      return checkedReplies(await pipeline.exec());
    });
    await redis.run(`XACK ${stream} ${group}`, (client) => client.xack(stream, group, ...decoded.map((d) => d.id)));
    for (const result of results) {
      if (result.kind === "judged") continue;
      totals.caseErrors++;
      options.onCaseError?.(failureLine(result));
    }
    totals.acknowledged += entries.length;
    if (claimed) totals.claimed += entries.length;
  };

  for (;;) {
    // XAUTOCLAIM walks the pending list with a cursor; "0-0" back means it went round once.
    // One at a time: a claimed entry may be the one that killed its batch's worker, and must not take a neighbour with it again.
    const [next, claimedEntries] = (await redis.run(`XAUTOCLAIM ${stream} ${group}`, (client) =>
      client.xautoclaim(stream, group, consumer, options.claimAfterMs, claimCursor, "COUNT", 1),
    )) as [string, StreamEntry[], ...unknown[]];
    claimCursor = next;
    const live = claimedEntries.filter(([, fields]) => fields !== null);
    if (live.length > 0) {
      const delivered = await deliveries(redis, stream, group, live[0]![0]);
      if (delivered > options.maxDeliveries) {
        await handle(live, true, (entry, id) => overDeliveredResult(entry, id, delivered, options.maxDeliveries));
      } else await handle(live, true);
      continue;
    }
    const read = (await redis.run(`XREADGROUP ${stream} ${group}`, (client) =>
      client.xreadgroup("GROUP", group, consumer, "COUNT", options.batch, "BLOCK", options.blockMs, "STREAMS", stream, ">"),
    )) as [string, StreamEntry[]][] | null;
    const entries = read?.[0]?.[1] ?? [];
    if (entries.length > 0) {
      await handle(entries, false);
      continue;
    }
    if (!options.untilEmpty) continue;
    // Nothing new. Done only when nobody holds an entry either: a dead worker's entries wait to be claimed.
    const pending = (await redis.run(`XPENDING ${stream} ${group}`, (client) => client.xpending(stream, group))) as [number, ...unknown[]];
    if (Number(pending[0]) === 0) break;
  }
  // The consumer is kept: XINFO CONSUMERS shows what each worker did, and deleting it could drop entries it still held.
  return totals;
}
