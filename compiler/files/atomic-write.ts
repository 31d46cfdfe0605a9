/**
 * Writes that a concurrent reader never sees half of: the text goes to a temp
 * file beside the target, which is then renamed over it (a rename within one
 * folder is atomic). The caches use it, since several runs may share them.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/** Creates the folders, writes `text` (UTF-8) to `path` atomically; on failure removes the temp file and throws. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  // pid and random bytes: two processes, or two writes in one, never share a temp file.
  const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(temp, text, "utf8");
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
}
