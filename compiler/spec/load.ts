/**
 * BEHAVIOR.md loading (FORMATS.md §1): YAML frontmatter, then Markdown whose
 * H2 sections are the meta-behaviors. A minimal loader: it finds every
 * problem it knows, each with a code and a line, and leaves the rest of the
 * Markdown alone.
 */
import { stat, readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { parseDocument } from "yaml";
import type { Diagnostic } from "../ir/diagnostics.js";

export interface SpecDiagnostic extends Diagnostic {
  /** A stable code, e.g. `frontmatter-missing`, `duplicate-heading`. */
  code: string;
}

/** One H2 section: a meta-behavior. */
export interface SpecSection {
  /** The exact heading text, which labels refer to. */
  heading: string;
  /** 1-based line of the heading in the file. */
  line: number;
  /** The section's Markdown up to the next H2, blank lines trimmed at both ends. */
  body: string;
}

export interface BehaviorSpec {
  file: string;
  name: string;
  description: string;
  license?: string;
  metadata?: Record<string, string>;
  /** Markdown between the frontmatter and the first H2. */
  preamble: string;
  sections: SpecSection[];
}

export type SpecParseResult = { ok: true; spec: BehaviorSpec } | { ok: false; diagnostics: SpecDiagnostic[] };

const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

/** A spec whose diagnostics the CLI prints before exiting 1. */
export class SpecError extends Error {
  override name = "SpecError";
  constructor(readonly diagnostics: SpecDiagnostic[]) {
    super(diagnostics.map(formatSpecDiagnostic).join("\n"));
  }
}

export function formatSpecDiagnostic(d: SpecDiagnostic): string {
  return `${d.file}:${d.line}:${d.col} error: ${d.code}: ${d.message}${d.hint === undefined ? "" : ` (${d.hint})`}`;
}

function diagnostic(file: string, line: number, code: string, message: string, path = "", hint?: string): SpecDiagnostic {
  return { file, line, col: 1, path, code, message, ...(hint !== undefined ? { hint } : {}) };
}

/** The `<name>` of `.agents/behaviors/<name>/BEHAVIOR.md`, when the file sits there. */
function conventionalFolderName(file: string): string | undefined {
  const folder = dirname(file);
  const behaviors = dirname(folder);
  return basename(behaviors) === "behaviors" && basename(dirname(behaviors)) === ".agents" ? basename(folder) : undefined;
}

interface Frontmatter {
  data: Record<string, unknown>;
  /** 0-based index of the first line after the closing `---`. */
  bodyStart: number;
}

function readFrontmatter(lines: string[], file: string, problems: SpecDiagnostic[]): Frontmatter | undefined {
  if (lines[0]?.replace(/^\uFEFF/, "").trimEnd() !== "---") {
    problems.push(diagnostic(file, 1, "frontmatter-missing", "a BEHAVIOR.md starts with YAML frontmatter between --- lines", "", "add name and description between --- lines"));
    return undefined;
  }
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === "---");
  if (close < 0) {
    problems.push(diagnostic(file, 1, "frontmatter-unclosed", "the frontmatter has no closing --- line"));
    return undefined;
  }
  const doc = parseDocument(lines.slice(1, close).join("\n"));
  if (doc.errors.length > 0) {
    problems.push(diagnostic(file, 2, "frontmatter-invalid", `the frontmatter is not valid YAML: ${doc.errors[0]!.message.split("\n")[0]}`));
    return undefined;
  }
  const data: unknown = doc.toJS();
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    problems.push(diagnostic(file, 2, "frontmatter-invalid", "the frontmatter must be a YAML mapping"));
    return undefined;
  }
  return { data: data as Record<string, unknown>, bodyStart: close + 1 };
}

