/**
 * Which of the project's files a command argument plainly is (a spec, a
 * judge.yaml, a built judge, trajectories), from its name and first bytes:
 * `build BEHAVIOR.md` and `generate judge.yaml` then say in one line which
 * file goes where, instead of a YAML or frontmatter parse error.
 */
import { open, stat } from "node:fs/promises";
import { extname } from "node:path";
import { UserError } from "../errors.js";
import { printable } from "../report/printable.js";

export type FileKind = "spec" | "judge.yaml" | "judge.mjs" | "trajectories";

const DESCRIPTIONS: Record<FileKind, string> = {
  spec: "a spec (BEHAVIOR.md)",
  "judge.yaml": "a judge.yaml (the judge)",
  "judge.mjs": "a built judge (JavaScript)",
  trajectories: "trajectories (JSON)",
};

async function head(path: string): Promise<string> {
  const handle = await open(path, "r");
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    return buffer
      .subarray(0, bytesRead)
      .toString("utf8")
      .replace(/^\uFEFF/, "");
  } finally {
    await handle.close();
  }
}

/**
 * What `path` plainly is; undefined when it cannot tell (or it is not a
 * regular file): the command then reads it and reports what it finds.
 */
export async function fileKind(path: string): Promise<FileKind | undefined> {
  try {
    if (!(await stat(path)).isFile()) return undefined;
  } catch {
    return undefined;
  }
  const ext = extname(path).toLowerCase();
  if (ext === ".md" || ext === ".markdown") return "spec";
  if (ext === ".yaml" || ext === ".yml") return "judge.yaml";
  if (ext === ".mjs" || ext === ".js" || ext === ".cjs") return "judge.mjs";
  let text: string;
  try {
    text = await head(path);
  } catch {
    return undefined;
  }
  // JSON is YAML: a judge written as JSON is still a judge.
  if (ext === ".json" || ext === ".jsonl") return /"metaBehaviors"\s*:/.test(text) ? "judge.yaml" : "trajectories";
  // Frontmatter, then a Markdown heading: a spec whatever its name.
  if (/^---\r?\n[\s\S]*?\r?\n---\r?\n[\s\S]*?^#{1,6}\s/m.test(text)) return "spec";
  if (/^(version|behavior|metaBehaviors):/m.test(text)) return "judge.yaml";
  if (/^\s*[[{]/.test(text)) return "trajectories";
  return undefined;
}

/** `build X`: a one-line UserError when X is plainly not a judge.yaml. */
export async function checkBuildArgument(path: string): Promise<void> {
  const kind = await fileKind(path);
  if (kind === undefined || kind === "judge.yaml") return;
  const shown = printable(path);
  const where: Record<Exclude<FileKind, "judge.yaml">, string> = {
    spec: `draft one from this spec with \`behavior-judge generate ${shown}\`, then build that`,
    "judge.mjs": "this one is built already: pass it to judge, watch or calibrate",
    trajectories: "trajectories go to judge or calibrate, after the judge",
  };
  throw new UserError(`${shown} looks like ${DESCRIPTIONS[kind]}: build compiles a judge.yaml; ${where[kind]}`);
}

/** `generate X`: a one-line UserError when X is plainly not a spec. */
export async function checkSpecArgument(path: string): Promise<void> {
  const kind = await fileKind(path);
  if (kind === undefined || kind === "spec") return;
  const shown = printable(path);
  const where: Record<Exclude<FileKind, "spec">, string> = {
    "judge.yaml": `to compile this judge, run \`behavior-judge build ${shown}\``,
    "judge.mjs": "a built judge is passed to judge, watch or calibrate",
    trajectories: `trajectories go after the spec, as samples: generate BEHAVIOR.md ${shown}`,
  };
  throw new UserError(
    `${shown} looks like ${DESCRIPTIONS[kind]}: generate drafts a judge.yaml from a spec, given first (generate BEHAVIOR.md [samples...]); ${where[kind]}`,
  );
}
