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
  isAlias,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  parseDocument,
  type Alias,
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

type Path = (string | number)[];

/**
 * Parses and checks judge.yaml (FORMATS.md §3). Never throws on bad input:
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

type At = (offset: number, path: Path, message: string, hint?: string) => Diagnostic;

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
// YAML document → plain data, reporting what the schema cannot see

interface PlainData {
  text: string;
  value: unknown;
  /** Each alias's anchored node, found in one walk of the document (see aliasTargets). */
  aliasTargets: Map<Alias, YamlNode>;
  /** countNodes of each alias target, so a target aliased many times is counted once. */
  targetSizes: Map<YamlNode, number>;
  /** Nodes still allowed to be produced by alias expansion (see convertNode). */
  aliasBudget: number;
  /** Anchored nodes being converted right now: an alias to one of them is a cycle. */
  expanding: Set<YamlNode>;
  diagnostics: Diagnostic[];
  /** Document paths whose value was withheld (aliases), as pathKey; schema issues under them would be noise. */
  rejectedPaths: Set<string>;
}

function toPlainData(doc: Document, text: string, at: At): PlainData {
  const data: PlainData = {
    text,
    value: undefined,
    aliasTargets: aliasTargets(doc),
    targetSizes: new Map(),
    aliasBudget: ALIAS_BUDGET,
    expanding: new Set(),
    diagnostics: [],
    rejectedPaths: new Set(),
  };
  data.value = convertNode(doc.contents, [], data, at);
  return data;
}

/**
 * The node each alias stands for: the last node with that anchor before the
 * alias in document order (YAML 1.2 §3.2.2.2), as the yaml library's
 * Alias.resolve finds it. That method walks the whole document on every call,
 * so n aliases cost n walks and parsing grew with the square of n; this is
 * one walk for all of them. Pre-order, keys before values (the order of the
 * library's visit), and iterative.
 */
function aliasTargets(doc: Document): Map<Alias, YamlNode> {
  const latest = new Map<string, YamlNode>();
  const targets = new Map<Alias, YamlNode>();
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isAlias(node)) {
      const target = latest.get(node.source);
      if (target !== undefined) targets.set(node, target);
      continue;
    }
    if (isPair(node)) {
      stack.push(node.value, node.key);
      continue;
    }
    if (!isNode(node)) continue;
    if (node.anchor) latest.set(node.anchor, node);
    if (isSeq(node) || isMap(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
    }
  }
  return targets;
}

/**
 * Expanded alias nodes allowed in one file: far above any real judge.yaml,
 * far below what a "billion laughs" document (nested aliases doubling at each
 * level) would make us build.
 */
const ALIAS_BUDGET = 10_000;

/**
 * Anchors and aliases are ordinary YAML, so a judge.yaml written for the
 * reference may use them (one matcher reused as a trigger and a check): an
 * alias is expanded in place, within a budget, and a cycle is an error.
 */
function convertNode(node: unknown, path: Path, data: PlainData, at: At): unknown {
  if (isAlias(node)) return convertAlias(node, path, data, at);
  if (!isNode(node)) return null;
  reportCustomTag(node, path, data, at);
  // While an anchored node is converted, an alias to it inside it is a cycle.
  if (node.anchor !== undefined) return convertTarget(node, path, data, at);
  return convertValue(node, path, data, at);
}

/** Converts a node that aliases may name, marked as being expanded meanwhile. */
function convertTarget(node: YamlNode, path: Path, data: PlainData, at: At): unknown {
  data.expanding.add(node);
  try {
    return convertValue(node, path, data, at);
  } finally {
    data.expanding.delete(node);
  }
}

function convertValue(node: YamlNode, path: Path, data: PlainData, at: At): unknown {
  if (isScalar(node)) return node.value;
  if (isSeq(node)) return node.items.map((item, index) => convertSeqItem(item, [...path, index], data, at));
  if (isMap(node)) return convertPairs(node.items, path, data, at);
  return null;
}

function convertAlias(alias: Alias, path: Path, data: PlainData, at: At): unknown {
  const refuse = (message: string, hint: string) => {
    data.diagnostics.push(at(nodeStart(alias), path, message, hint));
    data.rejectedPaths.add(pathKey(path));
    return undefined;
  };
  const target = data.aliasTargets.get(alias);
  if (target === undefined) return refuse(`alias "*${alias.source}" names no anchor before it`, "define &" + alias.source + " first");
  if (data.expanding.has(target)) return refuse(`alias "*${alias.source}" refers to itself`, "write the value out in full");
  // Past the budget every alias costs O(1), so the budget bounds time as well as memory.
  if (data.aliasBudget < 0) {
    // Said once, at the first alias past the budget.
    data.rejectedPaths.add(pathKey(path));
    return undefined;
  }
  let size = data.targetSizes.get(target);
  if (size === undefined) {
    size = countNodes(target);
    data.targetSizes.set(target, size);
  }
  data.aliasBudget -= size;
  if (data.aliasBudget < 0) return refuse("aliases expand to too much data", "write the values out in full");
  // Expanding costs what the budget was charged: time stays linear in the expanded size.
  return convertTarget(target, path, data, at);
}

