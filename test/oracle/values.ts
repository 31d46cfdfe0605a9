/**
 * The oracle's own readings of values (semantics.md, "Values"), value
 * matchers (§1) and `when` expressions, written from the specification and
 * sharing no code with runtime/ (only the `when` parser, whose tree this file
 * evaluates by its own rules). Simple over fast: regexes are JS RegExp in
 * u-mode, dates are read field by field.
 */
import type { ValueMatcher } from "../../compiler/ir/types.js";
import type { WhenNode } from "../../compiler/ir/when.js";

// ---------------------------------------------------------------- numbers and dates

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The strict decimal reading of `text`, or undefined (spaces, 0x, Infinity, "" and overflow are not numbers). */
export function decimalOf(text: string): number | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2}|[+-]\d{4})?)?$/;

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days from 1970-01-01 to year-month-day, counted one year and one month at a time (slow and plain). */
function daysSinceEpoch(year: number, month: number, day: number): number {
  let days = 0;
  if (year >= 1970) for (let y = 1970; y < year; y++) days += isLeap(y) ? 366 : 365;
  else for (let y = year; y < 1970; y++) days -= isLeap(y) ? 366 : 365;
  for (let m = 1; m < month; m++) days += daysInMonth(year, m);
  return days + day - 1;
}

/** Epoch milliseconds of an ISO date or date-time (no zone = UTC; fraction beyond ms truncated), or undefined. */
export function instantOf(text: string): number | undefined {
  const m = ISO.exec(text);
  if (m === null) return undefined;
  const [, ys, mos, ds, hs, mis, ss, frac, zone] = m;
  const year = Number(ys);
  const month = Number(mos);
  const day = Number(ds);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const hour = hs === undefined ? 0 : Number(hs);
  const minute = mis === undefined ? 0 : Number(mis);
  const second = ss === undefined ? 0 : Number(ss);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, "0"));
  let offsetMinutes = 0;
  if (zone !== undefined && zone !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    const zh = Number(digits.slice(0, 2));
    const zm = Number(digits.slice(2, 4));
    if (zh > 23 || zm > 59) return undefined;
    offsetMinutes = (zone[0] === "-" ? -1 : 1) * (zh * 60 + zm);
  }
  const local = ((daysSinceEpoch(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + ms;
  return local - offsetMinutes * 60_000;
}

// ---------------------------------------------------------------- regexes

const regexCache = new Map<string, RegExp>();

export function regexTest(source: string, flags: string, text: string): boolean {
  const cacheKey = `${flags}/${source}`;
  let re = regexCache.get(cacheKey);
  if (re === undefined) {
    re = new RegExp(source, `${flags}u`);
    regexCache.set(cacheKey, re);
  }
  return re.test(text);
}

// ---------------------------------------------------------------- value matchers

function has(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** Does `value` (undefined = a missing metadata key) satisfy `matcher`? semantics.md §1, line by line. */
export function valueHolds(matcher: ValueMatcher, value: string | undefined): boolean {
  if (typeof matcher === "string") return value !== undefined && value === matcher;
  if (has(matcher, "equals")) return value !== undefined && value === (matcher as { equals: string }).equals;
  if (has(matcher, "in")) return value !== undefined && (matcher as { in: string[] }).in.includes(value);
  // Plain negation: a missing key satisfies no operator but `exists: false`, so it satisfies
  // `not` of any other (semantics.md's own examples: {not: {exists: false}} means present).
  if (has(matcher, "not")) return !valueHolds((matcher as { not: ValueMatcher }).not, value);
  if (has(matcher, "exists")) return (matcher as { exists: boolean }).exists === (value !== undefined);
  if (has(matcher, "matches")) {
    const { matches, flags } = matcher as { matches: string; flags?: string };
    return value !== undefined && regexTest(matches, flags ?? "", value);
  }
  const range = matcher as { gt?: number | string; gte?: number | string; lt?: number | string; lte?: number | string };
  if (value === undefined) return false;
  const bounds = [range.gt, range.gte, range.lt, range.lte].filter((b) => b !== undefined);
  if (bounds.length === 0) throw new Error(`oracle: unknown value matcher ${JSON.stringify(matcher)}`);
  const numeric = typeof bounds[0] === "number";
  const read = (x: string) => (numeric ? decimalOf(x) : instantOf(x));
  const v = read(value);
  if (v === undefined) return false;
  const b = (x: number | string) => (typeof x === "number" ? x : instantOf(x)!);
  if (range.gt !== undefined && !(v > b(range.gt))) return false;
  if (range.gte !== undefined && !(v >= b(range.gte))) return false;
  if (range.lt !== undefined && !(v < b(range.lt))) return false;
  if (range.lte !== undefined && !(v <= b(range.lte))) return false;
  return true;
}

// ---------------------------------------------------------------- when expressions

/** An event as the oracle sees it (defaults applied). */
export interface ValueEvent {
  id: string;
  actor: string;
  action: string;
  content: string;
  metadata: Record<string, string>;
}

export type WhenValue = string | number | boolean | null | WhenValue[];

function asNumber(v: WhenValue): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "string") return decimalOf(v);
  return undefined;
}

function asInstant(v: WhenValue): number | undefined {
  return typeof v === "string" ? instantOf(v) : undefined;
}

/** `==` of semantics.md: numeric, else instants, else identical strings, both null, or identical booleans. */
export function whenEquals(a: WhenValue, b: WhenValue): boolean {
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  const ia = asInstant(a);
  const ib = asInstant(b);
  if (ia !== undefined && ib !== undefined) return ia === ib;
  if (typeof a === "string" && typeof b === "string") return a === b;
  if (a === null && b === null) return true;
  if (typeof a === "boolean" && typeof b === "boolean") return a === b;
  return false;
}

function ordered(op: "<" | "<=" | ">" | ">=", x: number, y: number): boolean {
  switch (op) {
    case "<":
      return x < y;
    case "<=":
      return x <= y;
    case ">":
      return x > y;
    case ">=":
      return x >= y;
  }
}

function whenOrder(op: "<" | "<=" | ">" | ">=", a: WhenValue, b: WhenValue): boolean {
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined && nb !== undefined) return ordered(op, na, nb);
  const ia = asInstant(a);
  const ib = asInstant(b);
  if (ia !== undefined && ib !== undefined) return ordered(op, ia, ib);
  return false;
}

