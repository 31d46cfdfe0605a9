/**
 * behavior-judge/files: trajectory files read exactly as the CLI reads them
 * (`judge`, `calibrate`), for a test suite that judges a folder of recorded
 * sessions (the test `behavior-judge init` writes uses it):
 *
 *   import { readCaseFiles } from "behavior-judge/files";
 *   for (const c of await readCaseFiles("trajectories", { cwd: new URL(".", import.meta.url) }))
 *     test(c.where, async () => { if (c.error) throw new Error(`${c.where}: ${c.error}`); await assertBehavior(judge, c); });
 *
 * A folder stands for its .json and .jsonl files; a .json file holds one
 * trajectory, one labeled case, an array of either, or a trace of any format
 * the importers read; a .jsonl file holds one per line. A case that cannot be
 * read comes back with its `error`, located, and never hides the others.
 * Node only: it imports node:fs and node:path, and nothing of the compiler.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describeOrigin, type CaseOrigin, type Expected } from "../compiler/inputs/case.js";
import { readCases } from "../compiler/inputs/inputs.js";
import { resolveInputFiles } from "../compiler/files/input-files.js";
import { findFormat, formatNames } from "../importers/detect.js";

export interface ReadCaseFilesOptions {
  /** Where relative paths start (default: the current directory); a `file:` URL or a path. */
  cwd?: string | URL;
  /** "auto" (default): a trajectory is read as is, anything else is detected; "trajectory": read as is; else a format's name. */
  from?: string;
  /** Overrides the detected completeness of imported traces. */
  complete?: boolean;
  /** Keep the reasoning of imported traces as agent/reasoning events. */
  reasoning?: boolean;
  /** The id of every imported trajectory (`<id>-<n>` when one input holds several), instead of the native id or the file's name. */
  id?: string;
  /** Receives each importer warning and what a folder left out (subfolders), one line each (default: nothing is said). */
  onWarning?: (message: string) => void;
}

/** One case of the files: a trajectory (with its labels, if any), or the error that stopped it. */
export interface FileCase extends CaseOrigin {
  /** `file:line: case N` (`file: case N` without a line): the place, as the CLI names it; `file` is as given (relative to `cwd`). */
  where: string;
  /** The trajectory, imported if the file held a trace of another format; absent when `error` is set. */
  trajectory?: unknown;
  /** The labels of a `{trajectory, expected}` case. */
  expected?: Expected;
  /** Why the case could not be read (invalid JSON, an unknown trace format…). */
  error?: string;
}

function pathOf(value: string | URL, what: string): string {
  if (value instanceof URL) return fileURLToPath(value);
  if (typeof value !== "string" || value === "") throw new TypeError(`readCaseFiles: ${what} must be a path or a file: URL`);
  return value;
}

/**
 * Every case of `paths` (files and folders), in order, as `judge` would read
 * them. Throws (before reading any case) when a path is missing, a folder holds
 * no .json or .jsonl file, a file is plainly something else (a BEHAVIOR.md,
 * a judge.yaml), or `from` names no format.
 */
export async function readCaseFiles(
  paths: string | URL | readonly (string | URL)[],
  options: ReadCaseFilesOptions = {},
): Promise<FileCase[]> {
  const list = typeof paths === "string" || paths instanceof URL ? [paths] : paths;
  if (!Array.isArray(list) || list.length === 0)
    throw new TypeError("readCaseFiles: paths must be a path, a file: URL, or a non-empty list of them");
  const from = options.from ?? "auto";
  if (typeof from !== "string" || (from !== "auto" && from !== "trajectory" && findFormat(from) === undefined))
    throw new TypeError(
      `readCaseFiles: from ${JSON.stringify(from)} names no format: use auto, trajectory, or one of ${formatNames().join(", ")}`,
    );
  const cwd = options.cwd === undefined ? process.cwd() : pathOf(options.cwd, "cwd");
  const given = list.map((p: string | URL) => pathOf(p, "each path"));
  const absolute = given.map((p) => (p === "-" ? p : resolve(cwd, p)));
  // Paths are shown as given: relative ones stay relative to cwd, as the CLI shows the paths it was given.
  const relativeShown = given.every((p) => p === "-" || !isAbsolute(p));
  const shown = (file: string) => (file === "-" || !relativeShown ? file : relative(cwd, file));
  const prefix = cwd.endsWith(sep) ? cwd : `${cwd}${sep}`;
  const inText = (text: string) => (relativeShown ? text.split(prefix).join("") : text);
  const warn = options.onWarning === undefined ? () => {} : (message: string) => options.onWarning!(inText(message));
  let files: string[];
  try {
    files = await resolveInputFiles(absolute, "trajectories", warn, false);
  } catch (error) {
    if (error instanceof Error) error.message = inText(error.message);
    throw error;
  }
  const cases: FileCase[] = [];
  const read = {
    from,
    ...(options.complete !== undefined ? { complete: options.complete } : {}),
    ...(options.reasoning !== undefined ? { reasoning: options.reasoning } : {}),
    ...(options.id !== undefined ? { id: options.id } : {}),
    onWarning: warn,
  };
  for await (const input of readCases(files, read)) {
    const { labeled: _labeled, ...rest } = input;
    void _labeled;
    const origin = { ...rest, file: shown(input.file) };
    cases.push({ where: describeOrigin(origin), ...origin });
  }
  return cases;
}
