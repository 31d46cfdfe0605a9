/**
 * The trajectory arguments of judge, calibrate, import and generate, checked
 * before anything runs: a missing path is one line (not a run that judged
 * nothing), a directory stands for its .json and .jsonl files, and a file
 * that is plainly something else (a BEHAVIOR.md, a judge.yaml, a judge.mjs)
 * says what it is and which argument it belongs to.
 */
import { readdirSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { extname, join } from "node:path";
import { EXIT_USAGE, UserError } from "../errors.js";
import { printable } from "../report/printable.js";

const TRAJECTORY_FILE = /\.jsonl?$/i;

/** What a non-JSON argument is, from its name and first bytes; undefined when it may be JSON. */
async function misplacedKind(path: string): Promise<string | undefined> {
  const ext = extname(path).toLowerCase();
  if (ext === ".yaml" || ext === ".yml")
    return "a judge.yaml (the judge): pass it as the first argument of judge or calibrate, or to build";
  if (ext === ".mjs" || ext === ".js" || ext === ".cjs" || ext === ".ts")
    return "a JavaScript module (a built judge?): pass a judge.mjs as the first argument of judge or calibrate";
  if (TRAJECTORY_FILE.test(path)) return undefined;
  const handle = await open(path, "r");
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(256), 0, 256, 0);
    const head = buffer
      .subarray(0, bytesRead)
      .toString("utf8")
      .replace(/^\uFEFF/, "");
    if (ext === ".md" || ext === ".markdown" || /^---\r?\n/.test(head) || /^#\s/.test(head)) {
      return "a Markdown file (a BEHAVIOR.md spec?), not trajectories: a spec is the first argument of generate, lint and baseline";
    }
  } finally {
    await handle.close();
  }
  return undefined;
}

/**
 * The files to read, in order: each directory replaced by its .json/.jsonl
 * files (sorted by name), and `-` (stdin) kept as it is. Throws a one-line
 * UserError for a missing path, a directory with no such file, a file that
 * is not trajectories, or `-` given twice (stdin can be read once).
 */
export async function resolveInputFiles(paths: readonly string[], what = "trajectories"): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (path === "-") {
      if (files.includes(path)) throw new UserError(`- (stdin) may be given only once; a file named - is ./-`, { exitCode: EXIT_USAGE });
      files.push(path);
      continue;
    }
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UserError(`cannot read ${printable(path)}: ${code === "ENOENT" ? "no such file or directory" : (code ?? String(error))}`);
    }
    if (isDirectory) {
      const inside = readdirSync(path, { withFileTypes: true })
        .filter((e) => e.isFile() && TRAJECTORY_FILE.test(e.name))
        .map((e) => e.name)
        .sort();
      if (inside.length === 0)
        throw new UserError(`${printable(path)} is a directory with no .json or .jsonl files (${what} are read from those)`);
      files.push(...inside.map((name) => join(path, name)));
      continue;
    }
    const kind = await misplacedKind(path);
    if (kind !== undefined)
      throw new UserError(`${printable(path)} looks like ${kind}; ${what} are .json or .jsonl files (or agent traces)`);
    files.push(path);
  }
  return files;
}
