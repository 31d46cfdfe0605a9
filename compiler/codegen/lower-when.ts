/**
 * Lowers a checked `when` tree (compiler/ir/when.ts) to one boolean
 * TypeScript expression over the runtime's value helpers (runtime/values.ts).
 * User text (string literals, keys, labels) enters only through `lit`.
 * Literals are read at build time: a comparison with `500` or
 * `"2024-05-14T15:00:00"` tests the event's value against a number or an
 * epoch instant, and a comparison of two literals is folded to its answer.
 */
import { EACH_EVENT, readValue, type ArithmeticOperator, type ComparisonOperator, type LiteralReading, type WhenNode } from "../ir/when.js";
import {
  valueAdd,
  valueDivide,
  valueEquals,
  valueMultiply,
  valueNegate,
  valueOrder,
  valueSubtract,
  type WhenValue,
} from "../../runtime/values.js";
import { code, join, lit, type Code } from "./code.js";

/** What the lowering needs from the check that holds the expression. */
export interface WhenScope {
  /** The each event (a StepEvent). */
  event: Code;
  /** The event bound to a `with` name: a StepEvent, never undefined where the test runs. */
  bound: (name: string) => Code;
  /**
   * The identifier of a hoisted constant holding the compiled regex program
   * (compileRegex of ir/regex-program.ts, then regexLiteral of codegen/regex.ts; parseWhen
   * has already checked that compileRegex accepts it). The test calls `regexTest(<it>, text)`.
   */
  regex: (source: string, flags: string) => Code;
}

/** A value the expression reads, for the report of a failed clause: `r.cabin` and the code that reads it. */
export interface WhenRead {
  label: string;
  value: Code;
}

/** The runtime helpers lowered `when` code may call (runtime/index.ts exports them), besides `regexTest`. */
export const WHEN_RUNTIME_NAMES = [
  "countIndexed",
  "instantOf",
  "metadataValue",
  "numberOf",
  "valueAdd",
  "valueDivide",
  "valueEquals",
  "valueIn",
  "valueMultiply",
  "valueNegate",
  "valueOrder",
  "valueSubtract",
] as const;

/** The JavaScript operator of a comparison between two numbers (NaN makes each of them false, `!==` true). */
const NUMERIC_OPERATOR: Record<ComparisonOperator, Code> = {
  "==": code`===`,
  "!=": code`!==`,
  "<": code`<`,
  "<=": code`<=`,
  ">": code`>`,
  ">=": code`>=`,
};

const ARITHMETIC_HELPER: Record<ArithmeticOperator, Code> = {
  "+": code`valueAdd`,
  "-": code`valueSubtract`,
  "*": code`valueMultiply`,
  "/": code`valueDivide`,
};

const ARITHMETIC_AT_BUILD: Record<ArithmeticOperator, (a: WhenValue, b: WhenValue) => number | null> = {
  "+": valueAdd,
  "-": valueSubtract,
  "*": valueMultiply,
  "/": valueDivide,
};

/** A number as code; a negative one parenthesized, so no operator can run into its sign. */
function numberCode(value: number): Code {
  return value < 0 ? code`(${value})` : code`${value}`;
}

/**
 * The value of a node known at build time: a literal, or arithmetic over
 * known values (`2 * 3`, `-(1 + 2)`), computed as the runtime would. Strings
 * stay strings: `"500"` is text that reads as a number.
 */
function constantOf(node: WhenNode): WhenValue | undefined {
  switch (node.kind) {
    case "string":
    case "number":
    case "boolean":
      return node.value;
    case "null":
      return null;
    case "arithmetic": {
      const a = constantOf(node.left);
      const b = constantOf(node.right);
      return a === undefined || b === undefined ? undefined : ARITHMETIC_AT_BUILD[node.op](a, b);
    }
    case "negate": {
      const a = constantOf(node.operand);
      return a === undefined ? undefined : valueNegate(a);
    }
    default:
      return undefined;
  }
}

/** How a comparison reads a node known at build time, or undefined. */
function readConstant(node: WhenNode): LiteralReading | undefined {
  const value = constantOf(node);
  return value === undefined ? undefined : readValue(value);
}

function valueCode(value: WhenValue): Code {
  if (value === null) return code`null`;
  if (typeof value === "string") return lit(value);
  return typeof value === "number" ? numberCode(value) : code`${value}`;
}

