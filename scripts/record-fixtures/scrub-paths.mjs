// Recorded spans and runs keep the stack traces of failing tools, and those
// name files by absolute path: the checkout the recording ran in. Fixtures
// must not depend on (or reveal) that machine, so every path under the
// repository is rewritten to one neutral root before a fixture is written.
// The stack's shape (frames, files, line numbers) is kept: it is what a real
// trace holds.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Where the repository appears to be in every recorded fixture. */
export const NEUTRAL_ROOT = "/home/dev/recorder";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * `text` (a fixture's JSON text) with the repository's absolute path replaced
 * by NEUTRAL_ROOT, in each spelling a stack frame uses: a file URL
 * (`file:///…`, percent-encoded) and a plain path (as JSON writes it).
 */
export function scrubPaths(text, repositoryRoot = root) {
  const url = pathToFileURL(repositoryRoot).href;
  const path = JSON.stringify(repositoryRoot).slice(1, -1);
  return text.replace(whole(url), pathToFileURL(NEUTRAL_ROOT).href).replace(whole(path), NEUTRAL_ROOT);
}

/** Every occurrence of `literal` that ends where a path segment ends (so /repo never rewrites /repo-2). */
function whole(literal) {
  return new RegExp(`${literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w.-])`, "g");
}
