/**
 * `enqueue`: reads trajectory files as `judge` does and appends one stream
 * entry per trajectory, pipelined in batches. A case that cannot be read is
 * reported (located) and not enqueued; the others still are.
 */
import type { InputCase } from "../judge/inputs.js";
import { checkedReplies, type RedisConnection } from "./redis.js";
import { trajectoryEntryFields } from "./records.js";

export interface EnqueueTotals {
  enqueued: number;
  unreadable: number;
}

const BATCH = 500;

export async function enqueueCases(
  redis: RedisConnection,
  stream: string,
  cases: AsyncIterable<InputCase>,
  onUnreadable: (input: InputCase) => void,
): Promise<EnqueueTotals> {
  const totals: EnqueueTotals = { enqueued: 0, unreadable: 0 };
  let batch: InputCase[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await redis.run(`XADD ${stream}`, async (client) => {
      const pipeline = client.pipeline();
      for (const input of batch) pipeline.xadd(stream, "*", ...trajectoryEntryFields(input));
      return checkedReplies(await pipeline.exec());
    });
    totals.enqueued += batch.length;
    batch = [];
  };
  for await (const input of cases) {
    if (input.error !== undefined) {
      totals.unreadable++;
      onUnreadable(input);
      continue;
    }
    batch.push(input);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return totals;
}
