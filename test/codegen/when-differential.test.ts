/**
 * Differential test of the `when` lowering: random expressions, compiled
 * (with every build-time specialization and fold) and evaluated, against an
 * oracle that walks the tree with semantics.md's rules written out plainly
 * here, independently of runtime/values.ts.
 */
import { describe, expect, test } from "vitest";
import { parseWhen, type WhenNode } from "../../compiler/ir/when.js";
import type { StepEvent } from "../../runtime/stepper.js";
import { buildWhen, type Bound } from "../support/when.js";

type V = string | number | boolean | null;

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function asNumber(v: V): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v !== "string" || !DECIMAL.test(v)) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** Via Date, checking that it did not roll the date over (which is how it reports 2023-02-29). */
function asInstant(v: V): number | undefined {
  if (typeof v !== "string") return undefined;
  const m = ISO.exec(v);
  if (m === null) return undefined;
  const [y, mo, d, h = 0, mi = 0, s = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) => (x === undefined ? undefined : Number(x)));
  const date = new Date(0);
  date.setUTCFullYear(y!, mo! - 1, d!);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo! - 1 || date.getUTCDate() !== d) return undefined;
  if (h > 23 || mi > 59 || s > 59) return undefined;
  let zone = 0;
  if (m[8] !== undefined && m[8] !== "Z") {
    const digits = m[8].replace(":", "");
    const zh = Number(digits.slice(1, 3));
    const zm = Number(digits.slice(3));
    if (zh > 23 || zm > 59) return undefined;
    zone = (digits[0] === "-" ? -1 : 1) * (zh * 60 + zm);
  }
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  return date.getTime() + ((h * 60 + mi) * 60 + s) * 1000 + ms - zone * 60_000;
}

function equal(a: V, b: V): boolean {
  const [x, y] = [asNumber(a), asNumber(b)];
  if (x !== undefined && y !== undefined) return x === y;
  const [s, t] = [asInstant(a), asInstant(b)];
  if (s !== undefined && t !== undefined) return s === t;
  if (typeof a === "string" && typeof b === "string") return a === b;
  if (a === null && b === null) return true;
  return typeof a === "boolean" && typeof b === "boolean" && a === b;
}

/** undefined when incomparable. */
function order(a: V, b: V): number | undefined {
  const [x, y] = [asNumber(a), asNumber(b)];
  if (x !== undefined && y !== undefined) return Math.sign(x - y);
  const [s, t] = [asInstant(a), asInstant(b)];
  if (s !== undefined && t !== undefined) return Math.sign(s - t);
  return undefined;
}

function arithmetic(op: string, a: V, b: V): V {
  const [x, y] = [asNumber(a), asNumber(b)];
  if (x === undefined || y === undefined) return null;
  if (op === "/" && y === 0) return null;
  const r = op === "+" ? x + y : op === "-" ? x - y : op === "*" ? x * y : x / y;
  return Number.isFinite(r) ? r : null;
}

function evaluate(node: WhenNode, e: StepEvent, bound: Bound): V {
  const eventOf = (name: string) => (name === "event" ? e : bound[name]!);
  switch (node.kind) {
    case "string":
    case "number":
    case "boolean":
      return node.value;
    case "null":
      return null;
    case "list":
      throw new Error("list outside in");
    case "field": {
      const ev = eventOf(node.name);
      return node.field === "content" ? (ev.content ?? "") : ev[node.field];
    }
    case "metadata": {
      const m = eventOf(node.name).metadata ?? {};
      return Object.hasOwn(m, node.key) && typeof m[node.key] === "string" ? m[node.key]! : null;
    }
    case "count": {
      const indexes = new Set<string>();
      for (const key of Object.keys(eventOf(node.name).metadata ?? {})) {
        const m = new RegExp(`^${node.prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(\\d+)(\\.|$)`).exec(key);
        if (m !== null) indexes.add(m[1]!);
      }
      return indexes.size;
    }
    case "not":
      return !evaluate(node.operand, e, bound);
    case "and":
      return node.operands.every((o) => evaluate(o, e, bound) === true);
    case "or":
      return node.operands.some((o) => evaluate(o, e, bound) === true);
    case "compare": {
      const [a, b] = [evaluate(node.left, e, bound), evaluate(node.right, e, bound)];
      if (node.op === "==") return equal(a, b);
      if (node.op === "!=") return !equal(a, b);
      const o = order(a, b);
      if (o === undefined) return false;
      return node.op === "<" ? o < 0 : node.op === "<=" ? o <= 0 : node.op === ">" ? o > 0 : o >= 0;
    }
    case "in": {
      const v = evaluate(node.value, e, bound);
      if (node.list.kind !== "list") throw new Error("in without list");
      return node.list.items.some((item) => equal(v, evaluate(item, e, bound)));
    }
    case "arithmetic":
      return arithmetic(node.op, evaluate(node.left, e, bound), evaluate(node.right, e, bound));
    case "negate":
      return arithmetic("-", 0, evaluate(node.operand, e, bound));
    case "matches": {
      const v = evaluate(node.value, e, bound);
      return typeof v === "string" && new RegExp(node.pattern, `${node.flags}u`).test(v);
    }
  }
}

