/**
 * `collect`: reads the results stream from its start and writes one JSON line
 * per key (judge × trajectory), in the order results arrived. Duplicates come
 * from redelivery (a worker died after writing, before acknowledging) or from
 * enqueuing the same trajectory twice: the first is kept, the rest counted.
 * Memory: one key (64 hex characters) per distinct result.
 *
 * One judge's results at a time: two builds of one behavior (an edited
 * judge.yaml) write judgments that nothing in a line tells apart. The
 * registry beside the stream (records.judgesKey) lists every judge that
 * wrote to it, so a mix is refused before a line is written, and `--judge`
 * picks one (the others are counted and named).
 */
import { UserError } from "../errors.js";
import { plural } from "../report/plural.js";
import { fieldsOf, type RedisConnection, type StreamEntry } from "./redis.js";
import { describeJudge, judgesKey, type ResultJudge } from "./records.js";

export interface CollectTotals {
  written: number;
  duplicates: number;
  caseErrors: number;
  /** Results of other judges than the one collected, by judge sha. */
  leftOut: Map<string, { judge: ResultJudge | undefined; results: number }>;
}

export interface CollectOptions {
  /** Collect only this judge's results: a prefix of its judge.yaml sha256 (or of its judge sha). */
  judge?: string;
}

/** The results of more than one judge, or a --judge that picks none or several. */
export class MixedJudgesError extends UserError {
  override name = "MixedJudgesError";
}

const PAGE = 1000;

/** Every judge registered for `results`, in registration order as far as Redis keeps it. */
async function registeredJudges(redis: RedisConnection, results: string): Promise<ResultJudge[]> {
  const raw = await redis.run(`HGETALL ${judgesKey(results)}`, (client) => client.hgetall(judgesKey(results)));
  const judges: ResultJudge[] = [];
  for (const [sha, text] of Object.entries(raw)) {
    try {
      judges.push({ ...(JSON.parse(text) as ResultJudge), sha });
    } catch {
      judges.push({ sha, behavior: "?", judgeYamlSha256: "?", version: "?" });
    }
  }
  return judges;
}

function listing(judges: readonly ResultJudge[]): string {
  return judges.map((j) => `\n  ${describeJudge(j)}`).join("");
}

/** The judge to collect: the one --judge names, the only one registered, or none known yet (undefined: the first seen). */
function chosenJudge(results: string, judges: readonly ResultJudge[], prefix: string | undefined): ResultJudge | undefined {
  if (prefix !== undefined) {
    const wanted = prefix.toLowerCase();
    const matches = judges.filter((j) => j.judgeYamlSha256.startsWith(wanted) || j.sha.startsWith(wanted));
    if (matches.length === 1) return matches[0];
    if (matches.length === 0) throw new MixedJudgesError(`--judge ${prefix} matches no judge of ${results}; its judges:${listing(judges)}`);
    throw new MixedJudgesError(`--judge ${prefix} matches ${matches.length} judges of ${results}; give more of a sha:${listing(matches)}`);
  }
  if (judges.length > 1) {
    throw new MixedJudgesError(
      `${results} holds the results of ${judges.length} judges, which collect does not mix:${listing(judges)}\n` +
        `collect one with --judge SHA (a prefix of its judge.yaml sha256 will do), or give each judge its own --results stream`,
    );
  }
  return judges[0];
}

export async function collectResults(
  redis: RedisConnection,
  results: string,
  write: (line: string) => Promise<void> | void,
  options: CollectOptions = {},
): Promise<CollectTotals> {
  const totals: CollectTotals = { written: 0, duplicates: 0, caseErrors: 0, leftOut: new Map() };
  const judges = await registeredJudges(redis, results);
  let chosen = chosenJudge(results, judges, options.judge)?.sha;
  const seen = new Set<string>();
  let start = "-";
  for (;;) {
    const page = (await redis.run(`XRANGE ${results}`, (client) => client.xrange(results, start, "+", "COUNT", PAGE))) as StreamEntry[];
    for (const [id, raw] of page) {
      const fields = fieldsOf(raw);
      const judge = fields.get("judge");
      chosen ??= judge;
      if (judge !== chosen) {
        // A result the registry did not announce (written by a worker that did not register): a mix found late.
        if (options.judge === undefined)
          throw new MixedJudgesError(
            `${results} holds results of another judge than its first (entry ${id}: ${fields.get("behavior") ?? "?"}, judge.yaml sha256 ${fields.get("judgeYamlSha256") ?? "?"}); ${totals.written} ${plural(totals.written, "line")} of the first were written before it: collect again with --judge SHA`,
          );
        const other = totals.leftOut.get(judge ?? "") ?? { judge: judges.find((j) => j.sha === judge), results: 0 };
        other.results++;
        totals.leftOut.set(judge ?? "", other);
        continue;
      }
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
