/**
 * YAML document → plain data for the schema, reporting what the schema cannot
 * see: duplicate keys, anchors and aliases (expanded in one walk, within a
 * budget), custom tags, odd keys. Split from parse.ts, which maps the schema's
 * issues back onto the nodes found here.
 */
import { isAlias, isMap, isNode, isPair, isScalar, isSeq, type Alias, type Document, type Node as YamlNode, type Pair } from "yaml";
import type { Diagnostic } from "../diagnostics.js";

/** A path into the document: mapping keys and sequence indexes. */
export type Path = (string | number)[];

/** A path as one string, for sets of paths. */
export function pathKey(path: Path): string {
  return JSON.stringify(path);
}

/** Makes a diagnostic located at a text offset. */
export type At = (offset: number, path: Path, message: string, hint?: string) => Diagnostic;

export interface PlainData {
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

export function toPlainData(doc: Document, text: string, at: At): PlainData {
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
    data.diagnostics.push(at(offset, path, `tag "${spelling}" is not supported`, "remove it; quote the value if it must be a string"));
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
export function keyText(key: unknown): string | undefined {
  if (key === null || key === undefined) return "";
  if (!isScalar(key) || key.anchor !== undefined || key.tag !== undefined) return undefined;
  if (typeof key.value === "string") return key.value;
  return typeof key.source === "string" ? key.source : String(key.value);
}

export function nodeStart(node: YamlNode): number {
  return node.range?.[0] ?? 0;
}

export function pairStart(pair: Pair): number {
  return isNode(pair.value) ? nodeStart(pair.value) : 0;
}
