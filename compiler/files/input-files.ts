/**
 * The trajectory arguments of judge, calibrate, import and generate, checked
 * before anything runs: a missing path is one line (not a run that judged
 * nothing), a directory stands for its .json, .jsonl and .traj files, and a file
 * that is plainly something else (a BEHAVIOR.md, a judge.yaml, a judge.mjs)
 * says what it is and which argument it belongs to.
 */
import { readdirSync, statSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { EXIT_USAGE, UserError } from "../errors.js";
import { plural } from "../report/plural.js";
import { printable } from "../report/printable.js";
import { subagentFiles } from "../inputs/claude-code-sessions.js";

/** What a folder stands for: JSON, JSONL, and SWE-agent's `.traj` (JSON under its own extension). */
const TRAJECTORY_FILE = /\.(jsonl?|traj)$/i;

/** What a misplaced file is, and (for the CLI) which argument it belongs to. */
interface MisplacedKind {
  kind: string;
  /** Which command argument takes it: a CLI hint, left out of the library's messages. */
  argument: string;
}

/**
 * What a non-JSON argument is, from its name and first bytes; undefined when
 * it may be JSON. A pipe's (`regular` false) first bytes are not looked at:
 * it cannot be read at an offset, and what is read is gone for the reader.
 */
async function misplacedKind(path: string, regular: boolean): Promise<MisplacedKind | undefined> {
  const ext = extname(path).toLowerCase();
  if (ext === ".yaml" || ext === ".yml")
    return { kind: "a judge.yaml (the judge)", argument: "pass it as the first argument of judge or calibrate, or to build" };
  if (ext === ".mjs" || ext === ".js" || ext === ".cjs" || ext === ".ts")
    return { kind: "a JavaScript module (a built judge?)", argument: "pass a judge.mjs as the first argument of judge or calibrate" };
  if (TRAJECTORY_FILE.test(path) || !regular) return undefined;
  // node:fs/promises loads here, for the rare argument that is looked at: a plain run need not load it (issue 26).
  const handle = await (await import("node:fs/promises")).open(path, "r");
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(256), 0, 256, 0);
    const head = buffer
      .subarray(0, bytesRead)
      .toString("utf8")
      .replace(/^\uFEFF/, "");
    if (ext === ".md" || ext === ".markdown" || /^---\r?\n/.test(head) || /^#\s/.test(head)) {
      return {
        kind: "a Markdown file (a BEHAVIOR.md spec?), not trajectories",
        argument: "a spec is the first argument of generate, lint and baseline",
      };
    }
  } finally {
    await handle.close();
  }
  return undefined;
}

/** What a directory argument holds: its trajectory files, and what was left out, with why. */
interface DirectoryListing {
  files: string[];
  subfolders: string[];
  unreadable: string[];
}

/**
 * The .json/.jsonl/.traj files directly inside `dir`, sorted by name. A symlink is
 * followed (stat, not lstat): one to a file is read like the file, one to a
 * folder counts as a subfolder, and one that cannot be followed (dangling, or
 * a loop: the kernel's ELOOP bounds the chain) is listed as unreadable.
 * Subfolders are not entered, so no folder loop is possible.
 */
function listDirectory(dir: string): DirectoryListing {
  const listing: DirectoryListing = { files: [], subfolders: [], unreadable: [] };
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    let isFile = entry.isFile();
    let isDirectory = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      try {
        const target = statSync(join(dir, entry.name));
        isFile = target.isFile();
        isDirectory = target.isDirectory();
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (TRAJECTORY_FILE.test(entry.name))
          listing.unreadable.push(
            `${entry.name} (${code === "ELOOP" ? "a symlink loop" : code === "ENOENT" ? "a broken symlink" : (code ?? String(error))})`,
          );
        continue;
      }
    }
    if (isDirectory) listing.subfolders.push(entry.name);
    else if (isFile && TRAJECTORY_FILE.test(entry.name)) listing.files.push(join(dir, entry.name));
    // A FIFO or socket named *.jsonl is not listed by its folder: pass it as an argument to read it.
  }
  withSubagents(listing);
  return listing;
}

/**
 * A Claude Code project folder: each `<session>.jsonl` is followed by its
 * sub-agents' transcripts (`<session>/subagents/agent-*.jsonl`), read with
 * it (judge/claude-code-sessions.ts); that subfolder is then not left out.
 */
function withSubagents(listing: DirectoryListing): void {
  if (listing.subfolders.length === 0) return;
  const files: string[] = [];
  for (const file of listing.files) {
    files.push(file);
    const agents = subagentFiles(file);
    if (agents.length === 0) continue;
    files.push(...agents);
    const folder = basename(file).replace(/\.jsonl$/i, "");
    listing.subfolders = listing.subfolders.filter((name) => name !== folder);
  }
  listing.files = files;
}

/** The one notice line for what a directory argument left out, if anything. */
function skippedNotice(dir: string, listing: DirectoryListing): string | undefined {
  const parts: string[] = [];
  const { subfolders, unreadable } = listing;
  if (subfolders.length > 0)
    parts.push(
      `${plural(subfolders.length, "subfolder")} ${subfolders.map(printable).join(", ")} (pass a subfolder as an argument to read it)`,
    );
  parts.push(...unreadable.map(printable));
  return parts.length === 0 ? undefined : `${printable(dir)}: not read: ${parts.join("; ")}`;
}

/**
 * The files to read, in order: each directory replaced by its .json/.jsonl/.traj
 * files (sorted by name; symlinks followed), and `-` (stdin) kept as it is.
 * What a directory leaves out (subfolders, symlinks that lead nowhere) is
 * told to `notice`, one line per directory. Throws a one-line UserError for
 * a missing path, a directory with no such file, a file that is not
 * trajectories, or `-` given twice (stdin can be read once).
 */
export async function resolveInputFiles(
  paths: readonly string[],
  what = "trajectories",
  notice: (message: string) => void = () => {},
  /** Whether messages say which command argument a misplaced file belongs to (the CLI's; the library leaves it out). */
  argumentHints = true,
): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (path === "-") {
      if (files.includes(path)) throw new UserError(`- (stdin) may be given only once; a file named - is ./-`, { exitCode: EXIT_USAGE });
      files.push(path);
      continue;
    }
    let isDirectory: boolean;
    let regular: boolean;
    try {
      const stats = statSync(path);
      isDirectory = stats.isDirectory();
      regular = stats.isFile();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UserError(`cannot read ${printable(path)}: ${code === "ENOENT" ? "no such file or directory" : (code ?? String(error))}`);
    }
    if (isDirectory) {
      const listing = listDirectory(path);
      const skipped = skippedNotice(path, listing);
      if (listing.files.length === 0)
        throw new UserError(
          `${printable(path)} is a directory with no .json, .jsonl or .traj files (${what} are read from those)${skipped === undefined ? "" : `; ${skipped}`}`,
        );
      if (skipped !== undefined) notice(skipped);
      files.push(...listing.files);
      continue;
    }
    const misplaced = await misplacedKind(path, regular);
    if (misplaced !== undefined) {
      const kind = argumentHints ? `${misplaced.kind}: ${misplaced.argument}` : misplaced.kind;
      throw new UserError(`${printable(path)} looks like ${kind}; ${what} are .json or .jsonl files (or agent traces)`);
    }
    files.push(path);
  }
  return files;
}
