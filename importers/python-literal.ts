/**
 * Python frameworks often hand a tool's dict result to the model as
 * `str(result)`: a Python repr (`{'status': 'found', 'ok': True}`), not JSON.
 * Strands Agents does so for every `@tool` function that returns a dict.
 * This reads the literal subset such a repr is made of (dicts, lists,
 * tuples, quoted strings, numbers, True, False, None) so the result's fields
 * can be flattened like a JSON result's. Anything else (a set, a
 * `datetime.datetime(...)`, a custom object's repr) is no literal: undefined.
 * Iterative, linear, bounded in depth: a hostile text cannot overflow the stack.
 */
import { MAX_NESTING } from "./core.js";

type Container =
  | { kind: "dict"; value: Record<string, unknown>; key?: string | undefined; close: string }
  | { kind: "list"; value: unknown[]; close: string };

const ESCAPES = new Map<string, string>([
  ["\\", "\\"],
  ["'", "'"],
  ['"', '"'],
  ["n", "\n"],
  ["t", "\t"],
  ["r", "\r"],
  ["0", "\0"],
  ["a", "\u0007"],
  ["b", "\b"],
  ["f", "\f"],
  ["v", "\v"],
]);

const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/** A quoted string starting at `at`: its value and the index after it, or undefined. */
function readString(text: string, at: number): { value: string; end: number } | undefined {
  const quote = text[at]!;
  let value = "";
  let i = at + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === quote) return { value, end: i + 1 };
    if (c === "\n") return undefined;
    if (c !== "\\") {
      value += c;
      i++;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) return undefined;
    const simple = ESCAPES.get(next);
    if (simple !== undefined) {
      value += simple;
      i += 2;
      continue;
    }
    const digits = HEX_DIGITS[next];
    if (digits === undefined) return undefined;
    const hex = text.slice(i + 2, i + 2 + digits);
    if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) return undefined;
    const code = Number.parseInt(hex, 16);
    if (code > 0x10ffff) return undefined;
    value += String.fromCodePoint(code);
    i += 2 + digits;
  }
  return undefined;
}

const NUMBER = /-?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const WORDS = new Map<string, unknown>([
  ["True", true],
  ["False", false],
  ["None", null],
]);

/**
 * The value of a Python literal dict repr, or undefined when `text` is not
 * one (only a dict at the top: the shape a JSON object result would have).
 */
export function parsePythonDict(text: string): Record<string, unknown> | undefined {
  const source = text.trim();
  if (!source.startsWith("{")) return undefined;
  const stack: Container[] = [];
  let result: unknown;
  let done = false;
  let i = 0;
  /** Whether a value may come next (after an opener, a comma, or a colon). */
  let expectValue = true;
  const skip = (): void => {
    while (i < source.length && /\s/.test(source[i]!)) i++;
  };
  /** Places a finished value in the container on top (as a key when the dict waits for one). */
  const place = (value: unknown, isKey = false): boolean => {
    const top = stack.at(-1);
    if (top === undefined) {
      result = value;
      done = true;
      return true;
    }
    if (top.kind === "list") {
      top.value.push(value);
      return true;
    }
    if (top.key === undefined) {
      if (!isKey) return false;
      top.key = value === null ? "None" : typeof value === "object" ? JSON.stringify(value) : String(value);
      return true;
    }
    Object.defineProperty(top.value, top.key, { value, enumerable: true, writable: true, configurable: true });
    top.key = undefined;
    return true;
  };
  /** Whether the dict on top waits for a key (so the next scalar is one). */
  const wantsKey = (): boolean => {
    const top = stack.at(-1);
    return top !== undefined && top.kind === "dict" && top.key === undefined;
  };
  while (!done) {
    skip();
    if (i >= source.length) return undefined;
    const c = source[i]!;
    if (expectValue && (c === "{" || c === "[" || c === "(")) {
      if (wantsKey() || stack.length >= MAX_NESTING) return undefined;
      stack.push(c === "{" ? { kind: "dict", value: {}, close: "}" } : { kind: "list", value: [], close: c === "[" ? "]" : ")" });
      i++;
      continue;
    }
    const top = stack.at(-1);
    if (top !== undefined && c === top.close) {
      if (top.kind === "dict" && top.key !== undefined) return undefined;
      stack.pop();
      i++;
      expectValue = false;
      if (!place(top.value)) return undefined;
      continue;
    }
    if (!expectValue) {
      if (top === undefined) return undefined;
      // In a dict a key is followed by ":" and a value by ","; in a list every item by ",".
      const afterKey = top.kind === "dict" && top.key !== undefined;
      if (c === (afterKey ? ":" : ",")) expectValue = true;
      else return undefined;
      i++;
      continue;
    }
    const isKey = wantsKey();
    let value: unknown;
    if (c === "'" || c === '"') {
      const read = readString(source, i);
      if (read === undefined) return undefined;
      value = read.value;
      i = read.end;
    } else {
      NUMBER.lastIndex = i;
      const number = NUMBER.exec(source);
      const word = /^[A-Za-z_]\w*/.exec(source.slice(i, i + 6));
      if (number !== null) {
        value = Number(number[0].replaceAll("_", ""));
        i += number[0].length;
      } else if (word !== null && WORDS.has(word[0])) {
        value = WORDS.get(word[0]);
        i += word[0].length;
      } else return undefined;
    }
    expectValue = false;
    if (!place(value, isKey)) return undefined;
  }
  skip();
  if (i !== source.length || typeof result !== "object" || result === null || Array.isArray(result)) return undefined;
  return result as Record<string, unknown>;
}
