/**
 * BEHAVIOR.md loading (docs/FORMATS.md §1): YAML frontmatter, then Markdown whose
 * H2 sections are the meta-behaviors. Every problem found comes back at once,
 * each with a stable code and the line it is about (the frontmatter key's own
 * line when there is one), and the rest of the Markdown is left alone.
 */
import { stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { isMap, isScalar, LineCounter, parseDocument, type Document } from "yaml";
import { SpecError, type Diagnostic } from "../diagnostics.js";
import { describeInvalidUtf8, readUtf8File } from "../files/utf8.js";

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

export type SpecParseResult = { ok: true; spec: BehaviorSpec } | { ok: false; diagnostics: Diagnostic[] };

/** Every code the loader can report, for tests and documentation. */
export const SPEC_DIAGNOSTIC_CODES = [
  "frontmatter-missing",
  "frontmatter-unclosed",
  "frontmatter-invalid",
  "name-missing",
  "name-invalid",
  "name-mismatch",
  "description-missing",
  "description-invalid",
  "description-too-long",
  "license-invalid",
  "metadata-invalid",
  "heading-empty",
  "duplicate-heading",
  "encoding-invalid",
] as const;

export type SpecDiagnosticCode = (typeof SPEC_DIAGNOSTIC_CODES)[number];

const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

function diagnostic(file: string, line: number, code: SpecDiagnosticCode, message: string, path = "", hint?: string, col = 1): Diagnostic {
  return { file, line, col, path, code, severity: "error", message, ...(hint !== undefined ? { hint } : {}) };
}

/** The `<name>` of `.agents/behaviors/<name>/BEHAVIOR.md`, when the file sits there. */
export function conventionalFolderName(file: string): string | undefined {
  // Absolute first: `lint .` run inside the folder names no folder at all.
  const folder = dirname(resolve(file));
  const behaviors = dirname(folder);
  return basename(behaviors) === "behaviors" && basename(dirname(behaviors)) === ".agents" ? basename(folder) : undefined;
}

interface Frontmatter {
  data: Record<string, unknown>;
  /** 1-based file line of each top-level key; a missing key is reported on the opening `---`. */
  keyLine: (key: string) => number;
  /** 0-based index of the first line after the closing `---`. */
  bodyStart: number;
}

/** The frontmatter starts on file line 2, so a line of the YAML text is one less than the file's. */
const FRONTMATTER_FIRST_LINE = 2;

function keyLines(doc: Document, counter: LineCounter): Map<string, number> {
  const lines = new Map<string, number>();
  if (!isMap(doc.contents)) return lines;
  for (const pair of doc.contents.items) {
    if (isScalar(pair.key) && pair.key.range !== undefined && pair.key.range !== null) {
      lines.set(String(pair.key.value), counter.linePos(pair.key.range[0]).line + FRONTMATTER_FIRST_LINE - 1);
    }
  }
  return lines;
}

function readFrontmatter(lines: string[], file: string, problems: Diagnostic[]): Frontmatter | undefined {
  if (lines[0]?.replace(/^\uFEFF/, "").trimEnd() !== "---") {
    problems.push(
      diagnostic(
        file,
        1,
        "frontmatter-missing",
        "a BEHAVIOR.md starts with YAML frontmatter between --- lines",
        "",
        "add name and description between --- lines at the top",
      ),
    );
    return undefined;
  }
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === "---");
  if (close < 0) {
    problems.push(diagnostic(file, 1, "frontmatter-unclosed", "the frontmatter opened on this line has no closing --- line"));
    return undefined;
  }
  const counter = new LineCounter();
  const doc = parseDocument(lines.slice(1, close).join("\n"), { lineCounter: counter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    const where = counter.linePos(error.pos[0]);
    const message = (error.message.split("\n")[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, "");
    problems.push(
      diagnostic(
        file,
        where.line + FRONTMATTER_FIRST_LINE - 1,
        "frontmatter-invalid",
        `the frontmatter is not valid YAML: ${message}`,
        "",
        undefined,
        where.col,
      ),
    );
    return undefined;
  }
  const data: unknown = doc.toJS();
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    problems.push(
      diagnostic(
        file,
        FRONTMATTER_FIRST_LINE,
        "frontmatter-invalid",
        "the frontmatter must be a YAML mapping of fields (name, description, ...)",
      ),
    );
    return undefined;
  }
  const found = keyLines(doc, counter);
  return { data: data as Record<string, unknown>, keyLine: (key) => found.get(key) ?? 1, bodyStart: close + 1 };
}

function checkName(front: Frontmatter, file: string, problems: Diagnostic[]): void {
  const name = front.data.name;
  const line = front.keyLine("name");
  if (name === undefined || name === null || name === "") {
    problems.push(diagnostic(file, line, "name-missing", "name is required", "name", "e.g. name: refund-support"));
  } else if (typeof name !== "string" || name.length > MAX_NAME || !NAME_PATTERN.test(name)) {
    const shown = typeof name === "string" ? JSON.stringify(name) : String(name);
    problems.push(
      diagnostic(
        file,
        line,
        "name-invalid",
        `name ${shown} must be at most ${MAX_NAME} characters of lowercase letters and digits, in words joined by single hyphens`,
        "name",
        suggestName(String(name)),
      ),
    );
  } else {
    const folder = conventionalFolderName(file);
    if (folder !== undefined && folder !== name) {
      problems.push(
        diagnostic(
          file,
          line,
          "name-mismatch",
          `name ${JSON.stringify(name)} must equal the folder name ${JSON.stringify(folder)}`,
          "name",
          `rename the folder or set name: ${folder}`,
        ),
      );
    }
  }
}

/** `Tax Research` → `did you mean "tax-research"?` when the fix is mechanical. */
function suggestName(name: string): string | undefined {
  const fixed = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_NAME)
    .replace(/-+$/, "");
  return fixed !== "" && fixed !== name && NAME_PATTERN.test(fixed) ? `did you mean ${JSON.stringify(fixed)}?` : undefined;
}