/** How many distinct N the event has a key `prefix.N` or `prefix.N.…` for (N a run of digits). */
export function countIndexes(event: ValueEvent, prefix: string): number {
  const seen = new Set<string>();
  for (const key of Object.keys(event.metadata)) {
    if (!key.startsWith(`${prefix}.`)) continue;
    const segment = key.slice(prefix.length + 1).split(".")[0]!;
    if (/^\d+$/.test(segment)) seen.add(segment);
  }
  return seen.size;
}

function bound(names: ReadonlyMap<string, ValueEvent>, name: string): ValueEvent {
  const event = names.get(name);
  if (event === undefined) throw new Error(`oracle: ${name} is not bound`);
  return event;
}

/** Evaluates a parsed `when` tree; `names` maps each `with` name and `event` to its event. */
export function evaluateWhen(node: WhenNode, names: ReadonlyMap<string, ValueEvent>): WhenValue {
  switch (node.kind) {
    case "string":
    case "number":
    case "boolean":
      return node.value;
    case "null":
      return null;
    case "list":
      return node.items.map((item) => evaluateWhen(item, names));
    case "field":
      return bound(names, node.name)[node.field];
    case "metadata": {
      const metadata = bound(names, node.name).metadata;
      return has(metadata, node.key) ? metadata[node.key]! : null;
    }
    case "count":
      return countIndexes(bound(names, node.name), node.prefix);
    case "not":
      return evaluateWhen(node.operand, names) !== true;
    case "and":
      return node.operands.every((o) => evaluateWhen(o, names) === true);
    case "or":
      return node.operands.some((o) => evaluateWhen(o, names) === true);
    case "compare": {
      const a = evaluateWhen(node.left, names);
      const b = evaluateWhen(node.right, names);
      if (node.op === "==") return whenEquals(a, b);
      if (node.op === "!=") return !whenEquals(a, b);
      return whenOrder(node.op, a, b);
    }
    case "in": {
      const v = evaluateWhen(node.value, names);
      const list = evaluateWhen(node.list, names);
      if (!Array.isArray(list)) throw new Error("oracle: in without a list");
      return list.some((item) => whenEquals(v, item));
    }
    case "arithmetic": {
      const x = asNumber(evaluateWhen(node.left, names));
      const y = asNumber(evaluateWhen(node.right, names));
      if (x === undefined || y === undefined) return null;
      switch (node.op) {
        case "+":
          return x + y;
        case "-":
          return x - y;
        case "*":
          return x * y;
        case "/":
          return y === 0 ? null : x / y;
      }
      break;
    }
    case "negate": {
      const x = asNumber(evaluateWhen(node.operand, names));
      return x === undefined ? null : -x;
    }
    case "matches": {
      const v = evaluateWhen(node.value, names);
      if (v === null) return false;
      if (typeof v !== "string") throw new Error(`oracle: matches on ${JSON.stringify(v)}`);
      return regexTest(node.pattern, node.flags, v);
    }
  }
  throw new Error(`oracle: unknown when node ${(node as { kind: string }).kind}`);
}
