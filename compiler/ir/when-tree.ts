/**
 * What a parsed `when` expression is: the tree that when-syntax.ts builds,
 * when.ts checks and codegen/lower-when.ts lowers, and the located error they
 * report.
 */

/** Both operands are values; the result is a condition. */
export type ComparisonOperator = "==" | "!=" | "<" | "<=" | ">" | ">=";
export type ArithmeticOperator = "+" | "-" | "*" | "/";
/** The fields of an event a reference reads directly; any other path is a metadata key. */
export type EventField = "content" | "action" | "actor";

/**
 * A node of a parsed `when` expression. `offset` is where a diagnostic about
 * the node points, in UTF-16 units from the start of the text: the operator of
 * a binary or `in` node, else the node's first character. References carry
 * `label`, the canonical spelling a report shows (`r.cabin`, `r["a b"]`).
 */
export type WhenNode =
  | { kind: "string"; value: string; offset: number }
  | { kind: "number"; value: number; offset: number }
  | { kind: "boolean"; value: boolean; offset: number }
  | { kind: "null"; offset: number }
  | { kind: "list"; items: WhenNode[]; offset: number }
  | { kind: "field"; name: string; field: EventField; label: string; offset: number }
  | { kind: "metadata"; name: string; key: string; label: string; offset: number }
  | { kind: "count"; name: string; prefix: string; label: string; offset: number }
  | { kind: "not"; operand: WhenNode; offset: number }
  | { kind: "and" | "or"; operands: WhenNode[]; offset: number }
  | { kind: "compare"; op: ComparisonOperator; left: WhenNode; right: WhenNode; offset: number }
  | { kind: "in"; value: WhenNode; list: WhenNode; offset: number }
  | { kind: "arithmetic"; op: ArithmeticOperator; left: WhenNode; right: WhenNode; offset: number }
  | { kind: "negate"; operand: WhenNode; offset: number }
  | { kind: "matches"; value: WhenNode; pattern: string; flags: string; patternOffset: number; flagsOffset: number; offset: number };

/** One located problem with a `when` expression. */
export interface WhenError {
  offset: number;
  message: string;
  hint?: string;
}