/** Characters as a person counts them (code points): an emoji is one, not two UTF-16 units. */
function characters(text: string): number {
  return [...text].length;
}

function checkDescription(front: Frontmatter, file: string, problems: Diagnostic[]): void {
  const description = front.data.description;
  const line = front.keyLine("description");
  if (description === undefined || description === null || (typeof description === "string" && description.trim() === "")) {
    problems.push(
      diagnostic(
        file,
        line,
        "description-missing",
        "description is required and must not be empty",
        "description",
        "one or two sentences saying what the behavior covers",
      ),
    );
  } else if (typeof description !== "string") {
    problems.push(diagnostic(file, line, "description-invalid", "description must be text", "description"));
  } else if (characters(description) > MAX_DESCRIPTION) {
    problems.push(
      diagnostic(
        file,
        line,
        "description-too-long",
        `description has ${characters(description)} characters; at most ${MAX_DESCRIPTION} are allowed`,
        "description",
      ),
    );
  }
}

function checkOptionalFields(front: Frontmatter, file: string, problems: Diagnostic[]): void {
  const { license, metadata } = front.data;
  if (license !== undefined && license !== null && typeof license !== "string") {
    problems.push(diagnostic(file, front.keyLine("license"), "license-invalid", "license must be text, e.g. Apache-2.0", "license"));
  }
  if (metadata === undefined || metadata === null) return;
  const isStringMap =
    typeof metadata === "object" && !Array.isArray(metadata) && Object.values(metadata).every((v) => typeof v === "string");
  if (!isStringMap) {
    problems.push(
      diagnostic(
        file,
        front.keyLine("metadata"),
        "metadata-invalid",
        "metadata must be a map of text values",
        "metadata",
        'quote numbers and booleans, e.g. version: "1.0"',
      ),
    );
  }
}

