/**
 * `generate --update` writes its result into the judge.yaml it read, in
 * place: the person may have formatted that file by hand (comments, flow
 * maps, their own key order and quoting, blank lines), and a one-word spec
 * edit should show as a one-clause diff, not as a rewritten file.
 *
 * The previous text is parsed with the `yaml` package's Document API, which
 * gives every node its source range. The new judge is compared with the
 * document node by node, and only what differs is rewritten, as text splices
 * at those ranges: a changed scalar in its own style (plain, quoted, block),
 * a removed pair or list item as its lines, an added one as new lines in the
 * indentation around it. Everything else stays byte for byte.
 *
 * List items are matched by meaning, not by position: rules by name, clauses
 * that are equal stay where they are, and a clause that changed takes the
 * place of the old clause of the same type. So the file keeps its own order,
 * which may differ from the order the drafter produced; `editJudgeYaml`
 * returns the text, and the caller re-parses it (and falls back to a fresh
 * serialization if the result does not mean the same judge).
 */
import { CST, Document, isAlias, isCollection, isMap, isScalar, isSeq, parse, parseDocument } from "yaml";
import type { Node, Pair, Scalar, YAMLMap, YAMLSeq } from "yaml";
import type { JudgeIR } from "../ir/types.js";
import { checkData, semanticCheckData, triggerData } from "../ir/serialize.js";

interface Context {
  /** The column of the collection holding the node. */
  parentColumn: number;
  /** Inside a flow collection: everything is rewritten in flow style. */
  inFlow: boolean;
  /** The node is a mapping's value (not a list item). */
  pair: boolean;
}

interface Splice {
  start: number;
  end: number;
  text: string;
}

/** The lists whose items may stay in the file's order: the judge means the same in any order. */
const ORDERED_BY_FILE = new Set(["metaBehaviors", "checks", "semanticChecks"]);

/** The list fields that may be left out when empty (they default to []). */
const OPTIONAL_LISTS = new Set(["checks", "semanticChecks"]);

