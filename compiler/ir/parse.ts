/**
 * judge.yaml text → validated IR, or every problem in the file as located
 * diagnostics.
 *
 * Three stages, each reporting everything it finds: YAML syntax (the `yaml`
 * parser), document shape the schema cannot see (duplicate keys, anchors,
 * aliases, tags, odd keys), then the zod schema. Zod issue paths are mapped
 * back onto the YAML node tree to get line:col.
 */
import {
  LineCounter,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  parseDocument,
  type Document,
  type Node as YamlNode,
  type Pair,
  type YAMLError,
} from "yaml";
import type { core } from "zod";
import { compareDiagnostics, formatDiagnostic, type Diagnostic } from "../diagnostics.js";
import { didYouMean } from "./did-you-mean.js";
import { LIMITS, PATTERN_KEYS, createJudgeSchema, formatCount, judgeIRSchema, type IssueParams } from "./schema.js";
import type { JudgeIR } from "./types.js";
import { keyText, nodeStart, pathKey, toPlainData, type At, type Path } from "./yaml-data.js";

/** 1-based lines of each meta-behavior item and each check item in the yaml. */
export interface IRPositions {
  metaBehaviors: { line: number; checks: number[]; semanticChecks: number[] }[];
}

export type ParseResult = { ok: true; ir: JudgeIR; positions: IRPositions } | { ok: false; diagnostics: Diagnostic[] };

export interface ParseOptions {
  /** Name used in diagnostics; default "judge.yaml". */
  file?: string;
  /** The sample vocabulary: when given, unknown actions / metadata keys are errors with suggestions. */
  vocabulary?: { actions?: string[]; metadataKeys?: string[] };
}

/**
 * Parses and checks judge.yaml (docs/FORMATS.md §3). Never throws on bad input:
 * every problem found comes back as a diagnostic, sorted by line and column.
 */
export function parseJudgeYaml(text: string, options: ParseOptions = {}): ParseResult {
  const file = options.file ?? "judge.yaml";
  try {
    return parseChecked(text, file, options);
  } catch (error) {
    // A crash here would hide the user's real problems behind a stack trace.
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, diagnostics: [{ file, line: 1, col: 1, path: "", severity: "error", message: `internal error: ${message}` }] };
  }
}

function parseChecked(text: string, file: string, options: ParseOptions): ParseResult {
  if (text.length > LIMITS.fileCharacters) return failed([fileTooLong(text, file)]);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: true });
  const at = (offset: number, path: Path, message: string, hint?: string): Diagnostic => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, col, path: formatPath(path), severity: "error", message, ...(hint === undefined ? {} : { hint }) };
  };

  if (doc.errors.length > 0) return failed(doc.errors.map((error) => syntaxDiagnostic(error, at)));
  if (doc.contents === null) {
    return failed([at(0, [], "the document is empty", "expected version, behavior and metaBehaviors")]);
  }

  const data = toPlainData(doc, text, at);
  // Past the alias budget the data is not the document that was written: every
  // mapping that lost a refused alias would add an issue of its own, and
  // validating them would cost what the budget is there to bound.
  if (data.aliasBudget < 0) return failed(data.diagnostics);
  const schema = options.vocabulary === undefined ? judgeIRSchema : createJudgeSchema(options.vocabulary);
  const result = schema.safeParse(data.value, { reportInput: true });
  if (result.success && data.diagnostics.length === 0) {
    return { ok: true, ir: result.data, positions: collectPositions(doc, lineCounter) };
  }
  const issues = result.success ? [] : result.error.issues;
  const located = issues
    .map((issue) => locateIssue(issue, doc.contents, text))
    .filter((issue) => !underRejectedPath(issue.docPath, data.rejectedPaths));
  const fromSchema = dropExplainedIssues(located).map((issue) =>
    at(issue.offset, issue.displayPath, messageWithContext(issue, doc.contents, lineCounter), issue.hint),
  );
  return failed([...data.diagnostics, ...fromSchema]);
}

