/**
 * `when` expressions of the condition check (LANGUAGE.md §4): parsing plus
 * the static checks the compiler can see (semantics.md, "when expressions"):
 * unknown names, a value where a condition is needed and the reverse, `in`
 * without a list literal, a list anywhere else, arithmetic or ordering on a
 * literal that can never take part, a bad regex. A tree that parses is checked
 * whole, so every such problem is reported at once.
 */
import { toInstant, toNumber } from "../../runtime/values.js";
import { compileRegex } from "./regex-program.js";
import { didYouMean } from "./did-you-mean.js";
import { parseWhenSyntax } from "./when-syntax.js";
import type { WhenError, WhenNode } from "./when-tree.js";

export { MAX_DEPTH } from "./when-syntax.js";
export type { ArithmeticOperator, ComparisonOperator, EventField, WhenError, WhenNode } from "./when-tree.js";

/**
 * The longest `when` text accepted, as for every judge.yaml string
 * (LIMITS.stringCharacters). It bounds the widest chain: prettier overflows
 * its stack formatting a few thousand `||` terms, however they are grouped.
 */
export const MAX_WHEN_CHARACTERS = 10_000;

/** The name every `when` expression may use: the `each` event itself. */
export const EACH_EVENT = "event";

/** A literal as the comparisons see it: numeric strings are numbers, date strings instants. */
export type LiteralReading =
  | { kind: "number"; value: number }
  | { kind: "instant"; value: number }
  | { kind: "text"; value: string }
  | { kind: "null" }
  | { kind: "boolean"; value: boolean };

/** How `==` and `<` read a known value: numeric strings are numbers, date strings instants. */
export function readValue(value: string | number | boolean | null): LiteralReading {
  if (value === null) return { kind: "null" };
  if (typeof value === "boolean") return { kind: "boolean", value };
  if (typeof value === "number") return { kind: "number", value };
  const number = toNumber(value);
  if (number !== undefined) return { kind: "number", value: number };
  const instant = toInstant(value);
  return instant !== undefined ? { kind: "instant", value: instant } : { kind: "text", value };
}

/** How `==` and `<` read a literal node, or undefined for a node that is not a literal. */
export function readLiteral(node: WhenNode): LiteralReading | undefined {
  switch (node.kind) {
    case "number":
    case "string":
    case "boolean":
      return readValue(node.value);
    case "null":
      return readValue(null);
    default:
      return undefined;
  }
}

/**
 * What the checker knows of a node's value: a condition, a number (literal,
 * arithmetic, count: arithmetic may be null at run time, which changes no
 * static rule), a string (literal or reference), null, or unknown after an
 * error, so one mistake is not reported again by every node above it (a list
 * is such an error wherever a type is asked of it).
 */
type StaticType = "condition" | "number" | "string" | "null" | "unknown";

/** A string literal as a message quotes it: JSON-quoted, a long one clipped (a literal may hold 10,000 characters). */
function quoted(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text);
}

function describe(node: WhenNode, type: StaticType): string {
  switch (node.kind) {
    case "field":
    case "metadata":
    case "count":
      return `${node.label} is a value`;
    case "string":
      return `${quoted(node.value)} is a string`;
    case "number":
      return `${node.value} is a number`;
    case "null":
      return "null is a value";
    default:
      return `this is a ${type === "number" ? "number" : "value"}`;
  }
}

/** A string literal that is neither a decimal number nor an ISO date: only ever equal to itself. */
function isPlainText(node: WhenNode): node is Extract<WhenNode, { kind: "string" }> {
  return readLiteral(node)?.kind === "text";
}

function isDateLiteral(node: WhenNode): boolean {
  return readLiteral(node)?.kind === "instant";
}

/** Collects the errors of one tree; `typeOf` is the whole checker. */
class Checker {
  readonly errors: WhenError[] = [];

  constructor(
    private readonly text: string,
    private readonly names: readonly string[],
  ) {}

  private error(offset: number, message: string, hint?: string): void {
    this.errors.push(hint === undefined ? { offset, message } : { offset, message, hint });
  }

