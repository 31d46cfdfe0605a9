/**
 * One full collection before JSON.parse builds a large value that the run
 * then holds while it judges (a `.json` array read whole), so that V8 does
 * not mark that value again and again while it is judged (issue 26,
 * docs/SPEED.md "Ninth round").
 *
 * Why it pays: until its first full collection, V8 lowers its first limit on
 * the old generation after every young collection by the share of young
 * objects that survived it. The CLI's start-up leaves mostly garbage (module
 * loading, commander), so by the time a 28 MB array is read the limit has
 * fallen from about 100 MB to about 40 MB: the text itself fills most of it,
 * incremental marking starts during JSON.parse, every store JSON.parse and
 * the judge make goes through the marking barrier, and the whole parsed
 * value is marked (13% of the run's instructions on bench/cli-floor.js's
 * array). A process that reads the file at once (the floor) never meets it.
 * Collected now, the heap is the start-up's few megabytes and the text (one
 * string, marked at once), and V8 sets its limit from what survives, about
 * four times that, room for the value the text becomes.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Text at least this long is worth a collection first: the start-up's heap and one string to
 * mark, against a value of 5 MB or more to mark later (on a 2.2 MB array the run ends with a
 * mark-compact of a 12.7 MB heap either way). json-file.ts tests the same number in bytes.
 */
export const LARGE_TEXT_CHARS = 1 << 22;

let collected = false;

/** Collects the whole heap once per process, when `text` is long enough to pay for it; never throws. */
export function collectBeforeLargeParse(text: string): void {
  if (collected || text.length < LARGE_TEXT_CHARS) return;
  collected = true;
  try {
    gcFunction()?.();
  } catch {
    // Only a matter of speed: the parse goes on as before.
  }
}

/** `gc`, as `node --expose-gc` gives it: the flag is set for one new context and cleared again, so nothing else sees it. */
function gcFunction(): (() => void) | undefined {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === "function") return own as () => void;
  setFlagsFromString("--expose-gc");
  try {
    const gc: unknown = runInNewContext("gc");
    return typeof gc === "function" ? (gc as () => void) : undefined;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
}