/** The comparison's answer for two known values, as the runtime would give it. */
function compareAtBuild(op: ComparisonOperator, a: WhenValue, b: WhenValue): boolean {
  if (op === "==") return valueEquals(a, b);
  if (op === "!=") return !valueEquals(a, b);
  const order = valueOrder(a, b);
  return op === "<" ? order < 0 : op === "<=" ? order <= 0 : op === ">" ? order > 0 : order >= 0;
}

class WhenLowering {
  readonly reads: WhenRead[] = [];
  private readonly labels = new Set<string>();

  constructor(private readonly scope: WhenScope) {}

  private eventOf(name: string): Code {
    return name === EACH_EVENT ? this.scope.event : this.scope.bound(name);
  }

  /** Lists each read once, in the order the expression first reads it. */
  private read(label: string, value: Code): Code {
    if (!this.labels.has(label)) {
      this.labels.add(label);
      this.reads.push({ label, value });
    }
    return value;
  }

  /** A condition: a boolean expression. */
  test(node: WhenNode): Code {
    switch (node.kind) {
      case "boolean":
        return code`${node.value}`;
      case "and":
      case "or":
        return balancedChain(
          node.operands.map((operand) => this.test(operand)),
          node.kind === "and" ? code` && ` : code` || `,
        );
      case "not":
        return code`!${this.test(node.operand)}`;
      case "compare":
        return this.comparison(node.op, node.left, node.right);
      case "in":
        return this.membership(node.value, node.list);
      case "matches":
        return this.matches(node);
      default:
        throw new Error(`internal: a ${node.kind} node where a condition belongs reached codegen (parseWhen refuses it)`);
    }
  }

  /** A value: an expression of type string, number, boolean or null. */
  value(node: WhenNode): Code {
    switch (node.kind) {
      case "string":
      case "number":
      case "boolean":
      case "null":
        return valueCode(constantOf(node)!);
      case "field": {
        const event = this.eventOf(node.name);
        // Absent content is "", as for the content matcher.
        const read =
          node.field === "content"
            ? code`(${event}.content ?? "")`
            : node.field === "action"
              ? code`${event}.action`
              : code`${event}.actor`;
        return this.read(node.label, read);
      }
      case "metadata":
        return this.read(node.label, code`metadataValue(${this.eventOf(node.name)}, ${lit(node.key)})`);
      case "count":
        return this.read(node.label, code`countIndexed(${this.eventOf(node.name)}, ${lit(node.prefix)})`);
      case "arithmetic":
      case "negate": {
        const constant = constantOf(node);
        if (constant !== undefined) return valueCode(constant);
        if (node.kind === "negate") return code`valueNegate(${this.value(node.operand)})`;
        return code`${ARITHMETIC_HELPER[node.op]}(${this.numericOperand(node.left)}, ${this.numericOperand(node.right)})`;
      }
      case "not":
      case "and":
      case "or":
      case "compare":
      case "in":
      case "matches":
        return code`(${this.test(node)})`;
      case "list":
        throw new Error("internal: a list outside `in` reached codegen (parseWhen refuses it)");
    }
  }

  /** An operand of arithmetic: a numeric string literal is read now, so `"500"` costs nothing per event. */
  private numericOperand(node: WhenNode): Code {
    const reading = readConstant(node);
    return reading?.kind === "number" ? numberCode(reading.value) : this.value(node);
  }

  /**
   * `a op b`, specialized on a literal side: against a number, the other side
   * is read as a number (`numberOf`, NaN when it is not one); against a date,
   * as an instant; against other text, null or a boolean, by identity. Two
   * values both known only at run time go through valueEquals / valueOrder.
   */
  private comparison(op: ComparisonOperator, left: WhenNode, right: WhenNode): Code {
    const a = constantOf(left);
    const b = constantOf(right);
    if (a !== undefined && b !== undefined) return code`${compareAtBuild(op, a, b)}`;
    const literalRight = readConstant(right);
    if (literalRight !== undefined) return this.againstLiteral(op, this.value(left), literalRight, false);
    const literalLeft = readConstant(left);
    if (literalLeft !== undefined) return this.againstLiteral(op, this.value(right), literalLeft, true);
    if (isCondition(left) && isCondition(right)) return sameBoolean(op, this.test(left), this.test(right));
    const x = this.value(left);
    const y = this.value(right);
    if (op === "==") return code`valueEquals(${x}, ${y})`;
    if (op === "!=") return code`!valueEquals(${x}, ${y})`;
    return code`(valueOrder(${x}, ${y}) ${NUMERIC_OPERATOR[op]} 0)`;
  }

