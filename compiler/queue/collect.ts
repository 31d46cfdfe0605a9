/**
 * `collect`: reads the results stream from its start and writes one JSON line
 * per key (judge × trajectory), in the order results arrived. Duplicates come
 * from redelivery (a worker died after writing, before acknowledging) or from
 * enqueuing the same trajectory twice: the first is kept, the rest counted.
 * Memory: one key (64 hex characters) per distinct result.
 */
import { fieldsOf, type RedisConnection, type StreamEntry } from "./redis.js";

export interface CollectTotals {
  written: number;
  duplicates: number;
  caseErrors: number;
}

const PAGE = 1000;

export async function collectResults(
  redis: RedisConnection,
  results: string,
  write: (line: string) => Promise<void> | void,
): Promise<CollectTotals> {
  const totals: CollectTotals = { written: 0, duplicates: 0, caseErrors: 0 };
  const seen = new Set<string>();
  let start = "-";
  for (;;) {
    const page = (await redis.run(`XRANGE ${results}`, (client) => client.xrange(results, start, "+", "COUNT", PAGE))) as StreamEntry[];
    for (const [id, raw] of page) {
      const fields = fieldsOf(raw);
      const key = fields.get("key") ?? id;
      if (seen.has(key)) {
        totals.duplicates++;
        continue;
      }
      seen.add(key);
      const judgment = fields.get("judgment");
      const value = judgment ?? fields.get("caseError");
      if (value === undefined) continue;
      if (judgment === undefined) totals.caseErrors++;
      await write(`${value}\n`);
      totals.written++;
    }
    if (page.length < PAGE) break;
    start = `(${page[page.length - 1]![0]}`;
  }
  return totals;
}