function checkFields(data: Record<string, unknown>, file: string, problems: SpecDiagnostic[]): void {
  const name = data.name;
  if (typeof name !== "string" || name === "") problems.push(diagnostic(file, 1, "name-missing", "name is required", "name"));
  else if (name.length > MAX_NAME || !NAME_PATTERN.test(name)) {
    problems.push(diagnostic(file, 1, "name-invalid", `name ${JSON.stringify(name)} must be at most ${MAX_NAME} characters of lowercase letters, digits and single hyphens`, "name"));
  } else {
    const folder = conventionalFolderName(file);
    if (folder !== undefined && folder !== name) {
      problems.push(diagnostic(file, 1, "name-mismatch", `name ${JSON.stringify(name)} must equal the folder name ${JSON.stringify(folder)}`, "name"));
    }
  }
  const description = data.description;
  if (typeof description !== "string" || description.trim() === "") {
    problems.push(diagnostic(file, 1, "description-missing", "description is required and must not be empty", "description"));
  } else if (description.length > MAX_DESCRIPTION) {
    problems.push(diagnostic(file, 1, "description-too-long", `description has ${description.length} characters; at most ${MAX_DESCRIPTION} are allowed`, "description"));
  }
  const metadata = data.metadata;
  if (metadata !== undefined && (metadata === null || typeof metadata !== "object" || Array.isArray(metadata) || Object.values(metadata).some((v) => typeof v !== "string"))) {
    problems.push(diagnostic(file, 1, "metadata-invalid", "metadata must be a map of strings", "metadata"));
  }
}

const H2 = /^ {0,3}##(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

function trimBlankLines(lines: string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === "") start++;
  while (end > start && lines[end - 1]!.trim() === "") end--;
  return lines.slice(start, end).join("\n");
}

/** Splits the body at H2 headings, skipping fenced code blocks. */
function readSections(lines: string[], bodyStart: number, file: string, problems: SpecDiagnostic[]) {
  const sections: { heading: string; line: number; lines: string[] }[] = [];
  const preamble: string[] = [];
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (let i = bodyStart; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch !== null) {
      const marker = fenceMatch[1]!;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
    }
    const heading = fence === undefined ? H2.exec(line) : null;
    if (heading === null) {
      (sections.at(-1)?.lines ?? preamble).push(line);
      continue;
    }
    const text = (heading[1] ?? "").trim();
    if (text === "") problems.push(diagnostic(file, i + 1, "heading-empty", "an H2 heading needs text: it names a meta-behavior"));
    const first = seen.get(text);
    if (first !== undefined) problems.push(diagnostic(file, i + 1, "duplicate-heading", `the heading ${JSON.stringify(text)} already appears on line ${first}`));
    else seen.set(text, i + 1);
    sections.push({ heading: text, line: i + 1, lines: [] });
  }
  return { preamble: trimBlankLines(preamble), sections: sections.map((s) => ({ heading: s.heading, line: s.line, body: trimBlankLines(s.lines) })) };
}

/** Parses BEHAVIOR.md text; `file` locates diagnostics and the folder-name rule. */
export function parseBehaviorMd(text: string, file = "BEHAVIOR.md"): SpecParseResult {
  const lines = text.split(/\r?\n/);
  const problems: SpecDiagnostic[] = [];
  const frontmatter = readFrontmatter(lines, file, problems);
  if (frontmatter === undefined) return { ok: false, diagnostics: problems };
  checkFields(frontmatter.data, file, problems);
  const { preamble, sections } = readSections(lines, frontmatter.bodyStart, file, problems);
  if (problems.length > 0) return { ok: false, diagnostics: problems };
  const { name, description, license, metadata } = frontmatter.data;
  return {
    ok: true,
    spec: {
      file,
      name: name as string,
      description: description as string,
      ...(typeof license === "string" ? { license } : {}),
      ...(metadata !== undefined ? { metadata: metadata as Record<string, string> } : {}),
      preamble,
      sections,
    },
  };
}

/** The BEHAVIOR.md a command was given: the file itself, or the folder that holds it. */
export async function resolveSpecPath(path: string): Promise<string> {
  return (await stat(path)).isDirectory() ? join(path, "BEHAVIOR.md") : path;
}

/** Reads and parses a spec; throws SpecError with every diagnostic. */
export async function loadBehaviorSpec(path: string): Promise<BehaviorSpec> {
  const file = await resolveSpecPath(path);
  const parsed = parseBehaviorMd(await readFile(file, "utf8"), file);
  if (!parsed.ok) throw new SpecError(parsed.diagnostics);
  return parsed.spec;
}