const H2 = /^ {0,3}##(?:[ \t]+(.*))?$/;
/** An optional closing run of #s (`## Title ##`; `## #` has no text), preceded by a space or nothing. */
const CLOSING_HASHES = /(?:^|[ \t]+)#+[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HTML_COMMENT_OPEN = /^ {0,3}<!--/;

/**
 * For each line, whether it belongs to a fenced code block or an HTML comment
 * (delimiters included), where a `## ` line is text and not a heading. As in
 * CommonMark: a backtick fence's info string holds no backtick (so a line of
 * inline code opens nothing); a fence closes only at a bare run of its own
 * character at least as long (so ```js inside a fence does not close it), or
 * at the end of the file; a comment runs to the line that holds `-->`.
 */
export function literalLines(lines: readonly string[]): boolean[] {
  const literal: boolean[] = [];
  let fence: string | undefined;
  let comment = false;
  for (const line of lines) {
    if (fence !== undefined) {
      literal.push(true);
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (close !== null && close[1]![0] === fence[0] && close[1]!.length >= fence.length) fence = undefined;
      continue;
    }
    if (comment) {
      literal.push(true);
      if (line.includes("-->")) comment = false;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open !== null && !(open[1]![0] === "`" && open[2]!.includes("`"))) {
      fence = open[1]!;
      literal.push(true);
      continue;
    }
    if (HTML_COMMENT_OPEN.test(line)) {
      // As in CommonMark, the opening line itself may close it (`<!-- x -->`, even `<!-->`).
      comment = !line.includes("-->");
      literal.push(true);
      continue;
    }
    literal.push(false);
  }
  return literal;
}

const SETEXT_H2_UNDERLINE = /^ {0,3}-+[ \t]*$/;
/** ATX headings and thematic breaks: blocks of one line. */
const ONE_LINE_BLOCK = /^ {0,3}(?:#{1,6}(?:[ \t]|$)|(?:[-*_][ \t]*){3,}$)/;
/** Lines that open a block other than a paragraph (list item, quote, table, HTML, indented code): lines that follow belong to it. */
const OTHER_BLOCK = /^(?: {0,3}(?:[>|<]|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))| {4}|\t)/;

/**
 * 1-based first lines of setext H2 headings (`Title` over `-----`): Markdown
 * shows an H2 there, but only `## ` headings are meta-behaviors (docs/FORMATS.md
 * §1), so lint warns. Conservative: only an underline right below a plain
 * paragraph counts, never one below a list item, a quote or a table.
 */
export function setextHeadingLines(text: string): number[] {
  const lines = text.split(/\r\n|\r|\n/);
  let start = 0;
  if (lines[0]?.replace(/^\uFEFF/, "").trimEnd() === "---") {
    const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === "---");
    start = close < 0 ? lines.length : close + 1;
  }
  const body = lines.slice(start);
  const literal = literalLines(body);
  const found: number[] = [];
  let block: "none" | "paragraph" | "other" = "none";
  let paragraphStart = 0;
  body.forEach((line, i) => {
    if (literal[i] === true || line.trim() === "") block = "none";
    else if (block === "paragraph" && SETEXT_H2_UNDERLINE.test(line)) {
      found.push(start + paragraphStart + 1);
      block = "none";
    } else if (ONE_LINE_BLOCK.test(line)) block = "none";
    else if (block === "none" && OTHER_BLOCK.test(line)) block = "other";
    else if (block === "paragraph" && OTHER_BLOCK.test(line) && !/^ {4}|^\t/.test(line)) block = "other";
    else if (block === "none") {
      block = "paragraph";
      paragraphStart = i;
    }
  });
  return found;
}

function trimBlankLines(lines: string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === "") start++;
  while (end > start && lines[end - 1]!.trim() === "") end--;
  return lines.slice(start, end).join("\n");
}

