/**
 * The answer cache: a model's reply stored under (model, exact messages).
 * The prompts are deterministic, so re-judging the same trajectories with
 * the same judge makes no request and yields the same bytes. Entries are
 * written to a temporary file and renamed into place, so concurrent runs
 * never see half an entry. Only answers that validated are stored. The API
 * key is no part of the key or the entry.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { writeFileAtomic } from "../files/atomic-write.js";
import type { AdapterReply, AdapterUsage, ChatMessage, SemanticAdapter } from "../../runtime/semantic.js";

export interface AnswerCacheOptions {
  dir: string;
  model: string;
  /** Part of the key when set: a different temperature is a different question. */
  temperature?: number;
}

interface CacheEntry {
  model: string;
  /**
   * Written only for answers the judge accepted. Entries without it come
   * from versions that stored every reply, invalid ones included: a miss.
   */
  validated: true;
  text: string;
  usage?: AdapterUsage;
}

/** sha256 over a canonical serialization of what determines the answer. */
export function answerCacheKey(model: string, messages: readonly ChatMessage[], temperature?: number): string {
  const canonical = JSON.stringify({
    model,
    ...(temperature !== undefined ? { temperature } : {}),
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
  });
  return createHash("sha256").update(canonical, "utf8").digest("hex");
}

/** The project root (nearest folder with package.json or .git), else `cwd`. */
export function projectRoot(cwd: string): string {
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, "package.json")) || existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(cwd);
    dir = parent;
  }
}

/** `.cache/behavior-judge/answers` in the project that holds `cwd`. */
export function defaultCacheDir(cwd = process.cwd()): string {
  return join(projectRoot(cwd), ".cache", "behavior-judge", "answers");
}

function entryPath(dir: string, key: string): string {
  return join(dir, key.slice(0, 2), `${key}.json`);
}

async function readEntry(path: string, model: string): Promise<CacheEntry | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, "utf8"));
  } catch {
    return undefined; // missing or unreadable: a miss, never an error
  }
  const entry = parsed as Partial<CacheEntry> | null;
  if (entry === null || typeof entry !== "object" || entry.model !== model || entry.validated !== true || typeof entry.text !== "string")
    return undefined;
  return entry as CacheEntry;
}

async function writeEntry(path: string, entry: CacheEntry): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(entry)}\n`);
}

/**
 * The stored answer to `messages`, looked up under the same key the wrapped
 * adapter uses (pass `key` when it is already computed), or undefined on a
 * miss. Reads only: `--dry-run` counts with it and must neither ask nor
 * store anything.
 */
export async function readCachedAnswer(
  options: AnswerCacheOptions,
  messages: readonly ChatMessage[],
  key = answerCacheKey(options.model, messages, options.temperature),
): Promise<string | undefined> {
  return (await readEntry(entryPath(options.dir, key), options.model))?.text;
}

/**
 * Wraps an adapter with the cache. A hit comes back with `cached: true` so
 * the judge counts it as free. A fresh reply is stored only when the judge
 * accepts it (its `accept`, called once the text validated): a reply that
 * failed validation would otherwise replay as an error on every rerun. A
 * failed write only costs a future miss.
 */
export function withAnswerCache(adapter: SemanticAdapter, options: AnswerCacheOptions): SemanticAdapter {
  return async (messages) => {
    const path = entryPath(options.dir, answerCacheKey(options.model, messages, options.temperature));
    const hit = await readEntry(path, options.model);
    if (hit !== undefined) return { text: hit.text, cached: true };
    const reply = await adapter(messages);
    const fresh: AdapterReply = typeof reply === "string" ? { text: reply } : reply;
    const entry: CacheEntry = {
      model: options.model,
      validated: true,
      text: fresh.text,
      ...(fresh.usage !== undefined ? { usage: fresh.usage } : {}),
    };
    let stored: Promise<void> | undefined;
    const accept = () =>
      (stored ??= (async () => {
        await fresh.accept?.();
        await writeEntry(path, entry).catch(() => undefined);
      })());
    return { ...fresh, accept };
  };
}