/** A small deterministic PRNG (mulberry32), so a failure names a reproducible seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REFERENCES = [
  "r.n",
  "r.i",
  "r.d",
  "r.z",
  "r.t",
  "r.m",
  "u.n",
  "u.d",
  "event.amount",
  "r.content",
  "event.action",
  'r["a b"]',
  "count(r.f.*)",
];
const LITERALS = [
  "0",
  "12.5",
  "-3",
  '"12.5"',
  '"-3.0"',
  '"2024-05-14T15:00:00Z"',
  '"2024-05-14"',
  '"2024-05-14T17:00:00+02:00"',
  '"economy"',
  "null",
  '"0"',
  "1e1",
];
const COMPARISONS = ["==", "!=", "<", "<=", ">", ">="];
const REGEXES = ['"^e"', '"\\\\d"', '"4-05"', '""', '"^$"'];

function generator(next: () => number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  function value(depth: number): string {
    const roll = next();
    if (depth <= 0 || roll < 0.45) return pick(REFERENCES);
    if (roll < 0.75) return pick(LITERALS);
    if (roll < 0.9) return `${value(depth - 1)} ${pick(["+", "-", "*", "/"])} ${value(depth - 1)}`;
    if (roll < 0.95) return `-${value(depth - 1)}`;
    return `(${value(depth - 1)})`;
  }
  function condition(depth: number): string {
    const roll = next();
    if (depth <= 0 || roll < 0.4) return `${value(2)} ${pick(COMPARISONS)} ${value(2)}`;
    if (roll < 0.5) return `${condition(depth - 1)} && ${condition(depth - 1)}`;
    if (roll < 0.6) return `${condition(depth - 1)} || ${condition(depth - 1)}`;
    if (roll < 0.68) return `!(${condition(depth - 1)})`;
    if (roll < 0.78) return `${value(1)} in [${Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(LITERALS)).join(", ")}]`;
    if (roll < 0.86)
      return `matches(${pick(REFERENCES.filter((r) => !r.startsWith("count")))}, ${pick(REGEXES)}${next() < 0.3 ? ', "i"' : ""})`;
    if (roll < 0.92) return `(${condition(depth - 1)}) ${pick(["==", "!="])} (${condition(depth - 1)})`;
    return pick(["true", "false"]);
  }
  return () => condition(3);
}

const METADATA_VALUES = [
  "12.5",
  "-3",
  "0",
  "2024-05-14T15:00:00",
  "2024-05-14T17:00:00+02:00",
  "2024-05-14",
  "economy",
  "Economy",
  "",
  "1e1",
  "abc",
];

function environment(next: () => number): { e: StepEvent; bound: Bound } {
  const pick = () => METADATA_VALUES[Math.floor(next() * METADATA_VALUES.length)]!;
  const metadata = (keys: string[]) => Object.fromEntries(keys.filter(() => next() < 0.85).map((k) => [k, pick()]));
  return {
    e: { id: "e", actor: "agent", action: pick() || "act", metadata: metadata(["amount"]) },
    bound: {
      r: {
        id: "r",
        actor: "tool",
        action: "get",
        ...(next() < 0.7 ? { content: pick() } : {}),
        metadata: { ...metadata(["n", "i", "d", "z", "t", "a b"]), ...(next() < 0.5 ? { "f.0.x": "1", "f.1": "2" } : {}) },
      },
      u: { id: "u", actor: "tool", action: "get", metadata: metadata(["n", "d"]) },
    },
  };
}

describe("lowered when expressions decide as the oracle does", () => {
  test("random expressions over numbers, dates, text and missing keys", () => {
    const next = random(20_260_514);
    const generate = generator(next);
    let compared = 0;
    let refused = 0;
    for (let i = 0; i < 600; i++) {
      const text = generate();
      const parsed = parseWhen(text, ["r", "u"]);
      if (!parsed.ok) {
        refused++;
        continue;
      }
      const built = buildWhen(text);
      for (let k = 0; k < 4; k++) {
        const { e, bound } = environment(next);
        const expected = evaluate(parsed.tree, e, bound);
        const actual = built.test(e, bound);
        if (actual !== expected) {
          throw new Error(
            `${text}\nexpected ${String(expected)}, got ${String(actual)}\nevents: ${JSON.stringify({ e, bound })}\ncode: ${built.source}`,
          );
        }
        compared++;
      }
    }
    // The generator must reach well past the type checker for this to prove anything.
    expect(compared).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(0);
  });
});