  /** A node that must be a condition (an operand of && || !, or the whole expression). */
  condition(node: WhenNode, where: string): void {
    const type = this.typeOf(node);
    if (type === "condition" || type === "unknown") return;
    const hint =
      node.kind === "field" || node.kind === "metadata" ? `compare it: ${node.label} == "…"` : 'compare it, e.g. x == "…" or x > 10';
    this.error(node.offset, `${where} needs a condition (true or false), but ${describe(node, type)}`, hint);
  }

  /** A node that must be a value (a side of a comparison, of arithmetic, the tested value of matches or in). */
  private value(node: WhenNode, where: string): StaticType {
    const type = this.typeOf(node);
    if (type === "condition") {
      this.error(node.offset, `${where} needs a value, not a condition`);
      return "unknown";
    }
    return type;
  }

  private checkName(node: { name: string; offset: number }): void {
    if (node.name === EACH_EVENT || this.names.includes(node.name)) return;
    const bound = this.names.length === 0 ? "`with` binds no names" : `\`with\` binds ${this.names.join(", ")}`;
    const hint = didYouMean(node.name, [...this.names, EACH_EVENT]);
    this.error(node.offset, `unknown name ${JSON.stringify(node.name)}: ${bound}, and \`event\` is the each event`, hint);
  }

  typeOf(node: WhenNode): StaticType {
    switch (node.kind) {
      case "string":
        return "string";
      case "number":
        return "number";
      case "boolean":
        return "condition";
      case "null":
        return "null";
      case "list":
        this.error(node.offset, "a list is allowed only after `in`", 'x in ["a", "b"]');
        for (const item of node.items) this.typeOf(item);
        return "unknown";
      case "field":
      case "metadata":
        this.checkName(node);
        return "string";
      case "count":
        this.checkName(node);
        return "number";
      case "not":
        this.condition(node.operand, "`!`");
        return "condition";
      case "and":
      case "or":
        for (const operand of node.operands) this.condition(operand, node.kind === "and" ? "`&&`" : "`||`");
        return "condition";
      case "compare":
        this.checkComparison(node);
        return "condition";
      case "in":
        this.checkIn(node);
        return "condition";
      case "arithmetic":
        this.arithmeticOperand(node.left, node.op);
        this.arithmeticOperand(node.right, node.op);
        return "number";
      case "negate":
        this.arithmeticOperand(node.operand, "-");
        return "number";
      case "matches":
        this.checkMatches(node);
        return "condition";
    }
  }

  private checkComparison(node: Extract<WhenNode, { kind: "compare" }>): void {
    const op = node.op;
    const left = this.typeOf(node.left);
    const right = this.typeOf(node.right);
    if (left === "unknown" || right === "unknown") return;
    if (left === "condition" || right === "condition") {
      if (op !== "==" && op !== "!=") this.error(node.offset, `\`${op}\` cannot order conditions (true or false)`);
      else if (left !== right) this.error(node.offset, `\`${op}\` compares a condition with a value, which is never equal`);
      return;
    }
    if (op === "==" || op === "!=") {
      this.checkEqualityKinds(node, left, right);
      return;
    }
    for (const side of [node.left, node.right]) {
      if (side.kind === "null") this.error(side.offset, `\`${op}\` with null is always false`, "test for a missing key with == null");
      else if (isPlainText(side)) {
        this.error(
          side.offset,
          `${quoted(side.value)} is neither a number nor a date, so \`${op}\` is always false`,
          "ordering compares decimal numbers or ISO dates (2024-05-14, 2024-05-14T15:00:00Z)",
        );
      }
    }
    const date = isDateLiteral(node.left) ? node.left : isDateLiteral(node.right) ? node.right : undefined;
    const numeric =
      left === "number" || readLiteral(node.left)?.kind === "number"
        ? node.left
        : right === "number" || readLiteral(node.right)?.kind === "number"
          ? node.right
          : undefined;
    if (date !== undefined && numeric !== undefined && date !== numeric)
      this.error(node.offset, `\`${op}\` compares a date with a number, which is always false`);
  }