/** The judge as plain data with judge.yaml's keys, like serializeJudgeYaml writes it. */
function judgeData(ir: JudgeIR): Record<string, unknown> {
  return {
    version: ir.version,
    behavior: ir.behavior,
    metaBehaviors: ir.metaBehaviors.map((rule) => {
      const data: Record<string, unknown> = {
        name: rule.name,
        trigger: triggerData(rule.trigger),
        checks: rule.checks.map(checkData),
        semanticChecks: rule.semanticChecks.map(semanticCheckData),
      };
      if (rule.source !== undefined) data.source = rule.source;
      return data;
    }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Deep equality of plain YAML data (key order ignored). */
function sameData(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameData(x, b[i]));
  }
  if (isRecord(a) || isRecord(b)) {
    if (!isRecord(a) || !isRecord(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameData(a[k], b[k]));
  }
  return a === b;
}

/**
 * A pattern is a mapping or a list of mappings; the file's shape is kept: a
 * one-matcher list stays a list, and a mapping stays a mapping.
 */
function inShapeOf(node: Node | null, data: unknown): unknown {
  if (isSeq(node) && isRecord(data) && isRecord((node.toJSON() as unknown[])[0])) return [data];
  if (isMap(node) && Array.isArray(data) && data.length === 1 && isRecord(data[0])) return data[0];
  return data;
}

function nodeData(node: Node | null): unknown {
  return node === null ? null : (node.toJSON() as unknown);
}

/** Which old list item each new item takes the place of (undefined: inserted). */
type Pairing = (number | undefined)[];

/**
 * Equal items pair first; then the leftovers pair by `key` (rules by name,
 * checks by type, anything else in order). Unpaired old items are removed.
 */
function pairItems(oldItems: unknown[], newItems: unknown[], key: (item: unknown) => unknown): Pairing {
  const pairing: Pairing = newItems.map(() => undefined);
  const used = new Set<number>();
  newItems.forEach((item, i) => {
    const at = oldItems.findIndex((old, j) => !used.has(j) && sameData(old, item));
    if (at >= 0) {
      pairing[i] = at;
      used.add(at);
    }
  });
  newItems.forEach((item, i) => {
    if (pairing[i] !== undefined) return;
    const at = oldItems.findIndex((old, j) => !used.has(j) && key(old) === key(item));
    if (at >= 0) {
      pairing[i] = at;
      used.add(at);
    }
  });
  return pairing;
}

function listKey(path: readonly string[]): (item: unknown) => unknown {
  const field = path.at(-1);
  if (field === "metaBehaviors") return (item) => (isRecord(item) ? `name:${String(item.name)}` : undefined);
  // Rules are matched by name only: a renamed heading is a removed rule and an added one.
  if (field === "checks") return (item) => (isRecord(item) ? `type:${String(item.type)}` : undefined);
  return () => "any";
}

class Editor {
  readonly splices: Splice[] = [];
  readonly step: number;
  readonly indentSeq: boolean;

  constructor(
    readonly text: string,
    readonly doc: Document,
  ) {
    const layout = detectLayout(text, doc);
    this.step = layout.step;
    this.indentSeq = layout.indentSeq;
  }

  column(pos: number): number {
    return pos - (this.text.lastIndexOf("\n", pos - 1) + 1);
  }

  lineStart(pos: number): number {
    return this.text.lastIndexOf("\n", pos - 1) + 1;
  }

  /** The end of the last line (newline included) that holds something other than whitespace, at or before `pos`. */
  contentLineEnd(pos: number): number {
    let end = pos;
    while (end > 0 && /\s/.test(this.text[end - 1]!)) end--;
    const newline = this.text.indexOf("\n", end);
    return newline < 0 ? this.text.length : newline + 1;
  }

  /** Renders data as block YAML whose first line starts at `column` (already there) and whose other lines are indented to it. */
  renderBlock(data: unknown, column: number): string {
    const doc = new Document(data, { compat: "yaml-1.1" });
    const text = doc.toString({ indent: this.step, indentSeq: this.indentSeq, lineWidth: 0 }).replace(/\n$/, "");
    return text
      .split("\n")
      .map((line, i) => (i === 0 || line === "" ? line : " ".repeat(column) + line))
      .join("\n");
  }

  renderFlow(data: unknown): string {
    const doc = new Document(data, { compat: "yaml-1.1" });
    if (isCollection(doc.contents)) doc.contents.flow = true;
    return doc.toString({ lineWidth: 0 }).replace(/\n$/, "");
  }

  /** A scalar in the style the file used for it when that style can say the new value, else as the library would write it. */
  renderScalar(node: Scalar, value: unknown, column: number, inFlow: boolean): string {
    if (typeof value !== "string") return new Document(value).toString().replace(/\n$/, "");
    const type = node.type ?? "PLAIN";
    const block = type === "BLOCK_LITERAL" || type === "BLOCK_FOLDED";
    const indent = block ? this.blockContentIndent(node, column) : column;
    const source = CST.stringify(CST.createScalarToken(value, { indent, type, inFlow, end: [] }));
    if (reads(source, value)) return source;
    return CST.stringify(CST.createScalarToken(value, { indent, type: "QUOTE_DOUBLE", inFlow, end: [] }));
  }

  blockContentIndent(node: Scalar, column: number): number {
    const [start, end] = node.range!;
    const body = this.text.slice(this.text.indexOf("\n", start) + 1, end);
    const first = body.split("\n").find((line) => line.trim() !== "");
    return first === undefined ? column + this.step : first.length - first.trimStart().length;
  }

  replaceScalar(node: Scalar, value: unknown, inFlow: boolean): void {
    const [start, end] = node.range!;
    let text = this.renderScalar(node, value, this.column(start), inFlow);
    const original = this.text.slice(start, end);
    // A block scalar's range ends with its newline: keep the file's line ending there.
    if ((node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED") && !/^[|>][-\d]*\+/.test(original)) {
      text = text.replace(/\s*$/, "") + (/\s*$/.exec(original)?.[0] ?? "");
    }
    this.splices.push({ start, end, text });
  }

  /** Where the ":" of the pair whose value starts at `pos` is. */
  colonBefore(pos: number): number {
    let at = pos - 1;
    while (at > 0 && this.text[at] !== ":") at--;
    return at;
  }

  /** Rewrites a whole node: its kind changed, or a flow collection changed shape. */
  replaceNode(node: Node, data: unknown, ctx: Context): void {
    const [start, valueEnd, nodeEnd] = node.range!;
    const wantsBlock = (Array.isArray(data) && data.length > 0) || (isRecord(data) && Object.keys(data).length > 0);
    if (ctx.inFlow || isScalar(node) || (isCollection(node) && node.flow === true)) {
      const keepFlow = ctx.inFlow || !ctx.pair || !wantsBlock || (isCollection(node) && node.items.length > 0);
      if (keepFlow) {
        this.splices.push({ start, end: valueEnd, text: this.renderFlow(data) });
        return;
      }
      // An empty list or a scalar on the key's line becomes a block on the lines below it.
      const column = ctx.parentColumn + (Array.isArray(data) && !this.indentSeq ? 0 : this.step);
      let from = start;
      while (from > 0 && this.text[from - 1] === " ") from--;
      this.splices.push({ start: from, end: valueEnd, text: `\n${" ".repeat(column)}${this.renderBlock(data, column)}` });
      return;
    }
    const end = this.contentLineEnd(nodeEnd);
    if (!wantsBlock) {
      if (ctx.pair) this.splices.push({ start: this.colonBefore(start) + 1, end, text: ` ${this.renderFlow(data)}\n` });
      else this.splices.push({ start, end, text: `${this.renderFlow(data)}\n` });
      return;
    }
    this.splices.push({ start, end, text: `${this.renderBlock(data, this.column(start))}\n` });
  }

  reconcile(node: Node | null, data: unknown, path: string[], ctx: Context): void {
    if (node === null) throw new Error(`${path.join(".")} has no value`);
    if (isAlias(node)) {
      // `*name` stays while its anchor's value is still right; otherwise the value is written out in its place.
      const target = node.resolve(this.doc);
      if (target !== undefined && sameData(nodeData(target), inShapeOf(target, data))) return;
      this.splices.push({ start: node.range![0], end: node.range![1], text: this.renderFlow(data) });
      return;
    }
    data = inShapeOf(node, data);
    if (sameData(nodeData(node), data)) return;
    if (isScalar(node) && !isRecord(data) && !Array.isArray(data)) this.replaceScalar(node, data, ctx.inFlow);
    else if (isMap(node) && isRecord(data)) this.reconcileMap(node, data, path, ctx);
    else if (isSeq(node) && Array.isArray(data)) this.reconcileSeq(node, data, path, ctx);
    else this.replaceNode(node, data, ctx);
  }

  reconcileMap(node: YAMLMap, data: Record<string, unknown>, path: string[], ctx: Context): void {
    const flow = ctx.inFlow || node.flow === true;
    const pairs = node.items as Pair<Scalar, Node | null>[];
    const keys = pairs.map((p) => String(p.key.value));
    const removed = pairs.filter((_, i) => !Object.hasOwn(data, keys[i]!));
    const added = Object.keys(data).filter(
      (k) => !keys.includes(k) && !(OPTIONAL_LISTS.has(k) && Array.isArray(data[k]) && (data[k] as unknown[]).length === 0),
    );
    // A block list item's first pair shares its line with the item's "-": removing that line
    // would take the dash along and merge what remains into the item above, so the item is rewritten.
    const firstOnDash = !flow && !ctx.pair && pairs.length > 0 && removed.includes(pairs[0]!);
    if ((flow && (removed.length > 0 || added.length > 0)) || firstOnDash) {
      this.replaceNode(node, data, ctx);
      return;
    }
    const column = this.column(node.range![0]);
    for (const pair of pairs) {
      const key = String(pair.key.value);
      if (Object.hasOwn(data, key))
        this.reconcile(pair.value, data[key], [...path, key], { parentColumn: column, inFlow: flow, pair: true });
    }
    for (const pair of removed) {
      const start = this.lineStart(pair.key.range![0]);
      const end = this.contentLineEnd(pair.value?.range?.[2] ?? pair.key.range![2]);
      this.splices.push({ start, end, text: "" });
    }
    if (added.length > 0) {
      const last = pairs.at(-1);
      const at = this.contentLineEnd(last?.value?.range?.[2] ?? last?.key.range![2] ?? node.range![1]);
      const text = added.map((key) => `${" ".repeat(column)}${this.renderBlock({ [key]: data[key] }, column)}\n`).join("");
      this.splices.push({ start: at, end: at, text });
    }
  }

  reconcileSeq(node: YAMLSeq, data: unknown[], path: string[], ctx: Context): void {
    const flow = ctx.inFlow || node.flow === true;
    const items = node.items as Node[];
    const pairing = pairItems(
      items.map((item) => nodeData(item)),
      data,
      listKey(path),
    );
    const kept = new Set(pairing.filter((p): p is number => p !== undefined));
    const structural = kept.size !== items.length || pairing.some((p) => p === undefined);
    // Rules and clauses keep the file's order (the judge means the same either way); in any other
    // list (a pattern's matchers, an `in` list) the order is the judge's own, so a list whose items
    // would stay in another order than the new one is rewritten.
    const paired = pairing.filter((p): p is number => p !== undefined);
    const reordered = !ORDERED_BY_FILE.has(path.at(-1) ?? "") && paired.some((p, i) => i > 0 && p < paired[i - 1]!);
    if (items.length === 0 || data.length === 0 || (flow && structural) || reordered) {
      this.replaceNode(node, data, ctx);
      return;
    }
    data.forEach((item, i) => {
      const old = pairing[i];
      if (old !== undefined)
        this.reconcile(items[old]!, item, path, { parentColumn: this.column(items[old]!.range![0]), inFlow: flow, pair: false });
    });
    items.forEach((item, j) => {
      if (!kept.has(j)) this.splices.push(this.itemLines(item, j === 0));
    });
    const dashColumn = this.column(this.dashOf(items[0]!));
    // The blank lines that separate the file's first two items separate an added one too.
    const gap =
      items.length > 1
        ? (/^(?:[ \t]*\n)*/.exec(this.text.slice(this.contentLineEnd(items[0]!.range![2]), this.dashOf(items[1]!)))?.[0] ?? "")
        : "";
    data.forEach((item, i) => {
      if (pairing[i] !== undefined) return;
      // After the nearest earlier item that stays; before the first item when none does.
      const before = pairing
        .slice(0, i)
        .filter((p): p is number => p !== undefined)
        .at(-1);
      const at = before === undefined ? this.lineStart(this.dashOf(items[0]!)) : this.contentLineEnd(items[before]!.range![2]);
      const text = `${" ".repeat(dashColumn)}- ${this.renderBlock(item, dashColumn + 2)}\n`;
      this.splices.push({ start: at, end: at, text: before === undefined ? `${text}${gap}` : `${gap}${text}` });
    });
  }

  /**
   * The lines of a block list item, with the blank lines that set it apart
   * (above it; below it for the first item), so that removing it leaves the
   * list spaced as before.
   */
  itemLines(item: Node, first: boolean): Splice {
    let start = this.lineStart(this.dashOf(item));
    let end = this.contentLineEnd(item.range![2]);
    if (first) {
      while (/^[ \t]*\n/.test(this.text.slice(end))) end = this.text.indexOf("\n", end) + 1;
    } else {
      while (start > 0 && /\n[ \t]*$/.test(this.text.slice(0, start - 1))) start = this.lineStart(start - 1);
    }
    return { start, end, text: "" };
  }

  /** Where a block list item's "-" is. */
  dashOf(item: Node): number {
    let at = item.range![0] - 1;
    while (at > 0 && this.text[at] !== "-") at--;
    return at;
  }

  apply(): string {
    // From the end of the text back. Insertions at one place (keys added at the end of a
    // clause, then a clause inserted after it) must come out in the order they were made:
    // the one applied last lands first, so of equal places the later-made is applied first.
    const ordered = this.splices
      .map((splice, index) => ({ ...splice, index }))
      .sort((a, b) => b.start - a.start || b.end - a.end || b.index - a.index);
    let text = this.text;
    for (const { start, end, text: insert } of ordered) text = text.slice(0, start) + insert + text.slice(end);
    return text;
  }
}

/** Whether YAML reads `source` back as the string `value` (a plain "yes" or "3" does not). */
function reads(source: string, value: string): boolean {
  try {
    return parse(`k: ${source}`, { version: "1.1" }).k === value && parse(`k: ${source}`).k === value;
  } catch {
    return false;
  }
}

/** The file's indentation step and whether its lists are indented under their keys (defaults: 2, yes). */
function detectLayout(text: string, doc: Document): { step: number; indentSeq: boolean } {
  let step = 2;
  let indentSeq = true;
  const column = (pos: number) => pos - (text.lastIndexOf("\n", pos - 1) + 1);
  const root = doc.contents;
  if (isMap(root)) {
    const pair = (root.items as Pair<Scalar, Node | null>[]).find((p) => String(p.key.value) === "metaBehaviors");
    const list = pair?.value;
    if (isSeq(list) && list.flow !== true && list.items.length > 0) {
      const first = list.items[0] as Node;
      let dash = first.range![0] - 1;
      while (dash > 0 && text[dash] !== "-") dash--;
      indentSeq = column(dash) > column(pair!.key.range![0]);
      if (isMap(first)) {
        const nested = (first.items as Pair<Scalar, Node | null>[]).find((p) => isMap(p.value) && p.value.flow !== true)?.value;
        if (nested?.range != null) step = Math.max(1, column(nested.range[0]) - column(first.range![0]));
      }
    }
  }
  return { step, indentSeq };
}

/**
 * The previous judge.yaml text with only what differs from `next` rewritten.
 * Throws when the text is not a judge.yaml document the editor can follow
 * (the caller then writes a fresh serialization).
 */
export function editJudgeYaml(previousText: string, next: JudgeIR): string {
  // A file with Windows line endings is edited with \n ones and given its own back.
  if (previousText.includes("\r\n") && !/(^|[^\r])\n/.test(previousText))
    return editJudgeYaml(previousText.replace(/\r\n/g, "\n"), next).replace(/\n/g, "\r\n");
  const doc = parseDocument(previousText);
  if (doc.errors.length > 0 || !isMap(doc.contents)) throw new Error("the previous judge.yaml is not a YAML mapping");
  const editor = new Editor(previousText, doc);
  editor.reconcile(doc.contents, judgeData(next), [], { parentColumn: 0, inFlow: false, pair: false });
  return editor.apply();
}