/** How many nodes a value holds, aliases counted as one (they are charged when expanded). Iterative: nesting may be deep. */
function countNodes(root: unknown): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    count++;
    if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    } else if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        count++; // the key
        stack.push(pair.value);
      }
    }
  }
  return count;
}

/** YAML's core tags (`!!str`, `!!int`, `!!map` …) are fine; a custom `!tag` means nothing here. */
const CORE_TAG = /^tag:yaml\.org,2002:(str|int|float|bool|null|map|seq)$/;

function reportCustomTag(node: YamlNode, path: Path, data: PlainData, at: At): void {
  const text = data.text;
  if (node.tag !== undefined && !CORE_TAG.test(node.tag)) {
    const offset = propertyOffset(text, nodeStart(node), "!");
    const spelling = text.slice(offset).match(/^!\S*/)?.[0] ?? node.tag;
    data.diagnostics.push(
      at(offset, path, `tag "${spelling}" is not supported`, "remove it; quote the value if it must be a string"),
    );
  }
}

/**
 * Node ranges start after the node's anchor and tag, but the diagnostic
 * should point at the `&anchor` / `!tag` itself, which precedes the node.
 */
function propertyOffset(text: string, nodeOffset: number, marker: string): number {
  let offset = text.lastIndexOf(marker, nodeOffset);
  if (offset < 0) return nodeOffset;
  while (marker === "!" && offset > 0 && text[offset - 1] === "!") offset--;
  return offset;
}

/** A flow sequence may hold a bare pair (`[a: 1]`), which YAML reads as a one-entry mapping. */
function convertSeqItem(item: unknown, path: Path, data: PlainData, at: At): unknown {
  return isPair(item) ? convertPairs([item], path, data, at) : convertNode(item, path, data, at);
}

function convertPairs(pairs: readonly unknown[], path: Path, data: PlainData, at: At): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const firstKeyOffset = new Map<string, number>();
  for (const pair of pairs) {
    if (!isPair(pair)) continue;
    const key = keyText(pair.key);
    const keyOffset = isNode(pair.key) ? nodeStart(pair.key) : pairStart(pair);
    if (key === undefined) {
      data.diagnostics.push(at(keyOffset, path, "mapping keys must be plain strings"));
      continue;
    }
    if (key === "__proto__") {
      // Assigning it would change the object's prototype instead of adding a key.
      data.diagnostics.push(at(keyOffset, path, 'key "__proto__" is not allowed'));
      continue;
    }
    const first = firstKeyOffset.get(key);
    if (first !== undefined) {
      // The first occurrence is the one validated; the repeat is only reported.
      const firstLine = at(first, [], "").line;
      data.diagnostics.push(at(keyOffset, path, `duplicate key ${JSON.stringify(key)} (first at line ${firstLine})`));
      continue;
    }
    firstKeyOffset.set(key, keyOffset);
    result[key] = convertNode(pair.value, [...path, key], data, at);
  }
  return result;
}

/**
 * Keys are compared as text. Plain non-string scalars (`1:`, `true:`) keep
 * their spelling so metadata keys like "1" survive; collections and aliases
 * as keys are meaningless in judge.yaml.
 */
function keyText(key: unknown): string | undefined {
  if (key === null || key === undefined) return "";
  if (!isScalar(key) || key.anchor !== undefined || key.tag !== undefined) return undefined;
  if (typeof key.value === "string") return key.value;
  return typeof key.source === "string" ? key.source : String(key.value);
}

function nodeStart(node: YamlNode): number {
  return node.range?.[0] ?? 0;
}

function pairStart(pair: Pair): number {
  return isNode(pair.value) ? nodeStart(pair.value) : 0;
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
    offset: found.offset,
    hint: params.hint ?? inferHint(issue, found.node, text),
  };
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
  if (
    issue.code === "invalid_type" &&
    (issue.expected === "int" || issue.expected === "number") &&
    typeof issue.input === "string"
  ) {
    if (/^\s*\d+\s*$/.test(issue.input)) return `remove the quotes: ${issue.input.trim()}`;
  }
  const field = issue.path[issue.path.length - 1];
  if (issue.path.length === 1 && field === "metaBehaviors" && issue.input !== undefined) {
    // Said for null and for [] alike: an empty list is no more valid than none.
    if (issue.code === "invalid_type" || issue.code === "too_small") return "a judge needs at least one meta-behavior";
  }
  if (issue.code === "invalid_type" && issue.expected === "array" && isScalar(node)) {
    // Only where [] is valid: metaBehaviors and patterns must not be empty.
    if (node.value === null) return (EMPTY_LIST_FIELDS as readonly PropertyKey[]).includes(field ?? "") ? "write [] for an empty list" : undefined;
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
    const value =
      typeof input === "object" && input !== null ? (input as Record<string, unknown>)[issue.discriminator] : undefined;
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
function pathKey(path: Path): string {
  return JSON.stringify(path);
}

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