/**
 * Parsing costs memory and time with the length of the text, so a file past the
 * limit is refused before it is parsed, at the line where it crosses the limit.
 */
function fileTooLong(text: string, file: string): Diagnostic {
  const offset = LIMITS.fileCharacters;
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < lineStart; i = text.indexOf("\n", i + 1)) line++;
  const message = `the file is ${formatCount(text.length)} characters long; at most ${formatCount(offset)} are accepted`;
  return { file, line, col: offset - lineStart + 1, path: "", severity: "error", message };
}

function failed(diagnostics: Diagnostic[]): ParseResult {
  const seen = new Set<string>();
  const unique = diagnostics.filter((d) => {
    const key = formatDiagnostic(d);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { ok: false, diagnostics: unique.sort(compareDiagnostics) };
}

/** The yaml library appends "at line X, column Y:" and a code frame; we show the location ourselves. */
function syntaxDiagnostic(error: YAMLError, at: At): Diagnostic {
  if (error.code === "MULTIPLE_DOCS") {
    return at(error.pos[0], [], "invalid YAML: judge.yaml holds a single document", 'remove the extra "---"');
  }
  const firstLine = error.message.split("\n")[0] ?? error.message;
  const message = firstLine.replace(/ at line \d+, column \d+:?$/, "");
  return at(error.pos[0], [], `invalid YAML: ${lowerFirst(message)}`);
}

function lowerFirst(message: string): string {
  // Keep acronyms ("YAML", "JSON") as they are.
  return /^[A-Z][a-z]/.test(message) ? message[0]!.toLowerCase() + message.slice(1) : message;
}

// ---------------------------------------------------------------------------
// zod issues → located issues

interface LocatedIssue {
  issue: core.$ZodIssue;
  params: IssueParams;
  /** The issue's path as it exists in the document (phantom single-matcher indexes removed). */
  docPath: Path;
  /** The path shown to the user: the docPath, or its parent mapping when the issue is about a key. */
  displayPath: Path;
  offset: number;
  hint: string | undefined;
}

function locateIssue(issue: core.$ZodIssue, root: unknown, text: string): LocatedIssue {
  const params: IssueParams = issue.code === "custom" ? ((issue.params ?? {}) as IssueParams) : {};
  const found = resolvePath(root, issue.path, params.atKey === true);
  const displayPath = params.atKey === true ? found.docPath.slice(0, -1) : found.docPath;
  return {
    issue,
    params,
    docPath: found.docPath,
    displayPath,
    offset: params.offsetInValue === undefined ? found.offset : offsetInScalar(found.node, found.offset, params.offsetInValue, text),
    hint: params.hint ?? inferHint(issue, found.node, text),
  };
}

/**
 * Where character `at` of a string value stands in the file: past the opening
 * quote of a quoted scalar; exact for plain and single-line quoted scalars
 * without escapes, the scalar's start otherwise (a folded or escaped string
 * does not map character for character).
 */
function offsetInScalar(node: YamlNode | undefined, start: number, at: number, text: string): number {
  if (!isScalar(node) || node.range == null || typeof node.value !== "string") return start;
  const [from, to] = node.range;
  const source = text.slice(from, to);
  const quoted = node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE";
  const body = quoted ? source.slice(1, -1) : source;
  return body === node.value ? from + (quoted ? 1 : 0) + at : start;
}

interface ResolvedPath {
  docPath: Path;
  offset: number;
  /** The node the issue is about, when it exists in the document. */
  node: YamlNode | undefined;
}

/**
 * Walks the issue path down the YAML tree. Stops at the deepest node that
 * exists: for a missing key that is the parent mapping. A numeric segment at
 * a mapping is the index the schema added when it wrapped a single matcher
 * into a list; it does not exist in the file, so it is skipped.
 */
function resolvePath(root: unknown, path: readonly PropertyKey[], atKey: boolean): ResolvedPath {
  const docPath: Path = [];
  let current: unknown = root;
  let offset = isNode(root) ? nodeStart(root) : 0;
  let exists = true;
  for (const [index, segment] of path.entries()) {
    if (typeof segment === "symbol") continue;
    if (!exists) {
      docPath.push(segment);
      continue;
    }
    if (typeof segment === "number") {
      if (isMap(current) || isPair(current)) continue;
      const item: unknown = isSeq(current) ? current.items[segment] : undefined;
      docPath.push(segment);
      // A bare pair in a flow sequence (`[action: a]`) stands for a one-entry mapping.
      const itemOffset = isNode(item) ? nodeStart(item) : isPair(item) && isNode(item.key) ? nodeStart(item.key) : -1;
      if (itemOffset < 0) {
        exists = false;
        continue;
      }
      current = item;
      offset = itemOffset;
      continue;
    }
    docPath.push(segment);
    const pairs = isMap(current) ? current.items : isPair(current) ? [current] : [];
    const pair = findPair(pairs, segment);
    if (pair === undefined) {
      exists = false;
      continue;
    }
    const isLast = index === path.length - 1;
    if ((isLast && atKey) || isEmptyValue(pair.value)) {
      offset = isNode(pair.key) ? nodeStart(pair.key) : offset;
      current = pair.value;
      if (isLast) break;
      continue;
    }
    current = pair.value;
    offset = isNode(pair.value) ? nodeStart(pair.value) : offset;
  }
  return { docPath, offset, node: exists && isNode(current) ? current : undefined };
}

function findPair(items: readonly unknown[], key: string): Pair | undefined {
  for (const item of items) {
    if (isPair(item) && keyText(item.key) === key) return item;
  }
  return undefined;
}

/** `key:` with nothing after it: point at the key, since the empty value has no visible position. */
function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  return isScalar(value) && value.value === null && value.range != null && value.range[0] === value.range[1];
}

/**
 * Hints that need the document: quoting advice uses the value's spelling
 * (`1.50`, not 1.5), and suggestions for enumerations come from the issue's
 * allowed values.
 */
function inferHint(issue: core.$ZodIssue, node: YamlNode | undefined, text: string): string | undefined {
  if (issue.code === "invalid_type" && issue.expected === "string" && isScalar(node)) {
    if (typeof node.value === "number" || typeof node.value === "boolean") {
      const spelling = node.range == null ? String(node.value) : text.slice(node.range[0], node.range[1]);
      return `quote it: ${JSON.stringify(spelling)}`;
    }
  }
  if (issue.code === "invalid_type" && (issue.expected === "int" || issue.expected === "number") && typeof issue.input === "string") {
    if (/^\s*\d+\s*$/.test(issue.input)) return `remove the quotes: ${issue.input.trim()}`;
  }
  const field = issue.path[issue.path.length - 1];
  if (issue.path.length === 1 && field === "metaBehaviors" && issue.input !== undefined) {
    // Said for null and for [] alike: an empty list is no more valid than none.
    if (issue.code === "invalid_type" || issue.code === "too_small") return "a judge needs at least one meta-behavior";
  }
  if (issue.code === "invalid_type" && issue.expected === "array" && isScalar(node)) {
    // Only where [] is valid: metaBehaviors and patterns must not be empty.
    if (node.value === null)
      return (EMPTY_LIST_FIELDS as readonly PropertyKey[]).includes(field ?? "") ? "write [] for an empty list" : undefined;
    // `match: deploy` is the usual slip: a bare action name where a matcher goes.
    if (typeof node.value === "string" && (PATTERN_KEYS as readonly PropertyKey[]).includes(field ?? "")) {
      return `for example {action: ${JSON.stringify(node.value)}}`;
    }
  }
  if (issue.code === "invalid_value" && typeof issue.input === "string") {
    return suggestionHint(issue.input, issue.values);
  }
  if (issue.code === "invalid_union" && issue.discriminator !== undefined && "options" in issue) {
    const input = issue.input;
    const value = typeof input === "object" && input !== null ? (input as Record<string, unknown>)[issue.discriminator] : undefined;
    if (typeof value === "string") return suggestionHint(value, issue.options ?? []);
  }
  return undefined;
}

/** The list fields that may be empty (they default to []): only for these is `[]` a fix. */
const EMPTY_LIST_FIELDS = ["checks", "semanticChecks"] as const;

function suggestionHint(input: string, allowed: readonly unknown[]): string | undefined {
  return didYouMean(
    input,
    allowed.filter((value): value is string => typeof value === "string"),
  );
}

/**
 * A misspelled key shows up twice: as an unknown key and as the key it was
 * meant to be missing. When the unknown key's suggestion would resolve a
 * missing-key issue at the same mapping, only the unknown key is reported.
 */
function dropExplainedIssues(issues: LocatedIssue[]): LocatedIssue[] {
  const suggested = new Set<string>();
  for (const { params, displayPath } of issues) {
    if (params.suggestion !== undefined) suggested.add(mappingKey(displayPath, params.suggestion));
  }
  return issues.filter((located) => {
    const satisfiable = satisfiableBy(located);
    if (satisfiable === undefined) return true;
    return !satisfiable.keys.some((key) => suggested.has(mappingKey(satisfiable.mapping, key)));
  });
}

function satisfiableBy(located: LocatedIssue): { mapping: Path; keys: readonly string[] } | undefined {
  const { issue, params, docPath } = located;
  if (params.satisfiableBy !== undefined) return { mapping: docPath, keys: params.satisfiableBy };
  const last = docPath[docPath.length - 1];
  if (isMissingKeyIssue(issue) && typeof last === "string") return { mapping: docPath.slice(0, -1), keys: [last] };
  return undefined;
}

function isMissingKeyIssue(issue: core.$ZodIssue): boolean {
  return (issue.code === "invalid_type" || issue.code === "invalid_union") && issue.input === undefined;
}

function mappingKey(mapping: Path, key: string): string {
  return `${formatPath(mapping)}\u0000${key}`;
}

/** Adds what only the document knows, e.g. the line of the first of two duplicate names. */
function messageWithContext(located: LocatedIssue, root: unknown, lineCounter: LineCounter): string {
  const { issue, params } = located;
  if (params.firstIndex === undefined) return issue.message;
  const firstPath = [...issue.path];
  firstPath[firstPath.length - 2] = params.firstIndex;
  const first = resolvePath(root, firstPath, false);
  return `${issue.message} (first at line ${lineCounter.linePos(first.offset).line})`;
}

/** A path as a map key: segments keep their type, so `[0]` and `["0"]` differ. */
/**
 * Whether a prefix of `path` (or the path itself) was rejected. Looks up each
 * prefix, so a file with thousands of refused aliases and as many schema
 * issues under them costs issues × depth, not issues × refusals.
 */
function underRejectedPath(path: Path, rejected: ReadonlySet<string>): boolean {
  if (rejected.size === 0) return false;
  for (let length = 0; length <= path.length; length++) {
    if (rejected.has(pathKey(path.slice(0, length)))) return true;
  }
  return false;
}

/** `metaBehaviors[0].checks[1].type`; keys that are not identifiers are bracketed and quoted. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

// ---------------------------------------------------------------------------
// positions of a valid document

function collectPositions(doc: Document, lineCounter: LineCounter): IRPositions {
  const lineAt = (node: unknown): number => (isNode(node) ? lineCounter.linePos(nodeStart(node)).line : 0);
  const itemLines = (node: unknown): number[] => (isSeq(node) ? node.items.map(lineAt) : []);
  const metas = isMap(doc.contents) ? findPair(doc.contents.items, "metaBehaviors")?.value : undefined;
  return {
    metaBehaviors: (isSeq(metas) ? metas.items : []).map((meta) => {
      const pairs = isMap(meta) ? meta.items : [];
      return {
        line: lineAt(meta),
        checks: itemLines(findPair(pairs, "checks")?.value),
        semanticChecks: itemLines(findPair(pairs, "semanticChecks")?.value),
      };
    }),
  };
}
