/**
 * `enqueue`: reads trajectory files as `judge` does and appends one stream
 * entry per trajectory, pipelined in batches. A case that cannot be read is
 * reported (located) and not enqueued; the others still are.
 *
 * Memory is bounded by bytes, as `judge`'s is: each case is turned into its
 * entry's fields as soon as it is read (its parsed trajectory is dropped
 * then), and a batch is sent once it holds BATCH_BYTES of them or
 * BATCH_ENTRIES entries, whichever comes first. One batch is in flight.
 */
import type { InputCase } from "../inputs/case.js";
import { checkedReplies, type RedisConnection } from "./redis.js";
import { trajectoryEntryFields } from "./records.js";

export interface EnqueueTotals {
  enqueued: number;
  unreadable: number;
}

/**
 * A megabyte per pipeline: small trajectories still go 500 to a round trip,
 * and megabyte ones one or two at a time (a count alone let 500 of them,
 * some 2 GB once parsed, wait for one write).
 */
const BATCH_BYTES = 1 << 20;
const BATCH_ENTRIES = 500;

/** The bytes an entry's fields take in the pipeline, near enough (UTF-16 code units: the trajectory text dominates). */
function fieldsSize(fields: readonly string[]): number {
  let size = 0;
  for (const field of fields) size += field.length;
  return size;
}

export async function enqueueCases(
  redis: RedisConnection,
  stream: string,
  cases: AsyncIterable<InputCase>,
  onUnreadable: (input: InputCase) => void,
): Promise<EnqueueTotals> {
  const totals: EnqueueTotals = { enqueued: 0, unreadable: 0 };
  let batch: string[][] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const entries = batch;
    batch = [];
    bytes = 0;
    await redis.run(`XADD ${stream}`, async (client) => {
      const pipeline = client.pipeline();
      for (const fields of entries) pipeline.xadd(stream, "*", ...fields);
      return checkedReplies(await pipeline.exec());
    });
    totals.enqueued += entries.length;
  };
  for await (const input of cases) {
    if (input.error !== undefined) {
      totals.unreadable++;
      onUnreadable(input);
      continue;
    }
    const fields = trajectoryEntryFields(input);
    batch.push(fields);
    bytes += fieldsSize(fields);
    if (bytes >= BATCH_BYTES || batch.length >= BATCH_ENTRIES) await flush();
  }
  await flush();
  return totals;
}