/** Splits the body at H2 headings, skipping fenced code blocks and HTML comments. */
function readSections(lines: string[], bodyStart: number, file: string, problems: Diagnostic[]) {
  const sections: { heading: string; line: number; lines: string[] }[] = [];
  const preamble: string[] = [];
  const seen = new Map<string, number>();
  const literal = literalLines(lines.slice(bodyStart));
  for (let i = bodyStart; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = literal[i - bodyStart] === true ? null : H2.exec(line);
    if (heading === null) {
      (sections.at(-1)?.lines ?? preamble).push(line);
      continue;
    }
    const text = (heading[1] ?? "").replace(CLOSING_HASHES, "").trim();
    if (text === "") problems.push(diagnostic(file, i + 1, "heading-empty", "an H2 heading needs text: it names a meta-behavior"));
    else {
      const first = seen.get(text);
      if (first !== undefined) {
        problems.push(
          diagnostic(
            file,
            i + 1,
            "duplicate-heading",
            `the heading ${JSON.stringify(text)} already appears on line ${first}`,
            "",
            "each H2 names one meta-behavior; merge the sections or rename one",
          ),
        );
      } else seen.set(text, i + 1);
    }
    sections.push({ heading: text, line: i + 1, lines: [] });
  }
  return {
    preamble: trimBlankLines(preamble),
    sections: sections.map((s) => ({ heading: s.heading, line: s.line, body: trimBlankLines(s.lines) })),
  };
}

/** Parses BEHAVIOR.md text; `file` locates diagnostics and the folder-name rule. */
export function parseBehaviorMd(text: string, file = "BEHAVIOR.md"): SpecParseResult {
  // CRLF, LF and a lone CR all end a line in Markdown.
  const lines = text.split(/\r\n|\r|\n/);
  const problems: Diagnostic[] = [];
  const frontmatter = readFrontmatter(lines, file, problems);
  if (frontmatter === undefined) return { ok: false, diagnostics: problems };
  checkName(frontmatter, file, problems);
  checkDescription(frontmatter, file, problems);
  checkOptionalFields(frontmatter, file, problems);
  const { preamble, sections } = readSections(lines, frontmatter.bodyStart, file, problems);
  if (problems.length > 0) return { ok: false, diagnostics: problems.sort((a, b) => a.line - b.line || a.col - b.col) };
  const { name, description, license, metadata } = frontmatter.data;
  return {
    ok: true,
    spec: {
      file,
      name: name as string,
      description: description as string,
      ...(typeof license === "string" ? { license } : {}),
      ...(metadata !== undefined && metadata !== null ? { metadata: metadata as Record<string, string> } : {}),
      preamble,
      sections,
    },
  };
}

/** The BEHAVIOR.md a command was given: the file itself, or the folder that holds it. */
export async function resolveSpecPath(path: string): Promise<string> {
  return (await stat(path)).isDirectory() ? join(path, "BEHAVIOR.md") : path;
}

/** Reads and parses a spec (file or folder); throws SpecError with every diagnostic. */
export async function loadBehaviorSpec(path: string): Promise<BehaviorSpec> {
  const parsed = await readBehaviorSpec(path);
  if (!parsed.ok) throw new SpecError(parsed.diagnostics);
  return parsed.spec;
}

/**
 * Reads a spec (file or folder) and returns diagnostics instead of throwing on
 * a bad spec. The file is decoded strictly: invalid UTF-8 is reported where it
 * is, not read as U+FFFD (a heading that labels refer to would silently change).
 */
export async function readBehaviorSpec(path: string): Promise<SpecParseResult> {
  const file = await resolveSpecPath(path);
  const decoded = await readUtf8File(file);
  if (!decoded.ok) {
    const { invalid } = decoded;
    return {
      ok: false,
      diagnostics: [
        diagnostic(file, invalid.line, "encoding-invalid", describeInvalidUtf8(invalid), "", "save the file as UTF-8", invalid.col),
      ],
    };
  }
  return parseBehaviorMd(decoded.text, file);
}
