/**
 * The Redis connection of the queue commands (`enqueue`, `worker`, `collect`).
 * The client (ioredis) is imported here and only here, lazily: judge.mjs, the
 * importers entry and every other command never load it.
 *
 * A lost connection fails the command at once with a RedisQueueError that
 * names the server, rather than waiting in an offline queue: a worker that
 * cannot write or acknowledge must stop, and whatever it had not acknowledged
 * stays pending in the consumer group for another worker to claim.
 */
import { requireInstalled } from "../optional.js";
import type { Redis } from "ioredis";
import { UserError } from "../errors.js";

/** Redis could not be reached, or went away mid-run. */
export class RedisQueueError extends UserError {
  override name = "RedisQueueError";
}

/** The URL as it may be printed: a password is never shown. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return url;
  }
}

export interface RedisConnection {
  client: Redis;
  /** For messages: the URL without its password. */
  where: string;
  /** Runs one Redis call; any failure becomes a RedisQueueError naming the server and `what`. */
  run<T>(what: string, call: (client: Redis) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function connectRedis(url: string): Promise<RedisConnection> {
  const where = redactRedisUrl(url);
  if (!/^rediss?:\/\//i.test(url)) throw new RedisQueueError(`--redis ${where}: expected a redis:// or rediss:// URL`);
  requireInstalled("ioredis");
  const { Redis } = await import("ioredis");
  let lastError: string | undefined;
  const client = new Redis(url, {
    lazyConnect: true,
    // A command fails as soon as the connection is lost: no offline queue, no resend.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    enableOfflineQueue: false,
    connectTimeout: 5000,
    retryStrategy: () => null,
  });
  // ioredis reports connection problems as 'error' events; without a listener they would crash the process.
  client.on("error", (error: unknown) => {
    lastError = messageOf(error);
  });
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new RedisQueueError(`cannot connect to Redis at ${where}: ${lastError ?? messageOf(error)}`);
  }
  return {
    client,
    where,
    async run(what, call) {
      try {
        return await call(client);
      } catch (error) {
        if (error instanceof UserError) throw error;
        const reason = lastError !== undefined && client.status !== "ready" ? `${messageOf(error)} (${lastError})` : messageOf(error);
        throw new RedisQueueError(`Redis at ${where} failed during ${what}: ${reason}`);
      }
    },
    async close() {
      if (client.status === "ready") await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}

/** A pipeline's replies, each checked: the first failed command (or a missing reply) throws, for `run` to name. */
export function checkedReplies(replies: [Error | null, unknown][] | null): unknown[] {
  if (replies === null) throw new Error("no reply");
  const failed = replies.find(([error]) => error !== null);
  if (failed !== undefined) throw failed[0];
  return replies.map(([, value]) => value);
}

/** Stream entries as ioredis returns them: [id, [field, value, field, value, …]]. */
export type StreamEntry = [id: string, fields: string[] | null];

export function fieldsOf(fields: readonly string[] | null): Map<string, string> {
  const map = new Map<string, string>();
  for (let i = 0; fields !== null && i + 1 < fields.length; i += 2) map.set(fields[i]!, fields[i + 1]!);
  return map;
}