  /** `==`/`!=` between a number and text that is not a number (or a date) can never hold. */
  private checkEqualityKinds(node: Extract<WhenNode, { kind: "compare" }>, left: StaticType, right: StaticType): void {
    const sides: [WhenNode, StaticType, WhenNode][] = [
      [node.left, left, node.right],
      [node.right, right, node.left],
    ];
    for (const [side, type, other] of sides) {
      if (type !== "number" && readLiteral(side)?.kind !== "number") continue;
      const reading = readLiteral(other);
      if (reading?.kind === "text") {
        this.error(other.offset, `a number never equals ${quoted(reading.value)}, which is not a number`);
        return;
      }
      if (reading?.kind === "instant") {
        this.error(node.offset, `\`${node.op}\` compares a number with a date, which is never equal`);
        return;
      }
    }
  }

  private checkIn(node: Extract<WhenNode, { kind: "in" }>): void {
    this.value(node.value, "`in`");
    const list = node.list;
    if (list.kind !== "list") {
      this.error(list.offset, "`in` needs a list literal", `${"x"} in ["a", "b"]`);
      this.typeOf(list);
      return;
    }
    if (list.items.length === 0) this.error(list.offset, "`in []` is always false: the list is empty");
    for (const item of list.items) {
      if (item.kind !== "string" && item.kind !== "number" && item.kind !== "null") {
        this.error(item.offset, "a list after `in` holds only literal strings, numbers and null");
        this.typeOf(item);
      }
    }
  }

  private arithmeticOperand(node: WhenNode, op: string): void {
    const type = this.value(node, `\`${op}\``);
    if (type === "unknown") return;
    if (node.kind === "null") this.error(node.offset, `\`${op}\` on null is always null`);
    else if (node.kind === "string" && readLiteral(node)?.kind !== "number") {
      this.error(
        node.offset,
        `\`${op}\` on ${quoted(node.value)}, which is not a number`,
        'arithmetic takes decimal numbers: 12, -3.5, "1e3"',
      );
    }
  }

  private checkMatches(node: Extract<WhenNode, { kind: "matches" }>): void {
    const type = this.value(node.value, "matches");
    if (type === "number" || type === "null")
      this.error(node.value.offset, "matches tests text: a reference (r.key, r.content) or a string");
    if (node.flags !== "" && node.flags !== "i")
      this.error(node.flagsOffset, `unknown regex flags ${quoted(node.flags)}`, 'the only flag is "i" (ignore case)');
    const compiled = compileRegex(node.pattern, node.flags === "i" ? "i" : "");
    if (!compiled.ok) {
      const at = compiled.offset === undefined ? undefined : this.patternCharacter(node, compiled.offset);
      this.error(at ?? node.patternOffset, `bad regular expression: ${compiled.message}`);
    }
  }

  /**
   * Where character `index` of a regex source sits in the when text: inside
   * its string literal when the literal is written without escapes (so each
   * character is itself), else undefined (the literal's start is then cited).
   */
  private patternCharacter(node: Extract<WhenNode, { kind: "matches" }>, index: number): number | undefined {
    const start = node.patternOffset + 1;
    const verbatim = this.text.startsWith(node.pattern, start) && this.text[start + node.pattern.length] === this.text[node.patternOffset];
    return verbatim ? start + index : undefined;
  }
}

/**
 * Parses and checks a `when` expression against the names its `with` binds
 * (`event`, the each event, is always bound). On failure: the first syntax
 * error; else a text past MAX_WHEN_CHARACTERS; else every name and type
 * error of the tree, in text order.
 */
export function parseWhen(
  text: string,
  names: readonly string[],
): { ok: true; tree: WhenNode } | { ok: false; errors: { offset: number; message: string; hint?: string }[] } {
  const parsed = parseWhenSyntax(text);
  if (!parsed.ok) return { ok: false, errors: [parsed.error] };
  // After the parse, which is linear and depth-capped whatever the length, so a deep text gets its located error.
  if (text.length > MAX_WHEN_CHARACTERS) {
    const message = `a when expression is at most ${MAX_WHEN_CHARACTERS.toLocaleString("en-US")} characters long; this one is ${text.length.toLocaleString("en-US")}`;
    return { ok: false, errors: [{ offset: MAX_WHEN_CHARACTERS, message, hint: "split the condition into several checks" }] };
  }
  const checker = new Checker(text, names);
  checker.condition(parsed.tree, "the when expression");
  if (checker.errors.length > 0) return { ok: false, errors: checker.errors.sort((a, b) => a.offset - b.offset) };
  return { ok: true, tree: parsed.tree };
}