  /** `other op literal` (or, `literalFirst`, `literal op other`). */
  private againstLiteral(op: ComparisonOperator, other: Code, literal: LiteralReading, literalFirst: boolean): Code {
    const jsOp = NUMERIC_OPERATOR[op];
    const ordered = (x: Code, y: Code): Code => (literalFirst ? code`(${y} ${jsOp} ${x})` : code`(${x} ${jsOp} ${y})`);
    switch (literal.kind) {
      case "number":
        return ordered(code`numberOf(${other})`, numberCode(literal.value));
      case "instant":
        return ordered(code`instantOf(${other})`, numberCode(literal.value));
      case "text":
        // Equality only (parseWhen refuses ordering against plain text): no number or date equals it.
        return ordered(other, lit(literal.value));
      case "null":
        return ordered(other, code`null`);
      case "boolean":
        return sameBoolean(op, other, code`${literal.value}`);
    }
  }

  /** `v in [...]`: the list's literals sorted by kind at build time (runtime valueIn). */
  private membership(value: WhenNode, list: WhenNode): Code {
    if (list.kind !== "list") throw new Error("internal: `in` without a list literal reached codegen (parseWhen refuses it)");
    const readings = list.items.map((item) => readConstant(item));
    const known = constantOf(value);
    if (known !== undefined) return code`${list.items.some((item) => valueEquals(known, constantOf(item)!))}`;
    const numbers: Code[] = [];
    const instants: Code[] = [];
    const strings: Code[] = [];
    let orNull = false;
    for (const reading of readings) {
      if (reading?.kind === "number") numbers.push(numberCode(reading.value));
      else if (reading?.kind === "instant") instants.push(numberCode(reading.value));
      else if (reading?.kind === "text") strings.push(lit(reading.value));
      else if (reading?.kind === "null") orNull = true;
      else throw new Error("internal: a list item that is not a string, number or null reached codegen (parseWhen refuses it)");
    }
    return code`valueIn(${this.value(value)}, [${join(numbers)}], [${join(instants)}], [${join(strings)}], ${orNull})`;
  }

  /**
   * `matches(v, re, flags)`: null (a missing key) matches nothing. A metadata
   * read is tested for null first and read again for the test: a call's result
   * cannot be narrowed, and a second own-property lookup is cheaper than a closure.
   */
  private matches(node: Extract<WhenNode, { kind: "matches" }>): Code {
    const regex = this.scope.regex(node.pattern, node.flags);
    const text = this.value(node.value);
    if (node.value.kind === "metadata") return code`(${text} !== null && regexTest(${regex}, ${text} ?? ""))`;
    return code`regexTest(${regex}, ${text})`;
  }
}

/** Operands per parenthesized group of a long `&&`/`||` chain. */
const CHAIN_GROUP = 8;

/**
 * `(a || b || …)`, grouped so no chain runs longer than CHAIN_GROUP: a parser
 * reads `a || b || c` as `(a || b) || c`, so a flat chain of 1,000 terms is a
 * tree 1,000 deep, and prettier and the type-checker overflow their stacks on
 * it. In groups of groups, 20,000 terms nest five levels. `&&` and `||` are
 * associative, so the grouping changes nothing but the shape.
 */
function balancedChain(operands: readonly Code[], operator: Code): Code {
  let level = operands;
  do {
    const groups: Code[] = [];
    for (let i = 0; i < level.length; i += CHAIN_GROUP) groups.push(code`(${join(level.slice(i, i + CHAIN_GROUP), operator)})`);
    level = groups;
  } while (level.length > 1);
  return level[0]!;
}

/**
 * `a == b` (or `!=`) of two conditions. Object.is rather than `===`: a side
 * folded to `true` or `false` would make TypeScript reject `true === false`
 * as a comparison with no overlap (TS2367).
 */
function sameBoolean(op: ComparisonOperator, a: Code, b: Code): Code {
  return op === "!=" ? code`!Object.is(${a}, ${b})` : code`Object.is(${a}, ${b})`;
}

function isCondition(node: WhenNode): boolean {
  return ["not", "and", "or", "compare", "in", "matches", "boolean"].includes(node.kind);
}

/**
 * The boolean expression of a checked `when` tree, and every value it reads
 * (each once, in reading order) for the report of a failed clause.
 */
export function lowerWhen(
  tree: WhenNode,
  scope: { event: Code; bound: (name: string) => Code; regex: (source: string, flags: string) => Code },
): { test: Code; reads: { label: string; value: Code }[] } {
  const lowering = new WhenLowering(scope);
  const test = lowering.test(tree);
  return { test, reads: lowering.reads };
}
